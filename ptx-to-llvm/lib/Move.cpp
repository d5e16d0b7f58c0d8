//===- Move.cpp - mov, including vector pack/unpack and symbol addresses ---===//
//
// mov.type d, a for registers, immediates, special registers and symbols (a
// variable's address in its own state space as an integer: 64-bit for
// global/const/generic, the 32-bit offset for shared/local; a function's
// address). `mov.b64 d, {lo, hi}` packs element 0 into the low bits and
// `mov.b64 {lo, hi}, a` unpacks (`_` elements are skipped).
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;

namespace ptx2llvm {

static ptx::Type bitsType(unsigned bits) {
  switch (bits) {
  case 8: return ptx::Type::B8;
  case 16: return ptx::Type::B16;
  case 32: return ptx::Type::B32;
  case 64: return ptx::Type::B64;
  case 128: return ptx::Type::B128;
  default: return ptx::Type::None;
  }
}

bool translateMove(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  if (ops.size() != 2) return fc.unsupported(in, "expected 2 operands");
  unsigned bits = ptx::typeBits(t);
  if (ops[1].kind == ptx::Operand::Kind::Vec) { // pack
    unsigned n = ops[1].elems.size();
    if (!n || bits % n) return fc.unsupported(in, "vector size");
    ptx::Type et = bitsType(bits / n);
    if (et == ptx::Type::None) return fc.unsupported(in, "element size");
    // A vector of the elements bitcast to the whole (element 0 in the low
    // bits): the backend sees a build_vector, so a splat {a, a} feeding packed
    // arithmetic folds into op_sel instead of shift-and-or.
    Type *vty = FixedVectorType::get(fc.intTy(bits / n), n);
    Value *v = PoisonValue::get(vty);
    for (unsigned i = 0; i < n; ++i)
      v = b.CreateInsertElement(v, fc.coerce(fc.read(ops[1].elems[i], et), fc.intTy(bits / n)), i);
    fc.write(ops[0], b.CreateBitCast(v, fc.intTy(bits)), bitsType(bits));
    return true;
  }
  if (ops[0].kind == ptx::Operand::Kind::Vec) { // unpack
    unsigned n = ops[0].elems.size();
    if (!n || bits % n) return fc.unsupported(in, "vector size");
    ptx::Type et = bitsType(bits / n);
    if (et == ptx::Type::None) return fc.unsupported(in, "element size");
    Value *x = fc.coerce(fc.read(ops[1], t), fc.intTy(bits));
    for (unsigned i = 0; i < n; ++i) {
      if (ops[0].elems[i].kind == ptx::Operand::Kind::Sink) continue;
      Value *e = b.CreateTrunc(b.CreateLShr(x, i * (bits / n)), fc.intTy(bits / n));
      fc.write(ops[0].elems[i], e, et);
    }
    return true;
  }
  fc.write(ops[0], fc.read(ops[1], t), t);
  return true;
}

} // namespace ptx2llvm
