//===- IntArith.cpp - integer arithmetic instructions ---------------------===//
//
// add/sub (.sat, .cc), addc/subc/madc (the CC.CF carry flag is an i1 alloca of
// the function, i.e. an SSA value after mem2reg), mul/mad with .lo/.hi/.wide,
// mul24/mad24, sad, div/rem (division by zero gives all ones for both div
// and rem, signed and unsigned, as recorded on an H200 in tests/golden; INT_MIN/-1
// gives INT_MIN and remainder 0; never LLVM's undefined behaviour), abs/neg/min/max
// (.relu; also the packed .u16x2/.s16x2 forms, per 16-bit half), popc/clz/bfind(.shiftamt)/brev, bfe/bfi with PTX's position/length
// clamping and sign replication, bmsk, szext, dp4a/dp2a. Semantics follow the
// PTX ISA 9.0 pseudo-code of each instruction; LLVM's poison-producing edge
// cases (shift >= width, ctlz of 0, udiv by 0) are always guarded.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static ptx::Type widened(ptx::Type t) {
  switch (t) {
  case ptx::Type::U16: return ptx::Type::U32;
  case ptx::Type::S16: return ptx::Type::S32;
  case ptx::Type::U32: return ptx::Type::U64;
  case ptx::Type::S32: return ptx::Type::S64;
  case ptx::Type::U64: case ptx::Type::B64: return ptx::Type::B128;
  case ptx::Type::S64: return ptx::Type::B128;
  case ptx::Type::B16: return ptx::Type::B32;
  case ptx::Type::B32: return ptx::Type::B64;
  default: return ptx::Type::None;
  }
}

// High half of the full product of a and b (N bits each). 64-bit operands use
// 32-bit partial products (no i128, which the emulator does not model).
static Value *mulHi(IRBuilder<> &b, Value *x, Value *y, bool sgn) {
  unsigned n = x->getType()->getIntegerBitWidth();
  if (n == 64) {
    Type *i64 = b.getInt64Ty();
    Value *m32 = b.getInt64(0xffffffff);
    Value *x0 = b.CreateAnd(x, m32), *x1 = b.CreateLShr(x, 32);
    Value *y0 = b.CreateAnd(y, m32), *y1 = b.CreateLShr(y, 32);
    Value *p00 = b.CreateMul(x0, y0), *p01 = b.CreateMul(x0, y1);
    Value *p10 = b.CreateMul(x1, y0), *p11 = b.CreateMul(x1, y1);
    Value *mid = b.CreateAdd(b.CreateAdd(b.CreateLShr(p00, 32), b.CreateAnd(p01, m32)), b.CreateAnd(p10, m32));
    Value *hi = b.CreateAdd(b.CreateAdd(p11, b.CreateLShr(p01, 32)), b.CreateAdd(b.CreateLShr(p10, 32), b.CreateLShr(mid, 32)));
    if (sgn) { // signed high = unsigned high - (x<0 ? y : 0) - (y<0 ? x : 0)
      Value *z = ConstantInt::get(i64, 0);
      hi = b.CreateSub(hi, b.CreateSelect(b.CreateICmpSLT(x, z), y, z));
      hi = b.CreateSub(hi, b.CreateSelect(b.CreateICmpSLT(y, z), x, z));
    }
    return hi;
  }
  Type *w = b.getIntNTy(2 * n);
  Value *xw = sgn ? b.CreateSExt(x, w) : b.CreateZExt(x, w);
  Value *yw = sgn ? b.CreateSExt(y, w) : b.CreateZExt(y, w);
  return b.CreateTrunc(b.CreateLShr(b.CreateMul(xw, yw), n), x->getType());
}

// x + y (+ cin) with unsigned carry out.
static std::pair<Value *, Value *> addCarry(IRBuilder<> &b, Value *x, Value *y, Value *cin) {
  Value *r1 = b.CreateBinaryIntrinsic(Intrinsic::uadd_with_overflow, x, y);
  Value *s = b.CreateExtractValue(r1, 0), *c = b.CreateExtractValue(r1, 1);
  if (cin) {
    Value *r2 = b.CreateBinaryIntrinsic(Intrinsic::uadd_with_overflow, s, b.CreateZExt(cin, x->getType()));
    s = b.CreateExtractValue(r2, 0);
    c = b.CreateOr(c, b.CreateExtractValue(r2, 1));
  }
  return {s, c};
}

