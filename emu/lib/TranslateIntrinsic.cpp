//===- TranslateIntrinsic.cpp - decoding LLVM intrinsics for emu -----------===//
//
// FnTranslator's intrinsic decoding: translateIntrinsic is one switch
// generated from Intrinsics.def (no-ops, pass-throughs, element-wise lane
// operations, wave-state operations, and the intrinsics with a decoder of
// their own below); constrained FP intrinsics go to translateConstrained. An
// intrinsic without a row is refused at load time, naming it.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

namespace emu::detail {

// The one decode switch, generated from Intrinsics.def: a row says which
// operation an intrinsic is (or which decoder below reads it).
Error FnTranslator::translateIntrinsic(CallBase &CB, Intrinsic::ID ID) {
  switch (ID) {
#define EMU_NOOP_INTRINSIC(Id) case Intrinsic::Id:
#include "Intrinsics.def"
    return Error::success();
#define EMU_MOVE_INTRINSIC(Id) case Intrinsic::Id:
#include "Intrinsics.def"
    return moveArg0(CB);
#define EMU_LANE_INTRINSIC(Id, Op, N) \
  case Intrinsic::Id: return elementwise(CB, LOp::Op, N);
#define EMU_STATE_INTRINSIC(Id, Op, N) \
  case Intrinsic::Id: return emitState(CB, SOp::Op, N);
#define EMU_DECODED_INTRINSIC(Id, Family) \
  case Intrinsic::Id: return translate##Family(CB, ID);
#include "Intrinsics.def"
  default:
    break;
  }
  if (isa<ConstrainedFPIntrinsic>(&CB)) return translateConstrained(CB, ID);
  return fail("unknown intrinsic '" + CB.getCalledFunction()->getName().str() + "'");
}

Error FnTranslator::elementwise(CallBase &CB, LOp Op, unsigned NOps) {
  Type *RT = CB.getType();
  Type *OT = CB.getArgOperand(0)->getType();
  unsigned N = 1;
  if (auto *VT = dyn_cast<FixedVectorType>(RT)) N = VT->getNumElements();
  else if (auto *ST = dyn_cast<StructType>(RT)) {
    if (isa<FixedVectorType>(ST->getElementType(0))) return fail("vector intrinsic with struct result");
  }
  auto K = MT.kindOf(OT->getScalarType());
  if (!K) return fail(toString(K.takeError()));
  Handler H = ops::laneOp(Op, *K);
  if (!H) return fail("intrinsic '" + CB.getCalledFunction()->getName().str() + "' is not implemented for this type");
  for (unsigned i = 0; i < N; ++i) {
    int32_t Ops_[3] = {0, 0, 0};
    for (unsigned o = 0; o < NOps; ++o) {
      Value *V = CB.getArgOperand(o);
      auto S = op(V, V->getType()->isVectorTy() ? i : 0);
      if (!S) return S.takeError();
      Ops_[o] = *S;
    }
    Inst &X = emit(H);
    X.dst = Base[&CB] + int32_t(i); X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2];
  }
  return Error::success();
}

// A wave-state operation over the call's first NOps operands.
Error FnTranslator::emitState(CallBase &CB, SOp S, unsigned NOps) {
  int32_t Ops_[3] = {0, 0, 0};
  for (unsigned o = 0; o < NOps; ++o) {
    auto V = op(CB.getArgOperand(o));
    if (!V) return V.takeError();
    Ops_[o] = *V;
  }
  Inst &X = emit(ops::special(S));
  X.dst = CB.getType()->isVoidTy() ? -1 : Base[&CB];
  X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2];
  return Error::success();
}

/// Cross-lane op applied to every leaf of a possibly multi-slot value.
Error FnTranslator::emitStatePerLeaf(CallBase &CB, SOp S, unsigned NOps, std::initializer_list<unsigned> LeafOps) {
  auto N = count(CB.getType());
  if (!N) return fail(toString(N.takeError()));
  for (unsigned i = 0; i < *N; ++i) {
    int32_t Ops_[3] = {0, 0, 0};
    for (unsigned o = 0; o < NOps; ++o) {
      bool Leafy = std::find(LeafOps.begin(), LeafOps.end(), o) != LeafOps.end();
      auto V = op(CB.getArgOperand(o), Leafy ? i : 0);
      if (!V) return V.takeError();
      Ops_[o] = *V;
    }
    Inst &X = emit(ops::special(S));
    X.dst = Base[&CB] + int32_t(i); X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2];
  }
  return Error::success();
}

