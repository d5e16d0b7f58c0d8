// H200 probe (not a CTest test: needs an NVIDIA GPU). Runs on real CUDA texture objects what
// tests/lit/ptx-to-llvm/txq-tld4-run.ptx checks on the emulator, and prints the same lines, so the
// expected values there (txq results, tld4 footprint order, offsets) can be compared with NVIDIA:
//   nvcc -arch=sm_90 -o probe h200_probe_txq_tld4.cu && ./probe
// Compare each "mode M" block with the CLAMP (mode 0), BORDER (mode 3) and WRAP (mode 4) lines.
// Open questions it answers: txq.channel_data_type / channel_order values for a CUDA float2 texture
// (ptx2amd returns OpenCL's CL_FLOAT 4318 / CL_RG 4274), txq.addr_mode_0 numbering, txq.height of
// a 1D texture (ptx2amd: the descriptor's 1).
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                                         \
  do {                                                                                   \
    cudaError_t e = (x);                                                                 \
    if (e != cudaSuccess) {                                                              \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));             \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

__global__ void gather(cudaTextureObject_t t, cudaTextureObject_t t1d, float *out, unsigned *q, unsigned mode) {
  if (threadIdx.x == 0) {
    unsigned r[13];
    asm volatile("txq.width.b32 %0, [%1];" : "=r"(r[0]) : "l"(t));
    asm volatile("txq.height.b32 %0, [%1];" : "=r"(r[1]) : "l"(t));
    asm volatile("txq.depth.b32 %0, [%1];" : "=r"(r[2]) : "l"(t));
    asm volatile("txq.channel_data_type.b32 %0, [%1];" : "=r"(r[3]) : "l"(t));
    asm volatile("txq.channel_order.b32 %0, [%1];" : "=r"(r[4]) : "l"(t));
    asm volatile("txq.normalized_coords.b32 %0, [%1];" : "=r"(r[5]) : "l"(t));
    asm volatile("txq.filter_mode.b32 %0, [%1];" : "=r"(r[6]) : "l"(t));
    asm volatile("txq.addr_mode_0.b32 %0, [%1];" : "=r"(r[7]) : "l"(t));
    asm volatile("txq.array_size.b32 %0, [%1];" : "=r"(r[8]) : "l"(t));
    asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(r[9]) : "l"(t));
    asm volatile("txq.level.width.b32 %0, [%1], %2;" : "=r"(r[10]) : "l"(t), "r"(1));
    asm volatile("txq.height.b32 %0, [%1];" : "=r"(r[11]) : "l"(t1d));
    asm volatile("txq.depth.b32 %0, [%1];" : "=r"(r[12]) : "l"(t1d));
    for (int k = 0; k < 13; ++k) q[k] = r[k];
  }
  const float xs[5] = {1.5f, 0.25f, 3.75f, 3.0f, 5.5f};
  const float ys[5] = {1.5f, 0.25f, 3.5f, 0.75f, -2.5f};
  unsigned i = threadIdx.x;
  if (i < 5) {
    float s = (mode & 4u) ? 0.25f : 1.0f;
    float4 r = tex2Dgather<float4>(t, xs[i] * s, ys[i] * s, 0);
    float4 g = tex2Dgather<float4>(t, xs[i] * s, ys[i] * s, 1);
    out[i * 8 + 0] = r.x; out[i * 8 + 1] = r.y; out[i * 8 + 2] = r.z; out[i * 8 + 3] = r.w;
    out[i * 8 + 4] = g.x; out[i * 8 + 5] = g.y; out[i * 8 + 6] = g.z; out[i * 8 + 7] = g.w;
    float o0, o1, o2, o3;
    asm volatile("tld4.r.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8};"
                 : "=f"(o0), "=f"(o1), "=f"(o2), "=f"(o3)
                 : "l"(t), "f"(xs[i] * s), "f"(ys[i] * s), "r"(1), "r"(-1));
    out[40 + i * 4 + 0] = o0; out[40 + i * 4 + 1] = o1; out[40 + i * 4 + 2] = o2; out[40 + i * 4 + 3] = o3;
  }
}

int main() {
  float2 h[16];
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) h[j * 4 + i] = make_float2((float)(i + 10 * j), (float)(100 + i + 10 * j));
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
  cudaArray_t arr, arr1;
  CHECK(cudaMallocArray(&arr, &cd, 4, 4));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, h, 4 * sizeof(float2), 4 * sizeof(float2), 4, cudaMemcpyHostToDevice));
  CHECK(cudaMallocArray(&arr1, &cd, 4, 0));
  float *out;
  unsigned *q;
  CHECK(cudaMalloc(&out, 60 * sizeof(float)));
  CHECK(cudaMalloc(&q, 13 * sizeof(unsigned)));
  const unsigned modes[3] = {0, 3, 4};
  for (unsigned mode : modes) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    cudaTextureAddressMode am = (mode & 2u) ? cudaAddressModeBorder : (mode & 4u) ? cudaAddressModeWrap : cudaAddressModeClamp;
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
    td.filterMode = (mode & 1u) ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = (mode & 4u) ? 1 : 0;
    td.borderColor[0] = -7.0f; td.borderColor[1] = -9.0f;
    cudaTextureObject_t t, t1;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    rd.res.array.array = arr1;
    CHECK(cudaCreateTextureObject(&t1, &rd, &td, nullptr));
    CHECK(cudaMemset(out, 0, 60 * sizeof(float)));
    gather<<<1, 8>>>(t, t1, out, q, mode);
    CHECK(cudaGetLastError());
    float ho[60];
    unsigned hq[13];
    CHECK(cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hq, q, sizeof hq, cudaMemcpyDeviceToHost));
    // The first 11 values are the lit test's buf3[0..10] (its buf3[11] is suq.height).
    std::printf("mode %u\nbuf3[0..10]:", mode);
    for (int k = 0; k < 11; ++k) std::printf(" %u", hq[k]);
    std::printf("\n1d texture: txq.height %u txq.depth %u\nbuf2:", hq[11], hq[12]);
    for (int k = 0; k < 60; ++k) std::printf(" %g", ho[k]);
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaDestroyTextureObject(t1));
  }
  return 0;
}
