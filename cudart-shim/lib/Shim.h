//===- Shim.h - helpers Runtime.cpp offers the shim's other files -*- C++ -*-===//
//
// The registry of Runtime.cpp stays private to it; the other parts of the
// shim (Textures.cpp) are written against the public CUDA runtime entry
// points (cudaMalloc, cudaMemcpy, ...) plus these few helpers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace cudartshim {

// "ptx2amd-shim: <Msg>" on stderr.
void note(const std::string &Msg);
// Records E (when not cudaSuccess) as the last error, as every runtime call
// does, and returns it.
cudaError_t recordError(cudaError_t E);
// Whether kernels can access [P, P+N): emulator device memory, including the
// device side of host-mapped / managed memory.
bool isKernelAccessible(const void *P, size_t N);

} // namespace cudartshim
