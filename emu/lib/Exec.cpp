//===- Exec.cpp - wave interpreter, memory, control flow, cross-lane ops ----===//
//
// The wave interpreter: runs the pre-decoded instructions of a wave's top
// frame for a time slice, with SIMT control flow (a per-frame stack of
// (pc, reconvergence pc, mask) entries; divergent branches push both sides
// and reconverge at the immediate post-dominator), explicit call frames,
// and every operation that touches memory or state beyond one lane: loads,
// stores and atomics through the AMD address spaces with bounds checks,
// cross-lane intrinsics (ballot, readlane, mbcnt, ds_bpermute, ...),
// barriers, printf and trap/assert. A failing access records a fault with
// lane and address; the launch is then aborted with a report naming the
// kernel, workgroup, wave, lane, address and instruction.
//
//===----------------------------------------------------------------------===//
#include "LaneOps.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <type_traits>
#if defined(__x86_64__) && defined(__AVX__)
#include <immintrin.h>
#endif
#include <cmath>

using namespace llvm;

namespace emu::detail {
namespace {

constexpr unsigned MaxCallDepth = 4096;
constexpr uint32_t MaxPrivatePerLane = 1u << 20;

const char *asName(AS A) {
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
St fault(Ctx &c, FK Kind, std::string What, unsigned Lane, uint64_t Addr, bool HasAddr) {
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
St unsupportedOp(Ctx &c, std::string Construct, std::string What, unsigned Lane, uint64_t Addr, bool HasAddr) {
  fault(c, FK::Trap, std::move(What), Lane, Addr, HasAddr);
  c.fault.construct = std::move(Construct);
  return St::Stop;
}

// ---- private memory -----------------------------------------------------------------
bool ensurePriv(Wave &Wv, unsigned W, uint32_t Need) {
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

/// Fast path of a global (or flat-to-global) access by a full wave: one
/// range check against the cached allocation for all lanes. Returns the
/// host base (host = base + address) or nullptr when the slow path applies.
template <AS A, unsigned N> inline uint8_t *fullWaveGlobal(Ctx &c, const uint64_t *P, int64_t Off) {
  if constexpr (A != AS::Global && A != AS::Flat) return nullptr;
  else {
    if (c.exec != c.full) return nullptr;
    uint64_t lo = ~0ull, hi = 0;
    for (unsigned l = 0; l < c.W; ++l) {
      uint64_t a = P[l] + uint64_t(Off);
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    }
    if (A == AS::Flat && hi >= SharedApertureBase) return nullptr;
    if (hi + N < hi || !cacheGlobal(c, lo, hi + N - lo)) return nullptr;
    return c.arenaHost - GlobalBase;
  }
}

template <AS A, unsigned N> St opLoad(Ctx &c, const Inst &I) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *P = srcPtr(c, I.a);
  if (uint8_t *Base = fullWaveGlobal<A, N>(c, P, I.imm)) {
    for (unsigned l = 0; l < c.W; ++l) {
      uint64_t v = 0;
      std::memcpy(&v, Base + P[l] + uint64_t(I.imm), N);
      D[l] = v;
    }
    return St::Next;
  }
  int bad = -1;
  forLanes(c, [&](unsigned l) {
    if (bad >= 0) return;
    uint64_t a = addrOf<A>(P[l], I.imm);
    uint8_t *p = mem<A>(c, a, N, l);
    if (!p) { bad = int(l); return; }
    uint64_t v = 0;
    std::memcpy(&v, p, N);
    D[l] = v;
  });
  if (bad >= 0)
    return fault(c, FK::MemoryFault, "invalid " + std::string(asName(A)) + " load of " + std::to_string(N) + " bytes",
                 bad, addrOf<A>(P[bad], I.imm), true);
  return St::Next;
}
template <AS A, unsigned N> St opStore(Ctx &c, const Inst &I) {
  const uint64_t *P = srcPtr(c, I.a), *V = srcPtr(c, I.b);
  if (uint8_t *Base = fullWaveGlobal<A, N>(c, P, I.imm)) {
    for (unsigned l = 0; l < c.W; ++l) std::memcpy(Base + P[l] + uint64_t(I.imm), &V[l], N);
    return St::Next;
  }
  int bad = -1;
  forLanes(c, [&](unsigned l) {
    if (bad >= 0) return;
    uint64_t a = addrOf<A>(P[l], I.imm);
    uint8_t *p = mem<A>(c, a, N, l);
    if (!p) { bad = int(l); return; }
    std::memcpy(p, &V[l], N);
  });
  if (bad >= 0)
    return fault(c, FK::MemoryFault, "invalid " + std::string(asName(A)) + " store of " + std::to_string(N) + " bytes",
                 bad, addrOf<A>(P[bad], I.imm), true);
  return St::Next;
}

// ---- whole-vector global accesses -------------------------------------------------
// A vector (or i128) load/store of 2, 4, 8 or 16 bytes is one memory
// instruction per lane on the hardware (global_load_dwordx4 ...), and a
// naturally aligned one is single-copy atomic: CUB's decoupled look-back
// publishes {status, value} tile descriptors with one 16-byte store
// (st.relaxed.gpu.v2.u64) and polls them with one 16-byte load, relying on
// the reader never seeing the status of one store with the value of another.
// Workgroups run on several host threads, so these accesses must not be
// split into element accesses: each lane reads/writes the whole vector with
// one atomic host access (aligned; a misaligned one is a plain copy).
template <unsigned S> inline void wholeRead(const uint8_t *p, uint8_t *out) {
  if ((reinterpret_cast<uintptr_t>(p) & (S - 1)) == 0) {
    if constexpr (S == 16) {
#if defined(__x86_64__) && defined(__AVX__)
      // aligned 16-byte VMOVDQA is single-copy atomic on AVX processors
      // (Intel SDM vol. 3A "Guaranteed Atomic Operations"; AMD APM vol. 2
      // "Access Atomicity")
      __m128i v;
      __asm__ volatile("vmovdqa %1, %0" : "=x"(v) : "m"(*reinterpret_cast<const __m128i *>(p)));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(out), v);
#else
      unsigned __int128 v = __atomic_load_n(reinterpret_cast<const unsigned __int128 *>(p), __ATOMIC_RELAXED);
      std::memcpy(out, &v, 16);
#endif
    } else {
      using U = std::conditional_t<S == 8, uint64_t, std::conditional_t<S == 4, uint32_t, uint16_t>>;
      U v = __atomic_load_n(reinterpret_cast<const U *>(p), __ATOMIC_RELAXED);
      std::memcpy(out, &v, S);
    }
    return;
  }
  std::memcpy(out, p, S);
}
template <unsigned S> inline void wholeWrite(uint8_t *p, const uint8_t *in) {
  if ((reinterpret_cast<uintptr_t>(p) & (S - 1)) == 0) {
    if constexpr (S == 16) {
#if defined(__x86_64__) && defined(__AVX__)
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in));
      __asm__ volatile("vmovdqa %1, %0" : "=m"(*reinterpret_cast<__m128i *>(p)) : "x"(v));
#else
      unsigned __int128 v;
      std::memcpy(&v, in, 16);
      __atomic_store_n(reinterpret_cast<unsigned __int128 *>(p), v, __ATOMIC_RELAXED);
#endif
    } else {
      using U = std::conditional_t<S == 8, uint64_t, std::conditional_t<S == 4, uint32_t, uint16_t>>;
      U v;
      std::memcpy(&v, in, S);
      __atomic_store_n(reinterpret_cast<U *>(p), v, __ATOMIC_RELAXED);
    }
    return;
  }
  std::memcpy(p, in, S);
}

/// Runs `access(p, lane)` on the host address of every active lane's S-byte
/// whole-vector access (`what`: "load" or "store"); the first lane whose
/// address is invalid ends the instruction with a fault report.
template <AS A, unsigned S, class F> St forVectorLanes(Ctx &c, const Inst &I, const char *what, F &&access) {
  const uint64_t *P = srcPtr(c, I.a);
  uint8_t *Base = fullWaveGlobal<A, S>(c, P, I.imm);
  int bad = -1;
  forLanes(c, [&](unsigned l) {
    if (bad >= 0) return;
    uint64_t a = addrOf<A>(P[l], I.imm);
    uint8_t *p = Base ? Base + a : mem<A>(c, a, S, l);
    if (!p) { bad = int(l); return; }
    access(p, l);
  });
  if (bad >= 0)
    return fault(c, FK::MemoryFault, "invalid " + std::string(asName(A)) + " " + what + " of " + std::to_string(S) + " bytes",
                 bad, addrOf<A>(P[bad], I.imm), true);
  return St::Next;
}
/// Whole-vector load: S bytes per lane into aux element slots of vk bytes
/// (dst .. dst+aux-1).
template <AS A, unsigned S> St opLoadVec(Ctx &c, const Inst &I) {
  const unsigned N = I.aux, EB = I.vk;
  uint64_t *D = slotPtr(c, I.dst);
  const size_t Stride = c.W;
  return forVectorLanes<A, S>(c, I, "load", [&](uint8_t *p, unsigned l) {
    alignas(16) uint8_t buf[16];
    wholeRead<S>(p, buf);
    for (unsigned i = 0; i < N; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, buf + i * EB, EB);
      D[i * Stride + l] = v;
    }
  });
}
/// Whole-vector store: element slots b .. b+aux-1 of vk bytes each.
template <AS A, unsigned S> St opStoreVec(Ctx &c, const Inst &I) {
  const unsigned N = I.aux, EB = I.vk;
  const uint64_t *V = slotPtr(c, I.b);
  const size_t Stride = c.W;
  return forVectorLanes<A, S>(c, I, "store", [&](uint8_t *p, unsigned l) {
    alignas(16) uint8_t buf[16];
    for (unsigned i = 0; i < N; ++i) std::memcpy(buf + i * EB, &V[i * Stride + l], EB);
    wholeWrite<S>(p, buf);
  });
}