// The call's result is its operand 0 (expect, ssa.copy, ...).
Error FnTranslator::moveArg0(CallBase &CB) {
  auto N = count(CB.getType());
  if (!N) return fail(toString(N.takeError()));
  return moveLeaves(Base[&CB], CB.getArgOperand(0), *N);
}

// llvm.invariant.start: its token result is a constant 0.
Error FnTranslator::translateInvariantStart(CallBase &CB, Intrinsic::ID) {
  Inst &X = emit(ops::move());
  X.dst = Base[&CB]; X.a = constSlot(0);
  return Error::success();
}

// memcpy / memmove / memset (and their _inline forms) between any address spaces.
Error FnTranslator::translateMemTransfer(CallBase &CB, Intrinsic::ID ID) {
  auto D = ptrClass(CB.getArgOperand(0));
  if (!D) return D.takeError();
  Handler H;
  if (ID == Intrinsic::memset || ID == Intrinsic::memset_inline) H = ops::memsetOp(*D);
  else {
    auto S = ptrClass(CB.getArgOperand(1));
    if (!S) return S.takeError();
    H = ops::memcpyOp(*D, *S, ID == Intrinsic::memmove);
  }
  auto A = op(CB.getArgOperand(0)), B = op(CB.getArgOperand(1)), L = op(CB.getArgOperand(2));
  if (!A) return A.takeError();
  if (!B) return B.takeError();
  if (!L) return L.takeError();
  Inst &X = emit(H);
  X.a = *A; X.b = *B; X.c = *L;
  return Error::success();
}

// fptosi.sat / fptoui.sat: per leaf, the saturating conversion of the cast handlers.
Error FnTranslator::translateSaturatingCast(CallBase &CB, Intrinsic::ID ID) {
  auto LD = leavesOf(CB.getType());
  auto LS = leavesOf(CB.getArgOperand(0)->getType());
  if (!LD) return fail(toString(LD.takeError()));
  if (!LS) return fail(toString(LS.takeError()));
  for (unsigned i = 0; i < LD->size(); ++i) {
    Handler H = ops::cast(ID == Intrinsic::fptosi_sat ? Instruction::FPToSI : Instruction::FPToUI, (*LS)[i].kind, (*LD)[i].kind);
    if (!H) return fail("unsupported saturating conversion");
    auto A = op(CB.getArgOperand(0), i);
    if (!A) return A.takeError();
    Inst &X = emit(H);
    X.dst = Base[&CB] + int32_t(i); X.a = *A;
  }
  return Error::success();
}

// Vector reductions: a left-to-right chain of scalar operations.
Error FnTranslator::translateReduction(CallBase &CB, Intrinsic::ID ID) {
  std::string Name = CB.getCalledFunction()->getName().str();
  bool HasStart = ID == Intrinsic::vector_reduce_fadd || ID == Intrinsic::vector_reduce_fmul;
  Value *Vec = CB.getArgOperand(HasStart ? 1 : 0);
  auto *VT = dyn_cast<FixedVectorType>(Vec->getType());
  if (!VT) return fail("scalable vectors are not supported");
  auto K = MT.kindOf(VT->getElementType());
  if (!K) return fail(toString(K.takeError()));
  Handler H = nullptr;
  switch (ID) {
  case Intrinsic::vector_reduce_add: H = ops::binInt(Instruction::Add, *K); break;
  case Intrinsic::vector_reduce_mul: H = ops::binInt(Instruction::Mul, *K); break;
  case Intrinsic::vector_reduce_and: H = ops::binInt(Instruction::And, *K); break;
  case Intrinsic::vector_reduce_or: H = ops::binInt(Instruction::Or, *K); break;
  case Intrinsic::vector_reduce_xor: H = ops::binInt(Instruction::Xor, *K); break;
  case Intrinsic::vector_reduce_smin: H = ops::laneOp(LOp::Smin, *K); break;
  case Intrinsic::vector_reduce_smax: H = ops::laneOp(LOp::Smax, *K); break;
  case Intrinsic::vector_reduce_umin: H = ops::laneOp(LOp::Umin, *K); break;
  case Intrinsic::vector_reduce_umax: H = ops::laneOp(LOp::Umax, *K); break;
  case Intrinsic::vector_reduce_fadd: H = ops::binFP(Instruction::FAdd, *K); break;
  case Intrinsic::vector_reduce_fmul: H = ops::binFP(Instruction::FMul, *K); break;
  case Intrinsic::vector_reduce_fmin: H = ops::laneOp(LOp::Minnum, *K); break;
  case Intrinsic::vector_reduce_fmax: H = ops::laneOp(LOp::Maxnum, *K); break;
  case Intrinsic::vector_reduce_fminimum: H = ops::laneOp(LOp::Minimum, *K); break;
  case Intrinsic::vector_reduce_fmaximum: H = ops::laneOp(LOp::Maximum, *K); break;
  default: break;
  }
  if (!H) return fail("unsupported reduction '" + Name + "'");
  unsigned N = VT->getNumElements();
  auto Acc = HasStart ? op(CB.getArgOperand(0)) : op(Vec, 0);
  if (!Acc) return Acc.takeError();
  int32_t Cur_ = *Acc;
  for (unsigned i = HasStart ? 0 : 1; i < N; ++i) {
    auto E = op(Vec, i);
    if (!E) return E.takeError();
    int32_t D = i + 1 == N ? Base[&CB] : slots(1);
    Inst &X = emit(H);
    X.dst = D; X.a = Cur_; X.b = *E;
    Cur_ = D;
  }
  if (Cur_ != Base[&CB]) {
    Inst &X = emit(ops::move());
    X.dst = Base[&CB]; X.a = Cur_;
  }
  return Error::success();
}

