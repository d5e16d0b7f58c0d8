//===- Logic.cpp - and/or/xor/not/cnot, lop3, shifts, shf, prmt ------------===//
//
// Bitwise operations on predicates and integer types; lop3 as the sum of the
// minterms selected by its 8-bit truth table (F(0xF0, 0xCC, 0xAA) = immLut),
// with the PTX 8.2 predicate form `lop3.{and,or}.b32 d|p, ..., q` giving
// p = (d != 0) BoolOp q;
// shl/shr with PTX's clamping of shift amounts >= the width (0, or the sign
// for shr.s); shf.{l,r}.{wrap,clamp} as funnel shifts; prmt in the default
// (nibble selector with sign replication) and f4e/b4e/rc8/ecl/ecr/rc16 modes,
// byte indices into the 8-byte value {b, a}.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static Value *prmtByteIndex(IRBuilder<> &b, const ptx::Instruction &in, Value *c, unsigned i,
                            Value **signRep) {
  Value *n = b.CreateAnd(c, 3);
  *signRep = nullptr;
  auto k = [&](unsigned v) { return b.getInt32(v); };
  if (in.has(Mod::F4e)) return b.CreateAnd(b.CreateAdd(n, k(i)), 7);
  if (in.has(Mod::B4e)) return b.CreateAnd(b.CreateSub(b.CreateAdd(n, k(8)), k(i)), 7);
  if (in.has(Mod::Rc8)) return n;
  if (in.has(Mod::Ecl)) return b.CreateBinaryIntrinsic(Intrinsic::umax, n, k(i));
  if (in.has(Mod::Ecr)) return b.CreateBinaryIntrinsic(Intrinsic::umin, n, k(i));
  if (in.has(Mod::Rc16)) return b.CreateAdd(b.CreateShl(b.CreateAnd(c, 1), 1), k(i & 1));
  Value *nib = b.CreateLShr(c, 4 * i);
  *signRep = b.CreateTrunc(b.CreateAnd(b.CreateLShr(nib, 3), 1), b.getInt1Ty());
  return b.CreateAnd(nib, 7);
}

