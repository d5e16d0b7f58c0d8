/*===- texture_model.h - the NVIDIA texture unit's filtering arithmetic ---===*
 *
 * How an NVIDIA texture unit turns coordinates and levels of detail into
 * texel indices and filter weights, as pure C (the device library's texture.c
 * samples with it; the host tool tests/golden/texture/texture_model_check.cpp
 * checks it against every sample the H200 gave for the probe programs
 * tests/golden/probes/tex_fit_probe.cu and tex_mip_probe.cu). Fitted to the
 * H200 (session 6, docs/notes/session6-tex.md has the measurements):
 *  - a normalized coordinate is first truncated (toward -inf) to a fixed-point
 *    value with PTX_TEXM_NORM_BITS fractional bits, then multiplied by the
 *    extent exactly; an unnormalized coordinate is taken exactly;
 *  - linear filtering: xB = x - 0.5, texel floor(xB) and the weight of the next
 *    texel frac(xB) rounded half up to 8 fractional bits (a weight of 256/256
 *    moves to the next texel);
 *  - the weighted sum of the texels is formed exactly (integer weights times
 *    fp32 texels) and rounded once to fp32;
 *  - an explicit LOD (after bias and clamps) is truncated to 8 fractional bits:
 *    the level is its integer part, the blend weight between a level and the
 *    next its fraction in 1/256;
 *  - a gradient's LOD: see ptx_texm_grad_lod256.
 *===----------------------------------------------------------------------===*/
#ifndef PTX_DEVLIB_TEXTURE_MODEL_H
#define PTX_DEVLIB_TEXTURE_MODEL_H

#include <stdint.h>

/* Fractional bits of the fixed-point normalized coordinate (H200: any of 16..23 fits
 * tex_mip_probe's lin1d.n5; tex_fit_probe's norm.* groups pin it). */
#ifndef PTX_TEXM_NORM_BITS
#define PTX_TEXM_NORM_BITS 20
#endif

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
  int64_t p = ptx_texm_texel_fixed(x, extent, normalized, &fb) - (1ll << (fb - 1)); /* xB = x - 0.5 */
  ptx_texm_tap t;
  t.i = (int32_t)(p >> fb);
  uint64_t fr = (uint64_t)(p - ((p >> fb) << fb));
  t.w = (uint32_t)((fr + (1ull << (fb - 9))) >> (fb - 8)); /* rounded half up to 1/256 */
  if (t.w == 256u) { t.i += 1; t.w = 0u; }
  return t;
}

/* The weighted sum of the texels: acc + w * v, then the total / 2^shift rounded once to
 * fp32. The weights are integers below 2^32 and the texels fp32, so each product is exact
 * in double up to 56 bits; the double sum of at most 16 terms is then rounded to fp32 (a
 * double rounding differs from the exact sum's rounding only when the sum lies within 2^-29
 * of an fp32 rounding boundary). */
static inline double ptx_texm_accumulate(double acc, uint64_t w, float v) { return acc + (double)w * (double)v; }
static inline float ptx_texm_round(double acc, uint32_t shift) {
  return (float)(acc * __builtin_ldexp(1.0, -(int)shift));
}

/* An explicit LOD in fixed point with 8 fractional bits, truncated (toward -inf),
 * after bias and the clamps: [min_lod, max_lod], then [0, levels - 1]. */
static inline int32_t ptx_texm_lod256(float lod, float bias, float min_lod, float max_lod, uint32_t levels) {
  if (!(lod == lod)) lod = 0.0f;
  lod += bias;
  lod = __builtin_fminf(__builtin_fmaxf(lod, min_lod), max_lod);
  lod = __builtin_fminf(__builtin_fmaxf(lod, 0.0f), (float)(levels - 1u));
  return (int32_t)__builtin_floorf(lod * 256.0f);
}

/* The nearest level of a fixed-point LOD (point mip filter): its integer part
 * rounded half up (H200, tex_mip_probe lodp: L + 0.5 - 2^-11 reads level L -- the
 * truncated LOD is L + 127/256 there -- and L + 0.5 reads L + 1). */
static inline uint32_t ptx_texm_nearest_level(int32_t lod256) {
  return (uint32_t)((lod256 + 128) >> 8);
}

#endif /* PTX_DEVLIB_TEXTURE_MODEL_H */
