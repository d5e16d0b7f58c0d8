// Tensor-core numerics and wmma fragment layouts (issue 15 item 3), the record that makes the
// software path bit-exact: for every mma.sync / wmma shape and type of sm_80/90, 64 trials of
// inputs that expose the accumulation order and rounding (wide exponent ranges, cancellation,
// a large accumulator with tiny products, ties, subnormals, inf/nan, f16 overflow, tf32 inputs with
// nonzero low mantissa bits; f64 m8n8k4), one warp each. Prints per configuration an FNV-1a hash of all result
// bits, and checks every finite result against a double-precision reference within a loose bound.
// The wmma part dumps which (row, col) element each lane holds in each x[i] of every fragment
// kind (an index matrix loaded in two 6-bit halves, so the values are exact in every type) and
// prints a hash per kind. With a file argument it also writes the inputs and outputs, binary.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;
// On sm_75 (the corpus's oldest variant) mma.h has no tf32/bf16 fragments; the kernel bodies that
// use them are compiled for sm_80+ only, and the tf32 tag is a placeholder there.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
struct tf32_t {};
#else
using tf32_t = wmma::precision::tf32;
#endif

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

enum InT { IN_F16, IN_BF16, IN_TF32 };
enum Cfg {
  MMA_F16_K16_F32, MMA_F16_K8_F32, MMA_F16_K16_F16, MMA_F16_K8_F16, MMA_BF16_K16_F32, MMA_BF16_K8_F32,
  MMA_TF32_K8_F32, MMA_TF32_K4_F32,
  WMMA_F16_16_F32, WMMA_F16_16_F16, WMMA_BF16_16_F32, WMMA_TF32_16_F32, WMMA_F16_32x8_F32, WMMA_F16_8x32_F32,
  NCFG
};
struct CfgInfo { const char* name; int M, N, K; InT in; bool f16acc; };
static const CfgInfo kCfg[NCFG] = {
  {"mma.m16n8k16.f32.f16", 16, 8, 16, IN_F16, false},  {"mma.m16n8k8.f32.f16", 16, 8, 8, IN_F16, false},
  {"mma.m16n8k16.f16.f16", 16, 8, 16, IN_F16, true},   {"mma.m16n8k8.f16.f16", 16, 8, 8, IN_F16, true},
  {"mma.m16n8k16.f32.bf16", 16, 8, 16, IN_BF16, false}, {"mma.m16n8k8.f32.bf16", 16, 8, 8, IN_BF16, false},
  {"mma.m16n8k8.f32.tf32", 16, 8, 8, IN_TF32, false},  {"mma.m16n8k4.f32.tf32", 16, 8, 4, IN_TF32, false},
  {"wmma.m16n16k16.f32.f16", 16, 16, 16, IN_F16, false}, {"wmma.m16n16k16.f16.f16", 16, 16, 16, IN_F16, true},
  {"wmma.m16n16k16.f32.bf16", 16, 16, 16, IN_BF16, false}, {"wmma.m16n16k8.f32.tf32", 16, 16, 8, IN_TF32, false},
  {"wmma.m32n8k16.f32.f16", 32, 8, 16, IN_F16, false},  {"wmma.m8n32k16.f32.f16", 8, 32, 16, IN_F16, false},
};
constexpr int TRIALS = 64;

// ---- mma.sync: fragments gathered from row-major A (MxK), B (KxN, read as col), C/D (MxN) by the
// PTX ISA tables; inputs are 16-bit patterns (f16/bf16) or 32-bit (tf32), accumulators f32 or f16.
__device__ __forceinline__ unsigned h2(const uint16_t* p, int i0, int i1) { return (unsigned)p[i0] | (unsigned)p[i1] << 16; }

