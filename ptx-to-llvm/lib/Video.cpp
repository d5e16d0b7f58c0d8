//===- Video.cpp - PTX video instructions (scalar and SIMD) ---------------===//
//
// The PTX ISA's "Video Instructions", expanded into plain integer IR (AMD has
// no equivalent; v_sad_u8 & co. cover only a few forms):
//  - SIMD: vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4
//      vop.dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c;   (merge)
//      vop.dtype.atype.btype.add   d{.mask}, a{.asel}, b{.bsel}, c;   (accumulate)
//    Lanes of 8 (4-way) or 16 (2-way) bits are picked from the 8 bytes / 4
//    half-words of {b, a} (a = 0-3 / 0-1, b = 4-7 / 2-3) by the selectors,
//    default a.b3210 / b.b7654 (a.h10 / b.h32), extended by the operand's
//    signedness, combined exactly; .sat clamps each lane to the destination
//    lane type, otherwise lanes wrap. Merge: lanes of d not in .mask come from
//    c. Accumulate: d = c + sum of the exact lane results in .mask.
//  - Scalar: vadd vsub vabsdiff vmin vmax vshl vshr vset
//      vop.dtype.atype.btype{.sat} d, a{.asel}, b{.bsel};
//      vop.dtype.atype.btype{.sat}.op2 d, a{.asel}, b{.bsel}, c;   op2 = add/min/max
//      vop.dtype.atype.btype{.sat} d.dsel, a{.asel}, b{.bsel}, c;  (merge into c)
//    Operands are a byte (.b0-.b3), a half-word (.h0/.h1) or the word,
//    extended to 64 bits by their type; the result saturates (with .sat) to
//    the destination as the H200 does (which differs from the PTX ISA's
//    pseudo-code in places: see scalar() and NOTES-realprog session 5); the
//    secondary op (.add/.min/.max) combines it with c, a .dsel merge puts it
//    into a byte / half-word of c.
// vmad (negated operands, .po/.shr7/.shr15) is not translated: an explicit error.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {
namespace {

struct VOp {
  enum K { Add, Sub, Avrg, Absdiff, Min, Max, Set, Shl, Shr } k;
  unsigned lanes; // 1 (scalar), 2 or 4
};

VOp classify(Opcode op) {
  switch (op) {
  case Opcode::Vadd: return {VOp::Add, 1};
  case Opcode::Vsub: return {VOp::Sub, 1};
  case Opcode::Vabsdiff: return {VOp::Absdiff, 1};
  case Opcode::Vmin: return {VOp::Min, 1};
  case Opcode::Vmax: return {VOp::Max, 1};
  case Opcode::Vshl: return {VOp::Shl, 1};
  case Opcode::Vshr: return {VOp::Shr, 1};
  case Opcode::Vset: return {VOp::Set, 1};
  case Opcode::Vadd2: return {VOp::Add, 2};
  case Opcode::Vsub2: return {VOp::Sub, 2};
  case Opcode::Vavrg2: return {VOp::Avrg, 2};
  case Opcode::Vabsdiff2: return {VOp::Absdiff, 2};
  case Opcode::Vmin2: return {VOp::Min, 2};
  case Opcode::Vmax2: return {VOp::Max, 2};
  case Opcode::Vset2: return {VOp::Set, 2};
  case Opcode::Vadd4: return {VOp::Add, 4};
  case Opcode::Vsub4: return {VOp::Sub, 4};
  case Opcode::Vavrg4: return {VOp::Avrg, 4};
  case Opcode::Vabsdiff4: return {VOp::Absdiff, 4};
  case Opcode::Vmin4: return {VOp::Min, 4};
  case Opcode::Vmax4: return {VOp::Max, 4};
  case Opcode::Vset4: return {VOp::Set, 4};
  default: return {VOp::Add, 0};
  }
}

bool signedType(ptx::Type t) { return t == ptx::Type::S32; }

// The compare of vset/vset2/vset4 (.eq .ne .lt .le .gt .ge), signed if either operand is.
std::optional<CmpInst::Predicate> cmpPred(const ptx::Instruction &in, bool sgn) {
  if (in.has(Mod::Eq)) return CmpInst::ICMP_EQ;
  if (in.has(Mod::Ne)) return CmpInst::ICMP_NE;
  if (in.has(Mod::Lt)) return sgn ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT;
  if (in.has(Mod::Le)) return sgn ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE;
  if (in.has(Mod::Gt)) return sgn ? CmpInst::ICMP_SGT : CmpInst::ICMP_UGT;
  if (in.has(Mod::Ge)) return sgn ? CmpInst::ICMP_SGE : CmpInst::ICMP_UGE;
  return std::nullopt;
}

// Exact lane operation on i64 values (operands already extended).
Value *laneOp(IRBuilder<> &b, VOp::K k, Value *x, Value *y, bool sgn, CmpInst::Predicate p) {
  switch (k) {
  case VOp::Add: return b.CreateAdd(x, y);
  case VOp::Sub: return b.CreateSub(x, y);
  case VOp::Avrg: { // sum >= 0 ? (sum + 1) >> 1 : sum >> 1 (PTX ISA), exact in i64
    Value *s = b.CreateAdd(x, y);
    Value *up = b.CreateAShr(b.CreateAdd(s, b.getInt64(1)), 1), *dn = b.CreateAShr(s, 1);
    return b.CreateSelect(b.CreateICmpSGE(s, b.getInt64(0)), up, dn);
  }
  case VOp::Absdiff: {
    Value *d = b.CreateSub(x, y);
    return b.CreateSelect(b.CreateICmpSLT(d, b.getInt64(0)), b.CreateNeg(d), d);
  }
  case VOp::Min: return b.CreateSelect(b.CreateICmpSLT(x, y), x, y); // exact i64 values
  case VOp::Max: return b.CreateSelect(b.CreateICmpSGT(x, y), x, y);
  case VOp::Set: return b.CreateZExt(b.CreateICmp(p, x, y), b.getInt64Ty());
  default: return nullptr;
  }
  (void)sgn;
}

// Clamp an exact i64 to a `bits`-wide signed/unsigned range.
Value *clampTo(IRBuilder<> &b, Value *v, unsigned bits, bool sgn) {
  int64_t lo = sgn ? -(int64_t(1) << (bits - 1)) : 0;
  int64_t hi = sgn ? (int64_t(1) << (bits - 1)) - 1 : int64_t((uint64_t(1) << bits) - 1);
  v = b.CreateSelect(b.CreateICmpSLT(v, b.getInt64(lo)), b.getInt64(lo), v);
  return b.CreateSelect(b.CreateICmpSGT(v, b.getInt64(hi)), b.getInt64(hi), v);
}

// Lane `sel` (E bits) of the 64-bit {b, a}, extended to i64.
Value *pickLane(IRBuilder<> &b, Value *ba, unsigned sel, unsigned E, bool sgn) {
  Value *v = b.CreateTrunc(b.CreateLShr(ba, uint64_t(sel) * E), b.getIntNTy(E));
  return sgn ? b.CreateSExt(v, b.getInt64Ty()) : b.CreateZExt(v, b.getInt64Ty());
}

bool simd(FnCtx &fc, const ptx::Instruction &in, VOp vo) {
  auto &b = fc.b;
  const auto &ops = in.operands;
  if (ops.size() != 4) return fc.unsupported(in, "SIMD video instructions take d, a, b, c");
  bool isSet = vo.k == VOp::Set;
  // Types: vset2/4 .atype.btype; the others .dtype.atype.btype.
  if (in.types.size() != (isSet ? 2u : 3u)) return fc.unsupported(in, "operand types");
  ptx::Type dt = isSet ? ptx::Type::U32 : in.types[0], at = in.types[isSet ? 0 : 1], bt = in.types[isSet ? 1 : 2];
  bool dsgn = signedType(dt), asgn = signedType(at), bsgn = signedType(bt);
  unsigned N = vo.lanes, E = 32 / N;
  bool acc = in.has(Mod::AddOp), sat = in.has(Mod::Sat);
  if (acc && sat) return fc.unsupported(in, "'.sat' with '.add'");
  CmpInst::Predicate pred = CmpInst::ICMP_EQ;
  if (isSet) {
    auto p = cmpPred(in, asgn || bsgn);
    if (!p) return fc.unsupported(in, "comparison");
    pred = *p;
  }
  // Selectors: digit j (as written) feeds lane N-1-j.
  auto lanesOf = [&](const ptx::Operand &o, unsigned dflt, unsigned maxDigit, const char *what,
                     unsigned out[4]) -> bool {
    for (unsigned i = 0; i < N; ++i) out[i] = dflt + i;
    if (!o.vsel) return true;
    ptx::VideoSel s = ptx::VideoSel::decode(o.vsel);
    if (s.half != (N == 2) || s.count != N) {
      fc.unsupported(in, std::string("selector on ") + what + " (expected ." + (N == 2 ? "h" : "b") +
                             " with " + std::to_string(N) + " lanes)");
      return false;
    }
    for (unsigned j = 0; j < N; ++j) {
      if (s.digit[j] > maxDigit) {
        fc.unsupported(in, std::string("selector lane out of range on ") + what);
        return false;
      }
      out[N - 1 - j] = s.digit[j];
    }
    return true;
  };
  unsigned la[4], lb[4];
  if (!lanesOf(ops[1], 0, 2 * N - 1, "a", la) || !lanesOf(ops[2], N, 2 * N - 1, "b", lb)) return false;
  // Mask on d: digits name the lanes written (default all).
  bool mask[4] = {true, true, true, true};
  if (ops[0].vsel) {
    ptx::VideoSel s = ptx::VideoSel::decode(ops[0].vsel);
    if (s.half != (N == 2)) return fc.unsupported(in, "mask on d");
    for (auto &m : mask) m = false;
    for (unsigned j = 0; j < s.count; ++j) {
      if (s.digit[j] >= N) return fc.unsupported(in, "mask lane out of range");
      mask[s.digit[j]] = true;
    }
  }
  Type *i64 = b.getInt64Ty();
  Value *a = fc.read(ops[1], ptx::Type::B32), *bb = fc.read(ops[2], ptx::Type::B32), *c = fc.read(ops[3], ptx::Type::B32);
  Value *ba = b.CreateOr(b.CreateShl(b.CreateZExt(bb, i64), 32), b.CreateZExt(a, i64));
  Value *d = acc ? b.CreateZExt(c, i64) : b.getInt64(0);
  for (unsigned i = 0; i < N; ++i) {
    if (!mask[i] && acc) continue;
    if (!mask[i]) { // merge: lane i of c
      Value *ci = b.CreateAnd(b.CreateZExt(c, i64), b.getInt64(((uint64_t(1) << E) - 1) << (i * E)));
      d = b.CreateOr(d, ci);
      continue;
    }
    Value *t = laneOp(b, vo.k, pickLane(b, ba, la[i], E, asgn), pickLane(b, ba, lb[i], E, bsgn), dsgn, pred);
    if (acc) {
      d = b.CreateAdd(d, t);
      continue;
    }
    if (sat) t = clampTo(b, t, E, dsgn);
    t = b.CreateShl(b.CreateAnd(t, b.getInt64((uint64_t(1) << E) - 1)), uint64_t(i) * E);
    d = b.CreateOr(d, t);
  }
  fc.write(ops[0], b.CreateTrunc(d, b.getInt32Ty()), ptx::Type::B32);
  return true;
}

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
  // One byte / half-word / the word of an operand, extended to i64 by its type.
  auto part = [&](const ptx::Operand &o, bool sgn, bool &ok) -> Value * {
    Value *v = fc.read(o, ptx::Type::B32);
    ok = true;
    if (o.vsel) {
      ptx::VideoSel s = ptx::VideoSel::decode(o.vsel);
      if (s.count != 1 || (s.half && s.digit[0] > 1) || (!s.half && s.digit[0] > 3)) { ok = false; return nullptr; }
      unsigned bits = s.half ? 16 : 8;
      v = b.CreateTrunc(b.CreateLShr(v, s.digit[0] * bits), b.getIntNTy(bits));
    }
    return sgn ? b.CreateSExt(v, i64) : b.CreateZExt(v, i64);
  };
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
    t = laneOp(b, vo.k, x, y, dsgn, pred);
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

} // namespace

bool translateVideo(FnCtx &fc, const ptx::Instruction &in) {
  if (in.op == Opcode::Vmad) return fc.unsupported(in, "vmad is not translated");
  VOp vo = classify(in.op);
  if (!vo.lanes) return fc.unsupported(in);
  for (ptx::Type t : in.types)
    if (t != ptx::Type::U32 && t != ptx::Type::S32) return fc.unsupported(in, "operand types must be .u32 or .s32");
  return vo.lanes == 1 ? scalar(fc, in, vo) : simd(fc, in, vo);
}

} // namespace ptx2llvm
