//===- Half.cpp - f16, f16x2, bf16, bf16x2 arithmetic ---------------------===//
//
// add/sub/mul/fma (.rn, .ftz, .sat, .relu), neg/abs, min/max (.NaN,
// .xorsign.abs), ex2/tanh .approx on the 16-bit float types. The packed x2
// forms are LLVM <2 x half>/<2 x bfloat> vectors (a .b32 register holds
// element 0 in its low half, as in PTX). IR arithmetic on half/bfloat is
// correctly rounded to nearest-even, which is PTX's .rn; .ftz flushes f16
// subnormal inputs/results; NaN results are the canonical 0x7fff.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static Value *relu(FnCtx &fc, Value *r) {
  // .relu: negative results become +0, NaN stays (canonical) NaN.
  Value *zero = Constant::getNullValue(r->getType());
  Value *neg = fc.b.CreateFCmpOLE(r, zero); // -0 -> +0 too (H200)
  return fc.b.CreateSelect(neg, zero, r);
}

// Correctly rounded (nearest-even) value of hi + lo (f64, hi exact product or
// operand) in the 16-bit type `to`: TwoSum error, round-to-odd in f64 (53 >=
// 8 + 2 bits, so the final rounding cannot double-round), then fptrunc.
// Used for bf16 add/sub/fma, which LLVM may otherwise evaluate in f32 and
// round twice.
static Value *roundViaOdd(FnCtx &fc, Value *hi, Value *lo, Type *to) {
  auto &b = fc.b;
  Value *s = b.CreateFAdd(hi, lo);
  Value *bb = b.CreateFSub(s, hi);
  Value *err = b.CreateFAdd(b.CreateFSub(hi, b.CreateFSub(s, bb)), b.CreateFSub(lo, bb));
  Type *i64 = b.getInt64Ty();
  Value *bits = b.CreateBitCast(s, i64);
  Value *even = b.CreateICmpEQ(b.CreateAnd(bits, b.getInt64(1)), b.getInt64(0));
  Value *inexact = b.CreateFCmpONE(err, ConstantFP::get(s->getType(), 0.0));
  Value *finite = b.CreateFCmpOLT(b.CreateUnaryIntrinsic(Intrinsic::fabs, s), ConstantFP::getInfinity(s->getType()));
  // Toward err: magnitude +1 if err has s's sign, else -1 (s != 0 when inexact).
  Value *sameSign = b.CreateICmpEQ(b.CreateICmpSLT(bits, b.getInt64(0)), b.CreateFCmpOLT(err, ConstantFP::get(s->getType(), 0.0)));
  Value *stepped = b.CreateSelect(sameSign, b.CreateAdd(bits, b.getInt64(1)), b.CreateSub(bits, b.getInt64(1)));
  Value *odd = b.CreateSelect(b.CreateAnd(b.CreateAnd(even, inexact), finite), stepped, bits);
  return b.CreateFPTrunc(b.CreateBitCast(odd, s->getType()), to);
}

static Value *bf16Exact(FnCtx &fc, Opcode op, Value *x, Value *y, Value *z) {
  auto &b = fc.b;
  Type *t = x->getType();
  if (auto *vt = dyn_cast<FixedVectorType>(t)) {
    Value *r = PoisonValue::get(t);
    for (unsigned i = 0; i < vt->getNumElements(); ++i)
      r = b.CreateInsertElement(r, bf16Exact(fc, op, b.CreateExtractElement(x, i), b.CreateExtractElement(y, i),
                                             z ? b.CreateExtractElement(z, i) : nullptr), i);
    return r;
  }
  Type *dt = b.getDoubleTy();
  Value *a = b.CreateFPExt(x, dt), *c = b.CreateFPExt(y, dt);
  Value *r;
  if (op == Opcode::Add) r = roundViaOdd(fc, a, c, t);
  else if (op == Opcode::Sub) r = roundViaOdd(fc, a, b.CreateFNeg(c), t);
  else r = roundViaOdd(fc, b.CreateFMul(a, c), b.CreateFPExt(z, dt), t); // product exact
  // Signed zeros and special values: the plain operation is exact there.
  Value *plain = op == Opcode::Add ? b.CreateFAdd(x, y) : op == Opcode::Sub ? b.CreateFSub(x, y)
                                                        : fc.fpIntrinsic(Intrinsic::fma, {x, y, z});
  Value *special = b.CreateOr(b.CreateFCmpOEQ(r, ConstantFP::get(t, 0.0)),
                              b.CreateFCmpUEQ(b.CreateUnaryIntrinsic(Intrinsic::fabs, r), ConstantFP::getInfinity(t)));
  return b.CreateSelect(special, plain, r);
}

