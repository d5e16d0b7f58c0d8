// By-value aggregates as kernel parameters (PTX .param .align N .b8 name[size]): structs with mixed
// member types and padding, over-aligned structs (alignas(16), float4/double2 members), nested
// structs and arrays, a 1 KB coefficient table passed by value, a template functor, a functor
// holding captured values, and __grid_constant__ params whose address is taken. Device helpers
// return structs by value. Checked against the same computation on the CPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

struct Mixed {
  char c;
  double d;
  short s;
  int i;
  float f;
  unsigned char tail[3];
};

struct alignas(16) Vec4Pack {
  float4 v;
  double2 w;
  int tag;
};

struct Inner { int a[3]; float b; };
struct Outer { Inner in[2]; long long id; Mixed m; };

struct Coeffs { float c[256]; };  // 1 KB by value

struct Affine {
  float scale, bias;
  __host__ __device__ float operator()(float x) const { return x * scale + bias; }
};

struct Captured {  // what a capturing device lambda would be, without needing --extended-lambda
  float k2;
  int k3;
  __host__ __device__ float operator()(float v) const { return v * k2 + (float)k3; }
};

struct Result { double sum; int count; };

__host__ __device__ Result combine(const Mixed& m, const Vec4Pack& p, const Outer& o, float x) {
  Result r;
  r.sum = m.c + m.d * 2 + m.s + m.i + m.f + m.tail[0] + m.tail[1] * 2 + m.tail[2] * 3;
  r.sum += p.v.x + p.v.y * 2 + p.v.z * 3 + p.v.w * 4 + p.w.x + p.w.y + p.tag;
  for (int k = 0; k < 2; ++k) r.sum += o.in[k].a[0] + o.in[k].a[1] + o.in[k].a[2] + o.in[k].b;
  r.sum += (double)o.id + o.m.d + o.m.i;
  r.sum *= x;
  r.count = m.i + p.tag + (int)o.id;
  return r;
}

__global__ void by_value(Mixed m, Vec4Pack p, Outer o, const float* x, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Result r = combine(m, p, o, x[i]);
  out[i] = r.sum + r.count;
}

__global__ void table(const Coeffs coeffs, const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int k = 0; k < 8; ++k) acc += coeffs.c[(i + k * 31) & 255] * x[i];
  out[i] = acc;
}

// Address of a parameter taken: needs __grid_constant__ (sm_70+) to stay in param space.
__global__ void grid_const(const __grid_constant__ Coeffs coeffs, const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* row = &coeffs.c[(i * 7) & 127];
  out[i] = row[0] + row[64] * x[i] + row[128];
}

template <typename F>
__global__ void apply(F f, const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(x[i]);
}

static Mixed make_mixed() {
  Mixed m;
  m.c = 'x'; m.d = 1.25; m.s = -7; m.i = 123456; m.f = 3.5f;
  m.tail[0] = 1; m.tail[1] = 2; m.tail[2] = 250;
  return m;
}

int main() {
  const int n = 8192;
  std::vector<float> x(n);
  srand(8);
  for (int i = 0; i < n; ++i) x[i] = (float)(rand() % 1000) / 64.0f;
  Mixed m = make_mixed();
  Vec4Pack p;
  p.v = make_float4(1.f, 2.f, 3.f, 4.f);
  p.w = make_double2(0.5, -0.25);
  p.tag = 9;
  Outer o;
  for (int k = 0; k < 2; ++k) {
    o.in[k].a[0] = k + 1; o.in[k].a[1] = 10 * k; o.in[k].a[2] = -3; o.in[k].b = 0.75f * k;
  }
  o.id = 1LL << 33;
  o.m = m;
  o.m.d = -2.5;
  Coeffs c;
  for (int k = 0; k < 256; ++k) c.c[k] = (float)((k * 37) % 17) * 0.125f;
  Affine aff{1.5f, -2.0f};
  float k2 = 0.25f;
  int k3 = 5;
  Captured lambda{k2, k3};

  float *dx, *dt, *dg, *da, *dl;
  double* dv;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dv, n * sizeof(double)));
  CHECK(cudaMalloc(&dt, n * sizeof(float)));
  CHECK(cudaMalloc(&dg, n * sizeof(float)));
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&dl, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  by_value<<<n / 256, 256>>>(m, p, o, dx, dv, n);
  table<<<n / 256, 256>>>(c, dx, dt, n);
  grid_const<<<n / 256, 256>>>(c, dx, dg, n);
  apply<<<n / 256, 256>>>(aff, dx, da, n);
  apply<<<n / 256, 256>>>(lambda, dx, dl, n);
  CHECK(cudaGetLastError());
  std::vector<double> v(n);
  std::vector<float> t(n), g(n), a(n), l(n);
  CHECK(cudaMemcpy(v.data(), dv, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(t.data(), dt, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g.data(), dg, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(a.data(), da, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(l.data(), dl, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  double cs = 0;
  for (int i = 0; i < n; ++i) {
    Result r = combine(m, p, o, x[i]);
    if (v[i] != r.sum + r.count) ++bad;
    float acc = 0.f;
    for (int k = 0; k < 8; ++k) acc += c.c[(i + k * 31) & 255] * x[i];
    // Device may contract multiply-add into fma: allow one rounding of slack.
    if (std::abs(t[i] - acc) > 1e-5f * (1.0f + std::abs(acc))) ++bad;
    const float* row = &c.c[(i * 7) & 127];
    float gr = row[0] + row[64] * x[i] + row[128];
    if (std::abs(g[i] - gr) > 1e-5f * (1.0f + std::abs(gr))) ++bad;
    float ar = x[i] * 1.5f - 2.0f;
    if (std::abs(a[i] - ar) > 1e-5f * (1.0f + std::abs(ar))) ++bad;
    if (l[i] != x[i] * k2 + (float)k3) ++bad;  // exact: x is a multiple of 1/64
    cs += v[i] + t[i] + g[i] + a[i] + l[i];
  }
  printf("struct_params: n=%d sizeof(Mixed)=%zu sizeof(Vec4Pack)=%zu sizeof(Outer)=%zu checksum=%.4f mismatches=%d %s\n", n,
         sizeof(Mixed), sizeof(Vec4Pack), sizeof(Outer), cs, bad, bad ? "FAIL" : "PASS");
  cudaFree(dx); cudaFree(dv); cudaFree(dt); cudaFree(dg); cudaFree(da); cudaFree(dl);
  return bad ? 1 : 0;
}
