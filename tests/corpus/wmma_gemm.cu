// Tensor cores through nvcuda::wmma (mma.h), issue 15 item 3: D = alpha * A*B + beta * C with
// one warp per output tile and four warps per block, for every shape and input type of sm_80/90:
// f16 (m16n16k16, m32n8k16, m8n32k16; f32 and f16 accumulators), bf16, tf32 (m16n16k8), s8/u8
// (int32 accumulators); A and B in both row- and column-major layouts, C loaded and D stored in
// both layouts, from global and from shared memory. alpha/beta and a clamp are applied element by
// element on the accumulator fragments (x[i], num_elements), which is valid for any fragment
// layout. Inputs are small integers, so every product and partial sum is exact in every
// accumulator type and the result does not depend on the summation order; each case prints an
// exact integer checksum and is compared element by element with a CPU reference.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
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

constexpr int MM = 64, NN = 64, KK = 64; // GEMM size (multiples of every tile shape)

template <typename T> __host__ __device__ float toF(T v);
template <> __host__ __device__ float toF(float v) { return v; }
template <> __host__ __device__ float toF(int v) { return (float)v; }
template <> __host__ __device__ float toF(signed char v) { return (float)v; }
template <> __host__ __device__ float toF(unsigned char v) { return (float)v; }
template <> __host__ __device__ float toF(__half v) { return __half2float(v); }
template <> __host__ __device__ float toF(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T> T fromI(int v);
template <> float fromI(int v) { return (float)v; }
template <> int fromI(int v) { return v; }
template <> signed char fromI(int v) { return (signed char)v; }
template <> unsigned char fromI(int v) { return (unsigned char)v; }
template <> __half fromI(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 fromI(int v) { return __float2bfloat16((float)v); }

// Memory element type of a fragment element type (tf32 fragments are loaded from float).
template <typename F> struct Mem { using T = F; };
template <> struct Mem<tf32_t> { using T = float; };

// One warp per (M x N) tile of D; A is MMxKK, B is KKxNN, C/D are MMxNN.
// LA/LB: fragment layouts = the storage orders of A and B. cRow/dRow: storage of C and D.
template <int M, int N, int K, typename FI, typename Acc, typename LA, typename LB, bool Shared>
__global__ void wmma_gemm(const typename Mem<FI>::T* A, const typename Mem<FI>::T* B, const Acc* C, Acc* D,
                          Acc alpha, Acc beta, bool cRow, bool dRow, Acc lo) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 // bf16/tf32 wmma and m16n8k16 mma are sm_80+
  using TI = typename Mem<FI>::T;
  constexpr bool aRow = std::is_same<LA, wmma::row_major>::value;
  constexpr bool bRow = std::is_same<LB, wmma::row_major>::value;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tilesN = NN / N;
  int tm = warp / tilesN, tn = warp % tilesN;
  if (tm >= MM / M) return;
  wmma::fragment<wmma::matrix_a, M, N, K, FI, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, FI, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> acc, fc;
  wmma::fill_fragment(acc, (Acc)0);
  // per-warp staging tiles for the shared-memory variant (4 warps per block)
  __shared__ TI sa[4][M * K];
  __shared__ TI sb[4][K * N];
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int k = 0; k < KK; k += K) {
    const TI* pa = aRow ? A + (size_t)(tm * M) * KK + k : A + (size_t)k * MM + tm * M;
    const TI* pb = bRow ? B + (size_t)k * NN + tn * N : B + (size_t)(tn * N) * KK + k;
    if (Shared) {
      // copy the tiles into shared memory, keeping the layout, with a tight leading dimension
      for (int e = lane; e < M * K; e += 32) {
        int r = e / K, c = e % K; // r in [0,M), c in [0,K)
        if (aRow) sa[w][r * K + c] = pa[(size_t)r * KK + c];
        else sa[w][c * M + r] = pa[(size_t)c * MM + r];
      }
      for (int e = lane; e < K * N; e += 32) {
        int r = e / N, c = e % N; // r in [0,K), c in [0,N)
        if (bRow) sb[w][r * N + c] = pb[(size_t)r * NN + c];
        else sb[w][c * K + r] = pb[(size_t)c * KK + r];
      }
      __syncwarp();
      wmma::load_matrix_sync(fa, sa[w], aRow ? K : M);
      wmma::load_matrix_sync(fb, sb[w], bRow ? N : K);
      __syncwarp();
    } else {
      wmma::load_matrix_sync(fa, pa, aRow ? KK : MM);
      wmma::load_matrix_sync(fb, pb, bRow ? NN : KK);
    }
    if constexpr (std::is_same<FI, tf32_t>::value) {
      for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
      for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    }
    wmma::mma_sync(acc, fa, fb, acc);
  }
  const Acc* pc = cRow ? C + (size_t)(tm * M) * NN + tn * N : C + (size_t)(tn * N) * MM + tm * M;
  wmma::load_matrix_sync(fc, pc, cRow ? NN : MM, cRow ? wmma::mem_row_major : wmma::mem_col_major);
  for (int i = 0; i < acc.num_elements; i++) {
    Acc v = alpha * acc.x[i] + beta * fc.x[i];
    acc.x[i] = v < lo ? lo : v; // clamp from below, element by element
  }
  Acc* pd = dRow ? D + (size_t)(tm * M) * NN + tn * N : D + (size_t)(tn * N) * MM + tm * M;
  wmma::store_matrix_sync(pd, acc, dRow ? NN : MM, dRow ? wmma::mem_row_major : wmma::mem_col_major);
#endif
}

