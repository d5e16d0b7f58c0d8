// CUB device-wide and block/warp collectives (200k elements): DeviceRadixSort (SortKeys on unsigned,
// SortPairs on float keys, SortPairsDescending), DeviceReduce (Sum, Max, ArgMin), DeviceScan
// (InclusiveSum, ExclusiveSum), DeviceHistogram::HistogramEven, and a custom kernel using
// BlockLoad, BlockReduce, BlockScan, BlockRadixSort and WarpReduce. Each device-wide call does the
// two-phase temp-storage query. Checked against std:: algorithms on the host.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>
#include <cub/cub.cuh>
#include <cuda/functional>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kThreads = 128, kItems = 4, kTile = kThreads * kItems;

struct TileOut { int sum; int max; int warp_sum; };

__global__ void block_collectives(const int* in, int* scanned, int* sorted, TileOut* tiles, int n) {
  using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, kThreads>;
  using Scan = cub::BlockScan<int, kThreads>;
  using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
  using WarpRed = cub::WarpReduce<int>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
    typename Sort::TempStorage sort;
  } tmp;
  __shared__ typename WarpRed::TempStorage warp_tmp[kThreads / 32];
  __shared__ int warp_total;
  int base = blockIdx.x * kTile;
  int items[kItems];
  Load(tmp.load).Load(in + base, items, n - base, 0);
  __syncthreads();
  int local = 0;
  for (int k = 0; k < kItems; ++k) local += items[k];
  int sum = Reduce(tmp.reduce).Sum(local);
  __syncthreads();
  int mx = Reduce(tmp.reduce).Reduce(items, cuda::maximum<>{});
  __syncthreads();
  int ws = WarpRed(warp_tmp[threadIdx.x / 32]).Sum(local);
  if (threadIdx.x == 0) warp_total = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) atomicAdd(&warp_total, ws);
  int out[kItems];
  Scan(tmp.scan).InclusiveSum(items, out);
  __syncthreads();
  for (int k = 0; k < kItems; ++k) {
    int idx = base + threadIdx.x * kItems + k;  // blocked arrangement after BlockLoad
    if (idx < n) scanned[idx] = out[k];
  }
  Sort(tmp.sort).Sort(items);
  for (int k = 0; k < kItems; ++k) {
    int idx = base + threadIdx.x * kItems + k;
    if (idx < n) sorted[idx] = items[k];
  }
  __syncthreads();
  if (threadIdx.x == 0) tiles[blockIdx.x] = TileOut{sum, mx, warp_total};
}

