//===- FloatArith.cpp - f32/f64 arithmetic -------------------------------===//
//
// add/sub/mul/fma/mad, div (approx/full/rn..rp), rcp/sqrt (approx and IEEE),
// rsqrt, sin/cos/lg2/ex2/tanh approx, min/max (.NaN, .xorsign.abs), abs/neg,
// copysign, testp for .f32 and .f64.
//
// Exactness: IR fadd/fsub/fmul/fdiv/llvm.fma/llvm.sqrt are correctly rounded
// to nearest-even with denormals preserved (AMD's default f32 mode), which is
// PTX's .rn. Directed rounding (.rz/.rm/.rp) is an exact software sequence
// (below and FnCtx::roundDirected), with no mode switches. .ftz flushes
// denormal inputs and the result explicitly; .sat clamps to [0,1] with NaN ->
// +0; NaN results are NVIDIA's canonical NaN. min/max are IEEE 754-2019
// minimumNumber/maximumNumber (NaN operand ignored, -0 < +0), .NaN forms
// propagate NaN. Approx forms use LLVM's afn lowering (AMD's v_rcp/v_rsq/
// v_sqrt/v_exp/v_log/v_sin/v_cos), which is within PTX's documented bounds,
// arranged the way the H200 computes them where that shows in results
// (tests/golden): div.approx/div.full.f32 as x * rcp(y) with the H200's
// divisor scaling (divApproxOrFull), rcp/rsqrt.approx.ftz.f64 on the upper
// 32 bits of the operand (keepHigh32).
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {




//===-- Directed rounding (.rz/.rm/.rp) -------------------------------------===//
// add/sub/mul/fma (f32, f64) are one hardware instruction each, rounded once
// in the MODE register's direction: they become constrained intrinsics
// (FnCtx::modeRounded) that amdgpu-lower lowers to a mode-switch island.
// div/sqrt have no single-rounding instruction (the hardware sequences round
// every Newton step in the current mode), so their directed rounding is an
// exact software sequence (FnCtx::roundDirected): f32 operations are
// evaluated with an exact error term in f64; f64 div/sqrt use the fma
// remainder. f64 division by operands below 2^-900 scales them first.

static Value *finiteAll(FnCtx &fc, std::initializer_list<Value *> vs) {
  Value *r = fc.b.getTrue();
  for (Value *v : vs) {
    Value *inf = ConstantFP::getInfinity(v->getType());
    r = fc.b.CreateAnd(r, fc.b.CreateFCmpOLT(fc.b.CreateUnaryIntrinsic(Intrinsic::fabs, v), inf));
  }
  return r;
}

static Value *sideOf(FnCtx &fc, Value *r, Value *d) { // sign(r) * sign(d), 0 for NaN/inf r
  auto &b = fc.b;
  Value *z = ConstantFP::get(r->getType(), 0.0);
  Value *rs = b.CreateSub(b.CreateZExt(b.CreateFCmpOGT(r, z), fc.i32()), b.CreateZExt(b.CreateFCmpOLT(r, z), fc.i32()));
  rs = b.CreateSelect(b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(Intrinsic::fabs, r), ConstantFP::getInfinity(r->getType())), b.getInt32(0), rs);
  if (!d) return rs;
  return b.CreateSelect(b.CreateFCmpOLT(d, z), b.CreateNeg(rs), rs);
}

// add/sub/mul/fma rounded by the hardware MODE register (see above).
static Value *modeBinary(FnCtx &fc, Opcode op, Value *x, Value *y, Value *z, RoundingMode rm) {
  Type *t = x->getType();
  switch (op) {
  case Opcode::Add: return fc.modeRounded(Intrinsic::experimental_constrained_fadd, {x, y}, t, rm);
  case Opcode::Sub: return fc.modeRounded(Intrinsic::experimental_constrained_fsub, {x, y}, t, rm);
  case Opcode::Mul: return fc.modeRounded(Intrinsic::experimental_constrained_fmul, {x, y}, t, rm);
  default: return fc.modeRounded(Intrinsic::experimental_constrained_fma, {x, y, z}, t, rm);
  }
}

