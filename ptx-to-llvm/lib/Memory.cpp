//===- Memory.cpp - ld/ldu/st, cvta, isspacep, prefetch -------------------===//
//
// Loads and stores in every state space (.global 1, .shared 3, .const 4,
// .local 5, .param: the function's slot or the kernel's byref argument,
// generic: flat 0) with .v2/.v4/.v8 (one vector access of the full width)
// and memory-consistency qualifiers: .volatile -> volatile access,
// .relaxed.scope -> monotonic atomic, .acquire/.release.scope -> acquire/release
// atomic, with scope cta -> syncscope("workgroup"), gpu/cluster -> "agent",
// sys -> system. ld.global.nc / ldu.global are !invariant.load loads (the
// data is read-only for the kernel). Cache operators and eviction hints have no semantic effect
// and are ignored; prefetch/prefetchu are performance hints and emit nothing.
// cvta/cvta.to are addrspacecasts between the integer forms of the pointers;
// isspacep tests a generic address with llvm.amdgcn.is.shared/is.private.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static SyncScope::ID ptxScope(FnCtx &fc, const ptx::Instruction &in) {
  if (in.has(Mod::Cta)) return fc.mc.ctx.getOrInsertSyncScopeID("workgroup");
  if (in.has(Mod::Gpu) || in.has(Mod::Cluster) || in.has(Mod::Gl)) return fc.mc.ctx.getOrInsertSyncScopeID("agent");
  if (in.has(Mod::Sys)) return SyncScope::System;
  return SyncScope::System; // PTX default scope for .relaxed/.acquire/.release is .sys? (.gpu for fences)
}

static ptx::Space effectiveSpace(const ptx::Instruction &in) {
  if (in.space != ptx::Space::None) return in.space;
  if (in.has(Mod::Global)) return ptx::Space::Global;
  if (in.has(Mod::Shared) || in.has(Mod::SharedCta)) return ptx::Space::Shared;
  if (in.has(Mod::Local)) return ptx::Space::Local;
  if (in.has(Mod::Const)) return ptx::Space::Const;
  if (in.has(Mod::Param) || in.has(Mod::ParamEntry) || in.has(Mod::ParamFunc)) return ptx::Space::Param;
  return ptx::Space::Generic;
}

static unsigned vecWidth(const ptx::Instruction &in) {
  if (in.vecWidth) return in.vecWidth;
  if (in.has(Mod::V2)) return 2;
  if (in.has(Mod::V4)) return 4;
  if (in.has(Mod::V8)) return 8;
  return 0;
}

static bool loadStore(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  bool isLoad = in.op != Opcode::St;
  ptx::Type t = in.type(0);
  ptx::Space sp = effectiveSpace(in);
  if (sp == ptx::Space::SharedCluster || in.has(Mod::SharedCluster))
    return fc.unsupported(in, "distributed shared memory (.shared::cluster)");
  const auto &ops = in.operands;
  if (ops.size() < 2) return fc.unsupported(in, "operands");
  const ptx::Operand &addrOp = isLoad ? ops[1] : ops[0];
  const ptx::Operand &valOp = isLoad ? ops[0] : ops[1];
  unsigned n = vecWidth(in);
  Type *et = fc.llvmType(t);
  if (t == ptx::Type::Pred) return fc.unsupported(in, "predicate memory access");
  Value *ptr = fc.address(addrOp, sp, in.loc);
  unsigned ebytes = std::max(1u, ptx::typeBits(t) / 8);
  Align al(ebytes * (n ? n : 1));
  if (sp == ptx::Space::Param) al = Align(ebytes); // slots may be less aligned than the vector
  bool vol = in.has(Mod::Volatile) || in.has(Mod::Mmio);
  AtomicOrdering ord = AtomicOrdering::NotAtomic;
  if (in.has(Mod::Relaxed)) ord = AtomicOrdering::Monotonic;
  if (in.has(Mod::Acquire)) ord = AtomicOrdering::Acquire;
  if (in.has(Mod::Release)) ord = AtomicOrdering::Release;
  // Vector accesses with .relaxed/.acquire/.release: PTX treats a vector access
  // as a set of element accesses; one volatile vector access (which bypasses
  // non-coherent caches on AMDGPU like an agent-scope atomic) plus fences for
  // acquire/release gives that, and keeps the 16-byte single-instruction
  // access that CUB's decoupled look-back descriptors expect.
  if (ord != AtomicOrdering::NotAtomic && n) {
    vol = true;
    if (!isLoad && ord == AtomicOrdering::Release) b.CreateFence(AtomicOrdering::Release, ptxScope(fc, in));
  }
  if (ord != AtomicOrdering::NotAtomic && et->isFloatingPointTy() == false && !et->isIntegerTy())
    return fc.unsupported(in, "atomic access type");
  SyncScope::ID ss = ptxScope(fc, in);
  Type *accTy = n ? (Type *)FixedVectorType::get(et, n) : et;
  if (isLoad) {
    if (n && valOp.kind != ptx::Operand::Kind::Vec) return fc.unsupported(in, "vector destination");
    LoadInst *ld = b.CreateAlignedLoad(accTy, ptr, al, vol);
    if (ord != AtomicOrdering::NotAtomic && !n) ld->setAtomic(ord, ss);
    // ld.global.nc / ldu.global: PTX requires the data to be read-only for
    // the kernel's lifetime, i.e. an invariant load (nvcc emits .nc for
    // `const __restrict__` pointers): it may be hoisted, merged, and become a
    // scalar load when the address is uniform.
    if ((in.has(Mod::Nc) || in.op == Opcode::Ldu) && sp == ptx::Space::Global && !vol &&
        ord == AtomicOrdering::NotAtomic)
      ld->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(fc.mc.ctx, {}));
    if (ord == AtomicOrdering::Acquire && n) b.CreateFence(AtomicOrdering::Acquire, ss);
    if (!n) { fc.write(valOp, ld, t); return true; }
    for (unsigned i = 0; i < n && i < valOp.elems.size(); ++i) {
      if (valOp.elems[i].kind == ptx::Operand::Kind::Sink) continue;
      fc.write(valOp.elems[i], b.CreateExtractElement(ld, i), t);
    }
    return true;
  }
  Value *v;
  if (n) {
    if (valOp.kind != ptx::Operand::Kind::Vec || valOp.elems.size() != n) return fc.unsupported(in, "vector source");
    v = PoisonValue::get(accTy);
    for (unsigned i = 0; i < n; ++i) v = b.CreateInsertElement(v, fc.read(valOp.elems[i], t), i);
  } else {
    v = fc.read(valOp, t);
  }
  StoreInst *st = b.CreateAlignedStore(v, ptr, al, vol);
  if (ord != AtomicOrdering::NotAtomic && !n) st->setAtomic(ord, ss);
  return true;
}

