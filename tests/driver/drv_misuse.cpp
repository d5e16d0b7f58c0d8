// drv_misuse.cpp: driver-API misuse (issue 10), the counterpart of tests/robustness/misuse_runtime.cu:
// null outputs, zero and oversized sizes, double frees and unloads, destroyed and made-up handles
// (device pointers, modules, functions, streams, events, contexts), impossible launch shapes,
// unknown attributes, devices and names, images that are not images. Each case runs in a child
// process (fork before any CUDA call, as the driver state is per process); it must return an
// error code and the child must exit normally. The codes are printed, not compared: for the
// destroyed and made-up handles NVIDIA's behaviour is undefined; the property checked is issue
// 10's -- an error, never a signal. Self-checking: last line PASS / FAIL.
// usage: drv_misuse k.ptx
#include "drv_common.h"
#include <cstdint>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const char *g_ptx = nullptr; // k.ptx text (tests/driver/kernels.cu)

CUmodule load() {
  CUmodule m = nullptr;
  CHECK(cuModuleLoadData(&m, g_ptx));
  return m;
}
CUfunction vector_add(CUmodule m) {
  CUfunction f = nullptr;
  CHECK(cuModuleGetFunction(&f, m, "vector_add"));
  return f;
}
CUdeviceptr alloc(size_t n) {
  CUdeviceptr p = 0;
  CHECK(cuMemAlloc(&p, n));
  return p;
}
template <typename T> T made_up() { return reinterpret_cast<T>(uintptr_t(0x5a5a5a5a5a5a0)); }
constexpr CUdeviceptr kMadeUpPtr = 0x5a5a5a5a5a5a0;

CUresult launch(CUfunction f, unsigned gx, unsigned bx) {
  CUdeviceptr a = alloc(1024), b = alloc(1024), c = alloc(1024);
  int n = 256;
  void *args[] = {&a, &b, &c, &n};
  return cuLaunchKernel(f, gx, 1, 1, bx, 1, 1, 0, nullptr, args, nullptr);
}

struct Case {
  const char *name;
  CUresult (*run)();
};

