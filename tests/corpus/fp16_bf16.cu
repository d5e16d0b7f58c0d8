// Half and bfloat16 arithmetic through cuda_fp16.h / cuda_bf16.h: scalar and packed (half2,
// nv_bfloat162) add/mul/fma, hmax/hmin, comparisons, conversions with every rounding mode
// (__float2half_rn/_rz/_rd/_ru), __hfma2_relu, h2exp/hsqrt, and a half2 dot product reduced with
// shuffles (bf16 fma falls back to float fma before sm_80). Each result is compared bit-exactly with a CPU emulation of the same rounding where the
// operation is exact-rounded, and with a tolerance for the approximate functions.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

struct Out {
  __half hsum, hprod, hfma, hmax, hmin;
  __half rn, rz, rd, ru;
  __half2 h2fma, h2relu;
  __nv_bfloat16 bsum, bprod, bfma, bmax;
  __nv_bfloat162 b2fma;
  float back_h, back_b, hexp, hsqrt, bexp;
  int cmp_mask;
  float dot;
};

__global__ void half_kernel(const float* a, const float* b, const float* c, Out* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half ha = __float2half(a[i]), hb = __float2half(b[i]), hc = __float2half(c[i]);
  Out o;
  o.hsum = __hadd(ha, hb);
  o.hprod = __hmul(ha, hb);
  o.hfma = __hfma(ha, hb, hc);
  o.hmax = __hmax(ha, hb);
  o.hmin = __hmin(ha, hb);
  float x = a[i] * 1.001f;
  o.rn = __float2half_rn(x);
  o.rz = __float2half_rz(x);
  o.rd = __float2half_rd(x);
  o.ru = __float2half_ru(x);
  __half2 h2a = __halves2half2(ha, hb), h2b = __halves2half2(hb, hc), h2c = __halves2half2(hc, ha);
  o.h2fma = __hfma2(h2a, h2b, h2c);
  o.h2relu = __hfma2_relu(h2a, h2b, h2c);
  __nv_bfloat16 ba = __float2bfloat16(a[i]), bb = __float2bfloat16(b[i]), bc = __float2bfloat16(c[i]);
  o.bsum = __hadd(ba, bb);
  o.bprod = __hmul(ba, bb);
#if __CUDA_ARCH__ >= 800
  o.bfma = __hfma(ba, bb, bc);
#else
  // No bf16 fma before sm_80: the float fma is exact for these inputs, so one rounding remains.
  o.bfma = __float2bfloat16_rn(fmaf(__bfloat162float(ba), __bfloat162float(bb), __bfloat162float(bc)));
#endif
  o.bmax = __hmax(ba, bb);
#if __CUDA_ARCH__ >= 800
  o.b2fma = __hfma2(__halves2bfloat162(ba, bb), __halves2bfloat162(bb, bc), __halves2bfloat162(bc, ba));
#else
  o.b2fma = __floats2bfloat162_rn(fmaf(__bfloat162float(ba), __bfloat162float(bb), __bfloat162float(bc)),
                                  fmaf(__bfloat162float(bb), __bfloat162float(bc), __bfloat162float(ba)));
#endif
  o.back_h = __half2float(ha);
  o.back_b = __bfloat162float(ba);
  o.hexp = __half2float(hexp(__float2half(a[i] * 0.0625f)));
  o.hsqrt = __half2float(hsqrt(__habs(ha)));
  o.bexp = __bfloat162float(hexp(__float2bfloat16(a[i] * 0.0625f)));
  o.cmp_mask = (__hlt(ha, hb) ? 1 : 0) | (__hge(ha, hc) ? 2 : 0) | (__heq(ha, ha) ? 4 : 0) | (__hisnan(ha) ? 8 : 0) |
               (__hbgt2(h2a, h2b) ? 16 : 0);
  // Warp dot product of half2 pairs accumulated in float.
  float2 prod = __half22float2(__hmul2(h2a, h2b));
  float d = prod.x + prod.y;
  for (int off = 16; off > 0; off >>= 1) d += __shfl_xor_sync(0xffffffffu, d, off);
  o.dot = d;
  out[i] = o;
}

// CPU reference helpers: float -> half / bfloat16 with explicit rounding, via the host-side
// conversion functions of the same headers (they are exact IEEE conversions on the host).
static float hf(__half h) { return __half2float(h); }
static float bf(__nv_bfloat16 h) { return __bfloat162float(h); }
static __half h_rn(float f) { return __float2half_rn(f); }
static __nv_bfloat16 b_rn(float f) { return __float2bfloat16_rn(f); }