// x - (y + bin) with borrow out.
static std::pair<Value *, Value *> subBorrow(IRBuilder<> &b, Value *x, Value *y, Value *bin) {
  Value *r1 = b.CreateBinaryIntrinsic(Intrinsic::usub_with_overflow, x, y);
  Value *s = b.CreateExtractValue(r1, 0), *c = b.CreateExtractValue(r1, 1);
  if (bin) {
    Value *r2 = b.CreateBinaryIntrinsic(Intrinsic::usub_with_overflow, s, b.CreateZExt(bin, x->getType()));
    s = b.CreateExtractValue(r2, 0);
    c = b.CreateOr(c, b.CreateExtractValue(r2, 1));
  }
  return {s, c};
}

static bool addSubLike(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  if (ops.size() != 3) return fc.unsupported(in, "expected 3 operands");
  Value *x = fc.read(ops[1], t), *y = fc.read(ops[2], t);
  bool sub = in.op == Opcode::Sub || in.op == Opcode::Subc;
  bool withCarryIn = in.op == Opcode::Addc || in.op == Opcode::Subc;
  bool cc = in.has(Mod::Cc);
  Value *r;
  if (in.has(Mod::Sat)) {
    if (!isSigned(t)) return fc.unsupported(in, ".sat needs .s32");
    r = b.CreateBinaryIntrinsic(sub ? Intrinsic::ssub_sat : Intrinsic::sadd_sat, x, y);
  } else if (cc || withCarryIn) {
    Value *cin = withCarryIn ? b.CreateLoad(fc.i1(), fc.carry) : nullptr;
    auto [s, c] = sub ? subBorrow(b, x, y, cin) : addCarry(b, x, y, cin);
    r = s;
    if (cc) b.CreateStore(c, fc.carry);
  } else {
    r = sub ? b.CreateSub(x, y) : b.CreateAdd(x, y);
  }
  fc.write(ops[0], r, t);
  return true;
}

static bool mulMad(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  bool mad = in.op == Opcode::Mad || in.op == Opcode::Madc;
  if (ops.size() != (mad ? 4u : 3u)) return fc.unsupported(in, "wrong operand count");
  bool sgn = isSigned(t);
  Value *x = fc.read(ops[1], t), *y = fc.read(ops[2], t);
  Value *prod;
  ptx::Type rt = t;
  if (in.has(Mod::Wide)) {
    rt = widened(t);
    if (rt == ptx::Type::None || ptx::typeBits(rt) > 64) return fc.unsupported(in);
    if (sgn) rt = ptx::typeBits(rt) == 32 ? ptx::Type::S32 : ptx::Type::S64;
    Type *w = fc.llvmType(rt);
    prod = b.CreateMul(sgn ? b.CreateSExt(x, w) : b.CreateZExt(x, w), sgn ? b.CreateSExt(y, w) : b.CreateZExt(y, w));
  } else if (in.has(Mod::Hi)) {
    prod = mulHi(b, x, y, sgn);
  } else {
    prod = b.CreateMul(x, y);
  }
  Value *r = prod;
  if (mad) {
    Value *z = fc.read(ops[3], rt);
    bool cc = in.has(Mod::Cc), withCarryIn = in.op == Opcode::Madc;
    if (in.has(Mod::Sat)) {
      if (!(t == ptx::Type::S32 && in.has(Mod::Hi))) return fc.unsupported(in);
      r = b.CreateBinaryIntrinsic(Intrinsic::sadd_sat, prod, z);
    } else if (cc || withCarryIn) {
      Value *cin = withCarryIn ? b.CreateLoad(fc.i1(), fc.carry) : nullptr;
      auto [s, c] = addCarry(b, prod, z, cin);
      r = s;
      if (cc) b.CreateStore(c, fc.carry);
    } else {
      r = b.CreateAdd(prod, z);
    }
  }
  fc.write(ops[0], r, rt);
  return true;
}

static bool mul24(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  bool mad = in.op == Opcode::Mad24;
  if (ops.size() != (mad ? 4u : 3u)) return fc.unsupported(in, "wrong operand count");
  bool sgn = isSigned(t);
  Type *i64 = b.getInt64Ty();
  auto ext24 = [&](Value *v) {
    Value *w = b.CreateZExt(v, i64);
    w = b.CreateShl(w, 40);
    return sgn ? b.CreateAShr(w, 40) : b.CreateLShr(w, 40);
  };
  Value *p = b.CreateMul(ext24(fc.read(ops[1], t)), ext24(fc.read(ops[2], t))); // 48-bit product
  Value *r = in.has(Mod::Hi) ? b.CreateTrunc(b.CreateLShr(p, 16), b.getInt32Ty()) : b.CreateTrunc(p, b.getInt32Ty());
  if (mad) {
    Value *z = fc.read(ops[3], t);
    r = in.has(Mod::Sat) ? b.CreateBinaryIntrinsic(Intrinsic::sadd_sat, r, z) : b.CreateAdd(r, z);
  }
  fc.write(ops[0], r, t);
  return true;
}

