//===- Common.cpp - operand access, type coercion, FP helpers -------------===//
//
// The building blocks every family translator uses: PTX register storage
// (one alloca per register, typed by its declaration), reading an operand as
// a given PTX type with PTX's operand-size rules (a wider register is
// truncated, a narrower one extended by the instruction type's signedness),
// writing results back, resolving [address] operands to typed pointers in the
// right AMDGPU address space, devlib calls, and the floating-point helpers
// that make non-approx FP bit-exact: explicit .ftz flushing (AMD keeps f32
// denormals by default), .sat clamping, NVIDIA's canonical NaN, and exact
// directed rounding: modeRounded (a constrained intrinsic that amdgpu-lower
// lowers to a MODE-register island) for the single-rounding f32/f64 add, sub,
// mul, fma and conversions, and roundDirected (TwoSum error sign + one step
// to the neighbouring float) for everything else (div, sqrt, f16 results,
// 64-bit integer sources), whose hardware sequences round more than once.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ptx2llvm {

void ModuleCtx::error(ptx::SourceLoc loc, const std::string &msg, const std::string &fn) {
  std::string m = fn.empty() ? msg : msg + " (in function '" + fn + "')";
  support::Diagnostic d = support::at(file, loc.line, loc.col, std::move(m));
  d.kind = support::ErrorKind::InvalidInput;
  errors.push_back({std::move(d), {}, fn});
}

void ModuleCtx::unsupported(ptx::SourceLoc loc, const std::string &construct, const std::string &msg,
                            const std::string &fn) {
  error(loc, msg, fn);
  errors.back().diag.kind = support::ErrorKind::Unsupported;
  errors.back().construct = construct;
}

Function *ModuleCtx::devlib(StringRef name, Type *ret, ArrayRef<Type *> params, bool convergent,
                            bool noreturn) {
  if (Function *f = m.getFunction(name)) return f;
  auto *fty = FunctionType::get(ret, params, false);
  Function *f = Function::Create(fty, GlobalValue::ExternalLinkage, name, &m);
  f->addFnAttr(Attribute::NoUnwind);
  if (convergent) f->addFnAttr(Attribute::Convergent);
  if (noreturn) f->addFnAttr(Attribute::NoReturn);
  return f;
}

std::string instrSpelling(const ptx::Instruction &in) {
  std::string s(ptx::opcodeName(in.op));
  for (const auto &m : in.mods) {
    s += '.';
    s += m.isType() ? ptx::typeName(m.type) : ptx::modName(m.mod);
  }
  return s;
}

bool FnCtx::unsupported(const ptx::Instruction &in, const std::string &why) {
  std::string msg = "unsupported instruction '" + instrSpelling(in) + "'";
  if (!why.empty()) msg += ": " + why;
  mc.unsupported(in.loc, instrSpelling(in), msg, pf.name);
  hadError = true;
  return false;
}

bool FnCtx::unsupportedAt(ptx::SourceLoc loc, const std::string &construct, const std::string &msg) {
  mc.unsupported(loc, construct, msg, pf.name);
  hadError = true;
  return false;
}

bool FnCtx::error(ptx::SourceLoc loc, const std::string &msg) {
  mc.error(loc, msg, pf.name);
  hadError = true;
  return false;
}

bool isHalfType(ptx::Type t) {
  return t == ptx::Type::F16 || t == ptx::Type::F16x2 || t == ptx::Type::BF16 ||
         t == ptx::Type::BF16x2;
}

Type *FnCtx::llvmType(ptx::Type t) {
  auto &c = mc.ctx;
  switch (t) {
  case ptx::Type::Pred: return Type::getInt1Ty(c);
  case ptx::Type::F16: return Type::getHalfTy(c);
  case ptx::Type::BF16: return Type::getBFloatTy(c);
  case ptx::Type::F32: return Type::getFloatTy(c);
  case ptx::Type::F64: return Type::getDoubleTy(c);
  case ptx::Type::F16x2: return FixedVectorType::get(Type::getHalfTy(c), 2);
  case ptx::Type::BF16x2: return FixedVectorType::get(Type::getBFloatTy(c), 2);
  case ptx::Type::None: return Type::getInt32Ty(c);
  default: return IntegerType::get(c, ptx::typeBits(t));
  }
}

