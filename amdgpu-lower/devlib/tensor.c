/*===- tensor.c - tensor-core accumulation (mma.sync / wmma.mma) -----------===*
 *
 * ptx-to-llvm gathers the fragments across the warp and passes the
 * factors of every product of an mma/wmma k-step (exact in double); what is left
 * here is how the tensor core adds those products to the accumulator, which
 * is observable in the low bits and must match the H200: the fused-group
 * model of tensor_model.h with the parameters fitted to the H200's results
 * (tests/corpus/tensor_numerics.cu, tests/golden/tensor/). Nothing here
 * depends on the wave size.
 *===----------------------------------------------------------------------===*/
#include "wave.h"
#include "tensor_model.h"


#define TC_FACTORS(x) double x##0, double x##1, double x##2, double x##3, double x##4, double x##5, double x##6, \
  double x##7, double x##8, double x##9, double x##10, double x##11, double x##12, double x##13, double x##14, double x##15
#define TC_ARRAY(x) {x##0, x##1, x##2, x##3, x##4, x##5, x##6, x##7, x##8, x##9, x##10, x##11, x##12, x##13, x##14, x##15}

__attribute__((noinline)) uint32_t __ptx_tc_dot_f32(uint32_t c, uint32_t n, TC_FACTORS(a), TC_FACTORS(b)) {
  const double a[16] = TC_ARRAY(a), b[16] = TC_ARRAY(b);
  return tc_fused(&kTcModelF32, c, a, b, (int)(n > 16 ? 16 : n), 24, 8, 0x7fffffffu); /* group 16: one step */
}

__attribute__((noinline)) uint32_t __ptx_tc_dot_f16(uint32_t c, uint32_t n, TC_FACTORS(a), TC_FACTORS(b)) {
  const double a[16] = TC_ARRAY(a), b[16] = TC_ARRAY(b);
  return tc_fused(&kTcModelF16, c & 0xffffu, a, b, (int)(n > 16 ? 16 : n), 11, 5, 0x7fffu);
}
