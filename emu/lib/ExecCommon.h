//===- ExecCommon.h - what the emu executors share -------------*- C++ -*-===//
//
// The pieces every executor file needs: fault recording (its FaultKind says
// which CUDA error a launch becomes), private-memory growth, the address
// resolution of the AMD address spaces (global through the arena's cached
// allocation, LDS, private, flat by aperture), C strings in device memory and
// work-item ids. The executors: Exec.cpp (wave driver, control flow, calls,
// allocas, vectors), MemoryOps.cpp (loads, stores, atomics, memcpy/memset),
// WaveOps.cpp (cross-lane and wave-state operations, assert) and Printf.cpp.
// Private to emu/lib.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "LaneOps.h"

#include <string>

namespace emu::detail {

inline constexpr unsigned MaxCallDepth = 4096;
inline constexpr uint32_t MaxPrivatePerLane = 1u << 20;

inline const char *asName(AS A) {
  switch (A) {
  case AS::Global: return "global";
  case AS::LDS: return "LDS";
  case AS::Private: return "private";
  case AS::Flat: return "flat";
  }
  return "?";
}

using FK = ::support::FaultKind;

// Records the wave's fault (its kind says what CUDA error it becomes).
inline St fault(Ctx &c, FK Kind, std::string What, unsigned Lane, uint64_t Addr, bool HasAddr) {
  c.fault.set = true;
  c.fault.kind = Kind;
  c.fault.construct.clear();
  c.fault.what = std::move(What);
  c.fault.lane = Lane;
  c.fault.address = Addr;
  c.fault.hasAddress = HasAddr;
  return St::Stop;
}
// An operation whose behaviour in this case the emulator does not model:
// the launch fails with an UnsupportedError naming \p Construct.
inline St unsupportedOp(Ctx &c, std::string Construct, std::string What, unsigned Lane, uint64_t Addr, bool HasAddr) {
  fault(c, FK::Trap, std::move(What), Lane, Addr, HasAddr);
  c.fault.construct = std::move(Construct);
  return St::Stop;
}

// ---- private memory -----------------------------------------------------------------
inline bool ensurePriv(Wave &Wv, unsigned W, uint32_t Need) {
  if (Need <= Wv.privCap) return true;
  if (Need > MaxPrivatePerLane) return false;
  uint32_t Cap = std::max<uint32_t>(std::max<uint32_t>(Wv.privCap * 2, 256), (Need + 255) & ~255u);
  std::vector<uint8_t> N(size_t(Cap) * W, 0);
  for (unsigned l = 0; l < W && Wv.privCap; ++l)
    std::memcpy(N.data() + size_t(l) * Cap, Wv.priv.data() + size_t(l) * Wv.privCap, Wv.privCap);
  Wv.priv.swap(N);
  Wv.privCap = Cap;
  return true;
}

// ---- address resolution ---------------------------------------------------------------
/// Makes [a, a+sz) the most recent cached allocation; false if it is not
/// inside one live allocation.
inline bool cacheGlobal(Ctx &c, uint64_t a, uint64_t sz) {
  if (a + sz < a) return false;
  if (a >= c.cacheLo && a + sz <= c.cacheHi) return true;
  if (a >= c.cache2Lo && a + sz <= c.cache2Hi) {
    std::swap(c.cacheLo, c.cache2Lo);
    std::swap(c.cacheHi, c.cache2Hi);
    return true;
  }
  uint64_t lo, hi;
  if (!c.L->arena->lookup(a, sz, lo, hi)) return false;
  c.cache2Lo = c.cacheLo;
  c.cache2Hi = c.cacheHi;
  c.cacheLo = lo;
  c.cacheHi = hi;
  return true;
}
inline uint8_t *memGlobal(Ctx &c, uint64_t a, uint64_t sz) {
  if (a >= c.cacheLo && a + sz <= c.cacheHi && a + sz >= a) return c.arenaHost + (a - GlobalBase);
  if (!cacheGlobal(c, a, sz)) return nullptr;
  return c.arenaHost + (a - GlobalBase);
}
inline uint8_t *memLDS(Ctx &c, uint64_t a, uint64_t sz) {
  if (a + sz > c.wg->lds.size() || a + sz < a) return nullptr;
  return c.wg->lds.data() + a;
}
inline uint8_t *memPriv(Ctx &c, uint64_t a, uint64_t sz, unsigned lane) {
  if (a + sz > c.wave->sp || a + sz < a) return nullptr;
  return c.wave->priv.data() + size_t(lane) * c.wave->privCap + a;
}
template <AS A> inline uint8_t *mem(Ctx &c, uint64_t a, uint64_t sz, unsigned lane) {
  if constexpr (A == AS::Global) return memGlobal(c, a, sz);
  else if constexpr (A == AS::LDS) return memLDS(c, uint32_t(a), sz);
  else if constexpr (A == AS::Private) return memPriv(c, uint32_t(a), sz, lane);
  else {
    uint64_t hi = a >> 32;
    if (hi == (SharedApertureBase >> 32)) return memLDS(c, uint32_t(a), sz);
    if (hi == (PrivateApertureBase >> 32)) return memPriv(c, uint32_t(a), sz, lane);
    return memGlobal(c, a, sz);
  }
}
template <AS A> inline uint64_t addrOf(uint64_t p, int64_t off) {
  if constexpr (A == AS::LDS || A == AS::Private) return uint32_t(p + uint64_t(off));
  else return p + uint64_t(off);
}

inline bool readString(Ctx &c, uint64_t Addr, unsigned Lane, std::string &Out) {
  Out.clear();
  for (unsigned i = 0; i < 65536; ++i) {
    uint8_t *p = mem<AS::Flat>(c, Addr + i, 1, Lane);
    if (!p) return false;
    if (!*p) return true;
    Out.push_back(char(*p));
  }
  return true;
}

inline void workitem(const Ctx &c, unsigned l, uint32_t id[3]) {
  uint32_t lin = c.wave->index * c.W + l;
  const uint32_t *S = c.L->wgSize;
  id[0] = lin % S[0];
  id[1] = (lin / S[0]) % S[1];
  id[2] = lin / (S[0] * S[1]);
}

} // namespace emu::detail