static unsigned g_seed = 12345u;
static int rnd(int lo, int hi) { g_seed = g_seed * 1664525u + 1013904223u; return lo + (int)((g_seed >> 8) % (unsigned)(hi - lo + 1)); }
static int g_fail = 0;

template <int M, int N, int K, typename FI, typename Acc, typename LA, typename LB, bool Shared>
static void run(const char* name, int lo, int hi, int clo, int chi, int alpha, int beta, int clamp, bool cRow, bool dRow) {
  using TI = typename Mem<FI>::T;
  constexpr bool aRow = std::is_same<LA, wmma::row_major>::value;
  constexpr bool bRow = std::is_same<LB, wmma::row_major>::value;
  std::vector<int> a(MM * KK), b(KK * NN), c(MM * NN); // logical row-major values
  for (int& v : a) v = rnd(lo, hi);
  for (int& v : b) v = rnd(lo, hi);
  for (int& v : c) v = rnd(clo, chi);
  std::vector<TI> ha(MM * KK), hb(KK * NN);
  std::vector<Acc> hc(MM * NN), hd(MM * NN);
  for (int i = 0; i < MM; i++) for (int k = 0; k < KK; k++) ha[aRow ? i * KK + k : k * MM + i] = fromI<TI>(a[i * KK + k]);
  for (int k = 0; k < KK; k++) for (int j = 0; j < NN; j++) hb[bRow ? k * NN + j : j * KK + k] = fromI<TI>(b[k * NN + j]);
  for (int i = 0; i < MM; i++) for (int j = 0; j < NN; j++) hc[cRow ? i * NN + j : j * MM + i] = fromI<Acc>(c[i * NN + j]);
  TI *da, *db; Acc *dc, *dd;
  CHECK(cudaMalloc(&da, ha.size() * sizeof(TI)));
  CHECK(cudaMalloc(&db, hb.size() * sizeof(TI)));
  CHECK(cudaMalloc(&dc, hc.size() * sizeof(Acc)));
  CHECK(cudaMalloc(&dd, hd.size() * sizeof(Acc)));
  CHECK(cudaMemcpy(da, ha.data(), ha.size() * sizeof(TI), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb.data(), hb.size() * sizeof(TI), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc.data(), hc.size() * sizeof(Acc), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dd, 0, hd.size() * sizeof(Acc)));
  int tiles = (MM / M) * (NN / N);
  wmma_gemm<M, N, K, FI, Acc, LA, LB, Shared><<<(tiles + 3) / 4, 128>>>(da, db, dc, dd, fromI<Acc>(alpha), fromI<Acc>(beta), cRow, dRow, fromI<Acc>(clamp));
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hd.data(), dd, hd.size() * sizeof(Acc), cudaMemcpyDeviceToHost));
  long long sum = 0, wsum = 0;
  int bad = 0;
  for (int i = 0; i < MM; i++)
    for (int j = 0; j < NN; j++) {
      long long s = 0;
      for (int k = 0; k < KK; k++) s += (long long)a[i * KK + k] * b[k * NN + j];
      long long want = alpha * s + (long long)beta * c[i * NN + j];
      if (want < clamp) want = clamp;
      float got = toF(hd[dRow ? i * NN + j : j * MM + i]);
      if (got != (float)want) {
        if (bad < 3) fprintf(stderr, "%s: D[%d][%d] = %g, want %lld\n", name, i, j, got, want);
        bad++;
      }
      sum += (long long)got;
      wsum += (long long)got * (1 + (i * NN + j) % 7);
    }
  printf("%-34s sum %lld wsum %lld %s\n", name, sum, wsum, bad ? "FAIL" : "PASS");
  if (bad) g_fail = 1;
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
}

