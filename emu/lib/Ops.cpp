//===- Ops.cpp - element-wise wave operations -------------------------------===//
//
// Handlers for the pure, per-lane operations of the emulator: integer and
// floating-point arithmetic, comparisons, casts, selects, address arithmetic
// and the element-wise intrinsics (generic LLVM math/bit intrinsics and the
// AMDGPU ALU intrinsics with the semantics of the AMD ISA manuals). Each
// handler runs one instruction for a whole wave by looping over the active
// lanes; the translator picks the instantiation for the operand kinds once,
// at module load, so no type dispatch happens at run time.
//
//===----------------------------------------------------------------------===//
#include "LaneOps.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"

#include <cfenv>
#include <climits>
#include <limits>

using namespace llvm;

namespace emu::detail {
uint64_t f2hInt(int64_t v);
uint64_t f2hUInt(uint64_t v);
namespace {

template <class F> inline St un1(Ctx &c, const Inst &I, F f) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a);
  forLanes(c, [&](unsigned l) { D[l] = f(A[l]); });
  return St::Next;
}
template <class F> inline St bin2(Ctx &c, const Inst &I, F f) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
  forLanes(c, [&](unsigned l) { D[l] = f(A[l], B[l]); });
  return St::Next;
}
template <class F> inline St tri3(Ctx &c, const Inst &I, F f) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b), *C = srcPtr(c, I.c);
  forLanes(c, [&](unsigned l) { D[l] = f(A[l], B[l], C[l]); });
  return St::Next;
}
/// Two results (dst, dst+1) from two operands.
template <class F> inline St bin2x2(Ctx &c, const Inst &I, F f) {
  uint64_t *D = slotPtr(c, I.dst), *D2 = slotPtr(c, I.dst + 1);
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
  forLanes(c, [&](unsigned l) { f(A[l], B[l], D[l], D2[l]); });
  return St::Next;
}

#define U1(...) +[](Ctx &c, const Inst &I) -> St { return un1(c, I, [&](uint64_t x) -> uint64_t { __VA_ARGS__ }); }
#define B2(...) +[](Ctx &c, const Inst &I) -> St { return bin2(c, I, [&](uint64_t x, uint64_t y) -> uint64_t { __VA_ARGS__ }); }
#define T3(...) +[](Ctx &c, const Inst &I) -> St { return tri3(c, I, [&](uint64_t x, uint64_t y, uint64_t z) -> uint64_t { __VA_ARGS__ }); }

// ---- FP traits ----------------------------------------------------------------
struct TF16 {
  using C = float;
  static C ld(uint64_t v) { return h2f(v); }
  static uint64_t st(float x) { return f2h(x); }
  static uint64_t std(double x) { return d2h(x); }
  static constexpr int Bits = 16, Mant = 10;
};
struct TBF16 {
  using C = float;
  static C ld(uint64_t v) { return bf2f(v); }
  static uint64_t st(float x) { return f2bf(x); }
  static uint64_t std(double x) { return d2bf(x); }
  static constexpr int Bits = 16, Mant = 7;
};
struct TF32 {
  using C = float;
  static C ld(uint64_t v) { return asF32(v); }
  static uint64_t st(float x) { return fromF32(x); }
  static uint64_t std(double x) { return fromF32(float(x)); }
  static constexpr int Bits = 32, Mant = 23;
};
struct TF64 {
  using C = double;
  static C ld(uint64_t v) { return asF64(v); }
  static uint64_t st(double x) { return fromF64(x); }
  static uint64_t std(double x) { return fromF64(x); }
  static constexpr int Bits = 64, Mant = 52;
};

