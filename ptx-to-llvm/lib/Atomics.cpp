//===- Atomics.cpp - atom, red, membar, fence ------------------------------===//
//
// atom/red map to atomicrmw (add/and/or/xor/exch/min/max, inc -> uinc_wrap and
// dec -> udec_wrap, whose definitions equal PTX's; fadd for f32/f64/f16/bf16
// and the x2 vector forms) and cmpxchg for cas (b16..b128). Semantics:
// none/.relaxed -> monotonic, .acquire/.release/.acq_rel as named; scope
// .cta -> "workgroup", .gpu (the default) and .cluster -> "agent", .sys ->
// system; non-.sys atomicrmw carry amdgpu.no.fine.grained.memory /
// amdgpu.no.remote.memory (native AMD forms, as clang marks HIP atomics).
// membar.{cta,gl,sys} and fence.sc are seq_cst fences, fence.acq_rel
// an acq_rel fence at the given scope. fence.proxy.* orders the generic proxy
// against async/texture proxies that this translation never uses: a documented
// no-op.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static SyncScope::ID scopeOf(FnCtx &fc, const ptx::Instruction &in) {
  if (in.has(Mod::Cta)) return fc.mc.ctx.getOrInsertSyncScopeID("workgroup");
  if (in.has(Mod::Sys)) return SyncScope::System;
  return fc.mc.ctx.getOrInsertSyncScopeID("agent"); // .gpu, .cluster, .gl, default
}

// Device- and block-scope atomics (CUDA's atomicAdd/atomicMax/...) touch
// ordinary device memory: like clang's HIP default (no
// -fatomic-fine-grained-memory) they are marked as not targeting fine-grained
// or peer memory, which lets the AMDGPU backend use the native
// global_atomic_{add_f32,smax,smin,...} forms instead of compare-and-swap
// loops. System-scope atomics (atomicAdd_system, host-mapped memory) stay
// unmarked and keep the forms that are safe there.
static void markDeviceMemoryAtomic(Instruction *rmw, SyncScope::ID ss) {
  if (ss == SyncScope::System) return;
  MDNode *empty = MDNode::get(rmw->getContext(), {});
  rmw->setMetadata("amdgpu.no.fine.grained.memory", empty);
  rmw->setMetadata("amdgpu.no.remote.memory", empty);
}

static AtomicOrdering orderOf(const ptx::Instruction &in, AtomicOrdering dflt) {
  if (in.has(Mod::AcqRel)) return AtomicOrdering::AcquireRelease;
  if (in.has(Mod::Acquire)) return AtomicOrdering::Acquire;
  if (in.has(Mod::Release)) return AtomicOrdering::Release;
  if (in.has(Mod::Sc)) return AtomicOrdering::SequentiallyConsistent;
  if (in.has(Mod::Relaxed)) return AtomicOrdering::Monotonic;
  return dflt;
}

static ptx::Space spaceOf(const ptx::Instruction &in) {
  if (in.space != ptx::Space::None) return in.space;
  if (in.has(Mod::Global)) return ptx::Space::Global;
  if (in.has(Mod::Shared) || in.has(Mod::SharedCta)) return ptx::Space::Shared;
  return ptx::Space::Generic;
}

