// drv_probe.cpp: facts about NVIDIA's driver recorded once on the H200 for cuda-driver/ (not a
// golden-output test): (1) cuModuleLoadData / cuModuleLoadFatBinary / cuLibraryLoadData results
// for each image file given, (2) cuGetErrorName / cuGetErrorString of every CUresult 0..1000,
// (3) which export cuGetProcAddress resolves for each driver symbol under each flag and version,
// (4) device 0's attributes, (5) cuGetExportTable of an unknown GUID.
// usage: drv_probe images IMAGE... | errors | proc EXPORTS_FILE | attrs | guid
#include "drv_common.h"
#include <dlfcn.h>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string mode = argv[1];
  int drv = 0;
  CUdevice dev;
  init_primary(&dev);
  CHECK(cuDriverGetVersion(&drv));
  printf("== driver version %d\n", drv);
  if (mode == "guid") {
    CUuuid id;
    memset(&id, 0x5a, sizeof id);
    const void *t = nullptr;
    CUresult r = cuGetExportTable(&t, &id);
    printf("unknown GUID: %s table=%p\n", result_name(r), t);
    printf("null GUID pointer: %s\n", result_name(cuGetExportTable(&t, nullptr)));
    return 0;
  }
  if (mode == "images") printf("== images\n");
  for (int i = 2; mode == "images" && i < argc; ++i) {
    std::vector<char> img = read_file(argv[i]);
    CUmodule m;
    CUresult a = cuModuleLoadData(&m, img.data());
    if (a == CUDA_SUCCESS) cuModuleUnload(m);
    CUresult b = cuModuleLoadFatBinary(&m, img.data());
    if (b == CUDA_SUCCESS) cuModuleUnload(m);
    char log[2048] = {0};
    CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *ov[] = {log, (void *)(size_t)sizeof log};
    CUresult c = cuModuleLoadDataEx(&m, img.data(), 2, o, ov);
    if (c == CUDA_SUCCESS) cuModuleUnload(m);
    for (char *p = log; *p; ++p) if (*p == '\n') *p = '|';
    CUlibrary lib;
    CUresult d = cuLibraryLoadData(&lib, img.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (d == CUDA_SUCCESS) cuLibraryUnload(lib);
    const char *base = strrchr(argv[i], '/');
    printf("image %s (%zu bytes): LoadData=%s LoadFatBinary=%s LoadDataEx=%s log=\"%s\" LibraryLoadData=%s\n",
           base ? base + 1 : argv[i], img.size() - 1, result_name(a), result_name(b), result_name(c),
           log, result_name(d));
  }
  if (mode == "errors") printf("== errors\n");
  for (int e = 0; mode == "errors" && e <= 1000; ++e) {
    const char *name = nullptr, *str = nullptr;
    if (cuGetErrorName((CUresult)e, &name) != CUDA_SUCCESS) continue;
    cuGetErrorString((CUresult)e, &str);
    printf("%d %s \"%s\"\n", e, name, str ? str : "(null)");
  }
  if (mode == "attrs") goto attrs;
  if (mode != "proc") return 0;
  {
  printf("== proc (symbol flags version -> export | status)\n");
  std::set<std::string> bases;
  std::ifstream ex(argc > 2 ? argv[2] : "");
  std::string name;
  std::vector<std::string> exports;
  while (ex >> name) exports.push_back(name);
  std::map<void *, std::string> by_ptr;
  for (auto &e : exports) {
    void *p = dlsym(RTLD_DEFAULT, e.c_str());
    if (p) by_ptr[p] = e;
    std::string b = e;
    for (const char *suf : {"_ptsz", "_ptds"})
      if (b.size() > 5 && b.compare(b.size() - 5, 5, suf) == 0) b.resize(b.size() - 5);
    size_t v = b.rfind("_v");
    if (v != std::string::npos && v + 2 < b.size() && b.find_first_not_of("0123456789", v + 2) == std::string::npos)
      b.resize(v);
    bases.insert(b);
  }
  const int versions[] = {2000, 3020, 4000, 11000, 12000, 12080, 13000};
  const struct { cuuint64_t f; const char *n; } flags[] = {
      {CU_GET_PROC_ADDRESS_DEFAULT, "default"}, {CU_GET_PROC_ADDRESS_LEGACY_STREAM, "legacy"},
      {CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, "ptds"}};
  for (auto &b : bases) {
    for (auto &f : flags) {
      std::string line, prev;
      for (int v : versions) {
        void *p = nullptr;
        CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_SUCCESS;
        CUresult r = cuGetProcAddress(b.c_str(), &p, v, f.f, &q);
        std::string what;
        if (r != CUDA_SUCCESS) what = std::string(result_name(r)) + "/" + std::to_string((int)q);
        else if (by_ptr.count(p)) what = by_ptr[p];
        else what = "(internal)";
        if (what != prev) line += " " + std::to_string(v) + ":" + what;
        prev = what;
      }
      printf("%s %s%s\n", b.c_str(), f.n, line.c_str());
    }
  }
  }
  return 0;
attrs:
  printf("== attributes\n");
  for (int a = 1; a < 160; ++a) {
    int v = 0;
    CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, dev);
    if (r == CUDA_SUCCESS) printf("%d %d\n", a, v);
    else printf("%d %s\n", a, result_name(r));
  }
  char nm[256];
  cuDeviceGetName(nm, sizeof nm, dev);
  size_t total = 0;
  cuDeviceTotalMem(&total, dev);
  printf("name %s total %zu\n", nm, total);
  return 0;
}