int main() {
  const int n = 4096;
  std::vector<float> a(n), b(n), c(n);
  srand(16);
  for (int i = 0; i < n; ++i) {
    // Multiples of 1/16 below 128 in magnitude: exact in half, and every half/bf16 product plus
    // addend is exact in float, so device fma (one rounding) and the CPU reference agree bit-exactly.
    a[i] = (float)(rand() % 4001 - 2000) / 16.0f;
    b[i] = (float)(rand() % 4001 - 2000) / 16.0f;
    c[i] = (float)(rand() % 4001 - 2000) / 16.0f;
  }
  float *da, *db, *dc;
  Out* dout;
  CHECK(cudaMalloc(&da, n * sizeof(float)));
  CHECK(cudaMalloc(&db, n * sizeof(float)));
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  half_kernel<<<n / 128, 128>>>(da, db, dc, dout, n);
  CHECK(cudaGetLastError());
  std::vector<Out> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  int bad = 0;
  double cs = 0;
  auto expect = [&](bool ok, const char* what, int i) {
    if (!ok) { if (bad < 10) printf("mismatch %s at %d\n", what, i); ++bad; }
  };
  for (int i = 0; i < n; ++i) {
    float ha = hf(h_rn(a[i])), hb = hf(h_rn(b[i])), hc = hf(h_rn(c[i]));
    // A product or sum of two halves is exact in float (22-bit significand), so rounding the float
    // result to half once gives the correctly rounded half result; fma is exact in double.
    expect(hf(o[i].hsum) == hf(h_rn(ha + hb)), "hadd", i);
    expect(hf(o[i].hprod) == hf(h_rn(ha * hb)), "hmul", i);
    expect(hf(o[i].hfma) == hf(h_rn((float)((double)ha * hb + hc))), "hfma", i);
    expect(hf(o[i].hmax) == fmaxf(ha, hb) && hf(o[i].hmin) == fminf(ha, hb), "hmax/hmin", i);
    float x = a[i] * 1.001f;  // not representable in half: exercises the rounding modes
    float rn = hf(o[i].rn), rz = hf(o[i].rz), rd = hf(o[i].rd), ru = hf(o[i].ru);
    expect(rn == hf(h_rn(x)), "rn", i);
    expect(rd <= x && ru >= x && rd <= rn && rn <= ru && std::fabs(rz) <= std::fabs(x), "directed rounding", i);
    expect(rz == (x >= 0 ? rd : ru), "rz", i);
    float2 f2 = __half22float2(o[i].h2fma);
    expect(f2.x == hf(h_rn((float)((double)ha * hb + hc))) && f2.y == hf(h_rn((float)((double)hb * hc + ha))), "hfma2", i);
    float2 r2 = __half22float2(o[i].h2relu);
    expect(r2.x == fmaxf(f2.x, 0.f) && r2.y == fmaxf(f2.y, 0.f), "hfma2_relu", i);
    float ba = bf(b_rn(a[i])), bb = bf(b_rn(b[i])), bc = bf(b_rn(c[i]));
    expect(bf(o[i].bsum) == bf(b_rn(ba + bb)), "bf16 add", i);
    expect(bf(o[i].bprod) == bf(b_rn(ba * bb)), "bf16 mul", i);
    expect(bf(o[i].bfma) == bf(b_rn((float)((double)ba * bb + bc))), "bf16 fma", i);
    expect(bf(o[i].bmax) == fmaxf(ba, bb), "bf16 max", i);
    float2 b2 = __bfloat1622float2(o[i].b2fma);
    expect(b2.x == bf(b_rn((float)((double)ba * bb + bc))) && b2.y == bf(b_rn((float)((double)bb * bc + ba))), "bf16 fma2", i);
    expect(o[i].back_h == ha && o[i].back_b == ba, "conversion back", i);
    float ea = std::exp(hf(h_rn(a[i] * 0.0625f)));
    expect(std::fabs(o[i].hexp - ea) <= 2e-3f * ea + 1e-4f, "hexp", i);
    float sa = std::sqrt(std::fabs(ha));
    expect(std::fabs(o[i].hsqrt - sa) <= 2e-3f * sa, "hsqrt", i);
    float eb = std::exp(bf(b_rn(a[i] * 0.0625f)));
    expect(std::fabs(o[i].bexp - eb) <= 1.6e-2f * eb + 1e-3f, "bf16 exp", i);
    int m = (ha < hb ? 1 : 0) | (ha >= hc ? 2 : 0) | 4 | ((ha > hb && hb > hc) ? 16 : 0);
    expect(o[i].cmp_mask == m, "compare", i);
    cs += hf(o[i].hfma) + bf(o[i].bfma);
  }
  for (int w = 0; w < n / 32; ++w) {
    double d = 0;
    for (int l = 0; l < 32; ++l) {
      int i = w * 32 + l;
      float ha = hf(h_rn(a[i])), hb = hf(h_rn(b[i])), hc = hf(h_rn(c[i]));
      d += hf(h_rn(ha * hb)) + hf(h_rn(hb * hc));
    }
    for (int l = 0; l < 32; ++l) expect(std::fabs(o[w * 32 + l].dot - d) <= 1e-3 * (std::fabs(d) + 1), "dot", w * 32 + l);
  }
  printf("fp16_bf16: n=%d checksum=%.4f mismatches=%d %s\n", n, cs, bad, bad ? "FAIL" : "PASS");
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dout);
  return bad ? 1 : 0;
}
