//===- hsa_dispatch.cpp - HSA-level program on the virtual GPU ------------===//
//
// vgpu.hsa_dispatch: Debian's ROCr 5.2 (libhsa-runtime64) only, under
// LD_PRELOAD=libvgpu.so: hsa_init, the GPU agent, an AQL queue, a code
// object reader + executable for a ptx2amd gfx90a code object (vadd.ptx),
// kernarg from the kernarg pool, buffers from the fine-grained system pool,
// one kernel-dispatch packet written into the ring + doorbell, then a wait
// on the completion signal (60 s deadline). c[i] == a[i] + 2*b[i] is
// checked against values computed here. Usage: hsa_dispatch CODE_OBJECT.
// With --spin (vgpu.hang_deadline) the code object is spin.ptx's: its one
// wave spins on a flag nobody sets and the program waits for the completion
// signal without a timeout (ROCr turns that into WAIT_EVENTS of 0xFFFFFFFE
// ms); the virtual GPU's hang monitor must end the process after
// VGPU_WAIT_DEADLINE_S, naming the queue, the kernel and the host wait.
//
//===----------------------------------------------------------------------===//
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa_check.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Pools {
  hsa_amd_memory_pool_t kernarg{}, fine{};
  bool haveKernarg = false, haveFine = false;
};

