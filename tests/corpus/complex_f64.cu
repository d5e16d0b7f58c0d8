// f64 complex arithmetic with cuda::std::complex<double> (issue 15 item 6): multiplication and
// division follow C99 Annex G (inf/NaN recovery: isinf/isnan tests of the four parts, which LLVM's
// optimiser turns into `fcmp <4 x double>` + `bitcast <4 x i1> to i4`), plus exp, log, sqrt, abs,
// arg, pow and polar. Checked three ways: (1) products/quotients of small Gaussian integers whose
// results are exact are compared bit for bit (and summed as integers); (2) Annex G special
// cases are checked for the properties that hold with or without fma contraction;
// (3) random values are checked against a long-double CPU reference within a relative tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cuda/std/complex>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

using C = cuda::std::complex<double>;

struct Res {
  C mul, div, exp_, log_, sqrt_, pow_, polar_;
  double abs_, arg_;
};

__global__ void complex_ops(const C* x, const C* y, Res* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  C a = x[i], b = y[i];
  Res r;
  r.mul = a * b;
  r.div = a / b;
  r.exp_ = cuda::std::exp(a * 0.125);
  r.log_ = cuda::std::log(b);
  r.sqrt_ = cuda::std::sqrt(a);
  r.pow_ = cuda::std::pow(b, C(0.5, 0.25));
  r.polar_ = cuda::std::polar(cuda::std::abs(b), cuda::std::arg(a));
  r.abs_ = cuda::std::abs(a);
  r.arg_ = cuda::std::arg(b);
  out[i] = r;
}

// Multiply-accumulate of a complex dot product per thread (a*b summed over a strided range).
__global__ void complex_dot(const C* x, const C* y, C* out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  C s(0.0, 0.0);
  for (int k = i; k < n; k += m) s += x[k] * cuda::std::conj(y[k]);
  out[i] = s;
}

static int cls(double v) { return std::isnan(v) ? 2 : std::isinf(v) ? 1 : 0; }

static unsigned long long rng = 0x1234abcdULL;
static double urand() {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng >> 11) / 9007199254740992.0;
}