// ---- atomics --------------------------------------------------------------------------------
template <class T> double toD(T v, VK K) {
  if (K == VK::F32) return asF32(v);
  if (K == VK::F64) return asF64(v);
  if (K == VK::F16) return h2f(v);
  if (K == VK::BF16) return bf2f(v);
  return 0;
}
template <class T> T fromD(double d, VK K) {
  if (K == VK::F32) return T(fromF32(float(d)));
  if (K == VK::F64) return T(fromF64(d));
  if (K == VK::F16) return T(d2h(d));
  if (K == VK::BF16) return T(d2bf(d));
  return 0;
}
template <class T> T rmwCompute(unsigned Op, T old, T v, VK K) {
  using S = std::make_signed_t<T>;
  switch (Op) {
  case AtomicRMWInst::Max: return S(old) > S(v) ? old : v;
  case AtomicRMWInst::Min: return S(old) < S(v) ? old : v;
  case AtomicRMWInst::UMax: return old > v ? old : v;
  case AtomicRMWInst::UMin: return old < v ? old : v;
  case AtomicRMWInst::UIncWrap: return old >= v ? 0 : T(old + 1);
  case AtomicRMWInst::UDecWrap: return (old == 0 || old > v) ? v : T(old - 1);
  case AtomicRMWInst::USubCond: return old >= v ? T(old - v) : old;
  case AtomicRMWInst::USubSat: return old >= v ? T(old - v) : 0;
  case AtomicRMWInst::FAdd: return fromD<T>(toD(old, K) + toD(v, K), K);
  case AtomicRMWInst::FSub: return fromD<T>(toD(old, K) - toD(v, K), K);
  case AtomicRMWInst::FMax: return fromD<T>(std::fmax(toD(old, K), toD(v, K)), K);
  case AtomicRMWInst::FMin: return fromD<T>(std::fmin(toD(old, K), toD(v, K)), K);
  case AtomicRMWInst::FMaximum: {
    double a = toD(old, K), b = toD(v, K);
    return fromD<T>(std::isnan(a) || std::isnan(b) ? NAN : (a == b ? (std::signbit(a) ? b : a) : std::max(a, b)), K);
  }
  case AtomicRMWInst::FMinimum: {
    double a = toD(old, K), b = toD(v, K);
    return fromD<T>(std::isnan(a) || std::isnan(b) ? NAN : (a == b ? (std::signbit(a) ? a : b) : std::min(a, b)), K);
  }
  }
  return old;
}
template <class T> T rmw(T *p, unsigned Op, T v, VK K) {
  constexpr int M = __ATOMIC_SEQ_CST;
  switch (Op) {
  case AtomicRMWInst::Xchg: return __atomic_exchange_n(p, v, M);
  case AtomicRMWInst::Add: return __atomic_fetch_add(p, v, M);
  case AtomicRMWInst::Sub: return __atomic_fetch_sub(p, v, M);
  case AtomicRMWInst::And: return __atomic_fetch_and(p, v, M);
  case AtomicRMWInst::Or: return __atomic_fetch_or(p, v, M);
  case AtomicRMWInst::Xor: return __atomic_fetch_xor(p, v, M);
  case AtomicRMWInst::Nand: return __atomic_fetch_nand(p, v, M);
  default: {
    T old = __atomic_load_n(p, M);
    while (!__atomic_compare_exchange_n(p, &old, rmwCompute<T>(Op, old, v, VK(K)), false, M, M)) {
    }
    return old;
  }
  }
}