static bool divRem(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  Value *x = fc.read(ops[1], t), *y = fc.read(ops[2], t);
  Type *ty = x->getType();
  bool sgn = isSigned(t), rem = in.op == Opcode::Rem;
  Value *zero = ConstantInt::get(ty, 0), *ones = Constant::getAllOnesValue(ty);
  Value *isZero = b.CreateICmpEQ(y, zero);
  Value *safeY = b.CreateSelect(isZero, ConstantInt::get(ty, 1), y);
  Value *r;
  if (sgn) {
    // INT_MIN / -1 overflows: NVIDIA returns INT_MIN (and remainder 0).
    Value *ovf = b.CreateAnd(b.CreateICmpEQ(x, ConstantInt::get(ty, APInt::getSignedMinValue(ty->getIntegerBitWidth()))),
                             b.CreateICmpEQ(y, ones));
    safeY = b.CreateSelect(ovf, ConstantInt::get(ty, 1), safeY);
    r = rem ? b.CreateSRem(x, safeY) : b.CreateSDiv(x, safeY);
    if (rem) r = b.CreateSelect(ovf, zero, r);
    r = b.CreateSelect(isZero, ones, r);
  } else {
    r = rem ? b.CreateURem(x, safeY) : b.CreateUDiv(x, safeY);
    r = b.CreateSelect(isZero, ones, r);
  }
  fc.write(ops[0], r, t);
  return true;
}

static bool bfe(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  Value *a = fc.read(ops[1], t);
  Type *ty = a->getType();
  unsigned n = ty->getIntegerBitWidth();
  bool sgn = isSigned(t);
  // Position and length: the low byte of b and c for 32-bit bfe, the whole
  // 32-bit values for 64-bit bfe (both as recorded on an H200).
  Value *pos = fc.read(ops[2], ptx::Type::U32), *len = fc.read(ops[3], ptx::Type::U32);
  if (n == 32) { pos = b.CreateAnd(pos, 0xff); len = b.CreateAnd(len, 0xff); }
  Value *N = b.getInt32(n);
  Value *posIn = b.CreateICmpULT(pos, N);
  // k = number of extracted bits that come from a: min(pos+len, n) - pos.
  Value *sum64 = b.CreateAdd(b.CreateZExt(pos, b.getInt64Ty()), b.CreateZExt(len, b.getInt64Ty()));
  Value *end = b.CreateTrunc(b.CreateBinaryIntrinsic(Intrinsic::umin, sum64, b.getInt64(n)), b.getInt32Ty());
  Value *k = b.CreateSelect(posIn, b.CreateSub(end, pos), b.getInt32(0));
  Value *shifted = b.CreateLShr(a, b.CreateZExtOrTrunc(b.CreateSelect(posIn, pos, b.getInt32(0)), ty));
  Value *kz = b.CreateICmpEQ(k, b.getInt32(0));
  Value *sh = b.CreateZExtOrTrunc(b.CreateSelect(kz, b.getInt32(0), b.CreateSub(N, k)), ty);
  Value *r;
  if (sgn) {
    Value *field = b.CreateAShr(b.CreateShl(shifted, sh), sh);
    // pos beyond msb: every bit is the sign bit a[msb] (when len != 0).
    Value *fill = b.CreateAShr(a, ConstantInt::get(ty, n - 1));
    r = b.CreateSelect(kz, fill, field);
    r = b.CreateSelect(b.CreateICmpEQ(len, b.getInt32(0)), ConstantInt::get(ty, 0), r);
  } else {
    Value *field = b.CreateLShr(b.CreateShl(shifted, sh), sh);
    r = b.CreateSelect(kz, ConstantInt::get(ty, 0), field);
  }
  fc.write(ops[0], r, t);
  return true;
}

