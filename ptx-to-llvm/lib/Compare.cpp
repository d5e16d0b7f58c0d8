//===- Compare.cpp - setp, set, selp, slct --------------------------------===//
//
// Comparisons on integer (signed/unsigned per type; lo/ls/hi/hs unsigned) and
// float types (ordered eq..ge, unordered equ..geu, num, nan; .ftz flushes
// both operands first), optionally combined with a predicate by .and/.or/.xor
// (`setp.lt.and.s32 p|q, a, b, c`: p = cmp OP c, q = !cmp OP c). set writes
// 0xffffffff / 1.0f (or 0); selp selects by a predicate; slct by the sign of
// its third operand.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {

static std::optional<Mod> cmpOp(const ptx::Instruction &in) {
  for (const auto &m : in.mods) {
    if (m.isType()) continue;
    switch (m.mod) {
    case Mod::Eq: case Mod::Ne: case Mod::Lt: case Mod::Le: case Mod::Gt: case Mod::Ge:
    case Mod::Lo: case Mod::Ls: case Mod::Hi: case Mod::Hs: case Mod::Equ: case Mod::Neu:
    case Mod::Ltu: case Mod::Leu: case Mod::Gtu: case Mod::Geu: case Mod::Num: case Mod::Nan:
      return m.mod;
    default: break;
    }
  }
  return std::nullopt;
}

static std::optional<Mod> boolOp(const ptx::Instruction &in) {
  for (const auto &m : in.mods)
    if (!m.isType() && (m.mod == Mod::And || m.mod == Mod::Or || m.mod == Mod::XorOp)) return m.mod;
  return std::nullopt;
}

static Value *compare(FnCtx &fc, const ptx::Instruction &in, Mod op, ptx::Type t, Value *x, Value *y) {
  auto &b = fc.b;
  if (isFloat(t)) {
    if (in.has(Mod::Ftz)) { x = fc.flushDenorm(x); y = fc.flushDenorm(y); }
    CmpInst::Predicate p;
    switch (op) {
    case Mod::Eq: p = CmpInst::FCMP_OEQ; break;
    case Mod::Ne: p = CmpInst::FCMP_ONE; break;
    case Mod::Lt: p = CmpInst::FCMP_OLT; break;
    case Mod::Le: p = CmpInst::FCMP_OLE; break;
    case Mod::Gt: p = CmpInst::FCMP_OGT; break;
    case Mod::Ge: p = CmpInst::FCMP_OGE; break;
    case Mod::Equ: p = CmpInst::FCMP_UEQ; break;
    case Mod::Neu: p = CmpInst::FCMP_UNE; break;
    case Mod::Ltu: p = CmpInst::FCMP_ULT; break;
    case Mod::Leu: p = CmpInst::FCMP_ULE; break;
    case Mod::Gtu: p = CmpInst::FCMP_UGT; break;
    case Mod::Geu: p = CmpInst::FCMP_UGE; break;
    case Mod::Num: p = CmpInst::FCMP_ORD; break;
    case Mod::Nan: p = CmpInst::FCMP_UNO; break;
    default: return nullptr;
    }
    return b.CreateFCmp(p, x, y);
  }
  bool s = isSigned(t);
  CmpInst::Predicate p;
  switch (op) {
  case Mod::Eq: p = CmpInst::ICMP_EQ; break;
  case Mod::Ne: p = CmpInst::ICMP_NE; break;
  case Mod::Lt: p = s ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT; break;
  case Mod::Le: p = s ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE; break;
  case Mod::Gt: p = s ? CmpInst::ICMP_SGT : CmpInst::ICMP_UGT; break;
  case Mod::Ge: p = s ? CmpInst::ICMP_SGE : CmpInst::ICMP_UGE; break;
  case Mod::Lo: p = CmpInst::ICMP_ULT; break;
  case Mod::Ls: p = CmpInst::ICMP_ULE; break;
  case Mod::Hi: p = CmpInst::ICMP_UGT; break;
  case Mod::Hs: p = CmpInst::ICMP_UGE; break;
  default: return nullptr;
  }
  return b.CreateICmp(p, x, y);
}

static Value *combine(IRBuilder<> &b, std::optional<Mod> bop, Value *x, Value *c) {
  if (!bop) return x;
  if (*bop == Mod::And) return b.CreateAnd(x, c);
  if (*bop == Mod::Or) return b.CreateOr(x, c);
  return b.CreateXor(x, c);
}