template <AS A, class T> St opAtomic(Ctx &c, const Inst &I) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *P = srcPtr(c, I.a), *V = srcPtr(c, I.b);
  int bad = -1;
  bool misaligned = false;
  forLanes(c, [&](unsigned l) {
    if (bad >= 0) return;
    uint64_t a = addrOf<A>(P[l], 0);
    uint8_t *p = mem<A>(c, a, sizeof(T), l);
    if (!p || (a % sizeof(T))) { bad = int(l); misaligned = p; return; }
    D[l] = rmw<T>(reinterpret_cast<T *>(p), I.kind, T(V[l]), VK(I.vk));
  });
  if (bad >= 0)
    return fault(c, misaligned ? FK::Misaligned : FK::MemoryFault, std::string(misaligned ? "misaligned " : "invalid ") + asName(A) + " atomic of " +
                        std::to_string(sizeof(T)) + " bytes",
                 bad, P[bad], true);
  return St::Next;
}
/// One element of a vector atomicrmw (integer ops included).
template <class T> T rmwElem(unsigned Op, T old, T v, VK K) {
  switch (Op) {
  case AtomicRMWInst::Xchg: return v;
  case AtomicRMWInst::Add: return T(old + v);
  case AtomicRMWInst::Sub: return T(old - v);
  case AtomicRMWInst::And: return T(old & v);
  case AtomicRMWInst::Or: return T(old | v);
  case AtomicRMWInst::Xor: return T(old ^ v);
  case AtomicRMWInst::Nand: return T(~(old & v));
  default: return rmwCompute<T>(Op, old, v, K);
  }
}
/// atomicrmw on a vector of aux elements of vk kind packed in one U word
/// (<2 x half>, <2 x bfloat>, <4 x i8>, <2 x float>, ...): the whole word is
/// updated with one compare-and-swap, as the hardware's packed atomics
/// (global_atomic_pk_add_f16/bf16) update both halves at once; each element
/// is computed and rounded on its own (IEEE round-to-nearest-even, f16/bf16
/// denormals kept). The result is the old vector.
template <AS A, class U> St opAtomicVec(Ctx &c, const Inst &I) {
  const uint64_t *P = srcPtr(c, I.a);
  const unsigned N = I.aux;
  const VK K = VK(I.vk);
  const unsigned EB = vkBytes(K);
  const size_t Stride = c.W;
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *V = slotPtr(c, I.b);
  int bad = -1;
  bool misaligned = false;
  forLanes(c, [&](unsigned l) {
    if (bad >= 0) return;
    uint64_t a = addrOf<A>(P[l], 0);
    uint8_t *p = mem<A>(c, a, sizeof(U), l);
    if (!p || (a % sizeof(U))) { bad = int(l); misaligned = p; return; }
    U *w = reinterpret_cast<U *>(p);
    U old = __atomic_load_n(w, __ATOMIC_SEQ_CST), nw;
    do {
      nw = 0;
      for (unsigned i = 0; i < N; ++i) {
        uint64_t o = (uint64_t(old) >> (8 * EB * i)) & widthMask(8 * EB), v = V[i * Stride + l], r;
        switch (EB) {
        case 1: r = rmwElem<uint8_t>(I.kind, uint8_t(o), uint8_t(v), K); break;
        case 2: r = rmwElem<uint16_t>(I.kind, uint16_t(o), uint16_t(v), K); break;
        default: r = rmwElem<uint32_t>(I.kind, uint32_t(o), uint32_t(v), K); break;
        }
        nw |= U(U(r) << (8 * EB * i));
      }
    } while (!__atomic_compare_exchange_n(w, &old, nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    for (unsigned i = 0; i < N; ++i) D[i * Stride + l] = (uint64_t(old) >> (8 * EB * i)) & widthMask(8 * EB);
  });
  if (bad >= 0)
    return fault(c, misaligned ? FK::Misaligned : FK::MemoryFault, std::string(misaligned ? "misaligned " : "invalid ") + asName(A) + " vector atomic of " +
                        std::to_string(sizeof(U)) + " bytes",
                 bad, P[bad], true);
  return St::Next;
}
template <AS A, class T> St opCmpXchg(Ctx &c, const Inst &I) {
  uint64_t *D = slotPtr(c, I.dst), *D2 = slotPtr(c, I.dst + 1);
  const uint64_t *P = srcPtr(c, I.a), *Cm = srcPtr(c, I.b), *Nw = srcPtr(c, I.c);
  int bad = -1;
  bool misaligned = false;
  forLanes(c, [&](unsigned l) {
    if (bad >= 0) return;
    uint64_t a = addrOf<A>(P[l], 0);
    uint8_t *p = mem<A>(c, a, sizeof(T), l);
    if (!p || (a % sizeof(T))) { bad = int(l); misaligned = p; return; }
    T exp = T(Cm[l]);
    bool ok = __atomic_compare_exchange_n(reinterpret_cast<T *>(p), &exp, T(Nw[l]), false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    D[l] = exp;
    D2[l] = ok;
  });
  if (bad >= 0)
    return fault(c, misaligned ? FK::Misaligned : FK::MemoryFault, std::string(misaligned ? "misaligned " : "invalid ") + asName(A) + " cmpxchg of " +
                        std::to_string(sizeof(T)) + " bytes",
                 bad, P[bad], true);
  return St::Next;
}

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

// ---- memory intrinsics -------------------------------------------------------------------------------
template <AS DA, AS SA, bool Move> St opMemcpy(Ctx &c, const Inst &I) {
  const uint64_t *Dp = srcPtr(c, I.a), *Sp = srcPtr(c, I.b), *Ln = srcPtr(c, I.c);
  for (uint64_t m = c.exec; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctzll(m));
    uint64_t n = Ln[l];
    if (!n) continue;
    uint8_t *d = mem<DA>(c, addrOf<DA>(Dp[l], 0), n, l);
    if (!d) return fault(c, FK::MemoryFault, "invalid " + std::string(asName(DA)) + " memcpy destination of " + std::to_string(n) + " bytes", l, Dp[l], true);
    uint8_t *s = mem<SA>(c, addrOf<SA>(Sp[l], 0), n, l);
    if (!s) return fault(c, FK::MemoryFault, "invalid " + std::string(asName(SA)) + " memcpy source of " + std::to_string(n) + " bytes", l, Sp[l], true);
    if (Move) std::memmove(d, s, n);
    else std::memmove(d, s, n); // overlapping memcpy is UB; memmove is safe
  }
  return St::Next;
}
template <AS DA> St opMemset(Ctx &c, const Inst &I) {
  const uint64_t *Dp = srcPtr(c, I.a), *V = srcPtr(c, I.b), *Ln = srcPtr(c, I.c);
  for (uint64_t m = c.exec; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctzll(m));
    uint64_t n = Ln[l];
    if (!n) continue;
    uint8_t *d = mem<DA>(c, addrOf<DA>(Dp[l], 0), n, l);
    if (!d) return fault(c, FK::MemoryFault, "invalid " + std::string(asName(DA)) + " memset of " + std::to_string(n) + " bytes", l, Dp[l], true);
    std::memset(d, int(V[l] & 0xff), n);
  }
  return St::Next;
}

// ---- strings & printf ----------------------------------------------------------------------------------
bool readString(Ctx &c, uint64_t Addr, unsigned Lane, std::string &Out) {
  Out.clear();
  for (unsigned i = 0; i < 65536; ++i) {
    uint8_t *p = mem<AS::Flat>(c, Addr + i, 1, Lane);
    if (!p) return false;
    if (!*p) return true;
    Out.push_back(char(*p));
  }
  return true;
}

/// Formats one printf call. Next(size, isFloat, out) fetches an argument.
template <class NextFn, class StrFn> std::string formatPrintf(const std::string &Fmt, StrFn ReadStr, NextFn Next) {
  std::string Out;
  char buf[512];
  for (size_t i = 0; i < Fmt.size(); ++i) {
    if (Fmt[i] != '%') { Out.push_back(Fmt[i]); continue; }
    size_t j = i + 1;
    if (j < Fmt.size() && Fmt[j] == '%') { Out.push_back('%'); i = j; continue; }
    std::string spec = "%";
    while (j < Fmt.size() && strchr("-+ #0", Fmt[j])) spec.push_back(Fmt[j++]);
    auto num = [&]() {
      if (j < Fmt.size() && Fmt[j] == '*') {
        uint64_t v; Next(4, false, v); spec += std::to_string(int32_t(v)); ++j; return;
      }
      while (j < Fmt.size() && isdigit((unsigned char)Fmt[j])) spec.push_back(Fmt[j++]);
    };
    num();
    if (j < Fmt.size() && Fmt[j] == '.') { spec.push_back('.'); ++j; num(); }
    unsigned longs = 0;
    while (j < Fmt.size() && strchr("hlLqjzt", Fmt[j])) {
      if (Fmt[j] == 'l' || Fmt[j] == 'L' || Fmt[j] == 'q' || Fmt[j] == 'j' || Fmt[j] == 'z' || Fmt[j] == 't') ++longs;
      ++j;
    }
    if (j >= Fmt.size()) { Out += spec; break; }
    char conv = Fmt[j];
    i = j;
    uint64_t v = 0;
    switch (conv) {
    case 'd': case 'i': {
      Next(longs ? 8 : 4, false, v);
      snprintf(buf, sizeof buf, (spec + "lld").c_str(), longs ? (long long)v : (long long)int32_t(v));
      break;
    }
    case 'u': case 'x': case 'X': case 'o': {
      Next(longs ? 8 : 4, false, v);
      snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), longs ? (unsigned long long)v : (unsigned long long)uint32_t(v));
      break;
    }
    case 'c':
      Next(4, false, v);
      snprintf(buf, sizeof buf, (spec + "c").c_str(), int(v & 0xff));
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      Next(8, true, v);
      snprintf(buf, sizeof buf, (spec + conv).c_str(), asF64(v));
      break;
    case 'p':
      Next(8, false, v);
      snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
      break;
    case 's': {
      Next(8, false, v);
      std::string s;
      if (!ReadStr(v, s)) s = "(invalid string address)";
      snprintf(buf, sizeof buf, (spec + "s").c_str(), s.c_str());
      break;
    }
    default:
      snprintf(buf, sizeof buf, "%s%c", spec.c_str(), conv);
    }
    Out += buf;
  }
  return Out;
}

