// SIMD video intrinsics (issue 15 item 5): __vadd2/4, __vsub2/4, __vabsdiff{s,u}2/4, __vsad{s,u}2/4,
// __usad/__sad, __vmax/__vmin{s,u}2/4, __vavg/__vhadd, saturating __vaddss/us, __vsubss/us, the
// compare/set forms and __vabs/__vneg, on sampled inputs (fixed seed plus byte/half-word edge
// values), plus inline PTX video instructions with selectors, masks and accumulate that nvcc does
// not emit itself (vadd4 .sat / .add with lane selects, vmax2 merge, vset4.add, scalar vadd with
// .b/.h part selects and a secondary op, vshl .wrap). nvcc 13 lowers most intrinsics to plain
// integer code (add.s16x2 on sm_90) and keeps vabsdiff4/vabsdiff2 .add for the sad forms. Every
// result is compared with a CPU model and summed into an exact checksum per intrinsic.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kOps = 44;

__device__ unsigned asm_ops(int k, unsigned a, unsigned b, unsigned c) {
  unsigned r = 0;
  switch (k) {
  case 0: asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 1: asm("vadd4.s32.s32.s32.add %0, %1.b0123, %2.b7351, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 2: asm("vmax2.s32.u32.s32 %0.h1, %1, %2.h20, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 3: asm("vset4.u32.u32.lt.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 4: asm("vadd.u32.u32.s32.sat.add %0, %1.b1, %2.h1, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 5: asm("vabsdiff.s32.s32.s32 %0.b2, %1.h0, %2.b3, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 6: asm("vshl.u32.u32.u32.wrap %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); break;
  case 7: asm("vsub2.s32.s32.s32.sat %0.h0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 8: asm("vavrg4.s32.s32.s32 %0.b31, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  case 9: asm("vmin.s32.u32.s32.max %0, %1.h1, %2.b0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
  }
  return r;
}

__global__ void video(const unsigned* A, const unsigned* B, const unsigned* Cc, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = A[i], b = B[i], c = Cc[i];
  unsigned* o = out + (size_t)i * kOps;
  int k = 0;
  o[k++] = __vadd2(a, b);      o[k++] = __vadd4(a, b);      o[k++] = __vsub2(a, b);      o[k++] = __vsub4(a, b);
  o[k++] = __vabsdiffu2(a, b); o[k++] = __vabsdiffu4(a, b); o[k++] = __vabsdiffs2(a, b); o[k++] = __vabsdiffs4(a, b);
  o[k++] = __vsadu2(a, b);     o[k++] = __vsadu4(a, b);     o[k++] = __vsads2(a, b);     o[k++] = __vsads4(a, b);
  o[k++] = __usad(a, b, c);    o[k++] = __sad((int)a, (int)b, c);
  o[k++] = __vmaxs2(a, b);     o[k++] = __vmaxu2(a, b);     o[k++] = __vmins4(a, b);     o[k++] = __vminu4(a, b);
  o[k++] = __vavgu4(a, b);     o[k++] = __vavgs2(a, b);     o[k++] = __vhaddu4(a, b);    o[k++] = __vhaddu2(a, b);
  o[k++] = __vaddss4(a, b);    o[k++] = __vaddus2(a, b);    o[k++] = __vsubss2(a, b);    o[k++] = __vsubus4(a, b);
  o[k++] = __vcmpeq4(a, b);    o[k++] = __vcmpgtu2(a, b);   o[k++] = __vcmplts4(a, b);   o[k++] = __vsetgeu4(a, b);
  o[k++] = __vabs4(a);         o[k++] = __vabsss2(a);       o[k++] = __vneg4(a);         o[k++] = __vnegss2(a);
  for (int j = 0; j < 10; ++j) o[k++] = asm_ops(j, a, b, c);
}

// ---- CPU models (PTX ISA semantics) ----
static int lane(unsigned v, int i, int E, bool s) {
  unsigned u = (v >> (i * E)) & ((1u << E) - 1);
  return s && (u >> (E - 1)) ? (int)u - (1 << E) : (int)u;
}
static unsigned put(unsigned v, int i, int E, long long x) { return v | (unsigned)((x & ((1ll << E) - 1)) << (i * E)); }
static long long clampv(long long x, int E, bool s) {
  long long lo = s ? -(1ll << (E - 1)) : 0, hi = s ? (1ll << (E - 1)) - 1 : (1ll << E) - 1;
  return x < lo ? lo : x > hi ? hi : x;
}
enum Op { ADD, SUB, ABSD, MIN, MAX, AVG, HADD, SET_EQ, SET_GT, SET_LT, SET_GE };
static long long op1(Op op, long long x, long long y) {
  switch (op) {
  case ADD: return x + y;
  case SUB: return x - y;
  case ABSD: return x > y ? x - y : y - x;
  case MIN: return x < y ? x : y;
  case MAX: return x > y ? x : y;
  case AVG: return (x + y + 1) >> 1;
  case HADD: return (x + y) >> 1;
  case SET_EQ: return x == y;
  case SET_GT: return x > y;
  case SET_LT: return x < y;
  case SET_GE: return x >= y;
  }
  return 0;
}
// simd(op, N lanes, signed, sat) ; cmp ops give all-ones lanes when 'mask' (vcmp*) or 1 (vset*)
static unsigned simd(Op op, unsigned a, unsigned b, int N, bool s, bool sat, int cmpAll = 0) {
  int E = 32 / N;
  unsigned r = 0;
  for (int i = 0; i < N; ++i) {
    long long t = op1(op, lane(a, i, E, s), lane(b, i, E, s));
    if (cmpAll) t = t ? (cmpAll == 2 ? -1 : 1) : 0;
    if (sat) t = clampv(t, E, s);
    r = put(r, i, E, t);
  }
  return r;
}
static unsigned sad(unsigned a, unsigned b, int N, bool s) {
  int E = 32 / N;
  unsigned r = 0;
  for (int i = 0; i < N; ++i) r += (unsigned)op1(ABSD, lane(a, i, E, s), lane(b, i, E, s));
  return r;
}
static unsigned un(unsigned a, int N, bool neg, bool sat) {
  int E = 32 / N;
  unsigned r = 0;
  for (int i = 0; i < N; ++i) {
    long long x = lane(a, i, E, true), t = neg ? -x : (x < 0 ? -x : x);
    if (sat) t = clampv(t, E, true);
    r = put(r, i, E, t);
  }
  return r;
}
static long long part(unsigned v, int sel, bool h, bool s) { // byte/half part, or word (sel < 0)
  if (sel < 0) return s ? (long long)(int)v : (long long)v;
  return lane(v, sel, h ? 16 : 8, s);
}
static unsigned model(int k, unsigned a, unsigned b, unsigned c) {
  switch (k) {
  case 0: return simd(ADD, a, b, 2, false, false);
  case 1: return simd(ADD, a, b, 4, false, false);
  case 2: return simd(SUB, a, b, 2, false, false);
  case 3: return simd(SUB, a, b, 4, false, false);
  case 4: return simd(ABSD, a, b, 2, false, false);
  case 5: return simd(ABSD, a, b, 4, false, false);
  case 6: return simd(ABSD, a, b, 2, true, false);
  case 7: return simd(ABSD, a, b, 4, true, false);
  case 8: return sad(a, b, 2, false);
  case 9: return sad(a, b, 4, false);
  case 10: return sad(a, b, 2, true);
  case 11: return sad(a, b, 4, true);
  case 12: return (a > b ? a - b : b - a) + c;
  case 13: return (unsigned)((int)a > (int)b ? (long long)(int)a - (int)b : (long long)(int)b - (int)a) + c;
  case 14: return simd(MAX, a, b, 2, true, false);
  case 15: return simd(MAX, a, b, 2, false, false);
  case 16: return simd(MIN, a, b, 4, true, false);
  case 17: return simd(MIN, a, b, 4, false, false);
  case 18: return simd(AVG, a, b, 4, false, false);
  case 19: { // __vavgs2: signed average rounded away from zero... per CUDA: (a+b+((a+b)>=0))>>1
    unsigned r = 0;
    for (int i = 0; i < 2; ++i) {
      long long s = (long long)lane(a, i, 16, true) + lane(b, i, 16, true);
      r = put(r, i, 16, (s + (s >= 0 ? 1 : 0)) >> 1);
    }
    return r;
  }
  case 20: return simd(HADD, a, b, 4, false, false);
  case 21: return simd(HADD, a, b, 2, false, false);
  case 22: return simd(ADD, a, b, 4, true, true);
  case 23: return simd(ADD, a, b, 2, false, true);
  case 24: return simd(SUB, a, b, 2, true, true);
  case 25: return simd(SUB, a, b, 4, false, true);
  case 26: return simd(SET_EQ, a, b, 4, false, false, 2);
  case 27: return simd(SET_GT, a, b, 2, false, false, 2);
  case 28: return simd(SET_LT, a, b, 4, true, false, 2);
  case 29: return simd(SET_GE, a, b, 4, false, false, 1);
  case 30: return un(a, 4, false, false);
  case 31: return un(a, 2, false, true);
  case 32: return un(a, 4, true, false);
  case 33: return un(a, 2, true, true);
  // inline PTX (see asm_ops)
  case 34: return simd(ADD, a, b, 4, false, true);
  case 35: { // vadd4.s32.s32.s32.add d, a.b0123, b.b7351, c: lane i <- a byte (3-i), b byte sel
    const int sb[4] = {1, 5, 3, 7}; // digits b7351 written msb first: lane3<-7, lane2<-3, lane1<-5, lane0<-1
    unsigned long long ab = ((unsigned long long)b << 32) | a;
    long long d = (int)c;
    for (int i = 0; i < 4; ++i) {
      int x = (int)(signed char)(ab >> (8 * (3 - i))), y = (int)(signed char)(ab >> (8 * sb[i]));
      d += x + y;
    }
    return (unsigned)d;
  }
  case 36: { // vmax2.s32.u32.s32 d.h1, a, b.h20, c: lane1 = max(u a.h1, s {b,a}.h2 = b.h0); lane0 <- c.h0
    unsigned long long ab = ((unsigned long long)b << 32) | a;
    long long x = (ab >> 16) & 0xffff, y = (short)(ab >> 32);
    return put(c & 0xffffu, 1, 16, x > y ? x : y);
  }
  case 37: { unsigned d = c; for (int i = 0; i < 4; ++i) d += lane(a, i, 8, false) < lane(b, i, 8, false); return d; }
  case 38: { // vadd.u32.u32.s32.sat.add d, a.b1, b.h1, c
    long long t = part(a, 1, false, false) + part(b, 1, true, true);
    t = t < 0 ? 0 : t > 0xffffffffll ? 0xffffffffll : t;
    return (unsigned)(t + c);
  }
  case 39: { // vabsdiff.s32.s32.s32 d.b2, a.h0, b.b3, c: merge into byte 2 of c (wraps)
    long long x = part(a, 0, true, true), y = part(b, 3, false, true), t = x > y ? x - y : y - x;
    return (c & ~0xff0000u) | ((unsigned)(t & 0xff) << 16);
  }
  case 40: return a << (b & 31);
  case 41: { // vsub2.s32.s32.s32.sat d.h0, a, b, c: lane0 saturated, lane1 <- c
    long long t = clampv((long long)lane(a, 0, 16, true) - lane(b, 0, 16, true), 16, true);
    return put(c & 0xffff0000u, 0, 16, t);
  }
  case 42: { // vavrg4.s32 d.b31: lanes 3 and 1 averaged, 2 and 0 from c
    unsigned r = c & 0x00ff00ffu;
    for (int i = 1; i < 4; i += 2) {
      long long s = (long long)lane(a, i, 8, true) + lane(b, i, 8, true);
      r = put(r, i, 8, s >= 0 ? (s + 1) >> 1 : s >> 1);
    }
    return r;
  }
  case 43: { // vmin.s32.u32.s32.max d, a.h1, b.b0, c: max(min(u a.h1, s b.b0), s c)
    long long x = part(a, 1, true, false), y = part(b, 0, false, true), t = x < y ? x : y;
    int ti = (int)t, ci = (int)c;
    return (unsigned)(ti > ci ? ti : ci);
  }
  }
  return 0;
}

int main() {
  std::vector<unsigned> A, B, Cc;
  const unsigned edges[] = {0u, 1u, 0x7fu, 0x80u, 0xffu, 0x7f7f7f7fu, 0x80808080u, 0xffffffffu, 0x7fff7fffu,
                            0x80008000u, 0x00ff00ffu, 0xff00ff00u, 0x01020304u, 0xfefdfcfbu, 0x8000ffffu, 0x7fff0001u};
  for (unsigned x : edges)
    for (unsigned y : edges) { A.push_back(x); B.push_back(y); Cc.push_back(x ^ (y >> 3)); }
  unsigned long long s = 0x5eed5eedull;
  for (int i = 0; i < 1792; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull; A.push_back((unsigned)(s >> 32));
    s = s * 6364136223846793005ull + 1442695040888963407ull; B.push_back((unsigned)(s >> 32));
    s = s * 6364136223846793005ull + 1442695040888963407ull; Cc.push_back((unsigned)(s >> 32));
  }
  const int n = (int)A.size();
  unsigned *da, *db, *dc, *dout;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dc, n * 4));
  CHECK(cudaMalloc(&dout, (size_t)n * kOps * 4));
  CHECK(cudaMemcpy(da, A.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, B.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, Cc.data(), n * 4, cudaMemcpyHostToDevice));
  video<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> o((size_t)n * kOps);
  CHECK(cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost));
  int bad_total = 0;
  for (int k = 0; k < kOps; ++k) {
    unsigned long long chk = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      unsigned g = o[(size_t)i * kOps + k];
      chk = (chk * 1000003ull + g) & 0xffffffffffffull;
      if (g != model(k, A[i], B[i], Cc[i])) {
        if (bad++ < 3)
          fprintf(stderr, "op %d row %d: a=%08x b=%08x c=%08x got %08x model %08x\n", k, i, A[i], B[i], Cc[i], g,
                  model(k, A[i], B[i], Cc[i]));
      }
    }
    printf("op %2d checksum %012llx model_mismatches %d\n", k, chk, bad);
    bad_total += bad;
  }
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dout);
  printf("simd_video: %s\n", bad_total == 0 ? "PASS" : "FAIL");
  return bad_total == 0 ? 0 : 1;
}
