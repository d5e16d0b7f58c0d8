//===- Async.cpp - cp.async, cp.async.bulk, mbarrier -----------------------===//
//
// The asynchronous-copy family is implemented synchronously: every cp.async /
// cp.async.bulk performs its copy when it is issued, in the issuing thread's
// program order. That is a legal execution of the PTX memory model: an async
// copy may complete at any point between issue and the wait that observes it,
// and completing at issue is one such point. Consequently
// cp.async.commit_group / wait_group / wait_all and the bulk_group
// commit/wait are no-ops (every committed group is already complete), and
// readers in other threads still need the bar.sync / mbarrier wait PTX
// requires, which provide the release/acquire ordering of our plain stores.
//  - cp.async.{ca,cg}.shared.global [d], [s], cp-size{, src-size | , ignore-src}:
//    bytes src-size..cp-size-1 of the destination are zero-filled; with
//    ignore-src true all cp-size bytes are zero.
//  - cp.async.mbarrier.arrive[.noinc] [mbar]: the arrive-on fires when all
//    prior cp.async of the thread complete (already true). Without .noinc the
//    pending count is first incremented, so the net effect on the object is
//    none; with .noinc it is one arrival.
//  - cp.async.bulk (shared::cta/shared::cluster <- global, shared::cluster <-
//    shared::cta with mbarrier::complete_tx::bytes; global <- shared::cta with
//    bulk_group): copy `size` bytes, then complete_tx(size) on the mbarrier.
//    A cluster is always one CTA here, so a .shared::cluster address is an
//    address in the executing CTA's shared memory.
//  - mbarrier.*: calls into the device library (amdgpu-lower/devlib/mbarrier.c,
//    declared in ptx_devlib.h) that implement the phase / pending-arrival /
//    tx-count state machine on the 64-bit object with LDS atomics.
// Multicast, cp_mask, tensor copies and cp.reduce are explicit errors.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static bool isSpaceMod(Mod m) {
  return m == Mod::Global || m == Mod::Shared || m == Mod::SharedCta || m == Mod::SharedCluster;
}

static ptx::Space spaceFor(Mod m) {
  switch (m) {
  case Mod::Global: return ptx::Space::Global;
  case Mod::Shared: case Mod::SharedCta: case Mod::SharedCluster: return ptx::Space::Shared;
  default: return ptx::Space::Generic;
  }
}

// Space modifiers in source order (cp: destination first, then source).
static std::vector<Mod> spaceMods(const ptx::Instruction &in) {
  std::vector<Mod> v;
  for (const auto &m : in.mods)
    if (!m.isType() && isSpaceMod(m.mod)) v.push_back(m.mod);
  return v;
}

// Generic (flat) i64 address of a [addr] operand in `space`.
static Value *genericAddr(FnCtx &fc, const ptx::Operand &op, ptx::Space space, ptx::SourceLoc loc) {
  Value *p = fc.address(op, space, loc);
  if (p->getType()->getPointerAddressSpace() != FlatAS)
    p = fc.b.CreateAddrSpaceCast(p, PointerType::get(fc.mc.ctx, FlatAS));
  return fc.b.CreatePtrToInt(p, fc.i64());
}

static bool isAddr(const ptx::Operand &o) { return o.kind == ptx::Operand::Kind::Addr; }

// Copy `n` (i64, a multiple of `unit`) bytes src -> dst as a loop of
// unit-sized integer loads/stores (unit 1 or 8). Emitted as plain IR rather
// than llvm.memcpy so that variable lengths never depend on a memcpy
// expansion (the emulator runs the IR before the backend would expand it).
static void copyLoop(FnCtx &fc, Value *dst, Value *src, Value *n, unsigned unit) {
  auto &b = fc.b;
  Type *ut = fc.intTy(unit * 8);
  BasicBlock *pre = b.GetInsertBlock();
  BasicBlock *body = BasicBlock::Create(fc.mc.ctx, "copy.body", fc.f);
  BasicBlock *done = BasicBlock::Create(fc.mc.ctx, "copy.done", fc.f);
  b.CreateCondBr(b.CreateICmpEQ(n, b.getInt64(0)), done, body);
  b.SetInsertPoint(body);
  PHINode *i = b.CreatePHI(fc.i64(), 2);
  i->addIncoming(b.getInt64(0), pre);
  Value *v = b.CreateAlignedLoad(ut, b.CreateGEP(b.getInt8Ty(), src, i), Align(unit));
  b.CreateAlignedStore(v, b.CreateGEP(b.getInt8Ty(), dst, i), Align(unit));
  Value *next = b.CreateAdd(i, b.getInt64(unit));
  i->addIncoming(next, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpULT(next, n), body, done);
  b.SetInsertPoint(done);
}

