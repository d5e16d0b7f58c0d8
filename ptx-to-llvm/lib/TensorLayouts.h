//===- TensorLayouts.h - per-lane fragment layouts of mma/wmma/ldmatrix -*- C++ -*-===//
//
// Which element (row, col) of its matrix each lane holds in each fragment
// element x[i]: the PTX ISA's tables for mma.sync (m16n8k4/k8/k16/k32 A, B
// and the m16n8 accumulator) and, for wmma (whose layout the ISA leaves
// unspecified), the layouts observed on the H200 (tests/corpus/
// tensor_numerics.cu dumps them). A Layout is a table over all 32 lanes, so
// the translator can compute per-lane addresses and, for the cross-lane
// gathers of mma, which lane owns an element; nothing here emits IR.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptx2llvm::tensor {

enum class Elem : uint8_t { F16, BF16, TF32, S8, U8, F32, S32 };
unsigned elemBits(Elem e);

struct Layout {
  int rows = 0, cols = 0; // the logical matrix (A: M x K, B: K x N, C/D: M x N)
  int elems = 0;          // fragment elements per lane
  int bits = 0;           // element width (8, 16, 32); 32 / bits elements per register
  std::vector<uint8_t> r, c; // [lane * elems + i]
  int row(int lane, int i) const { return r[size_t(lane * elems + i)]; }
  int col(int lane, int i) const { return c[size_t(lane * elems + i)]; }
  int perReg() const { return 32 / bits; }
  int regs() const { return elems / perReg(); }
};

enum class Operand : uint8_t { A, B, C };

// mma.sync m16n8kK fragments (K = 4, 8, 16, 32) for the given input element type; C/D is the
// m16n8 accumulator table for every accumulator type. An empty Layout (elems == 0): no such form.
Layout mmaLayout(Operand which, int k, Elem in);
// wmma fragments of shape MxNxK; `rowMajor` is the fragment's layout qualifier (A/B only).
Layout wmmaLayout(Operand which, int m, int n, int k, Elem e, bool rowMajor);

} // namespace ptx2llvm::tensor