Type *FnCtx::storageType(const ptx::Register &r) {
  switch (r.type) {
  case ptx::Type::Pred: return i1();
  case ptx::Type::F32: return b.getFloatTy();
  case ptx::Type::F64: return b.getDoubleTy();
  default: return intTy(std::max(8u, ptx::typeBits(r.type)));
  }
}

static unsigned bitsOf(Type *t) { return t->getPrimitiveSizeInBits().getFixedValue(); }

Value *FnCtx::coerce(Value *v, Type *to, bool sext) {
  Type *from = v->getType();
  if (from == to) return v;
  unsigned fb = bitsOf(from), tb = bitsOf(to);
  if (fb == tb) return b.CreateBitCast(v, to);
  if (!from->isIntegerTy()) v = b.CreateBitCast(v, intTy(fb));
  Value *iv = tb < fb ? b.CreateTrunc(v, intTy(tb))
                      : (sext && fb > 1 ? b.CreateSExt(v, intTy(tb)) : b.CreateZExt(v, intTy(tb)));
  return to->isIntegerTy() ? iv : b.CreateBitCast(iv, to);
}

Value *FnCtx::regSlot(const ptx::Operand &op) {
  if (op.reg >= regs.size() || !regs[op.reg]) return nullptr;
  return regs[op.reg];
}

