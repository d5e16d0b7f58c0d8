// Input for the front-end benchmark: Thrust + CUB algorithms on int, float and
// double; nvcc -ptx -arch=sm_90 turns it into ~3.6 MB of PTX (46 entries).
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/unique.h>
#include <cub/cub.cuh>
template<typename T> void run(size_t n){
  thrust::device_vector<T> v(n), k(n);
  thrust::sort(v.begin(), v.end());
  thrust::sort_by_key(k.begin(), k.end(), v.begin());
  T s = thrust::reduce(v.begin(), v.end());
  thrust::inclusive_scan(v.begin(), v.end(), k.begin());
  thrust::exclusive_scan(v.begin(), v.end(), k.begin());
  thrust::transform(v.begin(), v.end(), k.begin(), thrust::negate<T>());
  thrust::unique(v.begin(), v.end());
  void* tmp=nullptr; size_t bytes=0;
  cub::DeviceScan::InclusiveSum(tmp, bytes, v.data().get(), k.data().get(), (int)n);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, v.data().get(), k.data().get(), (int)n);
  cub::DeviceReduce::Sum(tmp, bytes, v.data().get(), k.data().get(), (int)n);
  (void)s;
}
int main(){ run<int>(100); run<float>(100); run<double>(100); }