template <int C>
__global__ void mma_probe(const uint16_t* A16, const uint16_t* B16, const uint32_t* A32, const uint32_t* B32,
                          const uint32_t* Cin, uint32_t* Dout) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 // bf16/tf32 wmma and m16n8k16 mma are sm_80+
  constexpr int M = 16, N = 8;
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  int tr = blockIdx.x;
  constexpr int K = C == MMA_F16_K16_F32 || C == MMA_F16_K16_F16 || C == MMA_BF16_K16_F32 ? 16 : C == MMA_TF32_K4_F32 ? 4 : 8;
  const uint16_t* a = A16 + tr * M * K; const uint16_t* b = B16 + tr * K * N;
  const uint32_t* af = A32 + tr * M * K; const uint32_t* bf = B32 + tr * K * N;
  const uint32_t* c = Cin + tr * M * N; uint32_t* d = Dout + tr * M * N;
  auto A = [&](int r, int k) { return r * K + k; };
  auto B = [&](int k, int n) { return k * N + n; };
  int r0 = g, r1 = g + 8, c0 = t * 2, c1 = t * 2 + 1;
  if constexpr (C == MMA_F16_K16_F16 || C == MMA_F16_K8_F16) {
    unsigned d0 = (c[r0 * N + c0] & 0xffff) | c[r0 * N + c1] << 16, d1 = (c[r1 * N + c0] & 0xffff) | c[r1 * N + c1] << 16;
    if constexpr (C == MMA_F16_K16_F16) {
      unsigned a0 = h2(a, A(r0, c0), A(r0, c1)), a1 = h2(a, A(r1, c0), A(r1, c1)), a2 = h2(a, A(r0, c0 + 8), A(r0, c1 + 8)),
               a3 = h2(a, A(r1, c0 + 8), A(r1, c1 + 8));
      unsigned b0 = h2(b, B(c0, g), B(c1, g)), b1 = h2(b, B(c0 + 8, g), B(c1 + 8, g));
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                   : "+r"(d0), "+r"(d1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else {
      unsigned a0 = h2(a, A(r0, c0), A(r0, c1)), a1 = h2(a, A(r1, c0), A(r1, c1));
      unsigned b0 = h2(b, B(c0, g), B(c1, g));
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};"
                   : "+r"(d0), "+r"(d1) : "r"(a0), "r"(a1), "r"(b0));
    }
    d[r0 * N + c0] = d0 & 0xffff; d[r0 * N + c1] = d0 >> 16; d[r1 * N + c0] = d1 & 0xffff; d[r1 * N + c1] = d1 >> 16;
  } else {
    float x0 = __uint_as_float(c[r0 * N + c0]), x1 = __uint_as_float(c[r0 * N + c1]), x2 = __uint_as_float(c[r1 * N + c0]),
          x3 = __uint_as_float(c[r1 * N + c1]);
    if constexpr (C == MMA_F16_K16_F32 || C == MMA_BF16_K16_F32) {
      unsigned a0 = h2(a, A(r0, c0), A(r0, c1)), a1 = h2(a, A(r1, c0), A(r1, c1)), a2 = h2(a, A(r0, c0 + 8), A(r0, c1 + 8)),
               a3 = h2(a, A(r1, c0 + 8), A(r1, c1 + 8));
      unsigned b0 = h2(b, B(c0, g), B(c1, g)), b1 = h2(b, B(c0 + 8, g), B(c1 + 8, g));
      if constexpr (C == MMA_F16_K16_F32)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else if constexpr (C == MMA_F16_K8_F32 || C == MMA_BF16_K8_F32) {
      unsigned a0 = h2(a, A(r0, c0), A(r0, c1)), a1 = h2(a, A(r1, c0), A(r1, c1));
      unsigned b0 = h2(b, B(c0, g), B(c1, g));
      if constexpr (C == MMA_F16_K8_F32)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "r"(a0), "r"(a1), "r"(b0));
      else
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "r"(a0), "r"(a1), "r"(b0));
    } else if constexpr (C == MMA_TF32_K8_F32) {
      unsigned a0 = af[A(r0, t)], a1 = af[A(r1, t)], a2 = af[A(r0, t + 4)], a3 = af[A(r1, t + 4)];
      unsigned b0 = bf[B(t, g)], b1 = bf[B(t + 4, g)];
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else {
      unsigned a0 = af[A(r0, t)], a1 = af[A(r1, t)];
      unsigned b0 = bf[B(t, g)];
      asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                   : "+f"(x0), "+f"(x1), "+f"(x2), "+f"(x3) : "r"(a0), "r"(a1), "r"(b0));
    }
    d[r0 * N + c0] = __float_as_uint(x0); d[r0 * N + c1] = __float_as_uint(x1);
    d[r1 * N + c0] = __float_as_uint(x2); d[r1 * N + c1] = __float_as_uint(x3);
  }
#endif
}

// ---- mma.sync m8n8k4 f64 (sm_80 DMMA): A 8x4, B 4x8, C/D 8x8 row-major doubles; ISA tables:
// A: row groupID, col threadID_in_group; B: row threadID_in_group, col groupID; C/D: row groupID,
// cols 2*threadID_in_group + {0, 1}.
__global__ void mma_f64_probe(const double* A, const double* B, const double* C, double* D) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3, tr = blockIdx.x;
  const double *a = A + tr * 32, *b = B + tr * 32, *c = C + tr * 64;
  double* d = D + tr * 64;
  double a0 = a[g * 4 + t], b0 = b[t * 8 + g], d0 = c[g * 8 + 2 * t], d1 = c[g * 8 + 2 * t + 1];
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(d0), "+d"(d1) : "d"(a0), "d"(b0));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
#endif
}