static Constant *fpConstFromBits(Type *ty, int64_t bits, unsigned fbits) {
  // FImm: 0fXXXXXXXX (32) or 0dXXXXXXXXXXXXXXXX (64); convert if the type differs.
  APFloat v = fbits == 64 ? APFloat(APFloat::IEEEdouble(), APInt(64, (uint64_t)bits))
                          : APFloat(APFloat::IEEEsingle(), APInt(32, (uint64_t)bits));
  bool lost = false;
  if (ty->isFloatingPointTy()) {
    v.convert(ty->getFltSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return ConstantFP::get(ty->getContext(), v);
  }
  APInt i = v.bitcastToAPInt();
  return ConstantInt::get(ty, i.zextOrTrunc(bitsOf(ty)));
}

Value *FnCtx::read(const ptx::Operand &op, ptx::Type t) {
  Type *ty = llvmType(t);
  switch (op.kind) {
  case ptx::Operand::Kind::Reg: {
    Value *slot = regSlot(op);
    if (!slot) { unsupportedAt(op.loc, "vector register operand", "unsupported operand '" + op.name + "' (vector register)"); return UndefValue::get(ty); }
    auto *ai = cast<AllocaInst>(slot);
    Value *v = b.CreateLoad(ai->getAllocatedType(), ai, ai->getName());
    if (t == ptx::Type::Pred) {
      if (!v->getType()->isIntegerTy(1)) v = b.CreateICmpNE(v, ConstantInt::get(v->getType(), 0));
      if (op.negated) v = b.CreateNot(v);
      return v;
    }
    // A narrower register used with a wider instruction type is extended by
    // the instruction type's signedness.
    return coerce(v, ty, ptx::isSigned(t));
  }
  case ptx::Operand::Kind::Imm:
    if (ty->isFloatingPointTy()) {
      // Integer literal where a float is expected: the literal's value.
      return ConstantFP::get(ty, (double)op.imm);
    }
    if (ty->isVectorTy()) return coerce(b.getInt32((uint32_t)op.imm), ty);
    return ConstantInt::get(ty, (uint64_t)op.imm, /*signed*/ true);
  case ptx::Operand::Kind::FImm:
    if (ty->isVectorTy()) return coerce(fpConstFromBits(intTy(bitsOf(ty)), op.imm, op.fbits), ty);
    return fpConstFromBits(ty, op.imm, op.fbits);
  case ptx::Operand::Kind::SReg: {
    Value *v = readSpecialReg(*this, op);
    if (!v) return UndefValue::get(ty);
    return coerce(v, ty, false);
  }
  case ptx::Operand::Kind::Sym: {
    Value *v = symbolValue(op.name, op.offset, ty->isIntegerTy(32) ? 32 : 64, op.loc);
    if (!v) return UndefValue::get(ty);
    return coerce(v, ty);
  }
  default:
    unsupportedAt(op.loc, "operand kind", "unsupported operand kind in this position");
    return UndefValue::get(ty);
  }
}

Value *FnCtx::readPred(const ptx::Operand &op) { return read(op, ptx::Type::Pred); }

void FnCtx::write(const ptx::Operand &op, Value *v, ptx::Type t) {
  if (op.kind == ptx::Operand::Kind::Sink) return;
  if (op.kind != ptx::Operand::Kind::Reg) { error(op.loc, "destination must be a register"); return; }
  Value *slot = regSlot(op);
  if (!slot) { unsupportedAt(op.loc, "vector register destination", "unsupported destination '" + op.name + "' (vector register)"); return; }
  auto *ai = cast<AllocaInst>(slot);
  Type *st = ai->getAllocatedType();
  if (st->isIntegerTy(1) && !v->getType()->isIntegerTy(1))
    v = b.CreateICmpNE(coerce(v, intTy(bitsOf(v->getType()))), ConstantInt::get(intTy(bitsOf(v->getType())), 0));
  else
    v = coerce(v, st, ptx::isSigned(t));
  b.CreateStore(v, ai);
}

void FnCtx::writePred(const ptx::Operand &op, Value *v) { write(op, v, ptx::Type::Pred); }

unsigned spaceAS(ptx::Space s) {
  switch (s) {
  case ptx::Space::Global: return GlobalAS;
  case ptx::Space::Shared: case ptx::Space::SharedCluster: return SharedAS;
  case ptx::Space::Const: return ConstAS;
  case ptx::Space::Local: return PrivateAS;
  case ptx::Space::Param: return PrivateAS;
  default: return FlatAS;
  }
}

static Value *castPtr(IRBuilder<> &b, Value *p, unsigned as) {
  unsigned from = p->getType()->getPointerAddressSpace();
  if (from == as) return p;
  if (from != FlatAS && as != FlatAS) p = b.CreateAddrSpaceCast(p, PointerType::get(b.getContext(), FlatAS));
  return b.CreateAddrSpaceCast(p, PointerType::get(b.getContext(), as));
}

Value *FnCtx::lookupVar(const std::string &name, const ptx::Variable **decl) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto f = it->vars.find(name);
    if (f != it->vars.end()) {
      if (decl) { auto d = it->decls.find(name); *decl = d == it->decls.end() ? nullptr : d->second; }
      return f->second;
    }
  }
  auto g = mc.globals.find(name);
  if (g != mc.globals.end()) {
    if (decl) *decl = nullptr;
    return g->second;
  }
  return nullptr;
}

