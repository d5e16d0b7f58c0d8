//===- VideoSimd.cpp - PTX SIMD video instructions (vadd2/4 ... vset2/4) ---===//
//
//   vop.dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c;   (merge)
//   vop.dtype.atype.btype.add   d{.mask}, a{.asel}, b{.bsel}, c;   (accumulate)
// vop = vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4. Lanes of 8 (4-way) or 16
// (2-way) bits are picked from the 8 bytes / 4 half-words of {b, a} (a = 0-3 / 0-1, b = 4-7 /
// 2-3) by the selectors, default a.b3210 / b.b7654 (a.h10 / b.h32), extended by the operand's
// signedness, combined exactly; .sat clamps each lane to the destination lane type, otherwise
// lanes wrap. Merge: lanes of d not in .mask come from c. Accumulate: d = c + sum of the exact
// lane results in .mask. (These follow the PTX ISA; the H200 agrees on every form recorded.)
//
//===----------------------------------------------------------------------===//
#include "Video.h"

using namespace llvm;
using ptx::Mod;

namespace ptx2llvm::video {
namespace {

// Lane `sel` (E bits) of the 64-bit {b, a}, extended to i64.
Value *pickLane(IRBuilder<> &b, Value *ba, unsigned sel, unsigned E, bool sgn) {
  Value *v = b.CreateTrunc(b.CreateLShr(ba, uint64_t(sel) * E), b.getIntNTy(E));
  return sgn ? b.CreateSExt(v, b.getInt64Ty()) : b.CreateZExt(v, b.getInt64Ty());
}

} // namespace

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
    Value *t = laneOp(b, vo.k, pickLane(b, ba, la[i], E, asgn), pickLane(b, ba, lb[i], E, bsgn), pred);
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

} // namespace ptx2llvm::video
