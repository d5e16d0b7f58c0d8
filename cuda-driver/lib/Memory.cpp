//===- cuda-driver/lib/Memory.cpp - allocations, copies, memsets, pointer queries ---===//
//
// Allocations go to the current context's core registry (device, pinned, managed); copies
// use unified addresses (the core classifies both ends), synchronously on the legacy
// stream (cuMemcpy*) or on a stream (cuMemcpy*Async); the _ptds / _ptsz exports use the
// per-thread default stream for a null stream. cuMemsetD8/D16/D32 are the core's Stream::fill.
// cuMemcpyPeer* are the core's Context::copyPeer (contexts of one device share its addresses).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cstring>

using namespace cudadrv;

namespace {

CUresult ctx(DrvContext **C) { return currentContext(C); }

CUresult allocate(CUdeviceptr *P, size_t Bytes, runtime::MemoryKind K) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  if (Bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  auto A = C->core->allocate(Bytes, K);
  if (!A) return fail(A.takeError(), "cuMemAlloc");
  *P = *A;
  return CUDA_SUCCESS;
}

CUresult release(uint64_t P, std::optional<runtime::MemoryKind> K) {
  if (!P) return CUDA_SUCCESS;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  return fail(C->core->free(P, K), "cuMemFree");
}

// A synchronous copy: legacy semantics, or on the per-thread stream for _ptds.
CUresult copySync(uint64_t Dst, uint64_t Src, size_t N, bool PerThread) {
  if (N == 0) return CUDA_SUCCESS;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  if (!PerThread) return fail(C->core->copySync(Dst, Src, N), "cuMemcpy");
  runtime::Stream &S = C->core->perThreadStream();
  if (auto E = S.copy(Dst, Src, N)) return fail(std::move(E), "cuMemcpy");
  return fail(S.synchronize(), "cuMemcpy");
}

CUresult copyAsync(uint64_t Dst, uint64_t Src, size_t N, CUstream H, bool PerThread) {
  if (N == 0) return CUDA_SUCCESS;
  runtime::Stream *S;
  if (CUresult R = resolveStream(H, PerThread, &S)) return R;
  return fail(S->copy(Dst, Src, N), "cuMemcpyAsync");
}

// cuMemcpyPeer*: a null context is the current one (the H200's driver returns CUDA_SUCCESS and
// copies for a null source or destination context, session 9); any other context must be live
// (CUDA_ERROR_INVALID_CONTEXT; the H200's driver segfaults on a destroyed one); the copy is the
// core's Context::copyPeer: synchronous (serialised with both contexts' work), on the per-thread
// stream and waited for (_ptds), or queued on H (Async; _ptsz: null is the per-thread stream).
CUresult copyPeer(CUdeviceptr Dst, CUcontext DstC, CUdeviceptr Src, CUcontext SrcC, size_t N, CUstream H,
                  bool Async, bool PerThread) {
  auto *DC = reinterpret_cast<DrvContext *>(DstC), *SC = reinterpret_cast<DrvContext *>(SrcC);
  DrvContext *Cur;
  if (CUresult R = ctx(&Cur)) return R;
  if (!DC) DC = Cur;
  if (!SC) SC = Cur;
  if (!HandleTable::get().live<DrvContext>(DC) || !HandleTable::get().live<DrvContext>(SC))
    return CUDA_ERROR_INVALID_CONTEXT;
  const char *Api = Async ? "cuMemcpyPeerAsync" : "cuMemcpyPeer";
  runtime::Stream *S = nullptr;
  if (Async || PerThread)
    if (CUresult R = resolveStream(H, PerThread, &S)) return R;
  if (CUresult R = fail(runtime::Context::copyPeer(*DC->core, Dst, *SC->core, Src, N, S), Api)) return R;
  return !Async && PerThread ? fail(S->synchronize(), Api) : CUDA_SUCCESS;
}

// Fills Count elements of ElemSize bytes with Pattern (little-endian): the core's Stream::fill
// (captured as one memset node while the stream captures).
CUresult fill(uint64_t Dst, uint32_t Pattern, unsigned ElemSize, size_t Count, CUstream H, bool Async,
              bool PerThread) {
  if (Count == 0) return CUDA_SUCCESS;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  runtime::Stream *S = nullptr;
  if (Async || PerThread) {
    if (CUresult R = resolveStream(H, PerThread, &S)) return R;
  } else {
    S = &C->core->legacyStream();
  }
  if (auto E = S->fill(Dst, Pattern, ElemSize, Count)) return fail(std::move(E), "cuMemset");
  if (Async) return CUDA_SUCCESS;
  return fail(PerThread ? S->synchronize() : S->drain(), "cuMemset");
}

// 2D copies (arrays included) are Texture.cpp's copy2DParams: one core copy3D.
CUresult copy2D(const CUDA_MEMCPY2D *P, CUstream H, bool Async, bool PerThread) {
  return copy2DParams(P, H, Async, PerThread);
}

uint64_t U(const void *P) { return reinterpret_cast<uint64_t>(P); }

} // namespace