static bool bfi(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  Value *a = fc.read(ops[1], t), *base = fc.read(ops[2], t);
  Type *ty = a->getType();
  unsigned n = ty->getIntegerBitWidth();
  Value *pos = fc.read(ops[3], ptx::Type::U32), *len = fc.read(ops[4], ptx::Type::U32);
  if (n == 32) { pos = b.CreateAnd(pos, 0xff); len = b.CreateAnd(len, 0xff); } // as bfe
  Value *N = b.getInt32(n);
  Value *noop = b.CreateOr(b.CreateICmpEQ(len, b.getInt32(0)), b.CreateICmpUGE(pos, N));
  Value *lenC = b.CreateZExtOrTrunc(b.CreateBinaryIntrinsic(Intrinsic::umin, len, b.getInt32(n - 1)), ty);
  Value *low = b.CreateSelect(b.CreateICmpUGE(len, N), Constant::getAllOnesValue(ty),
                              b.CreateSub(b.CreateShl(ConstantInt::get(ty, 1), lenC), ConstantInt::get(ty, 1)));
  Value *posC = b.CreateZExtOrTrunc(b.CreateSelect(noop, b.getInt32(0), pos), ty);
  Value *mask = b.CreateShl(low, posC);
  Value *r = b.CreateOr(b.CreateAnd(base, b.CreateNot(mask)), b.CreateAnd(b.CreateShl(a, posC), mask));
  r = b.CreateSelect(noop, base, r);
  fc.write(ops[0], r, t);
  return true;
}

static bool bfind(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  Value *a = fc.read(in.operands[1], t);
  Type *ty = a->getType();
  unsigned n = ty->getIntegerBitWidth();
  Value *x = a;
  if (isSigned(t)) x = b.CreateSelect(b.CreateICmpSLT(a, ConstantInt::get(ty, 0)), b.CreateNot(a), a);
  Value *lz = b.CreateTrunc(b.CreateBinaryIntrinsic(Intrinsic::ctlz, x, b.getFalse()), b.getInt32Ty());
  Value *none = b.CreateICmpEQ(x, ConstantInt::get(ty, 0));
  Value *pos = in.has(Mod::Shiftamt) ? lz : b.CreateSub(b.getInt32(n - 1), lz);
  Value *r = b.CreateSelect(none, b.getInt32(0xffffffff), pos);
  fc.write(in.operands[0], r, ptx::Type::U32);
  return true;
}

static bool dp(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type ta = in.type(0), tb = in.type(1);
  const auto &ops = in.operands;
  Value *a = fc.read(ops[1], ptx::Type::B32), *bb = fc.read(ops[2], ptx::Type::B32);
  bool sa = isSigned(ta), sb = isSigned(tb);
  ptx::Type rt = (sa || sb) ? ptx::Type::S32 : ptx::Type::U32;
  Value *acc = fc.read(ops[3], rt);
  auto field = [&](Value *v, unsigned lo, unsigned bits, bool s) {
    Value *x = b.CreateShl(v, 32 - lo - bits);
    return s ? b.CreateAShr(x, 32 - bits) : b.CreateLShr(x, 32 - bits);
  };
  if (in.op == Opcode::Dp4a) {
    for (unsigned i = 0; i < 4; ++i)
      acc = b.CreateAdd(acc, b.CreateMul(field(a, 8 * i, 8, sa), field(bb, 8 * i, 8, sb)));
  } else {
    unsigned base = in.has(Mod::Hi) ? 2 : 0;
    for (unsigned i = 0; i < 2; ++i)
      acc = b.CreateAdd(acc, b.CreateMul(field(a, 16 * i, 16, sa), field(bb, 8 * (base + i), 8, sb)));
  }
  fc.write(ops[0], acc, rt);
  return true;
}

