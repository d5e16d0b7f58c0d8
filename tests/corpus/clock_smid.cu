// Timing and placement special registers (issue 15 item 7): clock64() must be a monotonic 64-bit
// counter (code measures elapsed cycles and implements timeouts with it), clock() its low word,
// %globaltimer a monotonic nanosecond timer, %smid < %nsmid, %warpid < %nwarpid, %laneid the
// lane. Each thread reads the counters in a loop with work in between and checks that no
// difference is negative and that the 64-bit counter advanced; only those device-independent
// facts are printed.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

struct Obs {
  unsigned neg_clock64, neg_gtimer, advanced, smid_ok, warpid_ok, laneid_ok, clock_lo_ok;
  unsigned long long work;
};

__device__ unsigned sreg_smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ unsigned sreg_nsmid() { unsigned r; asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r)); return r; }
__device__ unsigned sreg_warpid() { unsigned r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
__device__ unsigned sreg_nwarpid() { unsigned r; asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(r)); return r; }
__device__ unsigned sreg_laneid() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ unsigned long long sreg_gtimer() {
  unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r;
}

__global__ void observe(Obs* out, int iters) {
  Obs o{};
  unsigned long long first = clock64(), prev = first, gprev = sreg_gtimer();
  unsigned long long acc = threadIdx.x + 1;
  for (int i = 0; i < iters; ++i) {
    for (int k = 0; k < 64; ++k) acc = acc * 6364136223846793005ull + (unsigned long long)k;
    unsigned long long now = clock64();
    unsigned lo = (unsigned)clock();
    unsigned long long after = clock64();
    if (now < prev) ++o.neg_clock64;
    // clock() is the low word of the same counter, read between now and after
    unsigned long long lo_lo = now & 0xffffffffull;
    if (!((unsigned)(lo - (unsigned)lo_lo) <= (unsigned)(after - now))) o.clock_lo_ok = 1;
    prev = after;
    unsigned long long g = sreg_gtimer();
    if (g < gprev) ++o.neg_gtimer;
    gprev = g;
  }
  o.clock_lo_ok = o.clock_lo_ok ? 0 : 1;
  o.advanced = prev > first ? 1 : 0;
  o.smid_ok = sreg_smid() < sreg_nsmid() ? 1 : 0;
  o.warpid_ok = sreg_warpid() < sreg_nwarpid() ? 1 : 0;
  o.laneid_ok = sreg_laneid() == (threadIdx.x % 32) ? 1 : 0;
  o.work = acc;
  out[blockIdx.x * blockDim.x + threadIdx.x] = o;
}

int main() {
  const int blocks = 8, threads = 64, n = blocks * threads, iters = 200;
  Obs* d;
  CHECK(cudaMalloc(&d, n * sizeof(Obs)));
  observe<<<blocks, threads>>>(d, iters);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<Obs> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(Obs), cudaMemcpyDeviceToHost));
  unsigned neg = 0, gneg = 0, adv = 0, sm = 0, wp = 0, ln = 0, lo = 0, work_bad = 0;
  for (int i = 0; i < n; ++i) {
    neg += h[i].neg_clock64; gneg += h[i].neg_gtimer; adv += h[i].advanced; sm += h[i].smid_ok;
    wp += h[i].warpid_ok; ln += h[i].laneid_ok; lo += h[i].clock_lo_ok;
    unsigned long long acc = (i % threads) + 1;
    for (int it = 0; it < iters; ++it)
      for (int k = 0; k < 64; ++k) acc = acc * 6364136223846793005ull + (unsigned long long)k;
    work_bad += acc != h[i].work;
  }
  printf("clock64 negative differences: %u\n", neg);
  printf("clock64 advanced in %u of %d threads\n", adv, n);
  printf("clock() low word consistent in %u of %d threads\n", lo, n);
  printf("globaltimer negative differences: %u\n", gneg);
  printf("smid < nsmid in %u, warpid < nwarpid in %u, laneid == tid%%32 in %u of %d threads\n", sm, wp, ln, n);
  bool ok = neg == 0 && gneg == 0 && adv == (unsigned)n && lo == (unsigned)n && sm == (unsigned)n &&
            wp == (unsigned)n && ln == (unsigned)n && work_bad == 0;
  cudaFree(d);
  printf("clock_smid: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