int main() {
  const double inf = INFINITY, nan = NAN;
  std::vector<C> xs, ys;
  // (1) exact: Gaussian integers; divisors with |b|^2 a power of two and the numerator a multiple.
  const int ex_n = 64;
  for (int i = 0; i < ex_n; ++i) {
    int p = (i * 7) % 13 - 6, q = (i * 5) % 11 - 5;
    int c = 1 << (i % 3), d = (i % 2) ? c : 0;  // c in {1, 2, 4}, d in {0, c}: |c+di|^2 = c^2 or 2c^2
    xs.push_back(C(double(p * 2 * c * c), double(q * 2 * c * c)));
    ys.push_back(C(double(c), double(d)));
  }
  // (2) Annex G special cases.
  const C sp[][2] = {
      {C(inf, 0), C(0, 0)},   {C(inf, 1), C(1, 1)},   {C(1, inf), C(nan, 1)}, {C(nan, nan), C(1, 0)},
      {C(inf, inf), C(0, 1)}, {C(0, 0), C(inf, 2)},   {C(1, 2), C(0, 0)},     {C(nan, inf), C(2, 3)},
      {C(1e308, 1e308), C(1e308, 1e308)}, {C(1e-308, 1e-300), C(1e-310, 3e-309)}, {C(-inf, nan), C(inf, 0)},
      {C(0, 0), C(0, 0)}};
  const int sp_n = sizeof(sp) / sizeof(sp[0]);
  for (int i = 0; i < sp_n; ++i) { xs.push_back(sp[i][0]); ys.push_back(sp[i][1]); }
  // (3) random.
  const int rn = 512;
  for (int i = 0; i < rn; ++i) {
    double e1 = std::ldexp(1.0, (int)(urand() * 20) - 10), e2 = std::ldexp(1.0, (int)(urand() * 20) - 10);
    xs.push_back(C((urand() * 2 - 1) * e1, (urand() * 2 - 1) * e1));
    ys.push_back(C((urand() * 2 - 1) * e2 + 0.01, (urand() * 2 - 1) * e2));
  }
  const int n = (int)xs.size();
  C *dx, *dy, *dd;
  Res* dr;
  CHECK(cudaMalloc(&dx, n * sizeof(C)));
  CHECK(cudaMalloc(&dy, n * sizeof(C)));
  CHECK(cudaMalloc(&dr, n * sizeof(Res)));
  CHECK(cudaMalloc(&dd, 32 * sizeof(C)));
  CHECK(cudaMemcpy(dx, xs.data(), n * sizeof(C), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, ys.data(), n * sizeof(C), cudaMemcpyHostToDevice));
  complex_ops<<<(n + 127) / 128, 128>>>(dx, dy, dr, n);
  CHECK(cudaGetLastError());
  complex_dot<<<1, 32>>>(dx, dx, dd, ex_n, 32); // exact: sums of |x|^2 of Gaussian integers
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<Res> r(n);
  std::vector<C> dot(32);
  CHECK(cudaMemcpy(r.data(), dr, n * sizeof(Res), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dot.data(), dd, 32 * sizeof(C), cudaMemcpyDeviceToHost));
  bool ok = true;

  long long msum = 0, dsum = 0;
  int exact_bad = 0;
  for (int i = 0; i < ex_n; ++i) {
    long long p = (long long)xs[i].real(), q = (long long)xs[i].imag(), c = (long long)ys[i].real(),
              d = (long long)ys[i].imag();
    long long mr = p * c - q * d, mi = p * d + q * c, den = c * c + d * d;
    long long qr = (p * c + q * d) / den, qi = (q * c - p * d) / den;
    if (r[i].mul.real() != (double)mr || r[i].mul.imag() != (double)mi) ++exact_bad;
    if (r[i].div.real() != (double)qr || r[i].div.imag() != (double)qi) ++exact_bad;
    msum += (long long)r[i].mul.real() * 3 + (long long)r[i].mul.imag();
    dsum += (long long)r[i].div.real() * 3 + (long long)r[i].div.imag();
  }
  long long dotsum = 0;
  for (int t = 0; t < 32; ++t) {
    long long s = 0;
    for (int k = t; k < ex_n; k += 32) s += (long long)(xs[k].real() * xs[k].real() + xs[k].imag() * xs[k].imag());
    if (dot[t].real() != (double)s || dot[t].imag() != 0.0) ++exact_bad;
    dotsum += (long long)dot[t].real();
  }
  printf("exact: mul_sum=%lld div_sum=%lld dot_sum=%lld mismatches=%d\n", msum, dsum, dotsum, exact_bad);
  ok = ok && exact_bad == 0;

  // Annex G: an infinite operand times a nonzero finite or infinite one is infinite (not NaN);
  // a nonzero finite value divided by zero is infinite; zero divided by an infinite value is zero.
  // (Only properties that hold whether or not products are contracted into fma are printed.)
  auto isInfC = [](C v) { return std::isinf(v.real()) || std::isinf(v.imag()); };
  bool g1 = isInfC(r[ex_n + 1].mul), g4 = isInfC(r[ex_n + 4].mul), g6 = isInfC(r[ex_n + 6].div),
       g5 = r[ex_n + 5].div.real() == 0.0 && r[ex_n + 5].div.imag() == 0.0,
       g3 = std::isnan(r[ex_n + 3].mul.real()) && std::isnan(r[ex_n + 3].div.real());
  printf("annex G: inf*finite=inf %d, inf*(0+1i)=inf %d, finite/0=inf %d, 0/inf=0 %d, nan propagates %d\n",
         g1, g4, g6, g5, g3);
  for (int i = 0; i < sp_n; ++i) {
    const Res& s = r[ex_n + i];
    fprintf(stderr, "special %2d: mul %d%d div %d%d\n", i, cls(s.mul.real()), cls(s.mul.imag()), cls(s.div.real()),
            cls(s.div.imag()));
  }
  ok = ok && g1 && g4 && g6 && g5 && g3;

  int rand_bad = 0;
  for (int i = ex_n + sp_n; i < n; ++i) {
    typedef long double L;
    L ar = xs[i].real(), ai = xs[i].imag(), br = ys[i].real(), bi = ys[i].imag();
    L mr = ar * br - ai * bi, mi = ar * bi + ai * br;
    L den = br * br + bi * bi;
    L qr = (ar * br + ai * bi) / den, qi = (ai * br - ar * bi) / den;
    L absa = std::sqrt(ar * ar + ai * ai);
    L e = std::exp(ar * 0.125L);
    L exr = e * std::cos(ai * 0.125L), exi = e * std::sin(ai * 0.125L);
    L lgr = std::log(std::sqrt(den)), lgi = std::atan2(bi, br);
    L sq = std::sqrt((absa + std::fabs(ar)) / 2);
    L sqr = ar >= 0 ? sq : std::fabs(ai) / (2 * sq), sqi = ar >= 0 ? ai / (2 * sq) : std::copysign(sq, ai);
    L pw = std::exp(0.5L * lgr - 0.25L * lgi), pa = 0.25L * lgr + 0.5L * lgi;
    L pwr = pw * std::cos(pa), pwi = pw * std::sin(pa);
    L pol = std::sqrt(den), th = std::atan2(ai, ar);
    auto near = [](double got, L want, L scale) { return std::fabs((L)got - want) <= 1e-12L * scale + 1e-300L; };
    L ms = std::fabs(ar * br) + std::fabs(ai * bi) + std::fabs(ar * bi) + std::fabs(ai * br);
    L qs = std::sqrt(qr * qr + qi * qi) + absa / std::sqrt(den);
    const Res& g = r[i];
    bool good = near(g.mul.real(), mr, ms) && near(g.mul.imag(), mi, ms) && near(g.div.real(), qr, qs) &&
                near(g.div.imag(), qi, qs) && near(g.exp_.real(), exr, e) && near(g.exp_.imag(), exi, e) &&
                near(g.log_.real(), lgr, std::fabs(lgr) + 4) && near(g.log_.imag(), lgi, 4) &&
                near(g.sqrt_.real(), sqr, sq + 1e-300L) && near(g.sqrt_.imag(), sqi, sq + 1e-300L) &&
                near(g.pow_.real(), pwr, pw) && near(g.pow_.imag(), pwi, pw) &&
                near(g.polar_.real(), pol * std::cos(th), pol) && near(g.polar_.imag(), pol * std::sin(th), pol) &&
                near(g.abs_, absa, absa) && near(g.arg_, lgi, 4);
    if (!good) {
      if (rand_bad < 5)
        fprintf(stderr, "row %d: mul (%.17g, %.17g) want (%.17Lg, %.17Lg) div (%.17g, %.17g) want (%.17Lg, %.17Lg)\n",
                i, g.mul.real(), g.mul.imag(), mr, mi, g.div.real(), g.div.imag(), qr, qi);
      ++rand_bad;
    }
  }
  printf("random: %d values, %d outside 1e-12 relative\n", n - ex_n - sp_n, rand_bad);
  ok = ok && rand_bad == 0;
  cudaFree(dx); cudaFree(dy); cudaFree(dr); cudaFree(dd);
  printf("complex_f64: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