// fns.b32 d, mask, base, offset: position of the |offset|-th set bit of mask
// at or above base (offset > 0) or at or below base (offset < 0); offset 0
// tests bit base; 0xffffffff when there is none or base > 31. offset ==
// INT_MIN gives 0 (as recorded on an H200). The n-th set bit from the bottom
// is found by a 5-step binary search over popcounts (no loops).
static bool fns(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  Value *mask = fc.read(ops[1], ptx::Type::B32), *base = fc.read(ops[2], ptx::Type::U32);
  Value *off = fc.read(ops[3], ptx::Type::S32);
  Type *i32 = b.getInt32Ty();
  Value *none = b.getInt32(0xffffffff);
  auto lowmask = [&](Value *k) { // bits [0, k), k in [0, 32]
    Value *big = b.CreateICmpUGE(k, b.getInt32(32));
    Value *m = b.CreateSub(b.CreateShl(b.getInt32(1), b.CreateSelect(big, b.getInt32(0), k)), b.getInt32(1));
    return b.CreateSelect(big, b.getInt32(0xffffffff), m);
  };
  auto popc = [&](Value *v) { return b.CreateUnaryIntrinsic(Intrinsic::ctpop, v); };
  Value *baseOk = b.CreateICmpULE(base, b.getInt32(31));
  Value *bc = b.CreateSelect(baseOk, base, b.getInt32(0));
  Value *up = b.CreateICmpSGT(off, b.getInt32(0));
  // Candidate bits and which set bit (from the bottom) is wanted.
  Value *xUp = b.CreateAnd(mask, b.CreateNot(lowmask(bc)));
  Value *xDown = b.CreateAnd(mask, lowmask(b.CreateAdd(bc, b.getInt32(1))));
  Value *x = b.CreateSelect(up, xUp, xDown);
  Value *n = b.CreateSelect(up, off, b.CreateSub(b.getInt32(0), off)); // |offset|
  Value *cnt = popc(x);
  Value *found = b.CreateICmpUGE(cnt, n);
  Value *k = b.CreateSelect(up, n, b.CreateAdd(b.CreateSub(cnt, n), b.getInt32(1)));
  Value *pos = b.getInt32(0);
  for (unsigned step : {16u, 8u, 4u, 2u, 1u}) {
    Value *t = b.CreateAdd(pos, b.getInt32(step));
    Value *less = b.CreateICmpULT(popc(b.CreateAnd(x, lowmask(t))), k);
    pos = b.CreateSelect(less, t, pos);
  }
  Value *r = b.CreateSelect(found, pos, none);
  Value *bit = b.CreateAnd(b.CreateLShr(mask, bc), b.getInt32(1));
  Value *r0 = b.CreateSelect(b.CreateICmpNE(bit, b.getInt32(0)), bc, none);
  r = b.CreateSelect(b.CreateICmpEQ(off, b.getInt32(0)), r0, r);
  r = b.CreateSelect(baseOk, r, none);
  r = b.CreateSelect(b.CreateICmpEQ(off, ConstantInt::get(i32, 0x80000000u)), b.getInt32(0), r);
  fc.write(ops[0], r, ptx::Type::B32);
  return true;
}

// min/max{.relu}.{u16x2,s16x2} d, a, b (sm_90): the two 16-bit halves of the
// 32-bit operands are compared independently (as <2 x i16>); .relu clamps
// each signed result at 0.
static bool minMax16x2(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  if (ops.size() != 3) return fc.unsupported(in, "three-input min/max");
  bool mx = in.op == Opcode::Max, s = in.type(0) == ptx::Type::S16x2;
  Type *v2 = FixedVectorType::get(b.getInt16Ty(), 2);
  Value *x = b.CreateBitCast(fc.read(ops[1], ptx::Type::B32), v2);
  Value *y = b.CreateBitCast(fc.read(ops[2], ptx::Type::B32), v2);
  Intrinsic::ID id = mx ? (s ? Intrinsic::smax : Intrinsic::umax) : (s ? Intrinsic::smin : Intrinsic::umin);
  Value *r = b.CreateBinaryIntrinsic(id, x, y);
  if (in.has(Mod::Relu)) r = b.CreateBinaryIntrinsic(Intrinsic::smax, r, Constant::getNullValue(v2));
  fc.write(ops[0], b.CreateBitCast(r, b.getInt32Ty()), ptx::Type::B32);
  return true;
}

