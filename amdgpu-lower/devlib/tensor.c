/*===- tensor.c - tensor-core accumulation (mma.sync / wmma.mma) -----------===*
 *
 * ptx-to-llvm computes every product of an mma/wmma k-step exactly (in
 * double) and gathers the fragments across the warp itself; what is left
 * here is how the tensor core adds those products to the accumulator, which
 * is observable in the low bits and must match the H200: the fused-group
 * model of tensor_model.h with the parameters fitted to the H200's results
 * (tests/corpus/tensor_numerics.cu, tests/golden/tensor/). Nothing here
 * depends on the wave size.
 *===----------------------------------------------------------------------===*/
#include "wave.h"
#include "tensor_model.h"


#define TC_PRODUCTS double p0, double p1, double p2, double p3, double p4, double p5, double p6, double p7, \
  double p8, double p9, double p10, double p11, double p12, double p13, double p14, double p15
#define TC_ARRAY {p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15}

__attribute__((noinline)) uint32_t __ptx_tc_dot_f32(uint32_t c, uint32_t n, TC_PRODUCTS) {
  const double p[16] = TC_ARRAY;
  return tc_dot(&kTcModelF32, c, p, (int)(n > 16 ? 16 : n), 24, 8, 0x7fffffffu);
}

__attribute__((noinline)) uint32_t __ptx_tc_dot_f16(uint32_t c, uint32_t n, TC_PRODUCTS) {
  const double p[16] = TC_ARRAY;
  return tc_dot(&kTcModelF16, c & 0xffffu, p, (int)(n > 16 ? 16 : n), 11, 5, 0x7fffu);
}
