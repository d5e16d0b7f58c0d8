// Inline PTX assembly as CUDA programmers write it: lop3.b32, prmt.b32, bfe/bfi, brev, bfind, popc,
// 64-bit multi-word add with carry (add.cc/addc.cc/addc), mul.hi/mul.wide/mad.lo, shf.l.wrap,
// special registers (%laneid, %warpid, %lanemask_lt, %clock64), scoped { } blocks declaring their
// own .reg and .pred, predicated instructions with setp/selp, ld.global.nc/st.global.cg cache
// hints, a "memory" clobber, vector ld.global.v4, and cvt.rni/cvt.rzi. Checked against C++
// equivalents on the CPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

struct Out {
  unsigned lop, prmt, bfe, bfi, brev, bfind, popc, shf, mulhi, madlo, clamp, lanemask_ok;
  unsigned long long wide, sum_lo, sum_hi;
  int rni, rzi, lane, zero_pad;  // no implicit padding: the host memcmp()s whole records
};

__device__ __forceinline__ unsigned lop3_xor_and(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  // (a ^ b) & c  -> LUT = (0xF0 ^ 0xCC) & 0xAA = 0x28
  asm("lop3.b32 %0, %1, %2, %3, 0x28;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

__global__ void asm_kernel(const unsigned* in, const float* fin, Out* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a, b, c;
  // Non-coherent load and vector load through inline asm.
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(a) : "l"(in + i));
  uint4 q;
  const unsigned* base = in + (i & ~3);
  asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "l"(base));
  b = q.x ^ q.w;
  c = q.y + q.z;
  Out o;
  o.lop = lop3_xor_and(a, b, c);
  asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(o.prmt) : "r"(a), "r"(b));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(o.bfe) : "r"(a), "r"(i & 15), "r"(9));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(o.bfi) : "r"(b), "r"(a), "r"(8), "r"(12));
  asm("brev.b32 %0, %1;" : "=r"(o.brev) : "r"(a));
  asm("bfind.u32 %0, %1;" : "=r"(o.bfind) : "r"(a));
  asm("popc.b32 %0, %1;" : "=r"(o.popc) : "r"(a));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(o.shf) : "r"(a), "r"(b), "r"(i & 31));
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(o.mulhi) : "r"(a), "r"(b));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(o.madlo) : "r"(a), "r"(b), "r"(c));
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(o.wide) : "r"(a), "r"(c));
  // 128-bit add (a:b:c:i) + (c:a:b:a) with the carry chain.
  unsigned r0, r1, r2, r3;
  asm("add.cc.u32 %0, %4, %8;\n\t"
      "addc.cc.u32 %1, %5, %9;\n\t"
      "addc.cc.u32 %2, %6, %10;\n\t"
      "addc.u32 %3, %7, %11;"
      : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
      : "r"((unsigned)i), "r"(c), "r"(b), "r"(a), "r"(a), "r"(b), "r"(a), "r"(c));
  o.sum_lo = ((unsigned long long)r1 << 32) | r0;
  o.sum_hi = ((unsigned long long)r3 << 32) | r2;
  // Scoped block with its own predicate and register: clamp a to [1000, 2^31).
  asm("{\n\t"
      ".reg .pred p, q;\n\t"
      ".reg .u32 t;\n\t"
      "setp.lt.u32 p, %1, 1000;\n\t"
      "setp.ge.u32 q, %1, 0x80000000;\n\t"
      "selp.u32 t, 1000, %1, p;\n\t"
      "@q mov.u32 t, 0x7fffffff;\n\t"
      "mov.u32 %0, t;\n\t"
      "}"
      : "=r"(o.clamp) : "r"(a));
  unsigned lane, lt;
  long long clk;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(clk));
  o.lane = (int)lane;
  o.zero_pad = 0;
  o.lanemask_ok = (lt == ((1u << lane) - 1u)) && clk != 0;
  float f = fin[i];
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(o.rni) : "f"(f));
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(o.rzi) : "f"(f));
  asm volatile("membar.gl;" ::: "memory");
  // Store with a cache hint through asm, one word at a time.
  const unsigned* src = reinterpret_cast<const unsigned*>(&o);
  unsigned* dst = reinterpret_cast<unsigned*>(out + i);
  for (int k = 0; k < (int)(sizeof(Out) / 4); ++k) asm volatile("st.global.cg.u32 [%0], %1;" :: "l"(dst + k), "r"(src[k]) : "memory");
}

