//===- TensorLayouts.cpp - per-lane fragment layouts of mma/wmma ----------===//
//
// The PTX ISA's mma.sync fragment tables (section "Matrix Fragments for
// mma.m16n8k*"), with groupID = lane >> 2 and threadID_in_group = lane % 4,
// and the wmma layouts built from them, as the H200 holds them (every wmma
// fragment kind of tests/corpus/tensor_numerics.cu was dumped there and is
// matched exactly): m16n16 = two n8 tiles, m32n8 = two m16 tiles; m8n32 is the
// transposed m32n8 problem for its accumulator and its 16-bit B (B^T held as
// an m32 A operand), while its A and 8-bit B are the 8-row / n8-tile forms.
// f16 A/B fragments of wmma have more registers than distinct elements (a
// Volta-era register count); the extra elements repeat the first ones.
//
//===----------------------------------------------------------------------===//
#include "TensorLayouts.h"

#include <functional>
#include <utility>

namespace ptx2llvm::tensor {

unsigned elemBits(Elem e) {
  switch (e) {
  case Elem::F16: case Elem::BF16: return 16;
  case Elem::S8: case Elem::U8: return 8;
  default: return 32;
  }
}

using Coord = std::pair<int, int>;

static Layout build(int rows, int cols, int elems, int bits, const std::function<Coord(int g, int t, int i)> &f) {
  Layout l;
  l.rows = rows;
  l.cols = cols;
  l.elems = elems;
  l.bits = bits;
  l.r.resize(size_t(32 * elems));
  l.c.resize(size_t(32 * elems));
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < elems; ++i) {
      Coord rc = f(lane >> 2, lane & 3, i);
      l.r[size_t(lane * elems + i)] = uint8_t(rc.first);
      l.c[size_t(lane * elems + i)] = uint8_t(rc.second);
    }
  return l;
}

// A (16 x K) of one m16 tile, element i of the ISA table.
static Coord tileA(int k, Elem in, int g, int t, int i) {
  unsigned bits = elemBits(in);
  if (bits == 16) {
    if (k == 16) return {g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)};
    return {g + 8 * (i >> 1), 2 * t + (i & 1)}; // k == 8
  }
  if (bits == 8) {
    if (k == 32) return {g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)};
    return {g + 8 * (i >> 2), 4 * t + (i & 3)}; // k == 16
  }
  if (k == 8) return {g + 8 * (i & 1), t + 4 * (i >> 1)}; // tf32
  return {g + 8 * i, t};                                   // tf32 k == 4
}
// B (K x 8) of one n8 tile.
static Coord tileB(int k, Elem in, int g, int t, int i) {
  unsigned bits = elemBits(in);
  if (bits == 16) return {2 * t + (i & 1) + 8 * (i >> 1), g};
  if (bits == 8) return {4 * t + (i & 3) + 16 * (i >> 2), g};
  return {t + 4 * i, g}; // tf32
}
static int tileElemsA(int k, Elem) { return 16 * k / 32; }
static int tileElemsB(int k, Elem) { return 8 * k / 32; }
// The m16n8 accumulator.
static Coord tileC(int g, int t, int i) { return {g + 8 * (i >> 1), 2 * t + (i & 1)}; }

static bool mmaForm(int k, Elem in) {
  switch (elemBits(in)) {
  case 16: return k == 8 || k == 16;
  case 8: return k == 16 || k == 32;
  default: return in == Elem::TF32 && (k == 4 || k == 8);
  }
}

Layout mmaLayout(Operand which, int k, Elem in) {
  if (which == Operand::C) return build(16, 8, 4, 32, [](int g, int t, int i) { return tileC(g, t, i); });
  if (!mmaForm(k, in)) return {};
  int bits = int(elemBits(in));
  if (which == Operand::A)
    return build(16, k, tileElemsA(k, in), bits, [&](int g, int t, int i) { return tileA(k, in, g, t, i); });
  return build(k, 8, tileElemsB(k, in), bits, [&](int g, int t, int i) { return tileB(k, in, g, t, i); });
}

Layout wmmaLayout(Operand which, int m, int n, int k, Elem e, bool rowMajor) {
  (void)rowMajor; // the H200 uses one lane layout for both memory layouts (checked for every kind)
  bool shapeOk = (k == 16 && ((m == 16 && n == 16) || (m == 32 && n == 8) || (m == 8 && n == 32)) &&
                  e != Elem::TF32) ||
                 (k == 8 && m == 16 && n == 16 && (e == Elem::TF32 || which == Operand::C));
  if (!shapeOk) return {};
  if (which == Operand::C) {
    // accumulator: m16n8 tiles, n-tiles first within an m16 row block (m16n16: 2, m32n8: 2 m-tiles,
    // m8n32: 4 n-tiles of 8 rows)
    int bits = e == Elem::F16 ? 16 : 32;
    return build(m, n, m * n / 32, bits, [&](int g, int t, int i) -> Coord {
      int tile = i / 4, j = i % 4;
      // m8n32 is computed transposed (D^T = B^T A^T as m32n8): lane holds rows 2t, 2t+1 of columns g + 8j
      if (m == 8) return {2 * t + (i & 1), g + 8 * (i >> 1)};
      Coord rc = tileC(g, t, j);
      if (m == 16) return {rc.first, rc.second + 8 * tile};
      return {rc.first + 16 * tile, rc.second}; // m == 32
    });
  }
  int bits = int(elemBits(e));
  bool f16 = e == Elem::F16;
  if (which == Operand::A) {
    int distinct = m * k / 32;
    int elems = f16 ? 16 : distinct; // f16 A fragments are 8 registers for every shape
    return build(m, k, elems, bits, [&](int g, int t, int i) -> Coord {
      int u = i % distinct;
      if (m == 8) { // 8 x K: the row-g elements of an m16 tile's table
        if (bits == 8) return {g, 4 * t + u};
        return {g, 2 * t + (u & 1) + 8 * (u >> 1)};
      }
      int per = tileElemsA(k, e);
      int tile = u / per, j = u % per;
      Coord rc = tileA(k, e, g, t, j);
      return {rc.first + 16 * tile, rc.second};
    });
  }
  // B: K x N, n8 tiles
  int distinct = k * n / 32;
  int elems = f16 ? 16 : distinct;
  return build(k, n, elems, bits, [&](int g, int t, int i) -> Coord {
    int u = i % distinct;
    // m8n32 16-bit B: B^T (32 x 16) held as the A operand of an m32n8 tile pair
    if (m == 8 && bits == 16) return {2 * t + (u & 1) + 8 * ((u >> 2) & 1), g + 8 * ((u >> 1) & 1) + 16 * (u >> 3)};
    int per = tileElemsB(k, e);
    int tile = u / per, j = u % per;
    Coord rc = tileB(k, e, g, t, j);
    return {rc.first, rc.second + 8 * tile};
  });
}

} // namespace ptx2llvm::tensor