bool translateMemory(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  switch (in.op) {
  case Opcode::Ld: case Opcode::Ldu: case Opcode::St:
    return loadStore(fc, in);
  case Opcode::Prefetch: case Opcode::Prefetchu:
    return true; // a hint: no observable effect
  case Opcode::Cvta: {
    ptx::Type t = in.type(0);
    ptx::Space sp = effectiveSpace(in);
    if (sp == ptx::Space::Generic || (sp == ptx::Space::Param && !fc.pf.isEntry))
      return fc.unsupported(in, "cvta of this state space");
    // A kernel's .param space is the kernarg segment (addrspace(4)).
    unsigned as = sp == ptx::Space::Param ? (unsigned)ConstAS : spaceAS(sp);
    bool narrow = as == SharedAS || as == PrivateAS;
    Type *flat = PointerType::get(fc.mc.ctx, FlatAS), *sptr = PointerType::get(fc.mc.ctx, as);
    Value *r;
    if (in.has(Mod::To)) { // generic -> space
      Value *x = fc.read(ops[1], ptx::Type::U64);
      Value *p = b.CreateAddrSpaceCast(b.CreateIntToPtr(x, flat), sptr);
      r = b.CreatePtrToInt(p, narrow ? b.getInt32Ty() : b.getInt64Ty());
    } else { // space -> generic
      Value *x = fc.read(ops[1], narrow ? ptx::Type::U32 : ptx::Type::U64);
      Value *p = b.CreateAddrSpaceCast(b.CreateIntToPtr(x, sptr), flat);
      r = b.CreatePtrToInt(p, b.getInt64Ty());
    }
    fc.write(ops[0], fc.coerce(r, fc.intTy(ptx::typeBits(t))), t);
    return true;
  }
  case Opcode::Isspacep: {
    ptx::Space sp = effectiveSpace(in);
    Value *x = fc.read(ops[1], ptx::Type::U64);
    Value *p = b.CreateIntToPtr(x, PointerType::get(fc.mc.ctx, FlatAS));
    Value *r;
    if (sp == ptx::Space::Shared) r = b.CreateIntrinsic(Intrinsic::amdgcn_is_shared, {}, {p});
    else if (sp == ptx::Space::Local) r = b.CreateIntrinsic(Intrinsic::amdgcn_is_private, {}, {p});
    else if (sp == ptx::Space::Global)
      r = b.CreateNot(b.CreateOr(b.CreateIntrinsic(Intrinsic::amdgcn_is_shared, {}, {p}),
                                 b.CreateIntrinsic(Intrinsic::amdgcn_is_private, {}, {p})));
    else return fc.unsupported(in, "isspacep for this state space");
    fc.writePred(ops[0], r);
    return true;
  }
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
