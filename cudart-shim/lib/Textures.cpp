//===- Textures.cpp - CUDA arrays, texture and surface objects --------------===//
//
// CUDA arrays are plain device allocations here: rows of width * element
// size bytes, packed (pitch == row bytes), 2D slices of a 3D array pitch *
// height bytes apart. A texture or surface object is the device (flat)
// address of one ptx_tex_desc (amdgpu-lower/devlib/ptx_texture.h) that this
// file allocates and fills; the translator's tex / suld / sust lowering and
// the device library's texture.c read it. cudaResourceDesc / cudaTextureDesc
// are mapped field by field (address modes, filter mode, read mode,
// normalized coordinates, border colour; linear, pitch2D and array
// resources). Whatever the descriptor or the device library cannot represent
// exactly is refused with an error and a note naming the feature
// (layered / cubemap mipmapped arrays, resource views, sRGB, 3-channel and
// block-compressed / "normalized" channel kinds), never approximated.
// Combinations CUDA itself rejects get CUDA's error codes (linear filtering
// of element-type integer reads: cudaErrorInvalidFilterSetting; normalized
// reads of 32-bit integers: cudaErrorInvalidNormSetting).
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

#include "ptx_texture.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

// cudaMemcpyToArray / cudaMemcpyFromArray are deprecated but still exported.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The opaque runtime type behind cudaArray_t.
struct cudaArray {
  cudaChannelFormatDesc desc{};
  size_t width = 0, height = 0, depth = 0; // as allocated (0 = dimension absent)
  unsigned flags = 0;
  uint64_t base = 0;  // device address of element (0,0,0)
  uint64_t pitch = 0; // row bytes (packed)
};

// The opaque runtime type behind cudaMipmappedArray_t: one cudaArray per level and the
// device table of their ptx_tex_level entries that texture descriptors point at.
struct cudaMipmappedArray {
  std::vector<cudaArray *> levels;
  uint64_t table = 0;
};