St opPrintf(Ctx &c, const Inst &I) {
  const PrintfInfo &PI = c.fr->fn->printfs[I.aux];
  std::string All;
  for (uint64_t m = c.exec; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctzll(m));
    std::string Fmt;
    uint64_t fmtAddr = srcPtr(c, PI.args[0])[l];
    if (!readString(c, fmtAddr, l, Fmt)) return fault(c, FK::MemoryFault, "printf format string is not readable", l, fmtAddr, true);
    if (PI.vprintf) {
      uint64_t buf = srcPtr(c, PI.args[1])[l];
      uint64_t off = 0;
      bool bad = false;
      auto RS = [&](uint64_t A, std::string &S) { return readString(c, A, l, S); };
      All += formatPrintf(Fmt, RS, [&](unsigned sz, bool, uint64_t &v) {
        off = (off + sz - 1) & ~uint64_t(sz - 1);
        v = 0;
        uint8_t *p = buf ? mem<AS::Flat>(c, buf + off, sz, l) : nullptr;
        if (!p) { bad = true; return; }
        std::memcpy(&v, p, sz);
        off += sz;
      });
      if (bad) return fault(c, FK::MemoryFault, "vprintf argument buffer is not readable", l, buf + off, true);
    } else {
      size_t k = 1;
      auto RS = [&](uint64_t A, std::string &S) { return readString(c, A, l, S); };
      All += formatPrintf(Fmt, RS, [&](unsigned sz, bool isFloat, uint64_t &v) {
        v = 0;
        if (k >= PI.args.size()) return;
        VK K = PI.kinds[k];
        v = srcPtr(c, PI.args[k])[l];
        ++k;
        if (isFloat && K == VK::F32) v = fromF64(double(asF32(v)));
        else if (!isFloat && sz == 8 && K != VK::I64) v = uint64_t(sextFrom(v, vkBits(K)));
      });
    }
  }
  uint64_t *D = I.dst >= 0 ? slotPtr(c, I.dst) : nullptr;
  if (D) forLanes(c, [&](unsigned l) { D[l] = 0; });
  {
    std::lock_guard<std::mutex> G(c.L->printMu);
    if (c.L->printfSink && *c.L->printfSink) (*c.L->printfSink)(All);
    else { fwrite(All.data(), 1, All.size(), stdout); fflush(stdout); }
  }
  return St::Next;
}