bool translateCompare(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  switch (in.op) {
  case Opcode::Setp: case Opcode::Set: {
    bool isSet = in.op == Opcode::Set;
    ptx::Type t = isSet ? in.type(1) : in.type(0);
    bool packed = t == ptx::Type::F16x2 || t == ptx::Type::BF16x2;
    auto op = cmpOp(in);
    if (!op) return fc.unsupported(in, "missing comparison operator");
    auto bop = boolOp(in);
    // Destinations: `p|q` (a 2-element Vec or two leading operands) or `p`.
    std::vector<const ptx::Operand *> dsts;
    size_t nsrc = bop ? 3 : 2;
    size_t first = 0;
    if (ops.empty()) return fc.unsupported(in, "no operands");
    if (isPairOp(ops[0])) {
      for (const auto &e : ops[0].elems) dsts.push_back(&e);
      first = 1;
    } else {
      if (ops.size() < nsrc + 1) return fc.unsupported(in, "too few operands");
      for (size_t i = 0; i + nsrc < ops.size(); ++i) dsts.push_back(&ops[i]);
      first = dsts.size();
    }
    if (ops.size() != first + nsrc || dsts.empty() || dsts.size() > 2) return fc.unsupported(in, "operands");
    Value *x = fc.read(ops[first], t), *y = fc.read(ops[first + 1], t);
    Value *cmp = compare(fc, in, *op, t, x, y);
    if (!cmp) return fc.unsupported(in, "comparison not valid for this type");
    Value *c = bop ? fc.readPred(ops[first + 2]) : nullptr;
    if (packed) {
      // .f16x2/.bf16x2: p compares the low halves, q the high halves (H200);
      // set writes per half 0xffff (integer dtype) or 1.0 (f16x2 dtype).
      Value *lo = combine(b, bop, b.CreateExtractElement(cmp, (uint64_t)0), c);
      Value *hi = combine(b, bop, b.CreateExtractElement(cmp, (uint64_t)1), c);
      if (!isSet) {
        fc.writePred(*dsts[0], lo);
        if (dsts.size() > 1) fc.writePred(*dsts[1], hi);
        return true;
      }
      ptx::Type dt = in.type(0);
      Value *one = dt == ptx::Type::F16x2 ? b.getInt16(0x3c00) : dt == ptx::Type::BF16x2 ? b.getInt16(0x3f80) : b.getInt16(0xffff);
      Value *r = b.CreateOr(b.CreateZExt(b.CreateSelect(lo, one, b.getInt16(0)), b.getInt32Ty()),
                            b.CreateShl(b.CreateZExt(b.CreateSelect(hi, one, b.getInt16(0)), b.getInt32Ty()), 16));
      fc.write(*dsts[0], r, ptx::Type::B32);
      return true;
    }
    Value *p = combine(b, bop, cmp, c);
    Value *q = dsts.size() > 1 ? combine(b, bop, b.CreateNot(cmp), c) : nullptr;
    if (!isSet) {
      fc.writePred(*dsts[0], p);
      if (q) fc.writePred(*dsts[1], q);
      return true;
    }
    ptx::Type dt = in.type(0);
    Value *r;
    if (dt == ptx::Type::F32) r = b.CreateSelect(p, ConstantFP::get(b.getFloatTy(), 1.0), ConstantFP::get(b.getFloatTy(), 0.0));
    else r = b.CreateSelect(p, b.getInt32(0xffffffff), b.getInt32(0));
    fc.write(*dsts[0], r, dt);
    return true;
  }
  case Opcode::Selp: {
    ptx::Type t = in.type(0);
    Value *x = fc.read(ops[1], t), *y = fc.read(ops[2], t), *c = fc.readPred(ops[3]);
    fc.write(ops[0], b.CreateSelect(c, x, y), t);
    return true;
  }
  case Opcode::Slct: {
    ptx::Type dt = in.type(0), ct = in.type(1);
    Value *x = fc.read(ops[1], dt), *y = fc.read(ops[2], dt), *c = fc.read(ops[3], ct);
    Value *ge;
    if (ct == ptx::Type::F32) {
      if (in.has(Mod::Ftz)) c = fc.flushDenorm(c);
      ge = b.CreateFCmpOGE(c, ConstantFP::get(c->getType(), 0.0));
    } else {
      ge = b.CreateICmpSGE(c, ConstantInt::get(c->getType(), 0));
    }
    fc.write(ops[0], b.CreateSelect(ge, x, y), dt);
    return true;
  }
  default:
    return fc.unsupported(in);
  }
}

} // namespace ptx2llvm
