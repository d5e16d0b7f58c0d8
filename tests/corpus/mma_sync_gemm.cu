// Tensor cores through inline PTX, as CUTLASS-style hand-written kernels use them (issue 15 item 3):
// mma.sync.aligned m16n8k16 / m16n8k8 (f16 and bf16 inputs; f32 and f16 accumulators), m16n8k8 /
// m16n8k4 tf32 and m16n8k32 s8, with A/B fragments from shared memory through ldmatrix (.x1, .x2,
// .x4, .trans; both `.m8n8.x4` and CUTLASS's `.x4.m8n8` spellings) or loaded element by element
// following the PTX ISA's per-lane fragment tables. A 64x64 block tile per 128-thread block, a
// 32x32 warp tile per warp (2 x 4 mma tiles), padded shared-memory rows. A second kernel dumps the
// registers ldmatrix gives each lane for an index matrix and checks them against the ISA's table.
// Inputs are small integers: every result is exact whatever the summation order.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int MM = 128, NN = 128, KK = 64; // GEMM size; block tile 64x64, whole K staged in smem
constexpr int PAD = 8;                     // elements of padding per smem row (16 bytes for b16)

enum Variant {
  F16_K16_X4,      // f16 m16n8k16 f32 acc, A ldmatrix.x4, B ([N][K]) ldmatrix.x4
  F16_K16_TRANS,   // f16 m16n8k16 f32 acc, B ([K][N]) ldmatrix.x2.trans
  F16_K8,          // f16 m16n8k8 f32 acc, A ldmatrix.x2, B ldmatrix.x1
  F16_K16_F16ACC,  // f16 m16n8k16 f16 acc
  F16_K8_F16ACC,   // f16 m16n8k8 f16 acc, B ldmatrix.x1.trans
  BF16_K16,        // bf16 m16n8k16 f32 acc (CUTLASS spelling ldmatrix.sync.aligned.x4.m8n8)
  BF16_K8,         // bf16 m16n8k8 f32 acc
  TF32_K8,         // tf32 m16n8k8, fragments from the ISA table
  TF32_K4,         // tf32 m16n8k4
  S8_K32,          // s8 m16n8k32 s32 acc
};

