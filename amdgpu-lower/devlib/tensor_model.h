/*===- tensor_model.h - the tensor-core accumulation model ----------------===*
 *
 * How an NVIDIA tensor core adds the products of one mma/wmma k-step to the
 * accumulator, as a parametrised exact model (pure C: the device library's
 * tensor.c uses it with the parameters fitted to the H200, and the host tool
 * tests/golden/tensor/fit_tensor_model.c fits them against the recorded H200
 * results of tests/corpus/tensor_numerics.cu).
 *
 * Inputs are the factors a[k], b[k] (f16/bf16/tf32 values, exact in double;
 * their products are exact in double too) in k order and the accumulator c.
 * The products are taken in groups of `group` consecutive k; each group is one
 * fused addition of the running accumulator and its products:
 *  - every nonzero term is aligned to the largest anchor among the group's
 *    terms (a product's anchor is the sum of its factors' exponents, c's its
 *    exponent), keeping the bits from `width - 1` below that anchor upward
 *    (the bits shifted out are dropped, toward zero);
 *  - the aligned terms are summed exactly (integers);
 *  - the sum is rounded once to the accumulator format (f32, or f16 for the
 *    f16-accumulator forms) with `round` (0 toward zero, 1 to nearest even).
 * NaN in any term, or +inf and -inf together, give the canonical NaN; an
 * infinite term gives that infinity. A zero sum is +0 unless every term is -0.
 *===----------------------------------------------------------------------===*/
#ifndef PTX_DEVLIB_TENSOR_MODEL_H
#define PTX_DEVLIB_TENSOR_MODEL_H

#include <stdint.h>

#if defined(__clang__)
#define TC_UNROLL _Pragma("clang loop unroll(full)")
#else
#define TC_UNROLL
#endif

struct tc_model {
  int group; /* products per fused addition (4, 8, 16) */
  int width; /* significant bits kept at the alignment, counted from the largest term's leading bit */
  int round; /* final rounding: 0 toward zero, 1 to nearest even */
};

/* The parameters the device library uses, fitted to the H200 (every one of
 * the 180,224 results of tests/corpus/tensor_numerics.cu, specials included,
 * equals the model's; docs/notes/session4-tensor.md): one fused addition per
 * hardware k-step (mma.sync's k <= 16 is one step; ptx-to-llvm splits
 * wmma.m16n16k8.tf32, which ptxas runs as two chained k4 steps), 26 bits
 * from the anchor down, f32 accumulators truncated (RZ), f16 accumulators
 * rounded to nearest even. */
static const struct tc_model kTcModelF32 = {16, 26, 0};
static const struct tc_model kTcModelF16 = {16, 26, 1};

/* An exact binary value: (-1)^neg * mant * 2^exp; kind 0 zero, 1 finite nonzero, 2 inf, 3 nan. */
struct tc_val { uint64_t mant; int exp; int neg; int kind; };

static inline struct tc_val tc_from_f64(double d) {
  union { double d; uint64_t u; } x = {d};
  struct tc_val v;
  v.neg = (int)(x.u >> 63);
  int e = (int)((x.u >> 52) & 0x7ff);
  uint64_t f = x.u & 0xfffffffffffffull;
  if (e == 0x7ff) { v.kind = f ? 3 : 2; v.mant = 0; v.exp = 0; return v; }
  if (e == 0 && f == 0) { v.kind = 0; v.mant = 0; v.exp = 0; return v; }
  v.kind = 1;
  if (e == 0) { v.mant = f; v.exp = -1074; }
  else { v.mant = f | (1ull << 52); v.exp = e - 1075; }
  return v;
}

/* Bit patterns of the IEEE formats the accumulators use: p significand bits
 * (with the implicit one), ebits exponent bits. */
static inline struct tc_val tc_from_bits(uint32_t bits, int p, int ebits) {
  struct tc_val v;
  int bias = (1 << (ebits - 1)) - 1;
  v.neg = (int)((bits >> (p - 1 + ebits)) & 1u);
  int e = (int)((bits >> (p - 1)) & ((1u << ebits) - 1));
  uint64_t f = bits & ((1u << (p - 1)) - 1);
  if (e == (1 << ebits) - 1) { v.kind = f ? 3 : 2; v.mant = 0; v.exp = 0; return v; }
  if (e == 0 && f == 0) { v.kind = 0; v.mant = 0; v.exp = 0; return v; }
  v.kind = 1;
  if (e == 0) { v.mant = f; v.exp = 1 - bias - (p - 1); }
  else { v.mant = f | (1ull << (p - 1)); v.exp = e - bias - (p - 1); }
  return v;
}

static inline int tc_bitlen(uint64_t m) { return m ? 64 - __builtin_clzll(m) : 0; }

