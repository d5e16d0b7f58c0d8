// OpenCL C test kernels for amdgpu-emu, compiled by clang-22 for gfx1100
// (wave32) and gfx90a (wave64) at build time. Uses AMDGPU builtins directly
// (no device library): WAVE is 32 or 64.
typedef unsigned int uint;
typedef unsigned long ulong;

static inline uint lsize(int d) {
  __constant ushort *p = (__constant ushort *)__builtin_amdgcn_implicitarg_ptr();
  return p[6 + d]; // hidden group_size_x/y/z at 12/14/16
}
static inline uint lid(int d) {
  return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y() : __builtin_amdgcn_workitem_id_z();
}
static inline uint gid(int d) {
  uint g = d == 0 ? __builtin_amdgcn_workgroup_id_x() : d == 1 ? __builtin_amdgcn_workgroup_id_y() : __builtin_amdgcn_workgroup_id_z();
  return g * lsize(d) + lid(d);
}
static inline ulong ballot(bool b) {
#if WAVE == 64
  return __builtin_amdgcn_ballot_w64(b);
#else
  return __builtin_amdgcn_ballot_w32(b);
#endif
}

__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  uint i = gid(0);
  if (i < n) c[i] = a[i] + b[i];
}

__kernel void reduce_lds(__global const int *in, __global int *out) {
  __local int tmp[256];
  uint l = lid(0);
  tmp[l] = in[gid(0)];
  __builtin_amdgcn_s_barrier();
  for (uint s = lsize(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    __builtin_amdgcn_s_barrier();
  }
  if (l == 0) __atomic_fetch_add(out, tmp[0], __ATOMIC_RELAXED);
}

// dynamic LDS through a local pointer argument (value = LDS offset)
__kernel void reduce_dyn(__global const int *in, __global int *out, __local int *tmp) {
  uint l = lid(0);
  tmp[l] = in[gid(0)];
  __builtin_amdgcn_s_barrier();
  for (uint s = lsize(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    __builtin_amdgcn_s_barrier();
  }
  if (l == 0) out[__builtin_amdgcn_workgroup_id_x()] = tmp[0];
}

// divergent loops and branches; after the divergent region the whole wave
// must be active again (ballot of true == all lanes of the wave).
__kernel void diverge(__global int *out, __global ulong *ballots) {
  uint i = gid(0);
  int acc = 0;
  for (uint k = 0; k < (i % 7) * 3 + 1; ++k) {
    if ((k + i) & 1) acc += k * 3;
    else if (k % 3 == 0) acc -= (int)i;
    else { acc ^= 0x55; if (acc > 100) break; }
  }
  if (i % 5 == 0) { acc *= 2; } else { acc += 7; }
  out[i] = acc;
  ulong b = ballot(true);
  if (lid(0) % WAVE == 0) ballots[i / WAVE] = b;
}

__kernel void waveops(__global uint *out) {
  uint i = gid(0);
  uint l = __builtin_amdgcn_mbcnt_lo(~0u, 0);
#if WAVE == 64
  l = __builtin_amdgcn_mbcnt_hi(~0u, l);
#endif
  ulong odd = ballot(l & 1);
  uint rl = __builtin_amdgcn_readlane(i * 10, 3);
  uint rf;
  if (l >= 5) rf = __builtin_amdgcn_readfirstlane(i); else rf = 12345;
  uint rev = __builtin_amdgcn_ds_bpermute((int)((WAVE - 1 - l) * 4), (int)(i * 2));
  out[i * 6 + 0] = l;
  out[i * 6 + 1] = (uint)odd;
  out[i * 6 + 2] = (uint)(odd >> 32);
  out[i * 6 + 3] = rl;
  out[i * 6 + 4] = rf;
  out[i * 6 + 5] = rev;
}

__kernel void atomics(__global const uint *in, __global uint *hist, __global float *fsum, __global int *imax, int n) {
  uint i = gid(0);
  if (i >= n) return;
  __atomic_fetch_add(&hist[in[i] % 16], 1u, __ATOMIC_RELAXED);
  // float add through a compare-exchange loop
  float v = (float)(in[i] % 8);
  uint old = __atomic_load_n((__global uint *)fsum, __ATOMIC_RELAXED);
  for (;;) {
    float f = as_float(old) + v;
    if (__atomic_compare_exchange_n((__global uint *)fsum, &old, as_uint(f), false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
  }
  __atomic_fetch_max(imax, (int)in[i], __ATOMIC_RELAXED);
}

// Every workgroup but the last spins until the last one raises the flag.
__kernel void spin_last(__global volatile int *flag, __global int *out) {
  uint g = __builtin_amdgcn_workgroup_id_x();
  uint ng = ((__constant uint *)__builtin_amdgcn_implicitarg_ptr())[0];
  if (g == ng - 1) {
    if (lid(0) == 0) __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  } else {
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) __builtin_amdgcn_s_sleep(1);
  }
  out[gid(0)] = (int)g + 1;
}

__kernel void oob_store(__global int *out, int n) {
  uint i = gid(0);
  out[i + (uint)n] = 1;
}

__kernel void private_array(__global const int *idx, __global int *out) {
  volatile int arr[32];
  uint i = gid(0);
  for (int k = 0; k < 32; ++k) arr[k] = k * k + (int)i;
  out[i] = arr[idx[i] & 31];
}

__kernel void hidden_args(__global uint *out) {
  if (gid(0) != 0 || gid(1) != 0 || gid(2) != 0) return;
  __constant uint *h = (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
  __constant ushort *h16 = (__constant ushort *)h;
  out[0] = h[0]; out[1] = h[1]; out[2] = h[2];
  out[3] = h16[6]; out[4] = h16[7]; out[5] = h16[8];
  out[6] = h16[32];          // grid_dims
  out[7] = h[30];            // dynamic_lds_size
  __constant uint *d = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
  out[8] = d[3]; out[9] = d[4]; out[10] = d[5]; // grid_size_x/y/z
}

__kernel void grid2d(__global uint *out, uint width) {
  uint x = gid(0), y = gid(1);
  out[y * width + x] = (y << 16) | x;
}

__kernel void do_trap(__global int *out) {
  if (gid(0) == 3) __builtin_trap();
  out[gid(0)] = 1;
}

// compute-bound (for the benchmark): per-lane polynomial iterations
__kernel void compute_bound(__global float *out, int iters) {
  uint i = gid(0);
  float x = (float)i * 0.001f, acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    acc = __builtin_fmaf(acc, 0.999f, x);
    x = x * 1.0001f + 0.5f;
  }
  out[i] = acc;
}

// memory-bound (for the benchmark): strided copy with a light add
__kernel void memory_bound(__global const float *in, __global float *out, int n, int reps) {
  uint i = gid(0);
  uint stride = lsize(0) * ((__constant uint *)__builtin_amdgcn_implicitarg_ptr())[0];
  for (int r = 0; r < reps; ++r)
    for (uint k = i; k < (uint)n; k += stride) out[k] = in[k] + 1.0f;
}

// Decoupled chained prefix: workgroup g waits (spinning) for g-1's flag.
// Needs in-order workgroup dispatch and forward progress between resident
// workgroups, but not a cooperative launch.
__kernel void chained_sum(__global const int *in, __global volatile int *flags, __global int *prefix, __global int *out) {
  __local int agg;
  uint g = __builtin_amdgcn_workgroup_id_x();
  uint l = lid(0);
  if (l == 0) agg = 0;
  __builtin_amdgcn_s_barrier();
  __atomic_fetch_add(&agg, in[gid(0)], __ATOMIC_RELAXED);
  __builtin_amdgcn_s_barrier();
  if (l == 0) {
    int excl = 0;
    if (g > 0) {
      while (__atomic_load_n(&flags[g - 1], __ATOMIC_ACQUIRE) == 0) __builtin_amdgcn_s_sleep(1);
      excl = prefix[g - 1];
    }
    prefix[g] = excl + agg;
    __atomic_store_n(&flags[g], 1, __ATOMIC_RELEASE);
    out[g] = excl;
  }
}