Value *FnCtx::address(const ptx::Operand &op, ptx::Space space, ptx::SourceLoc loc) {
  unsigned as = spaceAS(space);
  Type *i8 = b.getInt8Ty();
  auto ptrTy = PointerType::get(mc.ctx, as);
  Value *p = nullptr;
  int64_t off = op.offset;
  const ptx::Operand *base = nullptr;
  if (op.kind == ptx::Operand::Kind::Addr) {
    if (!op.elems.empty()) base = &op.elems[0];
  } else if (op.kind == ptx::Operand::Kind::Reg || op.kind == ptx::Operand::Kind::Sym) {
    base = &op;
    off = op.kind == ptx::Operand::Kind::Sym ? op.offset : 0;
  } else if (op.kind == ptx::Operand::Kind::Imm) {
    off = op.imm;
  }
  if (!base) {
    p = b.CreateIntToPtr(b.getInt64(off), ptrTy);
    if (as == SharedAS || as == PrivateAS) p = b.CreateIntToPtr(b.getInt32((uint32_t)off), ptrTy);
    return p;
  }
  if (base->kind == ptx::Operand::Kind::Sym) {
    Value *v = lookupVar(base->name);
    if (!v) {
      if (Function *fn = mc.m.getFunction(base->name)) v = fn;
      else { error(base->loc, "unknown symbol '" + base->name + "'"); return UndefValue::get(ptrTy); }
    }
    if (space == ptx::Space::Param) {
      // .param symbols live wherever the function keeps them (allocas or kernarg).
      as = v->getType()->getPointerAddressSpace();
    }
    p = castPtr(b, v, as);
  } else if (base->kind == ptx::Operand::Kind::Reg) {
    if (space == ptx::Space::Param) {
      // A kernel's parameter space is its kernarg segment (addrspace(4)):
      // `mov.b64 %rd, kernel_param; ld.param [%rd+8]` reads a byref argument.
      if (!pf.isEntry) {
        unsupportedAt(loc, "register-based .param address", "register-based .param addressing in a .func is not supported");
        return UndefValue::get(ptrTy);
      }
      as = ConstAS;
      ptrTy = PointerType::get(mc.ctx, as);
    }
    bool narrow = as == SharedAS || as == PrivateAS;
    Value *slot = regSlot(*base);
    if (!slot) { error(base->loc, "vector register as address"); return UndefValue::get(ptrTy); }
    Value *iv = b.CreateLoad(cast<AllocaInst>(slot)->getAllocatedType(), slot, slot->getName());
    iv = coerce(iv, narrow ? b.getInt32Ty() : b.getInt64Ty());
    p = b.CreateIntToPtr(iv, ptrTy);
  } else {
    unsupportedAt(base->loc, "address base", "unsupported address base");
    return UndefValue::get(ptrTy);
  }
  if (off) p = b.CreateGEP(i8, p, b.getInt64(off));
  return p;
}

Value *FnCtx::symbolValue(const std::string &name, int64_t off, unsigned bits, ptx::SourceLoc loc) {
  const ptx::Variable *decl = nullptr;
  Value *v = lookupVar(name, &decl);
  if (v && pf.isEntry && decl && decl->space == ptx::Space::Param && isa<AllocaInst>(v)) {
    bool isParam = false;
    for (const auto &p : pf.params) isParam |= p.name == name;
    if (isParam) { unsupportedAt(loc, "address of a scalar kernel parameter", "address of scalar kernel parameter '" + name + "' is not supported"); return nullptr; }
  }
  if (!v) v = mc.m.getFunction(name);
  if (!v) {
    auto lit = labels.find(name);
    if (lit != labels.end()) { error(loc, "label '" + name + "' used as a value"); return nullptr; }
    error(loc, "unknown symbol '" + name + "'");
    return nullptr;
  }
  if (off) v = b.CreateGEP(b.getInt8Ty(), v, b.getInt64(off));
  unsigned as = v->getType()->getPointerAddressSpace();
  unsigned pbits = (as == SharedAS || as == PrivateAS) ? 32 : 64;
  Value *iv = b.CreatePtrToInt(v, intTy(pbits));
  return coerce(iv, intTy(bits));
}

Value *FnCtx::call(StringRef name, Type *ret, ArrayRef<Value *> args, bool convergent) {
  SmallVector<Type *, 6> tys;
  for (Value *a : args) tys.push_back(a->getType());
  Function *fn = mc.devlib(name, ret, tys, convergent);
  CallInst *ci = b.CreateCall(fn, args);
  if (convergent) ci->addFnAttr(Attribute::Convergent);
  return ci;
}

//===-- FP helpers --------------------------------------------------------===//