using R = wmma::row_major;
using Cm = wmma::col_major;
using tf32 = tf32_t;

int main() {
  // f16 inputs, f32 accumulators, every shape and A/B layout
  run<16, 16, 16, __half, float, R, Cm, false>("f16.f32.m16n16k16.row.col", -3, 3, -50, 50, 2, -1, -300, true, true);
  run<16, 16, 16, __half, float, Cm, R, false>("f16.f32.m16n16k16.col.row", -3, 3, -50, 50, 1, 1, -1000, false, true);
  run<16, 16, 16, __half, float, R, R, true>("f16.f32.m16n16k16.row.row.smem", -3, 3, -50, 50, 3, 2, -200, true, false);
  run<16, 16, 16, __half, float, Cm, Cm, true>("f16.f32.m16n16k16.col.col.smem", -3, 3, -50, 50, 1, -2, -1000, false, false);
  run<32, 8, 16, __half, float, R, Cm, false>("f16.f32.m32n8k16.row.col", -3, 3, -50, 50, 2, 1, -250, true, true);
  run<32, 8, 16, __half, float, Cm, R, true>("f16.f32.m32n8k16.col.row.smem", -3, 3, -50, 50, 1, 1, -1000, false, true);
  run<8, 32, 16, __half, float, R, Cm, false>("f16.f32.m8n32k16.row.col", -3, 3, -50, 50, 1, 3, -1000, true, false);
  run<8, 32, 16, __half, float, R, R, true>("f16.f32.m8n32k16.row.row.smem", -3, 3, -50, 50, -1, 1, -1000, true, true);
  // f16 accumulators (sums stay below 2048, exact in f16)
  run<16, 16, 16, __half, __half, R, Cm, false>("f16.f16.m16n16k16.row.col", -2, 2, -40, 40, 2, -1, -300, true, true);
  run<16, 16, 16, __half, __half, Cm, R, true>("f16.f16.m16n16k16.col.row.smem", -2, 2, -40, 40, 1, 1, -1000, false, false);
  run<32, 8, 16, __half, __half, R, R, false>("f16.f16.m32n8k16.row.row", -2, 2, -40, 40, 1, 2, -1000, true, true);
  run<8, 32, 16, __half, __half, Cm, Cm, false>("f16.f16.m8n32k16.col.col", -2, 2, -40, 40, 2, 1, -100, false, true);
  // bf16 inputs (sm_80+), f32 accumulators
  run<16, 16, 16, __nv_bfloat16, float, R, Cm, false>("bf16.f32.m16n16k16.row.col", -3, 3, -50, 50, 2, -1, -300, true, true);
  run<32, 8, 16, __nv_bfloat16, float, Cm, R, true>("bf16.f32.m32n8k16.col.row.smem", -3, 3, -50, 50, 1, 1, -1000, true, false);
  run<8, 32, 16, __nv_bfloat16, float, R, R, false>("bf16.f32.m8n32k16.row.row", -3, 3, -50, 50, 1, 2, -1000, false, true);
  // tf32 inputs (m16n16k8), f32 accumulators
  run<16, 16, 8, tf32, float, R, Cm, false>("tf32.f32.m16n16k8.row.col", -7, 7, -50, 50, 2, -1, -1000, true, true);
  run<16, 16, 8, tf32, float, Cm, R, true>("tf32.f32.m16n16k8.col.row.smem", -7, 7, -50, 50, 1, 1, -500, false, true);
  // 8-bit integers, int32 accumulators
  run<16, 16, 16, signed char, int, R, Cm, false>("s8.s32.m16n16k16.row.col", -128, 127, -100000, 100000, 2, -1, -2000000, true, true);
  run<32, 8, 16, signed char, int, R, Cm, true>("s8.s32.m32n8k16.row.col.smem", -128, 127, -1000, 1000, 1, 1, -2000000, false, true);
  run<8, 32, 16, unsigned char, int, R, Cm, false>("u8.s32.m8n32k16.row.col", 0, 255, -1000, 1000, 1, 3, -2000000, true, false);
  run<16, 16, 16, unsigned char, int, R, Cm, false>("u8.s32.m16n16k16.row.col", 0, 255, 0, 1000, -1, 1, -3000000, true, true);
  printf("RESULT %s\n", g_fail ? "FAIL" : "PASS");
  return g_fail;
}
