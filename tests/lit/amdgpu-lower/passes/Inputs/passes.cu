// Kernels for the per-pass lit tests of amdgpu-lower (tests/lit/amdgpu-lower/passes/: each
// pass of amdgpulower/Passes.def run alone by ptx2amd-opt on the translator's output).
// Regenerate with:
//   nvcc -ptx -arch=sm_90 passes.cu -o passes.ptx
//   ptx2llvm-test passes.ptx > passes.ll
// vadd: the plain kernel (ABI, devlib, source positions); elapsed: %clock64 (the gfx11
// cycle counter); scale: f32 arithmetic whose canonical-NaN selects only partly escape.
extern "C" __global__ void vadd(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

extern "C" __global__ void elapsed(long long *out, const int *work) {
  long long t0 = clock64();
  int s = 0;
  for (int k = 0; k < work[0]; ++k) s += work[k + 1];
  long long t1 = clock64();
  out[threadIdx.x] = (t1 - t0) + s;
}

extern "C" __global__ void scale(const float *a, float *out, int *flag) {
  int i = threadIdx.x;
  float t = a[i] * 3.0f + 1.0f; // feeds arithmetic only
  out[i] = t * t;               // stored: its bits escape
  if (a[i] * 2.0f > 1.0f) *flag = 1; // compared only
}
