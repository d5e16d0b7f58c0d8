// drv_peer.cpp: the driver-API counterpart of tests/shim/peer_copy.cu: cuMemcpyPeer /
// cuMemcpyPeerAsync between a context and itself and between the primary and a created context of
// one device (the contexts of one device share its addresses), ordered after a kernel on the
// legacy and a created stream. The answers the documentation leaves open are the H200's (session 9,
// driver of CUDA 13.0): a null context is the current one (CUDA_SUCCESS, the copy happens), a
// zero-byte copy succeeds, a null destination is CUDA_ERROR_INVALID_VALUE, a device cannot access
// itself as a peer (cuDeviceCanAccessPeer 0, cuCtxEnablePeerAccess PEER_ACCESS_UNSUPPORTED,
// cuCtxDisablePeerAccess PEER_ACCESS_NOT_ENABLED). A destroyed context segfaults the H200's driver
// (rc 139 in 3 of 3 runs): undefined on CUDA; here it must be an error (issue 10), so that case only
// runs with the argument `destroyed` (the ctest entry passes it; the H200 recording does not).
// Self-checking: last line PASS / FAIL.
// H200: g++ -std=c++17 -O1 -I/usr/local/cuda/include -o drv_peer drv_peer.cpp -lcuda, k.ptx = nvcc -ptx -arch=sm_90 kernels.cu
// usage: drv_peer k.ptx [destroyed]   (k.ptx: kernels.cu)
#include "drv_common.h"

