// Profiler-calling program (issue 15 item 7): what real CUDA samples and applications do around the
// work they want profiled, with no profiler attached. cudaProfilerStart/Stop (nested, repeated, and
// Stop before any Start), NVTX v3 ranges and marks (header-only nvtx3; without an injection library
// every call is a no-op), and the profiled region itself: a kernel launched directly and the same
// work captured into a CUDA graph and replayed. CUDA returns cudaSuccess for every profiler call when
// no profiler is attached, and the results must not depend on them. Printed: return codes and
// checksums only (device independent). Self-checking against a CPU model.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

__global__ void axpb(int* y, const int* x, int a, int b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b + y[i];
}

static void show(const char* what, cudaError_t e) { printf("%-28s %d %s\n", what, (int)e, cudaGetErrorName(e)); }

static unsigned long long checksum(const std::vector<int>& v) {
  unsigned long long h = 1469598103934665603ull;
  for (int x : v) { h ^= (unsigned)x; h *= 1099511628211ull; }
  return h;
}

int main() {
  const int n = 4096;
  std::vector<int> hx(n), hy(n, 0), ref(n, 0);
  for (int i = 0; i < n; ++i) hx[i] = (i * 37) % 1001 - 500;
  int *dx = nullptr, *dy = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(int)));
  CHECK(cudaMalloc(&dy, n * sizeof(int)));
  CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dy, 0, n * sizeof(int)));

  int bad = 0;
  // Stop before any Start, then the usual bracket, nested Start, double Stop.
  show("cudaProfilerStop(first)", cudaProfilerStop());
  show("cudaProfilerStart", cudaProfilerStart());
  show("cudaProfilerStart(nested)", cudaProfilerStart());
  show("cudaGetLastError", cudaGetLastError());

  nvtxMarkA("before the work");
  int lvl0 = nvtxRangePushA("outer");
  int lvl1 = nvtxRangePushA("direct launches");
  for (int r = 1; r <= 3; ++r) axpb<<<(n + 255) / 256, 256>>>(dy, dx, r, -r, n);
  show("launch", cudaGetLastError());
  int pop1 = nvtxRangePop();
  nvtxRangeId_t rid = nvtxRangeStartA("graph replay");

  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // A non-blocking stream is ordered after nothing of stream 0: without this event the graph's
  // replays could overlap the direct launches above (both update dy in place).
  cudaEvent_t direct;
  CHECK(cudaEventCreateWithFlags(&direct, cudaEventDisableTiming));
  CHECK(cudaEventRecord(direct, 0));
  CHECK(cudaStreamWaitEvent(s, direct, 0));
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  axpb<<<(n + 127) / 128, 128, 0, s>>>(dy, dx, 5, 7, n);
  axpb<<<(n + 63) / 64, 64, 0, s>>>(dy, dx, -2, 1, n);
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 4; ++r) CHECK(cudaGraphLaunch(ge, s));
  show("cudaStreamSynchronize", cudaStreamSynchronize(s));
  nvtxRangeEnd(rid);
  int pop0 = nvtxRangePop();
  // One more pop than pushes: NVTX reports it, CUDA is unaffected.
  int popx = nvtxRangePop();
  printf("nvtx push levels %d %d pops %d %d extra %d (no tool attached: all equal)\n", lvl0, lvl1, pop1, pop0,
         popx);
  if (!(lvl0 == lvl1 && lvl1 == pop1 && pop1 == pop0 && pop0 == popx)) {
    printf("nvtx return values differ\n");
    ++bad;
  }

  show("cudaProfilerStop", cudaProfilerStop());
  show("cudaProfilerStop(again)", cudaProfilerStop());
  show("cudaDeviceSynchronize", cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hy.data(), dy, n * sizeof(int), cudaMemcpyDeviceToHost));

  for (int r = 1; r <= 3; ++r)
    for (int i = 0; i < n; ++i) ref[i] = r * hx[i] - r + ref[i];
  for (int rep = 0; rep < 4; ++rep)
    for (int i = 0; i < n; ++i) {
      ref[i] = 5 * hx[i] + 7 + ref[i];
      ref[i] = -2 * hx[i] + 1 + ref[i];
    }
  int mism = 0;
  for (int i = 0; i < n; ++i) mism += hy[i] != ref[i];
  printf("y checksum %016llx ref %016llx mismatches %d\n", checksum(hy), checksum(ref), mism);
  bad += mism != 0;

  // A second profiled region after the graph is gone.
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(direct));
  show("cudaProfilerStart(2nd)", cudaProfilerStart());
  axpb<<<(n + 255) / 256, 256>>>(dy, dx, 0, 1, n);
  show("cudaProfilerStop(2nd)", cudaProfilerStop());
  CHECK(cudaMemcpy(hy.data(), dy, n * sizeof(int), cudaMemcpyDeviceToHost));
  int mism2 = 0;
  for (int i = 0; i < n; ++i) mism2 += hy[i] != ref[i] + 1;
  printf("second region mismatches %d\n", mism2);
  bad += mism2 != 0;

  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  printf("profiler_calls: %s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
