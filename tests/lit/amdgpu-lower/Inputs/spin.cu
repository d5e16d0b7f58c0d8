// Warp 1 waits for a flag that warp 0 of the same block sets: correct on
// NVIDIA (independent warp scheduling), a hang under wave64 pack when both
// warps share one wave. -Wwarp-size must flag `handoff` and not `copy`.
// Regenerate spin.ptx with: nvcc -ptx -arch=sm_75 spin.cu -o spin.ptx
__global__ void handoff(volatile int *flag, int *out) {
  if (threadIdx.x == 0) *flag = 1;
  if (threadIdx.x == 32) {
    while (*flag == 0) __nanosleep(100);
    out[0] = 1;
  }
}

__global__ void copy(int *out, const int *in) { out[threadIdx.x] = in[threadIdx.x]; }