bool translateHalf(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  bool ftz = in.has(Mod::Ftz);
  auto rd = [&](unsigned i) {
    Value *v = fc.read(ops[i], t);
    return ftz ? fc.flushDenorm(v) : v;
  };
  auto done = [&](Value *r, bool canonical = true) {
    if (ftz) r = fc.flushDenorm(r);
    if (in.has(Mod::Relu)) r = relu(fc, r);
    if (in.has(Mod::Sat)) r = fc.saturate01(r);
    else if (canonical) r = fc.canonicalNaN(r);
    fc.write(ops[0], r, t);
    return true;
  };
  bool bf = t == ptx::Type::BF16 || t == ptx::Type::BF16x2;
  RoundingMode rm = fc.rounding(in);
  if (rm != RoundingMode::NearestTiesToEven)
    return fc.unsupported(in, "only .rn rounding exists for 16-bit float arithmetic");
  switch (in.op) {
  case Opcode::Add: { Value *x = rd(1), *y = rd(2); return done(bf ? bf16Exact(fc, Opcode::Add, x, y, nullptr) : b.CreateFAdd(x, y)); }
  case Opcode::Sub: { Value *x = rd(1), *y = rd(2); return done(bf ? bf16Exact(fc, Opcode::Sub, x, y, nullptr) : b.CreateFSub(x, y)); }
  case Opcode::Mul: {
    Value *x = rd(1), *y = rd(2);
    Value *r = b.CreateFMul(x, y);
    if (ftz && !bf) { // tininess after rounding (H200); the f32 product is exact
      if (auto *vt = dyn_cast<FixedVectorType>(r->getType())) {
        Value *v = PoisonValue::get(vt);
        for (unsigned i = 0; i < vt->getNumElements(); ++i) {
          Value *xi = b.CreateExtractElement(x, i), *yi = b.CreateExtractElement(y, i);
          v = b.CreateInsertElement(v, ftzTininess(fc, b.CreateExtractElement(r, i), rm, [&]() -> Value * {
                return b.CreateFPExt(b.CreateFMul(b.CreateFPExt(xi, b.getFloatTy()), b.CreateFPExt(yi, b.getFloatTy())), b.getDoubleTy());
              }), i);
        }
        r = v;
      } else {
        r = ftzTininess(fc, r, rm, [&]() -> Value * {
          return b.CreateFPExt(b.CreateFMul(b.CreateFPExt(x, b.getFloatTy()), b.CreateFPExt(y, b.getFloatTy())), b.getDoubleTy());
        });
      }
    }
    return done(r);
  }
  case Opcode::Fma: case Opcode::Mad: {
    Value *x = rd(1), *y = rd(2), *z = rd(3);
    return done(bf ? bf16Exact(fc, Opcode::Fma, x, y, z) : fc.fpIntrinsic(Intrinsic::fma, {x, y, z}));
  }
  case Opcode::Neg: { fc.write(ops[0], fc.canonicalNaN(b.CreateFNeg(rd(1))), t); return true; }
  case Opcode::Abs: { fc.write(ops[0], fc.canonicalNaN(b.CreateUnaryIntrinsic(Intrinsic::fabs, rd(1))), t); return true; }
  case Opcode::Min: case Opcode::Max: {
    bool mx = in.op == Opcode::Max;
    Value *x = rd(1), *y = rd(2);
    Intrinsic::ID id = in.has(Mod::NaN) ? (mx ? Intrinsic::maximum : Intrinsic::minimum)
                                        : (mx ? Intrinsic::maximumnum : Intrinsic::minimumnum);
    if (in.has(Mod::Xorsign)) {
      Value *ax = b.CreateUnaryIntrinsic(Intrinsic::fabs, x), *ay = b.CreateUnaryIntrinsic(Intrinsic::fabs, y);
      Value *m = fc.canonicalNaN(b.CreateBinaryIntrinsic(id, ax, ay));
      Type *it = x->getType()->isVectorTy() ? (Type *)FixedVectorType::get(b.getInt16Ty(), 2) : b.getInt16Ty();
      Value *sign = b.CreateAnd(b.CreateXor(b.CreateBitCast(x, it), b.CreateBitCast(y, it)), ConstantInt::get(it, 0x8000));
      Value *withSign = b.CreateBitCast(b.CreateOr(b.CreateBitCast(m, it), sign), x->getType());
      Value *r = b.CreateSelect(b.CreateFCmpUNO(m, m), m, withSign);
      fc.write(ops[0], r, t);
      return true;
    }
    return done(b.CreateBinaryIntrinsic(id, x, y));
  }
  case Opcode::Ex2: case Opcode::Tanh: {
    if (!in.has(Mod::Approx)) return fc.unsupported(in);
    // Evaluate in f32 (exactly representable inputs) and round once to the 16-bit type.
    Value *x = rd(1);
    Type *ft = x->getType()->isVectorTy() ? (Type *)FixedVectorType::get(b.getFloatTy(), 2) : b.getFloatTy();
    Value *xf = b.CreateFPExt(x, ft);
    IRBuilder<>::FastMathFlagGuard guard(b);
    FastMathFlags f; f.setApproxFunc();
    b.setFastMathFlags(f);
    Value *r;
    if (in.op == Opcode::Ex2) r = b.CreateUnaryIntrinsic(Intrinsic::exp2, xf);
    else {
      Value *ax = b.CreateUnaryIntrinsic(Intrinsic::fabs, xf);
      Value *e = b.CreateUnaryIntrinsic(Intrinsic::exp2, b.CreateFMul(ax, ConstantFP::get(ft, 2.8853900817779268)));
      r = b.CreateFSub(ConstantFP::get(ft, 1.0), b.CreateFDiv(ConstantFP::get(ft, 2.0), b.CreateFAdd(e, ConstantFP::get(ft, 1.0))));
      r = b.CreateBinaryIntrinsic(Intrinsic::copysign, r, xf);
      r = b.CreateSelect(b.CreateFCmpOLT(ax, ConstantFP::get(ft, 0.00390625)), xf, r);
    }
    return done(b.CreateFPTrunc(r, x->getType()), false);
  }
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
