/*===- texture_model.h - the NVIDIA texture unit's filtering arithmetic ---===*
 *
 * How an NVIDIA texture unit turns coordinates and levels of detail into
 * texel indices and filter weights, as pure C (the device library's texture.c
 * samples with it; the host tool tests/golden/texture/texture_model_check.cpp
 * checks its weights against every one the H200 gave for
 * tests/golden/probes/tex_weights_probe.cu, texture_model2_check against
 * tex_weights2_probe.cu, and golden.probe.tex_fit_probe /
 * tex_mip_probe run the probes through the device library on the emulator). Fitted to the
 * H200 (session 6, docs/notes/session6-tex.md has the measurements):
 *  - a normalized coordinate is first truncated (toward -inf) to a fixed-point
 *    value with 21 fractional bits, then multiplied by the extent exactly; an
 *    unnormalized coordinate is taken exactly;
 *  - linear filtering: xB = x - 0.5, texel floor(xB) and the weight a of the
 *    next texel frac(xB) rounded half up to 8 fractional bits (a weight of
 *    256/256 moves to the next texel);
 *  - 2D weights in 1/256: w11 = a*b/256 rounded half up, w10 = a - w11,
 *    w01 = b - w11, w00 = 256 - a - b + w11 (they sum to 256 exactly);
 *  - the weighted sum of the texels is formed exactly and rounded once to fp32, ties away
 *    from zero (the H200 is 1 ulp off that in ~0.2% of random fp32 texels); 8/16-bit unsigned
 *    normalized texels blend as integers into a 16-bit unorm result, half texels are aligned
 *    to the largest one and the sum rounded to half (ptx_texm_unorm16, ptx_texm_half_align);
 *  - LODs are fixed point with 8 fractional bits: the explicit LOD and the bias
 *    are truncated, then the LOD is clamped to the truncated [min, max] clamps
 *    and to the levels; the level is its integer part, the blend weight of the
 *    next level its fraction;
 *  - a gradient's LOD: see ptx_texm_grad_lod256 / ptx_texm_grad_length.
 * 3D filtering and the 1D/2D trilinear blend split the weight axis by axis
 * (ptx_texm_level_weights2, ptx_texm_weights3): exact for every weight the H200 gave.
 *===----------------------------------------------------------------------===*/
#ifndef PTX_DEVLIB_TEXTURE_MODEL_H
#define PTX_DEVLIB_TEXTURE_MODEL_H

#include <stdint.h>

/* Fractional bits of the fixed-point normalized coordinate (H200: tex_fit_probe's norm.W
 * groups, W = 5, 7, 13, 100, 1000, 4093, 4096, and wrap / mirror / clamp on [-2, 3): 21 is the
 * only value that fits all their samples; 20 and 22 miss 18..233 per group). */
#define PTX_TEXM_NORM_BITS 21

/* Unnormalized coordinates are held with this many fractional bits, truncated; bits
 * below 2^-32 of a texel cannot change an 8-bit weight rounded half up. */
#define PTX_TEXM_UNNORM_BITS 32

/* Coordinates are limited to +-2^20 (normalized) / +-2^28 texels so that the
 * fixed-point products stay within 64 bits; beyond that every address mode has
 * long since saturated or wrapped (wrap and mirror see only [0, 1)). */
static inline float ptx_texm_limit(float x, float lim) {
  if (!(x == x)) return 0.0f; /* NaN reads as coordinate 0 */
  return x < -lim ? -lim : x > lim ? lim : x;
}

