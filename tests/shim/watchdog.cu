// The emulators' watchdog (PTX2AMD_MAX_WAVE_INSTRUCTIONS; not a corpus program: on a GPU without
// a display the first kernel would never end): a kernel that spins forever on a flag nobody sets
// must end with cudaErrorLaunchTimeout -- CUDA's code for a launch the watchdog killed, sticky as
// in CUDA (the next call reports it too) -- instead of hanging the process, and a kernel that runs
// a bounded loop well under the limit must still complete with the right result. The limit is set
// here before the first CUDA call (the runtime reads its environment then); each case runs in a
// child process because the timeout is sticky.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

__global__ void spin_forever(volatile int* flag, int* out) {
  while (*flag == 0) {
  }
  out[threadIdx.x] = 1;
}

__global__ void bounded(int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += i ^ threadIdx.x;
  out[threadIdx.x] = s;
}

static int child(const char* which) {
  int* d;
  if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess) return 1;
  cudaMemset(d, 0, 64 * sizeof(int));
  if (!strcmp(which, "spin")) {
    spin_forever<<<2, 64>>>(d, d + 1);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    cudaError_t again = cudaDeviceSynchronize(); // sticky
    printf("spin: %s, then %s\n", cudaGetErrorName(e), cudaGetErrorName(again));
    return e == cudaErrorLaunchTimeout && again == cudaErrorLaunchTimeout ? 0 : 1;
  }
  bounded<<<1, 64>>>(d, 1000);
  cudaError_t e = cudaDeviceSynchronize();
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 64; ++t) {
    int s = 0;
    for (int i = 0; i < 1000; ++i) s += i ^ t;
    bad += h[t] != s;
  }
  printf("bounded: %s, %d wrong\n", cudaGetErrorName(e), bad);
  return e == cudaSuccess && bad == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  setenv("PTX2AMD_MAX_WAVE_INSTRUCTIONS", "2000000", 1);
  if (argc > 1) return child(argv[1]);
  int bad = 0;
  for (const char* c : {"spin", "bounded"}) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) _exit(child(c));
    int st = 0;
    waitpid(pid, &st, 0);
    bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    printf("case %s: %s\n", c, ok ? "ok" : "WRONG");
    bad += !ok;
  }
  printf("watchdog: %d wrong %s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