/* Round sum * 2^unit (|sum| < 2^62) to the format (p, ebits): its bits. */
static inline uint32_t tc_round_to(int64_t sum, int unit, int p, int ebits, int round, int negzero) {
  uint32_t sign = sum < 0 ? 1u : 0u;
  uint32_t signbit = 1u << (p - 1 + ebits);
  if (sum == 0) return negzero ? signbit : 0u;
  uint64_t mag = sum < 0 ? (uint64_t)(-sum) : (uint64_t)sum;
  int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias, emaxf = bias;
  int lead = unit + tc_bitlen(mag) - 1;
  int q = (lead < emin ? emin : lead) - (p - 1); /* exponent of the result's last bit */
  int shift = q - unit;
  uint64_t keep;
  if (shift >= 63) {
    keep = 0; /* mag < 2^62: below half of the last bit */
  } else if (shift > 0) {
    uint64_t rem = mag & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    keep = mag >> shift;
    if (round && (rem > half || (rem == half && (keep & 1)))) keep++;
  } else {
    keep = mag << (-shift);
  }
  if (keep >> p) { keep >>= 1; q++; } /* rounding carried into a new leading bit */
  uint32_t maxfin = ((uint32_t)(2 * bias) << (p - 1)) | ((1u << (p - 1)) - 1);
  uint32_t inf = (uint32_t)((1 << ebits) - 1) << (p - 1);
  if (keep && q + tc_bitlen(keep) - 1 > emaxf) return (sign ? signbit : 0u) | (round ? inf : maxfin);
  uint32_t bits;
  if (keep < (1ull << (p - 1))) bits = (uint32_t)keep; /* subnormal (or zero after truncation) */
  else bits = ((uint32_t)(q + (p - 1) + bias) << (p - 1)) | (uint32_t)(keep - (1ull << (p - 1)));
  return (sign ? signbit : 0u) | bits;
}

static inline int tc_lead(const struct tc_val *v) { return v->exp + tc_bitlen(v->mant) - 1; }

/* One fused addition of acc and the n products a[i]*b[i]; acc and the result
 * are bit patterns of the format (p, ebits). canon: the format's canonical
 * NaN. The alignment anchor of a product is the sum of its factors'
 * exponents (its significand, in [1, 4), may reach one bit above it); that of
 * acc is its own exponent. */
static inline uint32_t tc_fused(const struct tc_model *m, uint32_t acc, const double *a, const double *b, int n, int p,
                                int ebits, uint32_t canon) {
  struct tc_val t[17];
  int anchor[17];
  int nt = 0;
  t[nt] = tc_from_bits(acc, p, ebits);
  anchor[nt] = t[nt].kind == 1 ? tc_lead(&t[nt]) : 0;
  nt++;
  /* constant trip counts (n <= 16): the arrays stay in registers on the GPU */
TC_UNROLL
  for (int i = 0; i < 16; i++) {
    t[nt] = tc_from_f64(i < n ? a[i] * b[i] : 0.0); /* exact for f16/bf16/tf32 factors */
    if (t[nt].kind == 1) {
      struct tc_val x = tc_from_f64(a[i]), y = tc_from_f64(b[i]);
      anchor[nt] = tc_lead(&x) + tc_lead(&y);
    } else {
      anchor[nt] = 0;
    }
    nt++;
  }
  int nan = 0, pinf = 0, ninf = 0, allnegzero = 1, emax = -100000;
TC_UNROLL
  for (int i = 0; i < 17; i++) {
    int real = i <= n; /* acc and the n products; the padding is +0 */
    if (t[i].kind == 3) nan = 1;
    if (t[i].kind == 2) { if (t[i].neg) ninf = 1; else pinf = 1; }
    if (real && !(t[i].kind == 0 && t[i].neg)) allnegzero = 0;
    if (t[i].kind == 1 && anchor[i] > emax) emax = anchor[i];
  }
  uint32_t signbit = 1u << (p - 1 + ebits), inf = (uint32_t)((1 << ebits) - 1) << (p - 1);
  if (nan || (pinf && ninf)) return canon;
  if (pinf) return inf;
  if (ninf) return signbit | inf;
  if (emax == -100000) return allnegzero ? signbit : 0u;
  int unit = emax - m->width + 1;
  int64_t sum = 0;
TC_UNROLL
  for (int i = 0; i < 17; i++) {
    if (t[i].kind != 1) continue;
    int sh = t[i].exp - unit;
    uint64_t v;
    if (sh >= 0) v = t[i].mant << sh;
    else v = -sh >= 64 ? 0 : t[i].mant >> (-sh);
    sum += t[i].neg ? -(int64_t)v : (int64_t)v;
  }
  return tc_round_to(sum, unit, p, ebits, m->round, 0);
}

/* The whole k-step: groups of m->group products, in k order. */
static inline uint32_t tc_dot(const struct tc_model *m, uint32_t acc, const double *a, const double *b, int n, int p,
                              int ebits, uint32_t canon) {
  for (int k = 0; k < n; k += m->group) {
    int g = n - k < m->group ? n - k : m->group;
    acc = tc_fused(m, acc, a + k, b + k, g, p, ebits, canon);
  }
  return acc;
}

#endif /* PTX_DEVLIB_TENSOR_MODEL_H */
