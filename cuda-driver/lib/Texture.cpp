//===- cuda-driver/lib/Texture.cpp - CUDA arrays, texture and surface objects ---------===//
//
// The driver API's side of the core's texture resources (runtime/Texture.h): CUarray is the
// core's runtime::Array of the current context (the same object a cudaArray_t is), and
// CUDA_ARRAY(3D)_DESCRIPTOR, CUDA_RESOURCE_DESC and CUDA_TEXTURE_DESC map field by field to
// the core's descriptors and back. CU_AD_FORMAT_* + NumChannels become the core's channel
// format (the eight plain formats; packed video, block-compressed and UNORM/SNORM formats are
// refused by name). Reads of 8/16-bit integers are promoted to [0,1] / [-1,1] unless
// CU_TRSF_READ_AS_INTEGER is set; 32-bit integers are never promoted (CUDA's documented rule).
// Copies with array endpoints (cuMemcpy2D / 3D, the 1D cuMemcpy{H,D,A}to{A,H,D} forms with
// byte offsets) resolve in the core (runtime::resolveCopy) and run as one Stream::copy3D.
// CUmipmappedArray is the core's runtime::MipmappedArray (one core array per level; layered /
// cube-map levels keep all their layers). A CUDA_RESOURCE_VIEW_DESC
// becomes the core's runtime::ResourceView (its format decides what is promoted).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "runtime/ApiEnum.h"
#include "runtime/Texture.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace cudadrv;

