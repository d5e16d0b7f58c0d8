/*===- texture.c - tex / suld / sust on ptx_tex_desc objects ---------------===*
 *
 * Texture and surface handles are generic addresses of a ptx_tex_desc
 * (ptx_texture.h). Sampling follows the CUDA C Programming Guide, "Texture
 * Fetching" appendix: normalized coordinates are scaled by the extent;
 * wrap / mirror act on normalized coordinates, clamp / border on texel
 * indices; nearest-point sampling takes texel floor(x); linear filtering
 * uses xB = x - 0.5, i = floor(xB) and the weight alpha = frac(xB) held in
 * 9-bit fixed point (8 fractional bits, rounded), as NVIDIA hardware does.
 * cudaReadModeNormalizedFloat maps 8/16-bit integers to [0,1] / [-1,1];
 * half-float texels read as float. Element-type integer reads are filtered
 * too when the descriptor asks for it (only the driver API creates such
 * objects): the integers are blended exactly with the same weights and
 * rounded half up (8/16-bit channels) or toward -infinity (32-bit), as the
 * H200 does. Channels beyond the format's count read 0. Results are returned one component at a time as 32-bit patterns (the
 * devlib ABI has no aggregates): float bits for float reads, the integer
 * for element-type integer reads.
 * Arrays (tex.a1d / a2d) read one layer, cubes (tex.cube / acube) pick a face and
 * face coordinates from a direction; explicit LOD / gradients (tex.level / tex.grad)
 * sample level 0, the only level of the resources the runtime creates (mipmapped
 * arrays are refused there).
 * Surfaces (suld.b / sust.b): x is a byte offset, y a row, z a slice; an
 * out-of-range access traps (.trap), is clamped to the last valid position
 * (.clamp) or reads zero / is dropped (.zero, signalled by address 0).
 *===----------------------------------------------------------------------===*/
#include "wave.h"
#include "ptx_texture.h"

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

/* Coordinate along dim in texel units (normalized coords scaled; wrap and
 * mirror applied to the normalized value as the guide specifies). */
