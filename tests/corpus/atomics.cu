// Histogram plus every atomic flavour CUDA exposes, in shared and global memory: add (int, unsigned,
// unsigned long long, float, double, __half, __half2, __nv_bfloat16, float2/float4 on sm_90+), sub,
// min/max (signed/unsigned, 32/64-bit), and/or/xor, inc/dec, exch, CAS (32/64/16-bit and CAS loops
// for float/double), the _block and _system scoped variants, and libcu++ cuda::atomic_ref with
// explicit memory orders. Values are chosen so every final result is order-independent and exact.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kBins = 256;
constexpr int kHalfBins = 16;

struct Counters {
  int iadd, isub, imin, imax, iand, ior, ixor, iexch;
  unsigned uadd, usub, umin, umax, uand, uor, uxor, uinc, udec, uexch;
  long long llmin, llmax;
  unsigned long long ulladd, ullmin, ullmax, ulland, ullor, ullxor, ullexch, ullcas;
  unsigned long long exch_sum_i, exch_sum_u, exch_sum_ull;
  float fadd, fexch, fmin_cas;
  double dadd, dmax_cas, exch_sum_f;
  int cas_counter;
  unsigned short us_cas;
  int blk_add, sys_add, blk_max, sys_min;
  unsigned blk_inc, sys_or, blk_and, sys_xor;
  unsigned long long sys_cas_counter, blk_exch;
  float sys_fadd;
  double blk_dadd;
  int ref_add_relaxed, ref_max, ref_cas_counter;
  unsigned ref_or_block;
  unsigned long long ref_add_system;
  int shared_add, shared_min, shared_max, shared_xor, shared_cas;
  unsigned shared_inc, shared_and, shared_or;
  unsigned long long shared_ull;
  float shared_f;
  double shared_d;
  alignas(8) float f2[2];   // atomicAdd(float2*) needs 8-byte alignment
  alignas(16) float f4[4];  // atomicAdd(float4*) needs 16-byte alignment
  __nv_bfloat16 bf[kHalfBins];
  __half h[kHalfBins];
  __half2 h2[kHalfBins];
};

__device__ float atomic_min_float(float* addr, float v) {
  int* ia = reinterpret_cast<int*>(addr);
  int old = *ia;
  while (__int_as_float(old) > v) {
    int assumed = old;
    old = atomicCAS(ia, assumed, __float_as_int(v));
    if (old == assumed) break;
  }
  return __int_as_float(old);
}

__device__ double atomic_max_double(double* addr, double v) {
  unsigned long long* ua = reinterpret_cast<unsigned long long*>(addr);
  unsigned long long old = *ua;
  while (__longlong_as_double((long long)old) < v) {
    unsigned long long assumed = old;
    old = atomicCAS(ua, assumed, (unsigned long long)__double_as_longlong(v));
    if (old == assumed) break;
  }
  return __longlong_as_double((long long)old);
}

__global__ void histogram(const unsigned* in, int n, unsigned* hist) {
  __shared__ unsigned sh[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) sh[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sh[in[i] & (kBins - 1)], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&hist[b], sh[b]);
}

