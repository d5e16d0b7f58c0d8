// Device function calls that stay calls in PTX: __noinline__ functions with many arguments and
// by-value/aggregate returns, recursion (fibonacci, Ackermann, recursive quicksort on a per-thread
// array in local memory), device function pointers (a table in __device__ memory and pointers
// passed from the host through cudaMemcpyFromSymbol), and virtual functions on objects built in
// device memory. Everything is checked against the same code run on the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

struct Pair { long long a; double b; };

__host__ __device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__host__ __device__ __noinline__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

__host__ __device__ __noinline__ void quicksort(int* a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) ++i;
    while (a[j] > p) --j;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; ++i; --j; }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}

__host__ __device__ __noinline__ Pair mix(int a, unsigned b, long long c, float d, double e, char f, short g,
                                          unsigned long long h) {
  Pair p;
  p.a = a * 3 + (long long)b - c + f * g + (long long)(h >> 40);
  p.b = d * 0.5 + e * 0.25 + f;
  return p;
}

typedef int (*binop)(int, int);
__host__ __device__ __noinline__ int op_add(int a, int b) { return a + b; }
__host__ __device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__host__ __device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__host__ __device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }

__device__ binop d_table[4] = {op_add, op_sub, op_mul, op_max};
__device__ binop d_single = op_mul;

struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual int area() const = 0;
  __device__ virtual int kind() const { return 0; }
};
struct Rect : Shape {
  int w, h;
  __device__ Rect(int w_, int h_) : w(w_), h(h_) {}
  __device__ int area() const override { return w * h; }
  __device__ int kind() const override { return 1; }
};
struct Tri : Shape {
  int b, h;
  __device__ Tri(int b_, int h_) : b(b_), h(h_) {}
  __device__ int area() const override { return b * h / 2; }
};

__global__ void calls(const int* in, long long* out, binop host_passed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  long long r = fib(x % 16) + ackermann(2, x % 5);
  int local[16];
  for (int k = 0; k < 16; ++k) local[k] = (x * (k + 7)) % 101 - 50;
  quicksort(local, 0, 15);
  for (int k = 0; k < 16; ++k) r += (long long)local[k] * (k + 1);
  Pair p = mix(x, (unsigned)x * 7u, -x, x * 0.5f, x * 0.125, (char)(x & 0x7f), (short)(x - 100), 0xabcdef0123456789ull);
  r += p.a + (long long)p.b;
  binop f = d_table[x & 3];
  r += f(x, i & 255);
  r += host_passed(x, 3);
  r += d_single(x, 2);
  Shape* s = (x & 1) ? (Shape*)new Rect(x % 13, x % 7) : (Shape*)new Tri(x % 11, x % 9);
  r += s->area() * 10 + s->kind();
  delete s;
  out[i] = r;
}

int main() {
  const int n = 4096;
  std::vector<int> h(n);
  srand(3);
  for (int i = 0; i < n; ++i) h[i] = rand() % 1000;
  int* din;
  long long* dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(long long)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
  binop from_device;  // a device function's address, obtained through a __device__ variable
  CHECK(cudaMemcpyFromSymbol(&from_device, d_table, sizeof(binop), 3 * sizeof(binop)));
  calls<<<n / 128, 128>>>(din, dout, from_device, n);
  CHECK(cudaGetLastError());
  std::vector<long long> out(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(long long), cudaMemcpyDeviceToHost));
  binop table[4] = {op_add, op_sub, op_mul, op_max};
  int bad = 0;
  long long cs = 0;
  for (int i = 0; i < n; ++i) {
    int x = h[i];
    long long r = fib(x % 16) + ackermann(2, x % 5);
    int local[16];
    for (int k = 0; k < 16; ++k) local[k] = (x * (k + 7)) % 101 - 50;
    quicksort(local, 0, 15);
    for (int k = 0; k < 16; ++k) r += (long long)local[k] * (k + 1);
    Pair p = mix(x, (unsigned)x * 7u, -x, x * 0.5f, x * 0.125, (char)(x & 0x7f), (short)(x - 100), 0xabcdef0123456789ull);
    r += p.a + (long long)p.b;
    r += table[x & 3](x, i & 255);
    r += op_max(x, 3);
    r += op_mul(x, 2);
    r += (x & 1) ? (x % 13) * (x % 7) * 10 + 1 : (x % 11) * (x % 9) / 2 * 10;
    if (r != out[i]) ++bad;
    cs += out[i];
  }
  printf("device_calls: n=%d checksum=%lld mismatches=%d %s\n", n, cs, bad, bad ? "FAIL" : "PASS");
  cudaFree(din); cudaFree(dout);
  return bad ? 1 : 0;
}