/* A coordinate in texels as a fixed-point value with `*frac_bits` fractional bits. */
static inline int64_t ptx_texm_texel_fixed(float x, uint32_t extent, int normalized, int *frac_bits) {
  if (normalized) {
    *frac_bits = PTX_TEXM_NORM_BITS;
    float s = ptx_texm_limit(x, 1048576.0f) * (float)(1u << PTX_TEXM_NORM_BITS); /* exact: a power of two */
    return (int64_t)__builtin_floorf(s) * (int64_t)extent;
  }
  *frac_bits = PTX_TEXM_UNNORM_BITS;
  float s = ptx_texm_limit(x, 268435456.0f);
  /* floor(s * 2^32) without overflowing a float -> int conversion: split integer and fraction */
  float fl = __builtin_floorf(s);
  float fr = (s - fl) * 4294967296.0f; /* exact: s - fl is exact, scaling by a power of two */
  return (int64_t)fl * 4294967296ll + (int64_t)__builtin_floorf(fr);
}

/* Nearest-point sampling: the texel containing x. */
static inline int32_t ptx_texm_point_index(float x, uint32_t extent, int normalized) {
  int fb;
  int64_t p = ptx_texm_texel_fixed(x, extent, normalized, &fb);
  return (int32_t)(p >> fb);
}

/* Linear filtering along one axis: texels i and i + 1, weight w/256 on i + 1. */
typedef struct ptx_texm_tap {
  int32_t i;
  uint32_t w;
} ptx_texm_tap;

static inline ptx_texm_tap ptx_texm_linear_tap(float x, uint32_t extent, int normalized) {
  int fb;
  /* Two statements: the operands of one `-` are unsequenced, and the shift must read the fb
   * that the call writes (an ASan+UBSan build evaluated the shift first, with fb unset). */
  int64_t p = ptx_texm_texel_fixed(x, extent, normalized, &fb);
  p -= 1ll << (fb - 1); /* xB = x - 0.5 */
  ptx_texm_tap t;
  t.i = (int32_t)(p >> fb);
  uint64_t fr = (uint64_t)(p - ((p >> fb) << fb));
  t.w = (uint32_t)((fr + (1ull << (fb - 9))) >> (fb - 8)); /* rounded half up to 1/256 */
  if (t.w == 256u) { t.i += 1; t.w = 0u; }
  return t;
}

/* Clamp-to-edge: a tap both of whose texels clamp to the same edge texel (i < 0, or i + 1 past
 * the extent) takes that texel with weight 0 on the next one, before the weights are split.
 * It changes nothing in 1D and 2D (the merged weights are exact sums there), but the 3D and mip
 * splits round differently: H200, tex_fit_probe tex3 (8x6x5 random texels, clamp) 1018 of 1024
 * with it (the 6 others 1 ulp, the sum's rounding), 903 without; the collapsed tap with weight
 * 256 on the edge texel instead gives 1017. Mirror (where texel -1 also reads texel 0) is not
 * measured. */
static inline ptx_texm_tap ptx_texm_clamp_tap(ptx_texm_tap t, uint32_t extent) {
  if (t.i < 0) { t.i = 0; t.w = 0u; }
  else if (t.i >= (int32_t)extent - 1) { t.i = (int32_t)extent - 1; t.w = 0u; }
  return t;
}

/* The 2D weights (1/256) of texels (i,j), (i+1,j), (i,j+1), (i+1,j+1) for axis weights a, b. */
typedef struct ptx_texm_w2 {
  uint32_t w00, w10, w01, w11;
} ptx_texm_w2;
static inline ptx_texm_w2 ptx_texm_weights2(uint32_t a, uint32_t b) {
  ptx_texm_w2 w;
  w.w11 = (a * b + 128u) >> 8;
  w.w10 = a - w.w11;
  w.w01 = b - w.w11;
  w.w00 = 256u - a - b + w.w11;
  return w;
}

/* The weights (1/256) of one slab of a 2D footprint whose share is L: one level of a linear mip
 * blend (L = 256 - f for the lower level, f for the upper) or one z slab of a 3D footprint
 * (L = 256 - c, c). x splits L (hx = a*L/256 rounded half up), then y splits each column: the
 * x + 1 column's upper weight w11 = hx*b/256 rounded half up, the x column's *lower* weight
 * w00 = (L - hx)(256 - b)/256 rounded half up, each column's other weight the rest.
 * H200, tex_weights_probe (one-hot textures, every weight read off):
 * wtri (2D trilinear) 2048 of 2048, wtri1d 1024 of 1024, w3d 2048 of 2048 (as
 * ptx_texm_weights3), w2d 1024 of 1024 (L = 256 is ptx_texm_weights2). Rounding w01 instead of
 * w00 (the form of session 6) misses 59 wtri; every other choice of which weight of each of the
 * three splits is rounded, and every other order of the 3D axes, misses 25..942. */