// ---- wmma: A row-major, B col-major (stored N x K), C/D row-major.
template <int M, int N, int K, typename FI, typename MemT, typename Acc>
__global__ void wmma_probe(const MemT* A, const MemT* Bt, const Acc* Cin, Acc* D) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 // bf16/tf32 wmma and m16n8k16 mma are sm_80+
  int tr = blockIdx.x;
  wmma::fragment<wmma::matrix_a, M, N, K, FI, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, FI, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::load_matrix_sync(fa, A + tr * M * K, K);
  wmma::load_matrix_sync(fb, Bt + tr * K * N, K);
  wmma::load_matrix_sync(fc, Cin + tr * M * N, N, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(D + tr * M * N, fc, N, wmma::mem_row_major);
#endif
}

// ---- wmma fragment layouts: x[i] of lane l holds the element whose row-major index is out[l][i].
template <typename Frag, typename MemT, typename LoadFn>
__device__ void dump_frag(const MemT* lo, const MemT* hi, int* out, LoadFn load) {
  Frag f0, f1;
  load(f0, lo);
  load(f1, hi);
  int lane = threadIdx.x;
  if (lane == 0) out[1023] = f0.num_elements;
  for (int i = 0; i < f0.num_elements; i++)
    out[lane * f0.num_elements + i] = (int)(float)f0.x[i] + 64 * (int)(float)f1.x[i];
}

struct LayoutKind { const char* name; int elems; };
// index matrices: lo = idx & 63, hi = idx >> 6 for a (rows x cols) matrix in the given storage order
template <int M, int N, int K, typename FI, typename MemT, typename Acc>
__global__ void wmma_layouts(const MemT* ia_lo, const MemT* ia_hi, const Acc* ic_lo, const Acc* ic_hi, int* out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 // bf16/tf32 wmma and m16n8k16 mma are sm_80+
  // A row-major (ld K), A col-major (ld M), B row-major (ld N), B col-major (ld K), C row/col-major
  using FaR = wmma::fragment<wmma::matrix_a, M, N, K, FI, wmma::row_major>;
  using FaC = wmma::fragment<wmma::matrix_a, M, N, K, FI, wmma::col_major>;
  using FbR = wmma::fragment<wmma::matrix_b, M, N, K, FI, wmma::row_major>;
  using FbC = wmma::fragment<wmma::matrix_b, M, N, K, FI, wmma::col_major>;
  using Fc = wmma::fragment<wmma::accumulator, M, N, K, Acc>;
  // the index matrices are stored so that element (r, c) of the logical matrix has index r*cols+c
  // whatever the storage order: ia_* hold A (M x K) row-major at 0, A col-major at 1024,
  // B (K x N) row-major at 2048, B col-major at 3072
  dump_frag<FaR>(ia_lo, ia_hi, out + 0 * 1024, [](FaR& f, const MemT* p) { wmma::load_matrix_sync(f, p, K); });
  dump_frag<FaC>(ia_lo + 1024, ia_hi + 1024, out + 1 * 1024, [](FaC& f, const MemT* p) { wmma::load_matrix_sync(f, p, M); });
  dump_frag<FbR>(ia_lo + 2048, ia_hi + 2048, out + 2 * 1024, [](FbR& f, const MemT* p) { wmma::load_matrix_sync(f, p, N); });
  dump_frag<FbC>(ia_lo + 3072, ia_hi + 3072, out + 3 * 1024, [](FbC& f, const MemT* p) { wmma::load_matrix_sync(f, p, K); });
  dump_frag<Fc>(ic_lo, ic_hi, out + 4 * 1024, [](Fc& f, const Acc* p) { wmma::load_matrix_sync(f, p, N, wmma::mem_row_major); });
  dump_frag<Fc>(ic_lo + 1024, ic_hi + 1024, out + 5 * 1024, [](Fc& f, const Acc* p) { wmma::load_matrix_sync(f, p, M, wmma::mem_col_major); });
#endif
}

