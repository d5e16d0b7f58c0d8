//===- VideoMad.cpp - PTX vmad (video multiply-add) -----------------------===//
//
//   vmad.dtype.atype.btype{.sat}{.scale}     d, {-}a{.asel}, {-}b{.bsel}, {-}c;
//   vmad.dtype.atype.btype.po{.sat}{.scale}  d, a{.asel}, b{.bsel}, c;
//   .scale = .shr7 | .shr15
// The PTX ISA's pseudo-code: a and b parts extended, multiplied; -a XOR -b negates the product
// (~tmp + 1), else -c negates c (~c + 1), .po adds 1; c extended; the sum shifted right by the
// scale and, with .sat, clamped to s32 if "signedFinal" (either operand type signed, or a
// negation), else to u32. What the H200 computes instead (fitted on
// tests/golden/probes/vmad_probe: 303 forms x 32 operand triples, all 9696 equal; checked on
// vmad_dense_probe: every type triple x every pair of part selectors, and the modifiers with
// random selectors):
//  - a byte / half-word part is extended by its operand type, but a whole-word a or b is always
//    sign-extended (also for .u32), and c is always sign-extended;
//  - so the exact sum fits in i64 (|a*b| <= 2^62) and the scale is an arithmetic shift of it;
//  - .sat with signedFinal clamps to [S32_MIN, S32_MAX]; otherwise to [0, U32_MAX], where the
//    value is compared as signed without a scale but as unsigned 64-bit with .shr7/.shr15
//    (a negative scaled sum saturates to U32_MAX);
//  - the destination type plays no part.
//
//===----------------------------------------------------------------------===//
#include "Video.h"

using namespace llvm;
using ptx::Mod;

namespace ptx2llvm::video {

bool vmad(FnCtx &fc, const ptx::Instruction &in) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  if (ops.size() != 4) return fc.unsupported(in, "vmad takes d, a, b, c");
  if (in.types.size() != 3) return fc.unsupported(in, "operand types (vmad.dtype.atype.btype)");
  if (ops[0].vsel || ops[3].vsel) return fc.unsupported(in, "selector on d or c");
  bool asgn = signedType(in.types[1]), bsgn = signedType(in.types[2]);
  bool po = in.has(Mod::Po), sat = in.has(Mod::Sat);
  unsigned shift = in.has(Mod::Shr7) ? 7 : in.has(Mod::Shr15) ? 15 : 0;
  bool na = ops[1].minus, nb = ops[2].minus, nc = ops[3].minus;
  if (po && (na || nb || nc)) return fc.unsupported(in, "'.po' with negated operands");
  bool okA, okB;
  Value *ta = operandPart(fc, ops[1], asgn, true, okA), *tb = operandPart(fc, ops[2], bsgn, true, okB);
  if (!okA || !okB) return fc.unsupported(in, "selector (expected .b0-.b3, .h0 or .h1)");
  Type *i64 = b.getInt64Ty();
  Value *c = b.CreateSExt(fc.read(ops[3], ptx::Type::B32), i64);
  Value *prod = b.CreateMul(ta, tb);
  bool negProd = !po && (na != nb), negC = !po && !negProd && nc;
  if (negProd) prod = b.CreateNeg(prod);
  if (negC) c = b.CreateNeg(c);
  Value *t = b.CreateAdd(prod, c);
  if (po) t = b.CreateAdd(t, b.getInt64(1));
  if (shift) t = b.CreateAShr(t, shift);
  if (sat) {
    bool signedFinal = asgn || bsgn || na != nb || nc;
    if (signedFinal) {
      t = clampTo(b, t, 32, true);
    } else if (shift) { // unsigned 64-bit compare: negative values become U32_MAX
      Value *mx = b.getInt64(0xffffffffll);
      t = b.CreateSelect(b.CreateICmpUGT(t, mx), mx, t);
    } else {
      t = clampTo(b, t, 32, false);
    }
  }
  fc.write(ops[0], b.CreateTrunc(t, b.getInt32Ty()), ptx::Type::B32);
  return true;
}

} // namespace ptx2llvm::video