Value *FnCtx::flushDenorm(Value *v) {
  Type *t = v->getType();
  if (t->isVectorTy()) {
    Value *r = PoisonValue::get(t);
    for (unsigned i = 0; i < cast<FixedVectorType>(t)->getNumElements(); ++i)
      r = b.CreateInsertElement(r, flushDenorm(b.CreateExtractElement(v, i)), i);
    return r;
  }
  const fltSemantics &sem = t->getFltSemantics();
  Value *ax = b.CreateUnaryIntrinsic(Intrinsic::fabs, v);
  Value *tiny = b.CreateFCmpOLT(ax, ConstantFP::get(t, APFloat::getSmallestNormalized(sem)));
  Value *zero = b.CreateBinaryIntrinsic(Intrinsic::copysign, ConstantFP::get(t, 0.0), v);
  return b.CreateSelect(tiny, zero, v);
}

Value *FnCtx::saturate01(Value *v) {
  Type *t = v->getType();
  if (t->isVectorTy()) {
    Value *r = PoisonValue::get(t);
    for (unsigned i = 0; i < cast<FixedVectorType>(t)->getNumElements(); ++i)
      r = b.CreateInsertElement(r, saturate01(b.CreateExtractElement(v, i)), i);
    return r;
  }
  Value *zero = ConstantFP::get(t, 0.0), *one = ConstantFP::get(t, 1.0);
  Value *lo = b.CreateSelect(b.CreateFCmpOGT(v, zero), v, zero); // NaN, -0 -> +0
  return b.CreateSelect(b.CreateFCmpOGT(lo, one), one, lo);
}

Value *FnCtx::canonicalNaN(Value *v) {
  Type *t = v->getType();
  if (t->isVectorTy()) {
    Value *r = PoisonValue::get(t);
    for (unsigned i = 0; i < cast<FixedVectorType>(t)->getNumElements(); ++i)
      r = b.CreateInsertElement(r, canonicalNaN(b.CreateExtractElement(v, i)), i);
    return r;
  }
  // NVIDIA GPUs return one canonical NaN from f32/f16/bf16 arithmetic: all
  // exponent and mantissa bits set, sign clear (0x7fffffff, 0x7fff), as the
  // H200 tables in tests/golden show. f64 arithmetic propagates (quieted)
  // input payloads like AMD hardware does, so f64 is left alone.
  if (t->isDoubleTy()) return v;
  unsigned bits = bitsOf(t);
  APInt nanBits = APInt::getAllOnes(bits).lshr(1);
  Constant *nan = ConstantFP::get(t->getContext(), APFloat(t->getFltSemantics(), nanBits));
  Value *isNaN = b.CreateFCmpUNO(v, v);
  Value *r = b.CreateSelect(isNaN, nan, v);
  // amdgpu-lower drops the select where the NaN bits can never be observed
  // (RelaxNaNCanonicalization.cpp; the tag is its contract, docs/pipeline.md).
  if (auto *sel = dyn_cast<SelectInst>(r))
    sel->setMetadata("ptx2amd.canon", MDNode::get(b.getContext(), {}));
  return r;
}

// InstCombine turns `fcmp uno (sqrt x)` into `fcmp ult x, 0`, and the DAG combiner then folds
// `select (x < 0), NaN, (fsqrt x)` into the bare fsqrt (LLVM treats all NaNs alike), so the
// shipped code returned the hardware's NaN (0xffc00000, quieted payloads) instead of 0x7fffffff
// (found by isa-emu: golden sqrt.rn.f32, 3740 of 8246 rows). A compare of the result's bits
// survives both.
Value *FnCtx::canonicalNaNByBits(Value *v) {
  if (!v->getType()->isFloatTy()) return canonicalNaN(v);
  Value *bits = b.CreateBitCast(v, b.getInt32Ty());
  Value *mag = b.CreateAnd(bits, b.getInt32(0x7fffffff));
  Value *isNaN = b.CreateICmpUGT(mag, b.getInt32(0x7f800000));
  return b.CreateBitCast(b.CreateSelect(isNaN, b.getInt32(0x7fffffff), bits), v->getType());
}

