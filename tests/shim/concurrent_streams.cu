// Kernels in different streams run at the same time (not a corpus program). Each case launches a
// kernel that spins on a device flag until a kernel launched later, in another stream, sets it;
// only if the two really overlap does the spinner see the flag. A spinner gives up after 10 s of
// %globaltimer (reporting "gave up", so a runtime that serialises launches fails cleanly instead of
// hanging), and a watchdog ends a stuck run. Cases: two cudaStreamNonBlocking streams (with
// device printf from both kernels: the setter prints before it sets the flag, so the order of the
// two lines is fixed), two blocking streams (cudaStreamCreate: they do not synchronise with each
// other), a ping-pong where each kernel waits for the other (flags both ways), and a spinner in a
// non-blocking stream released by a kernel in the legacy default stream (which does not
// synchronise with non-blocking streams). cudaStreamQuery of the spinner's stream before its
// setter is launched must be cudaErrorNotReady. Every kernel is launched once before the cases:
// CUDA loads kernels lazily (CUDA_MODULE_LOADING=LAZY, the default since 12.2), and loading a kernel
// while another one runs may wait for it -- on the H200, without this warm-up, a setter or pong
// launched for the first time while its partner spun was held until the partner gave up (the
// Programming Guide's lazy-loading hazard for kernels that wait for each other). Every printed line
// is independent of timing (times go to stderr); the expected stdout is the H200's
// (tests/golden/programs/).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d FAIL\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

static const unsigned long long kTimeoutNs = 10ull * 1000 * 1000 * 1000;

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
// 1 once *flag == want, 0 after timeout_ns of %globaltimer.
__device__ int wait_for(volatile int* flag, int want, unsigned long long timeout_ns) {
  unsigned long long t0 = globaltimer();
  while (*flag != want)
    if (globaltimer() - t0 > timeout_ns) return 0;
  return 1;
}
__global__ void spinner(volatile int* flag, int* result, unsigned long long timeout_ns, int say) {
  int ok = wait_for(flag, 1, timeout_ns);
  result[0] = ok;
  if (say) printf("spinner: %s\n", ok ? "saw the flag" : "gave up");
}
__global__ void setter(volatile int* flag, int say) {
  if (say) printf("setter: setting the flag\n");
  __threadfence_system();
  *flag = 1;
  __threadfence_system();
}
__global__ void ping(volatile int* a, volatile int* b, int* result, unsigned long long timeout_ns) {
  *a = 1;
  __threadfence();
  result[0] = wait_for(b, 1, timeout_ns);
}
__global__ void pong(volatile int* a, volatile int* b, int* result, unsigned long long timeout_ns) {
  int ok = wait_for(a, 1, timeout_ns);
  *b = 1;
  __threadfence();
  result[1] = ok;
}