// s.sendmsg.rtn: only MSG_RTN_GET_REALTIME.
Error FnTranslator::translateSendMsgRtn(CallBase &CB, Intrinsic::ID) {
  // gfx11+: only MSG_RTN_GET_REALTIME (0x83, amdgpu-lower's %clock64 on gfx11) is modelled.
  auto *Msg = dyn_cast<ConstantInt>(CB.getArgOperand(0));
  if (!Msg || Msg->getZExtValue() != 0x83 || !CB.getType()->isIntegerTy(64))
    return fail("s.sendmsg.rtn other than the 64-bit GET_REALTIME is not modelled");
  return emitState(CB, SOp::MemRealTime);
}

// s.getreg of the hardware registers the device library reads.
Error FnTranslator::translateGetReg(CallBase &CB, Intrinsic::ID) {
  // Hardware registers the device library reads (%smid): HW_ID (gfx9, id 4) and HW_ID1
  // (gfx10+, id 23), modelled in Exec.cpp; any other register is a load error.
  auto *Imm = dyn_cast<ConstantInt>(CB.getArgOperand(0));
  if (!Imm) return fail("s.getreg with a non-constant register");
  unsigned Id = unsigned(Imm->getZExtValue()) & 63;
  if (Id != 4 && Id != 23) return fail("s.getreg of hardware register " + Twine(Id) + " is not modelled");
  if (Error E = emitState(CB, SOp::GetReg)) return E;
  FC.code.back().aux = unsigned(Imm->getZExtValue());
  return Error::success();
}

// amdgcn.ballot: the result kind (i32 / i64 mask) rides in vk.
Error FnTranslator::translateBallot(CallBase &CB, Intrinsic::ID) {
  auto K = MT.kindOf(CB.getType());
  if (!K) return fail(toString(K.takeError()));
  if (Error E = emitState(CB, SOp::Ballot, 1)) return E;
  FC.code.back().vk = uint8_t(*K);
  return Error::success();
}

// amdgcn.icmp / amdgcn.fcmp: a compare of every lane into a mask.
Error FnTranslator::translateCmpBallot(CallBase &CB, Intrinsic::ID ID) {
  auto K = MT.kindOf(CB.getType());
  if (!K) return fail(toString(K.takeError()));
  auto K2 = MT.kindOf(CB.getArgOperand(0)->getType());
  if (!K2) return fail(toString(K2.takeError()));
  auto *P = dyn_cast<ConstantInt>(CB.getArgOperand(2));
  if (!P) return fail("non-constant predicate");
  if (Error E = emitState(CB, ID == Intrinsic::amdgcn_icmp ? SOp::ICmpBallot : SOp::FCmpBallot, 2)) return E;
  Inst &X = FC.code.back();
  X.vk = uint8_t(*K); X.vk2 = uint8_t(*K2); X.kind = uint16_t(P->getZExtValue());
  return Error::success();
}