__global__ void all_atomics(const unsigned* in, int n, Counters* g) {
  __shared__ int s_add, s_min, s_max, s_xor, s_cas;
  __shared__ unsigned s_inc, s_and, s_or;
  __shared__ unsigned long long s_ull;
  __shared__ float s_f;
  __shared__ double s_d;
  if (threadIdx.x == 0) {
    s_add = 0; s_min = 0x7fffffff; s_max = (int)0x80000000; s_xor = 0; s_cas = 0;
    s_inc = 0; s_and = 0xffffffffu; s_or = 0; s_ull = 0; s_f = 0.f; s_d = 0.0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned x = in[i];
    int sx = (int)(x & 0xfffff) - 0x80000;
    // 32-bit signed / unsigned.
    atomicAdd(&g->iadd, sx);
    atomicSub(&g->isub, (int)(x & 0xff));
    atomicMin(&g->imin, sx);
    atomicMax(&g->imax, sx);
    atomicAnd(&g->iand, (int)(x | 0x0ff00000u));
    atomicOr(&g->ior, (int)(x & 0x00ff00ffu));
    atomicXor(&g->ixor, (int)x);
    atomicAdd(&g->uadd, x & 0xfff);
    atomicSub(&g->usub, x & 0xf);
    atomicMin(&g->umin, x | 0x100u);
    atomicMax(&g->umax, x >> 3);
    atomicAnd(&g->uand, ~(1u << (x % 31)));
    atomicOr(&g->uor, 1u << (x % 29));
    atomicXor(&g->uxor, x * 2654435761u);
    atomicInc(&g->uinc, 1000u);
    atomicDec(&g->udec, 1000u);
    // 64-bit.
    long long lx = (long long)sx * 1000003LL;
    unsigned long long ux = ((unsigned long long)x << 32) | (x * 40503u);
    atomicMin(&g->llmin, lx);
    atomicMax(&g->llmax, lx);
    atomicAdd(&g->ulladd, (unsigned long long)x << 20);
    atomicMin(&g->ullmin, ux);
    atomicMax(&g->ullmax, ux);
    atomicAnd(&g->ulland, ux | 0xffff0000ffff0000ull);
    atomicOr(&g->ullor, ux & 0x00ff00ff00ff00ffull);
    atomicXor(&g->ullxor, ux);
    // Floating point: multiples of 0.25 / 0.5 with small totals sum exactly in any order.
    atomicAdd(&g->fadd, (float)(x & 3) * 0.25f);
    atomicAdd(&g->dadd, (double)(x & 0xffff) * 0.5);
    atomic_min_float(&g->fmin_cas, (float)(x & 0xfffff) * 0.5f - 1000.0f);
    atomic_max_double(&g->dmax_cas, (double)x * 0.125);
    // Exchange: the returned olds plus the final value conserve the written sum.
    atomicAdd(&g->exch_sum_i, (unsigned long long)atomicExch(&g->iexch, i + 1));
    atomicAdd(&g->exch_sum_u, (unsigned long long)atomicExch(&g->uexch, (unsigned)(i + 1)));
    atomicAdd(&g->exch_sum_ull, atomicExch(&g->ullexch, (unsigned long long)(i + 1)));
    atomicAdd(&g->exch_sum_f, (double)atomicExch(&g->fexch, (float)(i + 1)));
    // CAS loops on a subset of threads (heavy contention on one address).
    if ((i & 63) == 0) {
      int old = g->cas_counter, assumed;
      do { assumed = old; old = atomicCAS(&g->cas_counter, assumed, assumed + 1); } while (old != assumed);
      unsigned long long o64 = g->ullcas, a64;
      do { a64 = o64; o64 = atomicCAS(&g->ullcas, a64, a64 + 3); } while (o64 != a64);
      unsigned short o16 = g->us_cas, a16;
      do { a16 = o16; o16 = atomicCAS(&g->us_cas, a16, (unsigned short)(a16 + 1)); } while (o16 != a16);
      unsigned long long os = g->sys_cas_counter, as;
      do { as = os; os = atomicCAS_system(&g->sys_cas_counter, as, as + 2); } while (os != as);
      atomicExch_block(&g->blk_exch, 42ull);
    }
    // Scoped variants.
    atomicAdd_block(&g->blk_add, 1);
    atomicAdd_system(&g->sys_add, 2);
    atomicMax_block(&g->blk_max, sx);
    atomicMin_system(&g->sys_min, sx);
    atomicInc_block(&g->blk_inc, 77u);
    atomicOr_system(&g->sys_or, 1u << (x % 17));
    atomicAnd_block(&g->blk_and, ~(1u << (x % 13)));
    atomicXor_system(&g->sys_xor, x);
    atomicAdd_system(&g->sys_fadd, 0.5f);
    atomicAdd_block(&g->blk_dadd, 0.25);
    // libcu++ atomic_ref with explicit scopes and memory orders.
    cuda::atomic_ref<int, cuda::thread_scope_device> r_add(g->ref_add_relaxed);
    r_add.fetch_add(1, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<int, cuda::thread_scope_device> r_max(g->ref_max);
    r_max.fetch_max(sx, cuda::std::memory_order_acq_rel);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> r_or(g->ref_or_block);
    r_or.fetch_or(1u << (x % 23), cuda::std::memory_order_release);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> r_sys(g->ref_add_system);
    r_sys.fetch_add(x & 0xff, cuda::std::memory_order_seq_cst);
    if ((i & 127) == 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> r_cas(g->ref_cas_counter);
      int expected = r_cas.load(cuda::std::memory_order_acquire);
      while (!r_cas.compare_exchange_weak(expected, expected + 1, cuda::std::memory_order_acq_rel,
                                          cuda::std::memory_order_acquire)) {
      }
    }
    // Half precision: small integer counts stay exact.
    if (i < 2048) {
      atomicAdd(&g->h[x % kHalfBins], __float2half(1.0f));
      atomicAdd(&g->h2[x % kHalfBins], __floats2half2_rn(1.0f, 2.0f));
    }
    if (i < 1024) atomicAdd(&g->bf[x % kHalfBins], __float2bfloat16(1.0f));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    atomicAdd(reinterpret_cast<float2*>(g->f2), make_float2(0.5f, 1.0f));
    atomicAdd(reinterpret_cast<float4*>(g->f4), make_float4(0.25f, 0.5f, 1.0f, 2.0f));
#else
    atomicAdd(&g->f2[0], 0.5f); atomicAdd(&g->f2[1], 1.0f);
    atomicAdd(&g->f4[0], 0.25f); atomicAdd(&g->f4[1], 0.5f); atomicAdd(&g->f4[2], 1.0f); atomicAdd(&g->f4[3], 2.0f);
#endif
    // Shared-memory atomics.
    atomicAdd(&s_add, sx);
    atomicMin(&s_min, sx);
    atomicMax(&s_max, sx);
    atomicXor(&s_xor, (int)x);
    atomicInc(&s_inc, 0xffffffffu);
    atomicAnd(&s_and, x | 0xf0f0f0f0u);
    atomicOr(&s_or, x & 0x0f0f0f0fu);
    atomicAdd(&s_ull, (unsigned long long)x);
    atomicAdd(&s_f, 0.5f);
    atomicAdd(&s_d, (double)(x & 0xff));
    int o = s_cas, a;
    do { a = o; o = atomicCAS(&s_cas, a, a + 1); } while (o != a);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&g->shared_add, s_add);
    atomicMin(&g->shared_min, s_min);
    atomicMax(&g->shared_max, s_max);
    atomicXor(&g->shared_xor, s_xor);
    atomicAdd(&g->shared_inc, s_inc);
    atomicAnd(&g->shared_and, s_and);
    atomicOr(&g->shared_or, s_or);
    atomicAdd(&g->shared_ull, s_ull);
    atomicAdd(&g->shared_f, s_f);
    atomicAdd(&g->shared_d, s_d);
    atomicAdd(&g->shared_cas, s_cas);
  }
}

