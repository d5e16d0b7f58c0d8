// drv_ctx.cpp: created contexts (cuCtxCreate / cuCtxDestroy / cuCtxPushCurrent / cuCtxPopCurrent)
// beside the primary context of device 0: the per-thread context stack, what a context owns
// (modules, functions, streams) versus what unified addressing shares across the contexts of one
// device (device pointers), printf output of kernels launched in two contexts, and what
// cuCtxDestroy releases (memory back to cuMemGetInfo, the context popped from the stack). The
// dead-handle probes run last. Prints every result; the H200's stdout is the golden.
// usage: drv_ctx K.ptx KX.ptx
#include "drv_common.h"

#include <thread>

#define SHOW(call) printf("%-52s -> %s\n", #call, result_name(call))

static const char *who(CUcontext c, CUcontext p, CUcontext a, CUcontext b) {
  return !c ? "null" : c == p ? "primary" : c == a ? "A" : c == b ? "B" : "other";
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<char> ptx = read_file(argv[1]), ptx2 = read_file(argv[2]);
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext cur = (CUcontext)1, P = nullptr, A = nullptr, B = nullptr;
  CHECK(cuCtxGetCurrent(&cur));
  printf("current at start: %s\n", who(cur, P, A, B));
  unsigned pflags;
  int pactive;
  CHECK(cuDevicePrimaryCtxGetState(dev, &pflags, &pactive));
  printf("primary state at start: flags=0x%x active=%d\n", pflags, pactive);
  CUcontext popped = (CUcontext)1;
  SHOW(cuCtxPopCurrent(&popped));
  printf("popped from an empty stack: %s\n", popped == (CUcontext)1 ? "unchanged" : popped ? "context" : "null");
  SHOW(cuCtxSynchronize());

  // ---- create, stack ------------------------------------------------------------------------
  CHECK(cuCtxCreate(&A, nullptr, 0, dev));
  CHECK(cuCtxGetCurrent(&cur));
  printf("after create A: current %s\n", who(cur, P, A, B));
  CHECK(cuDevicePrimaryCtxGetState(dev, &pflags, &pactive));
  printf("primary state with A: active=%d\n", pactive);
  CHECK(cuCtxCreate(&B, nullptr, CU_CTX_SCHED_BLOCKING_SYNC, dev));
  CHECK(cuCtxGetCurrent(&cur));
  printf("after create B: current %s, A != B: %d\n", who(cur, P, A, B), A != B);
  unsigned fl;
  CHECK(cuCtxGetFlags(&fl));
  printf("B flags: 0x%x\n", fl);
  CUdevice d2 = -1;
  CHECK(cuCtxGetDevice(&d2));
  printf("B device: %d\n", d2);
  unsigned long long ida, idb;
  CHECK(cuCtxGetId(A, &ida));
  CHECK(cuCtxGetId(B, &idb));
  printf("ids differ: %d\n", ida != idb);
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuCtxGetCurrent(&cur));
  printf("pop -> %s, current %s\n", who(popped, P, A, B), who(cur, P, A, B));
  CHECK(cuCtxGetFlags(&fl));
  printf("A flags: 0x%x\n", fl);
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuCtxGetCurrent(&cur));
  printf("pop -> %s, current %s\n", who(popped, P, A, B), who(cur, P, A, B));
  SHOW(cuCtxPopCurrent(&popped));
  CHECK(cuDevicePrimaryCtxRetain(&P, dev));
  printf("primary differs from A and B: %d\n", P != A && P != B);
  CHECK(cuCtxPushCurrent(A));
  CHECK(cuCtxPushCurrent(B));
  CHECK(cuCtxSetCurrent(P)); // replaces the top (B)
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuCtxGetCurrent(&cur));
  printf("push A, push B, set P, pop -> %s, current %s\n", who(popped, P, A, B), who(cur, P, A, B));
  CHECK(cuCtxPopCurrent(&popped));

  // ---- a new thread starts with an empty stack ---------------------------------------------
  std::thread([&] {
    CUcontext c = (CUcontext)1;
    cuCtxGetCurrent(&c);
    printf("thread: current %s\n", who(c, P, A, B));
    CHECK(cuCtxSetCurrent(B));
    cuCtxGetCurrent(&c);
    printf("thread: after set, current %s\n", who(c, P, A, B));
  }).join();
  CHECK(cuCtxGetCurrent(&cur));
  printf("main after thread: current %s\n", who(cur, P, A, B));

  // ---- what belongs to a context ---------------------------------------------------------
  const int n = 1024;
  CHECK(cuCtxPushCurrent(A));
  CUmodule mA, mxA;
  CHECK(cuModuleLoadData(&mA, ptx.data()));
  CHECK(cuModuleLoadData(&mxA, ptx2.data()));
  CUfunction addA, helloA;
  CHECK(cuModuleGetFunction(&addA, mA, "vector_add"));
  CHECK(cuModuleGetFunction(&helloA, mxA, "ctx_hello"));
  CUdeviceptr a, b, c, tagA;
  CHECK(cuMemAlloc(&a, n * 4));
  CHECK(cuMemAlloc(&b, n * 4));
  CHECK(cuMemAlloc(&c, n * 4));
  CHECK(cuMemAlloc(&tagA, 4));
  CUstream sA;
  CHECK(cuStreamCreate(&sA, CU_STREAM_NON_BLOCKING));
  CUcontext sctx;
  CHECK(cuStreamGetCtx(sA, &sctx));
  printf("stream A's context: %s\n", who(sctx, P, A, B));
  std::vector<float> ha(n), hb(n), hc(n);
  for (int i = 0; i < n; ++i) { ha[i] = i; hb[i] = 2 * i; }

  CHECK(cuCtxPushCurrent(B));
  CUcontext pc = nullptr;
  CHECK(cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, a));
  printf("A's pointer, B current: context attribute %s\n", who(pc, P, A, B));
  SHOW(cuMemcpyHtoD(a, ha.data(), n * 4));
  SHOW(cuMemcpyHtoD(b, hb.data(), n * 4));
  int nn = n;
  void *args[] = {&a, &b, &c, &nn};
  SHOW(cuLaunchKernel(addA, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  SHOW(cuCtxSynchronize());
  SHOW(cuLaunchKernel(addA, n / 256, 1, 1, 256, 1, 1, 0, sA, args, nullptr));
  SHOW(cuStreamSynchronize(sA));
  SHOW(cuStreamQuery(sA));
  CUmodule mB, mxB;
  CHECK(cuModuleLoadData(&mB, ptx.data()));
  CHECK(cuModuleLoadData(&mxB, ptx2.data()));
  CUfunction addB, helloB;
  CHECK(cuModuleGetFunction(&addB, mB, "vector_add"));
  CHECK(cuModuleGetFunction(&helloB, mxB, "ctx_hello"));
  printf("functions of the two modules differ: %d\n", addA != addB);
  SHOW(cuLaunchKernel(addB, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  SHOW(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(hc.data(), c, n * 4));
  printf("B's kernel on A's memory: c[1]=%g c[1023]=%g\n", hc[1], hc[n - 1]);
  SHOW(cuLaunchKernel(addB, n / 256, 1, 1, 256, 1, 1, 0, sA, args, nullptr));
  SHOW(cuStreamSynchronize(sA));
  CUdeviceptr bmem, tagB;
  CHECK(cuMemAlloc(&tagB, 4));
  size_t free0, total0, free1, total1;
  CHECK(cuMemGetInfo(&free0, &total0));
  CHECK(cuMemAlloc(&bmem, 256 << 20));
  CHECK(cuMemGetInfo(&free1, &total1));
  printf("B's 256 MiB allocation lowers free memory: %d (total same: %d)\n", free1 + (200 << 20) < free0, total0 == total1);
  CUstream sB;
  CHECK(cuStreamCreate(&sB, 0));
  CUevent eB;
  CHECK(cuEventCreate(&eB, 0));

  // printf routing: one kernel per context, each synchronized in its own context.
  int one = 1, two = 2;
  void *ha1[] = {&one, &tagA}, *hb2[] = {&two, &tagB};
  CHECK(cuLaunchKernel(helloB, 1, 1, 1, 32, 1, 1, 0, nullptr, hb2, nullptr));
  CHECK(cuCtxSynchronize());
  printf("(B synchronized)\n");
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuLaunchKernel(helloA, 1, 1, 1, 32, 1, 1, 0, nullptr, ha1, nullptr));
  CHECK(cuCtxSynchronize());
  printf("(A synchronized)\n");
  int tv[2];
  CHECK(cuMemcpyDtoH(&tv[0], tagA, 4));
  CHECK(cuMemcpyDtoH(&tv[1], tagB, 4));
  printf("tags: %d %d\n", tv[0], tv[1]);
  // Memory of one context freed while the other is current.
  CHECK(cuCtxPushCurrent(B));
  SHOW(cuMemFree(c));
  CHECK(cuCtxPopCurrent(&popped));

  // ---- destroy B while it is not current, then check what it released ----------------------
  CHECK(cuCtxGetCurrent(&cur));
  printf("before destroy: current %s\n", who(cur, P, A, B));
  CHECK(cuMemGetInfo(&free0, &total0));
  SHOW(cuCtxDestroy(B));
  CHECK(cuMemGetInfo(&free1, &total1));
  printf("destroying B returned its 256 MiB: %d\n", free1 > free0 + (200 << 20));
  CHECK(cuCtxGetCurrent(&cur));
  printf("after destroy B: current %s\n", who(cur, P, A, B));
  // A created context destroyed while current is popped.
  CUcontext C2;
  CHECK(cuCtxCreate(&C2, nullptr, 0, dev));
  SHOW(cuCtxDestroy(C2));
  CHECK(cuCtxGetCurrent(&cur));
  printf("after destroy of the current C2: current %s\n", who(cur, P, A, B));
  SHOW(cuMemcpyDtoH(hc.data(), a, n * 4));
  printf("A's memory intact: a[5]=%g\n", hc[5]);
  SHOW(cuCtxSynchronize());
  CHECK(cuCtxPopCurrent(&popped));
  printf("popped %s\n", who(popped, P, A, B));
  CHECK(cuCtxGetCurrent(&cur));
  printf("current %s\n", who(cur, P, A, B));
  CHECK(cuCtxSetCurrent(A));
  // ---- dead handles of B (last: some may not be checked by a real driver) -----------------
  CUcontext pc2 = nullptr;
  SHOW(cuPointerGetAttribute(&pc2, CU_POINTER_ATTRIBUTE_CONTEXT, bmem));
  SHOW(cuMemcpyHtoD(tagB, &one, 4));
  SHOW(cuMemFree(bmem));
  SHOW(cuLaunchKernel(addB, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  SHOW(cuCtxSynchronize());
  SHOW(cuCtxPushCurrent(B));
  SHOW(cuCtxDestroy(A));
  CHECK(cuCtxGetCurrent(&cur));
  printf("after destroy A: current %s\n", who(cur, P, A, B));
  SHOW(cuDevicePrimaryCtxRelease(dev));
  printf("done\n");
  return 0;
}
