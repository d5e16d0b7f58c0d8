//===- Convert.cpp - cvt in its rounding / saturation / ftz forms ----------===//
//
// cvt.{irnd,frnd}{.ftz}{.sat}{.relu}{.satfinite}.dtype.atype for
//  * integer <-> integer: truncation/extension by the source signedness, .sat
//    clamps the source value (in its own signedness) to the destination range;
//  * float -> integer: .rni/.rzi/.rmi/.rpi round with roundeven/trunc/floor/ceil
//    and convert with llvm.fpto[su]i.sat, so NaN -> 0 and out-of-range values
//    saturate exactly as NVIDIA's cvt does; .ftz flushes the source first;
//  * integer -> float and float narrowing: .rn is the plain IR conversion
//    (correctly rounded); .rz/.rm/.rp of f64 -> f32 and 32-bit integer -> f32
//    are rounded by the hardware MODE register (FnCtx::modeRounded), the
//    other directed forms are exact sequences (FnCtx::roundDirected); .rna
//    (tf32) is an exact bit sequence;
//  * float -> float same type with .rni/.rzi/.rmi/.rpi: round to integral;
//  * f16x2/bf16x2 packing from two f32 (`cvt.rn.f16x2.f32 d, a, b` puts
//    cvt(a) in the upper half), .relu, .satfinite, .sat.
// cvt.pack.sat (integer packing) and the e4m3x2/e5m2x2 <-> f32/f16x2 pairs
// (devlib fp8.c) are below; fp6/fp4 and scalar fp8 forms are explicit errors.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using ptx::Mod;
using PT = ptx::Type;