// ---- allocation -------------------------------------------------------------------
CUresult cuMemAlloc(CUdeviceptr *P, size_t Bytes) { return allocate(P, Bytes, runtime::MemoryKind::Device); }
// cudaFree of managed memory arrives here too (static cudart), so device and managed both free;
// pinned host memory must go through cuMemFreeHost.
CUresult cuMemFree(CUdeviceptr P) {
  if (!P) return CUDA_SUCCESS;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  auto A = C->core->memory().find(P);
  if (!A || A->base != P || A->kind == runtime::MemoryKind::Pinned) return CUDA_ERROR_INVALID_VALUE;
  return release(P, A->kind);
}
CUresult cuMemAllocManaged(CUdeviceptr *P, size_t Bytes, unsigned int) {
  return allocate(P, Bytes, runtime::MemoryKind::Managed);
}
CUresult cuMemAllocHost(void **P, size_t Bytes) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  CUdeviceptr D;
  if (CUresult R = allocate(&D, Bytes, runtime::MemoryKind::Pinned)) return R;
  *P = reinterpret_cast<void *>(D);
  return CUDA_SUCCESS;
}
CUresult cuMemHostAlloc(void **P, size_t Bytes, unsigned int) { return cuMemAllocHost(P, Bytes); }
CUresult cuMemFreeHost(void *P) { return release(U(P), runtime::MemoryKind::Pinned); }
CUresult cuMemHostGetDevicePointer(CUdeviceptr *D, void *P, unsigned int Flags) {
  if (!D || Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  auto A = C->core->memory().find(U(P));
  if (!A || !A->hostAccessible()) return CUDA_ERROR_INVALID_VALUE;
  *D = U(P); // host-mapped memory has the same address on both sides
  return CUDA_SUCCESS;
}
CUresult cuMemHostGetFlags(unsigned int *Flags, void *P) {
  if (!Flags) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  auto A = C->core->memory().find(U(P));
  if (!A || A->kind != runtime::MemoryKind::Pinned) return CUDA_ERROR_INVALID_VALUE;
  *Flags = CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE;
  return CUDA_SUCCESS;
}
CUresult cuMemAllocPitch(CUdeviceptr *P, size_t *Pitch, size_t Width, size_t Height, unsigned int Elem) {
  if (!P || !Pitch || !Width || !Height || (Elem != 4 && Elem != 8 && Elem != 16)) return CUDA_ERROR_INVALID_VALUE;
  size_t Row = (Width + 511) / 512 * 512; // the texture alignment the device reports
  if (CUresult R = allocate(P, Row * Height, runtime::MemoryKind::Device)) return R;
  *Pitch = Row;
  return CUDA_SUCCESS;
}
CUresult cuMemGetInfo(size_t *Free, size_t *Total) {
  if (!Free || !Total) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  auto [F, T] = C->core->memInfo();
  *Free = F;
  *Total = T;
  return CUDA_SUCCESS;
}
CUresult cuMemGetAddressRange(CUdeviceptr *Base, size_t *Size, CUdeviceptr P) {
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  auto A = C->core->memory().find(P);
  if (!A) return CUDA_ERROR_NOT_FOUND;
  if (Base) *Base = A->base;
  if (Size) *Size = A->size;
  return CUDA_SUCCESS;
}

// ---- copies ---------------------------------------------------------------------------
CUresult cuMemcpy(CUdeviceptr D, CUdeviceptr S, size_t N) { return copySync(D, S, N, false); }
extern "C" CUresult cuMemcpy_ptds(CUdeviceptr D, CUdeviceptr S, size_t N) { return copySync(D, S, N, true); }
CUresult cuMemcpyHtoD(CUdeviceptr D, const void *S, size_t N) { return copySync(D, U(S), N, false); }
extern "C" CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr D, const void *S, size_t N) { return copySync(D, U(S), N, true); }
CUresult cuMemcpyDtoH(void *D, CUdeviceptr S, size_t N) { return copySync(U(D), S, N, false); }
extern "C" CUresult cuMemcpyDtoH_v2_ptds(void *D, CUdeviceptr S, size_t N) { return copySync(U(D), S, N, true); }
CUresult cuMemcpyDtoD(CUdeviceptr D, CUdeviceptr S, size_t N) { return copySync(D, S, N, false); }
extern "C" CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr D, CUdeviceptr S, size_t N) { return copySync(D, S, N, true); }