static inline ptx_texm_w2 ptx_texm_level_weights2(uint32_t a, uint32_t b, uint32_t L) {
  ptx_texm_w2 w;
  uint32_t hx = (a * L + 128u) >> 8;
  w.w11 = (hx * b + 128u) >> 8;
  w.w00 = ((L - hx) * (256u - b) + 128u) >> 8;
  w.w10 = hx - w.w11;
  w.w01 = L - hx - w.w00;
  return w;
}

/* The 8 weights (1/256) of a 3D footprint for axis weights a, b, c (x, y, z): z splits 256
 * exactly into 256 - c and c, and each z slab is split like a 2D level
 * (ptx_texm_level_weights2). H200, tex_weights_probe w3d: 2048 of 2048. */
typedef struct ptx_texm_w3 {
  ptx_texm_w2 z0, z1;
} ptx_texm_w3;
/* The 8 weights of one level of a 3D linear mip blend whose share is L (256 - f for the lower
 * level, f for the upper): z splits L first, the lower slab's share (256 - c) L / 256 rounded half
 * up and the upper slab the rest, then each slab is split like a 2D level
 * (ptx_texm_level_weights2); L = 256 is ptx_texm_weights3. H200, tex_weights3_probe w3m (4^3 / 2^3 /
 * 1 mipmapped, one-hot over levels 0 and 1, tex3DLod): 1024 of 1024 on seeds 1 and 2; rounding the
 * upper slab's share instead: 2018 of 2048; splitting each full 3D weight by the level fraction
 * (the form before): 905 of 2048. */
static inline ptx_texm_w3 ptx_texm_level_weights3(uint32_t a, uint32_t b, uint32_t c, uint32_t L) {
  ptx_texm_w3 w;
  uint32_t z0 = ((256u - c) * L + 128u) >> 8;
  w.z0 = ptx_texm_level_weights2(a, b, z0);
  w.z1 = ptx_texm_level_weights2(a, b, L - z0);
  return w;
}
static inline ptx_texm_w3 ptx_texm_weights3(uint32_t a, uint32_t b, uint32_t c) {
  return ptx_texm_level_weights3(a, b, c, 256u);
}

/* The part hi = w*f/256 rounded half up of a weight w that goes to the upper level of a linear
 * mip blend (used for a point-filtered texel's whole weight, where it is exactly f; filtered 1D/2D
 * and 3D levels split the level share first instead, ptx_texm_level_weights2 / _weights3). */
static inline uint32_t ptx_texm_split_hi(uint32_t w, uint32_t c) { return (w * c + 128u) >> 8; }

/* The weighted sum of the texels: acc + w * v, then the total / 2^shift rounded once to
 * fp32, ties away from zero (a tie is common: the 8-bit weights add 8 bits below the texels'
 * last). The weights are integers below 2^32 and the texels fp32, so each product is exact
 * in double; the double sum of at most 16 terms is then rounded to fp32 (a double rounding
 * differs from the exact sum's rounding only when the sum lies within 2^-29 of an fp32
 * rounding boundary). H200 (session 8; ties to even before): tex_fit_probe bil 8 -> 5, biln
 * 10 -> 7, bila 4 -> 3, lin1 8 -> 0, mipb 2 -> 0, tex3 6 -> 3, tri 6 -> 6 lines off by 1 ulp;
 * tex_weights2_probe v3dx 5 -> 2 / 0 -> 0, vtrix 1 -> 0 / 3 -> 2 (seeds 1 / 2). Aligning the
 * texels to the largest one as half filtering does (ptx_texm_half_align, 3 guard bits) fits
 * 4094 of those 4096 v3dx / vtrix lines but is not adopted: one more fit, not measured on the
 * other groups. */
