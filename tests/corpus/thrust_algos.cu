// Thrust over int, float and double (200k elements each): sort, sort_by_key, reduce (sum, max),
// inclusive_scan, exclusive_scan, transform (unary and binary) and unique, each checked against the
// std:: algorithm on the host. Float/double inputs are small multiples of 1/8 so every sum and prefix
// sum is exact and the results are order-independent. Instantiating this set for three types yields
// about 3 MB of PTX: the corpus's >= 1 MB module. More algorithms are in thrust_extras.cu.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

template <typename T> struct Affine { T a, b; __host__ __device__ T operator()(T x) const { return a * x + b; } };

static int g_bad = 0;
#define EXPECT(cond, what) do { if (!(cond)) { ++g_bad; printf("mismatch: %s (%s)\n", what, name); } } while (0)

template <typename T>
static T value_of(int r) { return (T)(r % 2001 - 1000) / (T)8; }
template <>
int value_of<int>(int r) { return r % 2001 - 1000; }

template <typename T>
static double run(const char* name, int n, unsigned seed) {
  srand(seed);
  std::vector<T> h(n);
  std::vector<int> keys(n);
  for (int i = 0; i < n; ++i) { h[i] = value_of<T>(rand()); keys[i] = rand() % 5000; }
  thrust::device_vector<T> d(h.begin(), h.end());

  // sort
  thrust::device_vector<T> s = d;
  thrust::sort(s.begin(), s.end());
  std::vector<T> hs = h;
  std::sort(hs.begin(), hs.end());
  thrust::host_vector<T> back = s;
  EXPECT(std::equal(hs.begin(), hs.end(), back.begin()), "sort");

  // sort_by_key: keys = T, values = original positions
  thrust::device_vector<T> k2 = d;
  thrust::device_vector<int> v2(n);
  thrust::sequence(v2.begin(), v2.end());
  thrust::sort_by_key(k2.begin(), k2.end(), v2.begin());
  thrust::host_vector<T> bk2 = k2;
  thrust::host_vector<int> bv2 = v2;
  bool ok = std::equal(hs.begin(), hs.end(), bk2.begin());
  for (int i = 0; i < n; ++i) ok &= h[bv2[i]] == bk2[i];
  EXPECT(ok, "sort_by_key");

  // reduce (sum and max)
  T sum = thrust::reduce(d.begin(), d.end());
  T ref_sum = std::accumulate(h.begin(), h.end(), T(0));
  EXPECT(sum == ref_sum, "reduce");
  T mx = thrust::reduce(d.begin(), d.end(), h[0], thrust::maximum<T>());
  EXPECT(mx == hs.back(), "reduce max");

  // scans
  thrust::device_vector<T> sc(n);
  thrust::inclusive_scan(d.begin(), d.end(), sc.begin());
  std::vector<T> ref(n);
  std::partial_sum(h.begin(), h.end(), ref.begin());
  back = sc;
  EXPECT(std::equal(ref.begin(), ref.end(), back.begin()), "inclusive_scan");
  thrust::exclusive_scan(d.begin(), d.end(), sc.begin(), T(5));
  back = sc;
  ok = true;
  T acc = 5;
  for (int i = 0; i < n; ++i) { ok &= back[i] == acc; acc += h[i]; }
  EXPECT(ok, "exclusive_scan");

  // transforms (unary functor, then binary with a Thrust functional)
  thrust::device_vector<T> t(n);
  thrust::transform(d.begin(), d.end(), t.begin(), Affine<T>{T(3), T(-2)});
  thrust::transform(t.begin(), t.end(), d.begin(), t.begin(), thrust::minus<T>());
  back = t;
  ok = true;
  for (int i = 0; i < n; ++i) ok &= back[i] == (T(3) * h[i] + T(-2)) - h[i];
  EXPECT(ok, "transform");

  // unique on sorted data
  auto uend = thrust::unique(s.begin(), s.end());
  std::vector<T> hu = hs;
  hu.erase(std::unique(hu.begin(), hu.end()), hu.end());
  thrust::host_vector<T> hub(s.begin(), uend);
  EXPECT(hub.size() == hu.size() && std::equal(hu.begin(), hu.end(), hub.begin()), "unique");

  printf("  %s: n=%d sum=%.3f max=%.3f unique=%zu\n", name, n, (double)sum, (double)mx, hu.size());
  return (double)sum + (double)hu.size();
}

int main() {
  const int n = 200000;
  double cs = run<int>("int", n, 1) + run<float>("float", n, 2) + run<double>("double", n, 3);
  printf("thrust_algos: checksum=%.3f %s\n", cs, g_bad ? "FAIL" : "PASS");
  return g_bad ? 1 : 0;
}
