//===- SpecialRegs.cpp - PTX special registers -> __ptx_sreg_* calls ------===//
//
// Every special register read is a call to the device library (its value
// depends on the wave size and warp policy, or on the launch): %tid/%ntid/
// %ctaid/%nctaid per component, %laneid %warpid %nwarpid %smid %nsmid %gridid,
// %lanemask_*, %clock %clock_hi %clock64, %globaltimer(_lo/_hi),
// %dynamic_smem_size %total_smem_size %aggr_smem_size, %envreg0..31.
// Cluster registers are those of a one-CTA cluster (PTX defines them for
// launches without clusters): %cluster_ctaid = 0, %cluster_nctaid = 1,
// %cluster_ctarank = 0, %cluster_nctarank = 1, %is_explicit_cluster = 0,
// %clusterid = %ctaid, %nclusterid = %nctaid. %pm0..7 / %pm0_64..7_64 (whose
// behaviour PTX leaves undefined) read the cycle counter like %clock /
// %clock64. %reserved_smem_offset_{begin,end,cap,0,1} describe a region of
// shared memory the toolchain reserves per CTA (cooperative groups keep the
// barriers and exchange slots of multi-warp tiles at %reserved_smem_offset_1):
// a module-wide 288-byte .shared array `__ptx_reserved_smem` (linkonce_odr, so
// linked modules share it) that LLVM allocates in every kernel reaching a read;
// begin = 0 = 1 = its shared-window offset, end = begin + 288, cap = 288 -- the
// H200 reads begin 0, end 288, cap 1024, 0 and 1 both 0 (probes/
// smem_sregs_probe); its 1024 are the whole system-reserved kilobyte, of which
// only the first 288 bytes are the toolchain's. The rest are errors.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace llvm;

namespace ptx2llvm {

Value *readSpecialReg(FnCtx &fc, const ptx::Operand &op) {
  auto &b = fc.b;
  Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
  static const char *xyz[] = {"x", "y", "z"};
  auto comp = [&](const char *base) -> Value * {
    if (op.sregIndex > 2) { fc.error(op.loc, "bad component of special register " + op.name); return nullptr; }
    return fc.call(std::string("__ptx_sreg_") + base + "_" + xyz[op.sregIndex], i32, {});
  };
  using S = ptx::SReg;
  switch (op.sreg) {
  case S::Tid: return comp("tid");
  case S::Ntid: return comp("ntid");
  case S::Ctaid: case S::Clusterid: return comp("ctaid");
  case S::Nctaid: case S::Nclusterid: return comp("nctaid");
  case S::Laneid: return fc.call("__ptx_sreg_laneid", i32, {});
  case S::Warpid: return fc.call("__ptx_sreg_warpid", i32, {});
  case S::Nwarpid: return fc.call("__ptx_sreg_nwarpid", i32, {});
  case S::Smid: return fc.call("__ptx_sreg_smid", i32, {});
  case S::Nsmid: return fc.call("__ptx_sreg_nsmid", i32, {});
  case S::Gridid: return fc.call("__ptx_sreg_gridid", i64, {});
  case S::LanemaskEq: return fc.call("__ptx_sreg_lanemask_eq", i32, {});
  case S::LanemaskLe: return fc.call("__ptx_sreg_lanemask_le", i32, {});
  case S::LanemaskLt: return fc.call("__ptx_sreg_lanemask_lt", i32, {});
  case S::LanemaskGe: return fc.call("__ptx_sreg_lanemask_ge", i32, {});
  case S::LanemaskGt: return fc.call("__ptx_sreg_lanemask_gt", i32, {});
  case S::Clock: return fc.call("__ptx_sreg_clock", i32, {});
  case S::ClockHi: return fc.call("__ptx_sreg_clock_hi", i32, {});
  case S::Clock64: return fc.call("__ptx_sreg_clock64", i64, {});
  case S::Globaltimer: return fc.call("__ptx_sreg_globaltimer", i64, {});
  case S::GlobaltimerLo: return fc.call("__ptx_sreg_globaltimer_lo", i32, {});
  case S::GlobaltimerHi: return fc.call("__ptx_sreg_globaltimer_hi", i32, {});
  case S::DynamicSmemSize: return fc.call("__ptx_sreg_dynamic_smem_size", i32, {});
  case S::TotalSmemSize: return fc.call("__ptx_sreg_total_smem_size", i32, {});
  case S::AggrSmemSize: return fc.call("__ptx_sreg_aggr_smem_size", i32, {});
  case S::Pm: case S::Pm64:
    // PTX ISA: "%pm0..%pm7 are unsigned 32-bit read-only performance monitor
    // counters. Their behavior is currently undefined" (likewise the _64
    // forms); NVIDIA's profiler programs them. AMD shaders cannot read the
    // SQ performance counters (the host reads them), so every %pmN reads the
    // shader cycle counter (__builtin_readcyclecounter: s_memtime /
    // s_getreg SHADER_CYCLES), the same as %clock / %clock64: a counter
    // that advances, never a constant.
    if (op.sregIndex > 7) { fc.error(op.loc, "bad %pm index"); return nullptr; }
    return op.sreg == S::Pm ? fc.call("__ptx_sreg_clock", i32, {}) : fc.call("__ptx_sreg_clock64", i64, {});
  case S::Envreg:
    if (op.sregIndex > 31) { fc.error(op.loc, "bad %envreg index"); return nullptr; }
    return fc.call("__ptx_sreg_envreg", i32, {b.getInt32(op.sregIndex)});
  case S::ReservedSmemOffset: {
    constexpr uint32_t kBytes = 288;
    if (op.sregIndex > 4) { fc.error(op.loc, "bad %reserved_smem_offset register"); return nullptr; }
    if (op.sregIndex == 2) return b.getInt32(kBytes); // _cap
    GlobalVariable *g = fc.mc.m.getNamedGlobal("__ptx_reserved_smem");
    if (!g) {
      auto *ty = ArrayType::get(b.getInt8Ty(), kBytes);
      g = new GlobalVariable(fc.mc.m, ty, false, GlobalValue::LinkOnceODRLinkage, UndefValue::get(ty),
                             "__ptx_reserved_smem", nullptr, GlobalValue::NotThreadLocal, SharedAS);
      g->setAlignment(Align(16));
    }
    Value *base = b.CreatePtrToInt(g, i32);
    return op.sregIndex == 1 ? b.CreateAdd(base, b.getInt32(kBytes)) : base; // _end; _begin, _0, _1
  }
  case S::IsExplicitCluster: return b.getInt32(0);
  case S::ClusterCtaid: return b.getInt32(0);
  case S::ClusterNctaid: return b.getInt32(1);
  case S::ClusterCtarank: return b.getInt32(0);
  case S::ClusterNctarank: return b.getInt32(1);
  default:
    fc.unsupportedAt(op.loc, op.name, "unsupported special register '" + op.name + "'");
    return nullptr;
  }
}

} // namespace ptx2llvm