CUresult cuMemcpyAsync(CUdeviceptr D, CUdeviceptr S, size_t N, CUstream H) { return copyAsync(D, S, N, H, false); }
extern "C" CUresult cuMemcpyAsync_ptsz(CUdeviceptr D, CUdeviceptr S, size_t N, CUstream H) {
  return copyAsync(D, S, N, H, true);
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr D, const void *S, size_t N, CUstream H) {
  return copyAsync(D, U(S), N, H, false);
}
extern "C" CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr D, const void *S, size_t N, CUstream H) {
  return copyAsync(D, U(S), N, H, true);
}
CUresult cuMemcpyDtoHAsync(void *D, CUdeviceptr S, size_t N, CUstream H) { return copyAsync(U(D), S, N, H, false); }
extern "C" CUresult cuMemcpyDtoHAsync_v2_ptsz(void *D, CUdeviceptr S, size_t N, CUstream H) {
  return copyAsync(U(D), S, N, H, true);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr D, CUdeviceptr S, size_t N, CUstream H) { return copyAsync(D, S, N, H, false); }
extern "C" CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr D, CUdeviceptr S, size_t N, CUstream H) {
  return copyAsync(D, S, N, H, true);
}
CUresult cuMemcpyPeer(CUdeviceptr D, CUcontext DC, CUdeviceptr S, CUcontext SC, size_t N) {
  return copyPeer(D, DC, S, SC, N, nullptr, false, false);
}
extern "C" CUresult cuMemcpyPeer_ptds(CUdeviceptr D, CUcontext DC, CUdeviceptr S, CUcontext SC, size_t N) {
  return copyPeer(D, DC, S, SC, N, nullptr, false, true);
}
CUresult cuMemcpyPeerAsync(CUdeviceptr D, CUcontext DC, CUdeviceptr S, CUcontext SC, size_t N, CUstream H) {
  return copyPeer(D, DC, S, SC, N, H, true, false);
}
extern "C" CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr D, CUcontext DC, CUdeviceptr S, CUcontext SC, size_t N,
                                           CUstream H) {
  return copyPeer(D, DC, S, SC, N, H, true, true);
}
CUresult cuMemcpy2D(const CUDA_MEMCPY2D *P) { return copy2D(P, nullptr, false, false); }
extern "C" CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *P) { return copy2D(P, nullptr, false, true); }
CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *P) { return copy2D(P, nullptr, false, false); }
extern "C" CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *P) { return copy2D(P, nullptr, false, true); }
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *P, CUstream H) { return copy2D(P, H, true, false); }
extern "C" CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *P, CUstream H) { return copy2D(P, H, true, true); }

// ---- memsets ------------------------------------------------------------------------
#define DRV_MEMSET(NAME, TYPE, SIZE)                                                                   \
  CUresult NAME(CUdeviceptr D, TYPE V, size_t N) { return fill(D, V, SIZE, N, nullptr, false, false); } \
  extern "C" CUresult NAME##_v2_ptds(CUdeviceptr D, TYPE V, size_t N) {                                \
    return fill(D, V, SIZE, N, nullptr, false, true);                                                 \
  }                                                                                                    \
  CUresult NAME##Async(CUdeviceptr D, TYPE V, size_t N, CUstream H) { return fill(D, V, SIZE, N, H, true, false); } \
  extern "C" CUresult NAME##Async_ptsz(CUdeviceptr D, TYPE V, size_t N, CUstream H) {                  \
    return fill(D, V, SIZE, N, H, true, true);                                                        \
  }
DRV_MEMSET(cuMemsetD8, unsigned char, 1)
DRV_MEMSET(cuMemsetD16, unsigned short, 2)
DRV_MEMSET(cuMemsetD32, unsigned int, 4)
#undef DRV_MEMSET