static unsigned cpu_prmt(unsigned a, unsigned b, unsigned sel) {
  unsigned long long x = ((unsigned long long)b << 32) | a;
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) {
    unsigned s = (sel >> (4 * k)) & 7;  // msb (sign replicate) not used by 0x5140
    r |= (unsigned)((x >> (8 * s)) & 0xff) << (8 * k);
  }
  return r;
}

int main() {
  const int n = 16384;
  std::vector<unsigned> in(n);
  std::vector<float> fin(n);
  srand(4096);
  for (int i = 0; i < n; ++i) {
    in[i] = ((unsigned)rand() << 17) ^ ((unsigned)rand() << 3) ^ (unsigned)rand();
    fin[i] = (float)(rand() % 20001 - 10000) / 8.0f;  // many exact .5 ties for cvt.rni
  }
  unsigned* din;
  float* dfin;
  Out* dout;
  CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dfin, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfin, fin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  asm_kernel<<<n / 128, 128>>>(din, dfin, dout, n);
  CHECK(cudaGetLastError());
  std::vector<Out> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  int bad = 0;
  unsigned long long cs = 0;
  for (int i = 0; i < n; ++i) {
    unsigned a = in[i];
    const unsigned* q = &in[i & ~3];
    unsigned b = q[0] ^ q[3], c = q[1] + q[2];
    Out r;
    memset(&r, 0, sizeof r);
    r.lop = (a ^ b) & c;
    r.prmt = cpu_prmt(a, b, 0x5140);
    r.bfe = (a >> (i & 15)) & 0x1ff;
    unsigned mask = ((1u << 12) - 1u) << 8;
    r.bfi = (a & ~mask) | ((b << 8) & mask);  // bfi d, f=b, base=a, pos 8, len 12
    r.brev = 0;
    for (int k = 0; k < 32; ++k) r.brev |= ((a >> k) & 1u) << (31 - k);
    r.bfind = 0xffffffffu;
    for (int k = 31; k >= 0; --k) if ((a >> k) & 1u) { r.bfind = k; break; }
    r.popc = __builtin_popcount(a);
    int sh = i & 31;
    r.mulhi = (unsigned)(((unsigned long long)a * b) >> 32);
    r.madlo = a * b + c;
    r.wide = (unsigned long long)a * c;
    unsigned x[4] = {(unsigned)i, c, b, a}, y[4] = {a, b, a, c}, s[4];
    unsigned long long carry = 0;
    for (int k = 0; k < 4; ++k) { unsigned long long t = (unsigned long long)x[k] + y[k] + carry; s[k] = (unsigned)t; carry = t >> 32; }
    r.sum_lo = ((unsigned long long)s[1] << 32) | s[0];
    r.sum_hi = ((unsigned long long)s[3] << 32) | s[2];
    r.clamp = a < 1000 ? 1000 : (a >= 0x80000000u ? 0x7fffffffu : a);
    r.lane = i & 31;
    r.lanemask_ok = 1;
    float f = fin[i];
    r.rni = (int)nearbyintf(f);
    r.rzi = (int)f;
    // shf.l.wrap d, a, b, n: d = high 32 bits of ({b:a} << (n & 31)), with b the high word.
    unsigned long long hl = ((unsigned long long)b << 32) | a;
    r.shf = (unsigned)((hl << sh) >> 32);
    static const char* const kFields[] = {"lop", "prmt", "bfe", "bfi", "brev", "bfind", "popc", "shf", "mulhi",
                                          "madlo", "clamp", "lanemask_ok"};
    if (memcmp(&r, &o[i], sizeof r) != 0) {
      if (bad < 5) {
        const unsigned* pr = reinterpret_cast<const unsigned*>(&r);
        const unsigned* po = reinterpret_cast<const unsigned*>(&o[i]);
        for (int k = 0; k < (int)(sizeof(Out) / 4); ++k)
          if (pr[k] != po[k])
            printf("mismatch at %d: word %d (%s) device=%08x expected=%08x\n", i, k, k < 12 ? kFields[k] : "later field",
                   po[k], pr[k]);
      }
      ++bad;
    }
    cs += o[i].lop ^ o[i].prmt ^ o[i].sum_hi ^ o[i].shf;
  }
  printf("inline_asm: n=%d xor_checksum=%llu mismatches=%d %s\n", n, cs, bad, bad ? "FAIL" : "PASS");
  cudaFree(din); cudaFree(dfin); cudaFree(dout);
  return bad ? 1 : 0;
}
