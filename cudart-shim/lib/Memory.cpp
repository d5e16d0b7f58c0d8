//===- Memory.cpp - allocation, copies, memsets, symbols --------------------===//
//
// Every pointer is classified by the core's allocation registry before it is
// touched: null, freed, reset or foreign pointers are cudaErrorInvalidValue
// (CUDA 13 on the H200 behaves so), never a crash. Synchronous copies run on
// the calling thread's default stream (legacy, or per-thread for the _ptds
// entry points) and wait; the Async forms queue on their stream (copies
// from pageable host memory complete before returning, as CUDA's staged
// copies do). Pinned / managed memory is host-visible at the same address.
// Peer copies (cudaMemcpyPeer*) are the core's Context::copyPeer: device
// ordinals out of range are cudaErrorInvalidDevice.
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

using namespace cudartshim;

namespace {

uint64_t addr(const void *P) { return reinterpret_cast<uint64_t>(P); }

cudaError_t kindOf(cudaMemcpyKind K, runtime::MemcpyKind *Out) {
  switch (K) {
  case cudaMemcpyHostToHost: *Out = runtime::MemcpyKind::HostToHost; return cudaSuccess;
  case cudaMemcpyHostToDevice: *Out = runtime::MemcpyKind::HostToDevice; return cudaSuccess;
  case cudaMemcpyDeviceToHost: *Out = runtime::MemcpyKind::DeviceToHost; return cudaSuccess;
  case cudaMemcpyDeviceToDevice: *Out = runtime::MemcpyKind::DeviceToDevice; return cudaSuccess;
  case cudaMemcpyDefault: *Out = runtime::MemcpyKind::Default; return cudaSuccess;
  }
  return cudaErrorInvalidMemcpyDirection;
}

cudaError_t alloc(void **P, size_t N, runtime::MemoryKind K, const char *Api) {
  if (!P) return recordError(cudaErrorInvalidValue);
  SHIM_CONTEXT(C);
  auto A = C->allocate(N, K);
  if (!A) {
    *P = nullptr;
    return fromError(A.takeError(), Api);
  }
  *P = reinterpret_cast<void *>(*A);
  return cudaSuccess;
}

cudaError_t release(void *P, bool Host, const char *Api) {
  SHIM_CONTEXT(C); // cudaFree(0) initialises the context (the classic idiom)
  if (!P) return cudaSuccess;
  auto A = C->memory().find(addr(P));
  bool Ok = A && A->base == addr(P) &&
            (Host ? A->kind != runtime::MemoryKind::Device : A->kind != runtime::MemoryKind::Pinned);
  if (!Ok) {
    note(std::string(Api) + ": 0x" + llvm::utohexstr(addr(P)) + " is not a live allocation of this kind");
    return recordError(cudaErrorInvalidValue);
  }
  return fromError(C->free(addr(P)), Api);
}

// Copy on stream S (PerThread: what 0 means); Sync waits for it.
cudaError_t copy(void *Dst, const void *Src, size_t N, cudaMemcpyKind K, cudaStream_t S, bool PerThread, bool Sync,
                 const char *Api) {
  runtime::MemcpyKind MK;
  if (cudaError_t E = kindOf(K, &MK)) return recordError(E);
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PerThread, &Err);
  if (!St) return recordError(Err);
  if (cudaError_t E = fromError(St->copy(addr(Dst), addr(Src), N, MK), Api)) return E;
  return Sync ? fromError(St->drain(), Api) : cudaSuccess;
}

cudaError_t copy2D(void *Dst, size_t DP, const void *Src, size_t SP, size_t W, size_t H, cudaMemcpyKind K,
                   cudaStream_t S, bool PerThread, bool Sync, const char *Api) {
  if (H > 1 && (DP < W || SP < W)) return recordError(cudaErrorInvalidPitchValue);
  for (size_t R = 0; R < H; ++R)
    if (cudaError_t E = copy(static_cast<char *>(Dst) + R * DP, static_cast<const char *>(Src) + R * SP, W, K, S,
                             PerThread, Sync && R + 1 == H, Api))
      return E;
  return cudaSuccess;
}