namespace {

using cudartshim::note;
using cudartshim::recordError;

struct Format {
  uint8_t channels = 0, bits = 0, kind = 0;
  uint32_t bytes() const { return uint32_t(channels) * bits / 8; }
};

struct TexObject {
  bool surface = false;
  cudaResourceDesc res{};
  cudaTextureDesc tex{};
};

struct Registry {
  std::mutex mu;
  std::map<const cudaArray *, std::unique_ptr<cudaArray>> arrays;
  std::map<const cudaMipmappedArray *, std::unique_ptr<cudaMipmappedArray>> mipmaps;
  std::map<uint64_t, TexObject> objects; // descriptor address -> what created it
};
Registry &R() {
  static Registry *Rg = new Registry; // never destroyed (late atexit calls)
  return *Rg;
}

cudaError_t fail(cudaError_t E, const std::string &Msg) {
  note(Msg);
  return recordError(E);
}

// cudaChannelFormatDesc -> the descriptor's element format.
cudaError_t formatOf(const cudaChannelFormatDesc &D, Format &F, const char *Call) {
  const int Bits[4] = {D.x, D.y, D.z, D.w};
  int N = 0;
  while (N < 4 && Bits[N] != 0) ++N;
  for (int I = 0; I < 4; ++I)
    if ((I < N && Bits[I] != Bits[0]) || (I >= N && Bits[I] != 0) || Bits[I] < 0)
      return fail(cudaErrorInvalidChannelDescriptor,
                  std::string(Call) + ": channel sizes " + std::to_string(D.x) + "," + std::to_string(D.y) + "," +
                      std::to_string(D.z) + "," + std::to_string(D.w) + " are not n equal leading sizes");
  if (N == 0) return fail(cudaErrorInvalidChannelDescriptor, std::string(Call) + ": channel descriptor without channels");
  if (N == 3)
    return fail(cudaErrorNotSupported, std::string(Call) + ": 3-channel formats are not supported (ptx_tex_desc holds 1, 2 or 4 channels)");
  switch (D.f) {
  case cudaChannelFormatKindSigned:
  case cudaChannelFormatKindUnsigned:
    if (Bits[0] != 8 && Bits[0] != 16 && Bits[0] != 32)
      return fail(cudaErrorInvalidChannelDescriptor, std::string(Call) + ": " + std::to_string(Bits[0]) + "-bit integer channels");
    F.kind = D.f == cudaChannelFormatKindSigned ? PTX_TEX_KIND_SIGNED : PTX_TEX_KIND_UNSIGNED;
    break;
  case cudaChannelFormatKindFloat:
    if (Bits[0] != 16 && Bits[0] != 32)
      return fail(cudaErrorInvalidChannelDescriptor, std::string(Call) + ": " + std::to_string(Bits[0]) + "-bit float channels");
    F.kind = PTX_TEX_KIND_FLOAT;
    break;
  default:
    return fail(cudaErrorNotSupported, std::string(Call) + ": unsupported CUDA feature: channel format kind " +
                                           std::to_string(int(D.f)) +
                                           " (only cudaChannelFormatKindSigned/Unsigned/Float are translated)");
  }
  F.channels = uint8_t(N);
  F.bits = uint8_t(Bits[0]);
  return cudaSuccess;
}

cudaArray *findArray(const void *A) {
  auto It = R().arrays.find(static_cast<const cudaArray *>(A));
  return It == R().arrays.end() ? nullptr : It->second.get();
}

size_t arrayRows(const cudaArray &A) { return std::max<size_t>(A.height, 1) * std::max<size_t>(A.depth, 1); }

// Device address of byte offset (x bytes, row y) of a 2D view of A; checks
// that W bytes x H rows fit.
cudaError_t arrayRegion(const cudaArray &A, size_t XBytes, size_t Y, size_t W, size_t H, uint64_t &Addr,
                        const char *Call) {
  if (XBytes + W > A.pitch || Y + H > arrayRows(A))
    return fail(cudaErrorInvalidValue, std::string(Call) + ": region " + std::to_string(W) + " bytes x " +
                                           std::to_string(H) + " rows at (" + std::to_string(XBytes) + " bytes, row " +
                                           std::to_string(Y) + ") exceeds the array");
  Addr = A.base + Y * A.pitch + XBytes;
  return cudaSuccess;
}

cudaError_t allocArray(cudaArray_t *Out, const cudaChannelFormatDesc *Desc, size_t W, size_t H, size_t D,
                       unsigned Flags, const char *Call) {
  if (!Out || !Desc || W == 0) return fail(cudaErrorInvalidValue, std::string(Call) + ": null argument or zero width");
  // Layered arrays keep their layers where a 3D array keeps its slices (depth = layer count);
  // a cube map is 6 layers of width x width faces (6 x cubes when layered too).
  if ((Flags & cudaArrayCubemap) && (H != W || D == 0 || D % 6 != 0 || (!(Flags & cudaArrayLayered) && D != 6)))
    return fail(cudaErrorInvalidValue, std::string(Call) + ": a cubemap array needs width == height and depth 6 "
                                                           "(a multiple of 6 when layered)");
  if ((Flags & cudaArrayLayered) && D == 0)
    return fail(cudaErrorInvalidValue, std::string(Call) + ": a layered array needs depth = the number of layers");
  // cudaArrayTextureGather changes nothing here (tld4 reads the same packed layout).
  if (Flags & (cudaArraySparse | cudaArrayDeferredMapping | cudaArrayColorAttachment))
    return fail(cudaErrorNotSupported, std::string(Call) + ": unsupported CUDA feature: array flags 0x" +
                                           [&] { char B[16]; snprintf(B, sizeof B, "%x", Flags); return std::string(B); }() +
                                           " (sparse, deferred mapping, colour attachment)");
  if (Flags & ~unsigned(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather))
    return fail(cudaErrorInvalidValue, std::string(Call) + ": unknown array flags");
  if (D != 0 && H == 0 && !(Flags & cudaArrayLayered))
    return fail(cudaErrorInvalidValue, std::string(Call) + ": a 3D array needs a height");
  Format F;
  if (cudaError_t E = formatOf(*Desc, F, Call)) return E;
  auto A = std::make_unique<cudaArray>();
  A->desc = *Desc;
  A->width = W;
  A->height = H;
  A->depth = D;
  A->flags = Flags;
  A->pitch = uint64_t(W) * F.bytes();
  void *P = nullptr;
  if (cudaError_t E = cudaMalloc(&P, A->pitch * arrayRows(*A))) return E;
  A->base = reinterpret_cast<uint64_t>(P);
  std::lock_guard<std::mutex> L(R().mu);
  *Out = A.get();
  R().arrays[A.get()] = std::move(A);
  return cudaSuccess;
}

cudaError_t badArray(const char *Call) {
  return fail(cudaErrorInvalidResourceHandle, std::string(Call) + ": not a CUDA array of this runtime");
}

// arrayRegion of a live array, looked up under the registry lock; also its row pitch.
cudaError_t liveArrayRegion(const void *Array, size_t XBytes, size_t Y, size_t W, size_t H, uint64_t &Addr,
                            uint64_t &Pitch, const char *Call) {
  std::lock_guard<std::mutex> L(R().mu);
  const cudaArray *A = findArray(Array);
  if (!A) return badArray(Call);
  if (cudaError_t E = arrayRegion(*A, XBytes, Y, W, H, Addr, Call)) return E;
  Pitch = A->pitch;
  return cudaSuccess;
}

// Fills the descriptor of an array resource.
void describeArray(const cudaArray &A, ptx_tex_desc &T) {
  T.base = A.base;
  T.width = uint32_t(A.width);
  T.height = uint32_t(std::max<size_t>(A.height, 1));
  T.depth = uint32_t(std::max<size_t>(A.depth, 1));
  T.layers = 1;
  T.pitch = A.pitch;
  T.geometry = A.depth ? PTX_TEX_GEOM_3D : A.height ? PTX_TEX_GEOM_2D : PTX_TEX_GEOM_1D;
  if (A.flags & (cudaArrayLayered | cudaArrayCubemap)) { // layers are the depth slices
    T.layers = uint32_t(A.depth);
    T.depth = 1;
    T.geometry = (A.flags & cudaArrayCubemap) ? PTX_TEX_GEOM_CUBE
                 : A.height                    ? PTX_TEX_GEOM_2D_ARRAY
                                               : PTX_TEX_GEOM_1D_ARRAY;
  }
}

// The resource part of a texture or surface descriptor.
cudaError_t describeResource(const cudaResourceDesc &Res, ptx_tex_desc &T, Format &F, bool &Linear, const char *Call) {
  if (Res.flags != 0) return fail(cudaErrorInvalidValue, std::string(Call) + ": cudaResourceDesc::flags must be 0");
  Linear = false;
  switch (Res.resType) {
  case cudaResourceTypeArray: {
    std::lock_guard<std::mutex> L(R().mu);
    const cudaArray *A = findArray(Res.res.array.array);
    if (!A) return badArray(Call);
    if (cudaError_t E = formatOf(A->desc, F, Call)) return E;
    describeArray(*A, T);
    return cudaSuccess;
  }
  case cudaResourceTypeLinear: {
    const auto &Li = Res.res.linear;
    if (cudaError_t E = formatOf(Li.desc, F, Call)) return E;
    if (!Li.devPtr || Li.sizeInBytes < F.bytes() || !cudartshim::isKernelAccessible(Li.devPtr, Li.sizeInBytes))
      return fail(cudaErrorInvalidValue, std::string(Call) + ": linear resource is not " +
                                             std::to_string(Li.sizeInBytes) + " bytes of device memory");
    T.base = reinterpret_cast<uint64_t>(Li.devPtr);
    T.width = uint32_t(Li.sizeInBytes / F.bytes());
    T.height = T.depth = T.layers = 1;
    T.pitch = uint64_t(T.width) * F.bytes();
    T.geometry = PTX_TEX_GEOM_1D;
    Linear = true;
    return cudaSuccess;
  }
  case cudaResourceTypePitch2D: {
    const auto &P = Res.res.pitch2D;
    if (cudaError_t E = formatOf(P.desc, F, Call)) return E;
    if (!P.devPtr || P.width == 0 || P.height == 0 || P.pitchInBytes < P.width * F.bytes() ||
        !cudartshim::isKernelAccessible(P.devPtr, P.pitchInBytes * (P.height - 1) + P.width * F.bytes()))
      return fail(cudaErrorInvalidValue, std::string(Call) + ": pitch2D resource is not " + std::to_string(P.width) +
                                             " x " + std::to_string(P.height) + " elements of device memory with pitch " +
                                             std::to_string(P.pitchInBytes));
    if (P.pitchInBytes % 32 != 0) // cudaDevAttrTexturePitchAlignment
      return fail(cudaErrorInvalidPitchValue, std::string(Call) + ": pitchInBytes " + std::to_string(P.pitchInBytes) +
                                                  " is not a multiple of the texture pitch alignment (32)");
    T.base = reinterpret_cast<uint64_t>(P.devPtr);
    T.width = uint32_t(P.width);
    T.height = uint32_t(P.height);
    T.depth = T.layers = 1;
    T.pitch = P.pitchInBytes;
    T.geometry = PTX_TEX_GEOM_2D;
    return cudaSuccess;
  }
  case cudaResourceTypeMipmappedArray: {
    std::lock_guard<std::mutex> L(R().mu);
    auto It = R().mipmaps.find(static_cast<const cudaMipmappedArray *>(Res.res.mipmap.mipmap));
    if (It == R().mipmaps.end())
      return fail(cudaErrorInvalidResourceHandle, std::string(Call) + ": not a mipmapped array of this runtime");
    const cudaArray *A0 = It->second->levels[0];
    if (cudaError_t E = formatOf(A0->desc, F, Call)) return E;
    describeArray(*A0, T);
    T.num_levels = uint32_t(It->second->levels.size());
    T.levels = It->second->table;
    return cudaSuccess;
  }
  default:
    return fail(cudaErrorInvalidValue, std::string(Call) + ": unknown resource type " + std::to_string(int(Res.resType)));
  }
}

// Allocates the descriptor in device memory and records the object.
cudaError_t publish(const ptx_tex_desc &T, const TexObject &Obj, unsigned long long *Out) {
  void *P = nullptr;
  if (cudaError_t E = cudaMalloc(&P, sizeof T)) return E;
  if ((reinterpret_cast<uint64_t>(P) & 15) != 0) {
    cudaFree(P);
    return fail(cudaErrorUnknown, "texture descriptor allocation is not 16-byte aligned");
  }
  if (cudaError_t E = cudaMemcpy(P, &T, sizeof T, cudaMemcpyHostToDevice)) {
    cudaFree(P);
    return E;
  }
  std::lock_guard<std::mutex> L(R().mu);
  R().objects[reinterpret_cast<uint64_t>(P)] = Obj;
  *Out = reinterpret_cast<uint64_t>(P);
  return cudaSuccess;
}

cudaError_t destroyObject(unsigned long long H, bool Surface, const char *Call) {
  if (H == 0) return cudaSuccess;
  {
    std::lock_guard<std::mutex> L(R().mu);
    auto It = R().objects.find(H);
    if (It == R().objects.end() || It->second.surface != Surface)
      return fail(cudaErrorInvalidValue, std::string(Call) + ": not a live " + (Surface ? "surface" : "texture") + " object");
    R().objects.erase(It);
  }
  return cudaFree(reinterpret_cast<void *>(H));
}

cudaError_t lookupObject(unsigned long long H, bool Surface, TexObject &Out, const char *Call) {
  std::lock_guard<std::mutex> L(R().mu);
  auto It = R().objects.find(H);
  if (It == R().objects.end() || It->second.surface != Surface)
    return fail(cudaErrorInvalidValue, std::string(Call) + ": not a live " + (Surface ? "surface" : "texture") + " object");
  Out = It->second;
  return cudaSuccess;
}

// cudaGet{Texture,Surface}ObjectResourceDesc: the resource the object was created from.
cudaError_t resourceDescOf(unsigned long long H, bool Surface, cudaResourceDesc *Res, const char *Call) {
  TexObject O;
  if (cudaError_t E = lookupObject(H, Surface, O, Call)) return E;
  if (!Res) return cudaErrorInvalidValue;
  *Res = O.res;
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int X, int Y, int Z, int W, cudaChannelFormatKind F) {
  return cudaChannelFormatDesc{X, Y, Z, W, F};
}

// ---- arrays -----------------------------------------------------------------
cudaError_t cudaMallocArray(cudaArray_t *A, const cudaChannelFormatDesc *Desc, size_t W, size_t H, unsigned Flags) {
  return allocArray(A, Desc, W, H, 0, Flags, "cudaMallocArray");
}
cudaError_t cudaMalloc3DArray(cudaArray_t *A, const cudaChannelFormatDesc *Desc, cudaExtent Ext, unsigned Flags) {
  return allocArray(A, Desc, Ext.width, Ext.height, Ext.depth, Flags, "cudaMalloc3DArray");
}
cudaError_t cudaFreeArray(cudaArray_t A) {
  if (!A) return cudaSuccess;
  uint64_t Base;
  {
    std::lock_guard<std::mutex> L(R().mu);
    auto It = R().arrays.find(A);
    if (It == R().arrays.end()) return badArray("cudaFreeArray");
    Base = It->second->base;
    R().arrays.erase(It);
  }
  return cudaFree(reinterpret_cast<void *>(Base));
}
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *Out, const cudaChannelFormatDesc *Desc, cudaExtent Ext,
                                     unsigned NumLevels, unsigned Flags) {
  const char *Call = "cudaMallocMipmappedArray";
  if (!Out || !Desc || Ext.width == 0) return fail(cudaErrorInvalidValue, std::string(Call) + ": null argument or zero width");
  if (Flags & (cudaArrayLayered | cudaArrayCubemap))
    return fail(cudaErrorNotSupported, std::string(Call) + ": unsupported CUDA feature: layered / cubemap mipmapped arrays");
  size_t Big = std::max({Ext.width, Ext.height, Ext.depth});
  unsigned Full = 1;
  while ((Big >> Full) > 0) ++Full;
  if (NumLevels == 0 || NumLevels > Full) NumLevels = Full; // 0: the full chain (CUDA clamps too)
  auto M = std::make_unique<cudaMipmappedArray>();
  std::vector<ptx_tex_level> Table(NumLevels);
  auto Release = [&] {
    for (cudaArray *A : M->levels) cudaFreeArray(A);
  };
  for (unsigned L = 0; L < NumLevels; ++L) {
    auto Dim = [&](size_t N) { return N ? std::max<size_t>(N >> L, 1) : 0; };
    cudaArray_t A = nullptr;
    if (cudaError_t E = allocArray(&A, Desc, Dim(Ext.width), Dim(Ext.height), Dim(Ext.depth), Flags, Call)) {
      Release();
      return E;
    }
    M->levels.push_back(A);
    ptx_tex_desc T{};
    describeArray(*A, T);
    Table[L] = ptx_tex_level{T.base, T.pitch, T.width, T.height, T.depth, 0};
  }
  void *P = nullptr;
  if (cudaError_t E = cudaMalloc(&P, Table.size() * sizeof(ptx_tex_level))) {
    Release();
    return E;
  }
  if (cudaError_t E = cudaMemcpy(P, Table.data(), Table.size() * sizeof(ptx_tex_level), cudaMemcpyHostToDevice)) {
    cudaFree(P);
    Release();
    return E;
  }
  M->table = reinterpret_cast<uint64_t>(P);
  std::lock_guard<std::mutex> G(R().mu);
  *Out = M.get();
  R().mipmaps[M.get()] = std::move(M);
  return cudaSuccess;
}
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *Out, cudaMipmappedArray_const_t M, unsigned Level) {
  if (!Out) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> G(R().mu);
  auto It = R().mipmaps.find(M);
  if (It == R().mipmaps.end())
    return fail(cudaErrorInvalidResourceHandle, "cudaGetMipmappedArrayLevel: not a mipmapped array of this runtime");
  if (Level >= It->second->levels.size())
    return fail(cudaErrorInvalidValue, "cudaGetMipmappedArrayLevel: level " + std::to_string(Level) + " of " +
                                           std::to_string(It->second->levels.size()));
  *Out = It->second->levels[Level];
  return cudaSuccess;
}
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t M) {
  if (!M) return cudaSuccess;
  std::unique_ptr<cudaMipmappedArray> Own;
  {
    std::lock_guard<std::mutex> G(R().mu);
    auto It = R().mipmaps.find(M);
    if (It == R().mipmaps.end())
      return fail(cudaErrorInvalidResourceHandle, "cudaFreeMipmappedArray: not a mipmapped array of this runtime");
    Own = std::move(It->second);
    R().mipmaps.erase(It);
  }
  for (cudaArray *A : Own->levels) cudaFreeArray(A);
  return cudaFree(reinterpret_cast<void *>(Own->table));
}
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *Desc, cudaExtent *Ext, unsigned *Flags, cudaArray_t A) {
  std::lock_guard<std::mutex> L(R().mu);
  const cudaArray *Ar = findArray(A);
  if (!Ar) return badArray("cudaArrayGetInfo");
  if (Desc) *Desc = Ar->desc;
  if (Ext) *Ext = cudaExtent{Ar->width, Ar->height, Ar->depth};
  if (Flags) *Flags = Ar->flags;
  return cudaSuccess;
}
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *Desc, cudaArray_const_t A) {
  std::lock_guard<std::mutex> L(R().mu);
  const cudaArray *Ar = findArray(A);
  if (!Ar) return badArray("cudaGetChannelDesc");
  if (!Desc) return cudaErrorInvalidValue;
  *Desc = Ar->desc;
  return cudaSuccess;
}

