// approx_error.cu -- measure the error of NVIDIA's approximate PTX instructions on a real GPU.
//
//   nvcc -O2 -std=c++17 -arch=sm_90 approx_error.cu -o approx_error && ./approx_error > approx_error.txt
//
// For every f32 unary `.approx` form the kernel evaluates the instruction on ALL 2^32 input bit
// patterns (NaN/inf inputs excluded: the golden tables check specials bit for bit) and compares the
// result with a double-precision reference computed on the same GPU. div.approx/div.full f32 use
// 2^30 seeded random pairs (splitmix64) with a, b normal and |b| in [2^-126, 2^126]; the f64 approx
// forms use 2^28 seeded random inputs. Reported per form:
//   ulp      max |y - ref| in units of the f32 (f64) ulp of ref, over inputs whose reference is a
//            normal number (the ulp is 2^(exponent(ref) - 23), resp. - 52);
//   abs      max |y - ref| over the same inputs (the ISA states sin/cos/lg2 bounds as absolute errors);
//   rel      max |y - ref| / |ref| as log2;
//   gt1/gt2  how many inputs are more than 1 / 2 ulp off; arg: one input reaching `ulp`;
//   mism     inputs whose reference is inf/0/subnormal in f32 but the result differs in class
//            (inf vs finite, zero vs non-zero) -- a count, listed so a reader sees the edges.
// Inputs that are subnormal are skipped for .ftz forms (the hardware flushes them, by definition).
// The output is a plain text table; tests/golden/README.md quotes it.
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <cuda_runtime.h>

struct Stat {
  unsigned long long ulpArg;   // (float bits of max ulp error) << 32 | input bits (f32 forms)
  unsigned long long absBits;  // double bits of max abs error (non-negative doubles order as ints)
  unsigned long long relBits;  // double bits of max rel error
  unsigned long long gt1, gt2, mism, n;
  unsigned long long ulpBits64; // f64 forms: double bits of max ulp error
  unsigned long long arg64;
};

enum Op { RCP, RCP_FTZ, SQRT, SQRT_FTZ, RSQRT, RSQRT_FTZ, EX2, EX2_FTZ, LG2, LG2_FTZ, SIN, SIN_FTZ,
          COS, COS_FTZ, TANH, NUM_UNARY };
static const char *kUnaryNames[NUM_UNARY] = {
    "rcp.approx.f32", "rcp.approx.ftz.f32", "sqrt.approx.f32", "sqrt.approx.ftz.f32",
    "rsqrt.approx.f32", "rsqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32",
    "lg2.approx.f32", "lg2.approx.ftz.f32", "sin.approx.f32", "sin.approx.ftz.f32",
    "cos.approx.f32", "cos.approx.ftz.f32", "tanh.approx.f32"};