static Value *directedBinary(FnCtx &fc, Opcode op, Value *x, Value *y, Value *z, RoundingMode rm) {
  auto &b = fc.b;
  if (op == Opcode::Add || op == Opcode::Sub || op == Opcode::Mul || op == Opcode::Fma || op == Opcode::Mad)
    return modeBinary(fc, op, x, y, z, rm);
  Type *t = x->getType();
  Type *dt = b.getDoubleTy();
  if (t->isFloatTy()) {
    Value *a = b.CreateFPExt(x, dt), *c = y ? b.CreateFPExt(y, dt) : nullptr;
    switch (op) {
    case Opcode::Div: case Opcode::Rcp: {
      Value *q = b.CreateFDiv(a, c);
      Value *r = fc.fpIntrinsic(Intrinsic::fma, {b.CreateFNeg(q), c, a});
      return fc.roundDirected(q, ConstantFP::get(dt, 0.0), t, rm, b.getTrue(), sideOf(fc, r, c));
    }
    case Opcode::Sqrt: {
      Value *s = fc.fpIntrinsic(Intrinsic::sqrt, {a});
      Value *r = fc.fpIntrinsic(Intrinsic::fma, {b.CreateFNeg(s), s, a});
      return fc.roundDirected(s, ConstantFP::get(dt, 0.0), t, rm, b.getTrue(), sideOf(fc, r, nullptr));
    }
    default: return nullptr;
    }
  }
  // f64
  switch (op) {
  case Opcode::Div: case Opcode::Rcp: {
    // Subnormal operands: scale both by 2^200 (the quotient is unchanged) so
    // that the remainder is exact.
    Value *ax = b.CreateUnaryIntrinsic(Intrinsic::fabs, x), *ay = b.CreateUnaryIntrinsic(Intrinsic::fabs, y);
    Value *small = b.CreateOr(b.CreateFCmpOLT(ax, ConstantFP::get(t, 0x1p-900)), b.CreateFCmpOLT(ay, ConstantFP::get(t, 0x1p-900)));
    Value *fits = b.CreateAnd(b.CreateFCmpOLT(ax, ConstantFP::get(t, 0x1p800)), b.CreateFCmpOLT(ay, ConstantFP::get(t, 0x1p800)));
    Value *sc = b.CreateAnd(small, fits);
    Value *xs = b.CreateSelect(sc, b.CreateFMul(x, ConstantFP::get(t, 0x1p200)), x);
    Value *ys = b.CreateSelect(sc, b.CreateFMul(y, ConstantFP::get(t, 0x1p200)), y);
    Value *q = b.CreateFDiv(xs, ys);
    Value *r = fc.fpIntrinsic(Intrinsic::fma, {b.CreateFNeg(q), ys, xs});
    Value *zc = ConstantFP::get(t, 0.0);
    Value *fin = b.CreateAnd(finiteAll(fc, {x, y}), b.CreateFCmpONE(y, zc));
    // Quotient underflowed to zero from a non-zero dividend: its sign decides.
    Value *qUnder = b.CreateAnd(b.CreateAnd(b.CreateFCmpOEQ(q, zc), b.CreateFCmpUNE(x, zc)), fin);
    Value *neg = b.CreateXor(b.CreateFCmpOLT(x, zc), b.CreateFCmpOLT(y, zc));
    Value *over = b.CreateSelect(qUnder, b.CreateSelect(neg, b.getInt32(-1), b.getInt32(1)), sideOf(fc, r, ys));
    return fc.roundDirected(q, zc, t, rm, fin, over);
  }
  case Opcode::Sqrt: {
    // Tiny inputs are scaled by 2^200 (the result by 2^-100, exactly) so that
    // the remainder a - s*s stays representable.
    Value *tiny = b.CreateFCmpOLT(x, ConstantFP::get(t, 0x1p-900));
    Value *a = b.CreateSelect(tiny, b.CreateFMul(x, ConstantFP::get(t, 0x1p200)), x);
    Value *s = fc.fpIntrinsic(Intrinsic::sqrt, {a});
    Value *r = fc.fpIntrinsic(Intrinsic::fma, {b.CreateFNeg(s), s, a});
    Value *res = fc.roundDirected(s, ConstantFP::get(t, 0.0), t, rm, finiteAll(fc, {x}), sideOf(fc, r, nullptr));
    return b.CreateSelect(tiny, b.CreateFMul(res, ConstantFP::get(t, 0x1p-100)), res);
  }
  default: return nullptr;
  }
}

