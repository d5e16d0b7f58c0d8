// Source of tests/lit/ptx-to-llvm/async-run.ptx (nvcc -ptx -arch=sm_90).
#include <cstdint>
__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// cp.async with src-size zero fill and ignore-src; 32 threads, each copies 16 bytes.
extern "C" __global__ void cpasync(const uint8_t *in, uint8_t *out) {
  __shared__ __align__(16) uint8_t buf[32 * 16 + 32 * 4];
  unsigned t = threadIdx.x;
  unsigned srcsize = t % 17;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(buf + 16 * t)), "l"(in + 16 * t), "r"(srcsize));
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 4, p; }"
               ::"r"(smem(buf + 512 + 4 * t)), "l"(in + 4 * t), "r"(t & 1));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  for (unsigned i = t; i < sizeof buf; i += 32) out[i] = buf[i];
}

// mbarrier state machine: 64 threads, two phases, tx bytes from a bulk copy.
extern "C" __global__ void mbar(const uint4 *in, uint32_t *out) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ __align__(16) uint4 data[8];
  unsigned t = threadIdx.x;
  unsigned b = smem(&bar);
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(64));
  __syncthreads();
  // Phase 0: every thread arrives; thread 0 also expects 128 tx bytes and issues the bulk copy.
  uint64_t st;
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(b), "r"(128));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem(data)), "l"(in), "r"(128), "r"(b) : "memory");
  } else {
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(b));
  }
  unsigned pend;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pend) : "l"(st));
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(b), "l"(st));
  unsigned v = ((const uint32_t *)data)[t % 32];
  // Phase 1: 32 threads arrive_drop (expected count becomes 32 for phase 2), the others arrive twice's worth via count.
  unsigned p0, p1;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(p0) : "r"(b));
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }" : "=r"(p1) : "r"(b));
  __syncthreads();
  uint64_t st2;
  if (t < 32) asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(st2) : "r"(b));
  else if (t < 48) asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;" : "=l"(st2) : "r"(b), "r"(2));
  else st2 = 0;
  __syncthreads();
  unsigned q;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }" : "=r"(q) : "r"(b));
  // Phase 2 expects 32 arrivals: 31 arrive, then complete_tx/expect_tx must balance before it completes.
  __syncthreads();
  unsigned r1 = 0, r2 = 0, r3 = 0;
  if (t == 0) {
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(8));
    for (int i = 0; i < 32; ++i) asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(b));
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(r1) : "r"(b));
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(8));
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(r2) : "r"(b));
    uint64_t raw;
    asm volatile("ld.shared.u64 %0, [%1];" : "=l"(raw) : "r"(b));
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(b));
    r3 = (unsigned)(raw != 0);
  }
  out[t * 8 + 0] = v;
  out[t * 8 + 1] = pend;
  out[t * 8 + 2] = p0;
  out[t * 8 + 3] = p1;
  out[t * 8 + 4] = q;
  out[t * 8 + 5] = r1;
  out[t * 8 + 6] = r2;
  out[t * 8 + 7] = r3;
}
