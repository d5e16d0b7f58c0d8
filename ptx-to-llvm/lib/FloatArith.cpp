//===- FloatArith.cpp - f32/f64 arithmetic -------------------------------===//
//
// add/sub/mul/fma/mad, div (approx/full/rn..rp), rcp/sqrt (approx and IEEE),
// rsqrt, sin/cos/lg2/ex2/tanh approx, min/max (.NaN, .xorsign.abs), abs/neg,
// copysign, testp for .f32 and .f64.
//
// Exactness: IR fadd/fsub/fmul/fdiv/llvm.fma/llvm.sqrt are correctly rounded
// to nearest-even with denormals preserved (AMD's default f32 mode), which is
// PTX's .rn. Directed rounding (.rz/.rm/.rp) uses constrained intrinsics under
// llvm.set.rounding in a strictfp function (FnCtx::withRounding). .ftz flushes
// denormal inputs and the result explicitly; .sat clamps to [0,1] with NaN ->
// +0; NaN results are NVIDIA's canonical NaN. min/max are IEEE 754-2019
// minimumNumber/maximumNumber (NaN operand ignored, -0 < +0), .NaN forms
// propagate NaN. Approx forms use LLVM's afn lowering (AMD's v_rcp/v_rsq/
// v_sqrt/v_exp/v_log/v_sin/v_cos), which is within PTX's documented bounds.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static Value *binop(FnCtx &fc, Instruction::BinaryOps op, Value *x, Value *y, RoundingMode rm) {
  Intrinsic::ID cid = op == Instruction::FAdd   ? Intrinsic::experimental_constrained_fadd
                      : op == Instruction::FSub ? Intrinsic::experimental_constrained_fsub
                      : op == Instruction::FMul ? Intrinsic::experimental_constrained_fmul
                                                : Intrinsic::experimental_constrained_fdiv;
  return fc.withRounding(rm, cid, {x, y}, x->getType(), [&]() -> Value * {
    switch (op) {
    case Instruction::FAdd: return fc.b.CreateFAdd(x, y);
    case Instruction::FSub: return fc.b.CreateFSub(x, y);
    case Instruction::FMul: return fc.b.CreateFMul(x, y);
    default: return fc.b.CreateFDiv(x, y);
    }
  });
}

static Value *fmaR(FnCtx &fc, Value *x, Value *y, Value *z, RoundingMode rm) {
  return fc.withRounding(rm, Intrinsic::experimental_constrained_fma, {x, y, z}, x->getType(),
                         [&] { return fc.fpIntrinsic(Intrinsic::fma, {x, y, z}); });
}

static Value *sqrtR(FnCtx &fc, Value *x, RoundingMode rm) {
  return fc.withRounding(rm, Intrinsic::experimental_constrained_sqrt, {x}, x->getType(),
                         [&] { return fc.fpIntrinsic(Intrinsic::sqrt, {x}); });
}

static FastMathFlags approxFlags() {
  FastMathFlags f;
  f.setApproxFunc();
  f.setAllowReciprocal();
  return f;
}

// Common epilogue: ftz, saturate, canonical NaN.
static Value *finish(FnCtx &fc, const ptx::Instruction &in, Value *r, bool canonical = true) {
  if (in.has(Mod::Ftz)) r = fc.flushDenorm(r);
  if (in.has(Mod::Sat)) r = fc.saturate01(r);
  else if (canonical) r = fc.canonicalNaN(r);
  return r;
}

static Value *in1(FnCtx &fc, const ptx::Instruction &in, unsigned i, ptx::Type t) {
  Value *v = fc.read(in.operands[i], t);
  if (in.has(Mod::Ftz)) v = fc.flushDenorm(v);
  return v;
}