// f64 NaN results (H200): a NaN operand is propagated quieted, preferring the
// operands in `order` (add/sub/mul/min/max: b then a; fma: b, c, a); a NaN
// produced from non-NaN operands is 0xfff8000000000000.
static Value *pickNaN64(FnCtx &fc, Value *r, std::initializer_list<Value *> order) {
  auto &b = fc.b;
  Type *i64 = b.getInt64Ty();
  Value *res = ConstantFP::get(fc.mc.ctx, APFloat(APFloat::IEEEdouble(), APInt(64, 0xfff8000000000000ULL)));
  std::vector<Value *> v(order);
  for (auto it = v.rbegin(); it != v.rend(); ++it) {
    Value *q = b.CreateBitCast(b.CreateOr(b.CreateBitCast(*it, i64), b.getInt64(1ULL << 51)), r->getType());
    res = b.CreateSelect(b.CreateFCmpUNO(*it, *it), q, res);
  }
  return b.CreateSelect(b.CreateFCmpUNO(r, r), res, r);
}

// .ftz tininess (H200): IEEE "after rounding" -- the exact result rounded to
// the type's precision with an unbounded exponent is compared with the
// smallest normal. This only matters when the delivered result is exactly
// the smallest normal: `wide` gives the operation in f64 (exact or within
// f64 rounding), which is scaled into the normal range, rounded with the
// instruction's mode, and compared.
Value *ftzTininess(FnCtx &fc, Value *r, RoundingMode rm, function_ref<Value *()> wide) {
  auto &b = fc.b;
  Type *t = r->getType();
  if (t->isVectorTy() || t->isDoubleTy()) return r;
  APFloat mn = APFloat::getSmallestNormalized(t->getFltSemantics());
  Value *edge = b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(Intrinsic::fabs, r), ConstantFP::get(t, mn));
  Value *w = wide();
  double scale = t->isFloatTy() ? 0x1p64 : 0x1p10;
  Type *wt = w->getType();
  Value *ws = b.CreateFMul(w, ConstantFP::get(wt, scale));
  Value *rounded = rm == RoundingMode::NearestTiesToEven ? b.CreateFPTrunc(ws, t)
                                                         : fc.roundDirected(ws, ConstantFP::get(wt, 0.0), t, rm, b.getTrue());
  double lim = (t->isFloatTy() ? 0x1p-126 : 0x1p-14) * scale;
  Value *tiny = b.CreateFCmpOLT(b.CreateUnaryIntrinsic(Intrinsic::fabs, rounded), ConstantFP::get(t, lim));
  Value *zero = b.CreateBinaryIntrinsic(Intrinsic::copysign, ConstantFP::get(t, 0.0), r);
  return b.CreateSelect(b.CreateAnd(edge, tiny), zero, r);
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

// NaN results of .approx operations (H200): 0x7fffffff for f32,
// 0x7fffffff00000000 for f64.
static Value *approxNaN(FnCtx &fc, Value *r) {
  if (!r->getType()->isDoubleTy()) return fc.canonicalNaN(r);
  Value *nan = ConstantFP::get(fc.mc.ctx, APFloat(APFloat::IEEEdouble(), APInt(64, 0x7fffffff00000000ULL)));
  return fc.b.CreateSelect(fc.b.CreateFCmpUNO(r, r), nan, r);
}

