//===- Exec.cpp - emu's wave driver and control flow ------------------------===//
//
// The wave interpreter: runs the pre-decoded instructions of a wave's top
// frame for a time slice, with SIMT control flow (a per-frame stack of
// (pc, reconvergence pc, mask) entries; divergent branches push both sides
// and reconverge at the immediate post-dominator), explicit call frames,
// private allocations and dynamic vector element access. The other
// executors are in MemoryOps.cpp, WaveOps.cpp and Printf.cpp (shared pieces:
// ExecCommon.h). A failing operation records a fault with lane and address;
// the launch is then aborted with a report naming the kernel, workgroup,
// wave, lane, address and instruction.
//
//===----------------------------------------------------------------------===//
#include "ExecCommon.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace emu::detail {
namespace {

// ---- control flow -----------------------------------------------------------------------------
void loadFrame(Ctx &c) {
  Frame &f = c.wave->frames[c.wave->depth - 1];
  c.fr = &f;
  c.regs = f.regs.data();
  c.consts = f.fn->constPool.data();
  c.code = f.fn->code.data();
  c.pc = f.simt.back().pc;
  c.exec = f.simt.back().mask;
}

/// Pops finished SIMT entries (reached their reconvergence pc, empty, or
/// returned) and returns from finished frames. False when the wave is done.
bool settle(Ctx &c) {
  for (;;) {
    Frame &f = *c.fr;
    while (!f.simt.empty()) {
      SimtEntry &t = f.simt.back();
      if (t.pc == f.fn->exitPc) {
        uint64_t m = t.mask;
        f.simt.pop_back();
        for (auto &e : f.simt) e.mask &= ~m;
        continue;
      }
      if (t.mask == 0 || t.pc == t.rpc) {
        f.simt.pop_back();
        continue;
      }
      break;
    }
    if (!f.simt.empty()) {
      c.pc = f.simt.back().pc;
      c.exec = f.simt.back().mask;
      return true;
    }
    Wave &w = *c.wave;
    --w.depth;
    if (w.depth == 0) {
      w.state = WaveState::Done;
      return false;
    }
    Frame &caller = w.frames[w.depth - 1];
    w.sp = caller.spTop;
    c.fr = &caller;
    c.regs = caller.regs.data();
    c.consts = caller.fn->constPool.data();
    c.code = caller.fn->code.data();
  }
}

inline St jumped(Ctx &c) { return settle(c) ? St::Jump : St::Stop; }

void doEdge(Ctx &c, const Edge &E, uint64_t Mask) {
  if (E.copyBegin == E.copyEnd) return;
  const Copy *Cp = c.fr->fn->copies.data();
  unsigned W = c.W;
  auto each = [&](auto f) {
    if (Mask == c.full) for (unsigned l = 0; l < W; ++l) f(l);
    else for (uint64_t m = Mask; m; m &= m - 1) f(unsigned(__builtin_ctzll(m)));
  };
  if (c.L->trace) [[unlikely]]
    for (uint32_t i = E.copyBegin; i < E.copyEnd; ++i)
      fprintf(stderr, "emu-trace   phi copy s%d <- s%d (%#llx)%s\n", Cp[i].dst, Cp[i].src,
              (unsigned long long)srcPtr(c, Cp[i].src)[Mask ? __builtin_ctzll(Mask) : 0], E.needsTemp ? " [parallel]" : "");
  if (!E.needsTemp) {
    for (uint32_t i = E.copyBegin; i < E.copyEnd; ++i) {
      uint64_t *D = slotPtr(c, Cp[i].dst);
      const uint64_t *S = srcPtr(c, Cp[i].src);
      each([&](unsigned l) { D[l] = S[l]; });
    }
    return;
  }
  std::vector<uint64_t> Tmp(size_t(E.copyEnd - E.copyBegin) * W);
  for (uint32_t i = E.copyBegin; i < E.copyEnd; ++i) {
    const uint64_t *S = srcPtr(c, Cp[i].src);
    std::memcpy(&Tmp[size_t(i - E.copyBegin) * W], S, W * 8);
  }
  for (uint32_t i = E.copyBegin; i < E.copyEnd; ++i) {
    uint64_t *D = slotPtr(c, Cp[i].dst);
    const uint64_t *S = &Tmp[size_t(i - E.copyBegin) * W];
    each([&](unsigned l) { D[l] = S[l]; });
  }
}

St opBr(Ctx &c, const Inst &I) {
  const Edge &E = c.fr->fn->edges[I.aux];
  doEdge(c, E, c.exec);
  c.fr->simt.back().pc = E.targetPc;
  return jumped(c);
}

St opCondBr(Ctx &c, const Inst &I) {
  const uint64_t *C = srcPtr(c, I.a);
  uint64_t t = 0;
  forLanes(c, [&](unsigned l) { t |= (C[l] & 1) << l; });
  uint64_t f = c.exec & ~t;
  const Edge &ET = c.fr->fn->edges[I.aux], &EF = c.fr->fn->edges[I.aux2];
  auto &S = c.fr->simt;
  if (!f) {
    doEdge(c, ET, c.exec);
    S.back().pc = ET.targetPc;
  } else if (!t) {
    doEdge(c, EF, c.exec);
    S.back().pc = EF.targetPc;
  } else {
    doEdge(c, ET, t);
    doEdge(c, EF, f);
    uint32_t rpc = uint32_t(I.imm);
    S.back().pc = rpc;
    S.push_back({EF.targetPc, rpc, f});
    S.push_back({ET.targetPc, rpc, t});
  }
  return jumped(c);
}

St opSwitch(Ctx &c, const Inst &I) {
  const FuncCode &F = *c.fr->fn;
  const uint64_t *V = srcPtr(c, I.a);
  unsigned N = I.aux2;
  const uint64_t *Vals = F.switchVals.data() + I.aux;
  uint64_t M = widthMask(vkBits(VK(I.vk)));
  // edge index per group: 0..N-1 cases, N default
  uint64_t small[16] = {};
  std::vector<uint64_t> big;
  uint64_t *masks = small;
  if (N + 1 > 16) { big.assign(N + 1, 0); masks = big.data(); }
  forLanes(c, [&](unsigned l) {
    uint64_t v = V[l] & M;
    unsigned k = N;
    for (unsigned i = 0; i < N; ++i)
      if (Vals[i] == v) { k = i; break; }
    masks[k] |= 1ull << l;
  });
  auto edgeOf = [&](unsigned k) -> const Edge & { return F.edges[k == N ? uint32_t(I.b) : uint32_t(I.c) + k]; };
  unsigned groups = 0, last = 0;
  for (unsigned k = 0; k <= N; ++k)
    if (masks[k]) { ++groups; last = k; }
  auto &S = c.fr->simt;
  if (groups <= 1) {
    const Edge &E = edgeOf(last);
    doEdge(c, E, c.exec);
    S.back().pc = E.targetPc;
    return jumped(c);
  }
  uint32_t rpc = uint32_t(I.imm);
  S.back().pc = rpc;
  for (unsigned k = N + 1; k-- > 0;)
    if (masks[k]) {
      const Edge &E = edgeOf(k);
      doEdge(c, E, masks[k]);
      S.push_back({E.targetPc, rpc, masks[k]});
    }
  return jumped(c);
}

St opRet(Ctx &c, const Inst &I) {
  Wave &w = *c.wave;
  if (I.aux && w.depth >= 2 && c.fr->retDst >= 0) {
    Frame &caller = w.frames[w.depth - 2];
    const CallInfo &RI = c.fr->fn->calls[I.aux2];
    for (unsigned i = 0; i < I.aux; ++i) {
      uint64_t *D = caller.regs.data() + size_t(c.fr->retDst + int32_t(i)) * c.W;
      const uint64_t *S = srcPtr(c, RI.args[i]);
      forLanes(c, [&](unsigned l) { D[l] = S[l]; });
    }
  }
  c.fr->simt.back().pc = c.fr->fn->exitPc;
  return jumped(c);
}

St doCall(Ctx &c, const Inst &I, const FuncCode *Callee, const CallInfo &CI) {
  Wave &w = *c.wave;
  if (w.depth >= MaxCallDepth) return fault(c, FK::MemoryFault, "call stack overflow (depth " + std::to_string(w.depth) + ")", 0, 0, false);
  if (CI.args.size() != Callee->numParamSlots)
    return fault(c, FK::IllegalInstruction, "call to '" + Callee->name + "' with a mismatched signature", 0, 0, false);
  c.fr->simt.back().pc = c.pc + 1;
  uint64_t exec = c.exec;
  unsigned W = c.W;
  if (w.frames.size() <= w.depth) w.frames.emplace_back();
  Frame &f = w.frames[w.depth];
  f.fn = Callee;
  f.regs.resize(size_t(Callee->numSlots) * W);
  for (size_t i = 0; i < CI.args.size(); ++i)
    std::memcpy(f.regs.data() + i * W, srcPtr(c, CI.args[i]), W * 8);
  f.simt.clear();
  f.simt.push_back({0, Callee->exitPc, exec});
  f.retDst = I.dst;
  f.spBase = (w.sp + Callee->frameAlign - 1) & ~(Callee->frameAlign - 1);
  f.spTop = f.spBase + Callee->frameBytes;
  if (!ensurePriv(w, W, f.spTop)) return fault(c, FK::MemoryFault, "private segment overflow", 0, f.spTop, true);
  w.sp = f.spTop;
  ++w.depth;
  loadFrame(c);
  return St::Jump;
}

St opCall(Ctx &c, const Inst &I) {
  const CallInfo &CI = c.fr->fn->calls[I.aux];
  return doCall(c, I, CI.callee, CI);
}

St opCallIndirect(Ctx &c, const Inst &I) {
  const uint64_t *P = srcPtr(c, I.a);
  unsigned first = unsigned(__builtin_ctzll(c.exec));
  uint64_t target = P[first], same = 0;
  forLanes(c, [&](unsigned l) { if (P[l] == target) same |= 1ull << l; });
  if (same != c.exec) {
    auto &S = c.fr->simt;
    S.back().pc = c.pc + 1;
    S.push_back({c.pc, c.pc + 1, c.exec & ~same});
    S.push_back({c.pc, c.pc + 1, same});
    return jumped(c);
  }
  auto It = c.L->img->byAddress.find(target);
  if (It == c.L->img->byAddress.end())
    return fault(c, FK::IllegalInstruction, "indirect call to an address that is no function", first, target, true);
  return doCall(c, I, It->second, c.fr->fn->calls[I.aux]);
}

St opUnreachable(Ctx &c, const Inst &) {
  return fault(c, FK::Trap, "reached 'unreachable'", unsigned(__builtin_ctzll(c.exec)), 0, false);
}

// ---- private allocations ------------------------------------------------------------------------
St opAllocaStatic(Ctx &c, const Inst &I) {
  uint64_t *D = slotPtr(c, I.dst);
  uint64_t v = c.fr->spBase + uint64_t(I.imm);
  forLanes(c, [&](unsigned l) { D[l] = v; });
  return St::Next;
}
St opAllocaDynamic(Ctx &c, const Inst &I) {
  const uint64_t *N = srcPtr(c, I.a);
  uint64_t maxBytes = 0;
  forLanes(c, [&](unsigned l) { maxBytes = std::max<uint64_t>(maxBytes, (N[l] & widthMask(vkBits(VK(I.vk)))) * uint64_t(I.imm)); });
  Wave &w = *c.wave;
  uint32_t align = std::max<uint32_t>(I.aux, 4);
  uint64_t base = (uint64_t(w.sp) + align - 1) & ~uint64_t(align - 1);
  uint64_t top = base + ((maxBytes + 3) & ~3ull);
  if (top > MaxPrivatePerLane || !ensurePriv(w, c.W, uint32_t(top)))
    return fault(c, FK::MemoryFault, "private segment overflow in dynamic alloca", 0, top, true);
  w.sp = uint32_t(top);
  c.fr->spTop = w.sp;
  uint64_t *D = slotPtr(c, I.dst);
  forLanes(c, [&](unsigned l) { D[l] = base; });
  return St::Next;
}

// ---- vectors ----------------------------------------------------------------------------------------
St opExtractDyn(Ctx &c, const Inst &I) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *Ix = srcPtr(c, I.b);
  forLanes(c, [&](unsigned l) {
    uint64_t k = Ix[l];
    D[l] = k < I.aux ? slotPtr(c, I.a + int32_t(k))[l] : 0;
  });
  return St::Next;
}
St opInsertDyn(Ctx &c, const Inst &I) {
  const uint64_t *Ix = srcPtr(c, I.b), *V = srcPtr(c, I.c);
  forLanes(c, [&](unsigned l) {
    uint64_t k = Ix[l];
    if (k < I.aux) slotPtr(c, I.dst + int32_t(k))[l] = V[l];
  });
  return St::Next;
}
/// Bitcast between layouts: aux source slots of vk bytes each -> aux2 dest
/// slots of vk2 bytes each (operand slots are registers).
St opRepack(Ctx &c, const Inst &I) {
  unsigned SB = I.vk, DB = I.vk2; // element sizes in bits
  forLanes(c, [&](unsigned l) {
    uint8_t buf[512] = {};
    for (unsigned i = 0; i < I.aux; ++i) {
      uint64_t v = srcPtr(c, I.a + int32_t(i))[l];
      if (SB % 8 == 0) std::memcpy(buf + i * (SB / 8), &v, SB / 8);
      else for (unsigned k = 0; k < SB; ++k) buf[(i * SB + k) / 8] |= uint8_t(((v >> k) & 1) << ((i * SB + k) % 8));
    }
    for (unsigned i = 0; i < I.aux2; ++i) {
      uint64_t v = 0;
      if (DB % 8 == 0) std::memcpy(&v, buf + i * (DB / 8), DB / 8);
      else for (unsigned k = 0; k < DB; ++k) v |= uint64_t((buf[(i * DB + k) / 8] >> ((i * DB + k) % 8)) & 1) << k;
      slotPtr(c, I.dst + int32_t(i))[l] = v;
    }
  });
  return St::Next;
}

} // namespace

