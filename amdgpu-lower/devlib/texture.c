/*===- texture.c - tex / suld / sust on ptx_tex_desc objects ---------------===*
 *
 * Texture and surface handles are generic addresses of a ptx_tex_desc
 * (ptx_texture.h). Sampling follows the CUDA C Programming Guide, "Texture
 * Fetching" appendix, with the arithmetic of NVIDIA's texture unit as fitted
 * to the H200 (texture_model.h: fixed-point coordinates, 8-bit weights rounded
 * half up, texels summed exactly, LODs truncated to 8 fractional bits; linear filters blend
 * 8/16-bit unsigned and signed normalized texels as integers and half texels aligned to the largest one).
 * Wrap / mirror act on normalized coordinates, clamp / border on texel
 * indices. cudaReadModeNormalizedFloat maps 8/16-bit integers to [0,1] /
 * [-1,1], with sRGB -> linear for 8-bit unsigned x/y/z channels when the descriptor asks for
 * it (the H200's table, srgb_table.h); half-float texels read as float. Channels beyond the format's count
 * read 0. Results are returned one component at a time as 32-bit patterns
 * (the devlib ABI has no aggregates): float bits for float reads, the integer
 * for element-type integer reads. Those are filtered too when the
 * descriptor asks for it (only the driver API creates such objects): the
 * integers are blended exactly with the taps' 8-bit weights and rounded half
 * up (8/16-bit channels) or toward -infinity (32-bit), as the H200 does.
 * Arrays (tex.a1d / a2d) read one layer, cubes (tex.cube / acube) pick a face
 * and face coordinates from a direction; mipmapped resources (tex.level /
 * tex.grad, and plain tex at LOD 0) read the nearest level or blend two.
 * Surfaces (suld.b / sust.b): x is a byte offset, y a row, z a slice; an
 * out-of-range access traps (.trap), is clamped to the last valid position
 * (.clamp) or reads zero / is dropped (.zero, signalled by address 0).
 *===----------------------------------------------------------------------===*/
#include "wave.h"
#include "ptx_texture.h"
#include "texture_model.h"
#include "srgb_table.h"

static const ptx_tex_desc *desc_of(uint64_t h) {
  const ptx_tex_desc *d = (const ptx_tex_desc *)(uintptr_t)h;
  if (h == 0 || d->magic != PTX_TEX_DESC_MAGIC) __builtin_trap();
  return d;
}

static uint32_t elem_size(const ptx_tex_desc *d) { return (uint32_t)d->channels * d->bits / 8u; }

static uint64_t texel_addr(const ptx_tex_desc *d, int32_t x, int32_t y, int32_t z) {
  uint64_t slice = d->geometry == PTX_TEX_GEOM_1D ? 0 : d->pitch * (uint64_t)d->height;
  return d->base + (uint64_t)(uint32_t)z * slice + (uint64_t)(uint32_t)y * d->pitch +
         (uint64_t)(uint32_t)x * elem_size(d);
}

static float half_to_float(uint32_t h) {
  _Float16 v = __builtin_bit_cast(_Float16, (uint16_t)h);
  return (float)v;
}


/* Channel c of texel (x,y,z) as float (float / normalized reads) or as an
 * integer bit pattern (element-type integer reads). */
static uint32_t channel(const ptx_tex_desc *d, int32_t x, int32_t y, int32_t z, uint32_t c,
                        int as_float) {
  if (c >= d->channels) return 0u;
  uint64_t a = texel_addr(d, x, y, z) + (uint64_t)c * (d->bits / 8u);
  uint32_t raw;
  switch (d->bits) {
  case 8: raw = *(const uint8_t *)(uintptr_t)a; break;
  case 16: raw = *(const uint16_t *)(uintptr_t)a; break;
  default: raw = *(const uint32_t *)(uintptr_t)a; break;
  }
  if (d->kind == PTX_TEX_KIND_FLOAT) {
    float f = d->bits == 16 ? half_to_float(raw) : __builtin_bit_cast(float, raw);
    return __builtin_bit_cast(uint32_t, f);
  }
  int sgn = d->kind == PTX_TEX_KIND_SIGNED;
  if (d->bits == 8 && sgn) raw = (uint32_t)(int32_t)(int8_t)raw;
  if (d->bits == 16 && sgn) raw = (uint32_t)(int32_t)(int16_t)raw;
  if (!as_float) return raw;
  if (d->read_mode == PTX_TEX_READ_NORMALIZED && d->bits < 32) {
    /* sRGB (cudaTextureDesc::sRGB / CU_TRSF_SRGB): x, y, z of 8-bit unsigned texels convert to
     * linear through the H200's table (srgb_table.h, 8 significant bits, not the IEC formula);
     * alpha is normalized as usual. This happens per texel, before filtering: the H200's linear
     * reads are the table values blended with the usual weights (srgb_probe l1). Signed 8-bit
     * and 16-bit formats ignore the flag (srgb_probe s1, u16), as do element-type reads (e1). */
    if ((d->flags & PTX_TEX_FLAG_SRGB) && d->bits == 8 && !sgn && c < 3u)
      return ptx_srgb_to_linear_bits[raw & 255u];
    float scale = d->bits == 8 ? (sgn ? 127.0f : 255.0f) : (sgn ? 32767.0f : 65535.0f);
    float f = sgn ? (float)(int32_t)raw / scale : (float)raw / scale;
    if (f < -1.0f) f = -1.0f;
    return __builtin_bit_cast(uint32_t, f);
  }
  return __builtin_bit_cast(uint32_t, sgn ? (float)(int32_t)raw : (float)raw);
}

