//===- sdma_copy.cpp - ROCr's SDMA copies on the virtual GPU --------------===//
//
// vgpu.sdma_copy: Debian's ROCr 5.2 (libhsa-runtime64) only, under
// LD_PRELOAD=libvgpu.so with ROCr's default configuration (HSA_ENABLE_SDMA
// unset, so host<->device copies go to SDMA queues: copy, atomic, fence,
// trap, poll and timestamp packets executed by vgpu's SDMA engine):
//  1. host -> device copy of 5 MiB + 12 bytes (ROCr splits it at the 4 MiB
//     limit of one linear-copy packet), then device -> host, compared;
//  2. a device -> host copy that depends on a signal the host releases
//     50 ms later (a memory poll in the SDMA ring): not done before, done after;
//  3. hsa_amd_memory_async_copy_rect (SDMA only: ROCr refuses it without an
//     SDMA engine) of a 37-byte x 5 x 3 box between pitched host and device
//     buffers with offsets, checked byte by byte against a host model;
//  4. with copy profiling on, hsa_amd_profiling_get_async_copy_time gives
//     start <= end, both non-zero (the engine's timestamp packets).
// Expected values are computed here. Usage: sdma_copy (no arguments).
//
//===----------------------------------------------------------------------===//
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa_check.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {

struct Agents {
  hsa_agent_t gpu{}, cpu{};
  bool haveGpu = false, haveCpu = false;
};

hsa_status_t findAgents(hsa_agent_t A, void *Data) {
  auto *Out = static_cast<Agents *>(Data);
  hsa_device_type_t T;
  hsa_agent_get_info(A, HSA_AGENT_INFO_DEVICE, &T);
  if (T == HSA_DEVICE_TYPE_GPU && !Out->haveGpu) Out->gpu = A, Out->haveGpu = true;
  if (T == HSA_DEVICE_TYPE_CPU && !Out->haveCpu) Out->cpu = A, Out->haveCpu = true;
  return HSA_STATUS_SUCCESS;
}

struct Pool {
  hsa_amd_memory_pool_t pool{};
  bool found = false;
  uint32_t want; // HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_*
};

hsa_status_t findPool(hsa_amd_memory_pool_t P, void *Data) {
  auto *Out = static_cast<Pool *>(Data);
  hsa_amd_segment_t Seg;
  hsa_amd_memory_pool_get_info(P, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &Seg);
  uint32_t Flags = 0;
  hsa_amd_memory_pool_get_info(P, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &Flags);
  if (Seg == HSA_AMD_SEGMENT_GLOBAL && (Flags & Out->want) && !Out->found) {
    Out->pool = P;
    Out->found = true;
  }
  return HSA_STATUS_SUCCESS;
}

bool waitZero(hsa_signal_t S) {
  return hsa_signal_wait_scacquire(S, HSA_SIGNAL_CONDITION_EQ, 0, 60ull * 1000 * 1000 * 1000,
                                   HSA_WAIT_STATE_BLOCKED) == 0;
}

} // namespace

