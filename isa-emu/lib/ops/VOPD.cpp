//===- VOPD.cpp - gfx11 dual issue (v_dual_X :: v_dual_Y) -----------------===//
//
// Both halves read their sources before either result is written: X runs
// into a temporary VGPR row, Y runs, then X's row is copied to its
// destination.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

void v_dual(Wave &w, const Inst &I) {
  const Inst &X = w.prog->helpers[I.aux], &Y = w.prog->helpers[I.aux + 1];
  Inst Xt = X;
  Xt.d[0].reg = 257;
  // X's accumulating forms (fmac) read their destination: seed the temporary.
  uint32_t *T = w.vrow(257), *D = w.vrow(X.d[0].reg);
  memcpy(T, D, w.W * 4);
  Xt.fn(w, Xt);
  Y.fn(w, Y);
  lanes(w, [&](unsigned l) { D[l] = T[l]; });
}

} // namespace isaemu::detail