bool translateLogic(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  switch (in.op) {
  case Opcode::And: case Opcode::Or: case Opcode::Xor: {
    Value *x = fc.read(ops[1], t), *y = fc.read(ops[2], t);
    Value *r = in.op == Opcode::And ? b.CreateAnd(x, y) : in.op == Opcode::Or ? b.CreateOr(x, y) : b.CreateXor(x, y);
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Not: {
    fc.write(ops[0], b.CreateNot(fc.read(ops[1], t)), t);
    return true;
  }
  case Opcode::Cnot: {
    Value *x = fc.read(ops[1], t);
    Value *r = b.CreateZExt(b.CreateICmpEQ(x, ConstantInt::get(x->getType(), 0)), x->getType());
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Lop3: {
    // lop3.b32 d, a, b, c, immLut  |  lop3.BoolOp.b32 d|p, a, b, c, immLut, q (PTX 8.2):
    // p = (d != 0) BoolOp q, BoolOp in {and, or}; d may be the sink `_`.
    bool boolOp = in.has(Mod::And) || in.has(Mod::Or);
    if (ops.size() != (boolOp ? 6u : 5u) || ops[4].kind != ptx::Operand::Kind::Imm ||
        (boolOp && !(isPairOp(ops[0]) && ops[0].elems.size() == 2)))
      return fc.unsupported(in, boolOp ? "expected `lop3.BoolOp.b32 d|p, a, b, c, immLut, q`"
                                       : "expected `lop3.b32 d, a, b, c, immLut`");
    Value *a = fc.read(ops[1], t), *bb = fc.read(ops[2], t), *c = fc.read(ops[3], t);
    unsigned lut = (unsigned)ops[4].imm & 0xff;
    Type *ty = a->getType();
    Value *r = ConstantInt::get(ty, 0);
    for (unsigned k = 0; k < 8; ++k) {
      if (!(lut >> k & 1)) continue;
      Value *term = b.CreateAnd(b.CreateAnd(k & 4 ? a : b.CreateNot(a), k & 2 ? bb : b.CreateNot(bb)),
                                k & 1 ? c : b.CreateNot(c));
      r = b.CreateOr(r, term);
    }
    if (!boolOp) {
      fc.write(ops[0], r, t);
      return true;
    }
    Value *q = fc.readPred(ops[5]);
    Value *nz = b.CreateICmpNE(r, ConstantInt::get(ty, 0));
    Value *p = in.has(Mod::And) ? b.CreateAnd(nz, q) : b.CreateOr(nz, q);
    fc.write(ops[0].elems[0], r, t);
    fc.writePred(ops[0].elems[1], p);
    return true;
  }
  case Opcode::Shl: case Opcode::Shr: {
    Value *x = fc.read(ops[1], t);
    Value *n = fc.read(ops[2], ptx::Type::U32);
    Type *ty = x->getType();
    unsigned w = ty->getIntegerBitWidth();
    Value *big = b.CreateICmpUGE(n, b.getInt32(w));
    Value *r;
    if (isSigned(t) && in.op == Opcode::Shr) {
      // Amount clamped to w-1: sign fill.
      r = b.CreateAShr(x, b.CreateZExtOrTrunc(b.CreateSelect(big, b.getInt32(w - 1), n), ty));
    } else {
      // Amounts >= w give 0 (the select); below w, n & (w-1) is n. The mask
      // keeps the shift defined in IR and costs nothing on AMDGPU, whose
      // shifts read only the low log2(w) bits of the amount.
      Value *nm = b.CreateZExtOrTrunc(b.CreateAnd(n, b.getInt32(w - 1)), ty);
      r = b.CreateSelect(big, ConstantInt::get(ty, 0), in.op == Opcode::Shl ? b.CreateShl(x, nm) : b.CreateLShr(x, nm));
    }
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Shf: {
    // shf.l: d = high word of ({b,a} << n); shf.r: d = low word of ({b,a} >> n).
    if (ptx::typeBits(t) != 32 || ptx::isFloat(t)) return fc.unsupported(in, "expected `shf.{l,r}.{clamp,wrap}.b32`");
    Value *a = fc.read(ops[1], t), *hi = fc.read(ops[2], t);
    Value *n = fc.read(ops[3], ptx::Type::U32);
    Type *ty = a->getType();
    unsigned w = ty->getIntegerBitWidth();
    bool left = in.has(Mod::L);
    Value *amt = b.CreateZExtOrTrunc(n, ty);
    Value *r = b.CreateIntrinsic(left ? Intrinsic::fshl : Intrinsic::fshr, {ty}, {hi, a, amt});
    if (!in.has(Mod::Wrap)) { // .clamp: amounts >= w give the whole other word
      Value *big = b.CreateICmpUGE(n, b.getInt32(w));
      r = b.CreateSelect(big, left ? a : hi, r);
    }
    fc.write(ops[0], r, t);
    return true;
  }
  case Opcode::Prmt: {
    Value *a = fc.read(ops[1], ptx::Type::B32), *bb = fc.read(ops[2], ptx::Type::B32);
    Value *c = fc.read(ops[3], ptx::Type::B32);
    Type *i64 = b.getInt64Ty();
    Value *ab = b.CreateOr(b.CreateShl(b.CreateZExt(bb, i64), 32), b.CreateZExt(a, i64));
    Value *r = b.getInt32(0);
    for (unsigned i = 0; i < 4; ++i) {
      Value *sign;
      Value *idx = prmtByteIndex(b, in, c, i, &sign);
      Value *byte = b.CreateAnd(b.CreateTrunc(b.CreateLShr(ab, b.CreateZExt(b.CreateShl(idx, 3), i64)), b.getInt32Ty()), 0xff);
      if (sign) {
        Value *rep = b.CreateSelect(b.CreateICmpNE(b.CreateAnd(byte, 0x80), b.getInt32(0)), b.getInt32(0xff), b.getInt32(0));
        byte = b.CreateSelect(sign, rep, byte);
      }
      r = b.CreateOr(r, b.CreateShl(byte, 8 * i));
    }
    fc.write(ops[0], r, ptx::Type::B32);
    return true;
  }
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