static int bad = 0;
static void expect(bool ok, const char *what) {
  printf("%s %s\n", what, ok ? "PASS" : "FAIL");
  bad += !ok;
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 3 && strcmp(argv[2], "destroyed") == 0)) return 2;
  const bool destroyed_case = argc == 3;
  std::vector<char> ptx = read_file(argv[1]);
  CUdevice dev;
  CUcontext primary = init_primary(&dev);
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, ptx.data()));
  CUfunction add;
  CHECK(cuModuleGetFunction(&add, mod, "vector_add"));
  const int n = 1 << 14;
  const size_t bytes = n * sizeof(float);
  std::vector<float> ha(n), hb(n), out(n);
  for (int i = 0; i < n; ++i) { ha[i] = float(i); hb[i] = float(3 * i + 1); }
  CUdeviceptr a, b, c, d;
  CHECK(cuMemAlloc(&a, bytes));
  CHECK(cuMemAlloc(&b, bytes));
  CHECK(cuMemAlloc(&c, bytes));
  CHECK(cuMemAlloc(&d, 2 * bytes));
  CHECK(cuMemcpyHtoD(a, ha.data(), bytes));
  CHECK(cuMemcpyHtoD(b, hb.data(), bytes));
  int nn = n;
  void *args[] = {&a, &b, &c, &nn};
  auto sums = [&](const std::vector<float> &v) {
    for (int i = 0; i < n; ++i)
      if (v[i] != ha[i] + hb[i]) return false;
    return true;
  };

  // 1. A synchronous peer copy after a kernel on the legacy stream sees the kernel's result.
  CHECK(cuLaunchKernel(add, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CHECK(cuMemcpyPeer(d, primary, c, primary, bytes));
  CHECK(cuMemcpyDtoH(out.data(), d, bytes));
  expect(sums(out), "cuMemcpyPeer after a kernel on the legacy stream");

  // 2. cuMemcpyPeerAsync on a created stream is ordered after the stream's kernel.
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemsetD32(c, 0, n));
  CHECK(cuLaunchKernel(add, n / 256, 1, 1, 256, 1, 1, 0, s, args, nullptr));
  CHECK(cuMemcpyPeerAsync(d + bytes, primary, c, primary, bytes, s));
  CHECK(cuStreamSynchronize(s));
  CHECK(cuMemcpyDtoH(out.data(), d + bytes, bytes));
  expect(sums(out), "cuMemcpyPeerAsync ordered on its stream");

  // 3. The same on the legacy stream (0).
  CHECK(cuMemsetD32(d, 0, n));
  CHECK(cuMemcpyPeerAsync(d, primary, d + bytes, primary, bytes, nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(out.data(), d, bytes));
  expect(sums(out), "cuMemcpyPeerAsync on the legacy stream");

  // 4. Between the primary context and a created context of the same device.
  CUcontext other;
  CHECK(cuCtxCreate(&other, nullptr, 0, dev));
  CUdeviceptr e;
  CHECK(cuMemAlloc(&e, bytes)); // allocated in `other` (current now)
  CHECK(cuMemcpyPeer(e, other, a, primary, bytes));
  std::vector<float> back(n);
  CHECK(cuMemcpyDtoH(back.data(), e, bytes));
  expect(back == ha, "cuMemcpyPeer from the primary into a created context");
  CHECK(cuMemsetD32(d, 0, n));
  CHECK(cuMemcpyPeer(d, primary, e, other, bytes));
  CHECK(cuCtxSetCurrent(primary));
  CHECK(cuMemcpyDtoH(back.data(), d, bytes));
  expect(back == ha, "cuMemcpyPeer from a created context into the primary");

  // 5. A null context is the current one (H200): the copies happen.
  CHECK(cuMemsetD32(d, 0, n));
  CUresult r1 = cuMemcpyPeer(d, nullptr, a, primary, bytes);
  CHECK(cuMemcpyDtoH(back.data(), d, bytes));
  bool copied = back == ha;
  CHECK(cuMemsetD32(d, 0, n));
  CUresult r2 = cuMemcpyPeer(d, primary, a, nullptr, bytes);
  CHECK(cuMemcpyDtoH(back.data(), d, bytes));
  copied = copied && back == ha;
  CHECK(cuMemsetD32(d, 0, n));
  CUresult r3 = cuMemcpyPeerAsync(d, nullptr, a, nullptr, bytes, nullptr);
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(back.data(), d, bytes));
  copied = copied && back == ha;
  printf("null context: %s %s %s\n", result_name(r1), result_name(r2), result_name(r3));
  expect(r1 == CUDA_SUCCESS && r2 == CUDA_SUCCESS && r3 == CUDA_SUCCESS && copied,
         "null context is the current one");
  CHECK(cuMemFree(e)); // e belongs to `other`; cuMemFree finds it from any context of the device
  CHECK(cuCtxDestroy(other));
  CHECK(cuCtxSetCurrent(primary));
  if (destroyed_case) { // undefined on CUDA (the H200's driver segfaults); an error here (issue 10)
    CUresult r4 = cuMemcpyPeer(d, other, a, primary, 16);
    printf("(a destroyed context: %s) ", result_name(r4));
    expect(r4 == CUDA_ERROR_INVALID_CONTEXT, "cuMemcpyPeer from a destroyed context refused");
  }

  // 6. Answers the documentation leaves open: the H200's.
  CUresult z = cuMemcpyPeer(d, primary, a, primary, 0);
  printf("cuMemcpyPeer count 0: %s\n", result_name(z));
  expect(z == CUDA_SUCCESS, "zero-byte peer copy succeeds");
  CUresult nd = cuMemcpyPeer(0, primary, a, primary, 16);
  printf("cuMemcpyPeer null dst: %s\n", result_name(nd));
  expect(nd == CUDA_ERROR_INVALID_VALUE, "null destination is CUDA_ERROR_INVALID_VALUE");
  int can = -1;
  CUresult cr = cuDeviceCanAccessPeer(&can, dev, dev);
  printf("cuDeviceCanAccessPeer(dev, dev): %s %d\n", result_name(cr), can);
  expect(cr == CUDA_SUCCESS && can == 0, "a device is not its own peer");
  CUresult en = cuCtxEnablePeerAccess(primary, 0), dis = cuCtxDisablePeerAccess(primary);
  printf("cuCtxEnablePeerAccess(current): %s\ncuCtxDisablePeerAccess(current): %s\n", result_name(en),
         result_name(dis));
  expect(en == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED && dis == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
         "peer access to the current context itself");
  CUresult last = cuCtxSynchronize();
  expect(last == CUDA_SUCCESS, "context healthy afterwards");
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