// Fixed-size copy (src != nullptr) or zero fill (src == nullptr) of 4, 8 or
// 16 bytes as 4- or 8-byte integer accesses.
static void fixedChunk(FnCtx &fc, Value *dst, Value *src, uint64_t bytes) {
  auto &b = fc.b;
  uint64_t piece = std::min<uint64_t>(bytes, 8);
  Type *pt = fc.intTy(piece * 8);
  for (uint64_t o = 0; o < bytes; o += piece) {
    Value *v = src ? (Value *)b.CreateAlignedLoad(pt, b.CreateGEP(b.getInt8Ty(), src, b.getInt64(o)), Align(piece))
                   : (Value *)Constant::getNullValue(pt);
    b.CreateAlignedStore(v, b.CreateGEP(b.getInt8Ty(), dst, b.getInt64(o)), Align(piece));
  }
}

static bool cpAsync(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  if (in.has(Mod::Reduce) || in.has(Mod::Tensor) || (in.has(Mod::Prefetch) && !in.has(Mod::Bulk)))
    return fc.unsupported(in);
  if (in.has(Mod::CommitGroup) || in.has(Mod::WaitGroup) || in.has(Mod::WaitAll))
    return true; // every async copy completed at issue (see the file header)
  if (in.has(Mod::Bulk) && in.has(Mod::Prefetch))
    return true; // cp.async.bulk.prefetch.L2: a cache hint
  if (in.has(Mod::Mbarrier) && hasModNamed(in, "arrive")) {
    // cp.async.mbarrier.arrive[.noinc][.shared{::cta}].b64 [mbar]
    if (ops.size() != 1 || !isAddr(ops[0])) return fc.unsupported(in, "operands");
    if (!in.has(Mod::Noinc)) return true; // increment + arrive: no net change
    std::vector<Mod> sp = spaceMods(in);
    Value *a = genericAddr(fc, ops[0], sp.empty() ? ptx::Space::Generic : ptx::Space::Shared, in.loc);
    fc.call("__ptx_mbarrier_arrive", fc.i64(), {a, b.getInt32(1), b.getInt32(0), b.getInt32(0)});
    return true;
  }
  std::vector<Mod> sp = spaceMods(in);
  if (sp.size() != 2) return fc.unsupported(in, "expected destination and source state spaces");
  ptx::Space dS = spaceFor(sp[0]), sS = spaceFor(sp[1]);
  if (in.has(Mod::MulticastCluster) || in.has(Mod::CpMask))
    return fc.unsupported(in, "multicast / cp_mask bulk copies");
  if (in.has(Mod::Bulk)) {
    bool mbar = in.has(Mod::MbarrierCompleteTxBytes);
    bool group = in.has(Mod::BulkGroup);
    if (mbar == group || ops.size() < 3 || !isAddr(ops[0]) || !isAddr(ops[1]))
      return fc.unsupported(in, "operands");
    if (mbar && (ops.size() < 4 || !isAddr(ops[3]) || dS != ptx::Space::Shared))
      return fc.unsupported(in, "operands");
    if (group && dS != ptx::Space::Global) return fc.unsupported(in, "bulk_group destination");
    Value *dst = fc.address(ops[0], dS, in.loc);
    Value *src = fc.address(ops[1], sS, in.loc);
    Value *size = fc.read(ops[2], ptx::Type::U32);
    // size is a multiple of 16 and both addresses are 16-byte aligned (PTX
    // requirements for cp.async.bulk).
    copyLoop(fc, dst, src, b.CreateZExt(size, fc.i64()), 8);
    if (mbar)
      fc.call("__ptx_mbarrier_complete_tx", b.getVoidTy(),
              {genericAddr(fc, ops[3], ptx::Space::Shared, in.loc), size});
    return true;
  }
  // cp.async.{ca,cg}.shared{::cta}.global
  if (!(in.has(Mod::Ca) || in.has(Mod::Cg)) || dS != ptx::Space::Shared || sS != ptx::Space::Global)
    return fc.unsupported(in);
  if (ops.size() < 3 || !isAddr(ops[0]) || !isAddr(ops[1]) || ops[2].kind != ptx::Operand::Kind::Imm)
    return fc.unsupported(in, "operands");
  uint64_t cp = (uint64_t)ops[2].imm;
  if (cp != 4 && cp != 8 && cp != 16) return fc.unsupported(in, "cp-size must be 4, 8 or 16");
  bool hint = in.has(Mod::L2CacheHint);
  size_t extra = ops.size() - 3 - (hint ? 1 : 0); // src-size or ignore-src
  if (extra > 1) return fc.unsupported(in, "operands");
  Value *dst = fc.address(ops[0], dS, in.loc);
  Value *src = fc.address(ops[1], sS, in.loc);
  if (extra == 0) {
    fixedChunk(fc, dst, src, cp);
    return true;
  }
  const ptx::Operand &x = ops[3];
  Value *n; // bytes taken from the source
  bool isPredOp = false;
  if (x.kind == ptx::Operand::Kind::Reg) {
    const auto *slot = dyn_cast_or_null<AllocaInst>(fc.regSlot(x));
    isPredOp = slot && slot->getAllocatedType()->isIntegerTy(1);
  }
  if (isPredOp) {
    n = b.CreateSelect(fc.readPred(x), b.getInt64(0), b.getInt64(cp));
  } else {
    Value *s = b.CreateZExt(fc.read(x, ptx::Type::U32), fc.i64());
    n = b.CreateSelect(b.CreateICmpULT(s, b.getInt64(cp)), s, b.getInt64(cp));
  }
  // Zero the cp-size bytes, then copy the first n source bytes (the source
  // is only read within its src-size bytes).
  fixedChunk(fc, dst, nullptr, cp);
  copyLoop(fc, dst, src, n, 1);
  return true;
}