namespace ptx2llvm {

static bool isIntType(PT t) {
  switch (t) {
  case PT::U8: case PT::U16: case PT::U32: case PT::U64:
  case PT::S8: case PT::S16: case PT::S32: case PT::S64:
  case PT::B8: case PT::B16: case PT::B32: case PT::B64:
    return true;
  default: return false;
  }
}

static bool isScalarFloat(PT t) {
  return t == PT::F16 || t == PT::BF16 || t == PT::F32 || t == PT::F64;
}

// Clamp an integer value x (signedness sx) to the range of an n-bit integer
// of signedness sd, keeping x's width.
static Value *clampInt(IRBuilder<> &b, Value *x, bool sx, unsigned n, bool sd) {
  unsigned w = x->getType()->getIntegerBitWidth();
  APInt lo = sd ? APInt::getSignedMinValue(n) : APInt::getMinValue(n);
  APInt hi = sd ? APInt::getSignedMaxValue(n) : APInt::getMaxValue(n);
  // Compare in a width that holds both ranges.
  unsigned cw = std::max(w, n) + 1;
  llvm::Type *ct = b.getIntNTy(cw);
  Value *xc = sx ? b.CreateSExt(x, ct) : b.CreateZExt(x, ct);
  Value *loC = ConstantInt::get(ct, sd ? lo.sext(cw) : lo.zext(cw));
  Value *hiC = ConstantInt::get(ct, sd ? hi.sext(cw) : hi.zext(cw));
  Value *r = b.CreateSelect(b.CreateICmpSLT(xc, loC), loC, xc);
  r = b.CreateSelect(b.CreateICmpSGT(r, hiC), hiC, r);
  return b.CreateTrunc(r, x->getType());
}

static Value *roundIntegral(FnCtx &fc, Value *x, RoundingMode rm) {
  switch (rm) {
  case RoundingMode::TowardZero: return fc.fpIntrinsic(Intrinsic::trunc, {x});
  case RoundingMode::TowardNegative: return fc.fpIntrinsic(Intrinsic::floor, {x});
  case RoundingMode::TowardPositive: return fc.fpIntrinsic(Intrinsic::ceil, {x});
  default: return fc.fpIntrinsic(Intrinsic::roundeven, {x});
  }
}

static Value *narrowFloat(FnCtx &fc, Value *x, llvm::Type *to, RoundingMode rm) {
  if (rm == RoundingMode::NearestTiesToEven) return fc.b.CreateFPTrunc(x, to);
  if (x->getType()->isDoubleTy() && to->isFloatTy()) // v_cvt_f32_f64 in the MODE direction
    return fc.modeRounded(Intrinsic::experimental_constrained_fptrunc, {x}, to, rm);
  return fc.roundDirected(x, ConstantFP::get(x->getType(), 0.0), to, rm, fc.b.getTrue());
}

// .satfinite: +-Inf and out-of-range results become +-MAX of the format, NaN stays NaN.
static Value *satFinite(FnCtx &fc, Value *r) {
  auto &b = fc.b;
  llvm::Type *t = r->getType();
  Value *mx = ConstantFP::get(t, APFloat::getLargest(t->getFltSemantics()));
  Value *ar = b.CreateUnaryIntrinsic(Intrinsic::fabs, r);
  Value *big = b.CreateFCmpOGT(ar, mx);
  return b.CreateSelect(big, b.CreateBinaryIntrinsic(Intrinsic::copysign, mx, r), r);
}

// f64 -> f16 of a NaN (H200): the sign, the quiet bit and the payload's top 10 bits
// (0x7ff7fffffffffffe -> 0x7fff). LLVM's fptrunc leaves NaN payloads unspecified and the
// AMDGPU expansion of f64 -> f16 (no instruction does it) returns 0x7e00 / 0xfe00 (found by
// isa-emu: golden cvt.rn/rz/rm/rp.f16.f64, 11-23 rows each), so the bits are built explicitly.
static Value *nanF64ToF16(FnCtx &fc, Value *x, Value *r) {
  auto &b = fc.b;
  Value *hi = b.CreateTrunc(b.CreateLShr(b.CreateBitCast(x, b.getInt64Ty()), 32), b.getInt32Ty());
  Value *h = b.CreateOr(b.CreateAnd(b.CreateLShr(hi, 16), b.getInt32(0x8000)),
                        b.CreateOr(b.getInt32(0x7e00), b.CreateAnd(b.CreateLShr(hi, 10), b.getInt32(0x3ff))));
  Value *nan = b.CreateBitCast(b.CreateTrunc(h, b.getInt16Ty()), r->getType());
  return b.CreateSelect(b.CreateFCmpUNO(x, x), nan, r);
}

static Value *coerceTo16(FnCtx &fc, Value *h) { return fc.b.CreateBitCast(h, fc.b.getInt16Ty()); }

static Value *floatToFloat(FnCtx &fc, const ptx::Instruction &in, Value *x, PT dt, RoundingMode rm,
                           bool intRound) {
  auto &b = fc.b;
  llvm::Type *to = fc.llvmType(dt);
  unsigned sb = x->getType()->getPrimitiveSizeInBits(), db = to->getPrimitiveSizeInBits();
  Value *r;
  if (x->getType() == to) {
    r = intRound ? roundIntegral(fc, x, rm) : x;
  } else if (db > sb) {
    r = b.CreateFPExt(x, to);
  } else if (db == sb) { // f16 <-> bf16: exact widening to f32, one rounding
    r = narrowFloat(fc, b.CreateFPExt(x, b.getFloatTy()), to, rm);
  } else {
    r = narrowFloat(fc, x, to, rm);
    if (x->getType()->isDoubleTy() && to->isHalfTy()) r = nanF64ToF16(fc, x, r);
  }
  // .ftz flushes an f32 result only (cvt.ftz.f16.f32 keeps f16 subnormals, H200).
  if (in.has(Mod::Ftz) && to->isFloatTy()) r = fc.flushDenorm(r);
  if (in.has(Mod::Relu)) { // negative results and -0 become +0
    Value *zero = Constant::getNullValue(to);
    r = b.CreateSelect(b.CreateFCmpOLE(r, zero), zero, r);
  }
  if (in.has(Mod::Satfinite)) r = satFinite(fc, r);
  // NaN results: canonical for results in f16/bf16, for f16 -> f32 and for
  // same-type rounding; f32 <-> f64 and bf16 -> f32 keep the payload (H200).
  llvm::Type *from = x->getType();
  bool keepPayload = (from->isFloatTy() && to->isDoubleTy()) || (from->isDoubleTy() && to->isFloatTy()) ||
                     (from->isBFloatTy() && (to->isFloatTy() || to->isDoubleTy())) ||
                     (from->isDoubleTy() && to->isDoubleTy()) || (from->isHalfTy() && to->isDoubleTy()) ||
                     (from->isDoubleTy() && (to->isHalfTy() || to->isBFloatTy())); // payload truncated
  if (in.has(Mod::Sat)) r = fc.saturate01(r);
  else if (!keepPayload) r = fc.canonicalNaN(r);
  return r;
}

// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32
// d, a, b, c (PTX ISA cvt.pack): a and b are clamped to the N-bit convert
// type's range; d = tb in bits [0,N), ta in bits [N,2N), then for the 3-source
// forms the low 32-2N bits of c above them.
static bool cvtPack(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  unsigned n = 0;
  bool sgn = false;
  PT t0 = in.type(0);
  if (t0 == PT::U16 || t0 == PT::S16 || t0 == PT::U8 || t0 == PT::S8) {
    n = ptx::typeBits(t0);
    sgn = ptx::isSigned(t0);
  } else {
    for (auto [name, bits, s] : {std::tuple{"u4", 4u, false}, {"s4", 4u, true}, {"u2", 2u, false},
                                 {"s2", 2u, true}})
      if (hasModNamed(in, name)) { n = bits; sgn = s; }
  }
  if (!n || !in.has(Mod::Sat)) return fc.unsupported(in, "cvt.pack convert type");
  bool three = n < 16;
  if (ops.size() != (three ? 4u : 3u)) return fc.unsupported(in, "operands");
  int64_t lo = sgn ? -(int64_t(1) << (n - 1)) : 0;
  int64_t hi = sgn ? (int64_t(1) << (n - 1)) - 1 : (int64_t(1) << n) - 1;
  auto sat = [&](const ptx::Operand &o) {
    Value *x = fc.read(o, PT::S32);
    x = b.CreateSelect(b.CreateICmpSLT(x, b.getInt32((uint32_t)lo)), b.getInt32((uint32_t)lo), x);
    x = b.CreateSelect(b.CreateICmpSGT(x, b.getInt32((uint32_t)hi)), b.getInt32((uint32_t)hi), x);
    return b.CreateAnd(x, b.getInt32((1u << n) - 1));
  };
  Value *ta = sat(ops[1]);
  Value *tb = sat(ops[2]);
  Value *d = b.CreateOr(b.CreateShl(ta, n), tb);
  if (three) d = b.CreateOr(d, b.CreateShl(fc.read(ops[3], PT::B32), 2 * n));
  fc.write(ops[0], d, PT::B32);
  return true;
}

bool translateConvert(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  if (in.has(Mod::Pack)) return cvtPack(fc, in);
  PT dt = in.type(0), st = in.type(1);
  if (dt == PT::None || st == PT::None) return fc.unsupported(in, "needs destination and source types");
  RoundingMode rm = fc.rounding(in);
  bool intRound = in.has(Mod::Rni) || in.has(Mod::Rzi) || in.has(Mod::Rmi) || in.has(Mod::Rpi);

  // Integer -> integer.
  if (isIntType(dt) && isIntType(st)) {
    Value *x = fc.read(ops[1], st);
    unsigned dn = ptx::typeBits(dt), sn = ptx::typeBits(st);
    bool ss = ptx::isSigned(st), ds = ptx::isSigned(dt);
    if (in.has(Mod::Sat)) x = clampInt(b, x, ss, dn, ds);
    Value *r = dn <= sn ? b.CreateTrunc(x, fc.intTy(dn)) : (ss ? b.CreateSExt(x, fc.intTy(dn)) : b.CreateZExt(x, fc.intTy(dn)));
    fc.write(ops[0], r, dt);
    return true;
  }
  // Float -> integer.
  if (isIntType(dt) && isScalarFloat(st)) {
    Value *x = fc.read(ops[1], st);
    if (in.has(Mod::Ftz)) x = fc.flushDenorm(x);
    if (st == PT::F16 || st == PT::BF16) x = b.CreateFPExt(x, b.getFloatTy());
    x = roundIntegral(fc, x, rm);
    llvm::Type *it = fc.intTy(ptx::typeBits(dt));
    Value *r = b.CreateIntrinsic(ptx::isSigned(dt) ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat, {it, x->getType()}, {x});
    // NaN (H200): 0 for f16/bf16/f32 sources into <= 32 bits; the destination's
    // sign-bit pattern (0x80.., i.e. INT_MIN) for f64 sources and 64-bit results.
    unsigned db = ptx::typeBits(dt);
    if (st == PT::F64 || db == 64)
      r = b.CreateSelect(b.CreateFCmpUNO(x, x), ConstantInt::get(it, APInt::getSignMask(db)), r);
    fc.write(ops[0], r, dt);
    return true;
  }
  // Integer -> float.
  if (isScalarFloat(dt) && isIntType(st)) {
    Value *x = fc.read(ops[1], st);
    llvm::Type *to = fc.llvmType(dt);
    bool s = ptx::isSigned(st);
    Value *r;
    if (rm == RoundingMode::NearestTiesToEven) {
      r = s ? b.CreateSIToFP(x, to) : b.CreateUIToFP(x, to);
    } else if (x->getType()->isIntegerTy(32) && to->isFloatTy()) { // v_cvt_f32_[iu]32 in the MODE direction
      r = fc.modeRounded(s ? Intrinsic::experimental_constrained_sitofp : Intrinsic::experimental_constrained_uitofp,
                         {x}, to, rm);
    } else {
      // Exact value as hi + lo in f64 (each half converts exactly), then one
      // directed rounding.
      llvm::Type *dt = b.getDoubleTy();
      unsigned n = x->getType()->getIntegerBitWidth();
      Value *hi, *lo = ConstantFP::get(dt, 0.0);
      if (n <= 32) {
        hi = s ? b.CreateSIToFP(x, dt) : b.CreateUIToFP(x, dt);
      } else {
        Value *h = s ? b.CreateAShr(x, 32) : b.CreateLShr(x, 32);
        hi = b.CreateFMul(s ? b.CreateSIToFP(h, dt) : b.CreateUIToFP(h, dt), ConstantFP::get(dt, 0x1p32));
        lo = b.CreateUIToFP(b.CreateTrunc(x, b.getInt32Ty()), dt);
      }
      r = fc.roundDirected(hi, lo, to, rm, b.getTrue());
    }
    if (in.has(Mod::Ftz)) r = fc.flushDenorm(r);
    if (in.has(Mod::Sat)) r = fc.saturate01(r);
    fc.write(ops[0], r, dt);
    return true;
  }
  // Float -> float.
  if (isScalarFloat(dt) && isScalarFloat(st)) {
    Value *x = fc.read(ops[1], st);
    // .ftz (H200): flushes f32 inputs except when converting to f16 (and never
    // f16 inputs), and makes f32/bf16 NaN inputs the canonical NaN.
    if (in.has(Mod::Ftz) && st == PT::F32 && dt != PT::F16) x = fc.flushDenorm(x);
    if (in.has(Mod::Ftz) && st == PT::F32) x = fc.canonicalNaN(x);
    Value *r = floatToFloat(fc, in, x, dt, rm, intRound);
    if (in.has(Mod::Ftz) && st == PT::BF16) r = fc.canonicalNaN(r);
    fc.write(ops[0], r, dt);
    return true;
  }
  // f32 pair -> f16x2 / bf16x2: d.hi = cvt(a), d.lo = cvt(b).
  if ((dt == PT::F16x2 || dt == PT::BF16x2) && st == PT::F32) {
    if (ops.size() != 3) return fc.unsupported(in, "expected two sources");
    PT et = dt == PT::F16x2 ? PT::F16 : PT::BF16;
    Value *a = fc.read(ops[1], PT::F32), *c = fc.read(ops[2], PT::F32);
    Value *ha = coerceTo16(fc, floatToFloat(fc, in, a, et, rm, false));
    Value *hb = coerceTo16(fc, floatToFloat(fc, in, c, et, rm, false));
    Value *r = b.CreateOr(b.CreateShl(b.CreateZExt(ha, b.getInt32Ty()), 16), b.CreateZExt(hb, b.getInt32Ty()));
    fc.write(ops[0], r, PT::B32);
    return true;
  }
  // fp8 pairs (devlib fp8.c converts one byte): the element from a / from the
  // upper half goes to the upper byte / upper half.
  bool dFp8 = dt == PT::E4M3x2 || dt == PT::E5M2x2, sFp8 = st == PT::E4M3x2 || st == PT::E5M2x2;
  if (dFp8 && (st == PT::F32 || st == PT::F16x2)) {
    if (rm != RoundingMode::NearestTiesToEven || !in.has(Mod::Satfinite))
      return fc.unsupported(in, "fp8 destinations need .rn.satfinite");
    Value *fmt = b.getInt32(dt == PT::E5M2x2), *relu = b.getInt32(in.has(Mod::Relu));
    Value *hiF, *loF;
    if (st == PT::F32) {
      if (ops.size() != 3) return fc.unsupported(in, "expected two sources");
      hiF = fc.read(ops[1], PT::F32);
      loF = fc.read(ops[2], PT::F32);
    } else {
      if (ops.size() != 2) return fc.unsupported(in, "operands");
      Value *u = fc.read(ops[1], PT::B32);
      auto half = [&](Value *bits16) {
        return b.CreateFPExt(b.CreateBitCast(b.CreateTrunc(bits16, b.getInt16Ty()), b.getHalfTy()), b.getFloatTy());
      };
      hiF = half(b.CreateLShr(u, 16));
      loF = half(u);
    }
    Value *hi = fc.call("__ptx_cvt_f32_to_fp8", fc.i32(), {hiF, fmt, relu});
    Value *lo = fc.call("__ptx_cvt_f32_to_fp8", fc.i32(), {loF, fmt, relu});
    Value *r = b.CreateTrunc(b.CreateOr(b.CreateShl(hi, 8), lo), b.getInt16Ty());
    fc.write(ops[0], r, PT::B16);
    return true;
  }
  if (dt == PT::F16x2 && sFp8) {
    if (rm != RoundingMode::NearestTiesToEven || ops.size() != 2) return fc.unsupported(in, "operands");
    Value *fmt = b.getInt32(st == PT::E5M2x2), *relu = b.getInt32(in.has(Mod::Relu));
    Value *u = b.CreateZExt(fc.coerce(fc.read(ops[1], PT::B16), b.getInt16Ty()), fc.i32());
    Value *hi = fc.call("__ptx_cvt_fp8_to_f16", fc.i32(), {b.CreateLShr(u, 8), fmt, relu});
    Value *lo = fc.call("__ptx_cvt_fp8_to_f16", fc.i32(), {b.CreateAnd(u, b.getInt32(0xff)), fmt, relu});
    fc.write(ops[0], b.CreateOr(b.CreateShl(hi, 16), lo), PT::B32);
    return true;
  }
  // f32 -> tf32, bit sequences matching the H200 tables: .rna adds half an
  // ulp and truncates (Inf/NaN inputs are only truncated); .rn rounds half to
  // even; .rz truncates; NaN inputs of .rz/.rn give 0x7fffe000. .satfinite:
  // a result with an all-ones exponent steps down one tf32 ulp.
  if (dt == PT::TF32 && st == PT::F32) {
    Value *x = fc.read(ops[1], PT::F32);
    Value *u = b.CreateBitCast(x, b.getInt32Ty());
    Value *mask = b.getInt32(0xffffe000);
    Value *r;
    if (rm == RoundingMode::NearestTiesToAway) {
      Value *special = b.CreateICmpEQ(b.CreateAnd(u, b.getInt32(0x7f800000)), b.getInt32(0x7f800000));
      r = b.CreateSelect(special, b.CreateAnd(u, mask), b.CreateAnd(b.CreateAdd(u, b.getInt32(0x1000)), mask));
    } else {
      if (rm == RoundingMode::NearestTiesToEven)
        r = b.CreateAnd(b.CreateAdd(b.CreateAdd(u, b.getInt32(0xfff)), b.CreateAnd(b.CreateLShr(u, 13), 1)), mask);
      else if (rm == RoundingMode::TowardZero)
        r = b.CreateAnd(u, mask);
      else
        return fc.unsupported(in, "tf32 rounding");
      r = b.CreateSelect(b.CreateFCmpUNO(x, x), b.getInt32(0x7fffe000), r);
    }
    if (in.has(Mod::Satfinite)) {
      Value *expAll = b.CreateICmpEQ(b.CreateAnd(r, b.getInt32(0x7f800000)), b.getInt32(0x7f800000));
      r = b.CreateSelect(expAll, b.CreateSub(r, b.getInt32(0x2000)), r);
    }
    fc.write(ops[0], r, PT::B32);
    return true;
  }
  return fc.unsupported(in);
}

} // namespace ptx2llvm