// ---- cross-lane and state operations ----------------------------------------------------------------------
inline void workitem(const Ctx &c, unsigned l, uint32_t id[3]) {
  uint32_t lin = c.wave->index * c.W + l;
  const uint32_t *S = c.L->wgSize;
  id[0] = lin % S[0];
  id[1] = (lin / S[0]) % S[1];
  id[2] = lin / (S[0] * S[1]);
}
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

} // namespace

std::string formatVprintf(const std::string &Fmt, const uint8_t *Args, size_t N,
                          const std::function<bool(uint64_t, std::string &)> &ReadStr) {
  uint64_t off = 0;
  return formatPrintf(Fmt, ReadStr, [&](unsigned sz, bool, uint64_t &v) {
    off = (off + sz - 1) & ~uint64_t(sz - 1);
    v = 0;
    if (off + sz <= N) std::memcpy(&v, Args + off, sz);
    off += sz;
  });
}

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

template <AS A> Handler loadN(unsigned N) {
  switch (N) {
  case 1: return opLoad<A, 1>;
  case 2: return opLoad<A, 2>;
  case 4: return opLoad<A, 4>;
  case 8: return opLoad<A, 8>;
  }
  return nullptr;
}
template <AS A> Handler storeN(unsigned N) {
  switch (N) {
  case 1: return opStore<A, 1>;
  case 2: return opStore<A, 2>;
  case 4: return opStore<A, 4>;
  case 8: return opStore<A, 8>;
  }
  return nullptr;
}
#define BY_AS(A, F)                                                                                  \
  switch (A) {                                                                                       \
  case AS::Global: return F<AS::Global>;                                                             \
  case AS::LDS: return F<AS::LDS>;                                                                   \
  case AS::Private: return F<AS::Private>;                                                           \
  case AS::Flat: return F<AS::Flat>;                                                                 \
  }