int main() {
  CHECK(hsa_init());
  Agents Ag;
  CHECK(hsa_iterate_agents(findAgents, &Ag));
  if (!Ag.haveGpu || !Ag.haveCpu) {
    fprintf(stderr, "no GPU or CPU agent\n");
    return 1;
  }
  Pool Host{{}, false, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED};
  Pool Vram{{}, false, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED};
  CHECK(hsa_amd_agent_iterate_memory_pools(Ag.cpu, findPool, &Host));
  CHECK(hsa_amd_agent_iterate_memory_pools(Ag.gpu, findPool, &Vram));
  if (!Host.found || !Vram.found) {
    fprintf(stderr, "no fine-grained system pool or coarse-grained device pool\n");
    return 1;
  }
  const size_t N = (5u << 20) + 12;
  uint8_t *A = nullptr, *B = nullptr, *Dev = nullptr;
  CHECK(hsa_amd_memory_pool_allocate(Host.pool, N, 0, reinterpret_cast<void **>(&A)));
  CHECK(hsa_amd_memory_pool_allocate(Host.pool, N, 0, reinterpret_cast<void **>(&B)));
  CHECK(hsa_amd_memory_pool_allocate(Vram.pool, N, 0, reinterpret_cast<void **>(&Dev)));
  hsa_agent_t Both[2] = {Ag.gpu, Ag.cpu};
  CHECK(hsa_amd_agents_allow_access(2, Both, nullptr, A));
  CHECK(hsa_amd_agents_allow_access(2, Both, nullptr, B));
  CHECK(hsa_amd_agents_allow_access(2, Both, nullptr, Dev));
  for (size_t I = 0; I < N; ++I) A[I] = uint8_t(I * 131 + (I >> 12));
  memset(B, 0xee, N);
  hsa_signal_t Done, Dep;
  CHECK(hsa_signal_create(1, 0, nullptr, &Done));
  CHECK(hsa_signal_create(1, 0, nullptr, &Dep));
  int Bad = 0;

  // 1. host -> device -> host.
  CHECK(hsa_amd_memory_async_copy(Dev, Ag.gpu, A, Ag.cpu, N, 0, nullptr, Done));
  if (!waitZero(Done)) return fprintf(stderr, "host->device copy did not complete\n"), 1;
  hsa_signal_store_screlease(Done, 1);
  CHECK(hsa_amd_memory_async_copy(B, Ag.cpu, Dev, Ag.gpu, N, 0, nullptr, Done));
  if (!waitZero(Done)) return fprintf(stderr, "device->host copy did not complete\n"), 1;
  size_t Mism = 0;
  for (size_t I = 0; I < N; ++I) Mism += A[I] != B[I];
  printf("sdma linear: %zu bytes there and back, %zu mismatches\n", N, Mism);
  Bad += Mism != 0;

  // 2. a copy waiting for a dependency signal.
  memset(B, 0, 4096);
  hsa_signal_store_screlease(Done, 1);
  CHECK(hsa_amd_memory_async_copy(B, Ag.cpu, Dev, Ag.gpu, 4096, 1, &Dep, Done));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  bool Early = hsa_signal_load_scacquire(Done) == 0 || B[1] == A[1];
  hsa_signal_store_screlease(Dep, 0);
  bool Finished = waitZero(Done) && memcmp(A, B, 4096) == 0;
  printf("sdma dependency: %s before the release, %s after\n", Early ? "ran" : "held",
         Finished ? "copied" : "NOT copied");
  Bad += Early || !Finished;

  // 3. a rectangular copy host -> device, read back linearly.
  const size_t SP = 100, SS = SP * 7, DP = 64, DS = DP * 6;
  memset(B, 0, DS * 4);
  hsa_signal_store_screlease(Done, 1);
  CHECK(hsa_amd_memory_async_copy(Dev, Ag.gpu, B, Ag.cpu, DS * 4, 0, nullptr, Done)); // zero the box
  if (!waitZero(Done)) return fprintf(stderr, "zeroing copy did not complete\n"), 1;
  hsa_pitched_ptr_t Src{A, SP, SS}, Dst{Dev, DP, DS};
  hsa_dim3_t SOff{3, 1, 1}, DOff{5, 0, 1}, Range{37, 5, 3};
  hsa_signal_store_screlease(Done, 1);
  CHECK(hsa_amd_memory_async_copy_rect(&Dst, &DOff, &Src, &SOff, &Range, Ag.gpu, hsaHostToDevice, 0, nullptr,
                                       Done));
  if (!waitZero(Done)) return fprintf(stderr, "rect copy did not complete\n"), 1;
  hsa_signal_store_screlease(Done, 1);
  CHECK(hsa_amd_memory_async_copy(B, Ag.cpu, Dev, Ag.gpu, DS * 4, 0, nullptr, Done));
  if (!waitZero(Done)) return fprintf(stderr, "read-back copy did not complete\n"), 1;
  std::vector<uint8_t> Want(DS * 4, 0);
  for (size_t Z = 0; Z < Range.z; ++Z)
    for (size_t Y = 0; Y < Range.y; ++Y)
      for (size_t X = 0; X < Range.x; ++X)
        Want[(DOff.z + Z) * DS + (DOff.y + Y) * DP + DOff.x + X] = A[(SOff.z + Z) * SS + (SOff.y + Y) * SP + SOff.x + X];
  size_t RectBad = 0;
  for (size_t I = 0; I < Want.size(); ++I) RectBad += Want[I] != B[I];
  printf("sdma rect: 37x5x3 box, %zu wrong bytes of %zu\n", RectBad, Want.size());
  Bad += RectBad != 0;

  // 4. copy timestamps.
  CHECK(hsa_amd_profiling_async_copy_enable(true));
  hsa_signal_store_screlease(Done, 1);
  CHECK(hsa_amd_memory_async_copy(Dev, Ag.gpu, A, Ag.cpu, 1 << 20, 0, nullptr, Done));
  if (!waitZero(Done)) return fprintf(stderr, "profiled copy did not complete\n"), 1;
  hsa_amd_profiling_async_copy_time_t T{};
  CHECK(hsa_amd_profiling_get_async_copy_time(Done, &T));
  bool TsOk = T.start != 0 && T.end >= T.start;
  printf("sdma timestamps: %s\n", TsOk ? "start <= end" : "WRONG");
  Bad += !TsOk;

  CHECK(hsa_signal_destroy(Done));
  CHECK(hsa_signal_destroy(Dep));
  CHECK(hsa_amd_memory_pool_free(A));
  CHECK(hsa_amd_memory_pool_free(B));
  CHECK(hsa_amd_memory_pool_free(Dev));
  CHECK(hsa_shut_down());
  printf("sdma copies on gfx90a: %s\n", Bad ? "FAIL" : "all correct");
  return Bad != 0;
}