static inline double ptx_texm_accumulate(double acc, uint64_t w, float v) { return acc + (double)w * (double)v; }
static inline float ptx_texm_round(double acc, uint32_t shift) {
  double q = acc * __builtin_ldexp(1.0, -(int)shift);
  float r = (float)q;
  if ((double)r == q || r == 0.0f || !(__builtin_fabsf(r) < __builtin_inff())) return r;
  uint32_t b = __builtin_bit_cast(uint32_t, r);
  int up = __builtin_fabs(q) > (double)__builtin_fabsf(r); /* q lies beyond r (away from zero) */
  float o = __builtin_bit_cast(float, up ? b + 1u : b - 1u);
  if (__builtin_fabs(q - (double)r) == __builtin_fabs((double)o - q)) return up ? o : r; /* a tie: away from zero */
  return r;
}

/* Linear filtering of 8/16-bit unsigned normalized texels (cudaReadModeNormalizedFloat, u8 / u16
 * channels): the texels are blended as integers, s = sum(weight * texel) with the 1/256 weights,
 * and the result is a 16-bit unsigned normalized value, k = s * 65535 / (256 * (2^bits - 1))
 * rounded half up, read as k / 65535 (fp32 division). H200, tex_weights2_probe u8 / u16 (2D 7x5,
 * clamp, random texels and coordinates): 2048 of 2048 each, seeds 1 and 2; the exact blend
 * s / (256 * (2^bits - 1)) rounded to fp32 matches 197 (u8) / 199 (u16) of seed 1's 2048. Signed and sRGB texels are
 * not measured (they keep the float blend). */
static inline float ptx_texm_unorm16(uint64_t s, uint32_t bits) {
  uint64_t den = 256ull * ((1ull << bits) - 1ull);
  uint64_t k = (s * 65535ull * 2ull + den) / (2ull * den); /* floor(s * 65535 / den + 1/2) */
  return (float)(uint32_t)k / 65535.0f;
}

/* Linear filtering of 8/16-bit signed normalized texels (cudaReadModeNormalizedFloat, s8 / s16
 * channels): as for unsigned ones, the stored integers (two's complement, -2^(bits-1) included)
 * are blended with the 1/256 weights, s = sum(weight * texel), and the result is a 16-bit signed
 * normalized value k = s * 32767 / (256 * (2^(bits-1) - 1)) rounded half up, read as k / 32767
 * (fp32 division) and limited to -1. H200, tex_weights3_probe s16 (2D 7x5, clamp, random texels
 * incl. -32768, random coordinates): 2048 of 2048 on seeds 1 and 2 (the float blend: 227 / 220;
 * clamping -32768 to -32767 first: 2020 / 2003; half away from zero: 2043). s8: 1953 / 1963 of
 * 2048 (the float blend 79 / 87); the H200 rounds down where this is within ~0.1 above a half (no
 * linear scale with one rounding offset, and no per-texel expansion to 16 bits or to 2^-8..2^-23
 * steps tried, fits more than 3822 of the 3931 unclamped samples). */
static inline float ptx_texm_snorm16(int64_t s, uint32_t bits) {
  int64_t den = 256ll * ((1ll << (bits - 1u)) - 1ll);
  int64_t num = s * 32767ll * 2ll + den; /* floor(s * 32767 / den + 1/2) = floor(num / (2 den)) */
  int64_t k = num >= 0 ? num / (2ll * den) : -((-num + 2ll * den - 1ll) / (2ll * den));
  float r = (float)(int32_t)k / 32767.0f;
  return r < -1.0f ? -1.0f : r;
}

/* The unbiased binary exponent floor(log2 |v|) of a nonzero finite fp32 value (subnormals: -127). */
static inline int32_t ptx_texm_exponent(float v) {
  return (int32_t)((__builtin_bit_cast(uint32_t, v) >> 23) & 0xffu) - 127;
}