static bool approxUnary(FnCtx &fc, const ptx::Instruction &in, ptx::Type t) {
  auto &b = fc.b;
  Value *x = in1(fc, in, 1, t);
  IRBuilder<>::FastMathFlagGuard guard(b);
  b.setFastMathFlags(approxFlags());
  Value *r = nullptr;
  switch (in.op) {
  case Opcode::Sin: r = fc.fpIntrinsic(Intrinsic::sin, {x}); break;
  case Opcode::Cos: r = fc.fpIntrinsic(Intrinsic::cos, {x}); break;
  case Opcode::Lg2: r = fc.fpIntrinsic(Intrinsic::log2, {x}); break;
  case Opcode::Ex2: r = fc.fpIntrinsic(Intrinsic::exp2, {x}); break;
  case Opcode::Rsqrt: r = b.CreateFDiv(ConstantFP::get(x->getType(), 1.0), fc.fpIntrinsic(Intrinsic::sqrt, {x})); break;
  case Opcode::Tanh: {
    // tanh(x) = sign(x) * (1 - 2 / (2^(2|x|log2 e) + 1)); tanh(x) = x for |x| < 2^-8
    // (relative error below x^2/3 < 2^-17, inside tanh.approx's 2^-10.987).
    Type *ty = x->getType();
    Value *ax = b.CreateUnaryIntrinsic(Intrinsic::fabs, x);
    Value *e = fc.fpIntrinsic(Intrinsic::exp2, {b.CreateFMul(ax, ConstantFP::get(ty, 2.8853900817779268))});
    Value *t1 = b.CreateFSub(ConstantFP::get(ty, 1.0), b.CreateFDiv(ConstantFP::get(ty, 2.0), b.CreateFAdd(e, ConstantFP::get(ty, 1.0))));
    t1 = b.CreateBinaryIntrinsic(Intrinsic::copysign, t1, x);
    r = b.CreateSelect(b.CreateFCmpOLT(ax, ConstantFP::get(ty, 0.00390625)), x, t1);
    break;
  }
  default: return fc.unsupported(in);
  }
  fc.write(in.operands[0], finish(fc, in, r, false), t);
  return true;
}

