//===- Topology.cpp - writes the KFD sysfs tree of the virtual GPU --------===//
//
// Property names and meanings are the ones libhsakmt 5.2.3 topology.c parses
// ("name value" lines); values of the GPU node describe an MI210-class
// gfx90a (device id 0x740f) with a small CU count, 64-wide waves, 64 KiB
// LDS, one device-local memory bank and one PCIe io_link to the CPU node.
// capability: QueueSizePowerOfTwo | QueueSize32bit | DoorbellType 2 (the
// 64-bit doorbells of gfx9+); SVMAPISupported is left clear so ROCr does not
// use the SVM ioctl.
//
//===----------------------------------------------------------------------===//
#include "Topology.h"

#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace vgpu {

namespace {

/// Collects the tree: directories and files, paths relative to the root.
struct Writer {
  TopologyFiles &Out;
  void dir(const std::string &P) { Out.push_back({P + "/", ""}); }
  void file(const std::string &P, const std::string &Text) { Out.push_back({P, Text}); }
};

std::string props(std::initializer_list<std::pair<const char *, unsigned long long>> L) {
  std::string S;
  for (auto &[K, V] : L) S += std::string(K) + " " + std::to_string(V) + "\n";
  return S;
}

uint64_t hostMemBytes() {
  long Pages = sysconf(_SC_PHYS_PAGES), Size = sysconf(_SC_PAGESIZE);
  return Pages > 0 && Size > 0 ? uint64_t(Pages) * uint64_t(Size) : 8ull << 30;
}

} // namespace

TopologyFiles topologyFiles(const Target &T) {
  TopologyFiles Files;
  Writer W{Files};
  std::string Topo = "topology", Nodes = Topo + "/nodes";
  W.dir(Topo);
  W.dir(Nodes);
  W.file(Topo + "/generation_id", "1\n");
  W.file(Topo + "/system_properties", props({{"platform_oem", 0}, {"platform_id", 0}, {"platform_rev", 0}}));

  // Node 0: the host CPU.
  unsigned Cpus = std::max(1u, std::thread::hardware_concurrency());
  std::string N0 = Nodes + "/0";
  W.dir(N0);
  W.dir(N0 + "/mem_banks");
  W.dir(N0 + "/mem_banks/0");
  W.dir(N0 + "/caches");
  W.dir(N0 + "/io_links");
  W.dir(N0 + "/io_links/0");
  W.dir(N0 + "/p2p_links");
  W.file(N0 + "/gpu_id", "0\n");
  W.file(N0 + "/name", "\n");
  W.file(N0 + "/properties",
         props({{"cpu_cores_count", Cpus}, {"simd_count", 0}, {"mem_banks_count", 1}, {"caches_count", 0},
                {"io_links_count", 1}, {"p2p_links_count", 0}, {"cpu_core_id_base", 0}, {"simd_id_base", 0},
                {"max_waves_per_simd", 0}, {"lds_size_in_kb", 0}, {"gds_size_in_kb", 0}, {"num_gws", 0},
                {"wave_front_size", 0}, {"array_count", 0}, {"simd_arrays_per_engine", 0},
                {"cu_per_simd_array", 0}, {"simd_per_cu", 0}, {"max_slots_scratch_cu", 0},
                {"gfx_target_version", 0}, {"vendor_id", 0}, {"device_id", 0}, {"location_id", 0},
                {"domain", 0}, {"drm_render_minor", 0}, {"hive_id", 0}, {"num_sdma_engines", 0},
                {"num_sdma_xgmi_engines", 0}, {"num_sdma_queues_per_engine", 0}, {"num_cp_queues", 0},
                {"max_engine_clk_ccompute", 2000}, {"local_mem_size", 0}, {"fw_version", 0},
                {"capability", 0}, {"debug_prop", 0}, {"sdma_fw_version", 0}, {"unique_id", 0}}));
  W.file(N0 + "/mem_banks/0/properties",
         props({{"heap_type", 0}, {"size_in_bytes", hostMemBytes()}, {"flags", 0}, {"width", 64},
                {"mem_clk_max", 1600}}));
  W.file(N0 + "/io_links/0/properties",
         props({{"type", 2}, {"version_major", 0}, {"version_minor", 0}, {"node_from", 0}, {"node_to", 1},
                {"weight", 20}, {"min_latency", 0}, {"max_latency", 0}, {"min_bandwidth", 312},
                {"max_bandwidth", 64000}, {"recommended_transfer_size", 0}, {"flags", 1}}));

  // Node 1: the virtual GPU.
  std::string N1 = Nodes + "/1";
  W.dir(N1);
  W.dir(N1 + "/mem_banks");
  W.dir(N1 + "/mem_banks/0");
  W.dir(N1 + "/caches");
  W.dir(N1 + "/io_links");
  W.dir(N1 + "/io_links/0");
  W.dir(N1 + "/p2p_links");
  W.file(N1 + "/gpu_id", std::to_string(T.gpuId) + "\n");
  W.file(N1 + "/name", T.name + "\n");
  const unsigned long long Capability = (1u << 3) | (1u << 4) | (2u << 12);
  W.file(N1 + "/properties",
         props({{"cpu_cores_count", 0}, {"simd_count", T.computeUnits * T.simdPerCu}, {"mem_banks_count", 1},
                {"caches_count", 2}, {"io_links_count", 1}, {"p2p_links_count", 0}, {"cpu_core_id_base", 0},
                {"simd_id_base", 0x80001000}, {"max_waves_per_simd", T.maxWavesPerSimd},
                {"lds_size_in_kb", 64}, {"gds_size_in_kb", 0}, {"num_gws", 0},
                {"wave_front_size", T.waveSize}, {"array_count", 1}, {"simd_arrays_per_engine", 1},
                {"cu_per_simd_array", T.computeUnits}, {"simd_per_cu", T.simdPerCu},
                {"max_slots_scratch_cu", 32}, {"gfx_target_version", T.gfxTargetVersion},
                {"vendor_id", 0x1002}, {"device_id", T.deviceId}, {"location_id", 0x0300}, {"domain", 0},
                {"drm_render_minor", T.drmRenderMinor}, {"hive_id", 0}, {"num_sdma_engines", 2},
                {"num_sdma_xgmi_engines", 0}, {"num_sdma_queues_per_engine", 8}, {"num_cp_queues", 8},
                {"max_engine_clk_fcompute", 1700}, {"max_engine_clk_ccompute", 2000},
                {"local_mem_size", T.localMemBytes}, {"fw_version", 68}, {"capability", Capability},
                {"debug_prop", 0}, {"sdma_fw_version", 0}, {"unique_id", 0x7667707500000001ull}}));
  // Caches (ROCr's GpuAgent asserts at least one): per-CU L1 vector cache, shared L2.
  // type bits (HsaCacheType): Data 1, HSACU 8.
  const std::pair<unsigned, unsigned> Caches[] = {{1, 16}, {2, 8192}};
  for (unsigned c = 0; c < 2; ++c) {
    std::string C = N1 + "/caches/" + std::to_string(c);
    W.dir(C);
    W.file(C + "/properties",
           props({{"processor_id_low", 0x80001000}, {"level", Caches[c].first}, {"size", Caches[c].second},
                  {"cache_line_size", c ? 128u : 64u}, {"cache_lines_per_tag", 1}, {"association", 16},
                  {"latency", 0}, {"type", 1 | 8}}) +
               "sibling_map 1\n");
  }
  W.file(N1 + "/mem_banks/0/properties",
         props({{"heap_type", 1}, {"size_in_bytes", T.localMemBytes}, {"flags", 0}, {"width", 4096},
                {"mem_clk_max", 1600}}));
  W.file(N1 + "/io_links/0/properties",
         props({{"type", 2}, {"version_major", 0}, {"version_minor", 0}, {"node_from", 1}, {"node_to", 0},
                {"weight", 20}, {"min_latency", 0}, {"max_latency", 0}, {"min_bandwidth", 312},
                {"max_bandwidth", 64000}, {"recommended_transfer_size", 0}, {"flags", 1}}));
  return Files;
}