static bool atomic(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  bool isRed = in.op == Opcode::Red;
  const auto &ops = in.operands;
  ptx::Type t = in.type(0);
  ptx::Space sp = spaceOf(in);
  if (sp == ptx::Space::SharedCluster || in.has(Mod::SharedCluster))
    return fc.unsupported(in, "distributed shared memory (.shared::cluster)");
  size_t a0 = isRed ? 0 : 1;
  unsigned vw = in.vecWidth ? in.vecWidth : in.has(Mod::V2) ? 2 : in.has(Mod::V4) ? 4 : in.has(Mod::V8) ? 8 : 0;
  if (vw) {
    // atom/red.add.v2/v4/v8 of float types (sm_90): each element is its own
    // atomic operation (PTX gives no atomicity across the elements).
    if (!in.has(Mod::AddOp) || !isFloat(t) || ops.size() < a0 + 2)
      return fc.unsupported(in, "vector atomics other than float add");
    Value *base = fc.address(ops[a0], spaceOf(in), in.loc);
    const ptx::Operand &src = ops[a0 + 1];
    if (src.kind != ptx::Operand::Kind::Vec || src.elems.size() != vw) return fc.unsupported(in, "vector source");
    unsigned eb = ptx::typeBits(t) / 8;
    for (unsigned i = 0; i < vw; ++i) {
      Value *p = b.CreateGEP(b.getInt8Ty(), base, b.getInt64((uint64_t)i * eb));
      AtomicRMWInst *old = b.CreateAtomicRMW(AtomicRMWInst::FAdd, p, fc.read(src.elems[i], t), Align(eb),
                                             orderOf(in, AtomicOrdering::Monotonic), scopeOf(fc, in));
      markDeviceMemoryAtomic(old, old->getSyncScopeID());
      if (!isRed && ops[0].kind == ptx::Operand::Kind::Vec && i < ops[0].elems.size())
        fc.write(ops[0].elems[i], old, t);
    }
    return true;
  }
  if (ops.size() < a0 + 2) return fc.unsupported(in, "operands");
  Value *ptr = fc.address(ops[a0], sp, in.loc);
  AtomicOrdering ord = orderOf(in, AtomicOrdering::Monotonic);
  SyncScope::ID ss = scopeOf(fc, in);
  Align al(std::max(1u, ptx::typeBits(t) / 8));
  Value *result = nullptr;
  if (in.has(Mod::Cas)) {
    if (isRed || ops.size() < 4) return fc.unsupported(in, "cas operands");
    Type *it = fc.intTy(ptx::typeBits(t));
    Value *cmp = fc.coerce(fc.read(ops[2], t), it), *nv = fc.coerce(fc.read(ops[3], t), it);
    AtomicOrdering failOrd = ord == AtomicOrdering::Release ? AtomicOrdering::Monotonic
                             : ord == AtomicOrdering::AcquireRelease ? AtomicOrdering::Acquire : ord;
    auto *cx = b.CreateAtomicCmpXchg(ptr, cmp, nv, al, ord, failOrd, ss);
    result = b.CreateExtractValue(cx, 0);
    fc.write(ops[0], result, t);
    return true;
  }
  AtomicRMWInst::BinOp op;
  bool fp = isFloat(t);
  bool sgn = isSigned(t);
  if (in.has(Mod::AddOp)) op = fp ? AtomicRMWInst::FAdd : AtomicRMWInst::Add;
  else if (in.has(Mod::And)) op = AtomicRMWInst::And;
  else if (in.has(Mod::Or)) op = AtomicRMWInst::Or;
  else if (in.has(Mod::XorOp)) op = AtomicRMWInst::Xor;
  else if (in.has(Mod::Exch)) op = AtomicRMWInst::Xchg;
  else if (in.has(Mod::Inc)) op = AtomicRMWInst::UIncWrap;
  else if (in.has(Mod::Dec)) op = AtomicRMWInst::UDecWrap;
  else if (in.has(Mod::MinOp)) op = fp ? AtomicRMWInst::FMin : sgn ? AtomicRMWInst::Min : AtomicRMWInst::UMin;
  else if (in.has(Mod::MaxOp)) op = fp ? AtomicRMWInst::FMax : sgn ? AtomicRMWInst::Max : AtomicRMWInst::UMax;
  else return fc.unsupported(in, "unknown atomic operation");
  if (fp && op != AtomicRMWInst::FAdd && op != AtomicRMWInst::FMin && op != AtomicRMWInst::FMax &&
      op != AtomicRMWInst::Xchg)
    return fc.unsupported(in, "operation on a float type");
  Value *v = fc.read(ops[a0 + 1], t);
  if (op == AtomicRMWInst::Xchg && !v->getType()->isIntegerTy()) v = fc.coerce(v, fc.intTy(ptx::typeBits(t)));
  if (!fp && !v->getType()->isIntegerTy()) v = fc.coerce(v, fc.intTy(ptx::typeBits(t)));
  AtomicRMWInst *rmw = b.CreateAtomicRMW(op, ptr, v, al, ord, ss);
  markDeviceMemoryAtomic(rmw, ss);
  result = rmw;
  if (!isRed) fc.write(ops[0], result, t);
  return true;
}

bool translateAtomics(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  switch (in.op) {
  case Opcode::Atom: case Opcode::Red:
    return atomic(fc, in);
  case Opcode::Membar: {
    b.CreateFence(AtomicOrdering::SequentiallyConsistent, scopeOf(fc, in));
    return true;
  }
  case Opcode::Fence: {
    for (const auto &m : in.mods)
      if (!m.isType() && ptx::modName(m.mod).find("proxy") != std::string_view::npos)
        return true; // fence.proxy.*: documented no-op (no async proxies are used)
    for (const auto &m : in.mods)
      if (!m.isType() && (ptx::modName(m.mod).find("mbarrier") != std::string_view::npos ||
                          ptx::modName(m.mod).find("op_restrict") != std::string_view::npos))
        return fc.unsupported(in);
    b.CreateFence(orderOf(in, AtomicOrdering::AcquireRelease) == AtomicOrdering::SequentiallyConsistent
                      ? AtomicOrdering::SequentiallyConsistent : AtomicOrdering::AcquireRelease,
                  scopeOf(fc, in));
    return true;
  }
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