static void init_counters(Counters& c) {
  memset(&c, 0, sizeof c);
  c.imin = 0x7fffffff; c.imax = (int)0x80000000; c.iand = -1;
  c.umin = 0xffffffffu; c.uand = 0xffffffffu;
  c.llmin = 0x7fffffffffffffffLL; c.llmax = (long long)0x8000000000000000ULL;
  c.ullmin = ~0ull; c.ulland = ~0ull;
  c.fmin_cas = 1e30f; c.dmax_cas = -1e300;
  c.blk_max = (int)0x80000000; c.sys_min = 0x7fffffff; c.blk_and = 0xffffffffu;
  c.ref_max = (int)0x80000000;
  c.shared_min = 0x7fffffff; c.shared_max = (int)0x80000000; c.shared_and = 0xffffffffu;
}

int main() {
  const int n = 1 << 18;
  const int block = 256;
  const int blocks = n / block;
  std::vector<unsigned> h(n);
  srand(99);
  for (int i = 0; i < n; ++i) h[i] = ((unsigned)rand() << 16) ^ (unsigned)rand();
  unsigned *din, *dhist;
  Counters* dc;
  Counters c, r;
  init_counters(c);
  CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dhist, kBins * sizeof(unsigned)));
  CHECK(cudaMalloc(&dc, sizeof(Counters)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dhist, 0, kBins * sizeof(unsigned)));
  CHECK(cudaMemcpy(dc, &c, sizeof c, cudaMemcpyHostToDevice));
  histogram<<<64, block>>>(din, n, dhist);
  all_atomics<<<blocks, block>>>(din, n, dc);
  CHECK(cudaGetLastError());
  std::vector<unsigned> hist(kBins);
  CHECK(cudaMemcpy(hist.data(), dhist, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost));

  // CPU reference.
  init_counters(r);
  std::vector<unsigned> rh(kBins, 0);
  double exch_written_f = 0;
  unsigned long long exch_written = 0;
  int hcount[kHalfBins] = {}, bfcount[kHalfBins] = {};
  for (int i = 0; i < n; ++i) {
    unsigned x = h[i];
    int sx = (int)(x & 0xfffff) - 0x80000;
    rh[x & (kBins - 1)]++;
    r.iadd += sx; r.isub -= (int)(x & 0xff);
    r.imin = sx < r.imin ? sx : r.imin; r.imax = sx > r.imax ? sx : r.imax;
    r.iand &= (int)(x | 0x0ff00000u); r.ior |= (int)(x & 0x00ff00ffu); r.ixor ^= (int)x;
    r.uadd += x & 0xfff; r.usub -= x & 0xf;
    unsigned um = x | 0x100u; r.umin = um < r.umin ? um : r.umin;
    r.umax = (x >> 3) > r.umax ? (x >> 3) : r.umax;
    r.uand &= ~(1u << (x % 31)); r.uor |= 1u << (x % 29); r.uxor ^= x * 2654435761u;
    r.uinc = r.uinc >= 1000u ? 0 : r.uinc + 1;
    r.udec = (r.udec == 0 || r.udec > 1000u) ? 1000u : r.udec - 1;
    long long lx = (long long)sx * 1000003LL;
    unsigned long long ux = ((unsigned long long)x << 32) | (x * 40503u);
    r.llmin = lx < r.llmin ? lx : r.llmin; r.llmax = lx > r.llmax ? lx : r.llmax;
    r.ulladd += (unsigned long long)x << 20;
    r.ullmin = ux < r.ullmin ? ux : r.ullmin; r.ullmax = ux > r.ullmax ? ux : r.ullmax;
    r.ulland &= ux | 0xffff0000ffff0000ull; r.ullor |= ux & 0x00ff00ff00ff00ffull; r.ullxor ^= ux;
    r.fadd += (float)(x & 3) * 0.25f;
    r.dadd += (double)(x & 0xffff) * 0.5;
    float fm = (float)(x & 0xfffff) * 0.5f - 1000.0f; r.fmin_cas = fm < r.fmin_cas ? fm : r.fmin_cas;
    double dm = (double)x * 0.125; r.dmax_cas = dm > r.dmax_cas ? dm : r.dmax_cas;
    exch_written += (unsigned long long)(i + 1);
    exch_written_f += (double)(float)(i + 1);
    if ((i & 63) == 0) {
      r.cas_counter++; r.ullcas += 3; r.us_cas++; r.sys_cas_counter += 2; r.blk_exch = 42;
    }
    r.blk_add += 1; r.sys_add += 2;
    r.blk_max = sx > r.blk_max ? sx : r.blk_max; r.sys_min = sx < r.sys_min ? sx : r.sys_min;
    r.blk_inc = r.blk_inc >= 77u ? 0 : r.blk_inc + 1;
    r.sys_or |= 1u << (x % 17); r.blk_and &= ~(1u << (x % 13)); r.sys_xor ^= x;
    r.sys_fadd += 0.5f; r.blk_dadd += 0.25;
    r.ref_add_relaxed += 1;
    r.ref_max = sx > r.ref_max ? sx : r.ref_max;
    r.ref_or_block |= 1u << (x % 23);
    r.ref_add_system += x & 0xff;
    if ((i & 127) == 0) r.ref_cas_counter++;
    if (i < 2048) hcount[x % kHalfBins]++;
    if (i < 1024) bfcount[x % kHalfBins]++;
    r.shared_add += sx;
    r.shared_min = sx < r.shared_min ? sx : r.shared_min;
    r.shared_max = sx > r.shared_max ? sx : r.shared_max;
    r.shared_xor ^= (int)x;
    r.shared_and &= x | 0xf0f0f0f0u; r.shared_or |= x & 0x0f0f0f0fu;
    r.shared_ull += x; r.shared_f += 0.5f; r.shared_d += (double)(x & 0xff);
    r.shared_cas += 1;
  }
  r.shared_inc = n;  // per-block atomicInc with limit 0xffffffff never wraps; block counts are summed
  int bad = 0;