/* Linear filtering of half texels: every texel of nonzero weight is first truncated (toward zero)
 * to a multiple of 2^(e - 14), e the largest exponent among them (the largest texel keeps its 11
 * significant bits and 3 more), the weighted sum is formed exactly and rounded half up to half
 * precision (11 significant bits). H200, tex_weights2_probe h16 (2D 7x5, texels in [0, 10),
 * one of 2^-6): 2048 of 2048 on seeds 1 and 2 (fitted on 1); without the truncation 2032 / 2043,
 * with 2^(e - 13) or 2^(e - 15) 2031 / 2040 (seed 1), rounding half to even 2042 / 2044.
 * Negative texels, overflow and mip blends are not measured (the sign is kept, the magnitude
 * rounded). */
static inline float ptx_texm_half_align(float v, int32_t emax) {
  float step = __builtin_ldexpf(1.0f, emax - 14);
  return __builtin_truncf(v / step) * step; /* exact: step is a power of two */
}
/* Linear filtering of fp32 texels aligns them the same way, to a multiple of 2^(e - 27) (the
 * largest texel's 24 significant bits and 3 more), before the exact sum is rounded to fp32 ties
 * away from zero (ptx_texm_round). H200, tex_weights3_probe fneg (2D 7x5, random signs, exponents
 * 2^-20 .. 2^20): 2048 of 2048 on seeds 1 and 2; without the alignment 1800 / 1814; with 2^(e - 26)
 * or 2^(e - 28) 1824..1903; rounding to even 2040 / 2041; truncating toward -infinity 1755 / 1806.
 * (Session 8 saw the same form fit 4094 of tex_weights2_probe's 4096 v3dx / vtrix lines.) Alignment
 * below 2^-149 changes nothing and is skipped. */
static inline float ptx_texm_float_align(float v, int32_t emax) {
  if (emax - 27 < -149) return v;
  float step = __builtin_ldexpf(1.0f, emax - 27);
  return __builtin_truncf(v / step) * step; /* exact: step is a power of two */
}
static inline float ptx_texm_round_half(double acc, uint32_t shift) {
  double q = acc * __builtin_ldexp(1.0, -(int)shift);
  double m = __builtin_fabs(q);
  if (!(m > 0.0)) return (float)q;
  int32_t e = (int32_t)((__builtin_bit_cast(uint64_t, m) >> 52) & 0x7ffu) - 1023;
  if (e < -14) e = -14; /* half subnormals: ulp 2^-24 */
  double ulp = __builtin_ldexp(1.0, e - 10);
  double r = __builtin_floor(m / ulp + 0.5) * ulp;
  return (float)(q < 0.0 ? -r : r);
}

/* x in fixed point with 8 fractional bits, truncated, limited to +-2^20. */
static inline int32_t ptx_texm_fixed8(float x) {
  return (int32_t)__builtin_floorf(ptx_texm_limit(x, 1048576.0f) * 256.0f);
}

/* A LOD (fixed point, 8 fractional bits) after bias and clamps (H200, tex_fit_probe lodb: the
 * LOD and the bias are truncated first, 2048 of 2048; adding in fp32 first misses 921): clamped
 * to [min_lod, max_lod], then to [0, levels - 1]. */
static inline int32_t ptx_texm_clamp_lod256(int32_t lod256, float bias, float min_lod, float max_lod,
                                            uint32_t levels) {
  int32_t l = lod256 + ptx_texm_fixed8(bias);
  int32_t lo = ptx_texm_fixed8(min_lod), hi = ptx_texm_fixed8(max_lod);
  l = l < lo ? lo : l;
  l = l > hi ? hi : l;
  int32_t top = (int32_t)(levels - 1u) * 256;
  return l < 0 ? 0 : l > top ? top : l;
}