static uint32_t extent(const ptx_tex_desc *d, uint32_t dim) {
  return dim == 0 ? d->width : dim == 1 ? d->height : d->depth;
}

/* Texel index i along `dim` after the address mode; -1 means "border". */
static int32_t address_index(const ptx_tex_desc *d, uint32_t dim, int32_t i) {
  int32_t n = (int32_t)extent(d, dim);
  uint8_t mode = d->address[dim];
  int normalized = (d->flags & PTX_TEX_FLAG_NORMALIZED_COORDS) != 0;
  if (!normalized && (mode == PTX_TEX_ADDR_WRAP || mode == PTX_TEX_ADDR_MIRROR))
    mode = PTX_TEX_ADDR_CLAMP; /* wrap/mirror need normalized coordinates */
  switch (mode) {
  case PTX_TEX_ADDR_WRAP: { int32_t r = i % n; return r < 0 ? r + n : r; }
  case PTX_TEX_ADDR_MIRROR: {
    int32_t p = i % (2 * n); if (p < 0) p += 2 * n;
    return p < n ? p : 2 * n - 1 - p;
  }
  case PTX_TEX_ADDR_BORDER: return (i < 0 || i >= n) ? -1 : i;
  default: return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

/* Whether address_index clamps along dim (clamp mode, or wrap / mirror on unnormalized
 * coordinates). */
static int clamps(const ptx_tex_desc *d, uint32_t dim) {
  uint8_t mode = d->address[dim];
  int normalized = (d->flags & PTX_TEX_FLAG_NORMALIZED_COORDS) != 0;
  return mode == PTX_TEX_ADDR_CLAMP || (!normalized && (mode == PTX_TEX_ADDR_WRAP || mode == PTX_TEX_ADDR_MIRROR));
}

/* The normalized coordinate along dim after wrap / mirror (which act on normalized
 * coordinates, as the guide specifies); unchanged otherwise. */
static float wrap_coord(const ptx_tex_desc *d, uint32_t dim, float x) {
  if (!(d->flags & PTX_TEX_FLAG_NORMALIZED_COORDS)) return x;
  uint8_t mode = d->address[dim];
  if (mode == PTX_TEX_ADDR_WRAP) x = x - __builtin_floorf(x);
  else if (mode == PTX_TEX_ADDR_MIRROR) {
    float f = __builtin_floorf(x), fr = x - f;
    x = ((int64_t)f & 1) ? 1.0f - fr : fr;
  }
  return x;
}

/* Applies the descriptor's wrap / mirror to float coordinates (cube face coordinates are used
 * as they are) and says whether they are normalized (face coordinates always are). */
static inline int addressed_coords(const ptx_tex_desc *d, int cube, float *x, float *y, float *z) {
  if (cube) return 1;
  *x = wrap_coord(d, 0, *x);
  *y = wrap_coord(d, 1, *y);
  *z = wrap_coord(d, 2, *z);
  return (d->flags & PTX_TEX_FLAG_NORMALIZED_COORDS) != 0;
}

static float border(const ptx_tex_desc *d, uint32_t c) { return d->border_color[c & 3u]; }

/* Value of channel c at integer texel (i,j,k) after addressing, as a bit
 * pattern (float bits when as_float). */
static uint32_t texel(const ptx_tex_desc *d, uint32_t dims, int32_t i, int32_t j, int32_t k,
                      uint32_t c, int as_float) {
  int32_t ai = address_index(d, 0, i);
  int32_t aj = dims > 1 ? address_index(d, 1, j) : 0;
  int32_t ak = dims > 2 ? address_index(d, 2, k) : k; /* 1D/2D: k is the layer (arrays, cube faces) */
  if (ai < 0 || aj < 0 || ak < 0)
    return as_float ? __builtin_bit_cast(uint32_t, border(d, c)) : 0u;
  return channel(d, ai, aj, ak, c, as_float);
}

/* Which part of the weight a footprint contributes when a linear mip filter blends two levels
 * with fraction f: all of it, the lower level's 256 - f or the upper level's f (1D/2D:
 * ptx_texm_level_weights2; 3D: ptx_texm_level_weights3; a point-filtered texel: part_of). */
enum { PART_WHOLE = 0, PART_LOW = 1, PART_HIGH = 2 };
static uint32_t part_of(uint32_t w, uint32_t part, uint32_t f) {
  if (part == PART_WHOLE) return w;
  uint32_t hi = ptx_texm_split_hi(w, f);
  return part == PART_HIGH ? hi : w - hi;
}

/* How a footprint's texels are blended (texture_model.h): as fp32 values; as the integers of
 * 8/16-bit unsigned normalized channels (then read as a 16-bit unsigned normalized value,
 * ptx_texm_unorm16) or of signed normalized ones (a 16-bit signed normalized value,
 * ptx_texm_snorm16); or as half values aligned to the largest one (ptx_texm_half_align, rounded
 * to half precision by ptx_texm_round_half). sRGB textures and point filtering keep the fp32 blend
 * (for one texel all of them give the texel's value, except a normalized border colour). */
enum { BLEND_FLOAT = 0, BLEND_UNORM = 1, BLEND_HALF = 2, BLEND_SNORM = 3 };
static uint32_t blend_kind(const ptx_tex_desc *d) {
  if (d->filter == PTX_TEX_FILTER_POINT) return BLEND_FLOAT; /* one texel (or a point-filtered mip blend,
                                                                not measured): as read */
  if (d->kind == PTX_TEX_KIND_FLOAT && d->bits == 16) return BLEND_HALF;
  if (d->kind == PTX_TEX_KIND_UNSIGNED && d->read_mode == PTX_TEX_READ_NORMALIZED && d->bits < 32 &&
      !(d->flags & PTX_TEX_FLAG_SRGB))
    return BLEND_UNORM;
  if (d->kind == PTX_TEX_KIND_SIGNED && d->read_mode == PTX_TEX_READ_NORMALIZED && d->bits < 32)
    return BLEND_SNORM;
  return BLEND_FLOAT;
}

/* A texel as the blend takes it: its float value, or for BLEND_UNORM / BLEND_SNORM the stored
 * integer (signed for SNORM; a border texel: the border colour times 2^bits - 1 or
 * 2^(bits-1) - 1, not measured). */
static float blend_texel(const ptx_tex_desc *d, uint32_t dims, int32_t i, int32_t j, int32_t k, uint32_t comp,
                         uint32_t kind) {
  if (kind != BLEND_UNORM && kind != BLEND_SNORM) return __builtin_bit_cast(float, texel(d, dims, i, j, k, comp, 1));
  if (address_index(d, 0, i) < 0 || (dims > 1 && address_index(d, 1, j) < 0) || (dims > 2 && address_index(d, 2, k) < 0)) {
    if (kind == BLEND_SNORM) return border(d, comp) * (d->bits == 8 ? 127.0f : 32767.0f);
    return border(d, comp) * (d->bits == 8 ? 255.0f : 65535.0f);
  }
  uint32_t raw = texel(d, dims, i, j, k, comp, 0); /* sign-extended by channel() for signed kinds */
  return kind == BLEND_SNORM ? (float)(int32_t)raw : (float)raw;
}

/* The filtered value of a blend sum(weight * texel) (weights in 1/256) as fp32. */
static float blend_result(const ptx_tex_desc *d, double acc) {
  uint32_t kind = blend_kind(d);
  if (kind == BLEND_UNORM) return ptx_texm_unorm16((uint64_t)acc, d->bits);
  if (kind == BLEND_SNORM) return ptx_texm_snorm16((int64_t)acc, d->bits);
  if (kind == BLEND_HALF) return ptx_texm_round_half(acc, 8u);
  return ptx_texm_round(acc, 8u);
}

/* The weighted texels of one sample of a 1D/2D/3D resource, or of layer `layer` of a 1D/2D
 * array or cube (dims 1/2; layer < 0: not layered), filtered as the descriptor says: returns
 * sum(weight * texel) with integer weights in 1/256 (texture_model.h), the `part` of each for
 * a mip blend with fraction f. Coordinates as in __ptx_tex; `cube` means face coordinates
 * (s, t) in [0,1], scaled by the face width whatever the normalized-coordinates flag. Point
 * filtering takes one texel with the whole weight. (Straight-line code on purpose: indexing
 * arrays by a loop variable makes LLVM use relative register moves.) Not inlined: one copy
 * serves every sampler entry point and level (inlined, one __ptx_tex_lod held 12,600 gfx1100
 * instructions; the samplers themselves stay calls too, Devlib.cpp). */
__attribute__((noinline)) static double footprint(const ptx_tex_desc *d, uint32_t dims, float x, float y,
                                                       float z, int32_t layer, int cube, uint32_t comp,
                                                       uint32_t part, uint32_t f) {
  int32_t k0 = layer >= 0 ? layer : 0;
  int norm = addressed_coords(d, cube, &x, &y, &z);
  if (d->filter == PTX_TEX_FILTER_POINT) {
    int32_t i = ptx_texm_point_index(x, extent(d, 0), norm);
    int32_t j = dims > 1 ? ptx_texm_point_index(y, extent(d, 1), norm) : 0;
    int32_t k = dims > 2 ? ptx_texm_point_index(z, extent(d, 2), norm) : k0;
    return ptx_texm_accumulate(0.0, part_of(256u, part, f), blend_texel(d, dims, i, j, k, comp, blend_kind(d)));
  }
  ptx_texm_tap tx = ptx_texm_linear_tap(x, extent(d, 0), norm);
  ptx_texm_tap ty = {0, 0u}, tz = {k0, 0u};
  if (dims > 1) ty = ptx_texm_linear_tap(y, extent(d, 1), norm);
  if (dims > 2) tz = ptx_texm_linear_tap(z, extent(d, 2), norm);
  if (!cube) { /* clamp-to-edge taps at an edge (texture_model.h); cube faces keep theirs */
    if (clamps(d, 0)) tx = ptx_texm_clamp_tap(tx, extent(d, 0));
    if (dims > 1 && clamps(d, 1)) ty = ptx_texm_clamp_tap(ty, extent(d, 1));
    if (dims > 2 && clamps(d, 2)) tz = ptx_texm_clamp_tap(tz, extent(d, 2));
  }
  /* 1D: (256 - a, a); 2D: ptx_texm_weights2(a, b); 3D: ptx_texm_weights3(a, b, c);
   * one level of a mip blend: ptx_texm_level_weights2 (1D/2D) / ptx_texm_level_weights3 (3D) */
  ptx_texm_w2 w = part != PART_WHOLE && dims <= 2
                      ? ptx_texm_level_weights2(tx.w, dims > 1 ? ty.w : 0u, part == PART_HIGH ? f : 256u - f)
                      : ptx_texm_weights2(tx.w, dims > 1 ? ty.w : 0u);
  ptx_texm_w3 w3 = ptx_texm_level_weights3(tx.w, ty.w, tz.w,
                                           part == PART_WHOLE ? 256u : part == PART_HIGH ? f : 256u - f);
  double acc = 0.0;
  uint32_t nz = dims > 2 ? 2 : 1, ny = dims > 1 ? 2 : 1, kind = blend_kind(d);
  /* half and fp32 texels: a first pass finds the largest exponent of the texels of nonzero weight,
   * per z slab (a 3D footprint aligns each slab to its own largest texel: H200 tex_weights3_probe
   * f3n, fp32, 2044 / 2046 of 2048 on seeds 1 and 2; one exponent for all 8 texels: 1818 / 1846) */
  int32_t emax0 = -127, emax1 = -127;
  for (uint32_t pass = kind == BLEND_HALF || kind == BLEND_FLOAT ? 0u : 1u; pass < 2u; ++pass)
  for (uint32_t dz = 0; dz < nz; ++dz)
    for (uint32_t dy = 0; dy < ny; ++dy)
      for (uint32_t dx = 0; dx < 2; ++dx) {
        uint32_t wt;
        if (dims > 2) {
          ptx_texm_w2 s = dz ? w3.z1 : w3.z0;
          wt = dx ? (dy ? s.w11 : s.w10) : (dy ? s.w01 : s.w00);
        } else {
          wt = dx ? (dy ? w.w11 : w.w10) : (dy ? w.w01 : w.w00);
        }
        if (wt == 0u) continue;
        float v = blend_texel(d, dims, tx.i + (int32_t)dx, ty.i + (int32_t)dy, tz.i + (int32_t)dz, comp, kind);
        if (pass == 0u) {
          int32_t e = ptx_texm_exponent(v);
          if (v != 0.0f && dz == 0u && e > emax0) emax0 = e;
          if (v != 0.0f && dz != 0u && e > emax1) emax1 = e;
          continue;
        }
        int32_t emax = dz ? emax1 : emax0;
        if (kind == BLEND_HALF && emax > -127) v = ptx_texm_half_align(v, emax);
        if (kind == BLEND_FLOAT && emax > -127) v = ptx_texm_float_align(v, emax);
        acc = ptx_texm_accumulate(acc, wt, v);
      }
  return acc;
}

/* Linear filtering of element-type integer reads (driver API: CU_TRSF_READ_AS_INTEGER with
 * CU_TR_FILTER_MODE_LINEAR; cudaCreateTextureObject refuses it). The taps are the float path's
 * (texture_model.h), but the texels are blended with the exact products of the axis weights
 * (1/256 per axis), then rounded half up for 8- and 16-bit channels and toward -infinity for
 * 32-bit ones: the H200's results for all six integer formats, 1D and 2D
 * (tests/driver/golden/drv_tex_int.out); 3D follows the same rule (not recorded). */
static uint32_t sample_int_linear(const ptx_tex_desc *d, uint32_t dims, float x, float y, float z,
                                  int32_t layer, int cube, uint32_t comp) {
  int32_t k0 = layer >= 0 ? layer : 0;
  int norm = addressed_coords(d, cube, &x, &y, &z);
  ptx_texm_tap t[3] = {ptx_texm_linear_tap(x, extent(d, 0), norm), {0, 0u}, {k0, 0u}};
  if (dims > 1) t[1] = ptx_texm_linear_tap(y, extent(d, 1), norm);
  if (dims > 2) t[2] = ptx_texm_linear_tap(z, extent(d, 2), norm);
  int sgn = d->kind == PTX_TEX_KIND_SIGNED;
  int64_t acc = 0;
  uint32_t nz = dims > 2 ? 2 : 1, ny = dims > 1 ? 2 : 1;
  for (uint32_t dz = 0; dz < nz; ++dz)
    for (uint32_t dy = 0; dy < ny; ++dy)
      for (uint32_t dx = 0; dx < 2; ++dx) {
        int64_t wt = dx ? t[0].w : 256 - t[0].w;
        if (dims > 1) wt *= dy ? t[1].w : 256 - t[1].w;
        if (dims > 2) wt *= dz ? t[2].w : 256 - t[2].w;
        uint32_t v = texel(d, dims, t[0].i + (int32_t)dx, t[1].i + (int32_t)dy, t[2].i + (int32_t)dz, comp, 0);
        acc += wt * (sgn ? (int64_t)(int32_t)v : (int64_t)v);
      }
  uint32_t shift = 8u * dims;
  if (d->bits < 32) acc += (int64_t)1 << (shift - 1);
  return (uint32_t)(acc >> shift);
}

/* Integer coordinates, or an element-type integer read: the texel itself, unfiltered. */
static uint32_t unfiltered(const ptx_tex_desc *d, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb,
                           int32_t layer, int cube, uint32_t float_coords, uint32_t float_result,
                           uint32_t comp) {
  int32_t k0 = layer >= 0 ? layer : 0;
  if (!float_coords)
    return texel(d, dims, (int32_t)xb, (int32_t)yb, layer >= 0 ? k0 : (int32_t)zb, comp, float_result != 0);
  float x = __builtin_bit_cast(float, xb), y = __builtin_bit_cast(float, yb), z = __builtin_bit_cast(float, zb);
  int norm = addressed_coords(d, cube, &x, &y, &z);
  int32_t i = ptx_texm_point_index(x, extent(d, 0), norm);
  int32_t j = dims > 1 ? ptx_texm_point_index(y, extent(d, 1), norm) : 0;
  int32_t k = dims > 2 ? ptx_texm_point_index(z, extent(d, 2), norm) : k0;
  return texel(d, dims, i, j, k, comp, float_result != 0);
}

/* One sample of level 0 (see footprint()). */
__attribute__((always_inline)) static uint32_t sample(const ptx_tex_desc *d, uint32_t dims, uint32_t xb,
                                                     uint32_t yb, uint32_t zb, int32_t layer, int cube,
                                                     uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  if (float_coords && !float_result && d->filter == PTX_TEX_FILTER_LINEAR)
    return sample_int_linear(d, dims, __builtin_bit_cast(float, xb), __builtin_bit_cast(float, yb),
                             __builtin_bit_cast(float, zb), layer, cube, comp);
  if (!float_coords || !float_result)
    return unfiltered(d, dims, xb, yb, zb, layer, cube, float_coords, float_result, comp);
  double acc = footprint(d, dims, __builtin_bit_cast(float, xb), __builtin_bit_cast(float, yb),
                         __builtin_bit_cast(float, zb), layer, cube, comp, PART_WHOLE, 0u);
  return __builtin_bit_cast(uint32_t, blend_result(d, acc));
}

/* The descriptor of level `lvl` of a mipmapped resource: that level's base / pitch / extent. */
static ptx_tex_desc level_desc(const ptx_tex_desc *d, uint32_t lvl) {
  ptx_tex_desc c = *d;
  if (lvl == 0 || d->num_levels <= 1) return c;
  const ptx_tex_level *L = (const ptx_tex_level *)(uintptr_t)d->levels + lvl;
  c.base = L->base;
  c.pitch = L->pitch;
  c.width = L->width;
  c.height = L->height;
  c.depth = L->depth;
  return c;
}

/* Sampling at level of detail `lod256` (fixed point, desc_lod256): the nearest level
 * (point mip filter) or the two neighbours weighted by the LOD's fraction, all texels of both
 * levels summed at once. */
__attribute__((always_inline)) static uint32_t sample_lod256(const ptx_tex_desc *d, int32_t lod256, uint32_t dims,
                                                            uint32_t xb, uint32_t yb, uint32_t zb, int32_t layer,
                                                            int cube, uint32_t float_coords, uint32_t float_result,
                                                            uint32_t comp) {
  if (d->num_levels <= 1) return sample(d, dims, xb, yb, zb, layer, cube, float_coords, float_result, comp);
  if (d->mip_filter == PTX_TEX_FILTER_POINT || !float_result || !float_coords) {
    ptx_tex_desc c = level_desc(d, ptx_texm_nearest_level(lod256));
    return sample(&c, dims, xb, yb, zb, layer, cube, float_coords, float_result, comp);
  }
  uint32_t l0 = (uint32_t)(lod256 >> 8), f = (uint32_t)lod256 & 255u;
  float x = __builtin_bit_cast(float, xb), y = __builtin_bit_cast(float, yb), z = __builtin_bit_cast(float, zb);
  ptx_tex_desc a = level_desc(d, l0);
  if (f == 0u || l0 + 1 >= d->num_levels)
    return __builtin_bit_cast(uint32_t, blend_result(d, footprint(&a, dims, x, y, z, layer, cube, comp, PART_WHOLE, 0u)));
  ptx_tex_desc b = level_desc(d, l0 + 1);
  double acc = footprint(&a, dims, x, y, z, layer, cube, comp, PART_LOW, f) +
               footprint(&b, dims, x, y, z, layer, cube, comp, PART_HIGH, f);
  return __builtin_bit_cast(uint32_t, blend_result(d, acc));
}

/* A LOD (8 fractional bits, before bias) after the descriptor's bias and clamps. */
static int32_t desc_lod256(const ptx_tex_desc *d, int32_t lod256) {
  return ptx_texm_clamp_lod256(lod256, d->lod_bias, d->min_lod, d->max_lod, d->num_levels > 1 ? d->num_levels : 1u);
}

uint32_t __ptx_tex(uint64_t h, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb,
                   uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = desc_of(h);
  return sample_lod256(d, desc_lod256(d, 0), dims, xb, yb, zb, -1, 0, float_coords, float_result, comp);
}

uint32_t __ptx_tex_lod(uint64_t h, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t lod,
                       uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = desc_of(h);
  return sample_lod256(d, desc_lod256(d, ptx_texm_fixed8(__builtin_bit_cast(float, lod))), dims, xb, yb, zb, -1, 0,
                       float_coords, float_result, comp);
}

/* tex.grad: the LOD of the derivative vectors in level-0 texels (normalized coordinates
 * scaled by the extent), as texture_model.h computes it. */
static int32_t grad_lod256(const ptx_tex_desc *d, uint32_t dims, uint32_t dx0, uint32_t dx1, uint32_t dx2, uint32_t dy0,
                           uint32_t dy1, uint32_t dy2) {
  int norm = (d->flags & PTX_TEX_FLAG_NORMALIZED_COORDS) != 0;
  float s0 = norm ? (float)extent(d, 0) : 1.0f, s1 = norm ? (float)extent(d, 1) : 1.0f,
        s2 = norm ? (float)extent(d, 2) : 1.0f;
  float ax = __builtin_fabsf(__builtin_bit_cast(float, dx0) * s0), bx = __builtin_fabsf(__builtin_bit_cast(float, dy0) * s0);
  float ay = dims > 1 ? __builtin_fabsf(__builtin_bit_cast(float, dx1) * s1) : 0.0f;
  float by = dims > 1 ? __builtin_fabsf(__builtin_bit_cast(float, dy1) * s1) : 0.0f;
  float az = dims > 2 ? __builtin_fabsf(__builtin_bit_cast(float, dx2) * s2) : 0.0f;
  float bz = dims > 2 ? __builtin_fabsf(__builtin_bit_cast(float, dy2) * s2) : 0.0f;
  return ptx_texm_grad_lod256(ptx_texm_grad_length(ax, ay, az), ptx_texm_grad_length(bx, by, bz));
}
uint32_t __ptx_tex_grad(uint64_t h, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t dx0, uint32_t dx1,
                        uint32_t dx2, uint32_t dy0, uint32_t dy1, uint32_t dy2, uint32_t float_coords,
                        uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = desc_of(h);
  int32_t lod = grad_lod256(d, dims, dx0, dx1, dx2, dy0, dy1, dy2);
  return sample_lod256(d, desc_lod256(d, lod), dims, xb, yb, zb, -1, 0, float_coords, float_result, comp);
}

/* The layer of an array access: the index clamped to [0, layers-1] as an unsigned value
 * (the H200 reads the last layer for -1 and for indices past the end). */
static int32_t clamp_layer(const ptx_tex_desc *d, uint32_t layer, uint32_t per) {
  uint32_t n = d->layers / per;
  if (n == 0) __builtin_trap();
  return (int32_t)(layer >= n ? n - 1 : layer);
}

/* The descriptor of an a1d / a2d access (traps on another kind of resource). */
static const ptx_tex_desc *layered_desc(uint64_t h, uint32_t dims) {
  const ptx_tex_desc *d = desc_of(h);
  uint8_t want = dims == 1 ? PTX_TEX_GEOM_1D_ARRAY : PTX_TEX_GEOM_2D_ARRAY;
  if (d->geometry != want) __builtin_trap();
  return d;
}

/* tex.a1d / a2d (LOD 0), tex.level.a1d / a2d and tex.grad.a1d / a2d (mipmapped layered arrays:
 * the LOD as for 1D / 2D textures). */
uint32_t __ptx_tex_layered(uint64_t h, uint32_t dims, uint32_t layer, uint32_t xb, uint32_t yb,
                           uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = layered_desc(h, dims);
  return sample_lod256(d, desc_lod256(d, 0), dims, xb, yb, 0u, clamp_layer(d, layer, 1u), 0, float_coords, float_result,
                       comp);
}
uint32_t __ptx_tex_layered_lod(uint64_t h, uint32_t dims, uint32_t layer, uint32_t xb, uint32_t yb, uint32_t lod,
                               uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = layered_desc(h, dims);
  return sample_lod256(d, desc_lod256(d, ptx_texm_fixed8(__builtin_bit_cast(float, lod))), dims, xb, yb, 0u,
                       clamp_layer(d, layer, 1u), 0, float_coords, float_result, comp);
}
uint32_t __ptx_tex_layered_grad(uint64_t h, uint32_t dims, uint32_t layer, uint32_t xb, uint32_t yb, uint32_t dx0,
                                uint32_t dx1, uint32_t dy0, uint32_t dy1, uint32_t float_coords, uint32_t float_result,
                                uint32_t comp) {
  const ptx_tex_desc *d = layered_desc(h, dims);
  int32_t lod = grad_lod256(d, dims, dx0, dx1, 0u, dy0, dy1, 0u);
  return sample_lod256(d, desc_lod256(d, lod), dims, xb, yb, 0u, clamp_layer(d, layer, 1u), 0, float_coords,
                       float_result, comp);
}

/* Cube maps: the face is the major axis of the direction (x, y, z), ties going to z, then y
 * (as the H200 resolves them), and (s, t) follow the CUDA programming guide's table; a zero
 * direction reads the centre of face +z (H200). Cube `cube` of a layered cube map is layers
 * 6*cube .. 6*cube+5. */
typedef struct cube_coords {
  uint32_t face, major, si, ti; /* the face, the major axis and the axes of sc and tc */
  float s, t, m, ssign, tsign, msign; /* face coordinates, |major|, sc = ssign * P[si], ... */
} cube_coords;
static cube_coords cube_face(float x, float y, float z) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y), az = __builtin_fabsf(z);
  cube_coords c;
  if (az >= ax && az >= ay) {
    c.m = az; c.major = 2; c.si = 0; c.ti = 1; c.tsign = -1.0f;
    if (z >= 0.0f) { c.face = 4; c.ssign = 1.0f; c.msign = 1.0f; } else { c.face = 5; c.ssign = -1.0f; c.msign = -1.0f; }
  } else if (ay >= ax) {
    c.m = ay; c.major = 1; c.si = 0; c.ti = 2; c.ssign = 1.0f;
    if (y > 0.0f) { c.face = 2; c.tsign = 1.0f; c.msign = 1.0f; } else { c.face = 3; c.tsign = -1.0f; c.msign = -1.0f; }
  } else {
    c.m = ax; c.major = 0; c.si = 2; c.ti = 1; c.tsign = -1.0f;
    if (x > 0.0f) { c.face = 0; c.ssign = -1.0f; c.msign = 1.0f; } else { c.face = 1; c.ssign = 1.0f; c.msign = -1.0f; }
  }
  float p[3] = {x, y, z};
  float sc = c.ssign * p[c.si], tc = c.tsign * p[c.ti];
  c.s = 0.5f;
  c.t = 0.5f;
  if (c.m > 0.0f) { c.s = (sc / c.m + 1.0f) * 0.5f; c.t = (tc / c.m + 1.0f) * 0.5f; }
  return c;
}
static uint32_t sample_cube(const ptx_tex_desc *d, uint32_t cube, cube_coords c, int32_t lod256, uint32_t float_result,
                            uint32_t comp) {
  int32_t layer = clamp_layer(d, cube, 6u) * 6 + (int32_t)c.face;
  return sample_lod256(d, lod256, 2, __builtin_bit_cast(uint32_t, c.s), __builtin_bit_cast(uint32_t, c.t), 0u, layer, 1,
                       1u, float_result, comp);
}
static const ptx_tex_desc *cube_desc(uint64_t h) {
  const ptx_tex_desc *d = desc_of(h);
  if (d->geometry != PTX_TEX_GEOM_CUBE) __builtin_trap();
  return d;
}
uint32_t __ptx_tex_cube(uint64_t h, uint32_t cube, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t float_result,
                        uint32_t comp) {
  const ptx_tex_desc *d = cube_desc(h);
  cube_coords c = cube_face(__builtin_bit_cast(float, xb), __builtin_bit_cast(float, yb), __builtin_bit_cast(float, zb));
  return sample_cube(d, cube, c, desc_lod256(d, 0), float_result, comp);
}
/* tex.level.cube / acube: the LOD as for 1D-3D textures (H200, tex_weights2_probe gcubel: 2048 of
 * 2048, seeds 1 and 2). */