// ---- wave driver ---------------------------------------------------------------------------------
void initWave(LaunchState &L, WorkGroup &G, Wave &Wv) {
  const FuncCode &K = *L.kernel;
  unsigned W = L.W;
  Wv.state = WaveState::Running;
  if (Wv.frames.empty()) Wv.frames.emplace_back();
  Wv.depth = 1;
  Frame &f = Wv.frames[0];
  f.fn = &K;
  f.regs.assign(size_t(K.numSlots) * W, 0);
  for (auto &[Slot, V] : L.paramInit)
    std::fill_n(f.regs.data() + size_t(Slot) * W, W, V);
  f.simt.clear();
  f.simt.push_back({0, K.exitPc, Wv.initExec});
  f.retDst = -1;
  f.spBase = 0;
  f.spTop = K.frameBytes;
  Wv.sp = K.frameBytes;
  if (!ensurePriv(Wv, W, K.frameBytes)) L.failLimit("kernel private frame too large", ::support::Resource::PrivateMemory);
}

bool runWave(LaunchState &L, WorkGroup &G, Wave &Wv, unsigned Budget) {
  Ctx c;
  c.L = &L;
  c.wg = &G;
  c.wave = &Wv;
  c.W = L.W;
  c.full = c.W == 64 ? ~0ull : ((1ull << c.W) - 1);
  c.arenaHost = L.arena->hostBase();
  loadFrame(c);
  uint64_t lanes = 0, waves = 0;
  bool ok = true;
  while (Budget--) {
    const Inst &I = c.code[c.pc];
    ++waves;
    lanes += uint64_t(__builtin_popcountll(c.exec));
    St s = I.fn(c, I);
    if (L.trace) [[unlikely]] {
      std::string T;
      raw_string_ostream OS(T);
      OS << "emu-trace wg " << G.linear << " wave " << Wv.index << " exec " << format_hex(c.exec, 18) << " d=s" << I.dst << " a=s" << I.a << " b=s" << I.b << " ";
      if (I.src) I.src->print(OS);
      if (I.dst >= 0 && s == St::Next && c.exec) OS << "  => " << format_hex(slotPtr(c, I.dst)[__builtin_ctzll(c.exec)], 18);
      OS << "\n";
      fputs(OS.str().c_str(), stderr);
    }
    if (s == St::Next) { ++c.pc; continue; }
    if (s == St::Jump) continue;
    if (s == St::Yield) { ++c.pc; break; }
    if (c.fault.set) {
      ok = false;
      std::string Txt;
      raw_string_ostream OS(Txt);
      uint32_t wi[3];
      workitem(c, c.fault.lane, wi);
      OS << c.fault.what;
      if (c.fault.hasAddress) OS << " at address " << format_hex(c.fault.address, 18);
      OS << " in kernel '" << L.kernelName << "', workgroup (" << G.id[0] << "," << G.id[1] << "," << G.id[2]
         << "), wave " << Wv.index << ", lane " << c.fault.lane << " (work-item " << wi[0] << "," << wi[1] << ","
         << wi[2] << "); instruction:";
      if (I.src) {
        OS << " ";
        I.src->print(OS);
        OS << " in function '" << c.fr->fn->name << "'";
      } else OS << " <unknown>";
      if (!c.fault.construct.empty()) L.failUnsupported(OS.str(), c.fault.construct);
      else L.fail(OS.str(), c.fault.kind);
      Wv.state = WaveState::Done;
    }
    break;
  }
  if (Wv.state != WaveState::Done && ok) c.fr->simt.back().pc = c.pc;
  L.laneInstrs.fetch_add(lanes, std::memory_order_relaxed);
  L.waveInstrs.fetch_add(waves, std::memory_order_relaxed);
  return ok;
}

// ---- handler getters ---------------------------------------------------------------------------------------
namespace ops {

Handler br() { return opBr; }
Handler condBr() { return opCondBr; }
Handler switchOp() { return opSwitch; }
Handler ret() { return opRet; }
Handler unreachable() { return opUnreachable; }
Handler call() { return opCall; }
Handler callIndirect() { return opCallIndirect; }
Handler allocaStatic() { return opAllocaStatic; }
Handler allocaDynamic() { return opAllocaDynamic; }
Handler extractDyn() { return opExtractDyn; }
Handler insertDyn() { return opInsertDyn; }
Handler repack() { return opRepack; }

} // namespace ops
} // namespace emu::detail
