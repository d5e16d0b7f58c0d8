// H200 ground truth for ../link.test: links ../Inputs/link-a.ptx + link-b.ptx with the driver's
// JIT linker (cuLinkCreate / cuLinkAddData / cuLinkComplete), runs kernel k and prints its five
// words (twice(21), weak-vs-strong pick, extern variable, weak-vs-weak onlyweak, common cbuf[7]).
// Also tries the duplicate (a + b + dup) and exit (exit + callexit) links and prints the results.
// Build: g++ -I/usr/local/cuda/include link_probe.cpp -lcuda; run: ./a.out <Inputs dir>
#include <cuda.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static std::string slurp(const std::string &p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

static CUresult link(const std::string &dir, const std::vector<std::string> &files, CUmodule *mod, std::string &log) {
  char err[4096] = {0};
  CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *v[] = {err, (void *)(size_t)sizeof err};
  CUlinkState ls;
  CUresult r = cuLinkCreate(2, o, v, &ls);
  if (r) return r;
  for (const std::string &f : files) {
    std::string t = slurp(dir + "/" + f);
    r = cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)t.c_str(), t.size() + 1, f.c_str(), 0, nullptr, nullptr);
    if (r) { log = err; cuLinkDestroy(ls); return r; }
  }
  void *cubin; size_t sz;
  r = cuLinkComplete(ls, &cubin, &sz);
  if (!r) r = cuModuleLoadData(mod, cubin);
  log = err;
  cuLinkDestroy(ls);
  return r;
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  cuInit(0);
  CUdevice d; cuDeviceGet(&d, 0);
  CUcontext c; cuDevicePrimaryCtxRetain(&c, d); cuCtxSetCurrent(c);
  CUmodule m; std::string log;
  CUresult r = link(dir, {"link-a.ptx", "link-b.ptx"}, &m, log);
  printf("link a+b: %d\n", (int)r);
  if (!r) {
    CUfunction k; cuModuleGetFunction(&k, m, "k");
    CUdeviceptr out; cuMemAlloc(&out, 32); cuMemsetD8(out, 0, 32);
    void *args[] = {&out};
    r = cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, 0, args, nullptr);
    unsigned h[5] = {0};
    if (!r) r = cuMemcpyDtoH(h, out, sizeof h);
    printf("run k: %d -> %u %u %u %u %u\n", (int)r, h[0], h[1], h[2], h[3], h[4]);
  }
  r = link(dir, {"link-b.ptx", "link-a.ptx"}, &m, log); // order: which weak onlyweak wins?
  if (!r) {
    CUfunction k; cuModuleGetFunction(&k, m, "k");
    CUdeviceptr out; cuMemAlloc(&out, 32);
    void *args[] = {&out};
    r = cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, 0, args, nullptr);
    unsigned h[5] = {0};
    if (!r) r = cuMemcpyDtoH(h, out, sizeof h);
    printf("link b+a, run k: %d -> %u %u %u %u %u\n", (int)r, h[0], h[1], h[2], h[3], h[4]);
  } else printf("link b+a: %d\n", (int)r);
  r = link(dir, {"link-a.ptx", "link-b.ptx", "link-dup.ptx"}, &m, log);
  printf("link a+b+dup: %d log: %s\n", (int)r, log.c_str());
  r = link(dir, {"link-proto.ptx", "link-b.ptx"}, &m, log);
  printf("link proto+b: %d log: %s\n", (int)r, log.c_str());
  r = link(dir, {"link-exit.ptx", "link-callexit.ptx"}, &m, log);
  printf("link exit+callexit: %d log: %s\n", (int)r, log.c_str());
  if (!r) {
    CUfunction k; cuModuleGetFunction(&k, m, "ke");
    r = cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr);
    printf("run ke: %d sync %d\n", (int)r, (int)cuCtxSynchronize());
  }
  r = link(dir, {"link-a.ptx", "link-dup.ptx"}, &m, log);
  printf("link a+dup (undefined twice etc.): %d log: %s\n", (int)r, log.c_str());
  return 0;
}