static volatile sig_atomic_t step = 0;
static void watchdog(int) {
  char msg[64];
  int len = snprintf(msg, sizeof msg, "watchdog: stuck in case %d FAIL\n", int(step));
  if (write(1, msg, size_t(len)) < 0) {}
  _exit(1);
}
static double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
static const char* name(cudaError_t e) { return cudaGetErrorName(e); }

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  signal(SIGALRM, watchdog);
  alarm(120);
  int *flags, *result;
  CHECK(cudaMalloc(&flags, 2 * sizeof(int)));
  CHECK(cudaMalloc(&result, 2 * sizeof(int)));
  int wrong = 0;
  auto reset = [&]() -> cudaError_t {
    cudaError_t e = cudaMemset(flags, 0, 2 * sizeof(int));
    if (e == cudaSuccess) e = cudaMemset(result, 0xff, 2 * sizeof(int));
    return e;
  };
  auto results = [&](int* h) -> cudaError_t { return cudaMemcpy(h, result, 2 * sizeof(int), cudaMemcpyDeviceToHost); };

  // Warm-up: every kernel runs once (loaded before it has to run next to another), without waiting.
  {
    const int ready[2] = {1, 1};
    CHECK(cudaMemcpy(flags, ready, sizeof ready, cudaMemcpyHostToDevice));
    spinner<<<1, 1>>>(flags, result, kTimeoutNs, 0);
    setter<<<1, 1>>>(flags, 0);
    ping<<<1, 1>>>(flags, flags + 1, result, kTimeoutNs);
    pong<<<1, 1>>>(flags, flags + 1, result, kTimeoutNs);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int h[2];
    CHECK(results(h));
    printf("warm-up: ping %d, pong %d\n", h[0], h[1]);
    wrong += h[0] != 1 || h[1] != 1;
  }

  // 1. two non-blocking streams; device printf from both kernels.
  step = 1;
  {
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CHECK(reset());
    CHECK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    spinner<<<1, 1, 0, a>>>(flags, result, kTimeoutNs, 1);
    CHECK(cudaGetLastError());
    cudaError_t q = cudaStreamQuery(a);
    printf("case 1: query of the spinner's stream before the setter: %s\n", name(q));
    wrong += q != cudaErrorNotReady;
    setter<<<1, 1, 0, b>>>(flags, 1);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(a));
    CHECK(cudaStreamSynchronize(b));
    fprintf(stderr, "case 1: %.3f s\n", seconds_since(t0));
    int h[2];
    CHECK(results(h));
    printf("case 1: non-blocking streams: spinner %s\n", h[0] == 1 ? "saw the flag" : "did not see the flag");
    wrong += h[0] != 1;
    q = cudaStreamQuery(a);
    printf("case 1: query after synchronising: %s\n", name(q));
    wrong += q != cudaSuccess;
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
  }

  // 2. two blocking streams (they synchronise with the legacy stream, not with each other).
  step = 2;
  {
    cudaStream_t a, b;
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaStreamCreate(&b));
    CHECK(reset());
    CHECK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    spinner<<<1, 1, 0, a>>>(flags, result, kTimeoutNs, 0);
    CHECK(cudaGetLastError());
    cudaError_t q = cudaStreamQuery(a);
    printf("case 2: query of the spinner's stream before the setter: %s\n", name(q));
    wrong += q != cudaErrorNotReady;
    setter<<<1, 1, 0, b>>>(flags, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    fprintf(stderr, "case 2: %.3f s\n", seconds_since(t0));
    int h[2];
    CHECK(results(h));
    printf("case 2: blocking streams: spinner %s\n", h[0] == 1 ? "saw the flag" : "did not see the flag");
    wrong += h[0] != 1;
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
  }

  // 3. ping-pong: ping sets a and waits for b, pong waits for a and sets b.
  step = 3;
  {
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    CHECK(reset());
    CHECK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    ping<<<1, 1, 0, a>>>(flags, flags + 1, result, kTimeoutNs);
    CHECK(cudaGetLastError());
    pong<<<1, 1, 0, b>>>(flags, flags + 1, result, kTimeoutNs);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(a));
    CHECK(cudaStreamSynchronize(b));
    fprintf(stderr, "case 3: %.3f s\n", seconds_since(t0));
    int h[2];
    CHECK(results(h));
    printf("case 3: ping-pong: ping %s, pong %s\n", h[0] == 1 ? "saw pong" : "did not see pong",
           h[1] == 1 ? "saw ping" : "did not see ping");
    wrong += h[0] != 1 || h[1] != 1;
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
  }

  // 4. the legacy default stream does not wait for a non-blocking stream.
  step = 4;
  {
    cudaStream_t a;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(reset());
    CHECK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    spinner<<<1, 1, 0, a>>>(flags, result, kTimeoutNs, 0);
    CHECK(cudaGetLastError());
    cudaError_t q = cudaStreamQuery(a);
    printf("case 4: query of the spinner's stream before the setter: %s\n", name(q));
    wrong += q != cudaErrorNotReady;
    setter<<<1, 1>>>(flags, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaStreamSynchronize(a));
    fprintf(stderr, "case 4: %.3f s\n", seconds_since(t0));
    int h[2];
    CHECK(results(h));
    printf("case 4: legacy default stream released a non-blocking spinner: %s\n", h[0] == 1 ? "yes" : "no");
    wrong += h[0] != 1;
    CHECK(cudaStreamDestroy(a));
  }

  CHECK(cudaFree(flags));
  CHECK(cudaFree(result));
  printf("%d wrong: %s\n", wrong, wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