// ---- host side
static uint32_t g_rng = 0x9e3779b9u;
static uint32_t rnd32() { g_rng ^= g_rng << 13; g_rng ^= g_rng >> 17; g_rng ^= g_rng << 5; return g_rng; }
static double urand() { return (rnd32() >> 8) * (1.0 / 16777216.0); }
static float f32of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bitsof(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

// random value: sign, significand with `mbits` random bits, exponent in [elo, ehi]
static float rval(int elo, int ehi) {
  float m = 1.0f + (float)urand();
  int e = elo + (int)(rnd32() % (uint32_t)(ehi - elo + 1));
  float v = ldexpf(m, e);
  return (rnd32() & 1) ? -v : v;
}

static uint16_t toIn16(float v, InT in) {
  if (in == IN_F16) { __half h = __float2half_rn(v); uint16_t u; memcpy(&u, &h, 2); return u; }
  __nv_bfloat16 h = __float2bfloat16_rn(v); uint16_t u; memcpy(&u, &h, 2); return u;
}
static float fromIn16(uint16_t u, InT in) {
  if (in == IN_F16) { __half h; memcpy(&h, &u, 2); return __half2float(h); }
  __nv_bfloat16 h; memcpy(&h, &u, 2); return __bfloat162float(h);
}
static uint16_t f16bits(float v) { __half h = __float2half_rn(v); uint16_t u; memcpy(&u, &h, 2); return u; }
static float f16val(uint16_t u) { __half h; memcpy(&h, &u, 2); return __half2float(h); }

// Fill one trial's inputs (as floats; converted to the input type by the caller) for scheme s.
static void gen(int s, int M, int N, int K, InT in, bool f16acc, std::vector<float>& a, std::vector<float>& b, std::vector<float>& c) {
  int emax = in == IN_F16 ? 7 : 20; // keep f16 products and sums in range unless the scheme wants overflow
  for (int i = 0; i < M * K; i++) a[i] = 0;
  for (int i = 0; i < K * N; i++) b[i] = 0;
  for (int i = 0; i < M * N; i++) c[i] = 0;
  switch (s) {
  case 0: // uniform in [-1, 1]
    for (auto& v : a) v = (float)(2 * urand() - 1);
    for (auto& v : b) v = (float)(2 * urand() - 1);
    for (auto& v : c) v = (float)(2 * urand() - 1);
    break;
  case 1: // wide exponent ranges
    for (auto& v : a) v = rval(-emax, emax / 2);
    for (auto& v : b) v = rval(-emax, emax / 2);
    for (auto& v : c) v = rval(-2 * emax, emax);
    break;
  case 2: // two large products that cancel, small rest
    for (auto& v : a) v = rval(-8, -2);
    for (auto& v : b) v = rval(-8, -2);
    for (int r = 0; r < M; r++) {
      int k0 = rnd32() % K, k1 = (k0 + 1 + rnd32() % (K - 1)) % K;
      float big = ldexpf(1.0f + (float)(rnd32() % 1024) / 1024.0f, 3 + rnd32() % 4);
      a[r * K + k0] = big; a[r * K + k1] = -big;
      for (int n = 0; n < N; n++) { b[k0 * N + n] = b[k1 * N + n] = ldexpf(1.0f, rnd32() % 3); }
    }
    for (auto& v : c) v = (rnd32() & 3) ? 0.0f : rval(-12, -4);
    break;
  case 3: // large accumulator, tiny products (alignment / truncation of shifted-out bits)
    for (auto& v : a) v = rval(-9, -6);
    for (auto& v : b) v = rval(-9, -6);
    for (auto& v : c) v = f16acc ? rval(6, 10) : rval(8, 14);
    break;
  case 4: // all products equal and tiny against C = +-1: exposes the number of extra bits
    {
      float p = ldexpf(1.0f, -(int)(10 + rnd32() % 16));
      float q = ldexpf(1.5f, -(int)(rnd32() % 3));
      for (auto& v : a) v = (rnd32() & 7) ? p : -p;
      for (auto& v : b) v = q;
      for (auto& v : c) v = (rnd32() & 1) ? 1.0f : -1.0f;
    }
    break;
  case 5: // C nearly cancels the sum
    for (auto& v : a) v = rval(-3, 1);
    for (auto& v : b) v = rval(-3, 1);
    for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
        double s = 0;
        for (int k = 0; k < K; k++) s += (double)a[r * K + k] * b[k * N + n];
        c[r * N + n] = (float)(-s * (1.0 + ldexp((double)(int)(rnd32() % 64) - 32, -20)));
      }
    break;
  case 6: // special values: subnormal inputs, inf, nan, f16 overflow of the sum
    for (auto& v : a) v = rval(-3, 1);
    for (auto& v : b) v = rval(-3, 1);
    for (auto& v : c) v = rval(-3, 1);
    for (int r = 0; r < M; r++) {
      int k = rnd32() % K, n = rnd32() % N;
      switch (r % 8) {
      case 0: a[r * K + k] = INFINITY; break;
      case 1: a[r * K + k] = NAN; break;
      case 2: c[r * N + n] = -INFINITY; break;
      case 3: for (int kk = 0; kk < K; kk++) a[r * K + kk] = in == IN_F16 ? ldexpf(1.0f, -20) : ldexpf(1.0f, -130); break;
      case 4: for (int kk = 0; kk < K; kk++) { a[r * K + kk] = 200.0f; } for (int kk = 0; kk < K; kk++) b[kk * N + n] = 100.0f; break;
      case 5: a[r * K + k] = INFINITY; a[r * K + (k + 1) % K] = -INFINITY; break;
      case 6: c[r * N + n] = NAN; break;
      default: c[r * N + n] = in == IN_F16 && f16acc ? 65504.0f : 3.0e38f; a[r * K + k] = 2.0f; b[k * N + n] = 2.0f; break;
      }
    }
    break;
  default: // full random significands, moderate exponents (tf32: low 13 bits left nonzero)
    for (auto& v : a) v = rval(-3, 3);
    for (auto& v : b) v = rval(-3, 3);
    for (auto& v : c) v = rval(-3, 5);
    break;
  }
}