// ---- copies to and from arrays (wOffset in bytes, hOffset in rows) ----------
cudaError_t cudaMemcpy2DToArray(cudaArray_t Dst, size_t WOff, size_t HOff, const void *Src, size_t SPitch, size_t W,
                                size_t H, cudaMemcpyKind K) {
  uint64_t Addr, Pitch;
  if (cudaError_t E = liveArrayRegion(Dst, WOff, HOff, W, H, Addr, Pitch, "cudaMemcpy2DToArray")) return E;
  if (H > 1 && SPitch < W) return fail(cudaErrorInvalidPitchValue, "cudaMemcpy2DToArray: spitch < width");
  return cudaMemcpy2D(reinterpret_cast<void *>(Addr), Pitch, Src, SPitch, W, H, K);
}
cudaError_t cudaMemcpy2DFromArray(void *Dst, size_t DPitch, cudaArray_const_t Src, size_t WOff, size_t HOff, size_t W,
                                  size_t H, cudaMemcpyKind K) {
  uint64_t Addr, Pitch;
  if (cudaError_t E = liveArrayRegion(Src, WOff, HOff, W, H, Addr, Pitch, "cudaMemcpy2DFromArray")) return E;
  if (H > 1 && DPitch < W) return fail(cudaErrorInvalidPitchValue, "cudaMemcpy2DFromArray: dpitch < width");
  return cudaMemcpy2D(Dst, DPitch, reinterpret_cast<const void *>(Addr), Pitch, W, H, K);
}
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t Dst, size_t WOff, size_t HOff, const void *Src, size_t SPitch,
                                     size_t W, size_t H, cudaMemcpyKind K, cudaStream_t) {
  return cudaMemcpy2DToArray(Dst, WOff, HOff, Src, SPitch, W, H, K);
}
cudaError_t cudaMemcpy2DFromArrayAsync(void *Dst, size_t DPitch, cudaArray_const_t Src, size_t WOff, size_t HOff,
                                       size_t W, size_t H, cudaMemcpyKind K, cudaStream_t) {
  return cudaMemcpy2DFromArray(Dst, DPitch, Src, WOff, HOff, W, H, K);
}
// The deprecated linear forms: Count bytes from (wOffset, hOffset) on,
// continuing on the next rows (arrays are packed, so this is contiguous).
cudaError_t cudaMemcpyToArray(cudaArray_t Dst, size_t WOff, size_t HOff, const void *Src, size_t Count,
                              cudaMemcpyKind K) {
  uint64_t Addr;
  {
    std::lock_guard<std::mutex> L(R().mu);
    const cudaArray *A = findArray(Dst);
    if (!A) return badArray("cudaMemcpyToArray");
    uint64_t Off = HOff * A->pitch + WOff, End = A->pitch * arrayRows(*A);
    if (WOff >= A->pitch || Off + Count > End)
      return fail(cudaErrorInvalidValue, "cudaMemcpyToArray: " + std::to_string(Count) + " bytes exceed the array");
    Addr = A->base + Off;
  }
  return cudaMemcpy(reinterpret_cast<void *>(Addr), Src, Count, K);
}
cudaError_t cudaMemcpyFromArray(void *Dst, cudaArray_const_t Src, size_t WOff, size_t HOff, size_t Count,
                                cudaMemcpyKind K) {
  uint64_t Addr;
  {
    std::lock_guard<std::mutex> L(R().mu);
    const cudaArray *A = findArray(Src);
    if (!A) return badArray("cudaMemcpyFromArray");
    uint64_t Off = HOff * A->pitch + WOff, End = A->pitch * arrayRows(*A);
    if (WOff >= A->pitch || Off + Count > End)
      return fail(cudaErrorInvalidValue, "cudaMemcpyFromArray: " + std::to_string(Count) + " bytes exceed the array");
    Addr = A->base + Off;
  }
  return cudaMemcpy(Dst, reinterpret_cast<const void *>(Addr), Count, K);
}
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t Dst, size_t WOff, size_t HOff, const void *Src, size_t Count,
                                   cudaMemcpyKind K, cudaStream_t) {
  return cudaMemcpyToArray(Dst, WOff, HOff, Src, Count, K);
}
cudaError_t cudaMemcpyFromArrayAsync(void *Dst, cudaArray_const_t Src, size_t WOff, size_t HOff, size_t Count,
                                     cudaMemcpyKind K, cudaStream_t) {
  return cudaMemcpyFromArray(Dst, Src, WOff, HOff, Count, K);
}