RoundingMode FnCtx::rounding(const ptx::Instruction &in, bool integerRounding) {
  for (const auto &m : in.mods) {
    if (m.isType()) continue;
    switch (m.mod) {
    case ptx::Mod::Rz: case ptx::Mod::Rzi: return RoundingMode::TowardZero;
    case ptx::Mod::Rm: case ptx::Mod::Rmi: return RoundingMode::TowardNegative;
    case ptx::Mod::Rp: case ptx::Mod::Rpi: return RoundingMode::TowardPositive;
    case ptx::Mod::Rna: return RoundingMode::NearestTiesToAway;
    case ptx::Mod::Rn: case ptx::Mod::Rni: return RoundingMode::NearestTiesToEven;
    default: break;
    }
  }
  return RoundingMode::NearestTiesToEven;
}

// Next representable value above (up) or below x; NaN and the infinity in
// that direction stay.
Value *nextAfter(FnCtx &fc, Value *x, bool up) {
  auto &b = fc.b;
  Type *t = x->getType();
  unsigned n = t->getPrimitiveSizeInBits();
  Type *it = fc.intTy(n);
  Value *bits = b.CreateBitCast(x, it);
  Value *isNeg = b.CreateICmpSLT(bits, ConstantInt::get(it, 0));
  Value *isZero = b.CreateFCmpOEQ(x, ConstantFP::get(t, 0.0));
  Value *away = up ? b.CreateNot(isNeg) : isNeg; // away from zero: magnitude + 1
  Value *r = b.CreateSelect(away, b.CreateAdd(bits, ConstantInt::get(it, 1)), b.CreateSub(bits, ConstantInt::get(it, 1)));
  Value *minSub = ConstantInt::get(it, up ? APInt(n, 1) : (APInt::getSignMask(n) | APInt(n, 1)));
  r = b.CreateSelect(isZero, minSub, r);
  Value *res = b.CreateBitCast(r, t);
  Value *inf = ConstantFP::getInfinity(t, !up);
  Value *stay = b.CreateOr(b.CreateFCmpUNO(x, x), b.CreateFCmpOEQ(x, inf));
  return b.CreateSelect(stay, x, res);
}

// q is the nearest value of a true value lying on side dir (-1/0/+1) of q.
Value *stepDirected(FnCtx &fc, Value *q, Value *dir, RoundingMode rm) {
  auto &b = fc.b;
  Value *zero = b.getInt32(0);
  Value *above = b.CreateICmpSGT(dir, zero), *below = b.CreateICmpSLT(dir, zero);
  switch (rm) {
  case RoundingMode::TowardPositive: return b.CreateSelect(above, nextAfter(fc, q, true), q);
  case RoundingMode::TowardNegative: return b.CreateSelect(below, nextAfter(fc, q, false), q);
  default: {
    Value *pos = b.CreateFCmpOGT(q, ConstantFP::get(q->getType(), 0.0));
    Value *neg = b.CreateFCmpOLT(q, ConstantFP::get(q->getType(), 0.0));
    Value *r = b.CreateSelect(b.CreateAnd(pos, below), nextAfter(fc, q, false), q);
    return b.CreateSelect(b.CreateAnd(neg, above), nextAfter(fc, q, true), r);
  }
  }
}

static Value *signOf(FnCtx &fc, Value *x) { // -1, 0, +1 (NaN -> 0)
  auto &b = fc.b;
  Value *z = ConstantFP::get(x->getType(), 0.0);
  return b.CreateSub(b.CreateZExt(b.CreateFCmpOGT(x, z), fc.i32()), b.CreateZExt(b.CreateFCmpOLT(x, z), fc.i32()));
}

