//===- Video.h - shared parts of the PTX video instruction families -*- C++ -*-===//
//
// The video instructions are translated by family, one file each: VideoSimd.cpp (vadd2/4 ...
// vset2/4), VideoScalar.cpp (vadd vsub vabsdiff vmin vmax vshl vshr vset), VideoMad.cpp (vmad);
// Video.cpp dispatches. This header holds what they share: the operation kind, operand
// signedness, the vset comparison, exact lane operations in i64 and clamping, and the byte /
// half-word / word part of an operand.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Translator.h"

#include <optional>

namespace ptx2llvm::video {

struct VOp {
  enum K { Add, Sub, Avrg, Absdiff, Min, Max, Set, Shl, Shr, Mad } k;
  unsigned lanes; // 1 (scalar), 2 or 4; 0 = not a video instruction
};

VOp classify(ptx::Opcode op);

inline bool signedType(ptx::Type t) { return t == ptx::Type::S32; }

// The compare of vset/vset2/vset4 (.eq .ne .lt .le .gt .ge), signed if either operand is.
std::optional<llvm::CmpInst::Predicate> cmpPred(const ptx::Instruction &in, bool sgn);

// Exact lane operation on i64 values (operands already extended).
llvm::Value *laneOp(llvm::IRBuilder<> &b, VOp::K k, llvm::Value *x, llvm::Value *y, llvm::CmpInst::Predicate p);

// Clamp an exact i64 to a `bits`-wide signed/unsigned range.
llvm::Value *clampTo(llvm::IRBuilder<> &b, llvm::Value *v, unsigned bits, bool sgn);

// The operand's byte (.b0-.b3) / half-word (.h0/.h1) extended to i64 by `sgn`, or without a
// selector the whole word, extended by `wordSgn`. Null (ok = false) for any other selector.
llvm::Value *operandPart(FnCtx &fc, const ptx::Operand &o, bool sgn, bool wordSgn, bool &ok);

bool simd(FnCtx &fc, const ptx::Instruction &in, VOp vo);
bool scalar(FnCtx &fc, const ptx::Instruction &in, VOp vo);
bool vmad(FnCtx &fc, const ptx::Instruction &in);

} // namespace ptx2llvm::video
