//===- gfx1100_probe.cpp - what Debian's ROCm 5.2 does with a gfx1100 node ===//
//
// vgpu.gfx1100_probe: under LD_PRELOAD=libvgpu.so with VGPU_TARGET=gfx1100 the
// virtual GPU presents a gfx1100 node (gfx_target_version 110000). This
// program shows, layer by layer, where the 5.2 stack stops:
//  1. libhsakmt 5.2.3 (hsaKmtAcquireSystemProperties / hsaKmtGetNodeProperties)
//     enumerates the node: EngineId 11.0.0, wave32, the device id;
//  2. ROCr 5.2.3's hsa_init succeeds but registers no GPU agent (the GpuAgent
//     constructor's IsaRegistry::GetIsa(11.0.0) is null -> it throws
//     HSA_STATUS_ERROR_INVALID_ISA, DiscoverGpu catches it and drops the node);
//  3. the same registry, asked directly: hsa_isa_from_name refuses
//     "amdgcn-amd-amdhsa--gfx1100" and accepts gfx1035 and gfx90a;
//  4. HIP 5.2 (libamdhip64, dlopen'ed): hipGetDeviceCount answers
//     hipErrorNoDevice (100).
// The libhsakmt declarations follow ROCT-Thunk-Interface rocm-5.2.3's
// include/hsakmt.h and hsakmttypes.h (HsaNodeProperties up to AMDName; the
// call gets a larger buffer). Prints "gfx1100 probe: ..." lines; exit 0 only
// when every layer behaves as stated.
//
//===----------------------------------------------------------------------===//
#include <hsa/hsa.h>

#include "hsa_check.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>

extern "C" {
// libhsakmt 5.2.3 (include/hsakmt.h); HSAKMT_STATUS_SUCCESS is 0.
int hsaKmtOpenKFD(void);
int hsaKmtCloseKFD(void);
int hsaKmtAcquireSystemProperties(void *SystemProperties);
int hsaKmtReleaseSystemProperties(void);
int hsaKmtGetNodeProperties(uint32_t NodeId, void *NodeProperties);
}

namespace {

// The leading fields of HsaNodeProperties (hsakmttypes.h, rocm-5.2.3).
struct NodePropsHead {
  uint32_t NumCPUCores, NumFComputeCores, NumMemoryBanks, NumCaches, NumIOLinks, CComputeIdLo, FComputeIdLo;
  uint32_t Capability, MaxWavesPerSIMD, LDSSizeInKB, GDSSizeInKB, WaveFrontSize, NumShaderBanks, NumArrays,
      NumCUPerArray, NumSIMDPerCU, MaxSlotsScratchCU;
  uint32_t EngineId; // uCode:10 Major:6 Minor:8 Stepping:8
  uint16_t VendorId, DeviceId;
  uint32_t LocationId;
  uint64_t LocalMemSize;
  uint32_t MaxEngineClockMhzFCompute, MaxEngineClockMhzCCompute;
  int32_t DrmRenderMinor;
  uint16_t MarketingName[64];
  uint8_t AMDName[64];
};
static_assert(offsetof(NodePropsHead, EngineId) == 68 && offsetof(NodePropsHead, AMDName) == 228,
              "HsaNodeProperties layout of libhsakmt 5.2.3");

hsa_status_t countAgents(hsa_agent_t A, void *Data) {
  hsa_device_type_t T;
  hsa_agent_get_info(A, HSA_AGENT_INFO_DEVICE, &T);
  auto *N = static_cast<unsigned *>(Data);
  ++N[T == HSA_DEVICE_TYPE_GPU ? 1 : 0];
  return HSA_STATUS_SUCCESS;
}

int thunkView() {
  if (int S = hsaKmtOpenKFD()) {
    fprintf(stderr, "hsaKmtOpenKFD failed: %d\n", S);
    return 1;
  }
  uint32_t Sys[64] = {}; // HsaSystemProperties: NumNodes first
  if (int S = hsaKmtAcquireSystemProperties(Sys)) {
    fprintf(stderr, "hsaKmtAcquireSystemProperties failed: %d\n", S);
    return 1;
  }
  int Found = 0;
  for (uint32_t N = 0; N < Sys[0]; ++N) {
    alignas(8) unsigned char Buf[4096] = {};
    if (int S = hsaKmtGetNodeProperties(N, Buf)) {
      fprintf(stderr, "hsaKmtGetNodeProperties(%u) failed: %d\n", N, S);
      return 1;
    }
    NodePropsHead P;
    memcpy(&P, Buf, sizeof P);
    if (!P.NumFComputeCores) continue;
    unsigned Major = (P.EngineId >> 10) & 0x3f, Minor = (P.EngineId >> 16) & 0xff, Step = (P.EngineId >> 24) & 0xff;
    char Amd[65] = {};
    memcpy(Amd, P.AMDName, 64);
    printf("gfx1100 probe: libhsakmt node %u: EngineId %u.%u.%u, device id 0x%x, wave %u, %u SIMDs, AMDName %s\n",
           N, Major, Minor, Step, P.DeviceId, P.WaveFrontSize, P.NumFComputeCores, Amd);
    if (Major == 11 && Minor == 0 && Step == 0 && P.WaveFrontSize == 32) ++Found;
  }
  hsaKmtReleaseSystemProperties();
  hsaKmtCloseKFD();
  if (Found != 1) {
    fprintf(stderr, "expected libhsakmt to enumerate one gfx 11.0.0 wave32 node, found %d\n", Found);
    return 1;
  }
  return 0;
}

int rocrView() {
  CHECK(hsa_init());
  unsigned N[2] = {0, 0}; // CPU, GPU
  CHECK(hsa_iterate_agents(countAgents, N));
  printf("gfx1100 probe: ROCr hsa_init succeeded; agents: %u CPU, %u GPU\n", N[0], N[1]);
  int Bad = N[1] != 0 || N[0] == 0;
  const char *Names[] = {"amdgcn-amd-amdhsa--gfx1100", "amdgcn-amd-amdhsa--gfx1035", "amdgcn-amd-amdhsa--gfx90a"};
  for (int I = 0; I < 3; ++I) {
    hsa_isa_t Isa;
    hsa_status_t S = hsa_isa_from_name(Names[I], &Isa);
    const char *M = nullptr;
    hsa_status_string(S, &M);
    printf("gfx1100 probe: hsa_isa_from_name(%s) = 0x%x%s%s\n", Names[I], unsigned(S), M ? " " : "", M ? M : "");
    if ((I == 0) != (S != HSA_STATUS_SUCCESS)) Bad = 1;
  }
  CHECK(hsa_shut_down());
  return Bad;
}

int hipView() {
  void *H = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!H) {
    fprintf(stderr, "cannot load libamdhip64.so.5: %s\n", dlerror());
    return 1;
  }
  using CountFn = int (*)(int *);
  auto Count = reinterpret_cast<CountFn>(dlsym(H, "hipGetDeviceCount"));
  if (!Count) return 1;
  int Devices = -1;
  int E = Count(&Devices);
  printf("gfx1100 probe: HIP hipGetDeviceCount = %d (devices %d)\n", E, Devices);
  return E == 100 /*hipErrorNoDevice*/ ? 0 : 1;
}

} // namespace

int main() {
  if (thunkView() || rocrView() || hipView()) {
    printf("gfx1100 probe: FAIL\n");
    return 1;
  }
  printf("gfx1100 probe: libhsakmt 5.2.3 enumerates the gfx1100 node; ROCr 5.2.3 has no ISA for it and "
         "registers no GPU agent; HIP 5.2 sees no device\n");
  return 0;
}
