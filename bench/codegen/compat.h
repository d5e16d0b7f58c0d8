/*===- compat.h - one CUDA-style source for nvcc and for native HIP ---------===*
 *
 * bench/codegen compiles kernels.cu twice: as CUDA (nvcc -> PTX -> ptx2amd)
 * and as native HIP (clang-22 -x hip with Debian's HIP 5.2 headers). This
 * header maps the few CUDA spellings HIP 5.2 lacks (the *_sync warp
 * intrinsics, __syncwarp) and, for HIP, defines the handful of ROCm device
 * library entry points (__ockl_*, __ocml_*) the headers call: there are no
 * ROCm device libraries on this machine (-nogpulib). Each definition is the
 * clang builtin the ROCm library itself reduces to, so the native side is
 * what clang emits for HIP on a ROCm install.
 * Warp operations take width 32 explicitly so the HIP build has CUDA's
 * 32-lane semantics on wave64 targets too.
 *===----------------------------------------------------------------------===*/
#ifndef BENCH_CODEGEN_COMPAT_H
#define BENCH_CODEGEN_COMPAT_H

#if defined(__HIP__)
#include <hip/hip_runtime.h>

#define CG_DEV extern "C" __device__ __attribute__((always_inline))
CG_DEV size_t __ockl_get_local_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y()
                                                            : __builtin_amdgcn_workitem_id_z();
}
CG_DEV size_t __ockl_get_group_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_id_x() : d == 1 ? __builtin_amdgcn_workgroup_id_y()
                                                             : __builtin_amdgcn_workgroup_id_z();
}
CG_DEV size_t __ockl_get_local_size(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_size_x() : d == 1 ? __builtin_amdgcn_workgroup_size_y()
                                                               : __builtin_amdgcn_workgroup_size_z();
}
/* Code object v5: hidden_block_count_{x,y,z} at the start of the hidden block. */
CG_DEV size_t __ockl_get_num_groups(uint d) {
  return ((const __attribute__((address_space(4))) uint *)__builtin_amdgcn_implicitarg_ptr())[d];
}
CG_DEV size_t __ockl_get_global_size(uint d) {
  return __ockl_get_num_groups(d) * __ockl_get_local_size(d);
}
/* __syncthreads: modern HIP's workgroup release / s_barrier / acquire. */
CG_DEV void __atomic_work_item_fence(__cl_mem_fence_flags, __memory_order o, __memory_scope s) {
  if (s == __memory_scope_work_group) {
    if (o == __memory_order_release) __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    else if (o == __memory_order_acquire) __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
    else __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
  } else {
    if (o == __memory_order_release) __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
    else if (o == __memory_order_acquire) __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
    else __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  }
}
CG_DEV uint __ockl_lane_u32(void) {
#if __AMDGCN_WAVEFRONT_SIZE == 64
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
#else
  return __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#endif
}
CG_DEV float __ocml_exp_f32(float x) { return __builtin_expf(x); }
CG_DEV float __ocml_log_f32(float x) { return __builtin_logf(x); }
CG_DEV float __ocml_native_exp2_f32(float x) { return __builtin_amdgcn_exp2f(x); }
CG_DEV float __ocml_rsqrt_f32(float x) { return __builtin_amdgcn_rsqf(x); }
CG_DEV float __ocml_sqrt_f32(float x) { return __builtin_sqrtf(x); }
CG_DEV float __ocml_fmax_f32(float a, float b) { return __builtin_fmaxf(a, b); }
CG_DEV float __ocml_fmin_f32(float a, float b) { return __builtin_fminf(a, b); }
CG_DEV float __ocml_fma_f32(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
CG_DEV float __ocml_fabs_f32(float a) { return __builtin_fabsf(a); }
/* HIP 5.2's hip_fp16.h does not compile with clang 22 (it calls the removed
 * __llvm_amdgcn_rcp_f16); the fp16 kernel needs only these, defined as HIP
 * defines them (_Float16 and its 2-vector, packed fma). */
typedef _Float16 __half;
typedef _Float16 __half2 __attribute__((ext_vector_type(2)));
static __device__ __attribute__((always_inline)) __half2 __halves2half2(__half a, __half b) {
  return __half2{a, b};
}
static __device__ __attribute__((always_inline)) __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __builtin_elementwise_fma(a, b, c);
}
CG_DEV void __ockl_atomic_add_noret_f32(float *p, float v) {
  __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}

#define CG_SHFL_XOR(v, m) __shfl_xor((v), (m), 32)
#define CG_SHFL_UP(v, d) __shfl_up((v), (d), 32)
#define CG_SHFL(v, l) __shfl((v), (l), 32)
#define CG_SYNCWARP() __builtin_amdgcn_wave_barrier()
#define CG_EXPF(x) __expf(x)
#else
#include <cuda_fp16.h>
#define CG_SHFL_XOR(v, m) __shfl_xor_sync(0xffffffffu, (v), (m))
#define CG_SHFL_UP(v, d) __shfl_up_sync(0xffffffffu, (v), (d))
#define CG_SHFL(v, l) __shfl_sync(0xffffffffu, (v), (l))
#define CG_SYNCWARP() __syncwarp()
#define CG_EXPF(x) __expf(x)
#endif

#define CG_KERNEL extern "C" __global__

#endif
