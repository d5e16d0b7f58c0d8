//===- Launch.cpp - launch checks and the kernarg builder (runtime/Launch.h) -===//
#include "runtime/Launch.h"
#include "support/Contract.h"

#include <algorithm>
#include <cstring>

namespace runtime {

namespace {
std::string dims(const Dim3 &D) {
  return "(" + std::to_string(D.x) + "," + std::to_string(D.y) + "," + std::to_string(D.z) + ")";
}

llvm::Expected<Kernarg> build(const KernelProperties &K, const LaunchConfig &C,
                              const std::function<llvm::Error(uint8_t *)> &FillExplicit) {
  Kernarg A;
  A.explicitBytes = K.args.explicitBytes;
  A.hiddenOffset = (A.explicitBytes + 7) & ~7u;
  A.bytes.assign(A.hiddenOffset + hidden::Bytes, 0);
  if (llvm::Error E = FillExplicit(A.bytes.data())) return E;
  const bool Pad = support::parseWarpPolicyName(K.warpPolicy) == support::WarpPolicy::Pad;
  if (K.args.blockDimOffset >= 0) {
    uint32_t BD[4] = {C.block.x, C.block.y, C.block.z, 0};
    std::memcpy(A.bytes.data() + K.args.blockDimOffset, BD, std::min<uint32_t>(K.args.blockDimBytes, 16));
  }
  uint8_t *H = A.bytes.data() + A.hiddenOffset;
  auto put16 = [&](unsigned Off, uint16_t V) { std::memcpy(H + Off, &V, 2); };
  auto put32 = [&](unsigned Off, uint32_t V) { std::memcpy(H + Off, &V, 4); };
  uint64_t T = C.block.count();
  uint32_t WG[3] = {C.block.x, C.block.y, C.block.z};
  if (Pad) { // one 64-lane wave per 32 threads, 1-D work-group
    WG[0] = uint32_t(64 * ((T + 31) / 32));
    WG[1] = WG[2] = 1;
  }
  put32(hidden::BlockCountX, C.grid.x);
  put32(hidden::BlockCountY, C.grid.y);
  put32(hidden::BlockCountZ, C.grid.z);
  put16(hidden::GroupSizeX, uint16_t(WG[0]));
  put16(hidden::GroupSizeY, uint16_t(WG[1]));
  put16(hidden::GroupSizeZ, uint16_t(WG[2]));
  unsigned Dims = (C.grid.z > 1 || WG[2] > 1) ? 3 : (C.grid.y > 1 || WG[1] > 1) ? 2 : 1;
  put16(hidden::GridDims, uint16_t(Dims));
  put32(hidden::DynamicLdsSize, C.dynamicSharedBytes);
  return A;
}
} // namespace

llvm::Expected<Kernarg> KernargBuilder::fromPointers(const KernelProperties &K, const LaunchConfig &C, void **Args) {
  return build(K, C, [&](uint8_t *Buf) -> llvm::Error {
    for (size_t I = 0; I < K.args.sizes.size(); ++I) {
      if (!Args || !Args[I])
        return makeError(Errc::InvalidValue, "launch of '" + K.name + "': argument " + std::to_string(I) + " is null");
      std::memcpy(Buf + K.args.offsets[I], Args[I], K.args.sizes[I]);
    }
    return llvm::Error::success();
  });
}

llvm::Expected<Kernarg> KernargBuilder::fromBuffer(const KernelProperties &K, const LaunchConfig &C,
                                                   llvm::ArrayRef<uint8_t> Packed) {
  return build(K, C, [&](uint8_t *Buf) -> llvm::Error {
    uint32_t Need = 0;
    for (size_t I = 0; I < K.args.sizes.size(); ++I) Need = std::max(Need, K.args.offsets[I] + K.args.sizes[I]);
    if (Packed.size() < Need)
      return makeError(Errc::InvalidValue, "launch of '" + K.name + "': argument buffer of " +
                                               std::to_string(Packed.size()) + " bytes, the kernel needs " +
                                               std::to_string(Need));
    std::memcpy(Buf, Packed.data(), Need);
    return llvm::Error::success();
  });
}

unsigned residentBlocksPerCU(const DeviceProperties &D, const KernelProperties &K, uint64_t BlockThreads,
                             uint64_t DynamicShared) {
  if (BlockThreads == 0) return 0;
  uint64_t ByThreads = D.maxThreadsPerMultiProcessor / BlockThreads;
  uint64_t Lds = K.staticLdsBytes + DynamicShared;
  uint64_t ByLds = Lds ? D.sharedMemPerMultiprocessor / Lds : D.maxBlocksPerMultiProcessor;
  return unsigned(std::min<uint64_t>({ByThreads, ByLds, D.maxBlocksPerMultiProcessor}));
}

llvm::Error checkLaunch(const DeviceProperties &D, const KernelProperties &K, const LaunchConfig &C,
                        uint64_t StackBytes) {
  // CUDA 13 on the H200 answers every invalid launch configuration -- a block over 1024 threads
  // or over a dimension's limit, an empty grid or block, a grid over 2^31-1 / 65535 / 65535,
  // shared memory over the limit -- with cudaErrorInvalidValue, not sticky
  // (tests/golden/probes/launch_errors_probe.stdout); the policy's own block limit is the
  // device's reported cudaDevAttrMaxThreadsPerBlock, so a block over it is the same error.
  const Dim3 &G = C.grid, &B = C.block;
  uint64_t T = B.count();
  if (T == 0 || G.count() == 0 || B.x > 1024 || B.y > 1024 || B.z > 64 || T > 1024 || G.x > 0x7fffffffu ||
      G.y > 65535 || G.z > 65535)
    return makeError(Errc::InvalidValue,
                     "launch of '" + K.name + "': invalid grid " + dims(G) + " / block " + dims(B));
  if (T > K.maxThreadsPerBlock)
    return makeError(Errc::InvalidValue,
                     "launch of '" + K.name + "': block of " + std::to_string(T) + " threads exceeds the " +
                         std::to_string(K.maxThreadsPerBlock) + " the kernel's warp policy '" + K.warpPolicy +
                         "' can run (a pad work-group holds 64 lanes per 32 threads, at most 1024)");
  uint64_t Lds = uint64_t(K.staticLdsBytes) + C.dynamicSharedBytes;
  if (Lds > D.sharedMemPerBlock)
    return makeError(Errc::InvalidValue, "launch of '" + K.name + "': " + std::to_string(K.staticLdsBytes) +
                                             " bytes of static and " + std::to_string(C.dynamicSharedBytes) +
                                             " of dynamic shared memory exceed the " +
                                             std::to_string(D.sharedMemPerBlock) + " a block may use");
  if (K.dynamicStack && K.maxStackBytes && StackBytes > K.maxStackBytes)
    return makeError(Errc::NotSupported,
                     "launch of '" + K.name + "': a stack of " + std::to_string(StackBytes) +
                         " bytes per thread (cudaLimitStackSize) exceeds the " + std::to_string(K.maxStackBytes) +
                         " this device gives the kernel" + (K.stackLimitReason.empty() ? "" : " (" + K.stackLimitReason + ")"));
  if (C.cooperative) {
    uint64_t Max = uint64_t(residentBlocksPerCU(D, K, T, C.dynamicSharedBytes)) * D.multiProcessorCount;
    if (G.count() > Max)
      return makeError(Errc::CooperativeLaunchTooLarge,
                       "cooperative launch of '" + K.name + "': " + std::to_string(G.count()) +
                           " blocks cannot all be resident (at most " + std::to_string(Max) + ")");
  }
  return llvm::Error::success();
}

} // namespace runtime
