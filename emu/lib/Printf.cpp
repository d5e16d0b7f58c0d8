//===- Printf.cpp - device printf in emu ---------------------------------===//
//
// printf / vprintf calls of translated code: the format string and its
// arguments are read from device memory per active lane and formatted on the
// host (formatPrintf); formatVprintf / emu::formatPrintfRecord format the
// records the device library's printf FIFO holds.
//
//===----------------------------------------------------------------------===//
#include "ExecCommon.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;

namespace emu::detail {
namespace {

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

namespace ops {

Handler printfOp() { return opPrintf; }

} // namespace ops
} // namespace emu::detail

std::string emu::formatPrintfRecord(const std::string &Fmt, const uint8_t *Args, size_t N,
                                    const std::function<bool(uint64_t, std::string &)> &ReadStr) {
  return detail::formatVprintf(Fmt, Args, N, ReadStr);
}