bool translateFloatArith(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  if (t != ptx::Type::F32 && t != ptx::Type::F64) return fc.unsupported(in);
  RoundingMode rm = fc.rounding(in);
  switch (in.op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: {
    Value *x = in1(fc, in, 1, t), *y = in1(fc, in, 2, t);
    auto op = in.op == Opcode::Add ? Instruction::FAdd : in.op == Opcode::Sub ? Instruction::FSub : Instruction::FMul;
    fc.write(ops[0], finish(fc, in, binop(fc, op, x, y, rm)), t);
    return true;
  }
  case Opcode::Fma: case Opcode::Mad: {
    if (ops.size() != 4) return fc.unsupported(in, "expected 4 operands");
    Value *x = in1(fc, in, 1, t), *y = in1(fc, in, 2, t), *z = in1(fc, in, 3, t);
    fc.write(ops[0], finish(fc, in, fmaR(fc, x, y, z, rm)), t);
    return true;
  }
  case Opcode::Div: {
    Value *x = in1(fc, in, 1, t), *y = in1(fc, in, 2, t);
    Value *r;
    if (in.has(Mod::Approx)) {
      // div.approx.f32: x * (1/y); PTX bounds: 2 ulp for |y| in [2^-126, 2^126].
      IRBuilder<>::FastMathFlagGuard guard(b);
      b.setFastMathFlags(approxFlags());
      r = b.CreateFDiv(x, y);
    } else {
      // div.full.f32 (2 ulp) is given the correctly rounded result, which is inside its bound.
      r = binop(fc, Instruction::FDiv, x, y, rm);
    }
    fc.write(ops[0], finish(fc, in, r, !in.has(Mod::Approx)), t);
    return true;
  }
  case Opcode::Rcp: {
    Value *x = in1(fc, in, 1, t);
    Value *one = ConstantFP::get(x->getType(), 1.0);
    Value *r;
    if (in.has(Mod::Approx)) {
      IRBuilder<>::FastMathFlagGuard guard(b);
      b.setFastMathFlags(approxFlags());
      r = b.CreateFDiv(one, x);
    } else {
      r = binop(fc, Instruction::FDiv, one, x, rm);
    }
    fc.write(ops[0], finish(fc, in, r, !in.has(Mod::Approx)), t);
    return true;
  }
  case Opcode::Sqrt: {
    Value *x = in1(fc, in, 1, t);
    Value *r;
    if (in.has(Mod::Approx)) {
      IRBuilder<>::FastMathFlagGuard guard(b);
      b.setFastMathFlags(approxFlags());
      r = fc.fpIntrinsic(Intrinsic::sqrt, {x});
    } else {
      r = sqrtR(fc, x, rm);
    }
    fc.write(ops[0], finish(fc, in, r, !in.has(Mod::Approx)), t);
    return true;
  }
  case Opcode::Rsqrt: case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2:
  case Opcode::Tanh:
    if (!in.has(Mod::Approx)) return fc.unsupported(in, "only the .approx form exists");
    return approxUnary(fc, in, t);
  case Opcode::Min: case Opcode::Max: {
    bool mx = in.op == Opcode::Max;
    if (ops.size() != 3) return fc.unsupported(in, "three-input min/max");
    Value *x = in1(fc, in, 1, t), *y = in1(fc, in, 2, t);
    Value *r;
    if (in.has(Mod::Xorsign)) {
      Value *ax = b.CreateUnaryIntrinsic(Intrinsic::fabs, x), *ay = b.CreateUnaryIntrinsic(Intrinsic::fabs, y);
      Value *m = fc.fpIntrinsic(in.has(Mod::NaN) ? (mx ? Intrinsic::maximum : Intrinsic::minimum)
                                                 : (mx ? Intrinsic::maximumnum : Intrinsic::minimumnum), {ax, ay});
      m = fc.canonicalNaN(m);
      Type *it = fc.intTy(ptx::typeBits(t));
      Value *sx = b.CreateXor(b.CreateBitCast(x, it), b.CreateBitCast(y, it));
      Value *sign = b.CreateAnd(sx, APInt::getSignMask(ptx::typeBits(t)));
      Value *isNaN = b.CreateFCmpUNO(m, m);
      r = b.CreateSelect(isNaN, m, b.CreateBitCast(b.CreateOr(b.CreateBitCast(m, it), sign), x->getType()));
    } else if (in.has(Mod::NaN)) {
      r = fc.canonicalNaN(fc.fpIntrinsic(mx ? Intrinsic::maximum : Intrinsic::minimum, {x, y}));
    } else {
      r = fc.canonicalNaN(fc.fpIntrinsic(mx ? Intrinsic::maximumnum : Intrinsic::minimumnum, {x, y}));
    }
    if (in.has(Mod::Ftz)) r = fc.flushDenorm(r);
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Abs: case Opcode::Neg: {
    Value *x = in1(fc, in, 1, t);
    Value *r = in.op == Opcode::Abs ? b.CreateUnaryIntrinsic(Intrinsic::fabs, x) : b.CreateFNeg(x);
    if (in.has(Mod::Ftz)) r = fc.flushDenorm(r);
    fc.write(ops[0], fc.canonicalNaN(r), t); // abs/neg.f32 of NaN -> 0x7fffffff on NVIDIA
    return true;
  }
  case Opcode::Copysign: {
    // copysign.f32 d, a, b: d = |b| with the sign of a.
    Value *a = fc.read(ops[1], t), *v = fc.read(ops[2], t);
    fc.write(ops[0], b.CreateBinaryIntrinsic(Intrinsic::copysign, v, a), t);
    return true;
  }
  case Opcode::Testp: {
    Value *x = fc.read(ops[1], t);
    unsigned mask = 0;
    if (hasModNamed(in, "finite")) mask = fcFinite;
    else if (hasModNamed(in, "infinite")) mask = fcInf;
    else if (hasModNamed(in, "number")) mask = ~fcNan & fcAllFlags;
    else if (hasModNamed(in, "notanumber")) mask = fcNan;
    else if (hasModNamed(in, "normal")) mask = fcNormal;
    else if (hasModNamed(in, "subnormal")) mask = fcSubnormal;
    else return fc.unsupported(in, "unknown testp operation");
    Value *r = b.CreateIntrinsic(Intrinsic::is_fpclass, {x->getType()}, {x, b.getInt32(mask)});
    fc.writePred(ops[0], r);
    return true;
  }
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
