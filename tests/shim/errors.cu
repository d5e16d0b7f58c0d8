// Error paths of ptx2amd's runtime shim (not a corpus program): a failing device assert must
// surface as cudaErrorAssert (the device library's __assertfail prints a flagged printf record and
// traps; the backend reports that trap as an assert by the record's flag, never by its text), a
// store through a wild pointer (a low address no allocation can have: 0x1000 + 4*lane) as
// cudaErrorIllegalAddress (the executor's typed memory fault, with its report on stderr) -- the codes
// CUDA returns -- and an entry point the shim does not implement (cudaIpcGetMemHandle: no IPC) as
// cudaErrorNotSupported with "ptx2amd-shim: unsupported CUDA runtime call" on stderr -- never a
// silent success (real CUDA implements it: on an NVIDIA GPU that case reports its own answer and
// counts as WRONG, by design). Each case runs in a child process because launch failures are
// sticky, as in CUDA.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

__global__ void check_zero(int* p) { assert(p[threadIdx.x] == 0); }
__global__ void oob_store(int* p) { p[threadIdx.x] = 1; }

static int child(const char* which) {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  if (!strcmp(which, "assert")) {
    cudaMemset(d, 1, 64 * sizeof(int));
    check_zero<<<1, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    printf("assert: %s\n", cudaGetErrorName(e));
    return e == cudaErrorAssert ? 0 : 1;
  }
  if (!strcmp(which, "oob")) {
    oob_store<<<1, 32>>>(reinterpret_cast<int*>(0x1000));
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    printf("oob: %s\n", cudaGetErrorName(e));
    return e == cudaErrorIllegalAddress ? 0 : 1;
  }
  // Interprocess memory handles are not implemented (one process, emulated devices).
  cudaIpcMemHandle_t h;
  cudaError_t e = cudaIpcGetMemHandle(&h, d);
  printf("unsupported: %s\n", cudaGetErrorName(e));
  return e == cudaErrorNotSupported ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc > 1) return child(argv[1]);
  int bad = 0;
  for (const char* c : {"assert", "oob", "unsupported"}) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      int r = child(c);
      fflush(stdout);  // _exit does not flush stdio: the child's line must reach the log
      _exit(r);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    printf("case %s: %s\n", c, ok ? "ok" : "WRONG");
    bad += !ok;
  }
  printf("shim_errors: %d wrong %s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
