// golden_inputs.h -- deterministic regeneration of the golden-table inputs (header-only, C++17).
//
// The golden tables under tests/golden/data store only the outputs NVIDIA hardware produced; the
// inputs of every form are regenerated from a recipe (exhaustive 8/16-bit, or specials + seeded
// random rows) by this generator, which mirrors scripts/golden/gen.py line for line (splitmix64
// streams, the same draw order, the special-value tables of golden_specials.inc that gen.py
// emits).  The manifest stores an FNV-1a hash of each form's inputs; `inputsHash` recomputes it so
// a drift between the two implementations is detected instead of silently comparing wrong rows.
// It is used by scripts/golden/record.cu (nvcc, on the H200) and by the CTest checks, so it sticks
// to the standard library and C++17.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace golden {

#include "golden_specials.inc"

enum class Kind { Int, Float, Pair, Pred, Amt, Amt2 };

struct ClassInfo {
  const char *name;
  unsigned bytes;  // element size in the input buffer
  Kind kind;
  unsigned width;  // value bits
  unsigned ebits, mbits;  // floats only
  const uint64_t *specials;
  size_t numSpecials;
  int half;  // pairs: index of the half class in classTable(), else -1
};

#define GOLDEN_SP(c) kSpecials_##c, sizeof(kSpecials_##c) / sizeof(uint64_t)
inline const ClassInfo *classTable(size_t *count) {
  static const ClassInfo table[] = {
      {"I8", 1, Kind::Int, 8, 0, 0, GOLDEN_SP(I8), -1},
      {"I16", 2, Kind::Int, 16, 0, 0, GOLDEN_SP(I16), -1},
      {"I32", 4, Kind::Int, 32, 0, 0, GOLDEN_SP(I32), -1},
      {"I64", 8, Kind::Int, 64, 0, 0, GOLDEN_SP(I64), -1},
      {"F16", 2, Kind::Float, 16, 5, 10, GOLDEN_SP(F16), -1},
      {"BF16", 2, Kind::Float, 16, 8, 7, GOLDEN_SP(BF16), -1},
      {"F32", 4, Kind::Float, 32, 8, 23, GOLDEN_SP(F32), -1},
      {"F64", 8, Kind::Float, 64, 11, 52, GOLDEN_SP(F64), -1},
      {"F16X2", 4, Kind::Pair, 32, 0, 0, GOLDEN_SP(F16X2), 4},
      {"BF16X2", 4, Kind::Pair, 32, 0, 0, GOLDEN_SP(BF16X2), 5},
      {"PRED", 4, Kind::Pred, 32, 0, 0, GOLDEN_SP(PRED), -1},
      {"AMT", 4, Kind::Amt, 32, 0, 0, GOLDEN_SP(AMT), -1},
      {"AMT2", 4, Kind::Amt2, 32, 0, 0, GOLDEN_SP(AMT2), -1},
      {"F8X2", 2, Kind::Int, 16, 0, 0, GOLDEN_SP(F8X2), -1},
  };
  if (count) *count = sizeof(table) / sizeof(table[0]);
  return table;
}
#undef GOLDEN_SP

/// Looks a class up by its manifest name; nullptr if unknown.
inline const ClassInfo *findClass(const std::string &name) {
  size_t n;
  const ClassInfo *t = classTable(&n);
  for (size_t i = 0; i < n; ++i)
    if (name == t[i].name) return &t[i];
  return nullptr;
}