// readlane / readfirstlane / writelane / permlane64 on every leaf of the value.
Error FnTranslator::translateCrossLane(CallBase &CB, Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::amdgcn_readlane: return emitStatePerLeaf(CB, SOp::ReadLane, 2, {0});
  case Intrinsic::amdgcn_readfirstlane: return emitStatePerLeaf(CB, SOp::ReadFirstLane, 1, {0});
  case Intrinsic::amdgcn_writelane: return emitStatePerLeaf(CB, SOp::WriteLane, 3, {0, 2});
  case Intrinsic::amdgcn_permlane64: return emitStatePerLeaf(CB, SOp::Permlane64, 1, {0});
  default: break;
  }
  return fail("unknown intrinsic '" + CB.getCalledFunction()->getName().str() + "'");
}

// permlane16 / permlanex16 (gfx10+), 32-bit values only.
Error FnTranslator::translatePermlane16(CallBase &CB, Intrinsic::ID ID) {
  // (old, src0, src1, src2, fi, bound_ctrl); 32-bit values only
  auto N = count(CB.getType());
  if (!N) return fail(toString(N.takeError()));
  if (*N != 1 || DL.getTypeSizeInBits(CB.getType()) != 32) return fail("permlane16 of a non-32-bit value");
  auto *FI = dyn_cast<ConstantInt>(CB.getArgOperand(4));
  if (!FI) return fail("non-constant fetch-inactive operand");
  if (Error E = emitState(CB, SOp::Permlane16, 0)) return E;
  Inst &X = FC.code.back();
  auto V = op(CB.getArgOperand(1)), S1 = op(CB.getArgOperand(2)), S2 = op(CB.getArgOperand(3));
  if (!V) return V.takeError();
  if (!S1) return S1.takeError();
  if (!S2) return S2.takeError();
  X.a = *V; X.b = *S1; X.c = *S2;
  X.kind = ID == Intrinsic::amdgcn_permlanex16;
  X.aux = unsigned(FI->getZExtValue());
  return Error::success();
}

// ds.swizzle: bit-mask and quad-permute modes (the offset rides in kind).
Error FnTranslator::translateDsSwizzle(CallBase &CB, Intrinsic::ID) {
  auto *Off = dyn_cast<ConstantInt>(CB.getArgOperand(1));
  if (!Off) return fail("non-constant ds.swizzle offset");
  uint64_t O = Off->getZExtValue();
  if (O > 0xffff || ((O & 0x8000) && (O & 0x7f00)))
    return fail("ds.swizzle offset 0x" + utohexstr(O) + " (FFT/rotate or reserved encodings are not supported)");
  if (Error E = emitState(CB, SOp::DsSwizzle, 1)) return E;
  FC.code.back().kind = uint16_t(O);
  return Error::success();
}

// ds.bpermute / ds.permute.
Error FnTranslator::translateDsPermute(CallBase &CB, Intrinsic::ID ID) {
  // gfx10+ runs a wave64 ds_(b)permute as two 32-lane halves: aux = 1
  // makes the op select lanes within the half (in wave64 only).
  if (Error E = emitState(CB, ID == Intrinsic::amdgcn_ds_bpermute ? SOp::DsBpermute : SOp::DsPermute, 2)) return E;
  FC.code.back().aux = isGfx10Plus(F) ? 1 : 0;
  return Error::success();
}

