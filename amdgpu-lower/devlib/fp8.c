/*===- fp8.c - f32 <-> e4m3 / e5m2 conversions (cvt ... e4m3x2/e5m2x2) -----===*
 *
 * One byte at a time; ptx-to-llvm packs/unpacks the x2 forms (the element
 * from source a / the upper half goes to the upper byte).
 * f32 -> fp8, round to nearest even, .satfinite (PTX requires it for these
 * destinations): finite overflow and +-Inf give +-MAXNORM (e4m3 0x7e = 448,
 * e5m2 0x7b = 57344); NaN gives 0x7f; subnormals of the fp8 format are
 * produced exactly (the rounding is a single rounding from the f32 value).
 * .relu: negative results (including -0) become +0; NaN stays 0x7f.
 * fp8 -> f16 is exact; a NaN byte gives the f16 NaN 0x7fff; .relu clamps
 * negative results to +0.
 *===----------------------------------------------------------------------===*/
#include "wave.h"

uint32_t __ptx_cvt_f32_to_fp8(float x, uint32_t e5m2, uint32_t relu) {
  const int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const uint32_t maxnorm = e5m2 ? 0x7bu : 0x7eu;
  if (__builtin_isnan(x)) return 0x7fu;
  uint32_t sign = __builtin_signbit(x) ? 0x80u : 0u;
  if (relu && sign) return 0u;
  float a = __builtin_fabsf(x);
  if (__builtin_isinf(a)) return sign | maxnorm;
  const int emin = 1 - bias;
  uint32_t enc;
  if (a < __builtin_ldexpf(1.0f, emin)) {
    /* subnormal range: units of 2^(emin - mbits); q may round up to the
     * smallest normal, whose encoding is exactly q. */
    float q = __builtin_rintf(__builtin_ldexpf(a, mbits - emin));
    enc = (uint32_t)q;
  } else {
    int e;
    float m = __builtin_frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    e -= 1;                            /* a = (2m) * 2^e, 2m in [1, 2) */
    float q = __builtin_rintf(__builtin_ldexpf(m, mbits + 1));
    if (q >= (float)(1u << (mbits + 1))) { q *= 0.5f; e += 1; }
    int ef = e + bias;
    if (ef > (e5m2 ? 30 : 15)) return sign | maxnorm;
    enc = ((uint32_t)ef << mbits) | ((uint32_t)q - (1u << mbits));
    if (enc > maxnorm) enc = maxnorm;
  }
  return sign | enc;
}

uint32_t __ptx_cvt_fp8_to_f16(uint32_t byte, uint32_t e5m2, uint32_t relu) {
  byte &= 0xffu;
  uint32_t sign = byte & 0x80u, mag = byte & 0x7fu;
  uint32_t h;
  if (e5m2) {
    if (mag > 0x7cu) return 0x7fffu; /* NaN */
    h = byte << 8;                      /* e5m2 is the top byte of an f16 */
  } else {
    if (mag == 0x7fu) return 0x7fffu;
    uint32_t ef = mag >> 3, mf = mag & 7u;
    float v = ef ? __builtin_ldexpf((float)(8u + mf), (int)ef - 7 - 3)
                 : __builtin_ldexpf((float)mf, -6 - 3);
    h = (uint32_t)__builtin_bit_cast(uint16_t, (_Float16)v) | (sign << 8);
  }
  if (relu && (h & 0x8000u)) return 0u;
  return h;
}