__device__ __forceinline__ float applyUnary(int op, float x) {
  float y;
  switch (op) {
  case RCP: asm("rcp.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case RCP_FTZ: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case SQRT: asm("sqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case SQRT_FTZ: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case RSQRT: asm("rsqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case RSQRT_FTZ: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case EX2: asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case EX2_FTZ: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case LG2: asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case LG2_FTZ: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case SIN: asm("sin.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case SIN_FTZ: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case COS: asm("cos.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  case COS_FTZ: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  default: asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  }
  return y;
}

__device__ __forceinline__ double refUnary(int op, double x) {
  switch (op) {
  case RCP: case RCP_FTZ: return 1.0 / x;
  case SQRT: case SQRT_FTZ: return sqrt(x);
  case RSQRT: case RSQRT_FTZ: return rsqrt(x);
  case EX2: case EX2_FTZ: return exp2(x);
  case LG2: case LG2_FTZ: return log2(x);
  case SIN: case SIN_FTZ: return sin(x);
  case COS: case COS_FTZ: return cos(x);
  default: return tanh(x);
  }
}

__device__ __forceinline__ bool isFtz(int op) {
  return op == RCP_FTZ || op == SQRT_FTZ || op == RSQRT_FTZ || op == EX2_FTZ || op == LG2_FTZ ||
         op == SIN_FTZ || op == COS_FTZ;
}

__device__ __forceinline__ unsigned long long dbits(double d) {
  return (unsigned long long)__double_as_longlong(d);
}

// Error of f32 result y against reference r (double). Returns false when r is not a normal f32.
__device__ __forceinline__ bool f32Err(float y, double r, float &ulp, double &abs, double &rel,
                                       unsigned long long &mism) {
  double ar = fabs(r);
  if (!(ar >= 1.1754943508222875e-38) || !(ar <= 3.4028234663852886e38)) {
    // Reference is 0, subnormal or beyond FLT_MAX in f32: compare the class only.
    float rf = (float)r;
    bool yinf = isinf(y), rinf = isinf(rf) || ar > 3.4028234663852886e38;
    bool yzero = y == 0.0f, rzero = rf == 0.0f;
    if (yinf != rinf || (rzero && !yzero && fabsf(y) >= 1.1754943508222875e-38f)) ++mism;
    return false;
  }
  int e;
  frexp(ar, &e); // ar = m * 2^e, m in [0.5, 1): f32 ulp = 2^(e - 24)
  double u = ldexp(1.0, e - 24);
  abs = fabs((double)y - r);
  ulp = (float)(abs / u);
  rel = abs / ar;
  return true;
}

// Per-thread maxima and counts of one f32 sweep, merged into the Stat at the end.
struct Acc {
  unsigned long long best = 0, absMax = 0, relMax = 0, gt1 = 0, gt2 = 0, mism = 0, n = 0;
  __device__ void add(float ulp, unsigned arg, double abs, double rel) {
    gt1 += ulp > 1.0f, gt2 += ulp > 2.0f;
    unsigned long long key = ((unsigned long long)__float_as_uint(ulp) << 32) | arg;
    best = key > best ? key : best;
    absMax = dbits(abs) > absMax ? dbits(abs) : absMax;
    relMax = dbits(rel) > relMax ? dbits(rel) : relMax;
  }
  __device__ void flush(Stat *s) const {
    atomicMax(&s->ulpArg, best);
    atomicMax(&s->absBits, absMax);
    atomicMax(&s->relBits, relMax);
    atomicAdd(&s->gt1, gt1);
    atomicAdd(&s->gt2, gt2);
    atomicAdd(&s->mism, mism);
    atomicAdd(&s->n, n);
  }
};

__global__ void sweepUnary(int op, Stat *s, double lo, double hi) {
  Acc acc;
  const unsigned long long total = 1ull << 32;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < total;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned bits = (unsigned)i;
    float x = __uint_as_float(bits);
    if (isnan(x) || isinf(x)) continue;
    if ((double)x < lo || (double)x > hi) continue;
    if (isFtz(op) && x != 0.0f && fabsf(x) < 1.1754943508222875e-38f) continue;
    float y = applyUnary(op, x);
    double r = refUnary(op, (double)x);
    if (isnan(r)) continue; // e.g. sqrt/lg2 of negative numbers: NaN-ness is checked by the tables
    float ulp;
    double abs, rel;
    if (!f32Err(y, r, ulp, abs, rel, acc.mism)) continue;
    ++acc.n;
    if (isnan(y)) { ++acc.mism; continue; }
    acc.add(ulp, bits, abs, rel);
  }
  acc.flush(s);
}

__device__ __forceinline__ unsigned long long splitmix64(unsigned long long &x) {
  unsigned long long z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// div.approx.f32 / div.approx.ftz.f32 / div.full.f32 / div.full.ftz.f32 on random normal pairs.
__global__ void sweepDiv(int which, Stat *s, unsigned long long count, unsigned long long seed) {
  Acc acc;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long st = seed ^ (i * 0x2545f4914f6cdd1dull);
    unsigned long long v = splitmix64(st);
    unsigned ab = (unsigned)v, bb = (unsigned)(v >> 32);
    // a: any normal; b: normal with |b| in [2^-126, 2^126].
    ab = (ab & 0x807fffffu) | ((1u + (ab >> 23) % 254u) << 23);
    bb = (bb & 0x807fffffu) | ((1u + (bb >> 23) % 252u) << 23);
    float a = __uint_as_float(ab), b = __uint_as_float(bb), y;
    switch (which) {
    case 0: asm("div.approx.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b)); break;
    case 1: asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b)); break;
    case 2: asm("div.full.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b)); break;
    default: asm("div.full.ftz.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b)); break;
    }
    double r = (double)a / (double)b;
    float ulp;
    double abs, rel;
    if (!f32Err(y, r, ulp, abs, rel, acc.mism)) continue;
    ++acc.n;
    acc.add(ulp, unsigned(i & 0xffffffffu), abs, rel);
  }
  acc.flush(s);
}

// rcp.approx.ftz.f64 / rsqrt.approx.f64 / rsqrt.approx.ftz.f64 on random positive normal doubles
// (rcp: both signs). Errors in f64 ulps of the reference (which is itself ~1 f64 ulp accurate:
// these approximations are ~2^-22 relative, far above that).
__global__ void sweepF64(int which, Stat *s, unsigned long long count, unsigned long long seed) {
  unsigned long long best = 0, bestArg = 0, relMax = 0, n = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long st = seed ^ (i * 0x9e3779b97f4a7c15ull);
    unsigned long long v = splitmix64(st);
    unsigned long long exp = 1 + (v >> 52) % 2046;
    v = (v & 0x800fffffffffffffull) | (exp << 52);
    if (which != 0) v &= ~(1ull << 63);
    double x = __longlong_as_double((long long)v), y, r;
    if (which == 0) {
      asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
      r = 1.0 / x;
    } else if (which == 1) {
      asm("rsqrt.approx.f64 %0, %1;" : "=d"(y) : "d"(x));
      r = rsqrt(x);
    } else {
      asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
      r = rsqrt(x);
    }
    double ar = fabs(r);
    if (!(ar >= 2.2250738585072014e-308) || isinf(ar)) continue;
    ++n;
    int e;
    frexp(ar, &e);
    double ulp = fabs(y - r) / ldexp(1.0, e - 53);
    double rel = fabs(y - r) / ar;
    if (dbits(ulp) > best) best = dbits(ulp), bestArg = v;
    relMax = dbits(rel) > relMax ? dbits(rel) : relMax;
  }
  // Per-thread maxima are merged with one lock-free max on the error; the argument is
  // best-effort (the last writer among equal maxima).
  unsigned long long prev = atomicMax(&s->ulpBits64, best);
  if (best > prev) s->arg64 = bestArg;
  atomicMax(&s->relBits, relMax);
  atomicAdd(&s->n, n);
}

static double asDouble(unsigned long long b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
static float asFloat(unsigned b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                     \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main() {
  Stat *d;
  CK(cudaMalloc(&d, sizeof(Stat)));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("# device %s, sm_%d%d\n", p.name, p.major, p.minor);
  printf("# form domain n ulp abs log2rel gt1 gt2 mism arg\n");
  const double kPi = 3.14159265358979323846;
  struct Dom { const char *name; double lo, hi; };
  for (int op = 0; op < NUM_UNARY; ++op) {
    Dom doms[2] = {{"all", -INFINITY, INFINITY}, {"[-pi,pi]", -kPi, kPi}};
    int nd = (op >= SIN && op <= COS_FTZ) ? 2 : 1;
    for (int di = 0; di < nd; ++di) {
      CK(cudaMemset(d, 0, sizeof(Stat)));
      sweepUnary<<<p.multiProcessorCount * 8, 256>>>(op, d, doms[di].lo, doms[di].hi);
      CK(cudaGetLastError());
      Stat s;
      CK(cudaMemcpy(&s, d, sizeof s, cudaMemcpyDeviceToHost));
      printf("%s %s %llu %.4g %.4g %.2f %llu %llu %llu 0x%08x\n", kUnaryNames[op], doms[di].name, s.n,
             asFloat(unsigned(s.ulpArg >> 32)), asDouble(s.absBits), log2(asDouble(s.relBits)), s.gt1,
             s.gt2, s.mism, unsigned(s.ulpArg));
      fflush(stdout);
    }
  }
  const char *divNames[4] = {"div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32"};
  for (int w = 0; w < 4; ++w) {
    CK(cudaMemset(d, 0, sizeof(Stat)));
    sweepDiv<<<p.multiProcessorCount * 8, 256>>>(w, d, 1ull << 30, 0x5eed0000ull + w);
    CK(cudaGetLastError());
    Stat s;
    CK(cudaMemcpy(&s, d, sizeof s, cudaMemcpyDeviceToHost));
    printf("%s random2^30 %llu %.4g %.4g %.2f %llu %llu %llu sample#%u\n", divNames[w], s.n,
           asFloat(unsigned(s.ulpArg >> 32)), asDouble(s.absBits), log2(asDouble(s.relBits)), s.gt1,
           s.gt2, s.mism, unsigned(s.ulpArg));
  }
  const char *f64Names[3] = {"rcp.approx.ftz.f64", "rsqrt.approx.f64", "rsqrt.approx.ftz.f64"};
  for (int w = 0; w < 3; ++w) {
    CK(cudaMemset(d, 0, sizeof(Stat)));
    sweepF64<<<p.multiProcessorCount * 8, 256>>>(w, d, 1ull << 28, 0xf64000ull + w);
    CK(cudaGetLastError());
    Stat s;
    CK(cudaMemcpy(&s, d, sizeof s, cudaMemcpyDeviceToHost));
    printf("%s random2^28 %llu %.4g(f64ulp) - %.2f - - - 0x%016llx\n", f64Names[w], s.n,
           asDouble(s.ulpBits64), log2(asDouble(s.relBits)), s.arg64);
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
