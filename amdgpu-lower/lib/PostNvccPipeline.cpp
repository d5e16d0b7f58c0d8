//===- PostNvccPipeline.cpp - the -O3 middle-end pass list for nvcc PTX -----===//
//
// The new pass manager's pipeline text that optimizeModule() runs at -O3
// instead of LLVM's `default<O3>`. The input is nvcc's already optimised PTX
// (NVVM inlined, unrolled and vectorised it), translated instruction by
// instruction, so the work left is SSA cleanup, address-space inference and the
// AMDGPU passes. The list is `default<O3>` for the AMDGPU target (as
// `opt -passes='default<O3>' -print-pipeline-passes` prints it, LLVM 22) minus
// the passes that find nothing after nvcc or serve other languages: the
// loop vectoriser, the late runtime unroller with its InstCombine/SROA cleanup,
// loop distribution/load elimination, CHR, the coroutine, OpenMP, memprof,
// instrumentation and library-call passes (tailcallelim stays: it
// sets the `tail` markers that --emit=llvm shows), the SROA that would repeat the one
// at pipeline start, and two of the eight InstCombine runs. The SLP
// vectoriser stays (gfx90a pairs f32 operations into v_pk_* instructions).
// Checked on bench/codegen, the CUB corpus module and five corpus programs on
// gfx1100 and gfx90a (docs/notes/session7-perf.md): no kernel of bench/codegen
// changes; CUB gfx1100 +2 instructions in 28 kernels, gfx90a -3.5 %.
// Session 11 dropped what re-derives facts nvcc's own optimiser already used
// (docs/notes/session11-lead.md): both jump-threading and
// correlated-propagation runs, constraint-elimination, sccp after GVN,
// reassociate, aggressive-instcombine, simple-loop-unswitch, loop-idiom,
// indvars, mldst-motion, float2int and two more InstCombine runs (four stay:
// after inlining, in the CGSCC simplification, after the sinking SimplifyCFG,
// after SLP). The middle end of the CUB module costs 25 % less (opt
// -time-passes 1.29 -> 0.92 s); bench/codegen changes only gemm_tiled (gfx1100
// 100 -> 96 instructions), CUB gfx1100 43 558 -> 43 468 instructions, VGPRs equal.
// Options in <...> are the values `default<O3>` uses at that position.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

namespace amdgpulower {

#define SCFG_EARLY "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-arithmetic;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-arithmetic;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG_SINK "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;switch-to-arithmetic;no-switch-to-lookup;keep-loops;hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG_LATE "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;switch-to-arithmetic;switch-to-lookup;no-keep-loops;hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>"
#define SCFG_LAST "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;switch-to-arithmetic;no-switch-to-lookup;keep-loops;no-hoist-common-insts;hoist-loads-stores-with-cond-faulting;no-sink-common-insts;speculate-blocks;simplify-cond-branch;speculate-unpredictables>"
#define IC "instcombine<max-iterations=1;no-verify-fixpoint>"

llvm::StringRef postNvccPipelineO3() {
  // Runs after optimizeModule()'s own SROA + RelaxNaNCanonicalization.
  static constexpr char kText[] =
    "inferattrs,"
    "function<eager-inv>(" SCFG_EARLY ","
    "early-cse<>),"
    "amdgpu-printf-runtime-binding,"
    "ipsccp,"
    "globalopt,"
    "function<eager-inv>(" IC ","
    "amdgpu-uniform-intrinsic-combine,"
    SCFG "),"
    "always-inline,"
    "require<globals-aa>,"
    "function(invalidate<aa>),"
    "cgscc(devirt<4>(inline,"
    "function-attrs<skip-non-recursive-function-attrs>,"
    "argpromotion,"
    "function(amdgpu-promote-kernel-arguments,"
    "infer-address-spaces,"
    "amdgpu-lower-kernel-attributes,"
    "amdgpu-promote-alloca-to-vector),"
    "function<eager-inv;no-rerun>(sroa<modify-cfg>,"
    "early-cse<memssa>,"
    "speculative-execution<only-if-divergent-target>,"
    SCFG ","
    IC ","
    "amdgpu-uniform-intrinsic-combine,"
    "tailcallelim,"
    SCFG ","
    "loop-mssa(loop-instsimplify,"
    "loop-simplifycfg,"
    "licm<no-allowspeculation>,"
    "loop-rotate<header-duplication;no-prepare-for-lto>,"
    "licm<allowspeculation>),"
    SCFG ","
    "loop(loop-deletion,"
    "loop-unroll-full),"
    "sroa<modify-cfg>,"
    "vector-combine,"
    "gvn<>,"
    "bdce,"
    "amdgpu-uniform-intrinsic-combine,"
    "adce,"
    "memcpyopt,"
    "dse,"
    "loop-mssa(licm<allowspeculation>),"
    "infer-address-spaces,"
    SCFG_SINK ","
    IC ","
    "amdgpu-uniform-intrinsic-combine),"
    "function-attrs)),"
    "deadargelim,"
    "globalopt,"
    "globaldce,"
    "elim-avail-extern,"
    "rpo-function-attrs,"
    "recompute-globalsaa,"
    "function<eager-inv>(drop-unnecessary-assumes,"
    "lower-constant-intrinsics,"
    "loop(loop-rotate<header-duplication;no-prepare-for-lto>,"
    "loop-deletion),"
    "infer-alignment,"
    SCFG_LATE ","
    "slp-vectorizer,"
    "vector-combine,"
    IC ","
    "loop-mssa(licm<allowspeculation>),"
    "alignment-from-assumptions,"
    "infer-address-spaces,"
    "loop-sink,"
    "instsimplify,"
    "div-rem-pairs,"
    "tailcallelim,"
    SCFG_LAST "),"
    "amdgpu-attributor,"
    "globaldce,"
    "constmerge"
      ;
  return kText;
}

#undef SCFG_EARLY
#undef SCFG
#undef SCFG_SINK
#undef SCFG_LATE
#undef SCFG_LAST
#undef IC

} // namespace amdgpulower
