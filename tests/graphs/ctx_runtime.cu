// ctx_runtime.cu: the runtime API under a context the program created with the driver API. CUDA's
// runtime works in the calling thread's current driver context whatever made it current: after
// cuCtxCreate (which pushes the new context) cudaMalloc, <<<>>> launches (the module loaded in that
// context, with its own copy of every __device__ variable), cudaMemcpy(To/From)Symbol, streams,
// events and device printf belong to it; switching to the primary context with cuCtxSetCurrent
// switches the runtime too; a thread without a context gets the primary one; cudaSetDevice,
// cudaDeviceSynchronize and cudaDeviceReset with a created context current, and the runtime after
// the created context is destroyed. Handles print as names (A, B, primary, null). The H200's stdout
// is the golden. Built with -lcuda (and -cudart shared or the default static cudart).
// usage: ctx_runtime [thread | destroyed | reset]: also a second thread without a context / the
// runtime with a destroyed context pushed again / cudaDeviceReset while B is current (one of these
// aborted the process on the H200's first run: "free(): invalid pointer").
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <thread>

__device__ int counter = 100;

__global__ void bump(int *v, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += add;
  if (i == 0) counter += add;
}
__global__ void hello(int tag) {
  if (threadIdx.x == 0) printf("device printf from context %c\n", tag);
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("line %d %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = "?"; cuGetErrorName(r_, &s_); \
  printf("line %d %s: %s\n", __LINE__, #x, s_); return 1; } } while (0)

static CUcontext A, B, P;
static const char *name(CUcontext c) {
  if (!c) return "null";
  if (c == A) return "A";
  if (c == B) return "B";
  if (c == P) return "primary";
  return "other";
}
static const char *current() {
  CUcontext c = (CUcontext)1;
  CUresult r = cuCtxGetCurrent(&c);
  return r == CUDA_SUCCESS ? name(c) : "error";
}
static const char *owner(const void *p) {
  CUcontext c = nullptr;
  CUresult r = cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p);
  if (r != CUDA_SUCCESS) {
    const char *s = "?";
    cuGetErrorName(r, &s);
    return s;
  }
  return name(c);
}
static int symbol() {
  int v = -1;
  cudaError_t e = cudaMemcpyFromSymbol(&v, counter, sizeof v);
  return e == cudaSuccess ? v : -1000 - int(e);
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0); // what was printed survives an abort
  const char *mode = argc > 1 ? argv[1] : "";
  const int n = 64;
  static int h[n];
  CUdevice dev;
  CU(cuInit(0));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&P, dev));
  CU(cuCtxCreate(&A, nullptr, 0, dev));
  printf("after cuCtxCreate: current %s\n", current());
  int d = -1;
  CK(cudaGetDevice(&d));
  printf("cudaGetDevice %d, current %s\n", d, current());

  // Memory, kernels and module variables of the runtime land in A.
  int *pa = nullptr;
  CK(cudaMalloc(&pa, n * sizeof(int)));
  printf("cudaMalloc in A: owner %s, current %s\n", owner(pa), current());
  CK(cudaMemset(pa, 0, n * sizeof(int)));
  bump<<<1, n>>>(pa, n, 5);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, pa, sizeof h, cudaMemcpyDeviceToHost));
  printf("kernel in A: v[0]=%d v[63]=%d counter=%d\n", h[0], h[63], symbol());
  cudaStream_t sa;
  CK(cudaStreamCreate(&sa));
  CUcontext sc = nullptr;
  CU(cuStreamGetCtx((CUstream)sa, &sc));
  printf("cudaStreamCreate in A: stream context %s\n", name(sc));
  cudaEvent_t ea;
  CK(cudaEventCreate(&ea));
  bump<<<1, n, 0, sa>>>(pa, n, 1);
  CK(cudaEventRecord(ea, sa));
  CK(cudaEventSynchronize(ea));
  printf("stream + event in A: counter=%d\n", symbol());
  hello<<<1, 32>>>('A');
  CK(cudaDeviceSynchronize());
  fflush(stdout);

  // The primary context made current with the driver API: a separate module instance.
  CU(cuCtxSetCurrent(P));
  printf("after cuCtxSetCurrent(primary): current %s\n", current());
  printf("counter in primary before any launch there: %d\n", symbol());
  int *pp = nullptr;
  CK(cudaMalloc(&pp, n * sizeof(int)));
  printf("cudaMalloc in primary: owner %s\n", owner(pp));
  CK(cudaMemset(pp, 0, n * sizeof(int)));
  bump<<<1, n>>>(pp, n, 7);
  CK(cudaDeviceSynchronize());
  printf("kernel in primary: counter=%d\n", symbol());
  // A's memory is usable here (unified addressing).
  bump<<<1, n>>>(pa, n, 10);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, pa, sizeof h, cudaMemcpyDeviceToHost));
  printf("A's memory from primary: v[0]=%d counter=%d\n", h[0], symbol());
  // A's stream with the primary context current.
  cudaError_t e = cudaStreamSynchronize(sa);
  printf("cudaStreamSynchronize(A's stream) in primary: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  bump<<<1, n, 0, sa>>>(pp, n, 1);
  e = cudaGetLastError();
  printf("launch on A's stream in primary: %s\n", cudaGetErrorName(e));
  e = cudaMemcpyAsync(h, pp, sizeof h, cudaMemcpyDeviceToHost, sa);
  if (e == cudaSuccess) e = cudaStreamSynchronize(sa);
  printf("cudaMemcpyAsync on A's stream in primary: %s v[0]=%d\n", cudaGetErrorName(e), h[0]);
  cudaGetLastError();
  CK(cudaDeviceSynchronize());
  printf("counter in primary: %d\n", symbol());

  // Back to A: its module state survived.
  CU(cuCtxSetCurrent(A));
  printf("back in A: counter=%d\n", symbol());
  hello<<<1, 32>>>('a');
  CK(cudaDeviceSynchronize());
  fflush(stdout);

  // Another thread starts without a context: the runtime gives it the primary context.
  if (!strcmp(mode, "thread")) {
    std::thread t([&] {
      printf("thread: current %s\n", current());
      int *pt = nullptr;
      cudaError_t e2 = cudaMalloc(&pt, 16);
      printf("thread: cudaMalloc %s, owner %s, current %s\n", cudaGetErrorName(e2), owner(pt), current());
      printf("thread: counter=%d\n", symbol());
      cudaFree(pt);
    });
    t.join();
    printf("main after thread: current %s\n", current());
  }

  // A second created context B, pushed over A.
  CU(cuCtxCreate(&B, nullptr, 0, dev));
  printf("after cuCtxCreate(B): current %s, counter=%d\n", current(), symbol());
  int *pb = nullptr;
  CK(cudaMalloc(&pb, 16));
  printf("cudaMalloc in B: owner %s\n", owner(pb));
  CUcontext popped = nullptr;
  CU(cuCtxPopCurrent(&popped));
  printf("popped %s, current %s, counter=%d\n", name(popped), current(), symbol());

  // cudaSetDevice with a created context current.
  CK(cudaSetDevice(0));
  printf("after cudaSetDevice(0) in A: current %s\n", current());
  CU(cuCtxSetCurrent(A));

  // Free A's memory, then destroy A while it is current.
  CK(cudaFree(pa));
  CK(cudaStreamDestroy(sa));
  CK(cudaEventDestroy(ea));
  CU(cuCtxDestroy(A));
  printf("after cuCtxDestroy(A): current %s\n", current());
  int *pz = nullptr;
  e = cudaMalloc(&pz, 16);
  printf("cudaMalloc after destroying A: %s, owner %s, current %s\n", cudaGetErrorName(e), owner(pz), current());
  printf("counter=%d\n", symbol());
  if (pz) cudaFree(pz);
  // The destroyed context's handle pushed again (CUDA accepts it): the runtime under it.
  if (!strcmp(mode, "destroyed")) {
    CU(cuCtxPushCurrent(A));
    pz = nullptr;
    e = cudaMalloc(&pz, 16);
    printf("cudaMalloc with destroyed A pushed: %s\n", cudaGetErrorName(e));
    e = cudaDeviceSynchronize();
    printf("cudaDeviceSynchronize with destroyed A pushed: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CUcontext gone = nullptr;
    CU(cuCtxPopCurrent(&gone));
    printf("popped %s, current %s\n", gone == A ? "A" : "not A", current());
  }

  // cudaDeviceReset with B current.
  CU(cuCtxSetCurrent(B));
  e = cudaSuccess;
  bool reset = !strcmp(mode, "reset");
  if (reset) e = cudaDeviceReset();
  printf("%s: %s, current %s\n", reset ? "cudaDeviceReset in B" : "no reset, B current", cudaGetErrorName(e), current());
  CUdeviceptr bb = 0;
  size_t bs = 0;
  CUresult r = cuMemGetAddressRange(&bb, &bs, (CUdeviceptr)pb);
  const char *rs = "?";
  cuGetErrorName(r, &rs);
  printf("B's memory: %s size %zu\n", rs, bs);
  auto res = [](CUresult x) { const char *s = "?"; cuGetErrorName(x, &s); return s; };
  printf("cuCtxSetCurrent(B): %s\n", res(cuCtxSetCurrent(B)));
  printf("cuCtxDestroy(B): %s\n", res(cuCtxDestroy(B)));
  printf("cuDevicePrimaryCtxRelease: %s\n", res(cuDevicePrimaryCtxRelease(dev)));
  printf("done\n");
  return 0;
}