/// splitmix64 (Steele, Lea, Flood 2014): state += golden gamma, then the finaliser.
struct SplitMix64 {
  uint64_t s;
  explicit SplitMix64(uint64_t seed) : s(seed) {}
  uint64_t next() {
    s += 0x9E3779B97F4A7C15ull;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

inline uint64_t widthMask(unsigned w) { return w >= 64 ? ~0ull : ((1ull << w) - 1); }

/// One random value of class c (mirror of gen.py random_value).
inline uint64_t randomValue(const ClassInfo &c, SplitMix64 &rng) {
  if (c.kind == Kind::Pair) {
    const ClassInfo &h = classTable(nullptr)[c.half];
    uint64_t lo = randomValue(h, rng);
    uint64_t hi = randomValue(h, rng);
    return lo | (hi << 16);
  }
  const uint64_t m = rng.next() % 8;
  const uint64_t w = rng.next();
  const uint64_t mask = widthMask(c.width);
  const uint64_t ns = c.numSpecials;
  switch (c.kind) {
  case Kind::Pred:
    return w & 1;
  case Kind::Amt:
    if (m < 6) return w % 72;
    if (m == 6) return w & 0xFFFFFFFFull;
    return c.specials[w % ns];
  case Kind::Amt2:
    if (m < 7) return (w % 72) | (((w >> 32) % 72) << 16);
    return w & 0xFFFFFFFFull;
  case Kind::Int:
    if (m < 4) return w & mask;
    if (m < 6) return (uint64_t)((int64_t)(w % 129) - 64) & mask;
    if (m == 6) return c.specials[w % ns];
    return (c.specials[w % ns] + ((w >> 32) % 5) - 2) & mask;
  case Kind::Float: {
    if (m < 3) return w & mask;
    if (m < 6) {
      int64_t bias = (1ll << (c.ebits - 1)) - 1;
      int64_t ex = bias + (int64_t)((w >> 1) % 41) - 20;
      int64_t maxe = (1ll << c.ebits) - 2;
      if (ex < 1) ex = 1;
      if (ex > maxe) ex = maxe;
      uint64_t mant = (w >> 8) & widthMask(c.mbits);
      return ((w & 1) << (c.width - 1)) | ((uint64_t)ex << c.mbits) | mant;
    }
    if (m == 6) return c.specials[w % ns];
    return (c.specials[w % ns] + ((w >> 32) % 5) - 2) & mask;
  }
  default:
    return 0;
  }
}

enum class RecipeKind { Exh16, Exh8, Mixed };

struct Recipe {
  RecipeKind kind = RecipeKind::Mixed;
  uint64_t seed = 0;
  uint64_t nrand = 0;
  std::vector<const ClassInfo *> classes;  // one per input, 1..3
};

inline bool parseRecipeKind(const std::string &s, RecipeKind &k) {
  if (s == "exh16") k = RecipeKind::Exh16;
  else if (s == "exh8") k = RecipeKind::Exh8;
  else if (s == "mixed") k = RecipeKind::Mixed;
  else return false;
  return true;
}

inline size_t rowCount(const Recipe &r) {
  if (r.kind == RecipeKind::Exh16) return 65536;
  if (r.kind == RecipeKind::Exh8) return 256;
  size_t spec = r.classes.size() == 1 ? r.classes[0]->numSpecials
                                      : r.classes[0]->numSpecials * r.classes[1]->numSpecials;
  return spec + r.nrand;
}

/// Input i of every row, as integers (bit patterns, zero-extended).
inline std::vector<std::vector<uint64_t>> generateInputs(const Recipe &r) {
  const size_t nin = r.classes.size();
  std::vector<std::vector<uint64_t>> cols(nin);
  if (r.kind != RecipeKind::Mixed) {
    size_t n = rowCount(r);
    cols[0].resize(n);
    for (size_t i = 0; i < n; ++i) cols[0][i] = i;
    return cols;
  }
  const size_t total = rowCount(r);
  for (auto &c : cols) c.reserve(total);
  SplitMix64 ra(r.seed ^ 0x5EC1A1ull);
  if (nin == 1) {
    const ClassInfo &c = *r.classes[0];
    cols[0].assign(c.specials, c.specials + c.numSpecials);
  } else {
    const ClassInfo &c0 = *r.classes[0], &c1 = *r.classes[1];
    const size_t n0 = c0.numSpecials, n1 = c1.numSpecials;
    for (size_t row = 0; row < n0 * n1; ++row) {
      cols[0].push_back(c0.specials[row / n1]);
      cols[1].push_back(c1.specials[row % n1]);
      if (nin == 3) cols[2].push_back(r.classes[2]->specials[ra.next() % r.classes[2]->numSpecials]);
    }
  }
  SplitMix64 rb(r.seed);
  for (uint64_t k = 0; k < r.nrand; ++k)
    for (size_t i = 0; i < nin; ++i) cols[i].push_back(randomValue(*r.classes[i], rb));
  return cols;
}

/// Packs a column into little-endian elements of the class's size.
inline std::vector<uint8_t> packColumn(const ClassInfo &c, const std::vector<uint64_t> &col) {
  std::vector<uint8_t> buf(col.size() * c.bytes);
  for (size_t i = 0; i < col.size(); ++i)
    for (unsigned b = 0; b < c.bytes; ++b) buf[i * c.bytes + b] = (uint8_t)(col[i] >> (8 * b));
  return buf;
}

inline uint64_t fnv1a64(const uint8_t *p, size_t n, uint64_t h = 0xCBF29CE484222325ull) {
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001B3ull;
  }
  return h;
}

/// FNV-1a over the packed columns in input order (the manifest's "inputs_fnv1a64").
inline uint64_t inputsHash(const Recipe &r, const std::vector<std::vector<uint64_t>> &cols) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (size_t i = 0; i < cols.size(); ++i) {
    std::vector<uint8_t> b = packColumn(*r.classes[i], cols[i]);
    h = fnv1a64(b.data(), b.size(), h);
  }
  return h;
}

}  // namespace golden
