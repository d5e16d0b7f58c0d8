// Host check of the directed-rounding sequences emitted by ptx-to-llvm:
// dr.ptx has one .func per (operation, rounding, type); the test translates
// it, turns the IR into host code (the functions use no memory), and compares
// every result bit for bit with the host FPU under fesetround on 20000
// fixed-seed inputs per function (specials, subnormals, random bits).
// f64 mul/fma are also run on operands near the underflow/overflow edges
// (edgeOperands: products around the subnormal range or beyond 2^1024, and
// addends that cancel the product), f64 div/rcp on quotients in the subnormal
// range and f64 add/sub on operands near DBL_MAX. No row is skipped.
// The function tables (kRoundings) follow dr.ptx: one entry per .func.
// add/sub/mul/fma and cvt f32.f64 / f32.s32 are not software sequences: the
// translator emits constrained intrinsics that round in the executor's
// dynamic mode (on AMD a MODE-register island set up by amdgpu-lower, on emu
// the host mode). For them the harness runs the function under fesetround of
// its direction, as those executors do, which checks the surrounding logic
// (NaN choice, signed zeros) and that the IR asks for the right direction is
// checked by the lit tests ptx-to-llvm/float-arith.ptx, convert.ptx and
// amdgpu-lower/directed-rounding.test.
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- the translated dr.ptx functions ------------------------------------------------------
#define DECLARE_ROUNDING(r)                                                                        \
  float add_##r##_f32(float, float);                                                               \
  float sub_##r##_f32(float, float);                                                               \
  float mul_##r##_f32(float, float);                                                               \
  float fma_##r##_f32(float, float, float);                                                        \
  float div_##r##_f32(float, float);                                                               \
  float sqrt_##r##_f32(float);                                                                     \
  float rcp_##r##_f32(float);                                                                      \
  double add_##r##_f64(double, double);                                                            \
  double sub_##r##_f64(double, double);                                                            \
  double mul_##r##_f64(double, double);                                                            \
  double fma_##r##_f64(double, double, double);                                                    \
  double div_##r##_f64(double, double);                                                            \
  double sqrt_##r##_f64(double);                                                                   \
  double rcp_##r##_f64(double);                                                                    \
  float cvt_##r##_f32_f64(double);                                                                 \
  float cvt_##r##_f32_s64(long long);                                                              \
  double cvt_##r##_f64_s64(long long);                                                             \
  float cvt_##r##_f32_u64(unsigned long long);                                                     \
  float cvt_##r##_f32_s32(int);                                                                    \
  double cvt_##r##_f64_u64(unsigned long long);
DECLARE_ROUNDING(rz)
DECLARE_ROUNDING(rm)
DECLARE_ROUNDING(rp)
DECLARE_ROUNDING(rn)

enum Op { ADD, SUB, MUL, FMA, DIV, SQRT, RCP, NUM_OPS };
static const char *const kOpName[NUM_OPS] = {"add", "sub", "mul", "fma", "div", "sqrt", "rcp"};
static const int kArity[NUM_OPS] = {2, 2, 2, 3, 2, 1, 1};
static const int kModeRounded[NUM_OPS] = {1, 1, 1, 1, 0, 0, 0};

enum Cvt { F32_F64, F32_S64, F64_S64, F32_U64, F32_S32, F64_U64, NUM_CVTS };
static const char *const kCvtName[NUM_CVTS] = {"f32_f64", "f32_s64", "f64_s64", "f32_u64", "f32_s32", "f64_u64"};
static const int kCvtModeRounded[NUM_CVTS] = {1, 0, 0, 0, 1, 0};