namespace {

runtime::Array *toCore(CUarray A) { return reinterpret_cast<runtime::Array *>(A); }
CUarray toApi(const runtime::Array *A) { return reinterpret_cast<CUarray>(const_cast<runtime::Array *>(A)); }

const runtime::MipmappedArray *toCore(CUmipmappedArray M) { return reinterpret_cast<const runtime::MipmappedArray *>(M); }
CUmipmappedArray toApi(const runtime::MipmappedArray *M) {
  return reinterpret_cast<CUmipmappedArray>(const_cast<runtime::MipmappedArray *>(M));
}

CUresult core(runtime::Context **Out) {
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  *Out = C->core;
  return CUDA_SUCCESS;
}

// CU_AD_FORMAT_* + channel count -> the core's format.
CUresult formatOf(unsigned F, unsigned Channels, runtime::ChannelFormat &Out, const char *Call) {
  using K = runtime::ChannelKind;
  switch (F) {
  case CU_AD_FORMAT_UNSIGNED_INT8: Out = {0, 8, K::Unsigned}; break;
  case CU_AD_FORMAT_UNSIGNED_INT16: Out = {0, 16, K::Unsigned}; break;
  case CU_AD_FORMAT_UNSIGNED_INT32: Out = {0, 32, K::Unsigned}; break;
  case CU_AD_FORMAT_SIGNED_INT8: Out = {0, 8, K::Signed}; break;
  case CU_AD_FORMAT_SIGNED_INT16: Out = {0, 16, K::Signed}; break;
  case CU_AD_FORMAT_SIGNED_INT32: Out = {0, 32, K::Signed}; break;
  case CU_AD_FORMAT_HALF: Out = {0, 16, K::Float}; break;
  case CU_AD_FORMAT_FLOAT: Out = {0, 32, K::Float}; break;
  default:
    // The packed / planar video, UNORM / SNORM and block-compressed formats of cuda.h.
    if ((F >= 0x91 && F <= 0xb5) || (F >= 0xc0 && F <= 0xcb) || F == 0x50)
      return failLoud(CUDA_ERROR_NOT_SUPPORTED, std::string(Call) + ": unsupported CUDA feature: array format 0x" +
                                                    llvm::utohexstr(unsigned(F)) +
                                                    " (only the 8/16/32-bit integer, half and float formats)");
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (Channels != 1 && Channels != 2 && Channels != 4) return CUDA_ERROR_INVALID_VALUE;
  Out.channels = uint8_t(Channels);
  return CUDA_SUCCESS;
}

CUarray_format formatEnum(const runtime::ChannelFormat &F) {
  using K = runtime::ChannelKind;
  if (F.kind == K::Float) return F.bits == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
  bool S = F.kind == K::Signed;
  switch (F.bits) {
  case 8: return S ? CU_AD_FORMAT_SIGNED_INT8 : CU_AD_FORMAT_UNSIGNED_INT8;
  case 16: return S ? CU_AD_FORMAT_SIGNED_INT16 : CU_AD_FORMAT_UNSIGNED_INT16;
  default: return S ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32;
  }
}

CUresult createArray(CUarray *Out, unsigned F, unsigned Ch, size_t W, size_t H, size_t D, unsigned Flags,
                     const char *Call) {
  if (!Out) return CUDA_ERROR_INVALID_VALUE;
  runtime::ArrayDesc AD;
  if (CUresult R = formatOf(F, Ch, AD.format, Call)) return R;
  AD.width = W;
  AD.height = H;
  AD.depth = D;
  AD.flags = Flags;
  runtime::Context *C;
  if (CUresult R = core(&C)) return R;
  auto A = C->createArray(AD);
  if (!A) return fail(A.takeError(), Call);
  *Out = toApi(*A);
  return CUDA_SUCCESS;
}

CUresult liveArray(CUarray A, const runtime::Array **Out) {
  runtime::Context *C;
  if (CUresult R = core(&C)) return R;
  *Out = A ? C->array(toCore(A)) : nullptr;
  return *Out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

// One side of a cuMemcpy2D / 3D.
CUresult endpoint(unsigned T, const void *Host, CUdeviceptr Dev, CUarray Arr, size_t Pitch, size_t Rows, size_t X,
                  size_t Y, size_t Z, runtime::CopyEndpoint &E) {
  E = {};
  E.x = X;
  E.y = Y;
  E.z = Z;
  switch (T) {
  case CU_MEMORYTYPE_HOST: E.ptr = reinterpret_cast<uint64_t>(Host); break;
  case CU_MEMORYTYPE_DEVICE:
  case CU_MEMORYTYPE_UNIFIED: E.ptr = Dev; break;
  case CU_MEMORYTYPE_ARRAY: {
    if (CUresult R = liveArray(Arr, &E.array)) return R == CUDA_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : R;
    return CUDA_SUCCESS;
  }
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  if (!E.ptr) return CUDA_ERROR_INVALID_VALUE;
  E.pitch = Pitch;
  E.rows = Rows;
  return CUDA_SUCCESS;
}

// Runs a resolved copy: on stream H (Async), else synchronously (legacy or per-thread stream).
CUresult run(const runtime::CopyNodeParams &P, CUstream H, bool Async, bool PerThread, const char *Call) {
  runtime::Stream *S;
  if (Async || PerThread) {
    if (CUresult R = resolveStream(Async ? H : nullptr, PerThread, &S)) return R;
  } else {
    runtime::Context *C;
    if (CUresult R = core(&C)) return R;
    S = &C->legacyStream();
  }
  if (auto E = S->copy3D(P)) return fail(std::move(E), Call);
  if (Async) return CUDA_SUCCESS;
  return fail(PerThread ? S->synchronize() : S->drain(), Call);
}

CUresult copy(const runtime::CopyEndpoint &Src, const runtime::CopyEndpoint &Dst, size_t W, size_t H, size_t D,
              CUstream St, bool Async, bool PerThread, const char *Call) {
  auto P = runtime::resolveCopy(Src, Dst, W, H, D, runtime::MemcpyKind::Default);
  if (!P) return fail(P.takeError(), Call);
  return run(*P, St, Async, PerThread, Call);
}

// The 1D forms: N bytes at byte offset Off of an array's first row (the H200 refuses a range
// past Width elements with CUDA_ERROR_INVALID_VALUE, also on 2D arrays: tests/driver/golden/drv_array.out).
CUresult arrayBytes(CUarray A, size_t Off, size_t N, runtime::CopyEndpoint &E) {
  const runtime::Array *Ar;
  if (CUresult R = liveArray(A, &Ar)) return R;
  if (Off > Ar->pitch || N > Ar->pitch - Off) return CUDA_ERROR_INVALID_VALUE;
  E = {};
  E.ptr = Ar->base + Off;
  E.pitch = N;
  return CUDA_SUCCESS;
}
runtime::CopyEndpoint linear(uint64_t P, size_t N) {
  runtime::CopyEndpoint E;
  E.ptr = P;
  E.pitch = N;
  return E;
}
CUresult copy1D(CUresult RS, const runtime::CopyEndpoint &S, CUresult RD, const runtime::CopyEndpoint &D, size_t N,
                CUstream H, bool Async, bool PerThread, const char *Call) {
  if (RS) return RS;
  if (RD) return RD;
  if (N == 0) return CUDA_SUCCESS;
  return copy(S, D, N, 1, 1, H, Async, PerThread, Call);
}

// ---- texture objects ------------------------------------------------------------------
CUresult resourceOf(const CUDA_RESOURCE_DESC &Res, runtime::ResourceDesc &R, const char *Call) {
  if (Res.flags != 0) return CUDA_ERROR_INVALID_VALUE;
  switch (runtime::rawEnum(Res.resType)) {
  case CU_RESOURCE_TYPE_ARRAY: {
    R.kind = runtime::ResourceKind::Array;
    if (CUresult E = liveArray(Res.res.array.hArray, &R.array)) return E == CUDA_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : E;
    return CUDA_SUCCESS;
  }
  case CU_RESOURCE_TYPE_LINEAR:
    R.kind = runtime::ResourceKind::Linear;
    R.ptr = Res.res.linear.devPtr;
    R.sizeBytes = Res.res.linear.sizeInBytes;
    return formatOf(runtime::rawEnum(Res.res.linear.format), Res.res.linear.numChannels, R.format, Call);
  case CU_RESOURCE_TYPE_PITCH2D:
    R.kind = runtime::ResourceKind::Pitch2D;
    R.ptr = Res.res.pitch2D.devPtr;
    R.width = Res.res.pitch2D.width;
    R.height = Res.res.pitch2D.height;
    R.pitch = Res.res.pitch2D.pitchInBytes;
    return formatOf(runtime::rawEnum(Res.res.pitch2D.format), Res.res.pitch2D.numChannels, R.format, Call);
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
    runtime::Context *C;
    if (CUresult E = core(&C)) return E;
    R.kind = runtime::ResourceKind::MipmappedArray;
    CUmipmappedArray M = Res.res.mipmap.hMipmappedArray;
    R.mipmap = M ? C->mipmappedArray(toCore(M)) : nullptr;
    return R.mipmap ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
  }
  default: return CUDA_ERROR_INVALID_VALUE;
  }
}

CUDA_RESOURCE_DESC resourceDescOf(const runtime::ResourceDesc &R) {
  CUDA_RESOURCE_DESC D;
  std::memset(&D, 0, sizeof D);
  switch (R.kind) {
  case runtime::ResourceKind::Array:
    D.resType = CU_RESOURCE_TYPE_ARRAY;
    D.res.array.hArray = toApi(R.array);
    break;
  case runtime::ResourceKind::MipmappedArray:
    D.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    D.res.mipmap.hMipmappedArray = toApi(R.mipmap);
    break;
  case runtime::ResourceKind::Linear:
    D.resType = CU_RESOURCE_TYPE_LINEAR;
    D.res.linear.devPtr = R.ptr;
    D.res.linear.format = formatEnum(R.format);
    D.res.linear.numChannels = R.format.channels;
    D.res.linear.sizeInBytes = R.sizeBytes;
    break;
  case runtime::ResourceKind::Pitch2D:
    D.resType = CU_RESOURCE_TYPE_PITCH2D;
    D.res.pitch2D.devPtr = R.ptr;
    D.res.pitch2D.format = formatEnum(R.format);
    D.res.pitch2D.numChannels = R.format.channels;
    D.res.pitch2D.width = R.width;
    D.res.pitch2D.height = R.height;
    D.res.pitch2D.pitchInBytes = R.pitch;
    break;
  }
  return D;
}

CUresult textureOf(const CUDA_TEXTURE_DESC &X, const runtime::ChannelFormat &F, runtime::TextureDesc &T) {
  for (int D = 0; D < 3; ++D) {
    unsigned M = runtime::rawEnum(X.addressMode[D]);
    if (M > CU_TR_ADDRESS_MODE_BORDER) return CUDA_ERROR_INVALID_VALUE;
    T.address[D] = runtime::AddressMode(M);
  }
  unsigned Filter = runtime::rawEnum(X.filterMode), MipFilter = runtime::rawEnum(X.mipmapFilterMode);
  if (Filter > CU_TR_FILTER_MODE_LINEAR || MipFilter > CU_TR_FILTER_MODE_LINEAR) return CUDA_ERROR_INVALID_VALUE;
  T.filter = runtime::FilterMode(Filter);
  T.promoteIntegers = !(X.flags & CU_TRSF_READ_AS_INTEGER) && F.kind != runtime::ChannelKind::Float && F.bits < 32;
  // Linear filtering of element-type integer reads: the driver API creates the object (the H200
  // answers CUDA_SUCCESS for 8-, 16- and 32-bit channels, where cudaCreateTextureObject refuses) and
  // the texture unit blends the integers (tests/driver/golden/drv_tex_int.out, drv_array_probe.out;
  // the device library's sample_int_linear).
  T.filterIntegers = true;
  T.normalizedCoords = X.flags & CU_TRSF_NORMALIZED_COORDINATES;
  T.sRGB = X.flags & CU_TRSF_SRGB;
  T.seamlessCubemap = X.flags & CU_TRSF_SEAMLESS_CUBEMAP;
  T.disableTrilinear = X.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  for (int C = 0; C < 4; ++C) T.border[C] = X.borderColor[C];
  T.maxAnisotropy = X.maxAnisotropy;
  T.mipmapFilter = runtime::FilterMode(MipFilter);
  T.mipmapLevelBias = X.mipmapLevelBias;
  T.minMipmapLevelClamp = X.minMipmapLevelClamp;
  T.maxMipmapLevelClamp = X.maxMipmapLevelClamp;
  return CUDA_SUCCESS;
}

// Every field but borderColor, which CUDA leaves as the caller had it (the H200 returns the
// caller's bytes there: tests/driver/golden/drv_array.out, "texture desc").
void textureDescOf(const runtime::TextureObject &O, CUDA_TEXTURE_DESC &D) {
  const runtime::TextureDesc &T = O.tex;
  float Border[4];
  std::memcpy(Border, D.borderColor, sizeof Border);
  std::memset(&D, 0, sizeof D);
  std::memcpy(D.borderColor, Border, sizeof Border);
  for (int I = 0; I < 3; ++I) D.addressMode[I] = CUaddress_mode(T.address[I]);
  D.filterMode = CUfilter_mode(T.filter);
  const runtime::ChannelFormat &F = O.format;
  bool Integer = F.kind != runtime::ChannelKind::Float;
  D.flags = (Integer && !T.promoteIntegers ? CU_TRSF_READ_AS_INTEGER : 0) |
            (T.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (T.sRGB ? CU_TRSF_SRGB : 0) |
            (T.seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0) |
            (T.disableTrilinear ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0);
  D.maxAnisotropy = T.maxAnisotropy;
  D.mipmapFilterMode = CUfilter_mode(T.mipmapFilter);
  D.mipmapLevelBias = T.mipmapLevelBias;
  D.minMipmapLevelClamp = T.minMipmapLevelClamp;
  D.maxMipmapLevelClamp = T.maxMipmapLevelClamp;
}

CUresult createObject(unsigned long long *Out, const CUDA_RESOURCE_DESC *Res, const CUDA_TEXTURE_DESC *Tex,
                      const CUDA_RESOURCE_VIEW_DESC *View, bool Surface, const char *Call) {
  if (!Out || !Res || (!Surface && !Tex)) return CUDA_ERROR_INVALID_VALUE;
  if (Surface && runtime::rawEnum(Res->resType) != CU_RESOURCE_TYPE_ARRAY) return CUDA_ERROR_INVALID_VALUE;
  runtime::ResourceDesc R;
  if (CUresult E = resourceOf(*Res, R, Call)) return E;
  runtime::ChannelFormat F = R.kind == runtime::ResourceKind::Array            ? R.array->desc.format
                             : R.kind == runtime::ResourceKind::MipmappedArray ? R.mipmap->levels.front()->desc.format
                                                                                : R.format;
  runtime::ResourceView V;
  if (View) {
    V = runtime::ResourceView::from(*View);
    auto VF = runtime::viewFormat(V.format); // the view's format decides what is promoted
    if (!VF) return fail(VF.takeError(), Call);
    if (*VF) F = **VF;
  }
  runtime::TextureDesc T;
  if (!Surface)
    if (CUresult E = textureOf(*Tex, F, T)) return E;
  runtime::Context *C;
  if (CUresult E = core(&C)) return E;
  auto H = C->createTextureObject(R, Surface ? nullptr : &T, View ? &V : nullptr);
  if (!H) return fail(H.takeError(), Call);
  *Out = *H;
  return CUDA_SUCCESS;
}

CUresult lookup(unsigned long long H, bool Surface, runtime::TextureObject &O, const char *Call) {
  runtime::Context *C;
  if (CUresult E = core(&C)) return E;
  auto X = C->textureObject(H, Surface);
  if (!X) return fail(X.takeError(), Call);
  O = *X;
  return CUDA_SUCCESS;
}

CUresult destroy(unsigned long long H, bool Surface, const char *Call) {
  if (H == 0) return CUDA_SUCCESS; // the H200's answer for a null object
  runtime::Context *C;
  if (CUresult E = core(&C)) return E;
  return fail(C->destroyTextureObject(H, Surface), Call);
}

} // namespace

// ---- arrays ---------------------------------------------------------------------------
CUresult cuArrayCreate(CUarray *A, const CUDA_ARRAY_DESCRIPTOR *D) {
  if (!D) return CUDA_ERROR_INVALID_VALUE;
  return createArray(A, runtime::rawEnum(D->Format), D->NumChannels, D->Width, D->Height, 0, 0, "cuArrayCreate");
}
CUresult cuArray3DCreate(CUarray *A, const CUDA_ARRAY3D_DESCRIPTOR *D) {
  if (!D) return CUDA_ERROR_INVALID_VALUE;
  return createArray(A, runtime::rawEnum(D->Format), D->NumChannels, D->Width, D->Height, D->Depth, D->Flags, "cuArray3DCreate");
}
CUresult cuArrayDestroy(CUarray A) {
  runtime::Context *C;
  if (CUresult R = core(&C)) return R;
  if (!A || !C->array(toCore(A))) return CUDA_ERROR_INVALID_HANDLE;
  return fail(C->destroyArray(toCore(A)), "cuArrayDestroy");
}
CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *D, CUarray A) {
  const runtime::Array *Ar;
  if (CUresult R = liveArray(A, &Ar)) return R;
  if (!D) return CUDA_ERROR_INVALID_VALUE;
  D->Format = formatEnum(Ar->desc.format);
  D->NumChannels = Ar->desc.format.channels;
  D->Width = Ar->desc.width;
  D->Height = Ar->desc.height;
  return CUDA_SUCCESS;
}
CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *D, CUarray A) {
  const runtime::Array *Ar;
  if (CUresult R = liveArray(A, &Ar)) return R;
  if (!D) return CUDA_ERROR_INVALID_VALUE;
  D->Format = formatEnum(Ar->desc.format);
  D->NumChannels = Ar->desc.format.channels;
  D->Width = Ar->desc.width;
  D->Height = Ar->desc.height;
  D->Depth = Ar->desc.depth;
  D->Flags = Ar->desc.flags;
  return CUDA_SUCCESS;
}

// ---- mipmapped arrays ---------------------------------------------------------------------
CUresult cuMipmappedArrayCreate(CUmipmappedArray *Out, const CUDA_ARRAY3D_DESCRIPTOR *D, unsigned NumLevels) {
  const char *Call = "cuMipmappedArrayCreate";
  if (!Out || !D) return CUDA_ERROR_INVALID_VALUE;
  runtime::ArrayDesc AD;
  if (CUresult R = formatOf(runtime::rawEnum(D->Format), D->NumChannels, AD.format, Call)) return R;
  AD.width = D->Width;
  AD.height = D->Height;
  AD.depth = D->Depth;
  AD.flags = D->Flags;
  runtime::Context *C;
  if (CUresult R = core(&C)) return R;
  auto M = C->createMipmappedArray(AD, NumLevels);
  if (!M) return fail(M.takeError(), Call);
  *Out = toApi(*M);
  return CUDA_SUCCESS;
}
CUresult cuMipmappedArrayGetLevel(CUarray *Out, CUmipmappedArray M, unsigned Level) {
  runtime::Context *C;
  if (CUresult R = core(&C)) return R;
  const runtime::MipmappedArray *Mm = M ? C->mipmappedArray(toCore(M)) : nullptr;
  if (!Mm) return CUDA_ERROR_INVALID_HANDLE;
  if (!Out || Level >= Mm->levels.size()) return CUDA_ERROR_INVALID_VALUE; // the H200: level 5 of 5
  *Out = toApi(Mm->levels[Level]);
  return CUDA_SUCCESS;
}
CUresult cuMipmappedArrayDestroy(CUmipmappedArray M) {
  runtime::Context *C;
  if (CUresult R = core(&C)) return R;
  if (!M || !C->mipmappedArray(toCore(M))) return CUDA_ERROR_INVALID_HANDLE;
  return fail(C->destroyMipmappedArray(toCore(M)), "cuMipmappedArrayDestroy");
}

// ---- copies -----------------------------------------------------------------------------
namespace cudadrv {
CUresult copy2DParams(const CUDA_MEMCPY2D *P, CUstream H, bool Async, bool PerThread) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  runtime::CopyEndpoint S, D;
  if (CUresult R = endpoint(runtime::rawEnum(P->srcMemoryType), P->srcHost, P->srcDevice, P->srcArray, P->srcPitch, 0, P->srcXInBytes,
                            P->srcY, 0, S))
    return R;
  if (CUresult R = endpoint(runtime::rawEnum(P->dstMemoryType), P->dstHost, P->dstDevice, P->dstArray, P->dstPitch, 0, P->dstXInBytes,
                            P->dstY, 0, D))
    return R;
  return copy(S, D, P->WidthInBytes, P->Height, 1, H, Async, PerThread, "cuMemcpy2D");
}
CUresult memcpy3DParams(const CUDA_MEMCPY3D *P, runtime::CopyNodeParams &Out) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  if (P->srcLOD || P->dstLOD) return unsupported("CUDA_MEMCPY3D with mipmap levels (srcLOD / dstLOD)");
  runtime::CopyEndpoint S, D;
  size_t H = P->Height ? P->Height : 1;
  if (CUresult R = endpoint(runtime::rawEnum(P->srcMemoryType), P->srcHost, P->srcDevice, P->srcArray,
                            P->srcPitch ? P->srcPitch : P->WidthInBytes, P->srcHeight ? P->srcHeight : H,
                            P->srcXInBytes, P->srcY, P->srcZ, S))
    return R;
  if (CUresult R = endpoint(runtime::rawEnum(P->dstMemoryType), P->dstHost, P->dstDevice, P->dstArray,
                            P->dstPitch ? P->dstPitch : P->WidthInBytes, P->dstHeight ? P->dstHeight : H,
                            P->dstXInBytes, P->dstY, P->dstZ, D))
    return R;
  auto C = runtime::resolveCopy(S, D, P->WidthInBytes, P->Height, P->Depth, runtime::MemcpyKind::Default);
  if (!C) return fail(C.takeError(), "cuMemcpy3D");
  Out = *C;
  return CUDA_SUCCESS;
}

