//===- runtime/Texture.h - CUDA arrays, texture and surface objects -*- C++ -*-===//
//
// The texture resources of a context, shared by the runtime API (cudaArray_t,
// cudaTextureObject_t) and the driver API (CUarray, CUtexObject): both APIs
// translate their descriptors into the neutral ones below and back, and the
// handles are the same objects (a cudaArray_t is the runtime::Array a CUarray
// is, as in CUDA where the two are interchangeable).
//
// A CUDA array is a plain device allocation: rows of width * element bytes,
// packed (pitch == row bytes), 2D slices pitch * height bytes apart; layered
// and cube-map arrays keep their layers where a 3D array keeps its slices. A
// texture or surface object is the device (flat) address of one ptx_tex_desc
// (amdgpu-lower/devlib/ptx_texture.h) the context allocates and fills; the
// translator's tex / suld / sust lowering and the device library read it.
// A resource view (cudaResourceViewDesc / CUDA_RESOURCE_VIEW_DESC) reinterprets
// an array's elements as another format of the same size and selects a range of
// mipmap levels and layers, with CUDA's validity rules (InvalidValue). sRGB
// reads convert the x, y, z channels of 8-bit unsigned normalized reads to
// linear (the device library's srgb_to_linear).
// What that descriptor cannot represent exactly is refused with NotSupported
// and a message naming the feature (block-compressed views, 3-channel formats,
// seamless cube filtering, sparse / deferred-mapping / colour-attachment arrays), never approximated. Combinations CUDA rejects
// get its codes (linear filtering of integer reads: InvalidFilterSetting;
// promoted reads of 32-bit integers: InvalidNormSetting).
//
// Copies with array endpoints are resolved here into the pitched unified-
// address copies of CopyNodeParams (arrays never move), checked against the
// arrays' extents; Stream::copy3D runs one (or records one graph node).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/ApiEnum.h"
#include "runtime/Graph.h"

#include <optional>
#include <vector>

namespace runtime {

enum class ChannelKind : uint8_t { Signed, Unsigned, Float };

// n equal channels of `bits` each (8/16/32 integers, 16/32 floats).
struct ChannelFormat {
  uint8_t channels = 0, bits = 0;
  ChannelKind kind = ChannelKind::Float;
  uint32_t bytes() const { return uint32_t(channels) * bits / 8; }
};

// cudaArray* / CUDA_ARRAY3D_* flag values (the two APIs number them alike).
enum ArrayFlag : unsigned {
  ArrayLayered = 0x1, ArraySurfaceLoadStore = 0x2, ArrayCubemap = 0x4, ArrayTextureGather = 0x8,
  ArrayDepthTexture = 0x10, ArrayColorAttachment = 0x20, ArraySparse = 0x40, ArrayDeferredMapping = 0x80,
};

struct ArrayDesc {
  ChannelFormat format;
  uint64_t width = 0, height = 0, depth = 0; // 0 = the dimension is absent
  unsigned flags = 0;
};

class Array {
public:
  ArrayDesc desc;
  uint64_t base = 0;  // device address of element (0,0,0)
  uint64_t pitch = 0; // row bytes (packed)
  uint64_t rowsPerSlice() const { return desc.height ? desc.height : 1; }
  uint64_t slices() const { return desc.depth ? desc.depth : 1; }
  uint64_t bytes() const { return pitch * rowsPerSlice() * slices(); }
};

// A mipmapped array: one Array per level (level l is max(extent >> l, 1) in
// each present dimension) and the device table of their ptx_tex_level entries
// that a texture descriptor on it points at (ptx_tex_desc::levels).
class MipmappedArray {
public:
  std::vector<Array *> levels; // owned by the context's array registry
  uint64_t table = 0;          // device address of levels.size() ptx_tex_level entries
};

enum class ResourceKind { Array, Linear, Pitch2D, MipmappedArray };
struct ResourceDesc {
  ResourceKind kind = ResourceKind::Array;
  const Array *array = nullptr;   // Array
  const MipmappedArray *mipmap = nullptr; // MipmappedArray
  uint64_t ptr = 0;               // Linear, Pitch2D
  ChannelFormat format;           // Linear, Pitch2D
  uint64_t sizeBytes = 0;         // Linear
  uint64_t width = 0, height = 0, pitch = 0; // Pitch2D (elements, rows, bytes)
};

// cudaTextureAddressMode / CUaddress_mode and the filter modes number alike.
enum class AddressMode : uint8_t { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };
enum class FilterMode : uint8_t { Point = 0, Linear = 1 };
struct TextureDesc {
  AddressMode address[3] = {AddressMode::Wrap, AddressMode::Wrap, AddressMode::Wrap};
  FilterMode filter = FilterMode::Point;
  bool promoteIntegers = false;  // integer texels read as floats in [0,1] / [-1,1]
  bool normalizedCoords = false;
  bool sRGB = false;
  bool seamlessCubemap = false;
  bool disableTrilinear = false;
  // Linear filtering of element-type integer reads: allowed (the driver API creates such objects,
  // CUDA_SUCCESS on the H200, and the texture unit blends the integers; the device library does the
  // same) instead of refused with InvalidFilterSetting (the runtime API's rule).
  bool filterIntegers = false;
  float border[4] = {0, 0, 0, 0};
  // Level selection (tex.level / tex.grad) of mipmapped resources; maxAnisotropy is kept for the
  // descriptor queries only (the device library's gradients are isotropic).
  unsigned maxAnisotropy = 0;
  FilterMode mipmapFilter = FilterMode::Point;
  float mipmapLevelBias = 0, minMipmapLevelClamp = 0, maxMipmapLevelClamp = 0;
};

// cudaResourceViewDesc / CUDA_RESOURCE_VIEW_DESC (the two APIs' view formats number alike:
// 0 = the resource's own format, 0x01..0x18 the plain formats, 0x19..0x22 block-compressed).
struct ResourceView {
  unsigned format = 0;
  uint64_t width = 0, height = 0, depth = 0;
  unsigned firstMipmapLevel = 0, lastMipmapLevel = 0, firstLayer = 0, lastLayer = 0;