#define EXPECT_EQ(field) do { if (memcmp(&c.field, &r.field, sizeof c.field) != 0) { ++bad; printf("mismatch: " #field "\n"); } } while (0)
  EXPECT_EQ(iadd); EXPECT_EQ(isub); EXPECT_EQ(imin); EXPECT_EQ(imax); EXPECT_EQ(iand); EXPECT_EQ(ior); EXPECT_EQ(ixor);
  EXPECT_EQ(uadd); EXPECT_EQ(usub); EXPECT_EQ(umin); EXPECT_EQ(umax); EXPECT_EQ(uand); EXPECT_EQ(uor); EXPECT_EQ(uxor);
  EXPECT_EQ(uinc); EXPECT_EQ(udec);
  EXPECT_EQ(llmin); EXPECT_EQ(llmax);
  EXPECT_EQ(ulladd); EXPECT_EQ(ullmin); EXPECT_EQ(ullmax); EXPECT_EQ(ulland); EXPECT_EQ(ullor); EXPECT_EQ(ullxor);
  EXPECT_EQ(ullcas); EXPECT_EQ(fadd); EXPECT_EQ(fmin_cas); EXPECT_EQ(dadd); EXPECT_EQ(dmax_cas);
  EXPECT_EQ(cas_counter); EXPECT_EQ(us_cas);
  EXPECT_EQ(blk_add); EXPECT_EQ(sys_add); EXPECT_EQ(blk_max); EXPECT_EQ(sys_min); EXPECT_EQ(blk_inc);
  EXPECT_EQ(sys_or); EXPECT_EQ(blk_and); EXPECT_EQ(sys_xor); EXPECT_EQ(sys_cas_counter); EXPECT_EQ(blk_exch);
  EXPECT_EQ(sys_fadd); EXPECT_EQ(blk_dadd);
  EXPECT_EQ(ref_add_relaxed); EXPECT_EQ(ref_max); EXPECT_EQ(ref_cas_counter); EXPECT_EQ(ref_or_block); EXPECT_EQ(ref_add_system);
  EXPECT_EQ(shared_add); EXPECT_EQ(shared_min); EXPECT_EQ(shared_max); EXPECT_EQ(shared_xor); EXPECT_EQ(shared_inc);
  EXPECT_EQ(shared_and); EXPECT_EQ(shared_or); EXPECT_EQ(shared_ull); EXPECT_EQ(shared_f); EXPECT_EQ(shared_d);
  EXPECT_EQ(shared_cas);
  // Exchange conservation: sum(returned olds) + final == initial (0) + sum(written).
  if (c.exch_sum_i + (unsigned long long)c.iexch != exch_written) { ++bad; printf("mismatch: exch int\n"); }
  if (c.exch_sum_u + (unsigned long long)c.uexch != exch_written) { ++bad; printf("mismatch: exch unsigned\n"); }
  if (c.exch_sum_ull + c.ullexch != exch_written) { ++bad; printf("mismatch: exch ull\n"); }
  if (c.exch_sum_f + (double)c.fexch != exch_written_f) { ++bad; printf("mismatch: exch float\n"); }
  float f2ref[2] = {0.5f * n, 1.0f * n}, f4ref[4] = {0.25f * n, 0.5f * n, 1.0f * n, 2.0f * n};
  for (int k = 0; k < 2; ++k) if (c.f2[k] != f2ref[k]) { ++bad; printf("mismatch: f2[%d]\n", k); }
  for (int k = 0; k < 4; ++k) if (c.f4[k] != f4ref[k]) { ++bad; printf("mismatch: f4[%d]\n", k); }
  for (int k = 0; k < kHalfBins; ++k) {
    if (__half2float(c.h[k]) != (float)hcount[k]) { ++bad; printf("mismatch: half bin %d\n", k); }
    float2 h2 = __half22float2(c.h2[k]);
    if (h2.x != (float)hcount[k] || h2.y != 2.0f * hcount[k]) { ++bad; printf("mismatch: half2 bin %d\n", k); }
    if (__bfloat162float(c.bf[k]) != (float)bfcount[k]) { ++bad; printf("mismatch: bf16 bin %d\n", k); }
  }
  unsigned long long hsum = 0;
  for (int b = 0; b < kBins; ++b) {
    if (hist[b] != rh[b]) { ++bad; printf("mismatch: hist bin %d\n", b); }
    hsum += hist[b] * (unsigned long long)(b + 1);
  }
  printf("atomics: n=%d hist_weighted=%llu iadd=%d umax=%u ulladd=%llu fadd=%.2f dadd=%.1f uinc=%u udec=%u cas=%d %s\n",
         n, hsum, c.iadd, c.umax, c.ulladd, c.fadd, c.dadd, c.uinc, c.udec, c.cas_counter, bad ? "FAIL" : "PASS");
  cudaFree(din); cudaFree(dhist); cudaFree(dc);
  return bad ? 1 : 0;
}