// div.approx.f32 / div.full.f32 as the H200 computes them (tests/golden tables):
// q = x * s * rcp(y * s), the product rounded once, where the scale s brings a
// subnormal divisor into the normal range (s = 2^24, both forms) and, for
// div.full only, a divisor above 2^126 below it (s = 1/4). div.approx instead
// takes rcp(y) = +-0 for |y| > 2^126 (so inf / FLT_MAX is NaN and
// FLT_MAX / FLT_MAX is 0, as recorded). Infinities, zeros and NaNs follow from
// the same product (0 * inf = NaN). The reciprocal is the correctly rounded
// one (div.full) or the hardware approximation (div.approx); NVIDIA's own
// reciprocal differs from both by at most an ulp, within the PTX bounds.
static Value *divApproxOrFull(FnCtx &fc, Value *x, Value *y, bool full) {
  auto &b = fc.b;
  Type *ft = x->getType();
  Value *ay = b.CreateUnaryIntrinsic(Intrinsic::fabs, y);
  Value *big = b.CreateFCmpOGT(ay, ConstantFP::get(ft, 0x1p126));
  Value *sub = b.CreateAnd(b.CreateFCmpOLT(ay, ConstantFP::get(ft, 0x1p-126)),
                           b.CreateFCmpONE(ay, ConstantFP::get(ft, 0.0)));
  Value *one = ConstantFP::get(ft, 1.0);
  Value *s = b.CreateSelect(sub, ConstantFP::get(ft, 0x1p24), one);
  if (full) s = b.CreateSelect(big, ConstantFP::get(ft, 0x1p-2), s);
  Value *ys = b.CreateFMul(y, s); // exact
  Value *rcp;
  if (full) {
    rcp = b.CreateFDiv(one, ys);
  } else {
    IRBuilder<>::FastMathFlagGuard guard(b);
    b.setFastMathFlags(approxFlags());
    rcp = b.CreateFDiv(one, ys);
    rcp = b.CreateSelect(big, b.CreateBinaryIntrinsic(Intrinsic::copysign, ConstantFP::get(ft, 0.0), y), rcp);
  }
  // One rounding of x * s * rcp, in f32: with s = 2^24, x * rcp >= 2^-47 cannot
  // underflow, so scaling it afterwards is exact; with s = 1/4 (div.full), x / 4
  // is scaled first -- exact unless |x| < 2^-124, and then the result is below
  // 2^-250 and rounds to the same signed zero either way.
  Value *xs = full ? b.CreateFMul(x, b.CreateSelect(big, ConstantFP::get(ft, 0x1p-2), one)) : x;
  Value *post = b.CreateSelect(sub, ConstantFP::get(ft, 0x1p24), one);
  return b.CreateFMul(b.CreateFMul(xs, rcp), post);
}

// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64 work on the upper 32 bits of the
// operand (sign, exponent, 20 mantissa bits) and return a result whose lower
// 32 bits are zero (PTX ISA; the H200 tables agree: a NaN whose payload lies
// only in the low word is read as an infinity, rcp(0x7ff000000000002a) = +0).
static bool coarseF64(const ptx::Instruction &in, ptx::Type t) {
  return t == ptx::Type::F64 && in.has(Mod::Ftz) && (in.op == Opcode::Rcp || in.op == Opcode::Rsqrt);
}

static Value *keepHigh32(FnCtx &fc, Value *v) {
  auto &b = fc.b;
  Value *i = b.CreateAnd(b.CreateBitCast(v, b.getInt64Ty()), b.getInt64(0xffffffff00000000ULL));
  return b.CreateBitCast(i, v->getType());
}