  // From either API's view descriptor (cudaResourceViewDesc, CUDA_RESOURCE_VIEW_DESC): both
  // spell the fields as above, so one conversion serves the two front ends.
  template <class ApiView> static ResourceView from(const ApiView &A) {
    ResourceView V;
    V.format = unsigned(rawEnum(A.format)); // an application field: read as bits (ApiEnum.h)
    V.width = A.width, V.height = A.height, V.depth = A.depth;
    V.firstMipmapLevel = A.firstMipmapLevel, V.lastMipmapLevel = A.lastMipmapLevel;
    V.firstLayer = A.firstLayer, V.lastLayer = A.lastLayer;
    return V;
  }
};

// The channel format of a view format code; std::nullopt for 0 (the resource's own format).
// Block-compressed codes are NotSupported, unknown ones InvalidValue.
llvm::Expected<std::optional<ChannelFormat>> viewFormat(unsigned Code);

struct TextureObject {
  bool surface = false;
  ResourceDesc res;
  TextureDesc tex; // textures only
  std::optional<ResourceView> view;
  ChannelFormat format; // what the texture reads: the view's format, else the resource's
};

// Checks a format the descriptors can hold (1, 2 or 4 channels; 8/16/32-bit
// integers, 16/32-bit floats); InvalidChannelDescriptor / NotSupported.
llvm::Error checkFormat(const ChannelFormat &F);

// One side of a copy: an array (positions: x in bytes, y rows, z slices) or
// pitched unified memory (ptr, pitch bytes, rows per slice).
struct CopyEndpoint {
  const Array *array = nullptr;
  uint64_t ptr = 0, pitch = 0, rows = 0;
  uint64_t x = 0, y = 0, z = 0;
};
// The copy of depth x height rows of widthBytes between two endpoints, its
// array sides checked against their extents (InvalidValue) and pointer sides'
// pitches against the row (InvalidPitchValue).
llvm::Expected<CopyNodeParams> resolveCopy(const CopyEndpoint &Src, const CopyEndpoint &Dst, uint64_t WidthBytes,
                                           uint64_t Height, uint64_t Depth, MemcpyKind Kind);

} // namespace runtime