cudaError_t set(void *P, int V, size_t N, cudaStream_t S, bool PerThread, bool Sync, const char *Api) {
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PerThread, &Err);
  if (!St) return recordError(Err);
  if (cudaError_t E = fromError(St->memset(addr(P), V, N), Api)) return E;
  return Sync ? fromError(St->drain(), Api) : cudaSuccess;
}

cudaError_t set2D(void *P, size_t Pitch, int V, size_t W, size_t H, cudaStream_t S, bool PerThread, bool Sync) {
  if (H > 1 && Pitch < W) return recordError(cudaErrorInvalidPitchValue);
  for (size_t R = 0; R < H; ++R)
    if (cudaError_t E = set(static_cast<char *>(P) + R * Pitch, V, W, S, PerThread, Sync && R + 1 == H, "cudaMemset2D"))
      return E;
  return cudaSuccess;
}

// N bytes between Host and a registered variable at byte offset Off.
cudaError_t copySymbol(const void *Sym, size_t Off, size_t N, void *Host, bool ToSymbol, cudaStream_t S, bool Sync) {
  uint64_t A;
  size_t Size;
  if (cudaError_t E = symbolAddress(Sym, &A, &Size)) return recordError(E);
  if (Off > Size || N > Size - Off) return recordError(cudaErrorInvalidValue);
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, false, &Err);
  if (!St) return recordError(Err);
  // Module variables are registered with the context when resolved.
  uint64_t Var = A + Off;
  llvm::Error E = ToSymbol ? St->copy(Var, addr(Host), N) : St->copy(addr(Host), Var, N);
  if (cudaError_t R = fromError(std::move(E), ToSymbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol")) return R;
  return Sync ? fromError(St->drain(), "cudaMemcpyToSymbol") : cudaSuccess;
}

// The context a peer copy uses for device ordinal Dev: the current one for the current device,
// else that device's primary context; null with *Err = cudaErrorInvalidDevice for an ordinal out
// of range (checked before anything else, as CUDA does).
runtime::Context *peerContext(int Dev, cudaError_t *Err) {
  int N = 0;
  if ((*Err = cudaGetDeviceCount(&N))) return nullptr;
  if (Dev < 0 || Dev >= N) {
    *Err = cudaErrorInvalidDevice;
    return nullptr;
  }
  if (Dev == currentDevice()) return context(Err);
  auto P = runtime::Platform::get();
  if (!P) {
    *Err = fromError(P.takeError(), "cudaMemcpyPeer");
    return nullptr;
  }
  auto D = (*P)->device(unsigned(Dev));
  if (!D) {
    *Err = fromError(D.takeError(), "cudaMemcpyPeer");
    return nullptr;
  }
  return &(*D)->primaryContext();
}

// cudaMemcpyPeer (Async false: serialised with all work of both devices, done before
// returning) and cudaMemcpyPeerAsync (queued on S; 0 is the legacy default stream).
cudaError_t copyPeer(void *Dst, int DstDev, const void *Src, int SrcDev, size_t N, cudaStream_t S, bool Async,
                     const char *Api) {
  cudaError_t Err = cudaSuccess;
  runtime::Context *DC = peerContext(DstDev, &Err);
  if (!DC) return recordError(Err);
  runtime::Context *SC = peerContext(SrcDev, &Err);
  if (!SC) return recordError(Err);
  runtime::Stream *St = nullptr;
  if (Async) {
    SHIM_CONTEXT(C);
    if (!(St = stream(*C, S, false, &Err))) return recordError(Err);
  }
  return fromError(runtime::Context::copyPeer(*DC, addr(Dst), *SC, addr(Src), N, St), Api);
}

} // namespace

namespace cudartshim {
bool isKernelAccessible(const void *P, size_t N) {
  cudaError_t Err;
  runtime::Context *C = context(&Err);
  return C && C->memory().find(addr(P), std::max<size_t>(N, 1)).has_value();
}
} // namespace cudartshim