CUDA_MEMCPY3D memcpy3DOf(const runtime::CopyNodeParams &C) {
  CUDA_MEMCPY3D P;
  std::memset(&P, 0, sizeof P);
  if (C.srcArray) {
    P.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    P.srcArray = toApi(C.srcArray);
    P.srcXInBytes = C.srcPos[0], P.srcY = C.srcPos[1], P.srcZ = C.srcPos[2];
  } else {
    P.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    P.srcDevice = C.src;
    P.srcPitch = C.srcPitch;
    P.srcHeight = C.srcRows;
  }
  if (C.dstArray) {
    P.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    P.dstArray = toApi(C.dstArray);
    P.dstXInBytes = C.dstPos[0], P.dstY = C.dstPos[1], P.dstZ = C.dstPos[2];
  } else {
    P.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    P.dstDevice = C.dst;
    P.dstPitch = C.dstPitch;
    P.dstHeight = C.dstRows;
  }
  P.WidthInBytes = C.widthBytes;
  P.Height = C.height;
  P.Depth = C.depth;
  return P;
}

CUresult copy3DParams(const CUDA_MEMCPY3D *P, CUstream H, bool Async, bool PerThread) {
  runtime::CopyNodeParams C;
  if (CUresult R = memcpy3DParams(P, C)) return R;
  return run(C, H, Async, PerThread, "cuMemcpy3D");
}
} // namespace cudadrv