// ---- integer binary ops -----------------------------------------------------------
template <class U, class S> Handler intBin(unsigned Opc) {
  constexpr unsigned W = sizeof(U) * 8;
  switch (Opc) {
  case Instruction::Add: return B2(return U(U(x) + U(y)););
  case Instruction::Sub: return B2(return U(U(x) - U(y)););
  case Instruction::Mul: return B2(return U(U(x) * U(y)););
  case Instruction::And: return B2(return x & y;);
  case Instruction::Or: return B2(return x | y;);
  case Instruction::Xor: return B2(return x ^ y;);
  case Instruction::Shl: return B2(return U(U(x) << (y & (W - 1))););
  case Instruction::LShr: return B2(return U(U(x) >> (y & (W - 1))););
  case Instruction::AShr: return B2(return U(S(U(x)) >> (y & (W - 1))););
  case Instruction::UDiv: return B2(return U(y) == 0 ? U(~U(0)) : U(U(x) / U(y)););
  case Instruction::URem: return B2(return U(y) == 0 ? U(x) : U(U(x) % U(y)););
  case Instruction::SDiv:
    return B2(S a = S(U(x)); S b = S(U(y)); if (b == 0) return U(~U(0));
              if (b == -1) return U(U(0) - U(a)); return U(S(a / b)););
  case Instruction::SRem:
    return B2(S a = S(U(x)); S b = S(U(y)); if (b == 0) return U(a);
              if (b == -1) return U(0); return U(S(a % b)););
  }
  return nullptr;
}

Handler i1Bin(unsigned Opc) {
  switch (Opc) {
  case Instruction::And: case Instruction::Mul: return B2(return x & y & 1;);
  case Instruction::Or: return B2(return (x | y) & 1;);
  case Instruction::Xor: case Instruction::Add: case Instruction::Sub:
    return B2(return (x ^ y) & 1;);
  case Instruction::Shl: case Instruction::LShr: case Instruction::AShr:
    return B2(return y & 1 ? 0 : x & 1;); // shift by 1 of an i1 is poison; 0
  }
  return nullptr;
}

template <class T> Handler fpBin(unsigned Opc) {
  using C = typename T::C;
  switch (Opc) {
  case Instruction::FAdd: return B2(return T::st(C(T::ld(x) + T::ld(y))););
  case Instruction::FSub: return B2(return T::st(C(T::ld(x) - T::ld(y))););
  case Instruction::FMul: return B2(return T::st(C(T::ld(x) * T::ld(y))););
  case Instruction::FDiv: return B2(return T::st(C(T::ld(x) / T::ld(y))););
  case Instruction::FRem: return B2(return T::st(C(std::fmod(T::ld(x), T::ld(y)))););
  }
  return nullptr;
}

template <class U, class S> Handler intCmp(unsigned P) {
  switch (P) {
  case CmpInst::ICMP_EQ: return B2(return U(x) == U(y););
  case CmpInst::ICMP_NE: return B2(return U(x) != U(y););
  case CmpInst::ICMP_UGT: return B2(return U(x) > U(y););
  case CmpInst::ICMP_UGE: return B2(return U(x) >= U(y););
  case CmpInst::ICMP_ULT: return B2(return U(x) < U(y););
  case CmpInst::ICMP_ULE: return B2(return U(x) <= U(y););
  case CmpInst::ICMP_SGT: return B2(return S(U(x)) > S(U(y)););
  case CmpInst::ICMP_SGE: return B2(return S(U(x)) >= S(U(y)););
  case CmpInst::ICMP_SLT: return B2(return S(U(x)) < S(U(y)););
  case CmpInst::ICMP_SLE: return B2(return S(U(x)) <= S(U(y)););
  }
  return nullptr;
}
Handler i1Cmp(unsigned P) {
  // i1 is signed -1/0: true < false for signed predicates.
  switch (P) {
  case CmpInst::ICMP_EQ: return B2(return (x & 1) == (y & 1););
  case CmpInst::ICMP_NE: return B2(return (x & 1) != (y & 1););
  case CmpInst::ICMP_UGT: case CmpInst::ICMP_SLT: return B2(return (x & 1) > (y & 1););
  case CmpInst::ICMP_UGE: case CmpInst::ICMP_SLE: return B2(return (x & 1) >= (y & 1););
  case CmpInst::ICMP_ULT: case CmpInst::ICMP_SGT: return B2(return (x & 1) < (y & 1););
  case CmpInst::ICMP_ULE: case CmpInst::ICMP_SGE: return B2(return (x & 1) <= (y & 1););
  }
  return nullptr;
}