const Case kCases[] = {
    {"cuMemAlloc into null", [] { return cuMemAlloc(nullptr, 16); }},
    {"cuMemAlloc of 0 bytes",
     [] {
       CUdeviceptr p;
       return cuMemAlloc(&p, 0);
     }},
    {"cuMemAlloc of 2^62 bytes",
     [] {
       CUdeviceptr p;
       return cuMemAlloc(&p, size_t(1) << 62);
     }},
    {"cuMemFree twice",
     [] {
       CUdeviceptr p = alloc(256);
       cuMemFree(p);
       return cuMemFree(p);
     }},
    {"cuMemFree of a made-up pointer", [] { return cuMemFree(kMadeUpPtr); }},
    {"cuMemcpyHtoD to a made-up pointer",
     [] {
       static char host[64];
       return cuMemcpyHtoD(kMadeUpPtr, host, sizeof host);
     }},
    {"cuMemcpyDtoD past the end of the source",
     [] {
       CUdeviceptr a = alloc(256), b = alloc(1 << 20);
       return cuMemcpyDtoD(b, a, 1 << 20);
     }},
    {"cuMemcpyDtoH of SIZE_MAX bytes",
     [] {
       static char host[64];
       return cuMemcpyDtoH(host, alloc(256), SIZE_MAX);
     }},
    {"cuMemsetD32 past the end",
     [] { return cuMemsetD32(alloc(256), 0, 1 << 20); }},
    {"cuModuleLoadData of null",
     [] {
       CUmodule m;
       return cuModuleLoadData(&m, nullptr);
     }},
    {"cuModuleLoadData of text that is not PTX",
     [] {
       CUmodule m;
       return cuModuleLoadData(&m, "this is not an image\n");
     }},
    {"cuModuleLoadData of 64 bytes of 0xff",
     [] {
       static char junk[65];
       memset(junk, 0xff, 64);
       CUmodule m;
       return cuModuleLoadData(&m, junk);
     }},
    {"cuModuleGetFunction of a missing name",
     [] {
       CUfunction f;
       return cuModuleGetFunction(&f, load(), "no_such_kernel");
     }},
    {"cuModuleGetFunction on a made-up module",
     [] {
       CUfunction f;
       return cuModuleGetFunction(&f, made_up<CUmodule>(), "vector_add");
     }},
    {"cuModuleGetFunction on an unloaded module",
     [] {
       CUmodule m = load();
       cuModuleUnload(m);
       CUfunction f;
       return cuModuleGetFunction(&f, m, "vector_add");
     }},
    {"cuModuleGetGlobal of a missing name",
     [] {
       CUdeviceptr p;
       size_t n;
       return cuModuleGetGlobal(&p, &n, load(), "no_such_global");
     }},
    {"cuModuleUnload twice",
     [] {
       CUmodule m = load();
       cuModuleUnload(m);
       return cuModuleUnload(m);
     }},
    {"cuLaunchKernel of a null function", [] { return launch(nullptr, 1, 32); }},
    {"cuLaunchKernel of a made-up function", [] { return launch(made_up<CUfunction>(), 1, 32); }},
    {"cuLaunchKernel of an unloaded module's function",
     [] {
       CUmodule m = load();
       CUfunction f = vector_add(m);
       cuModuleUnload(m);
       return launch(f, 1, 32);
     }},
    {"cuLaunchKernel with a zero grid", [] { return launch(vector_add(load()), 0, 32); }},
    {"cuLaunchKernel with 2048 threads per block", [] { return launch(vector_add(load()), 1, 2048); }},
    {"cuLaunchKernel with 1 MiB of dynamic shared memory",
     [] {
       CUfunction f = vector_add(load());
       CUdeviceptr a = alloc(1024);
       int n = 1;
       void *args[] = {&a, &a, &a, &n};
       return cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 1 << 20, nullptr, args, nullptr);
     }},
    {"cuFuncGetAttribute of attribute 9999",
     [] {
       int v;
       return cuFuncGetAttribute(&v, static_cast<CUfunction_attribute>(9999), vector_add(load()));
     }},
    {"cuStreamDestroy twice",
     [] {
       CUstream s;
       CHECK(cuStreamCreate(&s, 0));
       cuStreamDestroy(s);
       return cuStreamDestroy(s);
     }},
    {"cuStreamSynchronize of a made-up stream", [] { return cuStreamSynchronize(made_up<CUstream>()); }},
    {"cuEventRecord of a destroyed event",
     [] {
       CUevent e;
       CHECK(cuEventCreate(&e, 0));
       cuEventDestroy(e);
       return cuEventRecord(e, nullptr);
     }},
    {"cuEventElapsedTime of unrecorded events",
     [] {
       CUevent a, b;
       CHECK(cuEventCreate(&a, 0));
       CHECK(cuEventCreate(&b, 0));
       float ms;
       return cuEventElapsedTime(&ms, a, b);
     }},
    {"cuCtxSetCurrent of a made-up context", [] { return cuCtxSetCurrent(made_up<CUcontext>()); }},
    {"cuCtxDestroy of a made-up context", [] { return cuCtxDestroy(made_up<CUcontext>()); }},
    {"cuDeviceGet of device 99",
     [] {
       CUdevice d;
       return cuDeviceGet(&d, 99);
     }},
    {"cuDeviceGetAttribute of CU_DEVICE_ATTRIBUTE_MAX",
     [] {
       int v;
       return cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0); // the H200: INVALID_VALUE
     }},
    {"cuDeviceGetName into null", [] { return cuDeviceGetName(nullptr, 16, 0); }},
    {"cuGetErrorName of code 9999",
     [] {
       const char *s;
       return cuGetErrorName(static_cast<CUresult>(9999), &s);
     }},
    {"cuPointerGetAttribute of a made-up pointer",
     [] {
       CUcontext c;
       return cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, kMadeUpPtr);
     }},
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    printf("usage: drv_misuse k.ptx\nFAIL\n");
    return 1;
  }
  std::vector<char> Ptx = read_file(argv[1]);
  g_ptx = Ptx.data();
  int wrong = 0, n = 0;
  for (const Case &c : kCases) {
    ++n;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      init_primary();
      CUresult r = c.run();
      printf("  %-52s %s\n", c.name, result_name(r));
      fflush(stdout);
      exit(r == CUDA_SUCCESS ? 3 : 0); // exit(), not _exit(): the library's teardown runs too
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st)) {
      printf("case %s: killed by signal %d WRONG\n", c.name, WTERMSIG(st));
      ++wrong;
    } else if (WEXITSTATUS(st) != 0) {
      printf("case %s: exit %d (%s) WRONG\n", c.name, WEXITSTATUS(st),
             WEXITSTATUS(st) == 3 ? "CUDA_SUCCESS for a misuse" : "died");
      ++wrong;
    }
  }
  printf("drv_misuse: %d cases, %d wrong\n%s\n", n, wrong, wrong ? "FAIL" : "PASS");
  return wrong != 0;
}