uint32_t __ptx_tex_cube_lod(uint64_t h, uint32_t cube, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t lod,
                            uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = cube_desc(h);
  cube_coords c = cube_face(__builtin_bit_cast(float, xb), __builtin_bit_cast(float, yb), __builtin_bit_cast(float, zb));
  return sample_cube(d, cube, c, desc_lod256(d, ptx_texm_fixed8(__builtin_bit_cast(float, lod))), float_result, comp);
}
/* tex.grad.cube / acube: each 3D gradient g becomes a difference of face coordinates, the
 * point P + g projected onto P's face minus P's (sc' / m' - sc / m, halved for (s, t), in face
 * texels), and the LOD of the two differences as for 2D. H200, tex_weights3_probe gcubea (one
 * gradient component, face-centre directions) and gcube1 (random directions and gradients, dy = 0):
 * within 0.03 of a level in 1629 of 1647 / 2259 of 3189 unclamped samples where P + g stays on the
 * face's side with m' >= 0.3 m (the analytic derivative (dsc m - sc dm) / m^2: ~10% of gcube1);
 * where m' is smaller the H200's LOD grows more slowly than this (not fitted), and where P + g
 * crosses the face plane (m' <= 0) the analytic derivative is used. Not bit-exact: the probes'
 * gcube groups stay bounded. */