/* log2 of a length in 8 fractional bits, as the H200's texture unit computes it: the
 * exponent, plus a table lookup on the top 8 bits of the mantissa (tex_fit_probe gax: the
 * thresholds of all 256 fraction steps, found by bisection on the GPU, are multiples of 2^-8
 * of the mantissa and the same for every exponent; the table is close to, but not,
 * round(256 log2(1 + (j + 0.5)/256))). */
static const uint8_t ptx_texm_log2_table[256] = {
      0,   2,   4,   5,   6,   8,   9,  11,  12,  13,  15,  16,  18,  19,  20,  22,
     23,  24,  26,  27,  28,  30,  31,  32,  34,  35,  36,  38,  39,  40,  42,  43,
     44,  45,  47,  48,  49,  50,  52,  53,  54,  55,  57,  58,  59,  60,  62,  63,
     64,  65,  66,  68,  69,  70,  71,  72,  74,  75,  76,  77,  78,  79,  81,  82,
     83,  84,  85,  86,  88,  89,  90,  91,  92,  93,  94,  95,  97,  98,  99, 100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
    118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
    135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
    150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
    165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
    180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193,
    194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
    207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219,
    220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232,
    233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
    245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255,
};
static inline int32_t ptx_texm_log2_256(double len) {
  if (!(len > 0.0)) return -(1 << 20);
  uint64_t b = __builtin_bit_cast(uint64_t, len);
  int32_t e = (int32_t)((b >> 52) & 0x7ffu) - 1023;
  if (e > 4000) return 1 << 20;
  return e * 256 + (int32_t)ptx_texm_log2_table[(b >> 44) & 0xffu];
}

/* The mantissa of |x| truncated to 9 bits. */
static inline float ptx_texm_trunc9(float x) {
  return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, x) & 0x7fffc000u);
}

/* The length of a derivative vector (texels): max + 11/32 mid + 1/4 min of its components'
 * magnitudes, each truncated to 9 mantissa bits. 2D (min = 0): tex_fit_probe gvec, the best of
 * the forms tried; 225 of 2052 bisection thresholds are still off, where the H200's length is
 * slightly larger. 3D: tex_weights2_probe g3 (tex3DGrad, 16^3), fitted on seed 1's samples
 * whose dx and dy differ in length by 3x or more (so the longer vector alone sets the LOD): 473
 * of 480 with 1/4 on min, 294 / 293 with 15/64 / 17/64, 136 with 11/32 (the form before); all of g3
 * (pairs included): 1649 / 1678 of 2048 on seeds 1 / 2, was 908 / 929. */
static inline double ptx_texm_grad_length(float a, float b, float c) {
  float x = ptx_texm_trunc9(a), y = ptx_texm_trunc9(b), z = ptx_texm_trunc9(c);
  float mx = __builtin_fmaxf(x, __builtin_fmaxf(y, z));
  float mn = __builtin_fminf(x, __builtin_fminf(y, z));
  double mid = (double)x + (double)y + (double)z - (double)mx - (double)mn;
  return (double)mx + mid * (11.0 / 32.0) + (double)mn * 0.25;
}

/* The LOD (8 fractional bits) of the derivative vectors dx, dy (lengths in texels): log2 of the
 * longer one. Exact for axis-aligned derivatives (gax, gay, gaxs, tex_mip_probe gradx / grady /
 * gradiso); the H200 makes a pair of comparable vectors a little longer than the longer one,
 * which this does not model (tex_mip_probe gradmix, tex_fit_probe gpair / grand). */
static inline int32_t ptx_texm_grad_lod256(double lx, double ly) {
  return ptx_texm_log2_256(lx > ly ? lx : ly);
}

/* The nearest level of a fixed-point LOD (point mip filter): its integer part
 * rounded half up (H200, tex_mip_probe lodp: L + 0.5 - 2^-11 reads level L -- the
 * truncated LOD is L + 127/256 there -- and L + 0.5 reads L + 1). */
static inline uint32_t ptx_texm_nearest_level(int32_t lod256) {
  return (uint32_t)((lod256 + 128) >> 8);
}

#endif /* PTX_DEVLIB_TEXTURE_MODEL_H */