bool translateIntArith(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  switch (in.op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Addc: case Opcode::Subc:
    if (in.op == Opcode::Add && (t == ptx::Type::U16x2 || t == ptx::Type::S16x2)) {
      // add.{u16x2,s16x2} (sm_90): two independent wrapping 16-bit adds
      Type *v2 = FixedVectorType::get(b.getInt16Ty(), 2);
      if (ops.size() != 3) return fc.unsupported(in, "expected 3 operands");
      Value *x = b.CreateBitCast(fc.read(ops[1], ptx::Type::B32), v2);
      Value *y = b.CreateBitCast(fc.read(ops[2], ptx::Type::B32), v2);
      fc.write(ops[0], b.CreateBitCast(b.CreateAdd(x, y), b.getInt32Ty()), ptx::Type::B32);
      return true;
    }
    return addSubLike(fc, in);
  case Opcode::Mul: case Opcode::Mad: case Opcode::Madc:
    return mulMad(fc, in);
  case Opcode::Mul24: case Opcode::Mad24:
    return mul24(fc, in);
  case Opcode::Sad: {
    Value *x = fc.read(ops[1], t), *y = fc.read(ops[2], t), *z = fc.read(ops[3], t);
    Value *lt = isSigned(t) ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
    Value *d = b.CreateSelect(lt, b.CreateSub(y, x), b.CreateSub(x, y));
    fc.write(ops[0], b.CreateAdd(z, d), t);
    return true;
  }
  case Opcode::Div: case Opcode::Rem:
    return divRem(fc, in);
  case Opcode::Abs: {
    Value *x = fc.read(ops[1], t);
    fc.write(ops[0], b.CreateBinaryIntrinsic(Intrinsic::abs, x, b.getFalse()), t);
    return true;
  }
  case Opcode::Neg: {
    Value *x = fc.read(ops[1], t);
    fc.write(ops[0], b.CreateNeg(x), t);
    return true;
  }
  case Opcode::Min: case Opcode::Max: {
    if (t == ptx::Type::U16x2 || t == ptx::Type::S16x2) return minMax16x2(fc, in);
    Value *x = fc.read(ops[1], t), *y = fc.read(ops[2], t);
    bool mx = in.op == Opcode::Max, s = isSigned(t);
    Intrinsic::ID id = mx ? (s ? Intrinsic::smax : Intrinsic::umax) : (s ? Intrinsic::smin : Intrinsic::umin);
    Value *r = b.CreateBinaryIntrinsic(id, x, y);
    if (in.has(Mod::Relu)) r = b.CreateBinaryIntrinsic(Intrinsic::smax, r, ConstantInt::get(r->getType(), 0));
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Popc: case Opcode::Clz: {
    Value *x = fc.read(ops[1], t);
    Value *r = in.op == Opcode::Popc ? b.CreateUnaryIntrinsic(Intrinsic::ctpop, x)
                                     : b.CreateBinaryIntrinsic(Intrinsic::ctlz, x, b.getFalse());
    fc.write(ops[0], b.CreateZExtOrTrunc(r, b.getInt32Ty()), ptx::Type::U32);
    return true;
  }
  case Opcode::Bfind: return bfind(fc, in);
  case Opcode::Brev: {
    Value *x = fc.read(ops[1], t);
    fc.write(ops[0], b.CreateUnaryIntrinsic(Intrinsic::bitreverse, x), t);
    return true;
  }
  case Opcode::Bfe: return bfe(fc, in);
  case Opcode::Bfi: return bfi(fc, in);
  case Opcode::Bmsk: {
    // bmsk.{clamp,wrap}.b32 d, a(pos), b(len)
    Value *pos = fc.read(ops[1], ptx::Type::U32), *len = fc.read(ops[2], ptx::Type::U32);
    if (in.has(Mod::Wrap)) { pos = b.CreateAnd(pos, 31); len = b.CreateAnd(len, 31); }
    else { pos = b.CreateBinaryIntrinsic(Intrinsic::umin, pos, b.getInt32(32));
           len = b.CreateBinaryIntrinsic(Intrinsic::umin, len, b.getInt32(32)); }
    Type *i64 = b.getInt64Ty();
    Value *m = b.CreateSub(b.CreateShl(ConstantInt::get(i64, 1), b.CreateZExt(len, i64)), ConstantInt::get(i64, 1));
    m = b.CreateShl(m, b.CreateZExt(pos, i64));
    fc.write(ops[0], b.CreateTrunc(m, b.getInt32Ty()), ptx::Type::B32);
    return true;
  }
  case Opcode::Szext: {
    // szext.{clamp,wrap}.{u32,s32} d, a, b: extend a from its low b bits.
    Value *a = fc.read(ops[1], t), *n = fc.read(ops[2], ptx::Type::U32);
    n = in.has(Mod::Wrap) ? b.CreateAnd(n, 31) : b.CreateBinaryIntrinsic(Intrinsic::umin, n, b.getInt32(32));
    Value *full = b.CreateICmpEQ(n, b.getInt32(32));
    Value *sh = b.CreateSelect(full, b.getInt32(0), b.CreateSub(b.getInt32(32), n));
    Value *x = b.CreateShl(a, sh);
    Value *r = isSigned(t) ? b.CreateAShr(x, sh) : b.CreateLShr(x, sh);
    r = b.CreateSelect(b.CreateICmpEQ(n, b.getInt32(0)), b.getInt32(0), r);
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Dp4a: case Opcode::Dp2a: return dp(fc, in);
  case Opcode::Fns: return fns(fc, in);
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