static bool approxUnary(FnCtx &fc, const ptx::Instruction &in, ptx::Type t) {
  auto &b = fc.b;
  Value *x = in1(fc, in, 1, t);
  const bool hi = coarseF64(in, t);
  if (hi) x = keepHigh32(fc, x);
  // sin/cos.approx flush subnormal inputs even without .ftz (H200 tables);
  // lg2.approx does not (lg2.approx.f32 of 0x00000001 is -149 on the H200).
  if (in.op == Opcode::Sin || in.op == Opcode::Cos)
    x = fc.flushDenorm(x);
  IRBuilder<>::FastMathFlagGuard guard(b);
  b.setFastMathFlags(approxFlags());
  Value *r = nullptr;
  switch (in.op) {
  case Opcode::Sin: r = fc.fpIntrinsic(Intrinsic::sin, {x}); break;
  case Opcode::Cos: r = fc.fpIntrinsic(Intrinsic::cos, {x}); break;
  case Opcode::Lg2: r = fc.fpIntrinsic(Intrinsic::log2, {x}); break;
  case Opcode::Ex2: r = fc.fpIntrinsic(Intrinsic::exp2, {x}); break;
  case Opcode::Rsqrt:
    r = b.CreateFDiv(ConstantFP::get(x->getType(), 1.0), fc.fpIntrinsic(Intrinsic::sqrt, {x}));
    if (t == ptx::Type::F64) {
      // The AMDGPU backend lowers an afn f64 division to Newton steps on
      // v_rcp_f64 that give NaN for a divisor of 0 or inf (found by isa-emu,
      // golden rsqrt.approx.f64 on gfx1100/gfx90a): PTX's rsqrt(+-0) = +-inf,
      // rsqrt(+inf) = +0 are selected explicitly.
      Type *ty = x->getType();
      Value *isZero = b.CreateFCmpOEQ(x, ConstantFP::get(ty, 0.0));
      Value *isInf = b.CreateFCmpOEQ(x, ConstantFP::getInfinity(ty));
      r = b.CreateSelect(isInf, ConstantFP::get(ty, 0.0), r);
      r = b.CreateSelect(isZero, b.CreateBinaryIntrinsic(Intrinsic::copysign, ConstantFP::getInfinity(ty), x), r);
    }
    break;
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
  r = approxNaN(fc, finish(fc, in, r, false));
  if (hi) r = keepHigh32(fc, r);
  fc.write(in.operands[0], r, t);
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
    Value *r;
    if (rm != RoundingMode::NearestTiesToEven) r = directedBinary(fc, in.op, x, y, nullptr, rm);
    else r = in.op == Opcode::Add ? b.CreateFAdd(x, y) : in.op == Opcode::Sub ? b.CreateFSub(x, y) : b.CreateFMul(x, y);
    if (t == ptx::Type::F64) r = pickNaN64(fc, r, {y, x});
    if (in.has(Mod::Ftz))
      r = ftzTininess(fc, r, rm, [&]() -> Value * {
        Value *a = b.CreateFPExt(x, b.getDoubleTy()), *c = b.CreateFPExt(y, b.getDoubleTy());
        return in.op == Opcode::Add ? b.CreateFAdd(a, c) : in.op == Opcode::Sub ? b.CreateFSub(a, c) : b.CreateFMul(a, c);
      });
    fc.write(ops[0], finish(fc, in, r), t);
    return true;
  }
  case Opcode::Fma: case Opcode::Mad: {
    if (ops.size() != 4) return fc.unsupported(in, "expected 4 operands");
    Value *x = in1(fc, in, 1, t), *y = in1(fc, in, 2, t), *z = in1(fc, in, 3, t);
    Value *r = rm != RoundingMode::NearestTiesToEven ? directedBinary(fc, Opcode::Fma, x, y, z, rm)
                                                     : fc.fpIntrinsic(Intrinsic::fma, {x, y, z});
    if (t == ptx::Type::F64) r = pickNaN64(fc, r, {y, z, x});
    if (in.has(Mod::Ftz))
      r = ftzTininess(fc, r, rm, [&]() -> Value * {
        Type *dt = b.getDoubleTy();
        return fc.fpIntrinsic(Intrinsic::fma, {b.CreateFPExt(x, dt), b.CreateFPExt(y, dt), b.CreateFPExt(z, dt)});
      });
    fc.write(ops[0], finish(fc, in, r), t);
    return true;
  }
  case Opcode::Div: {
    Value *x = in1(fc, in, 1, t), *y = in1(fc, in, 2, t);
    Value *r;
    if (in.has(Mod::Approx) && t == ptx::Type::F32) {
      r = approxNaN(fc, divApproxOrFull(fc, x, y, /*full=*/false));
    } else if (in.has(Mod::Full) && t == ptx::Type::F32) {
      r = divApproxOrFull(fc, x, y, /*full=*/true);
    } else if (in.has(Mod::Approx) || in.has(Mod::Full)) {
      return fc.unsupported(in, "div.approx/div.full exist only for .f32");
    } else {
      r = rm == RoundingMode::NearestTiesToEven ? b.CreateFDiv(x, y) : directedBinary(fc, Opcode::Div, x, y, nullptr, rm);
      if (in.has(Mod::Ftz))
        r = ftzTininess(fc, r, rm, [&]() -> Value * {
          return b.CreateFDiv(b.CreateFPExt(x, b.getDoubleTy()), b.CreateFPExt(y, b.getDoubleTy()));
        });
    }
    fc.write(ops[0], finish(fc, in, r, !in.has(Mod::Approx)), t);
    return true;
  }
  case Opcode::Rcp: {
    Value *x = in1(fc, in, 1, t);
    Value *one = ConstantFP::get(x->getType(), 1.0);
    Value *r;
    if (in.has(Mod::Approx)) {
      bool hi = coarseF64(in, t);
      if (hi) x = keepHigh32(fc, x);
      IRBuilder<>::FastMathFlagGuard guard(b);
      b.setFastMathFlags(approxFlags());
      r = b.CreateFDiv(one, x);
      if (t == ptx::Type::F64) {
        // As for rsqrt.approx.f64: the backend's Newton steps on v_rcp_f64 give NaN
        // for a divisor of +-0 or +-inf (isa-emu, golden rcp.approx.ftz.f64 at 0;
        // H200: 1/+-0 = +-inf, 1/+-inf = +-0), so those are selected explicitly.
        Type *ty = x->getType();
        Value *ax = b.CreateUnaryIntrinsic(Intrinsic::fabs, x);
        Value *isZero = b.CreateFCmpOEQ(x, ConstantFP::get(ty, 0.0));
        Value *isInf = b.CreateFCmpOEQ(ax, ConstantFP::getInfinity(ty));
        r = b.CreateSelect(isInf, b.CreateBinaryIntrinsic(Intrinsic::copysign, ConstantFP::get(ty, 0.0), x), r);
        r = b.CreateSelect(isZero, b.CreateBinaryIntrinsic(Intrinsic::copysign, ConstantFP::getInfinity(ty), x), r);
      }
      r = approxNaN(fc, r);
      if (hi) r = keepHigh32(fc, r);
    } else {
      r = rm == RoundingMode::NearestTiesToEven ? b.CreateFDiv(one, x) : directedBinary(fc, Opcode::Div, one, x, nullptr, rm);
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
      r = approxNaN(fc, fc.fpIntrinsic(Intrinsic::sqrt, {x}));
    } else {
      r = rm == RoundingMode::NearestTiesToEven ? fc.fpIntrinsic(Intrinsic::sqrt, {x}) : directedBinary(fc, Opcode::Sqrt, x, nullptr, nullptr, rm);
      // canonicalNaNByBits: an fcmp-based NaN select on a sqrt is folded away by the backend
      r = fc.canonicalNaNByBits(finish(fc, in, r, false));
    }
    fc.write(ops[0], in.has(Mod::Approx) ? finish(fc, in, r, false) : r, t);
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
    if (t == ptx::Type::F64) r = pickNaN64(fc, r, {y, x});
    if (in.has(Mod::Ftz)) r = fc.flushDenorm(r);
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Abs: case Opcode::Neg: {
    Value *x = in1(fc, in, 1, t);
    Value *r = in.op == Opcode::Abs ? b.CreateUnaryIntrinsic(Intrinsic::fabs, x) : b.CreateFNeg(x);
    if (in.has(Mod::Ftz)) r = fc.flushDenorm(r);
    if (t == ptx::Type::F64) r = pickNaN64(fc, r, {x}); // NaN: quieted, sign kept (H200)
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
    else if (hasModNamed(in, "normal")) mask = fcNormal | fcZero; // zero counts as normal (H200)
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
