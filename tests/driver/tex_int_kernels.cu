// tex_int_kernels.cu: kernels of drv_tex_int.cpp (loaded from PTX): 1D and 2D fetches of a texture
// object returning the element type the array holds (CU_TRSF_READ_AS_INTEGER), widened to int.
#include <cstdint>

template <class T> __device__ void fetch1d(cudaTextureObject_t t, int *out, int n, float step) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = int(tex1D<T>(t, k * step));
}
template <class T> __device__ void fetch2d(cudaTextureObject_t t, int *out, int n, float step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) out[j * n + i] = int(tex2D<T>(t, i * step, j * step));
}
#define FETCH(T, N)                                                                                     \
  extern "C" __global__ void f1_##N(cudaTextureObject_t t, int *o, int n, float s) { fetch1d<T>(t, o, n, s); } \
  extern "C" __global__ void f2_##N(cudaTextureObject_t t, int *o, int n, float s) { fetch2d<T>(t, o, n, s); }
FETCH(unsigned char, u8)
FETCH(signed char, s8)
FETCH(unsigned short, u16)
FETCH(short, s16)
FETCH(unsigned int, u32)
FETCH(int, s32)