uint32_t __ptx_tex_cube_grad(uint64_t h, uint32_t cube, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t dx0, uint32_t dx1,
                             uint32_t dx2, uint32_t dy0, uint32_t dy1, uint32_t dy2, uint32_t float_result,
                             uint32_t comp) {
  const ptx_tex_desc *d = cube_desc(h);
  float p[3] = {__builtin_bit_cast(float, xb), __builtin_bit_cast(float, yb), __builtin_bit_cast(float, zb)};
  cube_coords c = cube_face(p[0], p[1], p[2]);
  float g[2][3] = {{__builtin_bit_cast(float, dx0), __builtin_bit_cast(float, dx1), __builtin_bit_cast(float, dx2)},
                   {__builtin_bit_cast(float, dy0), __builtin_bit_cast(float, dy1), __builtin_bit_cast(float, dy2)}};
  float w = (float)extent(d, 0), len[2];
  for (uint32_t k = 0; k < 2; ++k) {
    float sc = c.ssign * p[c.si], tc = c.tsign * p[c.ti], m = c.m, dm = c.msign * g[k][c.major];
    float ds = 0.0f, dt = 0.0f;
    if (m > 0.0f && m + dm > 0.0f) {
      float m2 = m + dm, sc2 = sc + c.ssign * g[k][c.si], tc2 = tc + c.tsign * g[k][c.ti];
      ds = (sc2 / m2 - sc / m) * 0.5f * w;
      dt = (tc2 / m2 - tc / m) * 0.5f * w;
    } else if (m > 0.0f) {
      ds = (c.ssign * g[k][c.si] * m - sc * dm) / (2.0f * m * m) * w;
      dt = (c.tsign * g[k][c.ti] * m - tc * dm) / (2.0f * m * m) * w;
    }
    len[k] = (float)ptx_texm_grad_length(__builtin_fabsf(ds), __builtin_fabsf(dt), 0.0f);
  }
  return sample_cube(d, cube, c, desc_lod256(d, ptx_texm_grad_lod256(len[0], len[1])), float_result, comp);
}

/* Address of a `bytes`-wide surface access at byte x, row y, slice z;
 * mode 0 = .trap, 1 = .clamp, 2 = .zero (returns 0 when out of range). */
uint64_t __ptx_surf_addr(uint64_t h, uint32_t dims, uint32_t x, uint32_t y, uint32_t z,
                         uint32_t bytes, uint32_t mode) {
  const ptx_tex_desc *d = desc_of(h);
  int64_t rowBytes = (int64_t)d->width * elem_size(d);
  int64_t c[3] = {(int32_t)x, dims > 1 ? (int32_t)y : 0, dims > 2 ? (int32_t)z : 0};
  int64_t lim[3] = {rowBytes - (int64_t)bytes, (int64_t)d->height - 1, (int64_t)d->depth - 1};
  for (uint32_t k = 0; k < 3; ++k) {
    if (c[k] >= 0 && c[k] <= lim[k]) continue;
    if (mode == 0u) __builtin_trap();
    if (mode == 2u) return 0ull;
    c[k] = c[k] < 0 ? 0 : lim[k];
  }
  uint64_t slice = d->pitch * (uint64_t)d->height;
  return d->base + (uint64_t)c[2] * slice + (uint64_t)c[1] * d->pitch + (uint64_t)c[0];
}