// Array to array: W bytes x H rows (2D form) or Count contiguous bytes.
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t Dst, size_t WOffDst, size_t HOffDst, cudaArray_const_t Src,
                                     size_t WOffSrc, size_t HOffSrc, size_t W, size_t H, cudaMemcpyKind K) {
  uint64_t DA, SA, DP, SP;
  if (cudaError_t E = liveArrayRegion(Dst, WOffDst, HOffDst, W, H, DA, DP, "cudaMemcpy2DArrayToArray")) return E;
  if (cudaError_t E = liveArrayRegion(Src, WOffSrc, HOffSrc, W, H, SA, SP, "cudaMemcpy2DArrayToArray")) return E;
  return cudaMemcpy2D(reinterpret_cast<void *>(DA), DP, reinterpret_cast<const void *>(SA), SP, W, H, K);
}
cudaError_t cudaMemcpyArrayToArray(cudaArray_t Dst, size_t WOffDst, size_t HOffDst, cudaArray_const_t Src,
                                   size_t WOffSrc, size_t HOffSrc, size_t Count, cudaMemcpyKind K) {
  uint64_t DA, SA;
  {
    std::lock_guard<std::mutex> L(R().mu);
    const cudaArray *D = findArray(Dst), *S = findArray(Src);
    if (!D || !S) return badArray("cudaMemcpyArrayToArray");
    uint64_t DOff = HOffDst * D->pitch + WOffDst, SOff = HOffSrc * S->pitch + WOffSrc;
    if (WOffDst >= D->pitch || WOffSrc >= S->pitch || DOff + Count > D->pitch * arrayRows(*D) ||
        SOff + Count > S->pitch * arrayRows(*S))
      return fail(cudaErrorInvalidValue, "cudaMemcpyArrayToArray: " + std::to_string(Count) + " bytes exceed an array");
    DA = D->base + DOff;
    SA = S->base + SOff;
  }
  return cudaMemcpy(reinterpret_cast<void *>(DA), reinterpret_cast<const void *>(SA), Count, K);
}