static uint32_t fnv(uint32_t h, uint32_t v) { for (int i = 0; i < 4; i++) { h = (h ^ (v & 0xff)) * 16777619u; v >>= 8; } return h; }
static int g_fail = 0;
static FILE* g_dump = nullptr;

static void run_cfg(int ci) {
  const CfgInfo& cf = kCfg[ci];
  int M = cf.M, N = cf.N, K = cf.K;
  size_t na = (size_t)TRIALS * M * K, nb = (size_t)TRIALS * K * N, nc = (size_t)TRIALS * M * N;
  std::vector<uint16_t> a16(na), b16(nb), bt16(nb);
  std::vector<uint32_t> a32(na), b32(nb), bt32(nb), c32(nc), d32(nc);
  std::vector<float> ta(M * K), tb(K * N), tc(M * N);
  std::vector<double> aval(na), bval(nb), cval(nc);
  for (int tr = 0; tr < TRIALS; tr++) {
    gen(tr % 8, M, N, K, cf.in, cf.f16acc, ta, tb, tc);
    for (int i = 0; i < M * K; i++) {
      size_t j = (size_t)tr * M * K + i;
      if (cf.in == IN_TF32) { a32[j] = bitsof(ta[i]); aval[j] = f32of(a32[j] & 0xffffe000u); }
      else { a16[j] = toIn16(ta[i], cf.in); aval[j] = fromIn16(a16[j], cf.in); }
    }
    for (int k = 0; k < K; k++)
      for (int n = 0; n < N; n++) {
        size_t j = (size_t)tr * K * N + k * N + n, jt = (size_t)tr * K * N + n * K + k;
        if (cf.in == IN_TF32) { b32[j] = bt32[jt] = bitsof(tb[k * N + n]); bval[j] = f32of(b32[j] & 0xffffe000u); }
        else { b16[j] = bt16[jt] = toIn16(tb[k * N + n], cf.in); bval[j] = fromIn16(b16[j], cf.in); }
      }
    for (int i = 0; i < M * N; i++) {
      size_t j = (size_t)tr * M * N + i;
      if (cf.f16acc) { c32[j] = f16bits(tc[i]); cval[j] = f16val((uint16_t)c32[j]); }
      else { c32[j] = bitsof(tc[i]); cval[j] = tc[i]; }
    }
  }
  uint16_t *da16, *db16; uint32_t *da32, *db32, *dc, *dd;
  CHECK(cudaMalloc(&da16, na * 2)); CHECK(cudaMalloc(&db16, nb * 2));
  CHECK(cudaMalloc(&da32, na * 4)); CHECK(cudaMalloc(&db32, nb * 4));
  CHECK(cudaMalloc(&dc, nc * 4)); CHECK(cudaMalloc(&dd, nc * 4));
  bool isw = ci >= WMMA_F16_16_F32;
  CHECK(cudaMemcpy(da16, a16.data(), na * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db16, (isw ? bt16 : b16).data(), nb * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(da32, a32.data(), na * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db32, (isw ? bt32 : b32).data(), nb * 4, cudaMemcpyHostToDevice));
  if (cf.f16acc && isw) { // wmma f16 accumulators are __half in memory
    std::vector<uint16_t> c16(nc);
    for (size_t i = 0; i < nc; i++) c16[i] = (uint16_t)c32[i];
    CHECK(cudaMemcpy(dc, c16.data(), nc * 2, cudaMemcpyHostToDevice));
  } else CHECK(cudaMemcpy(dc, c32.data(), nc * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dd, 0, nc * 4));
  switch (ci) {
  case MMA_F16_K16_F32: mma_probe<MMA_F16_K16_F32><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case MMA_F16_K8_F32: mma_probe<MMA_F16_K8_F32><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case MMA_F16_K16_F16: mma_probe<MMA_F16_K16_F16><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case MMA_F16_K8_F16: mma_probe<MMA_F16_K8_F16><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case MMA_BF16_K16_F32: mma_probe<MMA_BF16_K16_F32><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case MMA_BF16_K8_F32: mma_probe<MMA_BF16_K8_F32><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case MMA_TF32_K8_F32: mma_probe<MMA_TF32_K8_F32><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case MMA_TF32_K4_F32: mma_probe<MMA_TF32_K4_F32><<<TRIALS, 32>>>(da16, db16, da32, db32, dc, dd); break;
  case WMMA_F16_16_F32: wmma_probe<16, 16, 16, __half, __half, float><<<TRIALS, 32>>>((__half*)da16, (__half*)db16, (float*)dc, (float*)dd); break;
  case WMMA_F16_16_F16: wmma_probe<16, 16, 16, __half, __half, __half><<<TRIALS, 32>>>((__half*)da16, (__half*)db16, (__half*)dc, (__half*)dd); break;
  case WMMA_BF16_16_F32: wmma_probe<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float><<<TRIALS, 32>>>((__nv_bfloat16*)da16, (__nv_bfloat16*)db16, (float*)dc, (float*)dd); break;
  case WMMA_TF32_16_F32: wmma_probe<16, 16, 8, tf32_t, float, float><<<TRIALS, 32>>>((float*)da32, (float*)db32, (float*)dc, (float*)dd); break;
  case WMMA_F16_32x8_F32: wmma_probe<32, 8, 16, __half, __half, float><<<TRIALS, 32>>>((__half*)da16, (__half*)db16, (float*)dc, (float*)dd); break;
  case WMMA_F16_8x32_F32: wmma_probe<8, 32, 16, __half, __half, float><<<TRIALS, 32>>>((__half*)da16, (__half*)db16, (float*)dc, (float*)dd); break;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  if (cf.f16acc && isw) {
    std::vector<uint16_t> d16(nc);
    CHECK(cudaMemcpy(d16.data(), dd, nc * 2, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < nc; i++) d32[i] = d16[i];
  } else CHECK(cudaMemcpy(d32.data(), dd, nc * 4, cudaMemcpyDeviceToHost));
  uint32_t h = 2166136261u;
  int bad = 0, checked = 0;
  for (int tr = 0; tr < TRIALS; tr++)
    for (int r = 0; r < M; r++)
      for (int n = 0; n < N; n++) {
        size_t j = (size_t)tr * M * N + r * N + n;
        h = fnv(h, d32[j]);
        double s = cval[j], mag = fabs(cval[j]);
        for (int k = 0; k < K; k++) {
          double p = aval[(size_t)tr * M * K + r * K + k] * bval[(size_t)tr * K * N + k * N + n];
          s += p; mag += fabs(p);
        }
        double got = cf.f16acc ? f16val((uint16_t)d32[j]) : f32of(d32[j]);
        if (!std::isfinite(s) || !std::isfinite(mag) || (cf.f16acc && fabs(s) > 60000.0) || mag > 1e37) continue;
        checked++;
        double tol = mag * (cf.f16acc || cf.in == IN_TF32 ? 1.0 / 256 : 1.0 / 65536) + 1e-30;
        if (!(fabs(got - s) <= tol)) { if (bad < 3) fprintf(stderr, "%s trial %d D[%d][%d] = %.9g, want ~%.9g\n", cf.name, tr, r, n, got, s); bad++; }
      }
  printf("%-26s hash %08x checked %d %s\n", cf.name, h, checked, bad ? "FAIL" : "PASS");
  if (bad) g_fail = 1;
  if (g_dump) {
    uint32_t hdr[6] = {0x4d4d4150u, (uint32_t)ci, (uint32_t)M, (uint32_t)N, (uint32_t)K, TRIALS};
    fwrite(hdr, 4, 6, g_dump);
    // inputs as the bits the tensor core sees (16-bit patterns widened, or tf32 f32 patterns), row-major B
    for (size_t i = 0; i < na; i++) { uint32_t v = cf.in == IN_TF32 ? a32[i] : a16[i]; fwrite(&v, 4, 1, g_dump); }
    for (size_t i = 0; i < nb; i++) { uint32_t v = cf.in == IN_TF32 ? b32[i] : b16[i]; fwrite(&v, 4, 1, g_dump); }
    fwrite(c32.data(), 4, nc, g_dump);
    fwrite(d32.data(), 4, nc, g_dump);
  }
  cudaFree(da16); cudaFree(db16); cudaFree(da32); cudaFree(db32); cudaFree(dc); cudaFree(dd);
}

static double drand(int elo, int ehi) {
  double m = 1.0 + (double)(rnd32() >> 5) / 134217728.0 + (double)(rnd32() >> 6) / 9007199254740992.0;
  double v = ldexp(m, elo + (int)(rnd32() % (uint32_t)(ehi - elo + 1)));
  return (rnd32() & 1) ? -v : v;
}

static void run_f64() {
  std::vector<double> a(TRIALS * 32), b(TRIALS * 32), c(TRIALS * 64), d(TRIALS * 64);
  for (int tr = 0; tr < TRIALS; tr++) {
    int s = tr % 4;
    for (int i = 0; i < 32; i++) { a[tr * 32 + i] = drand(s == 1 ? -30 : -2, s == 1 ? 30 : 2); b[tr * 32 + i] = drand(-2, 2); }
    for (int i = 0; i < 64; i++) c[tr * 64 + i] = s == 3 ? drand(40, 60) : drand(-4, 4);
    if (s == 2) // a[r][0]*b[0][n] and a[r][1]*b[1][n] cancel to the last bits
      for (int r = 0; r < 8; r++) { a[tr * 32 + r * 4 + 1] = -a[tr * 32 + r * 4]; for (int n = 0; n < 8; n++) b[tr * 32 + 8 + n] = b[tr * 32 + n]; }
  }
  double *da, *db, *dc, *dd;
  CHECK(cudaMalloc(&da, a.size() * 8)); CHECK(cudaMalloc(&db, b.size() * 8));
  CHECK(cudaMalloc(&dc, c.size() * 8)); CHECK(cudaMalloc(&dd, d.size() * 8));
  CHECK(cudaMemcpy(da, a.data(), a.size() * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), c.size() * 8, cudaMemcpyHostToDevice));
  mma_f64_probe<<<TRIALS, 32>>>(da, db, dc, dd);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(d.data(), dd, d.size() * 8, cudaMemcpyDeviceToHost));
  uint32_t h = 2166136261u;
  int bad = 0;
  for (int tr = 0; tr < TRIALS; tr++)
    for (int r = 0; r < 8; r++)
      for (int n = 0; n < 8; n++) {
        double got = d[tr * 64 + r * 8 + n];
        uint64_t u; memcpy(&u, &got, 8);
        h = fnv(fnv(h, (uint32_t)u), (uint32_t)(u >> 32));
        long double s = c[tr * 64 + r * 8 + n], mag = fabsl(s);
        for (int k = 0; k < 4; k++) { long double p = (long double)a[tr * 32 + r * 4 + k] * b[tr * 32 + k * 8 + n]; s += p; mag += fabsl(p); }
        if (!(fabsl((long double)got - s) <= mag * 1e-13L)) { if (bad < 3) fprintf(stderr, "f64 trial %d D[%d][%d] = %.17g, want ~%.17Lg\n", tr, r, n, got, s); bad++; }
      }
  printf("%-26s hash %08x checked %d %s\n", "mma.m8n8k4.f64", h, TRIALS * 64, bad ? "FAIL" : "PASS");
  if (bad) g_fail = 1;
  if (g_dump) {
    uint32_t hdr[2] = {0x46363444u, TRIALS};
    fwrite(hdr, 4, 2, g_dump);
    fwrite(a.data(), 8, a.size(), g_dump); fwrite(b.data(), 8, b.size(), g_dump);
    fwrite(c.data(), 8, c.size(), g_dump); fwrite(d.data(), 8, d.size(), g_dump);
  }
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
}

template <typename T> static T cvt(int v);
template <> float cvt(int v) { return (float)v; }
template <> int cvt(int v) { return v; }
template <> signed char cvt(int v) { return (signed char)v; }
template <> unsigned char cvt(int v) { return (unsigned char)v; }
template <> __half cvt(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 cvt(int v) { return __float2bfloat16((float)v); }

template <int M, int N, int K, typename FI, typename MemT, typename Acc>
static void run_layout(const char* name) {
  // index matrices in both storage orders; element (r,c) has index r*cols + c
  std::vector<MemT> lo(4096), hi(4096);
  std::vector<Acc> clo(2048), chi(2048);
  auto put = [&](std::vector<MemT>& L, std::vector<MemT>& H, int base, int rows, int cols, bool rowMajor) {
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) {
        int idx = r * cols + c, off = base + (rowMajor ? r * cols + c : c * rows + r);
        L[off] = cvt<MemT>(idx & 63); H[off] = cvt<MemT>(idx >> 6);
      }
  };
  put(lo, hi, 0, M, K, true); put(lo, hi, 1024, M, K, false);
  put(lo, hi, 2048, K, N, true); put(lo, hi, 3072, K, N, false);
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      int idx = r * N + c;
      clo[r * N + c] = cvt<Acc>(idx & 63); chi[r * N + c] = cvt<Acc>(idx >> 6);
      clo[1024 + c * M + r] = cvt<Acc>(idx & 63); chi[1024 + c * M + r] = cvt<Acc>(idx >> 6);
    }
  MemT *dlo, *dhi; Acc *dclo, *dchi; int* dout;
  CHECK(cudaMalloc(&dlo, 4096 * sizeof(MemT))); CHECK(cudaMalloc(&dhi, 4096 * sizeof(MemT)));
  CHECK(cudaMalloc(&dclo, 2048 * sizeof(Acc))); CHECK(cudaMalloc(&dchi, 2048 * sizeof(Acc)));
  CHECK(cudaMalloc(&dout, 6 * 1024 * sizeof(int)));
  CHECK(cudaMemcpy(dlo, lo.data(), 4096 * sizeof(MemT), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dhi, hi.data(), 4096 * sizeof(MemT), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dclo, clo.data(), 2048 * sizeof(Acc), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dchi, chi.data(), 2048 * sizeof(Acc), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xff, 6 * 1024 * sizeof(int)));
  wmma_layouts<M, N, K, FI, MemT, Acc><<<1, 32>>>(dlo, dhi, dclo, dchi, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> out(6 * 1024);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  // every element of each matrix must be held by at least one (lane, i); hash the maps
  int sizes[6] = {M * K, M * K, K * N, K * N, M * N, M * N};
  int ne[6];
  for (int p = 0; p < 6; p++) ne[p] = out[p * 1024 + 1023]; // x[] counts, as the device reports them
  const char* part[6] = {"a.row", "a.col", "b.row", "b.col", "c.row", "c.col"};
  for (int p = 0; p < 6; p++) {
    std::vector<int> seen(sizes[p], 0);
    uint32_t h = 2166136261u;
    int bad = 0;
    for (int l = 0; l < 32; l++)
      for (int i = 0; i < ne[p]; i++) {
        int v = out[p * 1024 + l * ne[p] + i];
        h = fnv(h, (uint32_t)v);
        if (v < 0 || v >= sizes[p]) bad++; else seen[v]++;
      }
    for (int v : seen) if (!v) bad++;
    printf("layout %-18s %-5s elems %2d hash %08x %s\n", name, part[p], ne[p], h, bad ? "FAIL" : "PASS");
    if (bad) g_fail = 1;
    if (g_dump) {
      uint32_t hdr[4] = {0x4c41594fu, (uint32_t)p, (uint32_t)ne[p], (uint32_t)(M * 10000 + N * 100 + K)};
      fwrite(hdr, 4, 4, g_dump);
      fwrite(&out[p * 1024], 4, 32 * ne[p], g_dump);
    }
  }
  cudaFree(dlo); cudaFree(dhi); cudaFree(dclo); cudaFree(dchi); cudaFree(dout);
}

int main(int argc, char** argv) {
  if (argc > 1) g_dump = fopen(argv[1], "wb");
  for (int c = 0; c < NCFG; c++) run_cfg(c);
  run_f64();
  run_layout<16, 16, 16, __half, __half, float>("m16n16k16.f16.f32");
  run_layout<16, 16, 16, __half, __half, __half>("m16n16k16.f16.f16");
  run_layout<32, 8, 16, __half, __half, float>("m32n8k16.f16.f32");
  run_layout<8, 32, 16, __half, __half, float>("m8n32k16.f16.f32");
  run_layout<32, 8, 16, __half, __half, __half>("m32n8k16.f16.f16");
  run_layout<8, 32, 16, __half, __half, __half>("m8n32k16.f16.f16");
  run_layout<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>("m16n16k16.bf16");
  run_layout<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float>("m32n8k16.bf16");
  run_layout<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float>("m8n32k16.bf16");
  run_layout<16, 16, 8, tf32_t, float, float>("m16n16k8.tf32");
  run_layout<16, 16, 16, signed char, signed char, int>("m16n16k16.s8");
  run_layout<32, 8, 16, signed char, signed char, int>("m32n8k16.s8");
  run_layout<8, 32, 16, unsigned char, unsigned char, int>("m8n32k16.u8");
  if (g_dump) fclose(g_dump);
  printf("RESULT %s\n", g_fail ? "FAIL" : "PASS");
  return g_fail;
}
