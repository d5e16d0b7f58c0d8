/*===- ptx_texture.h - Texture / surface object descriptor layout ---------===*
 *
 * In PTX a texture or surface object (.texref / .surfref used through a
 * 64-bit handle, i.e. CUDA's cudaTextureObject_t / cudaSurfaceObject_t) is an
 * opaque 64-bit value. ptx2amd defines that value to be the generic (flat)
 * device address of one `ptx_tex_desc` below, 16-byte aligned, living in
 * device global memory for the lifetime of the object. The CUDA runtime shim
 * (cudart-shim/) allocates and fills one descriptor per
 * cudaCreateTextureObject / cudaCreateSurfaceObject call and returns its
 * address as the handle; the device library (texture.c) reads it when a
 * tex / tld4 / txq / suld / sust instruction executes.
 *
 * This header is plain C99 with fixed-width fields so host C++ and the
 * device library see the same layout (asserted at the end: 96 bytes).
 * All values are little-endian, as on both host and device.
 *===----------------------------------------------------------------------===*/
#ifndef PTX_TEXTURE_H
#define PTX_TEXTURE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Magic in ptx_tex_desc.magic; the device library traps on a mismatch so a
 * garbage handle is an error, not a silent read of random memory. */
#define PTX_TEX_DESC_MAGIC 0x58455450u /* "PTEX" */

/* ptx_tex_desc.kind: channel data kind (cudaChannelFormatKind). */
enum ptx_tex_kind {
  PTX_TEX_KIND_SIGNED = 0,   /* cudaChannelFormatKindSigned   (s8/s16/s32) */
  PTX_TEX_KIND_UNSIGNED = 1, /* cudaChannelFormatKindUnsigned (u8/u16/u32) */
  PTX_TEX_KIND_FLOAT = 2     /* cudaChannelFormatKindFloat    (f16/f32)    */
};

/* ptx_tex_desc.filter: cudaTextureFilterMode. */
enum ptx_tex_filter {
  PTX_TEX_FILTER_POINT = 0,  /* cudaFilterModePoint  */
  PTX_TEX_FILTER_LINEAR = 1  /* cudaFilterModeLinear (only for float results) */
};

/* ptx_tex_desc.address[d]: cudaTextureAddressMode, same numeric values. */
enum ptx_tex_address {
  PTX_TEX_ADDR_WRAP = 0,   /* cudaAddressModeWrap   (normalized coords only) */
  PTX_TEX_ADDR_CLAMP = 1,  /* cudaAddressModeClamp  */
  PTX_TEX_ADDR_MIRROR = 2, /* cudaAddressModeMirror (normalized coords only) */
  PTX_TEX_ADDR_BORDER = 3  /* cudaAddressModeBorder (out of range -> border_color) */
};

/* ptx_tex_desc.read_mode: cudaTextureReadMode. */
enum ptx_tex_read_mode {
  PTX_TEX_READ_ELEMENT = 0,   /* cudaReadModeElementType: value as stored */
  PTX_TEX_READ_NORMALIZED = 1 /* cudaReadModeNormalizedFloat: 8/16-bit ints
                                 -> [0,1] (unsigned) or [-1,1] (signed) */
};

/* ptx_tex_desc.geometry: what the resource is. */
enum ptx_tex_geometry {
  PTX_TEX_GEOM_1D = 0,       /* width; linear memory or 1D array */
  PTX_TEX_GEOM_2D = 1,       /* width x height, row pitch `pitch` bytes */
  PTX_TEX_GEOM_3D = 2,       /* width x height x depth, slice = pitch*height */
  PTX_TEX_GEOM_1D_ARRAY = 3, /* `layers` 1D layers of width elements */
  PTX_TEX_GEOM_2D_ARRAY = 4, /* `layers` 2D layers of width x height */
  PTX_TEX_GEOM_CUBE = 5      /* 6 faces of width x width (layers == 6) */
};

/* Flags in ptx_tex_desc.flags. */
#define PTX_TEX_FLAG_NORMALIZED_COORDS 0x1u /* coords in [0,1) of the extent */
#define PTX_TEX_FLAG_SURFACE 0x2u           /* created as a surface object */
#define PTX_TEX_FLAG_SRGB 0x4u              /* sRGB->linear of 8-bit unsigned normalized x/y/z */

typedef struct ptx_tex_desc {
  /* 0: PTX_TEX_DESC_MAGIC. */
  uint32_t magic;
  /* 4: PTX_TEX_FLAG_* bits. */
  uint32_t flags;
  /* 8: device (flat) address of element (0,0,0) of layer 0. */
  uint64_t base;
  /* 16: extent in elements; unused dims are 1. For CUBE width == height. */
  uint32_t width;
  uint32_t height;
  uint32_t depth;
  /* 28: number of layers for *_ARRAY (for CUBE: 6); 1 otherwise. */
  uint32_t layers;
  /* 32: bytes between consecutive rows (>= width * elem_size). Slices of a
   * 3D resource and layers of an array are pitch * height bytes apart
   * (1D array layers: pitch bytes apart). For 1D: width * elem_size. */
  uint64_t pitch;
  /* 40: element format: number of channels (1, 2 or 4; cudaChannelFormatDesc
   * fields x,y,z,w != 0 counted), bits per channel (8, 16 or 32; all
   * channels equal) and ptx_tex_kind. Element size = channels * bits / 8. */
  uint8_t channels;
  uint8_t bits;
  uint8_t kind;
  /* 43: ptx_tex_filter. */
  uint8_t filter;
  /* 44: ptx_tex_address for dims 0 (x/u), 1 (y/v), 2 (z/w). */
  uint8_t address[3];
  /* 47: ptx_tex_read_mode. */
  uint8_t read_mode;
  /* 48: ptx_tex_geometry. */
  uint8_t geometry;
  uint8_t reserved0[3];
  /* 52: border colour (x, y, z, w) used by PTX_TEX_ADDR_BORDER for float /
   * normalized-float reads; element-type integer reads of the border
   * return 0 in every channel. */
  float border_color[4];
  /* 68: mipmap levels (0 or 1: not mipmapped; the fields above describe level 0). */
  uint32_t num_levels;
  /* 72: device address of num_levels ptx_tex_level entries (when num_levels > 1). */
  uint64_t levels;
  /* 80: mipmap filter between levels (ptx_tex_filter). */
  uint8_t mip_filter;
  uint8_t reserved1[3];
  /* 84: level-of-detail clamp [min_lod, max_lod] and bias (cudaTextureDesc). */
  float min_lod, max_lod, lod_bias;
} ptx_tex_desc; /* 96 bytes */

/* One mipmap level: element (0,0,0) address, row pitch, extent (unused dims 1). */
typedef struct ptx_tex_level {
  uint64_t base;
  uint64_t pitch;
  uint32_t width, height, depth, reserved;
} ptx_tex_level; /* 32 bytes */

#ifdef __cplusplus
static_assert(sizeof(ptx_tex_desc) == 96, "ptx_tex_desc layout");
static_assert(sizeof(ptx_tex_level) == 32, "ptx_tex_level layout");
} /* extern "C" */
#else
_Static_assert(sizeof(ptx_tex_desc) == 96, "ptx_tex_desc layout");
_Static_assert(sizeof(ptx_tex_level) == 32, "ptx_tex_level layout");
#endif

#endif /* PTX_TEXTURE_H */
