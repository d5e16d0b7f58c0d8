/*===- texture.c - tex / suld / sust on ptx_tex_desc objects ---------------===*
 *
 * Texture and surface handles are generic addresses of a ptx_tex_desc
 * (ptx_texture.h). Sampling follows the CUDA C Programming Guide, "Texture
 * Fetching" appendix, with the arithmetic of NVIDIA's texture unit as fitted
 * to the H200 (texture_model.h: fixed-point coordinates, 8-bit weights rounded
 * half up, texels summed exactly, LODs truncated to 8 fractional bits; linear filters blend
 * 8/16-bit unsigned normalized texels as integers and half texels aligned to the largest one).
 * Wrap / mirror act on normalized coordinates, clamp / border on texel
 * indices. cudaReadModeNormalizedFloat maps 8/16-bit integers to [0,1] /
 * [-1,1], with sRGB -> linear for 8-bit unsigned x/y/z channels when the descriptor asks for
 * it; half-float texels read as float. Channels beyond the format's count
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

/* sRGB -> linear (cudaTextureDesc::sRGB / CU_TRSF_SRGB) of an 8-bit unsigned normalized channel
 * value v (v/255 = c): c/12.92 for c <= 0.04045, else ((c + 0.055)/1.055)^2.4 (the sRGB transfer
 * function, IEC 61966-2-1), evaluated in double and rounded to fp32 once per code (the table
 * below, generated that way). How the H200 rounds it is not measured (no H200 this session):
 * tests/shim/textures.cu compares with a tolerance of 2^-10. */
