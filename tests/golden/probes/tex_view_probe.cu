// tex_view_probe.cu -- resource views of a layered array and the view query of a texture without one
// (H200 ground truth for textures.cu's two unverified assumptions). One line per case.
#include <cstdio>
#include <vector>
#include <cstring>
__global__ void klayer(cudaTextureObject_t t, float* out, int layer) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * 8 + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, layer);
}
int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr = nullptr;
  printf("alloc %s\n", cudaGetErrorName(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(8, 8, 3), cudaArrayLayered)));
  std::vector<float> lv(8 * 8 * 3);
  for (size_t i = 0; i < lv.size(); ++i) lv[i] = (float)i;
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(lv.data(), 8 * sizeof(float), 8, 8);
  p.dstArray = arr;
  p.extent = make_cudaExtent(8, 8, 3);
  p.kind = cudaMemcpyHostToDevice;
  printf("copy %s\n", cudaGetErrorName(cudaMemcpy3D(&p)));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td{};
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  float h[64];
  // no view: query
  {
    cudaTextureObject_t t = 0;
    printf("noview create %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &rd, &td, nullptr)));
    cudaResourceViewDesc q;
    memset(&q, 0x5a, sizeof q);
    cudaError_t e = cudaGetTextureObjectResourceViewDesc(&q, t);
    printf("noview query %s format %d w %zu h %zu d %zu first %u last %u\n", cudaGetErrorName(e), (int)q.format, q.width,
           q.height, q.depth, q.firstLayer, q.lastLayer);
    cudaGetLastError();
  }
  const cudaResourceViewFormat fmts[] = {cudaResViewFormatNone, cudaResViewFormatFloat1};
  const size_t depths[] = {0, 2, 3};
  const unsigned ranges[][2] = {{1, 2}, {0, 2}, {0, 0}, {2, 2}, {1, 3}};
  for (auto f : fmts)
    for (size_t dep : depths)
      for (auto& r : ranges) {
        cudaResourceViewDesc v{};
        v.format = f;
        v.width = 8, v.height = 8, v.depth = dep, v.firstLayer = r[0], v.lastLayer = r[1];
        cudaTextureObject_t t = 0;
        cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, &v);
        cudaGetLastError();
        printf("view fmt %d depth %zu layers %u..%u: %s", (int)f, dep, r[0], r[1], cudaGetErrorName(e));
        if (e == cudaSuccess) {
          cudaResourceViewDesc q{};
          cudaGetTextureObjectResourceViewDesc(&q, t);
          printf(" | q fmt %d w %zu h %zu d %zu %u..%u |", (int)q.format, q.width, q.height, q.depth, q.firstLayer, q.lastLayer);
          for (int l = 0; l < 3; ++l) {
            klayer<<<8, 8>>>(t, d, l);
            cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
            printf(" L%d %g %g", l, h[0], h[63]);
          }
          cudaDestroyTextureObject(t);
        }
        printf("\n");
      }
  printf("last %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
