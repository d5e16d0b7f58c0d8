//===- Video.cpp - PTX video instructions: dispatch and shared parts -----===//
//
// The PTX ISA's "Video Instructions", expanded into plain integer IR (AMD has no equivalent;
// v_sad_u8 & co. cover only a few forms), one file per family: VideoSimd.cpp, VideoScalar.cpp,
// VideoMad.cpp. Every result is bit-exact with the H200 (golden family `video`,
// tests/golden/probes/video_scalar_probe and vmad_probe / vmad_dense_probe); where the H200
// differs from the ISA's pseudo-code the family's file says how.
// This file: the opcode -> family dispatch and the helpers of Video.h.
//
//===----------------------------------------------------------------------===//
#include "Video.h"

using namespace llvm;
using ptx::Mod;
using ptx::Opcode;

namespace ptx2llvm {
namespace video {

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
  case Opcode::Vmad: return {VOp::Mad, 1};
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

std::optional<CmpInst::Predicate> cmpPred(const ptx::Instruction &in, bool sgn) {
  if (in.has(Mod::Eq)) return CmpInst::ICMP_EQ;
  if (in.has(Mod::Ne)) return CmpInst::ICMP_NE;
  if (in.has(Mod::Lt)) return sgn ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT;
  if (in.has(Mod::Le)) return sgn ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE;
  if (in.has(Mod::Gt)) return sgn ? CmpInst::ICMP_SGT : CmpInst::ICMP_UGT;
  if (in.has(Mod::Ge)) return sgn ? CmpInst::ICMP_SGE : CmpInst::ICMP_UGE;
  return std::nullopt;
}

Value *laneOp(IRBuilder<> &b, VOp::K k, Value *x, Value *y, CmpInst::Predicate p) {
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
}

Value *clampTo(IRBuilder<> &b, Value *v, unsigned bits, bool sgn) {
  int64_t lo = sgn ? -(int64_t(1) << (bits - 1)) : 0;
  int64_t hi = sgn ? (int64_t(1) << (bits - 1)) - 1 : int64_t((uint64_t(1) << bits) - 1);
  v = b.CreateSelect(b.CreateICmpSLT(v, b.getInt64(lo)), b.getInt64(lo), v);
  return b.CreateSelect(b.CreateICmpSGT(v, b.getInt64(hi)), b.getInt64(hi), v);
}

Value *operandPart(FnCtx &fc, const ptx::Operand &o, bool sgn, bool wordSgn, bool &ok) {
  auto &b = fc.b;
  Value *v = fc.read(o, ptx::Type::B32);
  ok = true;
  if (!o.vsel) return wordSgn ? b.CreateSExt(v, b.getInt64Ty()) : b.CreateZExt(v, b.getInt64Ty());
  ptx::VideoSel s = ptx::VideoSel::decode(o.vsel);
  if (s.count != 1 || (s.half && s.digit[0] > 1) || (!s.half && s.digit[0] > 3)) {
    ok = false;
    return nullptr;
  }
  unsigned bits = s.half ? 16 : 8;
  v = b.CreateTrunc(b.CreateLShr(v, s.digit[0] * bits), b.getIntNTy(bits));
  return sgn ? b.CreateSExt(v, b.getInt64Ty()) : b.CreateZExt(v, b.getInt64Ty());
}

} // namespace video

bool translateVideo(FnCtx &fc, const ptx::Instruction &in) {
  video::VOp vo = video::classify(in.op);
  if (!vo.lanes) return fc.unsupported(in);
  for (ptx::Type t : in.types)
    if (t != ptx::Type::U32 && t != ptx::Type::S32) return fc.unsupported(in, "operand types must be .u32 or .s32");
  if (vo.k == video::VOp::Mad) return video::vmad(fc, in);
  return vo.lanes == 1 ? video::scalar(fc, in, vo) : video::simd(fc, in, vo);
}

} // namespace ptx2llvm