template <typename T>
static T* upload(const std::vector<T>& h) {
  T* d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
static std::vector<T> download(const T* d, size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

static void* g_temp = nullptr;
static size_t g_temp_bytes = 0;
static void* temp(size_t bytes) {
  if (bytes > g_temp_bytes) {
    if (g_temp) CHECK(cudaFree(g_temp));
    CHECK(cudaMalloc(&g_temp, bytes));
    g_temp_bytes = bytes;
  }
  return g_temp;
}

int main() {
  const int n = 200000;
  std::vector<unsigned> ukeys(n);
  std::vector<float> fkeys(n);
  std::vector<int> vals(n), ints(n);
  srand(1234);
  for (int i = 0; i < n; ++i) {
    ukeys[i] = ((unsigned)rand() << 12) ^ (unsigned)rand();
    fkeys[i] = (float)(rand() % 20001 - 10000) / 4.0f;
    vals[i] = i;
    ints[i] = rand() % 1001 - 500;
  }
  int bad = 0;
#define EXPECT(cond, what) do { if (!(cond)) { ++bad; printf("mismatch: %s\n", what); } } while (0)
  size_t bytes = 0;

  // Radix sorts.
  unsigned *duk = upload(ukeys), *duk_out;
  CHECK(cudaMalloc(&duk_out, n * sizeof(unsigned)));
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, duk, duk_out, n));
  CHECK(cub::DeviceRadixSort::SortKeys(temp(bytes), bytes, duk, duk_out, n));
  std::vector<unsigned> us = ukeys;
  std::sort(us.begin(), us.end());
  EXPECT(download(duk_out, n) == us, "SortKeys");

  float *dfk = upload(fkeys), *dfk_out;
  int *dv = upload(vals), *dv_out;
  CHECK(cudaMalloc(&dfk_out, n * sizeof(float)));
  CHECK(cudaMalloc(&dv_out, n * sizeof(int)));
  CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, dfk, dfk_out, dv, dv_out, n));
  CHECK(cub::DeviceRadixSort::SortPairs(temp(bytes), bytes, dfk, dfk_out, dv, dv_out, n));
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return fkeys[a] < fkeys[b]; });
  std::vector<float> ok = download(dfk_out, n);
  std::vector<int> ov = download(dv_out, n);
  bool good = true;
  for (int i = 0; i < n; ++i) good &= ok[i] == fkeys[idx[i]] && ov[i] == idx[i];  // radix sort is stable
  EXPECT(good, "SortPairs");
  CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, dfk, dfk_out, dv, dv_out, n));
  CHECK(cub::DeviceRadixSort::SortPairsDescending(temp(bytes), bytes, dfk, dfk_out, dv, dv_out, n));
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return fkeys[a] > fkeys[b]; });
  ok = download(dfk_out, n);
  ov = download(dv_out, n);
  good = true;
  for (int i = 0; i < n; ++i) good &= ok[i] == fkeys[idx[i]] && ov[i] == idx[i];
  EXPECT(good, "SortPairsDescending");

  // Reductions.
  int* di = upload(ints);
  int* dres;
  CHECK(cudaMalloc(&dres, 4 * sizeof(int)));
  CHECK(cub::DeviceReduce::Sum(nullptr, bytes, di, dres, n));
  CHECK(cub::DeviceReduce::Sum(temp(bytes), bytes, di, dres, n));
  CHECK(cub::DeviceReduce::Max(nullptr, bytes, di, dres + 1, n));
  CHECK(cub::DeviceReduce::Max(temp(bytes), bytes, di, dres + 1, n));
  std::vector<int> r = download(dres, 2);
  long long ref_sum = std::accumulate(ints.begin(), ints.end(), 0LL);
  EXPECT(r[0] == ref_sum, "DeviceReduce::Sum");
  EXPECT(r[1] == *std::max_element(ints.begin(), ints.end()), "DeviceReduce::Max");
  cub::KeyValuePair<int, float>* darg;
  CHECK(cudaMalloc(&darg, sizeof(cub::KeyValuePair<int, float>)));
  CHECK(cub::DeviceReduce::ArgMin(nullptr, bytes, dfk, darg, n));
  CHECK(cub::DeviceReduce::ArgMin(temp(bytes), bytes, dfk, darg, n));
  auto arg = download(darg, 1)[0];
  int ref_arg = (int)(std::min_element(fkeys.begin(), fkeys.end()) - fkeys.begin());
  EXPECT(arg.key == ref_arg && arg.value == fkeys[ref_arg], "DeviceReduce::ArgMin");

  // Scans.
  int* dscan;
  CHECK(cudaMalloc(&dscan, n * sizeof(int)));
  CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, di, dscan, n));
  CHECK(cub::DeviceScan::InclusiveSum(temp(bytes), bytes, di, dscan, n));
  std::vector<int> ref(n);
  std::partial_sum(ints.begin(), ints.end(), ref.begin());
  EXPECT(download(dscan, n) == ref, "InclusiveSum");
  CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, di, dscan, n));
  CHECK(cub::DeviceScan::ExclusiveSum(temp(bytes), bytes, di, dscan, n));
  std::vector<int> ex(n);
  ex[0] = 0;
  for (int i = 1; i < n; ++i) ex[i] = ex[i - 1] + ints[i - 1];
  EXPECT(download(dscan, n) == ex, "ExclusiveSum");

  // Histogram: 64 even bins over [-500, 501).
  const int bins = 64;
  int* dhist;
  CHECK(cudaMalloc(&dhist, bins * sizeof(int)));
  CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, di, dhist, bins + 1, -500, 501, n));
  CHECK(cub::DeviceHistogram::HistogramEven(temp(bytes), bytes, di, dhist, bins + 1, -500, 501, n));
  std::vector<int> rh(bins, 0);
  for (int v : ints) rh[(int)(((long long)(v + 500) * bins) / 1001)]++;
  std::vector<int> gh = download(dhist, bins);
  EXPECT(gh == rh, "HistogramEven");

  // Block and warp collectives.
  int tiles = (n + kTile - 1) / kTile;
  int *dbs, *dsorted;
  TileOut* dto;
  CHECK(cudaMalloc(&dbs, n * sizeof(int)));
  CHECK(cudaMalloc(&dsorted, n * sizeof(int)));
  CHECK(cudaMalloc(&dto, tiles * sizeof(TileOut)));
  block_collectives<<<tiles, kThreads>>>(di, dbs, dsorted, dto, n);
  CHECK(cudaGetLastError());
  std::vector<int> bs = download(dbs, n), bsorted = download(dsorted, n);
  std::vector<TileOut> to = download(dto, tiles);
  good = true;
  for (int t = 0; t < tiles; ++t) {
    int lo = t * kTile, hi = std::min(n, lo + kTile);
    int s = 0, m = ints[lo];
    for (int i = lo; i < hi; ++i) { s += ints[i]; m = std::max(m, ints[i]); good &= bs[i] == s; }
    good &= to[t].sum == s && to[t].max == (hi - lo == kTile ? m : std::max(m, 0)) && to[t].warp_sum == s;
    std::vector<int> tile(ints.begin() + lo, ints.begin() + hi);
    tile.resize(kTile, 0);  // out-of-range items were loaded as the default 0
    std::sort(tile.begin(), tile.end());
    for (int i = lo; i < hi; ++i) good &= bsorted[i] == tile[i - lo];
  }
  EXPECT(good, "block collectives");

  printf("cub_algos: n=%d sum=%d max=%d argmin=%d hist0=%d first=%u last=%u %s\n", n, r[0], r[1], arg.key, gh[0], us[0],
         us[n - 1], bad ? "FAIL" : "PASS");
  cudaFree(duk); cudaFree(duk_out); cudaFree(dfk); cudaFree(dfk_out); cudaFree(dv); cudaFree(dv_out); cudaFree(di);
  cudaFree(dres); cudaFree(darg); cudaFree(dscan); cudaFree(dhist); cudaFree(dbs); cudaFree(dsorted); cudaFree(dto);
  cudaFree(g_temp);
  return bad ? 1 : 0;
}