// cudaMemcpy3D between arrays and pitched memory: with an array on either
// side, extent.width and the positions' x are in elements, otherwise bytes.
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *P) {
  if (!P) return fail(cudaErrorInvalidValue, "cudaMemcpy3D: null parameters");
  if ((P->srcArray && P->srcPtr.ptr) || (P->dstArray && P->dstPtr.ptr) || (!P->srcArray && !P->srcPtr.ptr) ||
      (!P->dstArray && !P->dstPtr.ptr))
    return fail(cudaErrorInvalidValue, "cudaMemcpy3D: exactly one of array / pitched pointer per side");
  struct Side {
    uint64_t base, pitch, rowsPerSlice, posX, posY, posZ, limitRows;
    bool array;
  } S{}, D{};
  uint32_t Elem = 0;
  size_t Width = P->extent.width, H = std::max<size_t>(P->extent.height, 1), Dp = std::max<size_t>(P->extent.depth, 1);
  {
    std::lock_guard<std::mutex> L(R().mu);
    auto Fill = [&](Side &Sd, cudaArray_t A, const cudaPitchedPtr &Ptr, const cudaPos &Pos) -> cudaError_t {
      if (A) {
        const cudaArray *Ar = findArray(A);
        if (!Ar) return badArray("cudaMemcpy3D");
        Format F;
        if (cudaError_t E = formatOf(Ar->desc, F, "cudaMemcpy3D")) return E;
        if (Elem && Elem != F.bytes()) return fail(cudaErrorInvalidValue, "cudaMemcpy3D: arrays of different element sizes");
        Elem = F.bytes();
        Sd = Side{Ar->base, Ar->pitch, std::max<size_t>(Ar->height, 1), Pos.x, Pos.y, Pos.z,
                  arrayRows(*Ar), true};
      } else {
        Sd = Side{reinterpret_cast<uint64_t>(Ptr.ptr), Ptr.pitch, Ptr.ysize ? Ptr.ysize : 1, Pos.x, Pos.y, Pos.z,
                  ~uint64_t(0), false};
      }
      return cudaSuccess;
    };
    if (cudaError_t E = Fill(S, P->srcArray, P->srcPtr, P->srcPos)) return E;
    if (cudaError_t E = Fill(D, P->dstArray, P->dstPtr, P->dstPos)) return E;
  }
  size_t RowBytes = Elem ? Width * Elem : Width;
  auto X = [&](const Side &Sd) { return Sd.array ? Sd.posX * Elem : Sd.posX; };
  for (const Side *Sd : {&S, &D}) {
    if (Sd->array && (X(*Sd) + RowBytes > Sd->pitch || Sd->posY + H > Sd->rowsPerSlice ||
                      Sd->posZ + Dp > Sd->limitRows / Sd->rowsPerSlice))
      return fail(cudaErrorInvalidValue, "cudaMemcpy3D: the copy exceeds an array's extent");
    if (!Sd->array && H * Dp > 1 && Sd->pitch < X(*Sd) + RowBytes)
      return fail(cudaErrorInvalidPitchValue, "cudaMemcpy3D: pitch smaller than the copied row");
  }
  for (size_t Z = 0; Z < Dp; ++Z) {
    uint64_t SA = S.base + ((S.posZ + Z) * S.rowsPerSlice + S.posY) * S.pitch + X(S);
    uint64_t DA = D.base + ((D.posZ + Z) * D.rowsPerSlice + D.posY) * D.pitch + X(D);
    if (cudaError_t E = cudaMemcpy2D(reinterpret_cast<void *>(DA), D.pitch, reinterpret_cast<const void *>(SA), S.pitch,
                                     RowBytes, H, P->kind))
      return E;
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *P, cudaStream_t) { return cudaMemcpy3D(P); }

// ---- texture objects --------------------------------------------------------
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *Out, const cudaResourceDesc *Res, const cudaTextureDesc *Tex,
                                    const cudaResourceViewDesc *View) {
  const char *Call = "cudaCreateTextureObject";
  if (!Out || !Res || !Tex) return fail(cudaErrorInvalidValue, std::string(Call) + ": null argument");
  *Out = 0;
  if (View) return fail(cudaErrorNotSupported, std::string(Call) + ": unsupported CUDA feature: resource views");
  ptx_tex_desc T;
  memset(&T, 0, sizeof T);
  T.magic = PTX_TEX_DESC_MAGIC;
  Format F;
  bool Linear = false;
  if (cudaError_t E = describeResource(*Res, T, F, Linear, Call)) return E;
  T.channels = F.channels;
  T.bits = F.bits;
  T.kind = F.kind;
  if (Tex->sRGB) return fail(cudaErrorNotSupported, std::string(Call) + ": unsupported CUDA feature: sRGB conversion");
  if (Tex->readMode != cudaReadModeElementType && Tex->readMode != cudaReadModeNormalizedFloat)
    return fail(cudaErrorInvalidValue, std::string(Call) + ": unknown read mode " + std::to_string(int(Tex->readMode)));
  bool Normalized = Tex->readMode == cudaReadModeNormalizedFloat && F.kind != PTX_TEX_KIND_FLOAT;
  if (Normalized && F.bits == 32)
    return fail(cudaErrorInvalidNormSetting,
                std::string(Call) + ": cudaReadModeNormalizedFloat needs 8- or 16-bit integer channels");
  T.read_mode = Normalized ? PTX_TEX_READ_NORMALIZED : PTX_TEX_READ_ELEMENT;
  if (Tex->filterMode != cudaFilterModePoint && Tex->filterMode != cudaFilterModeLinear)
    return fail(cudaErrorInvalidValue, std::string(Call) + ": unknown filter mode " + std::to_string(int(Tex->filterMode)));
  bool FloatResult = F.kind == PTX_TEX_KIND_FLOAT || Normalized;
  if (Tex->filterMode == cudaFilterModeLinear && !FloatResult && !Linear)
    return fail(cudaErrorInvalidFilterSetting,
                std::string(Call) + ": linear filtering of element-type integer reads (only float results are filtered)");
  T.filter = Tex->filterMode == cudaFilterModeLinear ? PTX_TEX_FILTER_LINEAR : PTX_TEX_FILTER_POINT;
  if (Tex->normalizedCoords) T.flags |= PTX_TEX_FLAG_NORMALIZED_COORDS;
  for (int D = 0; D < 3; ++D) {
    int M = Tex->addressMode[D];
    if (M < cudaAddressModeWrap || M > cudaAddressModeBorder)
      return fail(cudaErrorInvalidValue, std::string(Call) + ": unknown address mode " + std::to_string(M));
    T.address[D] = uint8_t(M); // ptx_tex_address has cudaTextureAddressMode's values
  }
  for (int C = 0; C < 4; ++C) T.border_color[C] = Tex->borderColor[C];
  if (Linear) {
    // tex1Dfetch on linear memory: integer texel indices, no filtering or
    // addressing; an index outside the resource reads zero.
    T.address[0] = T.address[1] = T.address[2] = PTX_TEX_ADDR_BORDER;
    for (float &C : T.border_color) C = 0.0f;
  }
  // Seamless cube filtering blends texels of neighbouring faces at the edges; the device
  // library clamps to the face, which equals it for point sampling only.
  if (Tex->seamlessCubemap && T.geometry == PTX_TEX_GEOM_CUBE && T.filter == PTX_TEX_FILTER_LINEAR)
    return fail(cudaErrorNotSupported,
                std::string(Call) + ": unsupported CUDA feature: seamless cubemap filtering (linear filtering across "
                                    "cube faces)");
  // Mipmapped resources: level selection (tex.level / tex.grad). maxAnisotropy is ignored:
  // the gradients are isotropic in what the device library computes.
  T.mip_filter = Tex->mipmapFilterMode == cudaFilterModeLinear ? PTX_TEX_FILTER_LINEAR : PTX_TEX_FILTER_POINT;
  T.min_lod = Tex->minMipmapLevelClamp;
  T.max_lod = Tex->maxMipmapLevelClamp;
  T.lod_bias = Tex->mipmapLevelBias;
  TexObject Obj;
  Obj.res = *Res;
  Obj.tex = *Tex;
  return publish(T, Obj, Out);
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t T) {
  return destroyObject(T, false, "cudaDestroyTextureObject");
}
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *Res, cudaTextureObject_t T) {
  return resourceDescOf(T, false, Res, "cudaGetTextureObjectResourceDesc");
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *Tex, cudaTextureObject_t T) {
  TexObject O;
  if (cudaError_t E = lookupObject(T, false, O, "cudaGetTextureObjectTextureDesc")) return E;
  if (!Tex) return cudaErrorInvalidValue;
  *Tex = O.tex;
  return cudaSuccess;
}

