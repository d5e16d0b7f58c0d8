// GoldenRef.h -- a host reference of PTX semantics for the exact golden forms (spot checks).
//
// Written from the PTX ISA 9.0 manual's descriptions, independently of the recorded data, so that
// agreement between this reference and the H200's outputs proves that the tables, the manifest
// and the input generator line up row for row (and documents the semantics the emulator must
// reproduce).  Covers the integer, carry, bit, compare/select, int<->int conversion families and
// the IEEE-rounded f32/f64 add/sub/mul/fma/div/sqrt/rcp forms (host FPU with fesetround; NaN
// results compared as "is NaN", plus NVIDIA's canonical f32 NaN 0x7fffffff).  `reference` returns
// false for forms it does not model; `skipRow` marks rows the ISA leaves unspecified.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace golden {

namespace ref {

inline std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> v;
  size_t p = 0;
  while (true) {
    size_t q = s.find('.', p);
    v.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return v;
}
inline bool has(const std::vector<std::string> &t, const char *m) {
  for (auto &x : t)
    if (x == m) return true;
  return false;
}
inline uint64_t maskw(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
inline int64_t sext(uint64_t x, unsigned w) {
  if (w >= 64) return (int64_t)x;
  uint64_t m = 1ull << (w - 1);
  x &= maskw(w);
  return (int64_t)((x ^ m) - m);
}
struct IType {
  bool ok = false, sign = false;
  unsigned w = 0;
};
inline IType itype(const std::string &t) {
  IType r;
  if (t.size() < 2) return r;
  char c = t[0];
  if (c != 'u' && c != 's' && c != 'b') return r;
  std::string n = t.substr(1);
  if (n != "8" && n != "16" && n != "32" && n != "64") return r;
  r.ok = true;
  r.sign = c == 's';
  r.w = (unsigned)std::stoi(n);
  return r;
}
inline uint64_t val(uint64_t x, IType t) { return t.sign ? (uint64_t)sext(x, t.w) : x & maskw(t.w); }

// bfe/bfi: the ISA says pos and len are the low 8 bits of their operands; the H200 does exactly
// that for .b32/.u32/.s32, but for the 64-bit forms it uses the full 32-bit values (a position or
// length of 0x101 is 257, not 1).  The reference models what the hardware does.
inline uint64_t bfe(uint64_t a, uint64_t b, uint64_t c, unsigned w, bool sign) {
  uint64_t msb = w - 1, pos = w == 64 ? (b & 0xffffffff) : (b & 0xff),
           len = w == 64 ? (c & 0xffffffff) : (c & 0xff);
  unsigned sbit = 0;
  if (sign && len != 0) sbit = (a >> std::min(pos + len - 1, msb)) & 1;
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    unsigned bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= (uint64_t)bit << i;
  }
  return d;
}
inline uint64_t bfi(uint64_t a, uint64_t b, uint64_t pos, uint64_t len, unsigned w) {
  uint64_t f = b;
  if (w != 64) {
    pos &= 0xff;
    len &= 0xff;
  }
  for (uint64_t i = 0; i < len && pos + i <= w - 1; ++i) {
    f &= ~(1ull << (pos + i));
    f |= ((a >> i) & 1) << (pos + i);
  }
  return f;
}
inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, const std::string &mode) {
  uint64_t t = ((uint64_t)b << 32) | a;
  auto byte = [&](unsigned i) { return (uint32_t)(t >> (8 * (i & 7))) & 0xff; };
  if (mode.empty()) {
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; ++i) {
      unsigned n = (c >> (4 * i)) & 0xf;
      uint32_t v = byte(n & 7);
      if (n & 8) v = (v & 0x80) ? 0xff : 0;
      d |= v << (8 * i);
    }
    return d;
  }
  // Tables from the PTX ISA: for selector c[1:0], the source byte of d.b3 d.b2 d.b1 d.b0.
  static const struct { const char *m; unsigned char s[4][4]; } tab[] = {
      {"f4e", {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}}},
      {"b4e", {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}}},
      {"rc8", {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}},
      {"ecl", {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}}},
      {"ecr", {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}}},
      {"rc16", {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}}},
  };
  for (auto &e : tab)
    if (mode == e.m) {
      const unsigned char *s = e.s[c & 3];
      return byte(s[3]) | byte(s[2]) << 8 | byte(s[1]) << 16 | byte(s[0]) << 24;
    }
  return 0;
}