// experimental.constrained.*: the operation at the call's static rounding mode (kind).
Error FnTranslator::translateConstrained(CallBase &CB, Intrinsic::ID ID) {
  std::string Name = CB.getCalledFunction()->getName().str();
  auto *CFP = cast<ConstrainedFPIntrinsic>(&CB);
  auto RM = CFP->getRoundingMode();
  unsigned Mode = 0;
  if (RM) {
    switch (*RM) {
    case RoundingMode::NearestTiesToEven: case RoundingMode::Dynamic: Mode = 0; break;
    case RoundingMode::TowardZero: Mode = 1; break;
    case RoundingMode::TowardPositive: Mode = 2; break;
    case RoundingMode::TowardNegative: Mode = 3; break;
    default: return fail("unsupported rounding mode in '" + Name + "'");
    }
  }
  auto LD = leavesOf(CB.getType());
  if (!LD) return fail(toString(LD.takeError()));
  auto LS = leavesOf(CB.getArgOperand(0)->getType());
  if (!LS) return fail(toString(LS.takeError()));
  unsigned NOps = CFP->getNonMetadataArgCount();
  for (unsigned i = 0; i < LD->size(); ++i) {
    Handler H = nullptr;
    VK K = (*LS)[i].kind;
    switch (ID) {
    case Intrinsic::experimental_constrained_fadd: H = ops::constrainedBin(Instruction::FAdd, K); break;
    case Intrinsic::experimental_constrained_fsub: H = ops::constrainedBin(Instruction::FSub, K); break;
    case Intrinsic::experimental_constrained_fmul: H = ops::constrainedBin(Instruction::FMul, K); break;
    case Intrinsic::experimental_constrained_fdiv: H = ops::constrainedBin(Instruction::FDiv, K); break;
    case Intrinsic::experimental_constrained_frem: H = ops::constrainedBin(Instruction::FRem, K); break;
    case Intrinsic::experimental_constrained_fma: case Intrinsic::experimental_constrained_fmuladd: H = ops::constrainedFma(K); break;
    case Intrinsic::experimental_constrained_sqrt: H = ops::constrainedUnary(LOp::Sqrt, K); break;
    case Intrinsic::experimental_constrained_rint: case Intrinsic::experimental_constrained_nearbyint: H = ops::constrainedUnary(LOp::Rint, K); break;
    case Intrinsic::experimental_constrained_floor: H = ops::laneOp(LOp::Floor, K); break;
    case Intrinsic::experimental_constrained_ceil: H = ops::laneOp(LOp::Ceil, K); break;
    case Intrinsic::experimental_constrained_trunc: H = ops::laneOp(LOp::Trunc, K); break;
    case Intrinsic::experimental_constrained_round: H = ops::laneOp(LOp::Round, K); break;
    case Intrinsic::experimental_constrained_roundeven: H = ops::laneOp(LOp::RoundEven, K); break;
    case Intrinsic::experimental_constrained_maxnum: H = ops::laneOp(LOp::Maxnum, K); break;
    case Intrinsic::experimental_constrained_minnum: H = ops::laneOp(LOp::Minnum, K); break;
    case Intrinsic::experimental_constrained_maximum: H = ops::laneOp(LOp::Maximum, K); break;
    case Intrinsic::experimental_constrained_minimum: H = ops::laneOp(LOp::Minimum, K); break;
    case Intrinsic::experimental_constrained_ldexp: H = ops::laneOp(LOp::Ldexp, K); break;
    case Intrinsic::experimental_constrained_fptrunc: H = ops::constrainedCast(Instruction::FPTrunc, K, (*LD)[i].kind); break;
    case Intrinsic::experimental_constrained_fpext: H = ops::cast(Instruction::FPExt, K, (*LD)[i].kind); break;
    case Intrinsic::experimental_constrained_sitofp: H = ops::constrainedCast(Instruction::SIToFP, K, (*LD)[i].kind); break;
    case Intrinsic::experimental_constrained_uitofp: H = ops::constrainedCast(Instruction::UIToFP, K, (*LD)[i].kind); break;
    case Intrinsic::experimental_constrained_fptosi: H = ops::cast(Instruction::FPToSI, K, (*LD)[i].kind); break;
    case Intrinsic::experimental_constrained_fptoui: H = ops::cast(Instruction::FPToUI, K, (*LD)[i].kind); break;
    case Intrinsic::experimental_constrained_fcmp: case Intrinsic::experimental_constrained_fcmps:
      H = ops::fcmp(cast<ConstrainedFPCmpIntrinsic>(CB).getPredicate(), K);
      break;
    default: break;
    }
    if (!H) return fail("unsupported constrained intrinsic '" + Name + "'");
    int32_t Ops_[3] = {0, 0, 0};
    for (unsigned o = 0; o < NOps && o < 3; ++o) {
      Value *V = CB.getArgOperand(o);
      auto S = op(V, V->getType()->isVectorTy() ? i : 0);
      if (!S) return S.takeError();
      Ops_[o] = *S;
    }
    Inst &X = emit(H);
    X.dst = Base[&CB] + int32_t(i); X.a = Ops_[0]; X.b = Ops_[1]; X.c = Ops_[2]; X.kind = uint16_t(Mode);
  }
  return Error::success();
}

} // namespace emu::detail
