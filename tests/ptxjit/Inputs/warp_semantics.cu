// PTX warp/barrier semantics checked by DevlibSemanticsTest (device library
// under wave32, wave64-pack and wave64-pad, executed by amdgpu-emu) against a
// host model of the PTX ISA. Instructions are written as inline PTX so the
// exact forms (predicate outputs, membermasks, thread counts) are under test.
// Regenerate: nvcc -ptx -arch=sm_90 warp_semantics.cu -o warp_semantics.ptx
#include <cstdint>

__device__ unsigned lane_id() { unsigned l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }

// out[t*4 + {0..3}] = d and p of shfl.up/down/bfly/idx with runtime b, c.
extern "C" __global__ void shfl_all(const unsigned *a, unsigned b, unsigned c, unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, v = a[t], d, p;
  asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, -1; selp.u32 %1, 1, 0, q; }"
               : "=r"(d), "=r"(p) : "r"(v), "r"(b), "r"(c));
  out[t * 8 + 0] = d; out[t * 8 + 1] = p;
  asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, -1; selp.u32 %1, 1, 0, q; }"
               : "=r"(d), "=r"(p) : "r"(v), "r"(b), "r"(c));
  out[t * 8 + 2] = d; out[t * 8 + 3] = p;
  asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, -1; selp.u32 %1, 1, 0, q; }"
               : "=r"(d), "=r"(p) : "r"(v), "r"(b), "r"(c));
  out[t * 8 + 4] = d; out[t * 8 + 5] = p;
  asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, -1; selp.u32 %1, 1, 0, q; }"
               : "=r"(d), "=r"(p) : "r"(v), "r"(b), "r"(c));
  out[t * 8 + 6] = d; out[t * 8 + 7] = p;
}

// Votes, masks and reductions. Lanes with (lane % 5 == 4) are inactive (they
// skip the block); membermask = active lanes & mask.
extern "C" __global__ void vote_redux(const unsigned *a, unsigned mask, unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, l = lane_id(), v = a[t];
  unsigned *o = out + t * 20;
  if (l % 5 == 4) return;
  unsigned act;
  asm volatile("activemask.b32 %0;" : "=r"(act));
  unsigned mm = act & mask;
  o[0] = act;
  if (!((mm >> l) & 1)) return;
  unsigned r;
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }" : "=r"(r) : "r"(v & 1), "r"(mm));
  o[1] = r;
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.any.pred q, p, %2; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "r"(v & 1), "r"(mm));
  o[2] = r;
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.all.pred q, p, %2; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "r"(v & 1), "r"(mm));
  o[3] = r;
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.uni.pred q, p, %2; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "r"(v & 1), "r"(mm));
  o[4] = r;
  asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[5] = r;
  asm volatile("redux.sync.min.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[6] = r;
  asm volatile("redux.sync.max.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[7] = r;
  asm volatile("redux.sync.min.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[8] = r;
  asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[9] = r;
  asm volatile("redux.sync.and.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[10] = r;
  asm volatile("redux.sync.or.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[11] = r;
  asm volatile("redux.sync.xor.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mm)); o[12] = r;
  unsigned key = v % 3;
  asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(key), "r"(mm)); o[13] = r;
  unsigned p;
  asm volatile("{ .reg .pred q; match.all.sync.b32 %0|q, %2, %3; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(key), "r"(mm));
  o[14] = r; o[15] = p;
  asm volatile("{ .reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(mm));
  o[16] = r; o[17] = p;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); o[18] = r;
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(r)); o[19] = r;
}

// Barriers in a 128-thread block (4 warps): named barrier with a thread count
// between warps 0 and 1 only, arrive/sync producer-consumer between warps 2
// and 3, bar.red popc/and/or over the block.
extern "C" __global__ void barriers(const unsigned *a, unsigned *out) {
  __shared__ unsigned s[128];
  unsigned tid = threadIdx.x, t = blockIdx.x * blockDim.x + tid, w = tid / 32;
  unsigned *o = out + t * 6;
  s[tid] = a[t];
  if (w < 2) {
    asm volatile("bar.sync 1, 64;");
    o[0] = s[tid ^ 32];              // the other warp's value, after the named barrier
  } else if (w == 2) {
    s[tid] = a[t] * 3u;
    asm volatile("bar.arrive 2, 64;");
    o[0] = 0;
  } else {
    asm volatile("bar.sync 2, 64;");
    o[0] = s[tid - 32];              // warp 2's updated value
  }
  __syncthreads();
  unsigned r, v = a[t];
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 0, p; }" : "=r"(r) : "r"(v & 1));
  o[1] = r;
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; bar.red.and.pred q, 3, p; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "r"(v % 7));
  o[2] = r;
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; bar.red.or.pred q, 4, 128, p; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "r"((unsigned)(v == 12345u)));
  o[3] = r;
  unsigned wid;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
  o[4] = wid;
  unsigned nt;
  asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(nt));
  o[5] = nt + 1000u * lane_id();
}

// Named barrier with a thread count, used by every warp without divergence
// between the two warps of a wave64 (the form that is safe under pack):
// each thread publishes a value, `bar.sync 5, 128`, reads its mirror's.
extern "C" __global__ void named_uniform(const unsigned *a, unsigned *out) {
  __shared__ unsigned s[128];
  unsigned tid = threadIdx.x, t = blockIdx.x * blockDim.x + tid;
  for (int round = 0; round < 3; ++round) {
    s[tid] = a[t] + round;
    asm volatile("bar.sync 5, 128;");
    out[t * 3 + round] = s[127 - tid];
    asm volatile("bar.sync 6, 128;");
  }
}