template <class T> Handler fpCmp(unsigned P) {
#define FC(COND) B2(auto a = T::ld(x); auto b = T::ld(y); (void)a; (void)b; return (COND);)
  switch (P) {
  case CmpInst::FCMP_FALSE: return B2(return 0;);
  case CmpInst::FCMP_TRUE: return B2(return 1;);
  case CmpInst::FCMP_OEQ: return FC(a == b);
  case CmpInst::FCMP_OGT: return FC(a > b);
  case CmpInst::FCMP_OGE: return FC(a >= b);
  case CmpInst::FCMP_OLT: return FC(a < b);
  case CmpInst::FCMP_OLE: return FC(a <= b);
  case CmpInst::FCMP_ONE: return FC(a < b || a > b);
  case CmpInst::FCMP_ORD: return FC(!std::isnan(a) && !std::isnan(b));
  case CmpInst::FCMP_UNO: return FC(std::isnan(a) || std::isnan(b));
  case CmpInst::FCMP_UEQ: return FC(!(a < b || a > b));
  case CmpInst::FCMP_UGT: return FC(!(a <= b));
  case CmpInst::FCMP_UGE: return FC(!(a < b));
  case CmpInst::FCMP_ULT: return FC(!(a >= b));
  case CmpInst::FCMP_ULE: return FC(!(a > b));
  case CmpInst::FCMP_UNE: return FC(!(a == b));
  }
#undef FC
  return nullptr;
}

template <class T, class F> Handler byFP(VK K, F f) {
  switch (K) {
  case VK::F16: return f(TF16{});
  case VK::BF16: return f(TBF16{});
  case VK::F32: return f(TF32{});
  case VK::F64: return f(TF64{});
  default: return nullptr;
  }
}
template <class F> Handler byInt(VK K, F f) {
  switch (K) {
  case VK::I8: return f(uint8_t{}, int8_t{});
  case VK::I16: return f(uint16_t{}, int16_t{});
  case VK::I32: return f(uint32_t{}, int32_t{});
  case VK::I64: return f(uint64_t{}, int64_t{});
  default: return nullptr;
  }
}

// ---- casts -------------------------------------------------------------------------
template <class T, class U, class S> Handler fpToInt(bool Signed) {
  if (Signed)
    return U1(auto v = T::ld(x); if (std::isnan(v)) return 0;
              if (v <= (typename T::C)std::numeric_limits<S>::min()) return U(std::numeric_limits<S>::min());
              if (double(v) >= double(std::numeric_limits<S>::max())) return U(std::numeric_limits<S>::max());
              return U(S(v)););
  return U1(auto v = T::ld(x); if (std::isnan(v) || v <= 0) return 0;
            if (double(v) >= double(std::numeric_limits<U>::max())) return U(std::numeric_limits<U>::max());
            return U(v););
}
template <class T, class U, class S> Handler intToFp(bool Signed) {
  if constexpr (std::is_same_v<T, TF16>) {
    if (Signed) return U1(return f2hInt(S(U(x))););
    return U1(return f2hUInt(U(x)););
  } else if constexpr (std::is_same_v<T, TBF16>) {
    if (Signed) return U1(return T::std(double(S(U(x)))););
    return U1(return T::std(double(U(x))););
  } else {
    using C = typename T::C;
    if (Signed) return U1(return T::st(C(S(U(x)))););
    return U1(return T::st(C(U(x))););
  }
}

Handler i1ToFp(VK To, bool Signed) {
  return byFP<void>(To, [&](auto T) -> Handler {
    using TT = decltype(T);
    if (Signed) return U1(return TT::st((x & 1) ? -1.0f : 0.0f););
    return U1(return TT::st((x & 1) ? 1.0f : 0.0f););
  });
}

} // namespace