inline bool icmp(const std::string &op, uint64_t a, uint64_t b, IType t, bool &known) {
  known = true;
  int64_t sa = sext(a, t.w), sb = sext(b, t.w);
  uint64_t ua = a & maskw(t.w), ub = b & maskw(t.w);
  bool s = t.sign;
  if (op == "eq") return ua == ub;
  if (op == "ne") return ua != ub;
  if (op == "lt") return s ? sa < sb : ua < ub;
  if (op == "le") return s ? sa <= sb : ua <= ub;
  if (op == "gt") return s ? sa > sb : ua > ub;
  if (op == "ge") return s ? sa >= sb : ua >= ub;
  if (op == "lo") return ua < ub;
  if (op == "ls") return ua <= ub;
  if (op == "hi") return ua > ub;
  if (op == "hs") return ua >= ub;
  known = false;
  return false;
}

inline double asF(uint64_t x, unsigned w) {
  if (w == 32) {
    float f;
    uint32_t u = (uint32_t)x;
    std::memcpy(&f, &u, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &x, 8);
  return d;
}
inline uint64_t bitsF(double v, unsigned w) {
  if (w == 32) {
    float f = (float)v;
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  uint64_t u;
  std::memcpy(&u, &v, 8);
  return u;
}
inline bool isNaNBits(uint64_t x, unsigned w) {
  return w == 32 ? ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu))
                 : ((x & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (x & 0xfffffffffffffull));
}

/// IEEE float op under a rounding mode, computed in the operand precision on the host FPU.
inline uint64_t fop(const std::string &op, int rnd, const uint64_t *in, unsigned w) {
  int old = std::fegetround();
  std::fesetround(rnd);
  uint64_t r;
  if (w == 32) {
    volatile float a = (float)asF(in[0], 32), b = 0, c = 0;
    if (op != "sqrt" && op != "rcp") b = (float)asF(in[1], 32);
    if (op == "fma" || op == "mad") c = (float)asF(in[2], 32);
    volatile float d;
    if (op == "add") d = a + b;
    else if (op == "sub") d = a - b;
    else if (op == "mul") d = a * b;
    else if (op == "div") d = a / b;
    else if (op == "rcp") d = 1.0f / a;
    else if (op == "sqrt") d = std::sqrt((float)a);
    else d = std::fma((float)a, (float)b, (float)c);
    float dd = d;
    uint32_t u;
    std::memcpy(&u, &dd, 4);
    r = u;
  } else {
    volatile double a = asF(in[0], 64), b = 0, c = 0;
    if (op != "sqrt" && op != "rcp") b = asF(in[1], 64);
    if (op == "fma" || op == "mad") c = asF(in[2], 64);
    volatile double d;
    if (op == "add") d = a + b;
    else if (op == "sub") d = a - b;
    else if (op == "mul") d = a * b;
    else if (op == "div") d = a / b;
    else if (op == "rcp") d = 1.0 / a;
    else if (op == "sqrt") d = std::sqrt((double)a);
    else d = std::fma((double)a, (double)b, (double)c);
    double dd = d;
    std::memcpy(&r, &dd, 8);
  }
  std::fesetround(old);
  return r;
}

}  // namespace ref

enum class RefResult { Unknown, Computed, FloatNaNAny };

/// Rows whose result the PTX ISA leaves unspecified (integer division by zero).
inline bool skipRow(const std::string &name, const uint64_t *in) {
  auto t = ref::split(name);
  if (t[0] == "div" || t[0] == "rem") {
    ref::IType it = ref::itype(t.back());
    if (it.ok && (in[1] & ref::maskw(it.w)) == 0) return true;
  }
  return false;
}