static float texel_coord(const ptx_tex_desc *d, uint32_t dim, float x) {
  if (!(d->flags & PTX_TEX_FLAG_NORMALIZED_COORDS)) return x;
  uint8_t mode = d->address[dim];
  if (mode == PTX_TEX_ADDR_WRAP) x = x - __builtin_floorf(x);
  else if (mode == PTX_TEX_ADDR_MIRROR) {
    float f = __builtin_floorf(x), fr = x - f;
    x = ((int64_t)f & 1) ? 1.0f - fr : fr;
  }
  return x * (float)extent(d, dim);
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

static float weight9(float f) { return __builtin_rintf(f * 256.0f) / 256.0f; }

/* Linear filtering of element-type integer reads at texel coordinates c (driver API:
 * CU_TRSF_READ_AS_INTEGER with CU_TR_FILTER_MODE_LINEAR; cudaCreateTextureObject refuses
 * it). The texels are blended with the 9-bit weights in exact integer arithmetic (the
 * weights in 1/256 steps), then rounded half up for 8- and 16-bit channels and toward
 * -infinity for 32-bit ones: the H200's results for all six integer formats, 1D and 2D
 * (tests/driver/golden/drv_tex_int.out); 3D follows the same rule (not recorded). */
static uint32_t sample_int_linear(const ptx_tex_desc *d, uint32_t dims, const float *c, int32_t k0,
                                  uint32_t comp) {
  int32_t i0[3] = {0, 0, k0};
  int64_t w[3] = {0, 0, 0};
  for (uint32_t k = 0; k < dims; ++k) {
    float xB = c[k] - 0.5f, fl = __builtin_floorf(xB);
    i0[k] = (int32_t)fl;
    w[k] = (int64_t)__builtin_rintf((xB - fl) * 256.0f);
  }
  int sgn = d->kind == PTX_TEX_KIND_SIGNED;
  int64_t acc = 0;
  uint32_t nz = dims > 2 ? 2 : 1, ny = dims > 1 ? 2 : 1;
  for (uint32_t dz = 0; dz < nz; ++dz)
    for (uint32_t dy = 0; dy < ny; ++dy)
      for (uint32_t dx = 0; dx < 2; ++dx) {
        int64_t wt = dx ? w[0] : 256 - w[0];
        if (dims > 1) wt *= dy ? w[1] : 256 - w[1];
        if (dims > 2) wt *= dz ? w[2] : 256 - w[2];
        uint32_t t = texel(d, dims, i0[0] + (int32_t)dx, i0[1] + (int32_t)dy, i0[2] + (int32_t)dz, comp, 0);
        acc += wt * (sgn ? (int64_t)(int32_t)t : (int64_t)t);
      }
  uint32_t shift = 8u * dims;
  if (d->bits < 32) acc += (int64_t)1 << (shift - 1);
  return (uint32_t)(acc >> shift);
}

/* One sample of a 1D/2D/3D resource, or of layer `layer` of a 1D/2D array or cube
 * (dims 1/2; layer < 0: not layered). Coordinates as in __ptx_tex; `cube` means the
 * coordinates are face coordinates (s, t) in [0,1], scaled by the face width whatever the
 * normalized-coordinates flag, clamped to the face. */
__attribute__((always_inline)) static uint32_t sample(const ptx_tex_desc *d, uint32_t dims, uint32_t xb,
                                                     uint32_t yb, uint32_t zb,
                       int32_t layer, int cube, uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  if (d->flags & PTX_TEX_FLAG_SRGB) __builtin_trap();
  int as_float = float_result != 0;
  int32_t k0 = layer >= 0 ? layer : 0;
  if (!float_coords) /* integer coordinates: point sampling at the texel */
    return texel(d, dims, (int32_t)xb, (int32_t)yb, layer >= 0 ? k0 : (int32_t)zb, comp, as_float);
  float c[3] = {__builtin_bit_cast(float, xb), __builtin_bit_cast(float, yb),
                __builtin_bit_cast(float, zb)};
  for (uint32_t k = 0; k < dims; ++k) c[k] = cube ? c[k] * (float)extent(d, k) : texel_coord(d, k, c[k]);
  if (d->filter == PTX_TEX_FILTER_LINEAR && !as_float) return sample_int_linear(d, dims, c, k0, comp);
  if (d->filter == PTX_TEX_FILTER_POINT) {
    int32_t i[3] = {0, 0, k0};
    for (uint32_t k = 0; k < dims; ++k) i[k] = (int32_t)__builtin_floorf(c[k]);
    return texel(d, dims, i[0], i[1], i[2], comp, as_float);
  }
  int32_t i0[3] = {0, 0, k0};
  float w[3] = {0.0f, 0.0f, 0.0f};
  for (uint32_t k = 0; k < dims; ++k) {
    float xB = c[k] - 0.5f, fl = __builtin_floorf(xB);
    i0[k] = (int32_t)fl;
    w[k] = weight9(xB - fl);
  }
  float acc = 0.0f;
  uint32_t nz = dims > 2 ? 2 : 1, ny = dims > 1 ? 2 : 1;
  for (uint32_t dz = 0; dz < nz; ++dz)
    for (uint32_t dy = 0; dy < ny; ++dy)
      for (uint32_t dx = 0; dx < 2; ++dx) {
        float wt = (dx ? w[0] : 1.0f - w[0]);
        if (dims > 1) wt *= (dy ? w[1] : 1.0f - w[1]);
        if (dims > 2) wt *= (dz ? w[2] : 1.0f - w[2]);
        float v = __builtin_bit_cast(float, texel(d, dims, i0[0] + (int32_t)dx, i0[1] + (int32_t)dy,
                                                  i0[2] + (int32_t)dz, comp, 1));
        acc += wt * v;
      }
  return __builtin_bit_cast(uint32_t, acc);
}

/* Level `lvl` of a mipmapped resource: the descriptor with that level's base / pitch / extent. */
__attribute__((always_inline)) static uint32_t sample_level(const ptx_tex_desc *d, uint32_t lvl, uint32_t dims,
                                                           uint32_t xb, uint32_t yb, uint32_t zb,
                                                           uint32_t float_coords, uint32_t float_result,
                                                           uint32_t comp) {
  if (lvl == 0 || d->num_levels <= 1) return sample(d, dims, xb, yb, zb, -1, 0, float_coords, float_result, comp);
  const ptx_tex_level *L = (const ptx_tex_level *)(uintptr_t)d->levels + lvl;
  ptx_tex_desc c = *d;
  c.base = L->base;
  c.pitch = L->pitch;
  c.width = L->width;
  c.height = L->height;
  c.depth = L->depth;
  return sample(&c, dims, xb, yb, zb, -1, 0, float_coords, float_result, comp);
}

/* Sampling at level of detail `lod`: bias, then clamped to [min_lod, max_lod] and to the
 * levels present; nearest level (point mip filter) or a blend of the two neighbours. */
__attribute__((always_inline)) static uint32_t sample_lod(const ptx_tex_desc *d, float lod, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb,
                           uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  if (d->num_levels <= 1) return sample(d, dims, xb, yb, zb, -1, 0, float_coords, float_result, comp);
  lod += d->lod_bias;
  lod = __builtin_fminf(__builtin_fmaxf(lod, d->min_lod), d->max_lod);
  lod = __builtin_fminf(__builtin_fmaxf(lod, 0.0f), (float)(d->num_levels - 1));
  if (d->mip_filter == PTX_TEX_FILTER_POINT || !float_result)
    return sample_level(d, (uint32_t)__builtin_floorf(lod + 0.5f), dims, xb, yb, zb, float_coords, float_result, comp);
  uint32_t l0 = (uint32_t)__builtin_floorf(lod);
  /* the blend weight in 8 fractional bits, rounded (tex_layered_cube mip.lod.pl equals the H200;
   * for gradient-derived LODs the H200's weight is off by one 1/256 step in 1 of 3 samples) */
  float f = weight9(lod - (float)l0);
  float a = __builtin_bit_cast(float, sample_level(d, l0, dims, xb, yb, zb, float_coords, 1, comp));
  if (f == 0.0f || l0 + 1 >= d->num_levels) return __builtin_bit_cast(uint32_t, a);
  float b = __builtin_bit_cast(float, sample_level(d, l0 + 1, dims, xb, yb, zb, float_coords, 1, comp));
  return __builtin_bit_cast(uint32_t, (1.0f - f) * a + f * b);
}

uint32_t __ptx_tex(uint64_t h, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb,
                   uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  return sample_lod(desc_of(h), 0.0f, dims, xb, yb, zb, float_coords, float_result, comp);
}

uint32_t __ptx_tex_lod(uint64_t h, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t lod,
                       uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  return sample_lod(desc_of(h), __builtin_bit_cast(float, lod), dims, xb, yb, zb, float_coords, float_result, comp);
}

/* tex.grad: lod = log2 of the longer of the two gradient vectors in level-0 texels
 * (normalized coordinates scaled by the extent). */
uint32_t __ptx_tex_grad(uint64_t h, uint32_t dims, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t dx0, uint32_t dx1,
                        uint32_t dx2, uint32_t dy0, uint32_t dy1, uint32_t dy2, uint32_t float_coords,
                        uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = desc_of(h);
  uint32_t gx[3] = {dx0, dx1, dx2}, gy[3] = {dy0, dy1, dy2};
  float lx = 0.0f, ly = 0.0f;
  for (uint32_t k = 0; k < dims; ++k) {
    float s = (d->flags & PTX_TEX_FLAG_NORMALIZED_COORDS) ? (float)extent(d, k) : 1.0f;
    float a = __builtin_bit_cast(float, gx[k]) * s, b = __builtin_bit_cast(float, gy[k]) * s;
    lx += a * a;
    ly += b * b;
  }
  float lod = 0.5f * __builtin_log2f(__builtin_fmaxf(lx, ly));
  return sample_lod(d, lod, dims, xb, yb, zb, float_coords, float_result, comp);
}

/* The layer of an array access: the index clamped to [0, layers-1] as an unsigned value
 * (the H200 reads the last layer for -1 and for indices past the end). */
static int32_t clamp_layer(const ptx_tex_desc *d, uint32_t layer, uint32_t per) {
  uint32_t n = d->layers / per;
  if (n == 0) __builtin_trap();
  return (int32_t)(layer >= n ? n - 1 : layer);
}

uint32_t __ptx_tex_layered(uint64_t h, uint32_t dims, uint32_t layer, uint32_t xb, uint32_t yb,
                           uint32_t float_coords, uint32_t float_result, uint32_t comp) {
  const ptx_tex_desc *d = desc_of(h);
  uint8_t want = dims == 1 ? PTX_TEX_GEOM_1D_ARRAY : PTX_TEX_GEOM_2D_ARRAY;
  if (d->geometry != want) __builtin_trap(); /* a1d/a2d on another kind of resource */
  return sample(d, dims, xb, yb, 0u, clamp_layer(d, layer, 1u), 0, float_coords, float_result, comp);
}

/* Cube maps: the face is the major axis of the direction (x, y, z), ties going to z, then y
 * (as the H200 resolves them), and (s, t) follow the CUDA programming guide's table; a zero
 * direction reads the centre of face +z (H200). Cube `cube` of a layered cube map is layers
 * 6*cube .. 6*cube+5. */
uint32_t __ptx_tex_cube(uint64_t h, uint32_t cube, uint32_t xb, uint32_t yb, uint32_t zb, uint32_t float_result,
                        uint32_t comp) {
  const ptx_tex_desc *d = desc_of(h);
  if (d->geometry != PTX_TEX_GEOM_CUBE) __builtin_trap();
  float x = __builtin_bit_cast(float, xb), y = __builtin_bit_cast(float, yb), z = __builtin_bit_cast(float, zb);
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y), az = __builtin_fabsf(z);
  uint32_t face;
  float sc, tc, m;
  if (az >= ax && az >= ay) { m = az; if (z >= 0.0f) { face = 4; sc = x; tc = -y; } else { face = 5; sc = -x; tc = -y; } }
  else if (ay >= ax) { m = ay; if (y > 0.0f) { face = 2; sc = x; tc = z; } else { face = 3; sc = x; tc = -z; } }
  else { m = ax; if (x > 0.0f) { face = 0; sc = -z; tc = -y; } else { face = 1; sc = z; tc = -y; } }
  float s = 0.5f, t = 0.5f;
  if (m > 0.0f) { s = (sc / m + 1.0f) * 0.5f; t = (tc / m + 1.0f) * 0.5f; }
  int32_t layer = clamp_layer(d, cube, 6u) * 6 + (int32_t)face;
  return sample(d, 2, __builtin_bit_cast(uint32_t, s), __builtin_bit_cast(uint32_t, t), 0u, layer, 1, 1u,
                float_result, comp);
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