CUresult cuMemcpy3D(const CUDA_MEMCPY3D *P) { return copy3DParams(P, nullptr, false, false); }
extern "C" CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *P) { return copy3DParams(P, nullptr, false, true); }
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *P, CUstream H) { return copy3DParams(P, H, true, false); }
extern "C" CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *P, CUstream H) { return copy3DParams(P, H, true, true); }

#define DRV_1D(NAME, SIG, SRC, DST, N, ASYNC, PT, STREAM)                                                   \
  extern "C" CUresult NAME SIG {                                                                           \
    runtime::CopyEndpoint S, D;                                                                            \
    CUresult RS = SRC, RD = DST;                                                                           \
    return copy1D(RS, S, RD, D, N, STREAM, ASYNC, PT, #NAME);                                              \
  }
#define HOST_SIDE(E, P, N) ((E) = linear(reinterpret_cast<uint64_t>(P), N), CUDA_SUCCESS)
#define DEV_SIDE(E, P, N) ((E) = linear(P, N), CUDA_SUCCESS)
DRV_1D(cuMemcpyHtoA_v2, (CUarray A, size_t Off, const void *H, size_t N), HOST_SIDE(S, H, N), arrayBytes(A, Off, N, D), N, false, false, nullptr)
DRV_1D(cuMemcpyHtoA_v2_ptds, (CUarray A, size_t Off, const void *H, size_t N), HOST_SIDE(S, H, N), arrayBytes(A, Off, N, D), N, false, true, nullptr)
DRV_1D(cuMemcpyAtoH_v2, (void *H, CUarray A, size_t Off, size_t N), arrayBytes(A, Off, N, S), HOST_SIDE(D, H, N), N, false, false, nullptr)
DRV_1D(cuMemcpyAtoH_v2_ptds, (void *H, CUarray A, size_t Off, size_t N), arrayBytes(A, Off, N, S), HOST_SIDE(D, H, N), N, false, true, nullptr)
DRV_1D(cuMemcpyHtoAAsync_v2, (CUarray A, size_t Off, const void *H, size_t N, CUstream St), HOST_SIDE(S, H, N), arrayBytes(A, Off, N, D), N, true, false, St)
DRV_1D(cuMemcpyHtoAAsync_v2_ptsz, (CUarray A, size_t Off, const void *H, size_t N, CUstream St), HOST_SIDE(S, H, N), arrayBytes(A, Off, N, D), N, true, true, St)
DRV_1D(cuMemcpyAtoHAsync_v2, (void *H, CUarray A, size_t Off, size_t N, CUstream St), arrayBytes(A, Off, N, S), HOST_SIDE(D, H, N), N, true, false, St)
DRV_1D(cuMemcpyAtoHAsync_v2_ptsz, (void *H, CUarray A, size_t Off, size_t N, CUstream St), arrayBytes(A, Off, N, S), HOST_SIDE(D, H, N), N, true, true, St)
DRV_1D(cuMemcpyAtoD_v2, (CUdeviceptr P, CUarray A, size_t Off, size_t N), arrayBytes(A, Off, N, S), DEV_SIDE(D, P, N), N, false, false, nullptr)
DRV_1D(cuMemcpyAtoD_v2_ptds, (CUdeviceptr P, CUarray A, size_t Off, size_t N), arrayBytes(A, Off, N, S), DEV_SIDE(D, P, N), N, false, true, nullptr)
DRV_1D(cuMemcpyDtoA_v2, (CUarray A, size_t Off, CUdeviceptr P, size_t N), DEV_SIDE(S, P, N), arrayBytes(A, Off, N, D), N, false, false, nullptr)
DRV_1D(cuMemcpyDtoA_v2_ptds, (CUarray A, size_t Off, CUdeviceptr P, size_t N), DEV_SIDE(S, P, N), arrayBytes(A, Off, N, D), N, false, true, nullptr)
DRV_1D(cuMemcpyAtoA_v2, (CUarray Dst, size_t DOff, CUarray Src, size_t SOff, size_t N), arrayBytes(Src, SOff, N, S), arrayBytes(Dst, DOff, N, D), N, false, false, nullptr)
DRV_1D(cuMemcpyAtoA_v2_ptds, (CUarray Dst, size_t DOff, CUarray Src, size_t SOff, size_t N), arrayBytes(Src, SOff, N, S), arrayBytes(Dst, DOff, N, D), N, false, true, nullptr)
#undef DEV_SIDE
#undef HOST_SIDE
#undef DRV_1D

// ---- texture and surface objects ------------------------------------------------------------
CUresult cuTexObjectCreate(CUtexObject *T, const CUDA_RESOURCE_DESC *R, const CUDA_TEXTURE_DESC *X,
                           const CUDA_RESOURCE_VIEW_DESC *V) {
  return createObject(T, R, X, V, false, "cuTexObjectCreate");
}
CUresult cuTexObjectDestroy(CUtexObject T) { return destroy(T, false, "cuTexObjectDestroy"); }
CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *R, CUtexObject T) {
  runtime::TextureObject O;
  if (CUresult E = lookup(T, false, O, "cuTexObjectGetResourceDesc")) return E;
  if (!R) return CUDA_ERROR_INVALID_VALUE;
  *R = resourceDescOf(O.res);
  return CUDA_SUCCESS;
}
CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *X, CUtexObject T) {
  runtime::TextureObject O;
  if (CUresult E = lookup(T, false, O, "cuTexObjectGetTextureDesc")) return E;
  if (!X) return CUDA_ERROR_INVALID_VALUE;
  textureDescOf(O, *X);
  return CUDA_SUCCESS;
}
CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *V, CUtexObject T) {
  runtime::TextureObject O;
  if (CUresult E = lookup(T, false, O, "cuTexObjectGetResourceViewDesc")) return E;
  if (!V) return CUDA_ERROR_INVALID_VALUE;
  std::memset(V, 0, sizeof *V); // no view: CU_RES_VIEW_FORMAT_NONE and zeros
  if (O.view) {
    V->format = CUresourceViewFormat(O.view->format);
    V->width = O.view->width, V->height = O.view->height, V->depth = O.view->depth;
    V->firstMipmapLevel = O.view->firstMipmapLevel, V->lastMipmapLevel = O.view->lastMipmapLevel;
    V->firstLayer = O.view->firstLayer, V->lastLayer = O.view->lastLayer;
  }
  return CUDA_SUCCESS;
}
CUresult cuSurfObjectCreate(CUsurfObject *S, const CUDA_RESOURCE_DESC *R) {
  return createObject(S, R, nullptr, nullptr, true, "cuSurfObjectCreate");
}
CUresult cuSurfObjectDestroy(CUsurfObject S) { return destroy(S, true, "cuSurfObjectDestroy"); }
CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *R, CUsurfObject S) {
  runtime::TextureObject O;
  if (CUresult E = lookup(S, true, O, "cuSurfObjectGetResourceDesc")) return E;
  if (!R) return CUDA_ERROR_INVALID_VALUE;
  *R = resourceDescOf(O.res);
  return CUDA_SUCCESS;
}