typedef void (*Fn)(void); // called through a cast to its real type
struct Rounding {
  const char *name;
  int mode;
  Fn f32[NUM_OPS], f64[NUM_OPS], cvt[NUM_CVTS];
};
#define ARITH(r, t)                                                                                \
  { (Fn)add_##r##_##t, (Fn)sub_##r##_##t, (Fn)mul_##r##_##t, (Fn)fma_##r##_##t, (Fn)div_##r##_##t,  \
    (Fn)sqrt_##r##_##t, (Fn)rcp_##r##_##t }
#define ROUNDING(r, m)                                                                             \
  { #r, m, ARITH(r, f32), ARITH(r, f64),                                                           \
    { (Fn)cvt_##r##_f32_f64, (Fn)cvt_##r##_f32_s64, (Fn)cvt_##r##_f64_s64, (Fn)cvt_##r##_f32_u64,  \
      (Fn)cvt_##r##_f32_s32, (Fn)cvt_##r##_f64_u64 } }
static const struct Rounding kRoundings[4] = {ROUNDING(rz, FE_TOWARDZERO), ROUNDING(rm, FE_DOWNWARD),
                                              ROUNDING(rp, FE_UPWARD), ROUNDING(rn, FE_TONEAREST)};

// ---- inputs (fixed seed) -------------------------------------------------------------------
static uint64_t st = 88172645463325252ull;
static uint64_t rnd(void){ st ^= st<<13; st ^= st>>7; st ^= st<<17; return st; }
static float rf(void){ uint32_t u; int k = rnd()%8; if(k==0){ static const uint32_t sp[]={0,0x80000000,1,0x80000001,0x7f7fffff,0xff7fffff,0x7f800000,0x00800000,0x3f800000,0x3f800001,0x007fffff,0x7fc00000};u=sp[rnd()%12];} else if(k==1){u=(uint32_t)rnd()&0x807fffff;} else if(k==2){u=((uint32_t)rnd()&0x83ffffff)|0x3c000000;} else u=(uint32_t)rnd(); float f; memcpy(&f,&u,4); return f; }
static double rd(void){ uint64_t u; int k = rnd()%8; if(k==0){ static const uint64_t sp[]={0,0x8000000000000000ull,1,0x7fefffffffffffffull,0x7ff0000000000000ull,0x0010000000000000ull,0x3ff0000000000000ull,0x3ff0000000000001ull,0x000fffffffffffffull};u=sp[rnd()%9];} else if(k==1){u=rnd()&0x800fffffffffffffull;} else if(k==2){u=(rnd()&0x803fffffffffffffull)|0x3fc0000000000000ull;} else u=rnd(); double f; memcpy(&f,&u,8); return f; }
static double rdEdge(int big){ uint64_t u=rnd(); int k=rnd()%4; uint64_t e;
  if(k==0) e=0; else if(big) e=0x3ff+480+rnd()%70; else e=0x3ff-560+rnd()%110;
  u=(u&0x800fffffffffffffull)|(e<<52); if(rnd()%4==0) u&=~0xffffffffull; double f; memcpy(&f,&u,8); return f; }
static double rdExp(unsigned lo, unsigned n){ uint64_t u=(rnd()&0x800fffffffffffffull)|((uint64_t)(lo+rnd()%n)<<52); double f; memcpy(&f,&u,8); return f; }
static uint64_t shifted(void){ uint64_t v = rnd(); return v >> (rnd()%64); } // integers of every magnitude

// mul/fma operands near the edges: products in or below the subnormal range or beyond 2^1024,
// addends that (almost) cancel the product, and sums just inside DBL_MAX.
static void edgeOperands(int i, double *x0, double *x1, double *x2) {
  int big = (i%3==2);
  *x0 = rdEdge(big); *x1 = rdEdge(big);
  *x2 = (i%2) ? rdEdge(0) : -(*x0 * *x1)*(1+ldexp((double)(int)(rnd()%2001)-1000.0,-60));
  if (i%7==0) *x2 = rd();
  if (i%5==4) {
    uint64_t u0=(rnd()&0x800fffffffffffffull)|((uint64_t)(0x3ff+511+rnd()%2)<<52), u1=(rnd()&0x000fffffffffffffull)|((uint64_t)(0x3ff+512)<<52), u2=0x7fefffffffffffffull-(rnd()%(1ull<<(rnd()%53)));
    memcpy(x0,&u0,8); memcpy(x1,&u1,8); memcpy(x2,&u2,8); if (*x0>0) *x2=-*x2;
  }
}

// ---- host reference (evaluated under fesetround; the harness is built with -frounding-math) --
static float host32(enum Op op, float a, float b, float c) {
  switch (op) {
  case ADD: return a + b;
  case SUB: return a - b;
  case MUL: return a * b;
  case FMA: return fmaf(a, b, c);
  case DIV: return a / b;
  case SQRT: return sqrtf(a);
  default: return (float)1 / a;
  }
}
static double host64(enum Op op, double a, double b, double c) {
  switch (op) {
  case ADD: return a + b;
  case SUB: return a - b;
  case MUL: return a * b;
  case FMA: return fma(a, b, c);
  case DIV: return a / b;
  case SQRT: return sqrt(a);
  default: return (double)1 / a;
  }
}
static float dev32(Fn f, enum Op op, float a, float b, float c) {
  switch (kArity[op]) {
  case 1: return ((float (*)(float))f)(a);
  case 2: return ((float (*)(float, float))f)(a, b);
  default: return ((float (*)(float, float, float))f)(a, b, c);
  }
}
static double dev64(Fn f, enum Op op, double a, double b, double c) {
  switch (kArity[op]) {
  case 1: return ((double (*)(double))f)(a);
  case 2: return ((double (*)(double, double))f)(a, b);
  default: return ((double (*)(double, double, double))f)(a, b, c);
  }
}

// ---- comparison ----------------------------------------------------------------------------
static int same32(float a,float b){ uint32_t x,y; memcpy(&x,&a,4); memcpy(&y,&b,4); if(isnan(a)&&isnan(b)) return 1; return x==y; }
static int same64(double a,double b){ uint64_t x,y; memcpy(&x,&a,8); memcpy(&y,&b,8); if(isnan(a)&&isnan(b)) return 1; return x==y; }

// One mismatch of `what` (operands x0..x2, `nx` of them printed): counted, the first 3 printed.
static void mismatch(const char *what, int *b, int nx, double x0, double x1, double x2, double e, double g) {
  if ((*b)++ >= 3) return;
  printf("%s", what);
  const double xs[3] = {x0, x1, x2};
  for (int k = 0; k < nx; ++k) printf(" %a", xs[k]);
  printf(": exp %a got %a\n", e, g);
}
static int done(const char *what, int b) { if (b) printf("%s: %d bad\n", what, b); return b; }

// ---- the checks ----------------------------------------------------------------------------
static int checkArith32(const struct Rounding *R, enum Op op, int N) {
  char name[32]; snprintf(name, sizeof name, "%s_%s_f32", kOpName[op], R->name);
  int b = 0;
  for (int i = 0; i < N; i++) {
    float x[3] = {0, 0, 0};
    for (int k = 0; k < kArity[op]; ++k) x[k] = rf();
    fesetround(R->mode); volatile float e = host32(op, x[0], x[1], x[2]); fesetround(FE_TONEAREST);
    if (kModeRounded[op]) fesetround(R->mode);
    float g = dev32(R->f32[op], op, x[0], x[1], x[2]);
    fesetround(FE_TONEAREST);
    if (!same32(e, g)) mismatch(name, &b, kArity[op], x[0], x[1], x[2], e, g);
  }
  return done(name, b);
}
static int checkArith64(const struct Rounding *R, enum Op op, int N) {
  char name[32]; snprintf(name, sizeof name, "%s_%s_f64", kOpName[op], R->name);
  int b = 0;
  for (int i = 0; i < N; i++) {
    double x[3] = {0, 0, 0};
    for (int k = 0; k < kArity[op]; ++k) x[k] = rd();
    fesetround(R->mode); volatile double e = host64(op, x[0], x[1], x[2]); fesetround(FE_TONEAREST);
    if (kModeRounded[op]) fesetround(R->mode);
    double g = dev64(R->f64[op], op, x[0], x[1], x[2]);
    fesetround(FE_TONEAREST);
    if (!same64(e, g)) mismatch(name, &b, kArity[op], x[0], x[1], x[2], e, g);
  }
  return done(name, b);
}
static int checkCvt(const struct Rounding *R, enum Cvt c, int N) {
  char name[32]; snprintf(name, sizeof name, "cvt_%s_%s", R->name, kCvtName[c]);
  Fn f = R->cvt[c];
  int b = 0;
  for (int i = 0; i < N; i++) {
    volatile double d = 0; volatile long long s = 0; volatile unsigned long long u = 0; volatile int w = 0;
    double a;
    switch (c) {
    case F32_F64: a = d = rd(); break;
    case F32_S64: case F64_S64: a = (double)(s = (long long)shifted()); break;
    case F32_U64: case F64_U64: a = (double)(u = shifted()); break;
    default: a = w = (int)rnd(); break;
    }
    fesetround(R->mode);
    float e32 = 0; double e64 = 0;
    switch (c) {
    case F32_F64: e32 = (float)d; break;
    case F32_S64: e32 = (float)s; break;
    case F64_S64: e64 = (double)s; break;
    case F32_U64: e32 = (float)u; break;
    case F32_S32: e32 = (float)w; break;
    default: e64 = (double)u; break;
    }
    fesetround(kCvtModeRounded[c] ? R->mode : FE_TONEAREST);
    int ok;
    double e, g;
    switch (c) {
    case F32_F64: { float r = ((float (*)(double))f)(d); ok = same32(e32, r); e = e32; g = r; break; }
    case F32_S64: { float r = ((float (*)(long long))f)(s); ok = same32(e32, r); e = e32; g = r; break; }
    case F64_S64: { double r = ((double (*)(long long))f)(s); ok = same64(e64, r); e = e64; g = r; break; }
    case F32_U64: { float r = ((float (*)(unsigned long long))f)(u); ok = same32(e32, r); e = e32; g = r; break; }
    case F32_S32: { float r = ((float (*)(int))f)(w); ok = same32(e32, r); e = e32; g = r; break; }
    default: { double r = ((double (*)(unsigned long long))f)(u); ok = same64(e64, r); e = e64; g = r; break; }
    }
    fesetround(FE_TONEAREST);
    if (!ok) mismatch(name, &b, 1, a, 0, 0, e, g);
  }
  return done(name, b);
}
static int checkMulFmaEdge(const struct Rounding *R, enum Op op, int N) {
  char name[40]; snprintf(name, sizeof name, "%s_%s_f64 (edge)", kOpName[op], R->name);
  int b = 0;
  for (int i = 0; i < N; i++) {
    double x0, x1, x2;
    edgeOperands(i, &x0, &x1, &x2);
    fesetround(R->mode); volatile double e = host64(op, x0, x1, x2); fesetround(FE_TONEAREST);
    if (kModeRounded[op]) fesetround(R->mode);
    double g = dev64(R->f64[op], op, x0, x1, x2);
    fesetround(FE_TONEAREST);
    if (!same64(e, g)) mismatch(name, &b, 3, x0, x1, x2, e, g);
  }
  return done(name, b);
}
// div and rcp with quotients in the subnormal range (and a few huge ones).
static int checkDivRcpEdge(const struct Rounding *R, int N) {
  char name[40]; snprintf(name, sizeof name, "div/rcp_%s_f64 (edge)", R->name);
  int b = 0;
  for (int i = 0; i < N; i++) {
    double x0 = i%2 ? rdExp(0,1) : rdExp(0x3ff-100,200); double x1 = rdExp(0x3ff+920,100); if (i%5==0) x1 = 1/x1;
    fesetround(R->mode); volatile double e = x0/x1; volatile double e2 = 1/x1; fesetround(FE_TONEAREST);
    double g = dev64(R->f64[DIV], DIV, x0, x1, 0), g2 = dev64(R->f64[RCP], RCP, x1, 0, 0);
    if (!same64(e, g) || !same64(e2, g2)) mismatch(name, &b, 2, x0, x1, 0, same64(e, g) ? e2 : e, same64(e, g) ? g2 : g);
  }
  return done(name, b);
}
// add/sub with operands near DBL_MAX (sums that round to or past the largest finite value).
static int checkAddSubEdge(const struct Rounding *R, enum Op op, int N) {
  char name[40]; snprintf(name, sizeof name, "%s_%s_f64 (edge)", kOpName[op], R->name);
  int b = 0;
  for (int i = 0; i < N; i++) {
    double x0 = rdExp(0x7fb,4); double x1 = rdExp(0x7c2,61);
    fesetround(R->mode); volatile double e = host64(op, x0, x1, 0); fesetround(FE_TONEAREST);
    if (kModeRounded[op]) fesetround(R->mode);
    double g = dev64(R->f64[op], op, x0, x1, 0);
    fesetround(FE_TONEAREST);
    if (!same64(e, g)) mismatch(name, &b, 2, x0, x1, 0, e, g);
  }
  return done(name, b);
}

int main(void) {
  const int N = 20000;
  int bad = 0;
  for (int r = 0; r < 4; r++)
    for (int op = 0; op < NUM_OPS; op++) bad += checkArith32(&kRoundings[r], (enum Op)op, N);
  for (int r = 0; r < 4; r++)
    for (int op = 0; op < NUM_OPS; op++) bad += checkArith64(&kRoundings[r], (enum Op)op, N);
  for (int c = 0; c < NUM_CVTS; c++)
    for (int r = 0; r < 4; r++) bad += checkCvt(&kRoundings[r], (enum Cvt)c, N);
  for (int r = 0; r < 4; r++) bad += checkMulFmaEdge(&kRoundings[r], MUL, N);
  for (int r = 0; r < 4; r++) bad += checkMulFmaEdge(&kRoundings[r], FMA, N);
  for (int r = 0; r < 4; r++) {
    bad += checkDivRcpEdge(&kRoundings[r], N);
    bad += checkAddSubEdge(&kRoundings[r], ADD, N);
    bad += checkAddSubEdge(&kRoundings[r], SUB, N);
  }
  printf("total bad %d\n", bad);
  return bad != 0;
}