template <AS A> Handler vecN(unsigned S, bool Store) {
  switch (S) {
  case 2: return Store ? opStoreVec<A, 2> : opLoadVec<A, 2>;
  case 4: return Store ? opStoreVec<A, 4> : opLoadVec<A, 4>;
  case 8: return Store ? opStoreVec<A, 8> : opLoadVec<A, 8>;
  case 16: return Store ? opStoreVec<A, 16> : opLoadVec<A, 16>;
  }
  return nullptr;
}
Handler wholeAccess(AS A, unsigned Bytes, bool Store) {
  switch (A) {
  case AS::Global: return vecN<AS::Global>(Bytes, Store);
  case AS::Flat: return vecN<AS::Flat>(Bytes, Store);
  default: return nullptr; // LDS/private are only touched by the workgroup's own host thread
  }
}
Handler load(AS A, unsigned N) {
  switch (A) {
  case AS::Global: return loadN<AS::Global>(N);
  case AS::LDS: return loadN<AS::LDS>(N);
  case AS::Private: return loadN<AS::Private>(N);
  case AS::Flat: return loadN<AS::Flat>(N);
  }
  return nullptr;
}
Handler store(AS A, unsigned N) {
  switch (A) {
  case AS::Global: return storeN<AS::Global>(N);
  case AS::LDS: return storeN<AS::LDS>(N);
  case AS::Private: return storeN<AS::Private>(N);
  case AS::Flat: return storeN<AS::Flat>(N);
  }
  return nullptr;
}
template <AS A> Handler atomicFor(unsigned Bytes) {
  switch (Bytes) {
  case 1: return opAtomic<A, uint8_t>;
  case 2: return opAtomic<A, uint16_t>;
  case 4: return opAtomic<A, uint32_t>;
  case 8: return opAtomic<A, uint64_t>;
  }
  return nullptr;
}
template <AS A> Handler cmpxchgFor(unsigned Bytes) {
  switch (Bytes) {
  case 1: return opCmpXchg<A, uint8_t>;
  case 2: return opCmpXchg<A, uint16_t>;
  case 4: return opCmpXchg<A, uint32_t>;
  case 8: return opCmpXchg<A, uint64_t>;
  }
  return nullptr;
}
Handler atomicRMW(unsigned, VK K, AS A) {
  unsigned B = vkBytes(K);
  switch (A) {
  case AS::Global: return atomicFor<AS::Global>(B);
  case AS::LDS: return atomicFor<AS::LDS>(B);
  case AS::Private: return atomicFor<AS::Private>(B);
  case AS::Flat: return atomicFor<AS::Flat>(B);
  }
  return nullptr;
}
template <AS A> Handler atomicVecFor(unsigned Bytes) {
  switch (Bytes) {
  case 2: return opAtomicVec<A, uint16_t>;
  case 4: return opAtomicVec<A, uint32_t>;
  case 8: return opAtomicVec<A, uint64_t>;
  }
  return nullptr;
}
Handler atomicRMWVec(unsigned Op, VK K, unsigned N, AS A) {
  if (K == VK::I1 || K == VK::I64 || K == VK::F64 || N < 2) return nullptr;
  bool FP = K == VK::F16 || K == VK::BF16 || K == VK::F32;
  switch (Op) {
  case AtomicRMWInst::FAdd: case AtomicRMWInst::FSub: case AtomicRMWInst::FMin: case AtomicRMWInst::FMax:
  case AtomicRMWInst::FMinimum: case AtomicRMWInst::FMaximum:
    if (!FP) return nullptr;
    break;
  case AtomicRMWInst::Xchg: break;
  case AtomicRMWInst::Add: case AtomicRMWInst::Sub: case AtomicRMWInst::And: case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor: case AtomicRMWInst::Nand: case AtomicRMWInst::Max: case AtomicRMWInst::Min:
  case AtomicRMWInst::UMax: case AtomicRMWInst::UMin:
    if (FP) return nullptr;
    break;
  default: return nullptr;
  }
  unsigned B = vkBytes(K) * N;
  switch (A) {
  case AS::Global: return atomicVecFor<AS::Global>(B);
  case AS::LDS: return atomicVecFor<AS::LDS>(B);
  case AS::Private: return atomicVecFor<AS::Private>(B);
  case AS::Flat: return atomicVecFor<AS::Flat>(B);
  }
  return nullptr;
}
Handler cmpxchg(VK K, AS A) {
  unsigned B = vkBytes(K);
  switch (A) {
  case AS::Global: return cmpxchgFor<AS::Global>(B);
  case AS::LDS: return cmpxchgFor<AS::LDS>(B);
  case AS::Private: return cmpxchgFor<AS::Private>(B);
  case AS::Flat: return cmpxchgFor<AS::Flat>(B);
  }
  return nullptr;
}