static const float srgb_to_linear_table[256] = {
    0.0f, 0.000303526991f, 0.000607053982f, 0.000910580973f, 0.00121410796f, 0.00151763496f, 0.00182116195f, 0.00212468882f,
    0.00242821593f, 0.0027317428f, 0.00303526991f, 0.00334653584f, 0.00367650739f, 0.00402471703f, 0.00439144205f, 0.00477695325f,
    0.00518151652f, 0.00560539169f, 0.00604883302f, 0.00651209056f, 0.00699541019f, 0.00749903219f, 0.00802319311f, 0.00856812578f,
    0.00913405884f, 0.00972121768f, 0.010329823f, 0.0109600937f, 0.0116122449f, 0.012286488f, 0.0129830325f, 0.0137020834f,
    0.0144438436f, 0.0152085144f, 0.0159962941f, 0.0168073755f, 0.0176419541f, 0.01850022f, 0.0193823613f, 0.0202885624f,
    0.0212190095f, 0.0221738853f, 0.0231533665f, 0.0241576321f, 0.0251868591f, 0.0262412224f, 0.0273208916f, 0.02842604f,
    0.0295568351f, 0.0307134446f, 0.0318960324f, 0.0331047662f, 0.0343398079f, 0.0356013142f, 0.0368894488f, 0.0382043719f,
    0.0395462364f, 0.0409151986f, 0.0423114114f, 0.043735031f, 0.045186203f, 0.0466650873f, 0.0481718257f, 0.0497065671f,
    0.0512694567f, 0.0528606474f, 0.054480277f, 0.0561284907f, 0.0578054301f, 0.0595112368f, 0.0612460524f, 0.0630100146f,
    0.064803265f, 0.0666259378f, 0.0684781671f, 0.0703600943f, 0.0722718537f, 0.0742135718f, 0.0761853829f, 0.078187421f,
    0.0802198201f, 0.0822827071f, 0.0843762085f, 0.0865004584f, 0.0886555836f, 0.0908417106f, 0.0930589661f, 0.0953074694f,
    0.097587347f, 0.0998987257f, 0.102241732f, 0.104616486f, 0.107023105f, 0.10946171f, 0.111932427f, 0.114435375f,
    0.116970666f, 0.119538426f, 0.122138776f, 0.124771819f, 0.127437681f, 0.130136475f, 0.13286832f, 0.135633335f,
    0.138431609f, 0.141263291f, 0.144128472f, 0.147027269f, 0.149959788f, 0.152926147f, 0.155926466f, 0.158960834f,
    0.162029371f, 0.165132195f, 0.168269396f, 0.171441108f, 0.174647406f, 0.177888423f, 0.18116425f, 0.18447499f,
    0.187820777f, 0.191201687f, 0.194617838f, 0.198069319f, 0.20155625f, 0.205078736f, 0.208636865f, 0.212230757f,
    0.215860501f, 0.219526201f, 0.223227963f, 0.226965874f, 0.230740055f, 0.23455058f, 0.238397568f, 0.242281124f,
    0.246201321f, 0.25015828f, 0.254152089f, 0.258182853f, 0.262250662f, 0.266355604f, 0.270497799f, 0.274677306f,
    0.278894275f, 0.283148736f, 0.287440836f, 0.291770637f, 0.296138257f, 0.300543785f, 0.304987311f, 0.309468925f,
    0.313988715f, 0.318546772f, 0.323143214f, 0.327778101f, 0.332451522f, 0.337163627f, 0.341914415f, 0.346704066f,
    0.351532608f, 0.356400132f, 0.361306787f, 0.366252601f, 0.371237695f, 0.376262128f, 0.38132602f, 0.386429429f,
    0.391572475f, 0.396755219f, 0.401977777f, 0.407240212f, 0.412542611f, 0.417885065f, 0.423267663f, 0.428690493f,
    0.434153646f, 0.439657182f, 0.445201188f, 0.450785786f, 0.456411034f, 0.462076992f, 0.467783809f, 0.473531485f,
    0.479320168f, 0.48514995f, 0.491020858f, 0.496932983f, 0.502886474f, 0.50888133f, 0.514917672f, 0.520995557f,
    0.527115107f, 0.533276379f, 0.539479494f, 0.545724452f, 0.55201143f, 0.558340371f, 0.564711511f, 0.571124852f,
    0.577580452f, 0.584078431f, 0.590618849f, 0.597201765f, 0.603827357f, 0.610495567f, 0.617206573f, 0.623960376f,
    0.630757153f, 0.637596846f, 0.644479692f, 0.651405632f, 0.658374846f, 0.665387273f, 0.672443151f, 0.679542482f,
    0.686685324f, 0.693871737f, 0.701101899f, 0.708375752f, 0.715693474f, 0.723055124f, 0.730460763f, 0.73791039f,
    0.745404184f, 0.752942204f, 0.760524511f, 0.768151164f, 0.775822222f, 0.783537805f, 0.791297913f, 0.799102724f,
    0.806952238f, 0.814846575f, 0.822785735f, 0.830769897f, 0.838799f, 0.846873224f, 0.854992628f, 0.863157213f,
    0.871367097f, 0.8796224f, 0.887923121f, 0.896269381f, 0.904661179f, 0.913098633f, 0.921581864f, 0.930110872f,
    0.938685715f, 0.947306514f, 0.955973327f, 0.964686275f, 0.973445296f, 0.982250571f, 0.991102099f, 1.0f,
};

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
    /* sRGB: x, y, z of 8-bit unsigned texels convert to linear, alpha stays as stored; this
     * happens per texel, before filtering (as graphics APIs specify; the H200's order is not
     * measured). Other formats ignore the flag. */
    if ((d->flags & PTX_TEX_FLAG_SRGB) && d->bits == 8 && !sgn && c < 3u)
      return __builtin_bit_cast(uint32_t, srgb_to_linear_table[raw & 255u]);
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
 * ptx_texm_level_weights2; 3D: each texel weight W split as W - hi(W, f) / hi(W, f)). */
enum { PART_WHOLE = 0, PART_LOW = 1, PART_HIGH = 2 };
static uint32_t part_of(uint32_t w, uint32_t part, uint32_t f) {
  if (part == PART_WHOLE) return w;
  uint32_t hi = ptx_texm_split_hi(w, f);
  return part == PART_HIGH ? hi : w - hi;
}