std::string writeTopology(const std::string &Root, const TopologyFiles &Files) {
  for (auto &[Rel, Text] : Files) {
    std::string P = Root + "/" + Rel;
    if (!Rel.empty() && Rel.back() == '/') {
      P.pop_back();
      if (mkdir(P.c_str(), 0755) != 0 && errno != EEXIST) return "mkdir " + P + ": " + strerror(errno);
      continue;
    }
    int Fd = ::open(P.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (Fd < 0) return "create " + P + ": " + strerror(errno);
    bool Ok = ::write(Fd, Text.data(), Text.size()) == ssize_t(Text.size());
    ::close(Fd);
    if (!Ok) return "write " + P;
  }
  return {};
}

uint64_t topologyHash(const TopologyFiles &Files) {
  uint64_t H = 1469598103934665603ull; // FNV-1a 64
  auto Mix = [&](const std::string &S) {
    for (unsigned char C : S) H = (H ^ C) * 1099511628211ull;
    H = (H ^ 0xff) * 1099511628211ull;
  };
  for (auto &[Rel, Text] : Files) {
    Mix(Rel);
    Mix(Text);
  }
  return H;
}

std::string redirectSysfs(const char *Path, const std::string &Root) {
  if (!Path) return {};
  static const char *const Prefixes[] = {"/sys/devices/virtual/kfd/kfd", "/sys/class/kfd/kfd"};
  for (const char *P : Prefixes) {
    size_t N = strlen(P);
    if (!strncmp(Path, P, N) && (Path[N] == 0 || Path[N] == '/')) return Root + (Path + N);
  }
  return {};
}

} // namespace vgpu