Value *FnCtx::roundDirected(Value *hi, Value *lo, Type *target, RoundingMode rm, Value *finiteInputs,
                            Value *dirOverride) {
  // s + err == hi + lo exactly (TwoSum); lo == 0 keeps hi (and its zero sign).
  Type *ht = hi->getType();
  Value *infC = ConstantFP::getInfinity(ht);
  Value *loZero = b.CreateFCmpOEQ(lo, ConstantFP::get(ht, 0.0));
  Value *nonFinite = b.CreateOr(b.CreateFCmpUGE(b.CreateUnaryIntrinsic(Intrinsic::fabs, lo), infC),
                                b.CreateFCmpUGE(b.CreateUnaryIntrinsic(Intrinsic::fabs, hi), infC));
  Value *s = b.CreateSelect(loZero, hi, b.CreateFAdd(hi, lo));
  Value *bb = b.CreateFSub(s, hi);
  Value *err = b.CreateFAdd(b.CreateFSub(hi, b.CreateFSub(s, bb)), b.CreateFSub(lo, bb));
  err = b.CreateSelect(b.CreateOr(loZero, nonFinite), ConstantFP::get(ht, 0.0), err);
  // An exact zero sum of non-zero terms is -0 when rounding downwards.
  if (rm == RoundingMode::TowardNegative)
    s = b.CreateSelect(b.CreateAnd(b.CreateFCmpOEQ(s, ConstantFP::get(ht, 0.0)), b.CreateNot(loZero)),
                       ConstantFP::get(ht, -0.0), s);
  Value *dir = signOf(*this, err);
  if (dirOverride) // only for finite results (an infinite s is exact or handled below)
    dir = b.CreateSelect(b.CreateAnd(b.CreateICmpNE(dirOverride, b.getInt32(0)), b.CreateNot(nonFinite)),
                         dirOverride, dir);
  Type *wt = s->getType();
  Value *inf = ConstantFP::getInfinity(wt);
  // s overflowed although the operands were finite: the true value is finite.
  Value *sInf = b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(Intrinsic::fabs, s), inf);
  dir = b.CreateSelect(b.CreateAnd(sInf, finiteInputs), b.CreateNeg(signOf(*this, s)), dir);
  if (target == wt) return stepDirected(*this, s, dir, rm);
  // Narrow: v nearest in the target type; the true value is on the side of s
  // relative to v (no wide value lies between s and the true value), or of
  // err when s is exactly v.
  Value *v = b.CreateFPTrunc(s, target);
  Value *back = b.CreateFPExt(v, wt);
  Value *vInf = b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(Intrinsic::fabs, back), inf);
  Value *diff = b.CreateFSub(s, back);
  Value *d = b.CreateSelect(b.CreateFCmpOEQ(diff, ConstantFP::get(wt, 0.0)), dir, signOf(*this, diff));
  Value *sFinite = b.CreateFCmpOLT(b.CreateUnaryIntrinsic(Intrinsic::fabs, s), inf);
  d = b.CreateSelect(b.CreateAnd(vInf, sFinite), b.CreateNeg(signOf(*this, back)), d);
  return stepDirected(*this, v, d, rm);
}

Value *FnCtx::modeRounded(Intrinsic::ID op, ArrayRef<Value *> args, Type *result, RoundingMode rm) {
  switch (op) {
  case Intrinsic::experimental_constrained_fadd: case Intrinsic::experimental_constrained_fsub:
  case Intrinsic::experimental_constrained_fmul:
    return b.CreateConstrainedFPBinOp(op, args[0], args[1], nullptr, "", nullptr, rm, fp::ebIgnore);
  case Intrinsic::experimental_constrained_fptrunc: case Intrinsic::experimental_constrained_sitofp:
  case Intrinsic::experimental_constrained_uitofp:
    return b.CreateConstrainedFPCast(op, args[0], result, nullptr, "", nullptr, rm, fp::ebIgnore);
  default: {
    Function *f = Intrinsic::getOrInsertDeclaration(&mc.m, op, {result});
    return b.CreateConstrainedFPCall(f, args, "", rm, fp::ebIgnore);
  }
  }
}

Value *FnCtx::fpIntrinsic(Intrinsic::ID id, ArrayRef<Value *> args) {
  return b.CreateIntrinsic(id, {args[0]->getType()}, args);
}

bool hasModNamed(const ptx::Instruction &in, std::string_view name) {
  for (const auto &m : in.mods)
    if (!m.isType() && ptx::modName(m.mod) == name) return true;
  return false;
}

} // namespace ptx2llvm