/* How a footprint's texels are blended (texture_model.h): as fp32 values; as the integers of
 * 8/16-bit unsigned normalized channels (then read as a 16-bit unsigned normalized value,
 * ptx_texm_unorm16); or as half values aligned to the largest one (ptx_texm_half_align, rounded
 * to half precision by ptx_texm_round_half). sRGB textures and point filtering keep the fp32 blend
 * (for one texel all three give the texel's value, except a unorm border colour). */
enum { BLEND_FLOAT = 0, BLEND_UNORM = 1, BLEND_HALF = 2 };
static uint32_t blend_kind(const ptx_tex_desc *d) {
  if (d->filter == PTX_TEX_FILTER_POINT) return BLEND_FLOAT; /* one texel (or a point-filtered mip blend,
                                                                not measured): as read */
  if (d->kind == PTX_TEX_KIND_FLOAT && d->bits == 16) return BLEND_HALF;
  if (d->kind == PTX_TEX_KIND_UNSIGNED && d->read_mode == PTX_TEX_READ_NORMALIZED && d->bits < 32 &&
      !(d->flags & PTX_TEX_FLAG_SRGB))
    return BLEND_UNORM;
  return BLEND_FLOAT;
}

/* A texel as the blend takes it: its float value, or for BLEND_UNORM the stored integer (a
 * border texel: the border colour times 2^bits - 1, not measured). */
static float blend_texel(const ptx_tex_desc *d, uint32_t dims, int32_t i, int32_t j, int32_t k, uint32_t comp,
                         uint32_t kind) {
  if (kind != BLEND_UNORM) return __builtin_bit_cast(float, texel(d, dims, i, j, k, comp, 1));
  if (address_index(d, 0, i) < 0 || (dims > 1 && address_index(d, 1, j) < 0) || (dims > 2 && address_index(d, 2, k) < 0))
    return border(d, comp) * (d->bits == 8 ? 255.0f : 65535.0f);
  return (float)texel(d, dims, i, j, k, comp, 0);
}

/* The filtered value of a blend sum(weight * texel) (weights in 1/256) as fp32. */
static float blend_result(const ptx_tex_desc *d, double acc) {
  uint32_t kind = blend_kind(d);
  if (kind == BLEND_UNORM) return ptx_texm_unorm16((uint64_t)acc, d->bits);
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
   * one level of a 1D/2D mip blend: ptx_texm_level_weights2 */
  ptx_texm_w2 w = part != PART_WHOLE && dims <= 2
                      ? ptx_texm_level_weights2(tx.w, dims > 1 ? ty.w : 0u, part == PART_HIGH ? f : 256u - f)
                      : ptx_texm_weights2(tx.w, dims > 1 ? ty.w : 0u);
  ptx_texm_w3 w3 = ptx_texm_weights3(tx.w, ty.w, tz.w);
  double acc = 0.0;
  uint32_t nz = dims > 2 ? 2 : 1, ny = dims > 1 ? 2 : 1, kind = blend_kind(d);
  /* half texels: a first pass finds the largest exponent of the texels of nonzero weight */
  int32_t emax = -127;
  for (uint32_t pass = kind == BLEND_HALF ? 0u : 1u; pass < 2u; ++pass)
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
        if (dims > 2) wt = part_of(wt, part, f); /* 3D mip blends: not measured */
        if (wt == 0u) continue;
        float v = blend_texel(d, dims, tx.i + (int32_t)dx, ty.i + (int32_t)dy, tz.i + (int32_t)dz, comp, kind);
        if (pass == 0u) {
          if (v != 0.0f && ptx_texm_exponent(v) > emax) emax = ptx_texm_exponent(v);
          continue;
        }
        if (kind == BLEND_HALF && emax > -127) v = ptx_texm_half_align(v, emax);
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
/* tex.grad.cube / acube: each 3D gradient is projected onto the face, d(sc / m) =
 * (dsc m - sc dm) / m^2 halved for (s, t), in face texels; the LOD of the two as for 2D.
 * NOT fitted: tex_weights2_probe gcube differs in most unclamped samples (the H200's LOD is
 * within a level of this, spread both ways; tex_weights3_probe's gcube1 / gcubea will tell). */
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
    if (m > 0.0f) {
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