static bool mbarrier(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  std::vector<Mod> sp = spaceMods(in);
  ptx::Space s = sp.empty() ? ptx::Space::Generic : ptx::Space::Shared;
  Type *i32 = fc.i32(), *i64 = fc.i64(), *vd = b.getVoidTy();
  auto addrAt = [&](size_t i) { return genericAddr(fc, ops[i], s, in.loc); };
  if (in.has(Mod::Init)) {
    if (ops.size() != 2 || !isAddr(ops[0])) return fc.unsupported(in, "operands");
    fc.call("__ptx_mbarrier_init", vd, {addrAt(0), fc.read(ops[1], ptx::Type::U32)});
    return true;
  }
  if (in.has(Mod::Inval)) {
    if (ops.size() != 1 || !isAddr(ops[0])) return fc.unsupported(in, "operands");
    fc.call("__ptx_mbarrier_inval", vd, {addrAt(0)});
    return true;
  }
  bool arrive = hasModNamed(in, "arrive"), drop = in.has(Mod::ArriveDrop);
  if (arrive || drop) {
    // mbarrier.arrive[_drop]{.expect_tx} state, [a]{, count | txCount}
    if (ops.size() < 2 || ops.size() > 3 || !isAddr(ops[1])) return fc.unsupported(in, "operands");
    bool etx = in.has(Mod::ExpectTx);
    if (etx && ops.size() != 3) return fc.unsupported(in, "expect_tx needs a txCount");
    Value *count = !etx && ops.size() == 3 ? fc.read(ops[2], ptx::Type::U32) : b.getInt32(1);
    Value *tx = etx ? fc.read(ops[2], ptx::Type::U32) : b.getInt32(0);
    Value *st = fc.call("__ptx_mbarrier_arrive", i64, {addrAt(1), count, b.getInt32(drop ? 1 : 0), tx});
    fc.write(ops[0], st, ptx::Type::B64);
    return true;
  }
  if (in.has(Mod::ExpectTx) || in.has(Mod::CompleteTx)) {
    if (ops.size() != 2 || !isAddr(ops[0])) return fc.unsupported(in, "operands");
    fc.call(in.has(Mod::ExpectTx) ? "__ptx_mbarrier_expect_tx" : "__ptx_mbarrier_complete_tx", vd,
            {addrAt(0), fc.read(ops[1], ptx::Type::U32)});
    return true;
  }
  if (in.has(Mod::TestWait) || in.has(Mod::TryWait)) {
    // waitComplete, [a], state|phaseParity {, suspendTimeHint}
    if (ops.size() < 3 || ops.size() > 4 || !isAddr(ops[1])) return fc.unsupported(in, "operands");
    bool par = in.has(Mod::Parity), tw = in.has(Mod::TryWait);
    std::string fn = std::string("__ptx_mbarrier_") + (tw ? "try_wait" : "test_wait") + (par ? "_parity" : "");
    Value *arg = par ? fc.read(ops[2], ptx::Type::U32) : fc.read(ops[2], ptx::Type::B64);
    Value *r = fc.call(fn, i32, {addrAt(1), arg});
    fc.writePred(ops[0], b.CreateICmpNE(r, b.getInt32(0)));
    return true;
  }
  if (in.has(Mod::PendingCount)) {
    if (ops.size() != 2) return fc.unsupported(in, "operands");
    fc.write(ops[0], fc.call("__ptx_mbarrier_pending_count", i32, {fc.read(ops[1], ptx::Type::B64)}),
             ptx::Type::U32);
    return true;
  }
  return fc.unsupported(in);
}

bool translateAsync(FnCtx &fc, const ptx::Instruction &in) {
  if (in.op == Opcode::Cp) {
    if (!in.has(Mod::Async)) return fc.unsupported(in);
    return cpAsync(fc, in);
  }
  if (in.op == Opcode::Mbarrier) return mbarrier(fc, in);
  return fc.unsupported(in);
}

} // namespace ptx2llvm