hsa_status_t findGpu(hsa_agent_t A, void *Data) {
  hsa_device_type_t T;
  hsa_agent_get_info(A, HSA_AGENT_INFO_DEVICE, &T);
  if (T == HSA_DEVICE_TYPE_GPU) {
    *static_cast<hsa_agent_t *>(Data) = A;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t findCpu(hsa_agent_t A, void *Data) {
  hsa_device_type_t T;
  hsa_agent_get_info(A, HSA_AGENT_INFO_DEVICE, &T);
  if (T == HSA_DEVICE_TYPE_CPU) {
    *static_cast<hsa_agent_t *>(Data) = A;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t findPools(hsa_amd_memory_pool_t P, void *Data) {
  auto *Out = static_cast<Pools *>(Data);
  hsa_amd_segment_t Seg;
  hsa_amd_memory_pool_get_info(P, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &Seg);
  if (Seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  uint32_t Flags = 0;
  hsa_amd_memory_pool_get_info(P, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &Flags);
  if ((Flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !Out->haveKernarg) {
    Out->kernarg = P;
    Out->haveKernarg = true;
  }
  if ((Flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !Out->haveFine) {
    Out->fine = P;
    Out->haveFine = true;
  }
  return HSA_STATUS_SUCCESS;
}

} // namespace

int main(int argc, char **argv) {
  const bool Spin = argc == 3 && !strcmp(argv[2], "--spin");
  if (argc != 2 && !Spin) {
    fprintf(stderr, "usage: hsa_dispatch CODE_OBJECT [--spin]\n");
    return 2;
  }
  std::ifstream F(argv[1], std::ios::binary);
  std::vector<char> Elf((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
  if (Elf.empty()) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }

  CHECK(hsa_init());
  hsa_agent_t Gpu{}, Cpu{};
  hsa_iterate_agents(findGpu, &Gpu);
  hsa_iterate_agents(findCpu, &Cpu);
  if (!Gpu.handle || !Cpu.handle) {
    fprintf(stderr, "no GPU/CPU agent\n");
    return 1;
  }
  char Name[64] = {};
  CHECK(hsa_agent_get_info(Gpu, HSA_AGENT_INFO_NAME, Name));
  printf("agent %s\n", Name);

  Pools P;
  hsa_amd_agent_iterate_memory_pools(Cpu, findPools, &P);
  if (!P.haveKernarg || !P.haveFine) {
    fprintf(stderr, "no kernarg / fine-grained system pool\n");
    return 1;
  }

  hsa_queue_t *Q = nullptr;
  CHECK(hsa_queue_create(Gpu, 64, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &Q));

  hsa_code_object_reader_t Reader;
  CHECK(hsa_code_object_reader_create_from_memory(Elf.data(), Elf.size(), &Reader));
  hsa_executable_t Exe;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr, &Exe));
  CHECK(hsa_executable_load_agent_code_object(Exe, Gpu, Reader, nullptr, nullptr));
  CHECK(hsa_executable_freeze(Exe, nullptr));
  hsa_executable_symbol_t Sym;
  CHECK(hsa_executable_get_symbol_by_name(Exe, Spin ? "spin.kd" : "vadd.kd", &Gpu, &Sym));
  uint64_t KernelObject = 0;
  uint32_t KernargSize = 0, GroupSize = 0, PrivateSize = 0;
  CHECK(hsa_executable_symbol_get_info(Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &KernelObject));
  CHECK(hsa_executable_symbol_get_info(Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &KernargSize));
  CHECK(hsa_executable_symbol_get_info(Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &GroupSize));
  CHECK(hsa_executable_symbol_get_info(Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &PrivateSize));

  const uint32_t N = 1000, Block = 64, Blocks = (N + Block - 1) / Block;
  float *A = nullptr, *B = nullptr, *C = nullptr;
  CHECK(hsa_amd_memory_pool_allocate(P.fine, N * sizeof(float), 0, reinterpret_cast<void **>(&A)));
  CHECK(hsa_amd_memory_pool_allocate(P.fine, N * sizeof(float), 0, reinterpret_cast<void **>(&B)));
  CHECK(hsa_amd_memory_pool_allocate(P.fine, N * sizeof(float), 0, reinterpret_cast<void **>(&C)));
  hsa_agent_t Both[2] = {Gpu, Cpu};
  for (void *Ptr : {static_cast<void *>(A), static_cast<void *>(B), static_cast<void *>(C)})
    CHECK(hsa_amd_agents_allow_access(2, Both, nullptr, Ptr));
  for (uint32_t i = 0; i < N; ++i) {
    A[i] = float(i) * 0.5f;
    B[i] = 3.0f - float(i % 7);
    C[i] = -1.0f;
  }

  void *Kernarg = nullptr;
  CHECK(hsa_amd_memory_pool_allocate(P.kernarg, KernargSize < 64 ? 64 : KernargSize, 0, &Kernarg));
  CHECK(hsa_amd_agents_allow_access(1, &Gpu, nullptr, Kernarg));
  memset(Kernarg, 0, KernargSize);
  memcpy(static_cast<char *>(Kernarg) + 0, &A, 8);
  memcpy(static_cast<char *>(Kernarg) + 8, &B, 8);
  memcpy(static_cast<char *>(Kernarg) + 16, &C, 8);
  memcpy(static_cast<char *>(Kernarg) + 24, &N, 4);

  hsa_signal_t Done;
  CHECK(hsa_signal_create(1, 0, nullptr, &Done));

  uint64_t Index = hsa_queue_add_write_index_relaxed(Q, 1);
  auto *Pkt = static_cast<hsa_kernel_dispatch_packet_t *>(Q->base_address) + (Index % Q->size);
  memset(reinterpret_cast<char *>(Pkt) + 4, 0, sizeof(*Pkt) - 4);
  Pkt->workgroup_size_x = Block;
  Pkt->workgroup_size_y = 1;
  Pkt->workgroup_size_z = 1;
  Pkt->grid_size_x = Blocks * Block;
  Pkt->grid_size_y = 1;
  Pkt->grid_size_z = 1;
  Pkt->kernel_object = KernelObject;
  Pkt->kernarg_address = Kernarg;
  Pkt->private_segment_size = PrivateSize;
  Pkt->group_segment_size = GroupSize;
  Pkt->completion_signal = Done;
  uint16_t Header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  uint32_t HeaderSetup = Header | (1u << 16); // setup: 1 dimension
  __atomic_store_n(reinterpret_cast<uint32_t *>(Pkt), HeaderSetup, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(Q->doorbell_signal, hsa_signal_value_t(Index));

  if (Spin) { // the flag is A[0] = 0.0f (all bits zero), which nothing sets
    hsa_signal_value_t V =
        hsa_signal_wait_scacquire(Done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
    fprintf(stderr, "FAIL: the unbounded wait returned (signal %lld) instead of the hang being reported\n",
            (long long)V);
    return 1;
  }
  // 60 s deadline (the timeout hint is in HSA system timestamp ticks).
  uint64_t Freq = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &Freq);
  hsa_signal_value_t V =
      hsa_signal_wait_scacquire(Done, HSA_SIGNAL_CONDITION_EQ, 0, 60 * Freq, HSA_WAIT_STATE_BLOCKED);
  if (V != 0) {
    fprintf(stderr, "completion signal still %lld after 60 s\n", (long long)V);
    return 1;
  }
  unsigned Bad = 0;
  for (uint32_t i = 0; i < N; ++i) {
    float Want = A[i] + (B[i] + B[i]);
    if (C[i] != Want && Bad++ < 5) fprintf(stderr, "c[%u] = %g, want %g\n", i, C[i], Want);
  }
  if (Bad) {
    fprintf(stderr, "%u of %u results wrong\n", Bad, N);
    return 1;
  }
  printf("vadd on %s: %u results correct\n", Name, N);
  hsa_signal_destroy(Done);
  hsa_executable_destroy(Exe);
  hsa_code_object_reader_destroy(Reader);
  hsa_queue_destroy(Q);
  hsa_amd_memory_pool_free(Kernarg);
  hsa_amd_memory_pool_free(A);
  hsa_amd_memory_pool_free(B);
  hsa_amd_memory_pool_free(C);
  CHECK(hsa_shut_down());
  return 0;
}
