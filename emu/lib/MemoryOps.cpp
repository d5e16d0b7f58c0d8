//===- MemoryOps.cpp - emu loads, stores, atomics, memory intrinsics -----===//
//
// Loads and stores through the AMD address spaces with bounds checks (a
// full-wave fast path for global accesses), whole-vector single-copy-atomic
// accesses, atomic read-modify-write and compare-exchange (scalar and
// vector), memcpy / memmove / memset, address-space casts and fences, and
// the handler getters the translator selects them with.
//
//===----------------------------------------------------------------------===//
#include "ExecCommon.h"

#include "llvm/IR/Instructions.h"

#include <type_traits>
#if defined(__x86_64__) && defined(__AVX__)
#include <immintrin.h>
#endif
#include <cmath>

using namespace llvm;

namespace emu::detail {
namespace {

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

} // namespace

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

} // namespace ops
} // namespace emu::detail