Handler asCast(unsigned From, unsigned To) {
  // AMDGPU: segment (LDS/private) null is -1, flat null is 0.
  if (From == To) return move();
  if (From == 3 && To == 0)
    return +[](Ctx &c, const Inst &I) { uint64_t *D = slotPtr(c, I.dst); const uint64_t *A = srcPtr(c, I.a);
      forLanes(c, [&](unsigned l) { uint32_t v = uint32_t(A[l]); D[l] = v == 0xffffffffu ? 0 : SharedApertureBase | v; });
      return St::Next; };
  if (From == 5 && To == 0)
    return +[](Ctx &c, const Inst &I) { uint64_t *D = slotPtr(c, I.dst); const uint64_t *A = srcPtr(c, I.a);
      forLanes(c, [&](unsigned l) { uint32_t v = uint32_t(A[l]); D[l] = v == 0xffffffffu ? 0 : PrivateApertureBase | v; });
      return St::Next; };
  if ((From == 0 && (To == 3 || To == 5)))
    return +[](Ctx &c, const Inst &I) { uint64_t *D = slotPtr(c, I.dst); const uint64_t *A = srcPtr(c, I.a);
      forLanes(c, [&](unsigned l) { D[l] = A[l] == 0 ? 0xffffffffu : uint32_t(A[l]); });
      return St::Next; };
  auto is64 = [](unsigned S) { return S == 0 || S == 1 || S == 4; };
  if (is64(From) && is64(To)) return move();
  return nullptr;
}
Handler fence() {
  return +[](Ctx &, const Inst &) { __atomic_thread_fence(__ATOMIC_SEQ_CST); return St::Next; };
}
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
Handler printfOp() { return opPrintf; }
Handler memcpyOp(AS D, AS S, bool Move) {
#define MC(DA, SA) if (D == DA && S == SA) return Move ? opMemcpy<DA, SA, true> : opMemcpy<DA, SA, false>;
#define MCD(DA) MC(DA, AS::Global) MC(DA, AS::LDS) MC(DA, AS::Private) MC(DA, AS::Flat)
  MCD(AS::Global) MCD(AS::LDS) MCD(AS::Private) MCD(AS::Flat)
#undef MCD
#undef MC
  return nullptr;
}
Handler memsetOp(AS D) {
  switch (D) {
  case AS::Global: return opMemset<AS::Global>;
  case AS::LDS: return opMemset<AS::LDS>;
  case AS::Private: return opMemset<AS::Private>;
  case AS::Flat: return opMemset<AS::Flat>;
  }
  return nullptr;
}