extern "C" {

cudaError_t cudaMalloc(void **P, size_t N) { return alloc(P, N, runtime::MemoryKind::Device, "cudaMalloc"); }
cudaError_t cudaMallocHost(void **P, size_t N) { return alloc(P, N, runtime::MemoryKind::Pinned, "cudaMallocHost"); }
cudaError_t cudaHostAlloc(void **P, size_t N, unsigned) { return alloc(P, N, runtime::MemoryKind::Pinned, "cudaHostAlloc"); }
cudaError_t cudaMallocManaged(void **P, size_t N, unsigned) {
  return alloc(P, N, runtime::MemoryKind::Managed, "cudaMallocManaged");
}
cudaError_t cudaFree(void *P) { return release(P, false, "cudaFree"); }
cudaError_t cudaFree_v2(void *P) { return cudaFree(P); }
cudaError_t cudaFreeHost(void *P) { return release(P, true, "cudaFreeHost"); }
cudaError_t cudaHostGetDevicePointer(void **D, void *H, unsigned) {
  if (!D || !isKernelAccessible(H, 1)) return recordError(cudaErrorInvalidValue);
  *D = H; // host-mapped memory has the same address on both sides
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *D, const void *S, size_t N, cudaMemcpyKind K) {
  return copy(D, S, N, K, nullptr, false, true, "cudaMemcpy");
}
cudaError_t cudaMemcpy_ptds(void *D, const void *S, size_t N, cudaMemcpyKind K) {
  return copy(D, S, N, K, nullptr, true, true, "cudaMemcpy");
}
cudaError_t cudaMemcpyAsync(void *D, const void *S, size_t N, cudaMemcpyKind K, cudaStream_t St) {
  return copy(D, S, N, K, St, false, false, "cudaMemcpyAsync");
}
cudaError_t cudaMemcpyAsync_ptsz(void *D, const void *S, size_t N, cudaMemcpyKind K, cudaStream_t St) {
  return copy(D, S, N, K, St, true, false, "cudaMemcpyAsync");
}
cudaError_t cudaMemcpyPeer(void *D, int DD, const void *S, int SD, size_t N) {
  return copyPeer(D, DD, S, SD, N, nullptr, false, "cudaMemcpyPeer");
}
cudaError_t cudaMemcpyPeerAsync(void *D, int DD, const void *S, int SD, size_t N, cudaStream_t St) {
  return copyPeer(D, DD, S, SD, N, St, true, "cudaMemcpyPeerAsync");
}
cudaError_t cudaMemcpy2D(void *D, size_t DP, const void *S, size_t SP, size_t W, size_t H, cudaMemcpyKind K) {
  return copy2D(D, DP, S, SP, W, H, K, nullptr, false, true, "cudaMemcpy2D");
}
cudaError_t cudaMemcpy2DAsync(void *D, size_t DP, const void *S, size_t SP, size_t W, size_t H, cudaMemcpyKind K,
                              cudaStream_t St) {
  return copy2D(D, DP, S, SP, W, H, K, St, false, false, "cudaMemcpy2DAsync");
}
cudaError_t cudaMemset(void *P, int V, size_t N) { return set(P, V, N, nullptr, false, true, "cudaMemset"); }
cudaError_t cudaMemset_ptds(void *P, int V, size_t N) { return set(P, V, N, nullptr, true, true, "cudaMemset"); }
cudaError_t cudaMemsetAsync(void *P, int V, size_t N, cudaStream_t S) {
  return set(P, V, N, S, false, false, "cudaMemsetAsync");
}
cudaError_t cudaMemsetAsync_ptsz(void *P, int V, size_t N, cudaStream_t S) {
  return set(P, V, N, S, true, false, "cudaMemsetAsync");
}
cudaError_t cudaMemset2D(void *P, size_t Pitch, int V, size_t W, size_t H) {
  return set2D(P, Pitch, V, W, H, nullptr, false, true);
}
cudaError_t cudaMemset2DAsync(void *P, size_t Pitch, int V, size_t W, size_t H, cudaStream_t S) {
  return set2D(P, Pitch, V, W, H, S, false, false);
}

// Pitched allocations: rows padded to the reported texture alignment (512 bytes).
cudaError_t cudaMallocPitch(void **P, size_t *Pitch, size_t W, size_t H) {
  if (!P || !Pitch) return recordError(cudaErrorInvalidValue);
  size_t Rounded = (std::max<size_t>(W, 1) + 511) / 512 * 512;
  if (H && Rounded > SIZE_MAX / H) return recordError(cudaErrorMemoryAllocation);
  if (cudaError_t E = cudaMalloc(P, Rounded * std::max<size_t>(H, 1))) return E;
  *Pitch = Rounded;
  return cudaSuccess;
}
cudaError_t cudaMalloc3D(cudaPitchedPtr *P, cudaExtent Ext) {
  if (!P) return recordError(cudaErrorInvalidValue);
  size_t Pitch = 0;
  void *Ptr = nullptr;
  size_t Rows = std::max<size_t>(Ext.height, 1);
  if (Ext.depth > 1 && Rows > SIZE_MAX / Ext.depth) return recordError(cudaErrorMemoryAllocation);
  if (cudaError_t E = cudaMallocPitch(&Ptr, &Pitch, Ext.width, Rows * std::max<size_t>(Ext.depth, 1))) return E;
  *P = cudaPitchedPtr{Ptr, Pitch, Ext.width, Ext.height};
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  SHIM_CONTEXT(C);
  auto [F, T] = C->memInfo();
  if (Free) *Free = F;
  if (Total) *Total = T;
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *A, const void *P) {
  if (!A) return recordError(cudaErrorInvalidValue);
  SHIM_CONTEXT(C);
  memset(A, 0, sizeof *A);
  auto Al = C->memory().find(addr(P));
  if (!Al) {
    A->type = cudaMemoryTypeUnregistered;
    A->device = -2;
    A->hostPointer = const_cast<void *>(P);
    return cudaSuccess;
  }
  A->device = currentDevice();
  A->type = Al->kind == runtime::MemoryKind::Device   ? cudaMemoryTypeDevice
            : Al->kind == runtime::MemoryKind::Pinned ? cudaMemoryTypeHost
                                                      : cudaMemoryTypeManaged;
  A->devicePointer = const_cast<void *>(P);
  if (Al->hostAccessible()) A->hostPointer = const_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *Sym, const void *Src, size_t N, size_t Off, cudaMemcpyKind) {
  return copySymbol(Sym, Off, N, const_cast<void *>(Src), true, nullptr, true);
}
cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Sym, size_t N, size_t Off, cudaMemcpyKind) {
  return copySymbol(Sym, Off, N, Dst, false, nullptr, true);
}
cudaError_t cudaMemcpyToSymbolAsync(const void *Sym, const void *Src, size_t N, size_t Off, cudaMemcpyKind,
                                    cudaStream_t S) {
  return copySymbol(Sym, Off, N, const_cast<void *>(Src), true, S, false);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Sym, size_t N, size_t Off, cudaMemcpyKind,
                                      cudaStream_t S) {
  return copySymbol(Sym, Off, N, Dst, false, S, false);
}
cudaError_t cudaGetSymbolAddress(void **P, const void *Sym) {
  if (!P) return recordError(cudaErrorInvalidValue);
  uint64_t A;
  size_t Size;
  if (cudaError_t E = symbolAddress(Sym, &A, &Size)) return recordError(E);
  *P = reinterpret_cast<void *>(A);
  return cudaSuccess;
}
cudaError_t cudaGetSymbolSize(size_t *N, const void *Sym) {
  if (!N) return recordError(cudaErrorInvalidValue);
  uint64_t A;
  size_t Size;
  if (cudaError_t E = symbolAddress(Sym, &A, &Size)) return recordError(E);
  *N = Size;
  return cudaSuccess;
}

} // extern "C"