__device__ __forceinline__ unsigned smem_addr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void ldsm_x4(unsigned r[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldsm_x4_cutlass(unsigned r[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldsm_x4_trans(unsigned r[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldsm_x2(unsigned r[2], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldsm_x2_trans(unsigned r[2], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldsm_x1(unsigned r[1], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldsm_x1_trans(unsigned r[1], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(smem_addr(p)));
}

template <int V> struct Traits;
template <> struct Traits<F16_K16_X4> { using T = __half; using Acc = float; static constexpr int K = 16; };
template <> struct Traits<F16_K16_TRANS> { using T = __half; using Acc = float; static constexpr int K = 16; };
template <> struct Traits<F16_K8> { using T = __half; using Acc = float; static constexpr int K = 8; };
template <> struct Traits<F16_K16_F16ACC> { using T = __half; using Acc = __half; static constexpr int K = 16; };
template <> struct Traits<F16_K8_F16ACC> { using T = __half; using Acc = __half; static constexpr int K = 8; };
template <> struct Traits<BF16_K16> { using T = __nv_bfloat16; using Acc = float; static constexpr int K = 16; };
template <> struct Traits<BF16_K8> { using T = __nv_bfloat16; using Acc = float; static constexpr int K = 8; };
template <> struct Traits<TF32_K8> { using T = float; using Acc = float; static constexpr int K = 8; };
template <> struct Traits<TF32_K4> { using T = float; using Acc = float; static constexpr int K = 4; };
template <> struct Traits<S8_K32> { using T = int8_t; using Acc = int; static constexpr int K = 32; };

// B stored [K][N] in shared memory (for the .trans variants), else [N][K].
template <int V> constexpr bool kBkn = V == F16_K16_TRANS || V == F16_K8_F16ACC;

__device__ __forceinline__ unsigned pack2(const int8_t* p0, const int8_t* p1, const int8_t* p2, const int8_t* p3) {
  return (unsigned)(uint8_t)*p0 | (unsigned)(uint8_t)*p1 << 8 | (unsigned)(uint8_t)*p2 << 16 | (unsigned)(uint8_t)*p3 << 24;
}

// C/D element (row, col) of register i (0..3) of lane: the m16n8 accumulator table.
__device__ __forceinline__ int crow(int lane, int i) { return (lane >> 2) + 8 * (i >> 1); }
__device__ __forceinline__ int ccol(int lane, int i) { return (lane & 3) * 2 + (i & 1); }

template <int V>
__global__ void __launch_bounds__(128) mma_gemm(const typename Traits<V>::T* A, const typename Traits<V>::T* B,
                                                const typename Traits<V>::Acc* C, typename Traits<V>::Acc* D) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 // bf16/tf32 wmma and m16n8k16 mma are sm_80+
  using T = typename Traits<V>::T;
  using Acc = typename Traits<V>::Acc;
  constexpr int K = Traits<V>::K;
  constexpr bool bkn = kBkn<V>;
  constexpr int LDA = KK + PAD, LDB = bkn ? 64 + PAD : KK + PAD;
  __shared__ __align__(16) T As[64 * LDA];
  __shared__ __align__(16) T Bs[bkn ? KK * LDB : 64 * LDB];
  int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  // stage: A rows bm.., all K (A is row-major MMxKK); B: [N][K] or [K][N] (global B is KKxNN row-major)
  for (int e = threadIdx.x; e < 64 * KK; e += blockDim.x) {
    int r = e / KK, k = e % KK;
    As[r * LDA + k] = A[(size_t)(bm + r) * KK + k];
  }
  for (int e = threadIdx.x; e < 64 * KK; e += blockDim.x) {
    if (bkn) { int k = e / 64, n = e % 64; Bs[k * LDB + n] = B[(size_t)k * NN + bn + n]; }
    else { int n = e / KK, k = e % KK; Bs[n * LDB + k] = B[(size_t)k * NN + bn + n]; }
  }
  __syncthreads();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
  int g = lane >> 2, t = lane & 3;
  // accumulators: 2 (m16) x 4 (n8) tiles, 4 elements each
  float accf[2][4][4];
  unsigned acch[2][4][2];
  int acci[2][4][4];
  for (int mi = 0; mi < 2; mi++)
    for (int ni = 0; ni < 4; ni++)
      for (int i = 0; i < 4; i++) {
        int r = bm + wm + mi * 16 + crow(lane, i), c = bn + wn + ni * 8 + ccol(lane, i);
        Acc v = C[(size_t)r * NN + c];
        if constexpr (sizeof(Acc) == 2) {
          unsigned short bits; memcpy(&bits, &v, 2);
          if (i & 1) acch[mi][ni][i >> 1] |= (unsigned)bits << 16; else acch[mi][ni][i >> 1] = bits;
        } else if constexpr (std::is_same<Acc, int>::value) acci[mi][ni][i] = v;
        else accf[mi][ni][i] = v;
      }
  for (int k0 = 0; k0 < KK; k0 += K) {
    for (int mi = 0; mi < 2; mi++) {
      const T* a0 = &As[(wm + mi * 16) * LDA + k0];
      unsigned a[4];
      if constexpr (V == TF32_K8) {
        const float* af = (const float*)a0;
        a[0] = __float_as_uint(af[g * LDA + t]); a[1] = __float_as_uint(af[(g + 8) * LDA + t]);
        a[2] = __float_as_uint(af[g * LDA + t + 4]); a[3] = __float_as_uint(af[(g + 8) * LDA + t + 4]);
      } else if constexpr (V == TF32_K4) {
        const float* af = (const float*)a0;
        a[0] = __float_as_uint(af[g * LDA + t]); a[1] = __float_as_uint(af[(g + 8) * LDA + t]);
      } else if constexpr (V == S8_K32) {
        const int8_t* ab = (const int8_t*)a0;
        for (int j = 0; j < 4; j++) {
          int row = g + 8 * (j & 1), col = t * 4 + 16 * (j >> 1);
          const int8_t* p = ab + row * LDA + col;
          a[j] = pack2(p, p + 1, p + 2, p + 3);
        }
      } else if constexpr (K == 16) {
        const T* p = a0 + (lane % 16) * LDA + (lane / 16) * 8;
        if (V == BF16_K16) ldsm_x4_cutlass(a, p); else ldsm_x4(a, p);
      } else { // K == 8, b16
        ldsm_x2(a, a0 + (lane % 16) * LDA);
      }
      for (int ni = 0; ni < 4; ni++) {
        int n0 = wn + ni * 8;
        unsigned b[2];
        if constexpr (V == TF32_K8) {
          const float* bf = (const float*)&Bs[n0 * LDB + k0];
          b[0] = __float_as_uint(bf[g * LDB + t]); b[1] = __float_as_uint(bf[g * LDB + t + 4]);
        } else if constexpr (V == TF32_K4) {
          const float* bf = (const float*)&Bs[n0 * LDB + k0];
          b[0] = __float_as_uint(bf[g * LDB + t]);
        } else if constexpr (V == S8_K32) {
          const int8_t* bb = (const int8_t*)&Bs[n0 * LDB + k0];
          for (int j = 0; j < 2; j++) { const int8_t* p = bb + g * LDB + t * 4 + 16 * j; b[j] = pack2(p, p + 1, p + 2, p + 3); }
        } else if constexpr (V == F16_K16_TRANS) {
          ldsm_x2_trans(b, &Bs[(k0 + (lane % 16)) * LDB + n0]);
        } else if constexpr (V == F16_K8_F16ACC) {
          ldsm_x1_trans(b, &Bs[(k0 + (lane % 8)) * LDB + n0]);
        } else if constexpr (K == 8) {
          ldsm_x1(b, &Bs[(n0 + (lane % 8)) * LDB + k0]);
        } else if constexpr (V == F16_K16_X4 || V == F16_K16_F16ACC || V == BF16_K16) {
          if (ni & 1) continue; // one ldmatrix.x4 gives the B fragments of two n8 tiles
          unsigned b4[4];
          ldsm_x4(b4, &Bs[(n0 + (lane % 8) + (lane / 16) * 8) * LDB + k0 + ((lane / 8) % 2) * 8]);
          for (int h = 0; h < 2; h++) {
            unsigned bb2[2] = {b4[2 * h], b4[2 * h + 1]};
            if constexpr (V == F16_K16_F16ACC) {
              unsigned* c = acch[mi][ni + h];
              asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                           : "+r"(c[0]), "+r"(c[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(bb2[0]), "r"(bb2[1]));
            } else if constexpr (V == BF16_K16) {
              float* c = accf[mi][ni + h];
              asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                           : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                           : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(bb2[0]), "r"(bb2[1]));
            } else {
              float* c = accf[mi][ni + h];
              asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                           : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                           : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(bb2[0]), "r"(bb2[1]));
            }
          }
          continue;
        }
        float* c = accf[mi][ni];
        if constexpr (V == F16_K16_TRANS)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                       : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        else if constexpr (V == F16_K8)
          asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                       : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
        else if constexpr (V == F16_K8_F16ACC) {
          unsigned* ch = acch[mi][ni];
          asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};"
                       : "+r"(ch[0]), "+r"(ch[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
        } else if constexpr (V == BF16_K8)
          asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                       : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
        else if constexpr (V == TF32_K8)
          asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                       : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        else if constexpr (V == TF32_K4)
          asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                       : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
        else if constexpr (V == S8_K32) {
          int* ci = acci[mi][ni];
          asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                       : "+r"(ci[0]), "+r"(ci[1]), "+r"(ci[2]), "+r"(ci[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        }
      }
    }
  }
  for (int mi = 0; mi < 2; mi++)
    for (int ni = 0; ni < 4; ni++)
      for (int i = 0; i < 4; i++) {
        int r = bm + wm + mi * 16 + crow(lane, i), c = bn + wn + ni * 8 + ccol(lane, i);
        Acc v;
        if constexpr (sizeof(Acc) == 2) {
          unsigned short bits = (unsigned short)(acch[mi][ni][i >> 1] >> (16 * (i & 1)));
          memcpy(&v, &bits, 2);
        } else if constexpr (std::is_same<Acc, int>::value) v = acci[mi][ni][i];
        else v = accf[mi][ni][i];
        D[(size_t)r * NN + c] = v;
      }
#endif
}

// ldmatrix per-lane contents for a 32x8 (4 matrices of 8x8) b16 index matrix: value = 256*matrix + 8*row + col.
__global__ void ldmatrix_dump(unsigned* out) {
  __shared__ __align__(16) unsigned short m[4][8][8];
  int lane = threadIdx.x;
  for (int e = lane; e < 256; e += 32) m[e / 64][(e / 8) % 8][e % 8] = (unsigned short)(256 * (e / 64) + e % 64);
  __syncwarp();
  // row address of lane: matrix lane/8, row lane%8 (x1 and x2 use only the first 8 / 16 lanes)
  const void* p = &m[lane / 8][lane % 8][0];
  unsigned r[4];
  ldsm_x4(r, p);
  for (int j = 0; j < 4; j++) out[0 * 128 + lane * 4 + j] = r[j];
  ldsm_x4_trans(r, p);
  for (int j = 0; j < 4; j++) out[1 * 128 + lane * 4 + j] = r[j];
  r[0] = r[1] = r[2] = r[3] = 0;
  ldsm_x2(r, p);
  for (int j = 0; j < 4; j++) out[2 * 128 + lane * 4 + j] = r[j];
  r[0] = r[1] = r[2] = r[3] = 0;
  ldsm_x1_trans(r, p);
  for (int j = 0; j < 4; j++) out[3 * 128 + lane * 4 + j] = r[j];
  // movmatrix: the transposed fragment of the 8x8 matrix 0 (its ldmatrix.x1 fragment)
  unsigned f0[1];
  ldsm_x1(f0, p);
  unsigned t0;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t0) : "r"(f0[0]));
  for (int j = 0; j < 4; j++) out[4 * 128 + lane * 4 + j] = j == 0 ? t0 : 0;
#if __CUDA_ARCH__ >= 900
  // stmatrix (sm_90): store the x4 fragments back (plain and transposed) and read the matrices
  ldsm_x4(r, p);
  __shared__ __align__(16) unsigned short s[2][4][8][8];
  const void* q0 = &s[0][lane / 8][lane % 8][0];
  const void* q1 = &s[1][lane / 8][lane % 8][0];
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(smem_addr(q0)), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(smem_addr(q1)), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  __syncwarp();
  const unsigned* sw = (const unsigned*)&s[0][0][0][0];
  for (int e = lane; e < 256; e += 32) out[5 * 128 + e] = sw[e];
#else
  for (int e = lane; e < 256; e += 32) out[5 * 128 + e] = 0;
#endif
}

template <typename T> static T fromI(int v);
template <> float fromI(int v) { return (float)v; }
template <> int fromI(int v) { return v; }
template <> int8_t fromI(int v) { return (int8_t)v; }
template <> __half fromI(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 fromI(int v) { return __float2bfloat16((float)v); }
static float toF(float v) { return v; }
static float toF(int v) { return (float)v; }
static float toF(__half v) { return __half2float(v); }

static unsigned g_seed = 777u;
static int rnd(int lo, int hi) { g_seed = g_seed * 1664525u + 1013904223u; return lo + (int)((g_seed >> 8) % (unsigned)(hi - lo + 1)); }
static int g_fail = 0;

template <int V> static void run(const char* name, int lo, int hi, int clo, int chi) {
  using T = typename Traits<V>::T;
  using Acc = typename Traits<V>::Acc;
  std::vector<int> a(MM * KK), b(KK * NN), c(MM * NN);
  for (int& v : a) v = rnd(lo, hi);
  for (int& v : b) v = rnd(lo, hi);
  for (int& v : c) v = rnd(clo, chi);
  std::vector<T> ha(a.size()), hb(b.size());
  std::vector<Acc> hc(c.size()), hd(c.size());
  for (size_t i = 0; i < a.size(); i++) ha[i] = fromI<T>(a[i]);
  for (size_t i = 0; i < b.size(); i++) hb[i] = fromI<T>(b[i]);
  for (size_t i = 0; i < c.size(); i++) hc[i] = fromI<Acc>(c[i]);
  T *da, *db; Acc *dc, *dd;
  CHECK(cudaMalloc(&da, ha.size() * sizeof(T)));
  CHECK(cudaMalloc(&db, hb.size() * sizeof(T)));
  CHECK(cudaMalloc(&dc, hc.size() * sizeof(Acc)));
  CHECK(cudaMalloc(&dd, hd.size() * sizeof(Acc)));
  CHECK(cudaMemcpy(da, ha.data(), ha.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb.data(), hb.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc.data(), hc.size() * sizeof(Acc), cudaMemcpyHostToDevice));
  mma_gemm<V><<<dim3(NN / 64, MM / 64), 128>>>(da, db, dc, dd);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hd.data(), dd, hd.size() * sizeof(Acc), cudaMemcpyDeviceToHost));
  long long sum = 0, wsum = 0;
  int bad = 0;
  for (int i = 0; i < MM; i++)
    for (int j = 0; j < NN; j++) {
      long long s = c[i * NN + j];
      for (int k = 0; k < KK; k++) s += (long long)a[i * KK + k] * b[k * NN + j];
      float got = toF(hd[i * NN + j]);
      if (got != (float)s) {
        if (bad < 3) fprintf(stderr, "%s: D[%d][%d] = %g, want %lld\n", name, i, j, got, s);
        bad++;
      }
      sum += (long long)got;
      wsum += (long long)got * (1 + (i * NN + j) % 5);
    }
  printf("%-26s sum %lld wsum %lld %s\n", name, sum, wsum, bad ? "FAIL" : "PASS");
  if (bad) g_fail = 1;
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
}

static void check_ldmatrix() {
  unsigned* d;
  CHECK(cudaMalloc(&d, 8 * 128 * sizeof(unsigned)));
  CHECK(cudaMemset(d, 0xff, 8 * 128 * sizeof(unsigned)));
  ldmatrix_dump<<<1, 32>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> h(8 * 128);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  const char* names[5] = {"ldmatrix.x4", "ldmatrix.x4.trans", "ldmatrix.x2", "ldmatrix.x1.trans", "movmatrix.trans"};
  int nregs[5] = {4, 4, 2, 1, 1};
  for (int f = 0; f < 5; f++) {
    bool trans = f == 1 || f == 3 || f == 4;
    int bad = 0;
    unsigned hash = 2166136261u;
    for (int lane = 0; lane < 32; lane++)
      for (int j = 0; j < 4; j++) {
        unsigned got = h[f * 128 + lane * 4 + j], want = 0;
        if (j < nregs[f]) {
          // PTX ISA: lane holds row lane/4, columns 2*(lane%4)+{0,1} (transposed: those are rows)
          int r = lane >> 2, c0 = (lane & 3) * 2;
          for (int h2 = 0; h2 < 2; h2++) {
            int rr = trans ? c0 + h2 : r, cc = trans ? r : c0 + h2;
            want |= (unsigned)(256 * j + 8 * rr + cc) << (16 * h2);
          }
        }
        if (got != want) { if (bad < 3) fprintf(stderr, "%s lane %d reg %d: %08x want %08x\n", names[f], lane, j, got, want); bad++; }
        hash = (hash ^ got) * 16777619u;
      }
    printf("%-26s hash %08x %s\n", names[f], hash, bad ? "FAIL" : "PASS");
    if (bad) g_fail = 1;
  }
  // stmatrix: plain stores give back the index matrices; .trans stores their transposes
  for (int f = 0; f < 2; f++) {
    int bad = 0;
    unsigned hash = 2166136261u;
    for (int e = 0; e < 256; e++) {
      int j = e / 64, rr = (e / 8) % 8, cc = e % 8;
      unsigned short got = (unsigned short)(h[5 * 128 + (f * 256 + e) / 2] >> (16 * (e & 1)));
      unsigned short want = (unsigned short)(256 * j + (f ? 8 * cc + rr : 8 * rr + cc));
      if (got != want) { if (bad < 3) fprintf(stderr, "stmatrix%s m%d[%d][%d]: %04x want %04x\n", f ? ".trans" : "", j, rr, cc, got, want); bad++; }
      hash = (hash ^ got) * 16777619u;
    }
    printf("%-26s hash %08x %s\n", f ? "stmatrix.x4.trans" : "stmatrix.x4", hash, bad ? "FAIL" : "PASS");
    if (bad) g_fail = 1;
  }
  cudaFree(d);
}

int main() {
  check_ldmatrix();
  run<F16_K16_X4>("f16.m16n8k16.f32.x4", -3, 3, -100, 100);
  run<F16_K16_TRANS>("f16.m16n8k16.f32.trans", -3, 3, -100, 100);
  run<F16_K8>("f16.m16n8k8.f32", -3, 3, -100, 100);
  run<F16_K16_F16ACC>("f16.m16n8k16.f16", -2, 2, -100, 100);
  run<F16_K8_F16ACC>("f16.m16n8k8.f16.trans", -2, 2, -100, 100);
  run<BF16_K16>("bf16.m16n8k16.f32", -3, 3, -100, 100);
  run<BF16_K8>("bf16.m16n8k8.f32", -3, 3, -100, 100);
  run<TF32_K8>("tf32.m16n8k8.f32", -9, 9, -100, 100);
  run<TF32_K4>("tf32.m16n8k4.f32", -9, 9, -100, 100);
  run<S8_K32>("s8.m16n8k32.s32", -128, 127, -100000, 100000);
  printf("RESULT %s\n", g_fail ? "FAIL" : "PASS");
  return g_fail;
}