// ---- surface objects --------------------------------------------------------
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *Out, const cudaResourceDesc *Res) {
  const char *Call = "cudaCreateSurfaceObject";
  if (!Out || !Res) return fail(cudaErrorInvalidValue, std::string(Call) + ": null argument");
  *Out = 0;
  if (Res->resType != cudaResourceTypeArray)
    return fail(cudaErrorInvalidValue, std::string(Call) + ": surfaces need a CUDA array resource");
  {
    std::lock_guard<std::mutex> L(R().mu);
    const cudaArray *A = findArray(Res->res.array.array);
    if (!A) return badArray(Call);
    // CUDA 13 on an H200 creates a surface on an array allocated without
    // cudaArraySurfaceLoadStore (returns cudaSuccess; measured with
    // scripts/probe/texprobe.cu), so the shim does not refuse it either.
  }
  ptx_tex_desc T;
  memset(&T, 0, sizeof T);
  T.magic = PTX_TEX_DESC_MAGIC;
  T.flags = PTX_TEX_FLAG_SURFACE;
  Format F;
  bool Linear = false;
  if (cudaError_t E = describeResource(*Res, T, F, Linear, Call)) return E;
  T.channels = F.channels;
  T.bits = F.bits;
  T.kind = F.kind;
  T.filter = PTX_TEX_FILTER_POINT;
  T.read_mode = PTX_TEX_READ_ELEMENT;
  T.address[0] = T.address[1] = T.address[2] = PTX_TEX_ADDR_CLAMP;
  TexObject Obj;
  Obj.surface = true;
  Obj.res = *Res;
  return publish(T, Obj, Out);
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t S) {
  return destroyObject(S, true, "cudaDestroySurfaceObject");
}
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *Res, cudaSurfaceObject_t S) {
  return resourceDescOf(S, true, Res, "cudaGetSurfaceObjectResourceDesc");
}

} // extern "C"
