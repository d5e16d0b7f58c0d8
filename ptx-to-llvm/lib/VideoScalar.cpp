//===- VideoScalar.cpp - PTX scalar video instructions --------------------===//
//
//   vop.dtype.atype.btype{.sat} d, a{.asel}, b{.bsel};
//   vop.dtype.atype.btype{.sat}.op2 d, a{.asel}, b{.bsel}, c;   op2 = add/min/max
//   vop.dtype.atype.btype{.sat} d.dsel, a{.asel}, b{.bsel}, c;  (merge into c)
// vop = vadd vsub vabsdiff vmin vmax vshl vshr vset. Operands are a byte (.b0-.b3), a half-word
// (.h0/.h1) or the word, extended to 64 bits by their type; the result saturates (with .sat) to
// the destination as the H200 does (which differs from the PTX ISA's pseudo-code in places: see
// scalar() and NOTES-realprog session 5); the secondary op (.add/.min/.max) combines it with c,
// a .dsel merge puts it into a byte / half-word of c.
//
//===----------------------------------------------------------------------===//
#include "Video.h"

using namespace llvm;
using ptx::Mod;

namespace ptx2llvm::video {

bool scalar(FnCtx &fc, const ptx::Instruction &in, VOp vo) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  bool isSet = vo.k == VOp::Set, isShift = vo.k == VOp::Shl || vo.k == VOp::Shr;
  if (in.types.size() != (isSet ? 2u : 3u)) return fc.unsupported(in, "operand types");
  ptx::Type dt = isSet ? ptx::Type::U32 : in.types[0], at = in.types[isSet ? 0 : 1], bt = in.types[isSet ? 1 : 2];
  bool dsgn = signedType(dt), asgn = signedType(at), bsgn = signedType(bt);
  if (isShift && bt != ptx::Type::U32) return fc.unsupported(in, "shift amount type (must be .u32)");
  bool sat = in.has(Mod::Sat);
  int op2 = in.has(Mod::AddOp) ? 1 : in.has(Mod::MinOp) ? 2 : in.has(Mod::MaxOp) ? 3 : 0;
  bool merge = ops.size() == 4 && op2 == 0;
  if (ops.size() == 4 && !merge && ops[0].vsel) return fc.unsupported(in, "'.dsel' with a secondary operation");
  if (merge && !ops[0].vsel) return fc.unsupported(in, "four operands need a secondary operation or '.dsel'");
  if (ops.size() == 3 && op2) return fc.unsupported(in, "a secondary operation needs the c operand");
  if (ops.size() != 3 && ops.size() != 4) return fc.unsupported(in, "operands");
  Type *i64 = b.getInt64Ty();
  auto part = [&](const ptx::Operand &o, bool sgn, bool &ok) { return operandPart(fc, o, sgn, sgn, ok); };
  unsigned dbits = 32, dshift = 0;
  bool dhalf = false, ok1, ok2, ok3 = true;
  Value *x = part(ops[1], asgn, ok1), *y = part(ops[2], bsgn, ok2);
  if (ops[0].vsel) { // .dsel: byte or half-word of d
    ptx::VideoSel s = ptx::VideoSel::decode(ops[0].vsel);
    ok3 = s.count == 1 && (s.half ? s.digit[0] <= 1 : s.digit[0] <= 3);
    dhalf = s.half;
    dbits = s.half ? 16 : 8;
    dshift = s.digit[0] * dbits;
  }
  if (!ok1 || !ok2 || !ok3) return fc.unsupported(in, "selector (expected .b0-.b3, .h0 or .h1)");
  // The primary operation, exact in i64.
  Value *t;
  if (isShift) {
    // .wrap: amount mod 32; .clamp (default): amounts above 32 act as 32.
    Value *n = y;
    if (in.has(Mod::Wrap)) n = b.CreateAnd(n, b.getInt64(31));
    else n = b.CreateSelect(b.CreateICmpUGT(n, b.getInt64(32)), b.getInt64(32), n);
    t = vo.k == VOp::Shl ? b.CreateShl(x, n) : b.CreateAShr(x, n); // x is extended: ashr = lshr for .u32
  } else {
    CmpInst::Predicate pred = CmpInst::ICMP_EQ;
    if (isSet) {
      auto p = cmpPred(in, asgn || bsgn);
      if (!p) return fc.unsupported(in, "comparison");
      pred = *p;
    }
    t = laneOp(b, vo.k, x, y, pred);
  }
  // Saturation, as the H200 computes it (golden tables: family video and
  // tests/golden/probes/video_scalar_probe, 4360 forms; NOTES-realprog session 5):
  //  - shifts: the 34-bit signed intermediate (the PTX ISA's) clamped to the 32-bit range of
  //    the destination type, also when merged into a byte / half-word (.dsel);
  //  - other .dsel merges: the value, taken as unsigned, is limited to the part's maximum
  //    (signed or unsigned by the destination type): negative results give that maximum;
  //  - whole words: a signed destination clamps to [S32_MIN, S32_MAX]; an unsigned one only
  //    clamps negative results to 0 (larger ones wrap).
  if (sat) {
    if (isShift) {
      t = clampTo(b, b.CreateAShr(b.CreateShl(t, 30), 30), 32, dsgn);
    } else if (merge) {
      Value *mx = b.getInt64(dsgn ? (int64_t(1) << (dbits - 1)) - 1 : (int64_t(1) << dbits) - 1);
      t = b.CreateSelect(b.CreateICmpUGT(t, mx), mx, t);
    } else if (dsgn) {
      t = clampTo(b, t, 32, true);
    } else {
      t = b.CreateSelect(b.CreateICmpSLT(t, b.getInt64(0)), b.getInt64(0), t);
    }
  }
  Value *r;
  if (op2) {
    // The secondary operation sees vadd/vsub's result (and a saturated shift's) as its low 32
    // bits sign-extended, the other results as the exact (64-bit) value; c is extended by the
    // destination type, and min/max compare by it (vset: by the type of a).
    Value *tt = t;
    if (vo.k == VOp::Add || vo.k == VOp::Sub || (isShift && sat))
      tt = b.CreateSExt(b.CreateTrunc(t, b.getInt32Ty()), i64);
    if (isSet) dsgn = asgn;
    Value *c = fc.read(ops[3], ptx::Type::B32);
    Value *cx = dsgn ? b.CreateSExt(c, i64) : b.CreateZExt(c, i64);
    if (op2 == 1) r = b.CreateAdd(tt, cx);
    else if (op2 == 2) r = b.CreateSelect(b.CreateICmp(dsgn ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT, tt, cx), tt, cx);
    else r = b.CreateSelect(b.CreateICmp(dsgn ? CmpInst::ICMP_SGT : CmpInst::ICMP_UGT, tt, cx), tt, cx);
    r = b.CreateTrunc(r, b.getInt32Ty());
  } else if (merge) {
    // Merge into c: a byte destination takes the result's low byte at its position; a
    // half-word destination takes the result's bits at the position itself (.h1: bits 16-31
    // of the result, not its low half -- what the H200 does).
    Value *c = fc.read(ops[3], ptx::Type::B32);
    uint32_t m = uint32_t(((uint64_t(1) << dbits) - 1) << dshift);
    Value *p = b.CreateTrunc(t, b.getInt32Ty());
    if (!dhalf) p = b.CreateShl(p, dshift);
    r = b.CreateOr(b.CreateAnd(c, b.getInt32(~m)), b.CreateAnd(p, b.getInt32(m)));
  } else {
    r = b.CreateTrunc(t, b.getInt32Ty());
  }
  fc.write(ops[0], r, ptx::Type::B32);
  return true;
}

} // namespace ptx2llvm::video
