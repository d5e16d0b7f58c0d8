// Device-scope atomics (native AMD forms) and a system-scope one (left as
// the backend's safe expansion) for the atomics-native test. Regenerate
// atomics_native.ptx with:
//   nvcc -ptx -arch=sm_90 atomics_native.cu -o atomics_native.ptx
extern "C" __global__ void dev(int *mx, int *mn, float *sum, const int *v, const float *f) {
  int i = threadIdx.x;
  atomicMax(mx, v[i]);
  atomicMin(mn, v[i]);
  atomicAdd(sum, f[i]);
}
extern "C" __global__ void sys(float *sum, const float *f) {
  atomicAdd_system(sum, f[threadIdx.x]);
}
