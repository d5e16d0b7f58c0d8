//===- WaveOps.cpp - emu's cross-lane and wave-state operations ----------===//
//
// Work-item and work-group ids, launch pointers, ballots and compares into
// masks, readlane / writelane, mbcnt, ds_(b)permute, permlane16/64,
// ds_swizzle, barriers, sleeps and clocks, aperture tests, trap / abort /
// assert, stack save/restore and s_getreg: the executors of the EMU_STATE_OP
// rows of Intrinsics.def, whose rows also generate ops::special here.
//
//===----------------------------------------------------------------------===//
#include "ExecCommon.h"

#include "llvm/IR/InstrTypes.h"

#include <chrono>
#include <cmath>

using namespace llvm;

namespace emu::detail {
namespace {

template <unsigned D> St opWorkitemId(Ctx &c, const Inst &I) {
  uint64_t *Dst = slotPtr(c, I.dst);
  forLanes(c, [&](unsigned l) { uint32_t id[3]; workitem(c, l, id); Dst[l] = id[D]; });
  return St::Next;
}
inline St uniform(Ctx &c, const Inst &I, uint64_t v) {
  uint64_t *D = slotPtr(c, I.dst);
  forLanes(c, [&](unsigned l) { D[l] = v; });
  return St::Next;
}
bool cmpInt(unsigned P, uint64_t x, uint64_t y, unsigned bits) {
  uint64_t M = widthMask(bits);
  x &= M; y &= M;
  int64_t sx = sextFrom(x, bits), sy = sextFrom(y, bits);
  switch (P) {
  case CmpInst::ICMP_EQ: return x == y;
  case CmpInst::ICMP_NE: return x != y;
  case CmpInst::ICMP_UGT: return x > y;
  case CmpInst::ICMP_UGE: return x >= y;
  case CmpInst::ICMP_ULT: return x < y;
  case CmpInst::ICMP_ULE: return x <= y;
  case CmpInst::ICMP_SGT: return sx > sy;
  case CmpInst::ICMP_SGE: return sx >= sy;
  case CmpInst::ICMP_SLT: return sx < sy;
  case CmpInst::ICMP_SLE: return sx <= sy;
  }
  return false;
}
double fpVal(uint64_t v, VK K) {
  switch (K) {
  case VK::F16: return h2f(v);
  case VK::BF16: return bf2f(v);
  case VK::F32: return asF32(v);
  default: return asF64(v);
  }
}
bool cmpFP(unsigned P, double a, double b) {
  bool uno = std::isnan(a) || std::isnan(b);
  switch (P) {
  case CmpInst::FCMP_FALSE: return false;
  case CmpInst::FCMP_TRUE: return true;
  case CmpInst::FCMP_OEQ: return a == b;
  case CmpInst::FCMP_OGT: return a > b;
  case CmpInst::FCMP_OGE: return a >= b;
  case CmpInst::FCMP_OLT: return a < b;
  case CmpInst::FCMP_OLE: return a <= b;
  case CmpInst::FCMP_ONE: return a < b || a > b;
  case CmpInst::FCMP_ORD: return !uno;
  case CmpInst::FCMP_UNO: return uno;
  case CmpInst::FCMP_UEQ: return uno || a == b;
  case CmpInst::FCMP_UGT: return uno || a > b;
  case CmpInst::FCMP_UGE: return uno || a >= b;
  case CmpInst::FCMP_ULT: return uno || a < b;
  case CmpInst::FCMP_ULE: return uno || a <= b;
  case CmpInst::FCMP_UNE: return uno || a != b;
  }
  return false;
}

St opBallot(Ctx &c, const Inst &I) {
  const uint64_t *A = srcPtr(c, I.a);
  uint64_t m = 0;
  forLanes(c, [&](unsigned l) { m |= (A[l] & 1) << l; });
  return uniform(c, I, VK(I.vk) == VK::I32 ? uint32_t(m) : m);
}
St opICmpBallot(Ctx &c, const Inst &I) {
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
  uint64_t m = 0;
  unsigned bits = vkBits(VK(I.vk2));
  forLanes(c, [&](unsigned l) { m |= uint64_t(cmpInt(I.kind, A[l], B[l], bits)) << l; });
  return uniform(c, I, VK(I.vk) == VK::I32 ? uint32_t(m) : m);
}
St opFCmpBallot(Ctx &c, const Inst &I) {
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
  uint64_t m = 0;
  forLanes(c, [&](unsigned l) { m |= uint64_t(cmpFP(I.kind, fpVal(A[l], VK(I.vk2)), fpVal(B[l], VK(I.vk2)))) << l; });
  return uniform(c, I, VK(I.vk) == VK::I32 ? uint32_t(m) : m);
}
St opReadLane(Ctx &c, const Inst &I) {
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
  unsigned first = c.exec ? unsigned(__builtin_ctzll(c.exec)) : 0;
  unsigned src = unsigned(B[first]) & (c.W - 1);
  return uniform(c, I, A[src]);
}
St opReadFirstLane(Ctx &c, const Inst &I) {
  const uint64_t *A = srcPtr(c, I.a);
  unsigned first = c.exec ? unsigned(__builtin_ctzll(c.exec)) : 0;
  return uniform(c, I, A[first]);
}
St opWriteLane(Ctx &c, const Inst &I) {
  // writelane(value, lane, old): all lanes keep old except the selected one
  const uint64_t *V = srcPtr(c, I.a), *L = srcPtr(c, I.b), *O = srcPtr(c, I.c);
  uint64_t *D = slotPtr(c, I.dst);
  unsigned first = c.exec ? unsigned(__builtin_ctzll(c.exec)) : 0;
  unsigned sel = unsigned(L[first]) & (c.W - 1);
  uint64_t val = V[first];
  // v_writelane writes the selected lane even when EXEC disables it; other
  // inactive lanes are left alone (their slot may hold another value).
  forLanes(c, [&](unsigned l) { D[l] = O[l]; });
  D[sel] = val;
  return St::Next;
}
St opMbcntLo(Ctx &c, const Inst &I) {
  const uint64_t *M = srcPtr(c, I.a), *A = srcPtr(c, I.b);
  uint64_t *D = slotPtr(c, I.dst);
  forLanes(c, [&](unsigned l) {
    uint32_t m = uint32_t(M[l]);
    uint32_t below = l >= 32 ? m : (m & ((1u << l) - 1));
    D[l] = uint32_t(__builtin_popcount(below) + uint32_t(A[l]));
  });
  return St::Next;
}
St opMbcntHi(Ctx &c, const Inst &I) {
  const uint64_t *M = srcPtr(c, I.a), *A = srcPtr(c, I.b);
  uint64_t *D = slotPtr(c, I.dst);
  forLanes(c, [&](unsigned l) {
    uint32_t m = uint32_t(M[l]);
    uint32_t below = l < 32 ? 0 : (m & ((l - 32 >= 32) ? ~0u : ((1u << (l - 32)) - 1)));
    D[l] = uint32_t(__builtin_popcount(below) + uint32_t(A[l]));
  });
  return St::Next;
}
/// ds_bpermute_b32: lane l reads lane (addr[l] / 4) mod W (0 from an
/// inactive lane). On gfx10+ (I.aux = 1) a wave64 executes it as two 32-lane
/// halves (RDNA ISA, "wave64" data-share ops): the index selects a lane of
/// the reading lane's own half, (l & 32) | ((addr / 4) & 31).
St opBpermute(Ctx &c, const Inst &I) {
  const uint64_t *Ad = srcPtr(c, I.a), *V = srcPtr(c, I.b);
  uint64_t *D = slotPtr(c, I.dst);
  uint64_t exec = c.exec;
  const bool halves = I.aux && c.W == 64;
  forLanes(c, [&](unsigned l) {
    unsigned idx = unsigned(uint32_t(Ad[l]) >> 2);
    unsigned src = halves ? (l & 32) | (idx & 31) : idx & (c.W - 1);
    D[l] = (exec >> src) & 1 ? uint32_t(V[src]) : 0;
  });
  return St::Next;
}
/// ds_permute_b32 (forward): lane l writes its value to lane addr[l] / 4
/// (within its 32-lane half for a gfx10+ wave64, as ds_bpermute).
St opPermute(Ctx &c, const Inst &I) {
  const uint64_t *Ad = srcPtr(c, I.a), *V = srcPtr(c, I.b);
  uint64_t *D = slotPtr(c, I.dst);
  uint64_t tmp[64] = {};
  const bool halves = I.aux && c.W == 64;
  forLanes(c, [&](unsigned l) {
    unsigned idx = unsigned(uint32_t(Ad[l]) >> 2);
    tmp[halves ? (l & 32) | (idx & 31) : idx & (c.W - 1)] = uint32_t(V[l]);
  });
  forLanes(c, [&](unsigned l) { D[l] = tmp[l]; });
  return St::Next;
}
St opPermlane64(Ctx &c, const Inst &I) {
  const uint64_t *V = srcPtr(c, I.a);
  uint64_t *D = slotPtr(c, I.dst);
  forLanes(c, [&](unsigned l) { D[l] = c.W == 64 ? V[l ^ 32] : V[l]; });
  return St::Next;
}

/// v_permlane16_b32 / v_permlanex16_b32 (gfx10+): lane i of each 16-lane
/// row reads the lane selected by nibble i of the uniform 64-bit value
/// {src2, src1} from its own row (permlane16) or from the other row of its
/// 32-lane half (permlanex16). With fetch-inactive (fi) the source lane is
/// read whether active or not; without it, what an inactive source gives
/// (old value or 0 under bound_ctrl) is not modelled and faults.
St opPermlane16(Ctx &c, const Inst &I) {
  const uint64_t *V = srcPtr(c, I.a), *S1 = srcPtr(c, I.b), *S2 = srcPtr(c, I.c);
  uint64_t *D = slotPtr(c, I.dst);
  unsigned first = unsigned(__builtin_ctzll(c.exec));
  uint64_t sel = uint64_t(uint32_t(S1[first])) | (uint64_t(uint32_t(S2[first])) << 32);
  uint64_t tmp[64];
  for (unsigned l = 0; l < c.W; ++l) tmp[l] = V[l];
  uint64_t exec = c.exec;
  for (uint64_t e = exec; e; e &= e - 1) {
    unsigned l = unsigned(__builtin_ctzll(e));
    unsigned row = l / 16, i = l % 16;
    unsigned srcRow = I.kind ? row ^ 1 : row;
    unsigned src = srcRow * 16 + unsigned((sel >> (4 * i)) & 15);
    if (src >= c.W) src &= c.W - 1;
    if (!I.aux && !((exec >> src) & 1))
      return unsupportedOp(c, I.kind ? "permlanex16 of an inactive lane" : "permlane16 of an inactive lane", std::string(I.kind ? "permlanex16" : "permlane16") + " reads inactive lane " +
                          std::to_string(src) + " without fetch-inactive (not modelled)",
                   l, 0, false);
    D[l] = tmp[src];
  }
  return St::Next;
}

/// ds_swizzle_b32: offset[15] = 0 is bitmask mode within 32-lane groups
/// (source = ((lane & and) | or) ^ xor, masks in offset bits 4:0, 9:5,
/// 14:10); offset[15] = 1 is quad-permute mode (lane j of each quad reads
/// lane offset[2j+1:2j] of the quad). The translator rejects other
/// encodings. Reads of inactive source lanes fault (not modelled).
St opSwizzle(Ctx &c, const Inst &I) {
  const uint64_t *V = srcPtr(c, I.a);
  uint64_t *D = slotPtr(c, I.dst);
  unsigned off = I.kind;
  uint64_t tmp[64];
  for (unsigned l = 0; l < c.W; ++l) tmp[l] = V[l];
  uint64_t exec = c.exec;
  for (uint64_t e = exec; e; e &= e - 1) {
    unsigned l = unsigned(__builtin_ctzll(e));
    unsigned src;
    if (off & 0x8000) {
      src = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
    } else {
      unsigned andM = off & 31, orM = (off >> 5) & 31, xorM = (off >> 10) & 31;
      src = (l & ~31u) | ((((l & 31) & andM) | orM) ^ xorM);
    }
    if (!((exec >> src) & 1))
      return unsupportedOp(c, "ds_swizzle of an inactive lane", "ds_swizzle reads inactive lane " + std::to_string(src) + " (not modelled)", l, 0, false);
    D[l] = uint32_t(tmp[src]);
  }
  return St::Next;
}

St opAssert(Ctx &c, const Inst &I, bool Cuda) {
  const CallInfo &CI = c.fr->fn->calls[I.aux];
  unsigned l = unsigned(__builtin_ctzll(c.exec));
  std::string msg, file, func;
  auto arg = [&](unsigned k) { return k < CI.args.size() ? srcPtr(c, CI.args[k])[l] : 0; };
  readString(c, arg(0), l, msg);
  readString(c, arg(1), l, file);
  uint64_t line = arg(2);
  readString(c, arg(3), l, func);
  return fault(c, FK::Assert, "device assertion failed: '" + msg + "' at " + file + ":" + std::to_string(uint32_t(line)) +
                      (func.empty() ? "" : " in " + func),
               l, 0, false);
}

// ---- the wave-state executors named by Intrinsics.def (EMU_STATE_OP) ------------------
template <unsigned D> St opWorkgroupId(Ctx &c, const Inst &I) { return uniform(c, I, c.wg->id[D]); }
St opImplicitArgPtr(Ctx &c, const Inst &I) { return uniform(c, I, c.L->hiddenAddr); }
St opKernargPtr(Ctx &c, const Inst &I) { return uniform(c, I, c.L->kernargAddr); }
St opDispatchPtr(Ctx &c, const Inst &I) { return uniform(c, I, c.L->dispatchAddr); }
St opDispatchId(Ctx &c, const Inst &I) { return uniform(c, I, 0); }
St opGroupStaticSize(Ctx &c, const Inst &I) { return uniform(c, I, c.L->img->staticLds); }
St opWaveSize(Ctx &c, const Inst &I) { return uniform(c, I, c.W); }
St opBarrier(Ctx &c, const Inst &) {
  if (c.wg->waves.size() <= 1) return St::Next;
  c.wave->state = WaveState::AtBarrier;
  return St::Yield;
}
St opNop(Ctx &, const Inst &) { return St::Next; }
St opSleep(Ctx &, const Inst &) { return St::Yield; }
St opMemTime(Ctx &c, const Inst &I) {
  return uniform(c, I, uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
}
St opMemRealTime(Ctx &c, const Inst &I) {
  return uniform(c, I, uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch()).count() / 10));
}
St opIsShared(Ctx &c, const Inst &I) {
  uint64_t *D = slotPtr(c, I.dst); const uint64_t *A = srcPtr(c, I.a);
  forLanes(c, [&](unsigned l) { D[l] = (A[l] >> 32) == (SharedApertureBase >> 32); }); return St::Next;
}
St opIsPrivate(Ctx &c, const Inst &I) {
  uint64_t *D = slotPtr(c, I.dst); const uint64_t *A = srcPtr(c, I.a);
  forLanes(c, [&](unsigned l) { D[l] = (A[l] >> 32) == (PrivateApertureBase >> 32); }); return St::Next;
}
St opTrap(Ctx &c, const Inst &) { return fault(c, FK::Trap, "trap", unsigned(__builtin_ctzll(c.exec)), 0, false); }
St opAbort(Ctx &c, const Inst &) {
  return fault(c, FK::Trap, "abort() called", unsigned(__builtin_ctzll(c.exec)), 0, false);
}
St opEndPgm(Ctx &c, const Inst &) { c.wave->depth = 0; c.wave->state = WaveState::Done; return St::Stop; }
St opStackSave(Ctx &c, const Inst &I) { return uniform(c, I, c.wave->sp); }
St opStackRestore(Ctx &c, const Inst &I) {
  const uint64_t *A = srcPtr(c, I.a);
  uint32_t v = uint32_t(A[__builtin_ctzll(c.exec)]);
  if (v >= c.fr->spBase && v <= c.wave->sp) { c.wave->sp = v; c.fr->spTop = v; }
  return St::Next;
}
// A synthetic placement: the workgroup's compute unit is derived from its id (16 CUs/WGPs,
// one shader engine/array), the wave id from the wave's index in the workgroup. HW_ID
// (gfx9): WAVE_ID [3:0], CU_ID [11:8]; HW_ID1 (gfx10+): WAVE_ID [4:0], WGP_ID [13:10].
St opGetReg(Ctx &c, const Inst &I) {
  unsigned Id = I.aux & 63, Off = (I.aux >> 6) & 31, Size = ((I.aux >> 11) & 31) + 1;
  uint64_t Cu = (c.wg->id[0] + 3ull * c.wg->id[1] + 5ull * c.wg->id[2]) & 15, W = c.wave->index;
  uint64_t Reg = Id == 4 ? ((W & 15) | (Cu << 8)) : ((W & 31) | (Cu << 10));
  return uniform(c, I, (Reg >> Off) & ((Size >= 32 ? ~0ull : (1ull << Size) - 1)));
}
St opAssertFailCuda(Ctx &c, const Inst &I) { return opAssert(c, I, true); }
St opAssertFailC(Ctx &c, const Inst &I) { return opAssert(c, I, false); }

} // namespace

namespace ops {

// The handler of each wave-state operation: the EMU_STATE_OP rows of Intrinsics.def.
Handler special(SOp Op, VK) {
  switch (Op) {
#define EMU_STATE_OP(Op, Handler) \
  case SOp::Op: return Handler;
#include "Intrinsics.def"
  }
  return nullptr;
}

} // namespace ops
} // namespace emu::detail