uint64_t f2hInt(int64_t v) {
  _Float16 h = _Float16(v);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
uint64_t f2hUInt(uint64_t v) {
  _Float16 h = _Float16(v);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

namespace ops {

Handler binInt(unsigned Opc, VK K) {
  if (K == VK::I1) return i1Bin(Opc);
  return byInt(K, [&](auto u, auto s) { return intBin<decltype(u), decltype(s)>(Opc); });
}
Handler binFP(unsigned Opc, VK K) {
  return byFP<void>(K, [&](auto T) { return fpBin<decltype(T)>(Opc); });
}
Handler fneg(VK K) {
  switch (K) {
  case VK::F16: case VK::BF16: return U1(return x ^ 0x8000u;);
  case VK::F32: return U1(return x ^ 0x80000000u;);
  case VK::F64: return U1(return x ^ 0x8000000000000000ull;);
  default: return nullptr;
  }
}
Handler icmp(unsigned P, VK K) {
  if (K == VK::I1) return i1Cmp(P);
  return byInt(K, [&](auto u, auto s) { return intCmp<decltype(u), decltype(s)>(P); });
}
Handler fcmp(unsigned P, VK K) {
  return byFP<void>(K, [&](auto T) { return fpCmp<decltype(T)>(P); });
}

Handler move() { return U1(return x;); }
Handler select() {
  return T3(return (x & 1) ? y : z;);
}
Handler gepAdd(unsigned IdxBits, bool Ptr32) {
  // dst = a + sext(b) * imm
  switch (IdxBits) {
  case 64:
    if (Ptr32) return B2(return uint32_t(x + y * uint64_t(I.imm)););
    return B2(return x + y * uint64_t(I.imm););
  case 32:
    if (Ptr32) return B2(return uint32_t(x + uint64_t(int64_t(int32_t(y))) * uint64_t(I.imm)););
    return B2(return x + uint64_t(int64_t(int32_t(y))) * uint64_t(I.imm););
  case 16:
    if (Ptr32) return B2(return uint32_t(x + uint64_t(int64_t(int16_t(y))) * uint64_t(I.imm)););
    return B2(return x + uint64_t(int64_t(int16_t(y))) * uint64_t(I.imm););
  case 8:
    if (Ptr32) return B2(return uint32_t(x + uint64_t(int64_t(int8_t(y))) * uint64_t(I.imm)););
    return B2(return x + uint64_t(int64_t(int8_t(y))) * uint64_t(I.imm););
  case 1:
    return B2(uint64_t r = x + ((y & 1) ? uint64_t(-I.imm) : 0); return I.vk ? uint32_t(r) : r;);
  }
  return nullptr;
}
Handler addImm(bool Ptr32) {
  if (Ptr32) return U1(return uint32_t(x + uint64_t(I.imm)););
  return U1(return x + uint64_t(I.imm););
}

Handler cast(unsigned Opc, VK From, VK To) {
  unsigned FB = vkBits(From), TB = vkBits(To);
  switch (Opc) {
  case Instruction::Trunc:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::ZExt:
    if (TB >= FB) return move();
    switch (TB) {
    case 1: return U1(return x & 1;);
    case 8: return U1(return x & 0xff;);
    case 16: return U1(return x & 0xffff;);
    case 32: return U1(return x & 0xffffffffu;);
    }
    return nullptr;
  case Instruction::SExt: {
    // sign-extend from FB, keep TB bits
#define SX(FBITS, TMASK) U1(return uint64_t(sextFrom(x, FBITS)) & TMASK;)
    uint64_t M = widthMask(TB);
    (void)M;
    if (FB == 1) {
      if (TB == 64) return U1(return (x & 1) ? ~0ull : 0;);
      if (TB == 32) return U1(return (x & 1) ? 0xffffffffull : 0;);
      if (TB == 16) return U1(return (x & 1) ? 0xffffull : 0;);
      if (TB == 8) return U1(return (x & 1) ? 0xffull : 0;);
    }
    if (FB == 8 && TB == 16) return SX(8, 0xffffull);
    if (FB == 8 && TB == 32) return SX(8, 0xffffffffull);
    if (FB == 8 && TB == 64) return SX(8, ~0ull);
    if (FB == 16 && TB == 32) return SX(16, 0xffffffffull);
    if (FB == 16 && TB == 64) return SX(16, ~0ull);
    if (FB == 32 && TB == 64) return SX(32, ~0ull);
#undef SX
    return nullptr;
  }
  case Instruction::FPTrunc:
  case Instruction::FPExt:
    if (From == To) return move();
    if (From == VK::F64) {
      if (To == VK::F32) return U1(return fromF32(float(asF64(x))););
      if (To == VK::F16) return U1(return d2h(asF64(x)););
      if (To == VK::BF16) return U1(return d2bf(asF64(x)););
    }
    if (From == VK::F32) {
      if (To == VK::F64) return U1(return fromF64(double(asF32(x))););
      if (To == VK::F16) return U1(return f2h(asF32(x)););
      if (To == VK::BF16) return U1(return f2bf(asF32(x)););
    }
    if (From == VK::F16) {
      if (To == VK::F32) return U1(return fromF32(h2f(x)););
      if (To == VK::F64) return U1(return fromF64(double(h2f(x))););
      if (To == VK::BF16) return U1(return f2bf(h2f(x)););
    }
    if (From == VK::BF16) {
      if (To == VK::F32) return U1(return fromF32(bf2f(x)););
      if (To == VK::F64) return U1(return fromF64(double(bf2f(x))););
      if (To == VK::F16) return U1(return f2h(bf2f(x)););
    }
    return nullptr;
  case Instruction::FPToSI:
  case Instruction::FPToUI: {
    bool Sg = Opc == Instruction::FPToSI;
    if (To == VK::I1)
      return byFP<void>(From, [&](auto T) -> Handler {
        using TT = decltype(T);
        return U1(return TT::ld(x) != 0 ? 1 : 0;);
      });
    return byFP<void>(From, [&](auto T) {
      return byInt(To, [&](auto u, auto s) {
        return fpToInt<decltype(T), decltype(u), decltype(s)>(Sg);
      });
    });
  }
  case Instruction::SIToFP:
  case Instruction::UIToFP: {
    bool Sg = Opc == Instruction::SIToFP;
    if (From == VK::I1) return i1ToFp(To, Sg);
    return byFP<void>(To, [&](auto T) {
      return byInt(From, [&](auto u, auto s) {
        return intToFp<decltype(T), decltype(u), decltype(s)>(Sg);
      });
    });
  }
  case Instruction::BitCast:
    return vkBits(From) == vkBits(To) ? move() : nullptr;
  }
  return nullptr;
}

// ---- element-wise intrinsics ----------------------------------------------------------
namespace {

template <class C> C fmaxNum(C a, C b) { return std::fmax(a, b); }
template <class C> C fminNum(C a, C b) { return std::fmin(a, b); }
template <class C> C fminimum(C a, C b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class C> C fmaximum(C a, C b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <class C> C fminimumNum(C a, C b) {
  if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<C>::quiet_NaN() : b;
  if (std::isnan(b)) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class C> C fmaximumNum(C a, C b) {
  if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<C>::quiet_NaN() : b;
  if (std::isnan(b)) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
/// llvm.is.fpclass / amdgcn.class test bits.
template <class T> bool fpClass(uint64_t bits, uint64_t mask) {
  auto v = T::ld(bits);
  bool neg = std::signbit(v);
  int cls;
  if (std::isnan(v)) {
    uint64_t quietBit = 1ull << (T::Mant - 1);
    cls = (bits & quietBit) ? 1 : 0;
  } else if (std::isinf(v)) cls = neg ? 2 : 9;
  else if (v == 0) cls = neg ? 5 : 6;
  else if (std::fpclassify(v) == FP_SUBNORMAL ||
           (T::Bits == 16 && std::fabs(v) < (T::Mant == 10 ? 6.103515625e-05f : 1.17549435e-38f)))
    cls = neg ? 4 : 7;
  else cls = neg ? 3 : 8;
  return (mask >> cls) & 1;
}

template <class T> Handler fpLane(LOp Op) {
  using C = typename T::C;
  switch (Op) {
  case LOp::Fabs: return U1(return T::st(std::fabs(T::ld(x))););
  case LOp::Sqrt: case LOp::AmdSqrt: return U1(return T::st(std::sqrt(T::ld(x))););
  case LOp::Floor: return U1(return T::st(std::floor(T::ld(x))););
  case LOp::Ceil: return U1(return T::st(std::ceil(T::ld(x))););
  case LOp::Trunc: return U1(return T::st(std::trunc(T::ld(x))););
  case LOp::Rint: case LOp::RoundEven: return U1(return T::st(std::nearbyint(T::ld(x))););
  case LOp::Round: return U1(return T::st(std::round(T::ld(x))););
  case LOp::Exp: return U1(return T::std(std::exp(double(T::ld(x)))););
  case LOp::Exp2: case LOp::AmdExp2: return U1(return T::std(std::exp2(double(T::ld(x)))););
  case LOp::Exp10: return U1(return T::std(std::pow(10.0, double(T::ld(x)))););
  case LOp::Log: return U1(return T::std(std::log(double(T::ld(x)))););
  case LOp::Log2: case LOp::AmdLog: return U1(return T::std(std::log2(double(T::ld(x)))););
  case LOp::Log10: return U1(return T::std(std::log10(double(T::ld(x)))););
  case LOp::Sin: return U1(return T::std(std::sin(double(T::ld(x)))););
  case LOp::Cos: return U1(return T::std(std::cos(double(T::ld(x)))););
  case LOp::Tan: return U1(return T::std(std::tan(double(T::ld(x)))););
  case LOp::AmdSin: return U1(return T::std(std::sin(double(T::ld(x)) * 6.283185307179586476925));); 
  case LOp::AmdCos: return U1(return T::std(std::cos(double(T::ld(x)) * 6.283185307179586476925)););
  case LOp::Canonicalize: return U1(return T::st(T::ld(x) * C(1)););
  case LOp::Rcp: return U1(return T::st(C(1) / T::ld(x)););
  case LOp::Rsq: return U1(return T::st(C(1) / std::sqrt(T::ld(x))););
  case LOp::RsqClamp:
    return U1(C r = C(1) / std::sqrt(T::ld(x));
              if (std::isinf(r)) r = std::copysign(std::numeric_limits<C>::max(), r);
              return T::st(r););
  case LOp::Fract:
    return U1(C v = T::ld(x); if (std::isnan(v)) return T::st(v);
              if (std::isinf(v)) return T::st(std::numeric_limits<C>::quiet_NaN());
              C r = v - std::floor(v);
              C lim = std::nextafter(C(1), C(0));
              return T::st(r < lim ? r : lim););
  case LOp::FrexpMant:
    return U1(C v = T::ld(x); if (std::isnan(v) || std::isinf(v)) return T::st(v);
              int e; return T::st(std::frexp(v, &e)););
  case LOp::FrexpExp:
    return U1(C v = T::ld(x); if (std::isnan(v) || std::isinf(v)) return 0;
              int e; std::frexp(v, &e); return uint32_t(e););
  case LOp::Copysign: return B2(return T::st(std::copysign(T::ld(x), T::ld(y))););
  case LOp::Minnum: return B2(return T::st(fminNum(T::ld(x), T::ld(y))););
  case LOp::Maxnum: return B2(return T::st(fmaxNum(T::ld(x), T::ld(y))););
  case LOp::Minimum: return B2(return T::st(fminimum(T::ld(x), T::ld(y))););
  case LOp::Maximum: return B2(return T::st(fmaximum(T::ld(x), T::ld(y))););
  case LOp::MinimumNum: return B2(return T::st(fminimumNum(T::ld(x), T::ld(y))););
  case LOp::MaximumNum: return B2(return T::st(fmaximumNum(T::ld(x), T::ld(y))););
  case LOp::Pow: return B2(return T::std(std::pow(double(T::ld(x)), double(T::ld(y)))););
  case LOp::Ldexp:
    return B2(int e = int32_t(y); return T::std(std::ldexp(double(T::ld(x)), e)););
  case LOp::Powi:
    return B2(int e = int32_t(y); return T::std(std::pow(double(T::ld(x)), double(e))););
  case LOp::AmdClass: case LOp::IsFPClass: return B2(return fpClass<T>(x, y) ? 1 : 0;);
  case LOp::Fma: case LOp::FMulAdd:
    if constexpr (std::is_same_v<C, double>)
      return T3(return T::st(std::fma(T::ld(x), T::ld(y), T::ld(z))););
    else if constexpr (T::Bits == 32)
      return T3(return T::st(std::fma(T::ld(x), T::ld(y), T::ld(z))););
    else
      return T3(return T::std(std::fma(double(T::ld(x)), double(T::ld(y)), double(T::ld(z)))););
  case LOp::FMed3:
    return T3(C a = T::ld(x), b = T::ld(y), d = T::ld(z);
              return T::st(fmaxNum(fminNum(a, b), fminNum(fmaxNum(a, b), d))););
  case LOp::Frexp:
    return +[](Ctx &c, const Inst &I) -> St {
      return bin2x2(c, I, [](uint64_t x, uint64_t, uint64_t &d, uint64_t &e) {
        C v = T::ld(x);
        if (std::isnan(v) || std::isinf(v)) { d = x; e = 0; return; }
        int ex; d = T::st(std::frexp(v, &ex)); e = uint32_t(ex);
      });
    };
  default: return nullptr;
  }
}

template <class U, class S> Handler intLane(LOp Op) {
  constexpr unsigned W = sizeof(U) * 8;
  switch (Op) {
  case LOp::Ctpop: return U1(return uint64_t(__builtin_popcountll(U(x))););
  case LOp::Ctlz: return U1(U v = U(x); return v == 0 ? W : uint64_t(__builtin_clzll(v) - (64 - W)););
  case LOp::Cttz: return U1(U v = U(x); return v == 0 ? W : uint64_t(__builtin_ctzll(v)););
  case LOp::Bitreverse:
    return U1(uint64_t v = U(x); uint64_t r = 0; for (unsigned i = 0; i < W; ++i) r |= ((v >> i) & 1) << (W - 1 - i); return r;);
  case LOp::Bswap:
    if constexpr (W == 16) return U1(return uint64_t(__builtin_bswap16(uint16_t(x))););
    else if constexpr (W == 32) return U1(return uint64_t(__builtin_bswap32(uint32_t(x))););
    else if constexpr (W == 64) return U1(return __builtin_bswap64(x););
    else return nullptr;
  case LOp::Abs: return U1(S v = S(U(x)); return U(v < 0 ? U(0) - U(v) : U(v)););
  case LOp::Smin: return B2(return S(U(x)) < S(U(y)) ? x : y;);
  case LOp::Smax: return B2(return S(U(x)) > S(U(y)) ? x : y;);
  case LOp::Umin: return B2(return U(x) < U(y) ? x : y;);
  case LOp::Umax: return B2(return U(x) > U(y) ? x : y;);
  case LOp::UaddSat: return B2(U r; if (__builtin_add_overflow(U(x), U(y), &r)) return U(~U(0)); return r;);
  case LOp::UsubSat: return B2(U r; if (__builtin_sub_overflow(U(x), U(y), &r)) return 0; return r;);
  case LOp::SaddSat:
    return B2(S r; if (__builtin_add_overflow(S(U(x)), S(U(y)), &r))
                return U(S(U(y)) < 0 ? std::numeric_limits<S>::min() : std::numeric_limits<S>::max());
              return U(r););
  case LOp::SsubSat:
    return B2(S r; if (__builtin_sub_overflow(S(U(x)), S(U(y)), &r))
                return U(S(U(y)) > 0 ? std::numeric_limits<S>::min() : std::numeric_limits<S>::max());
              return U(r););
  case LOp::Fshl:
    return T3(unsigned s = unsigned(z % W); if (s == 0) return U(x);
              return U(U(U(x) << s) | U(U(y) >> (W - s))););
  case LOp::Fshr:
    return T3(unsigned s = unsigned(z % W); if (s == 0) return U(y);
              return U(U(U(x) << (W - s)) | U(U(y) >> s)););
#define OVF(BUILTIN, T_)                                                                     \
  +[](Ctx &c, const Inst &I) -> St {                                                         \
    return bin2x2(c, I, [](uint64_t x, uint64_t y, uint64_t &d, uint64_t &o) {               \
      T_ r; o = BUILTIN(T_(U(x)), T_(U(y)), &r) ? 1 : 0; d = U(r);                            \
    });                                                                                      \
  }
  case LOp::SaddO: return OVF(__builtin_add_overflow, S);
  case LOp::UaddO: return OVF(__builtin_add_overflow, U);
  case LOp::SsubO: return OVF(__builtin_sub_overflow, S);
  case LOp::UsubO: return OVF(__builtin_sub_overflow, U);
  case LOp::SmulO: return OVF(__builtin_mul_overflow, S);
  case LOp::UmulO: return OVF(__builtin_mul_overflow, U);
#undef OVF
  default: break;
  }
  if constexpr (W == 32) {
    switch (Op) {
    case LOp::Ubfe:
      return T3(unsigned off = y & 31, w = z & 31; if (w == 0) return 0;
                uint32_t v = uint32_t(x) >> off; return off + w < 32 ? v & ((1u << w) - 1) : v;);
    case LOp::Sbfe:
      return T3(unsigned off = y & 31, w = z & 31; if (w == 0) return 0;
                int32_t v = int32_t(uint32_t(x)) >> off;
                if (off + w < 32) v = int32_t(uint32_t(v) << (32 - w)) >> (32 - w);
                return uint32_t(v););
    case LOp::MulU24: return B2(return uint32_t((x & 0xffffff) * (y & 0xffffff)););
    case LOp::MulI24:
      return B2(return uint32_t(uint64_t(sextFrom(x & 0xffffff, 24) * sextFrom(y & 0xffffff, 24))););
    case LOp::MulHiU24: return B2(return uint32_t(((x & 0xffffff) * (y & 0xffffff)) >> 32););
    case LOp::MulHiI24:
      return B2(return uint32_t(uint64_t(sextFrom(x & 0xffffff, 24) * sextFrom(y & 0xffffff, 24)) >> 32););
    case LOp::AlignBit:
      return T3(uint64_t v = (uint64_t(uint32_t(x)) << 32) | uint32_t(y); return uint32_t(v >> (z & 31)););
    case LOp::Perm:
      return T3(uint64_t v = (uint64_t(uint32_t(x)) << 32) | uint32_t(y); uint32_t r = 0;
                for (unsigned i = 0; i < 4; ++i) {
                  unsigned s = (z >> (8 * i)) & 0xff; uint32_t b;
                  if (s < 8) b = (v >> (8 * s)) & 0xff;
                  else if (s == 8) b = (v >> 15) & 1 ? 0xff : 0;
                  else if (s == 9) b = (v >> 31) & 1 ? 0xff : 0;
                  else if (s == 10) b = (v >> 47) & 1 ? 0xff : 0;
                  else if (s == 11) b = (v >> 63) & 1 ? 0xff : 0;
                  else if (s == 12) b = 0;
                  else b = 0xff;
                  r |= b << (8 * i);
                }
                return r;);
    case LOp::Ffbh: return U1(uint32_t v = uint32_t(x); return v ? uint32_t(__builtin_clz(v)) : 0xffffffffu;);
    case LOp::Ffbl: return U1(uint32_t v = uint32_t(x); return v ? uint32_t(__builtin_ctz(v)) : 0xffffffffu;);
    case LOp::SffbH:
      return U1(int32_t v = int32_t(uint32_t(x)); if (v == 0 || v == -1) return 0xffffffffu;
                uint32_t u = v < 0 ? ~uint32_t(v) : uint32_t(v); return uint32_t(__builtin_clz(u)););
    default: break;
    }
  }
  return nullptr;
}

} // namespace

Handler laneOp(LOp Op, VK K, VK K2) {
  switch (K) {
  case VK::F16: return fpLane<TF16>(Op);
  case VK::BF16: return fpLane<TBF16>(Op);
  case VK::F32: return fpLane<TF32>(Op);
  case VK::F64: return fpLane<TF64>(Op);
  case VK::I1:
    return nullptr;
  default:
    return byInt(K, [&](auto u, auto s) { return intLane<decltype(u), decltype(s)>(Op); });
  }
}

} // namespace ops
} // namespace emu::detail