static CUresult fill2D(CUdeviceptr D, size_t Pitch, uint32_t V, unsigned Elem, size_t W, size_t H, CUstream S,
                       bool Async, bool PerThread) {
  for (size_t Row = 0; Row < H; ++Row)
    if (CUresult R = fill(D + Row * Pitch, V, Elem, W, S, Async, PerThread)) return R;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD2D8(CUdeviceptr D, size_t P, unsigned char V, size_t W, size_t H) {
  return fill2D(D, P, V, 1, W, H, nullptr, false, false);
}
CUresult cuMemsetD2D16(CUdeviceptr D, size_t P, unsigned short V, size_t W, size_t H) {
  return fill2D(D, P, V, 2, W, H, nullptr, false, false);
}
CUresult cuMemsetD2D32(CUdeviceptr D, size_t P, unsigned int V, size_t W, size_t H) {
  return fill2D(D, P, V, 4, W, H, nullptr, false, false);
}
CUresult cuMemsetD2D8Async(CUdeviceptr D, size_t P, unsigned char V, size_t W, size_t H, CUstream S) {
  return fill2D(D, P, V, 1, W, H, S, true, false);
}
CUresult cuMemsetD2D32Async(CUdeviceptr D, size_t P, unsigned int V, size_t W, size_t H, CUstream S) {
  return fill2D(D, P, V, 4, W, H, S, true, false);
}

// ---- pointer attributes ---------------------------------------------------------------
static CUresult pointerAttribute(void *Data, CUpointer_attribute A, CUdeviceptr P) {
  DrvContext *C;
  if (CUresult R = ctx(&C)) return R;
  auto Al = C->core->memory().find(P);
  if (!Al) return CUDA_ERROR_INVALID_VALUE;
  switch (A) {
  case CU_POINTER_ATTRIBUTE_CONTEXT: { // the allocating context (the device's contexts share one address space)
    DrvContext *Owner = contextOf(static_cast<const runtime::Context *>(Al->owner));
    *static_cast<CUcontext *>(Data) = reinterpret_cast<CUcontext>(Owner ? Owner : C);
    break;
  }
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
    *static_cast<unsigned *>(Data) = Al->kind == runtime::MemoryKind::Pinned ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    break;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<CUdeviceptr *>(Data) = P; break;
  case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    if (!Al->hostAccessible()) return CUDA_ERROR_INVALID_VALUE;
    *static_cast<void **>(Data) = reinterpret_cast<void *>(P);
    break;
  case CU_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<int *>(Data) = Al->kind == runtime::MemoryKind::Managed; break;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int *>(Data) = C->device; break;
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr *>(Data) = Al->base; break;
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t *>(Data) = Al->size; break;
  case CU_POINTER_ATTRIBUTE_MAPPED: *static_cast<int *>(Data) = 1; break;
  case CU_POINTER_ATTRIBUTE_BUFFER_ID: *static_cast<unsigned long long *>(Data) = Al->base; break;
  case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *static_cast<int *>(Data) = 1; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *Data, CUpointer_attribute A, CUdeviceptr P) {
  if (!Data) return CUDA_ERROR_INVALID_VALUE;
  return pointerAttribute(Data, A, P);
}

// Size of an attribute's value; 0 for an attribute this library does not know.
static size_t attributeBytes(CUpointer_attribute A) {
  switch (A) {
  case CU_POINTER_ATTRIBUTE_CONTEXT: case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: case CU_POINTER_ATTRIBUTE_HOST_POINTER:
  case CU_POINTER_ATTRIBUTE_BUFFER_ID: case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
  case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
  case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
  case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: return 8;
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: case CU_POINTER_ATTRIBUTE_IS_MANAGED:
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
  case CU_POINTER_ATTRIBUTE_MAPPED: case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
  case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: return 4;
  case CU_POINTER_ATTRIBUTE_P2P_TOKENS: return sizeof(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS);
  default: return 0;
  }
}

// Unlike cuPointerGetAttribute, an attribute without a value for P (an unregistered host
// pointer, device memory's host pointer, IPC / RDMA / pool properties) reads as zero (CUDA's
// documented default) instead of failing; static cudart's cudaPointerGetAttributes relies on it.
CUresult cuPointerGetAttributes(unsigned int N, CUpointer_attribute *As, void **Data, CUdeviceptr P) {
  if (!As || !Data) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned I = 0; I < N; ++I) {
    size_t Bytes = attributeBytes(As[I]);
    if (!Bytes || !Data[I]) return CUDA_ERROR_INVALID_VALUE;
    CUresult R = pointerAttribute(Data[I], As[I], P);
    if (R == CUDA_ERROR_INVALID_VALUE) std::memset(Data[I], 0, Bytes);
    else if (R) return R;
  }
  return CUDA_SUCCESS;
}