/// Computes the outputs of form `name` for one row.  Returns Unknown if the form is not modelled.
/// For float forms, `nanOut[j]` is set when the reference result is NaN (the caller then accepts
/// any NaN for f64 and exactly 0x7fffffff for f32, NVIDIA's canonical NaN).
inline RefResult reference(const std::string &name, const uint64_t *in, uint64_t *out,
                           bool *nanOut) {
  using namespace ref;
  auto t = split(name);
  const std::string &op = t[0];
  nanOut[0] = nanOut[1] = false;
  const std::string &last = t.back();
  IType T = itype(last);

  // ---- IEEE float ops without ftz/sat ------------------------------------------------------
  if ((last == "f32" || last == "f64") && !has(t, "ftz") && !has(t, "sat") &&
      (op == "add" || op == "sub" || op == "mul" || op == "fma" || op == "mad" || op == "div" ||
       op == "sqrt" || op == "rcp")) {
    int rnd = FE_TONEAREST;
    bool hasRnd = false;
    if (has(t, "rn")) hasRnd = true;
    if (has(t, "rz")) rnd = FE_TOWARDZERO, hasRnd = true;
    if (has(t, "rm")) rnd = FE_DOWNWARD, hasRnd = true;
    if (has(t, "rp")) rnd = FE_UPWARD, hasRnd = true;
    if ((op == "div" || op == "sqrt" || op == "rcp") && !hasRnd) return RefResult::Unknown;
    unsigned w = last == "f32" ? 32 : 64;
    out[0] = fop(op, rnd, in, w);
    nanOut[0] = isNaNBits(out[0], w);
    return RefResult::Computed;
  }

  // ---- carry chains --------------------------------------------------------------------------
  if ((op == "add" || op == "sub" || op == "addc" || op == "subc") && (has(t, "cc") || op.size() == 4)) {
    if (!T.ok) return RefResult::Unknown;
    uint64_t m = maskw(T.w), a = in[0] & m, b = in[1] & m;
    unsigned cin = (op == "addc" || op == "subc") ? (unsigned)(in[2] & 1) : 0;
    if (op[0] == 'a') {
      unsigned __int128 s = (unsigned __int128)a + b + cin;
      out[0] = (uint64_t)s & m;
      out[1] = (uint64_t)(s >> T.w) & 1;
    } else {
      unsigned __int128 sub = (unsigned __int128)b + cin;
      out[0] = (a - b - cin) & m;
      out[1] = (unsigned __int128)a < sub ? 1 : 0;
    }
    return RefResult::Computed;
  }
  // mad.{lo,hi}.cc / madc.{lo,hi}[.cc]: carry-in of madc = in2 & 1 (the kernel sets CF from it).
  if ((op == "mad" && has(t, "cc")) || op == "madc") {
    if (!T.ok) return RefResult::Unknown;
    uint64_t m = maskw(T.w), a = in[0] & m, b = in[1] & m, c = in[2] & m;
    unsigned cin = op == "madc" ? (unsigned)(in[2] & 1) : 0;
    unsigned __int128 p;
    if (T.sign)
      p = (unsigned __int128)((__int128)sext(a, T.w) * (__int128)sext(b, T.w));
    else
      p = (unsigned __int128)a * b;
    uint64_t part = has(t, "hi") ? (uint64_t)(p >> T.w) & m : (uint64_t)p & m;
    unsigned __int128 s = (unsigned __int128)part + c + cin;
    out[0] = (uint64_t)s & m;
    out[1] = (uint64_t)(s >> T.w) & 1;
    return RefResult::Computed;
  }

  // ---- plain integer arithmetic ----------------------------------------------------------------
  if (T.ok && (op == "add" || op == "sub") && t.size() == 2) {
    out[0] = (op == "add" ? in[0] + in[1] : in[0] - in[1]) & maskw(T.w);
    return RefResult::Computed;
  }
  if ((op == "add" || op == "sub") && name.find(".sat.s32") != std::string::npos) {
    int64_t r = op == "add" ? (int64_t)sext(in[0], 32) + sext(in[1], 32)
                            : (int64_t)sext(in[0], 32) - sext(in[1], 32);
    r = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, r));
    out[0] = (uint64_t)r & 0xffffffffu;
    return RefResult::Computed;
  }
  if (T.ok && (op == "mul" || op == "mad") && t.size() == 3 && !has(t, "sat")) {
    uint64_t m = maskw(T.w);
    __int128 a = T.sign ? sext(in[0], T.w) : (__int128)(in[0] & m);
    __int128 b = T.sign ? sext(in[1], T.w) : (__int128)(in[1] & m);
    unsigned __int128 p = (unsigned __int128)(a * b);
    if (T.w == 64 && !T.sign)
      p = (unsigned __int128)(in[0]) * (unsigned __int128)(in[1]);
    uint64_t lo = (uint64_t)p & m, hi = (uint64_t)(p >> T.w) & m;
    if (t[1] == "wide") {
      uint64_t m2 = maskw(2 * T.w);
      uint64_t r = (uint64_t)p & m2;
      if (op == "mad") r = (r + in[2]) & m2;
      out[0] = r;
      return RefResult::Computed;
    }
    uint64_t r = t[1] == "hi" ? hi : lo;
    if (op == "mad") r = (r + in[2]) & m;
    out[0] = r;
    return RefResult::Computed;
  }
  if ((op == "mul24" || op == "mad24") && !has(t, "sat")) {
    bool s = last == "s32";
    int64_t a = s ? sext(in[0], 24) : (int64_t)(in[0] & 0xffffff);
    int64_t b = s ? sext(in[1], 24) : (int64_t)(in[1] & 0xffffff);
    uint64_t p = (uint64_t)(a * b);
    uint64_t r = t[1] == "hi" ? (p >> 16) & 0xffffffff : p & 0xffffffff;
    if (op == "mad24") r = (r + in[2]) & 0xffffffff;
    out[0] = r;
    return RefResult::Computed;
  }
  if (T.ok && op == "sad") {
    uint64_t m = maskw(T.w);
    uint64_t d = T.sign ? (uint64_t)std::llabs(sext(in[0], T.w) - sext(in[1], T.w))
                        : ((in[0] & m) > (in[1] & m) ? (in[0] & m) - (in[1] & m) : (in[1] & m) - (in[0] & m));
    if (T.w == 64 && T.sign) {
      __int128 dd = (__int128)sext(in[0], 64) - sext(in[1], 64);
      d = (uint64_t)(dd < 0 ? -dd : dd);
    }
    out[0] = (in[2] + d) & m;
    return RefResult::Computed;
  }
  if (T.ok && (op == "div" || op == "rem")) {
    uint64_t m = maskw(T.w);
    if (T.sign) {
      int64_t a = sext(in[0], T.w), b = sext(in[1], T.w);
      if (b == -1) {
        out[0] = (op == "div" ? (uint64_t)0 - (uint64_t)a : 0) & m;
      } else {
        out[0] = (uint64_t)(op == "div" ? a / b : a % b) & m;
      }
    } else {
      uint64_t a = in[0] & m, b = in[1] & m;
      out[0] = op == "div" ? a / b : a % b;
    }
    return RefResult::Computed;
  }
  if (T.ok && T.w <= 64 && (op == "min" || op == "max") && t.size() <= 3) {
    bool relu = has(t, "relu");
    int64_t a = (int64_t)val(in[0], T), b = (int64_t)val(in[1], T);
    uint64_t ua = in[0] & maskw(T.w), ub = in[1] & maskw(T.w);
    uint64_t r;
    if (T.sign) {
      int64_t x = op == "min" ? std::min(a, b) : std::max(a, b);
      if (relu && x < 0) x = 0;
      r = (uint64_t)x & maskw(T.w);
    } else {
      r = op == "min" ? std::min(ua, ub) : std::max(ua, ub);
    }
    out[0] = r;
    return RefResult::Computed;
  }
  if ((op == "min" || op == "max") && (last == "u16x2" || last == "s16x2")) {
    bool s = last[0] == 's', relu = has(t, "relu");
    uint64_t r = 0;
    for (unsigned h = 0; h < 2; ++h) {
      uint64_t a = (in[0] >> (16 * h)) & 0xffff, b = (in[1] >> (16 * h)) & 0xffff;
      uint64_t x;
      if (s) {
        int64_t sa = sext(a, 16), sb = sext(b, 16);
        int64_t v = op == "min" ? std::min(sa, sb) : std::max(sa, sb);
        if (relu && v < 0) v = 0;
        x = (uint64_t)v & 0xffff;
      } else {
        x = op == "min" ? std::min(a, b) : std::max(a, b);
      }
      r |= x << (16 * h);
    }
    out[0] = r;
    return RefResult::Computed;
  }
  if (T.ok && (op == "abs" || op == "neg")) {
    int64_t a = sext(in[0], T.w);
    out[0] = (uint64_t)(op == "neg" ? (uint64_t)0 - (uint64_t)a : (a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a)) &
             maskw(T.w);
    return RefResult::Computed;
  }

  // ---- bits ---------------------------------------------------------------------------------
  if (T.ok && op == "popc") {
    out[0] = (uint64_t)__builtin_popcountll(in[0] & maskw(T.w));
    return RefResult::Computed;
  }
  if (T.ok && op == "clz") {
    uint64_t a = in[0] & maskw(T.w);
    out[0] = a == 0 ? T.w : (uint64_t)(__builtin_clzll(a) - (64 - T.w));
    return RefResult::Computed;
  }
  if (T.ok && op == "brev") {
    uint64_t a = in[0], r = 0;
    for (unsigned i = 0; i < T.w; ++i) r |= ((a >> i) & 1) << (T.w - 1 - i);
    out[0] = r;
    return RefResult::Computed;
  }
  if (T.ok && op == "bfind") {
    uint64_t a = in[0] & maskw(T.w);
    if (T.sign && sext(a, T.w) < 0) a = ~a & maskw(T.w);
    int pos = -1;
    for (int i = (int)T.w - 1; i >= 0; --i)
      if ((a >> i) & 1) {
        pos = i;
        break;
      }
    if (pos < 0) out[0] = 0xffffffffu;
    else out[0] = has(t, "shiftamt") ? (uint64_t)(T.w - 1 - pos) : (uint64_t)pos;
    return RefResult::Computed;
  }
  if (T.ok && op == "bfe") {
    out[0] = bfe(in[0] & maskw(T.w), in[1], in[2], T.w, T.sign);
    return RefResult::Computed;
  }
  if (T.ok && op == "bfi") {
    out[0] = bfi(in[0], in[1] & maskw(T.w), (unsigned)(in[2] & 0xffff), (unsigned)(in[2] >> 16), T.w) & maskw(T.w);
    return RefResult::Computed;
  }
  if (op == "prmt") {
    out[0] = prmt((uint32_t)in[0], (uint32_t)in[1], (uint32_t)in[2], t.size() == 3 ? t[2] : "");
    return RefResult::Computed;
  }
  if (op == "shf") {
    bool clamp = t[2] == "clamp";
    uint32_t n = (uint32_t)in[2];
    n = clamp ? std::min<uint32_t>(n, 32) : (n & 31);
    uint64_t v = ((uint64_t)(uint32_t)in[1] << 32) | (uint32_t)in[0];
    out[0] = t[1] == "l" ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
    return RefResult::Computed;
  }
  if (T.ok && (op == "shl" || op == "shr")) {
    uint64_t n = in[1] & 0xffffffffu, m = maskw(T.w);
    uint64_t a = in[0] & m;
    if (op == "shl") out[0] = n >= T.w ? 0 : (a << n) & m;
    else if (T.sign) out[0] = (uint64_t)(sext(a, T.w) >> std::min<uint64_t>(n, T.w - 1)) & m;
    else out[0] = n >= T.w ? 0 : a >> n;
    return RefResult::Computed;
  }
  if (op == "lop3") {
    unsigned lut = (unsigned)std::stoul(t[2], nullptr, 16);
    uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1], c = (uint32_t)in[2], d = 0;
    for (unsigned i = 0; i < 32; ++i) {
      unsigned idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
      d |= ((lut >> idx) & 1u) << i;
    }
    out[0] = d;
    return RefResult::Computed;
  }
  if (op == "dp4a" || op == "dp2a") {
    bool hi = op == "dp2a" && t[1] == "hi";
    const std::string &at = t[op == "dp2a" ? 2 : 1], &bt = t[op == "dp2a" ? 3 : 2];
    bool as = at == "s32", bs = bt == "s32";
    int64_t acc = (as || bs) ? (int64_t)sext(in[2], 32) : (int64_t)(in[2] & 0xffffffff);
    if (op == "dp4a") {
      for (unsigned i = 0; i < 4; ++i) {
        uint64_t x = (in[0] >> (8 * i)) & 0xff, y = (in[1] >> (8 * i)) & 0xff;
        acc += (as ? sext(x, 8) : (int64_t)x) * (bs ? sext(y, 8) : (int64_t)y);
      }
    } else {
      for (unsigned i = 0; i < 2; ++i) {
        uint64_t x = (in[0] >> (16 * i)) & 0xffff, y = (in[1] >> (8 * (i + (hi ? 2 : 0)))) & 0xff;
        acc += (as ? sext(x, 16) : (int64_t)x) * (bs ? sext(y, 8) : (int64_t)y);
      }
    }
    out[0] = (uint64_t)acc & 0xffffffff;
    return RefResult::Computed;
  }
  if (op == "bmsk") {
    bool clamp = t[1] == "clamp";
    uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];
    uint32_t pos = clamp ? std::min<uint32_t>(a, 32) : (a & 31);
    uint32_t len = clamp ? std::min<uint32_t>(b, 32) : (b & 31);
    uint64_t mk = (len >= 32 ? 0xffffffffull : ((1ull << len) - 1)) << pos;
    out[0] = pos >= 32 ? 0 : (mk & 0xffffffffull);
    return RefResult::Computed;
  }
  if (op == "szext") {
    bool clamp = t[1] == "clamp", s = last == "s32";
    uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];
    uint32_t n = clamp ? std::min<uint32_t>(b, 32) : (b & 31);
    uint64_t r;
    if (n == 0) r = 0;
    else if (n >= 32) r = a;
    else r = s ? (uint64_t)sext(a, n) & 0xffffffff : a & (uint32_t)maskw(n);
    out[0] = r;
    return RefResult::Computed;
  }
  if (T.ok && (op == "and" || op == "or" || op == "xor" || op == "not" || op == "cnot")) {
    uint64_t m = maskw(T.w), a = in[0] & m, b = op == "not" || op == "cnot" ? 0 : in[1] & m;
    out[0] = op == "and" ? a & b : op == "or" ? a | b : op == "xor" ? a ^ b : op == "not" ? ~a & m : (a == 0);
    return RefResult::Computed;
  }
  if (last == "pred" && (op == "and" || op == "or" || op == "xor" || op == "not")) {
    unsigned a = in[0] & 1, b = op == "not" ? 0 : in[1] & 1;
    out[0] = op == "and" ? (a & b) : op == "or" ? (a | b) : op == "xor" ? (a ^ b) : !a;
    return RefResult::Computed;
  }

  // ---- compare / select -------------------------------------------------------------------------
  if (op == "setp" && T.ok) {
    bool known;
    bool c = icmp(t[1], in[0], in[1], T, known);
    if (!known) return RefResult::Unknown;
    if (t.size() == 3) {
      out[0] = c;
      return RefResult::Computed;
    }
    return RefResult::Unknown;
  }
  if (op == "setp" && t.size() >= 4 && itype(t[3]).ok && (t[2] == "and" || t[2] == "or" || t[2] == "xor")) {
    bool known;
    bool c = icmp(t[1], in[0], in[1], itype(t[3]), known);
    if (!known) return RefResult::Unknown;
    bool notc = t.size() == 5 && t[4] == "notc";
    bool p = in[2] & 1;
    if (notc) p = !p;
    auto bop = [&](bool x) { return t[2] == "and" ? (x && p) : t[2] == "or" ? (x || p) : (x != p); };
    out[0] = bop(c);
    out[1] = bop(!c);
    return RefResult::Computed;
  }
  if (op == "set" && itype(last).ok && (t[t.size() - 2] == "u32" || t[t.size() - 2] == "s32" || t[t.size() - 2] == "f32")) {
    bool known;
    bool c = icmp(t[1], in[0], in[1], itype(last), known);
    if (!known) return RefResult::Unknown;
    if (t.size() == 5) {  // set.cmp.bop.dtype.stype
      bool p = in[2] & 1;
      c = t[2] == "and" ? (c && p) : t[2] == "or" ? (c || p) : (c != p);
    }
    out[0] = c ? (t[t.size() - 2] == "f32" ? 0x3f800000u : 0xffffffffu) : 0;
    return RefResult::Computed;
  }
  if (op == "selp") {
    out[0] = (in[2] & 1) ? in[0] : in[1];
    return RefResult::Computed;
  }
  if (op == "slct" && last == "s32") {
    out[0] = sext(in[2], 32) >= 0 ? in[0] : in[1];
    return RefResult::Computed;
  }
  if (op == "slct" && last == "f32") {
    uint32_t c = (uint32_t)in[2];
    float f;
    std::memcpy(&f, &c, 4);
    if (has(t, "ftz") && (c & 0x7f800000u) == 0) f = 0.0f;
    out[0] = f >= 0.0f ? in[0] : in[1];
    return RefResult::Computed;
  }

  // ---- cvt.pack.sat: d = c << 2n | sat(a) << n | sat(b), n = bits of the convert type -------------
  if (op == "cvt" && has(t, "pack")) {
    const std::string &ct = t[3];
    IType C = itype(ct);
    unsigned n = C.ok ? C.w : (unsigned)std::stoi(ct.substr(1));
    bool s = ct[0] == 's';
    auto sat = [&](uint64_t x) {
      int64_t v = sext(x, 32);
      int64_t lo = s ? -(1ll << (n - 1)) : 0, hi = s ? (1ll << (n - 1)) - 1 : (1ll << n) - 1;
      v = v < lo ? lo : v > hi ? hi : v;
      return (uint64_t)v & maskw(n);
    };
    uint64_t d = (sat(in[0]) << n) | sat(in[1]);
    if (n < 16) d |= in[2] << (2 * n);
    out[0] = d & 0xffffffffu;
    return RefResult::Computed;
  }

  // ---- int <-> int conversions ----------------------------------------------------------------
  if (op == "cvt" && itype(t[t.size() - 1]).ok && itype(t[t.size() - 2]).ok) {
    IType D = itype(t[t.size() - 2]), S = itype(t[t.size() - 1]);
    bool sat = has(t, "sat");
    __int128 v = S.sign ? (__int128)sext(in[0], S.w) : (__int128)(in[0] & maskw(S.w));
    if (sat) {
      __int128 lo = D.sign ? -((__int128)1 << (D.w - 1)) : 0;
      __int128 hi = D.sign ? ((__int128)1 << (D.w - 1)) - 1 : (((__int128)1 << D.w) - 1);
      v = v < lo ? lo : v > hi ? hi : v;
    }
    uint64_t r = (uint64_t)v & maskw(D.w);
    // 8-bit destinations live in a 16-bit register: the value is sign-/zero-extended per D.
    if (D.w == 8) r = D.sign ? (uint64_t)sext(r, 8) & 0xffff : r;
    out[0] = r;
    return RefResult::Computed;
  }
  return RefResult::Unknown;
}

}  // namespace golden