Handler special(SOp Op, VK) {
  switch (Op) {
  case SOp::WorkitemIdX: return opWorkitemId<0>;
  case SOp::WorkitemIdY: return opWorkitemId<1>;
  case SOp::WorkitemIdZ: return opWorkitemId<2>;
  case SOp::WorkgroupIdX: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.wg->id[0]); };
  case SOp::WorkgroupIdY: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.wg->id[1]); };
  case SOp::WorkgroupIdZ: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.wg->id[2]); };
  case SOp::ImplicitArgPtr: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.L->hiddenAddr); };
  case SOp::KernargPtr: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.L->kernargAddr); };
  case SOp::DispatchPtr: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.L->dispatchAddr); };
  case SOp::DispatchId: return +[](Ctx &c, const Inst &I) { return uniform(c, I, 0); };
  case SOp::GroupStaticSize: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.L->img->staticLds); };
  case SOp::WaveSize: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.W); };
  case SOp::Ballot: return opBallot;
  case SOp::ICmpBallot: return opICmpBallot;
  case SOp::FCmpBallot: return opFCmpBallot;
  case SOp::ReadLane: return opReadLane;
  case SOp::ReadFirstLane: return opReadFirstLane;
  case SOp::WriteLane: return opWriteLane;
  case SOp::MbcntLo: return opMbcntLo;
  case SOp::MbcntHi: return opMbcntHi;
  case SOp::DsBpermute: return opBpermute;
  case SOp::DsPermute: return opPermute;
  case SOp::Permlane64: return opPermlane64;
  case SOp::Permlane16: return opPermlane16;
  case SOp::DsSwizzle: return opSwizzle;
  case SOp::Barrier:
    return +[](Ctx &c, const Inst &) {
      if (c.wg->waves.size() <= 1) return St::Next;
      c.wave->state = WaveState::AtBarrier;
      return St::Yield;
    };
  case SOp::WaveBarrier: case SOp::Nop: return +[](Ctx &, const Inst &) { return St::Next; };
  case SOp::Sleep: return +[](Ctx &, const Inst &) { return St::Yield; };
  case SOp::MemTime:
    return +[](Ctx &c, const Inst &I) {
      return uniform(c, I, uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
    };
  case SOp::MemRealTime:
    return +[](Ctx &c, const Inst &I) {
      return uniform(c, I, uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch()).count() / 10));
    };
  case SOp::IsShared:
    return +[](Ctx &c, const Inst &I) { uint64_t *D = slotPtr(c, I.dst); const uint64_t *A = srcPtr(c, I.a);
      forLanes(c, [&](unsigned l) { D[l] = (A[l] >> 32) == (SharedApertureBase >> 32); }); return St::Next; };
  case SOp::IsPrivate:
    return +[](Ctx &c, const Inst &I) { uint64_t *D = slotPtr(c, I.dst); const uint64_t *A = srcPtr(c, I.a);
      forLanes(c, [&](unsigned l) { D[l] = (A[l] >> 32) == (PrivateApertureBase >> 32); }); return St::Next; };
  case SOp::Trap:
    return +[](Ctx &c, const Inst &) { return fault(c, FK::Trap, "trap", unsigned(__builtin_ctzll(c.exec)), 0, false); };
  case SOp::Abort:
    return +[](Ctx &c, const Inst &) { return fault(c, FK::Trap, "abort() called", unsigned(__builtin_ctzll(c.exec)), 0, false); };
  case SOp::EndPgm:
    return +[](Ctx &c, const Inst &) { c.wave->depth = 0; c.wave->state = WaveState::Done; return St::Stop; };
  case SOp::StackSave: return +[](Ctx &c, const Inst &I) { return uniform(c, I, c.wave->sp); };
  case SOp::StackRestore:
    return +[](Ctx &c, const Inst &I) {
      const uint64_t *A = srcPtr(c, I.a);
      uint32_t v = uint32_t(A[__builtin_ctzll(c.exec)]);
      if (v >= c.fr->spBase && v <= c.wave->sp) { c.wave->sp = v; c.fr->spTop = v; }
      return St::Next;
    };
  case SOp::GetReg:
    // A synthetic placement: the workgroup's compute unit is derived from its id (16 CUs/WGPs,
    // one shader engine/array), the wave id from the wave's index in the workgroup. HW_ID
    // (gfx9): WAVE_ID [3:0], CU_ID [11:8]; HW_ID1 (gfx10+): WAVE_ID [4:0], WGP_ID [13:10].
    return +[](Ctx &c, const Inst &I) {
      unsigned Id = I.aux & 63, Off = (I.aux >> 6) & 31, Size = ((I.aux >> 11) & 31) + 1;
      uint64_t Cu = (c.wg->id[0] + 3ull * c.wg->id[1] + 5ull * c.wg->id[2]) & 15, W = c.wave->index;
      uint64_t Reg = Id == 4 ? ((W & 15) | (Cu << 8)) : ((W & 31) | (Cu << 10));
      return uniform(c, I, (Reg >> Off) & ((Size >= 32 ? ~0ull : (1ull << Size) - 1)));
    };
  case SOp::AssertFail: return +[](Ctx &c, const Inst &I) { return opAssert(c, I, true); };
  case SOp::AssertFailC: return +[](Ctx &c, const Inst &I) { return opAssert(c, I, false); };
  }
  return nullptr;
}

} // namespace ops
} // namespace emu::detail

std::string emu::formatPrintfRecord(const std::string &Fmt, const uint8_t *Args, size_t N,
                                    const std::function<bool(uint64_t, std::string &)> &ReadStr) {
  return detail::formatVprintf(Fmt, Args, N, ReadStr);
}
