//===- KernelArgs.cpp - launch geometry and kernel arguments from the command line -===//
//
// Strict parsers for the runners' --grid/--block, --arg and --dump forms
// (KernelArgs.h). Integers: decimal or 0x hex, optionally negative, and the
// value must fit the type's width read as signed or unsigned (u32:-1 is
// 0xffffffff; i8:300 is an error). Floats: strtod over the whole text (so
// nan, inf and hex floats work). Errors are support::invalidInput (bad text)
// or support::resourceLimit (a buffer above MaxBufferBytes).
//
//===----------------------------------------------------------------------===//
#include "KernelArgs.h"
#include "InputFile.h"

#include "support/Error.h"

#include "llvm/ADT/StringRef.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace ptx2amd::tools {
namespace {

llvm::Error bad(const std::string &Msg) { return support::invalidInput(support::noLoc(Msg)); }

std::vector<std::string> split(const std::string &S, char C, size_t Max) {
  std::vector<std::string> Out;
  size_t B = 0;
  while (Out.size() + 1 < Max) {
    size_t E = S.find(C, B);
    if (E == std::string::npos) break;
    Out.push_back(S.substr(B, E - B));
    B = E + 1;
  }
  Out.push_back(S.substr(B));
  return Out;
}

unsigned elemBytesOf(const std::string &T) {
  if (T == "i8" || T == "u8") return 1;
  if (T == "i16" || T == "u16") return 2;
  if (T == "i32" || T == "u32" || T == "f32") return 4;
  if (T == "i64" || T == "u64" || T == "f64") return 8;
  return 0;
}

bool isFloat(const std::string &T) { return T[0] == 'f'; }

// An integer of Bits bits (signed or unsigned reading) as its two's-complement bit pattern.
std::optional<uint64_t> parseInteger(llvm::StringRef S, unsigned Bits) {
  bool Neg = S.consume_front("-");
  unsigned Radix = 10;
  if (S.starts_with_insensitive("0x")) S = S.drop_front(2), Radix = 16;
  uint64_t U = 0;
  if (S.empty() || S.getAsInteger(Radix, U)) return std::nullopt;
  const uint64_t Max = Bits == 64 ? UINT64_MAX : (uint64_t(1) << Bits) - 1;
  if (!Neg) return U <= Max ? std::optional<uint64_t>(U) : std::nullopt;
  const uint64_t MinMagnitude = uint64_t(1) << (Bits - 1); // -2^(Bits-1)
  if (U > MinMagnitude) return std::nullopt;
  return (~U + 1) & Max;
}

std::optional<double> parseFloat(const std::string &S) {
  if (S.empty() || std::isspace(static_cast<unsigned char>(S[0]))) return std::nullopt;
  char *End = nullptr;
  errno = 0;
  double V = std::strtod(S.c_str(), &End);
  if (End != S.c_str() + S.size()) return std::nullopt;
  return V; // ERANGE: strtod's +-inf / denormal / 0, as a C literal would give
}

// Stores element K of a buffer or a scalar: floats from V, integers from the bit pattern I.
void storeFloat(const std::string &T, double V, uint8_t *P) {
  if (T == "f32") {
    float F = float(V);
    memcpy(P, &F, 4);
  } else {
    memcpy(P, &V, 8);
  }
}
void storeInteger(unsigned Bytes, uint64_t I, uint8_t *P) { memcpy(P, &I, Bytes); } // little endian

// The value text of a scalar or fill: into Out (elemBytes bytes).
llvm::Error parseValue(const std::string &Type, unsigned Bytes, const std::string &Text, const std::string &Spec,
                       uint8_t *Out) {
  if (isFloat(Type)) {
    auto V = parseFloat(Text);
    if (!V) return bad("'" + Text + "' in '" + Spec + "' is not a number");
    storeFloat(Type, *V, Out);
    return llvm::Error::success();
  }
  auto I = parseInteger(Text, 8 * Bytes);
  if (!I) return bad("'" + Text + "' in '" + Spec + "' is not an integer that fits " + Type);
  storeInteger(Bytes, *I, Out);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::array<uint32_t, 3>> parseDims(const std::string &Spec) {
  std::array<uint32_t, 3> D = {1, 1, 1};
  auto Parts = split(Spec, ',', 100);
  if (Parts.size() > 3) return bad("bad dimensions '" + Spec + "' (at most X,Y,Z)");
  for (size_t I = 0; I < Parts.size(); ++I) {
    uint64_t V = 0;
    if (Parts[I].empty() || llvm::StringRef(Parts[I]).getAsInteger(10, V) || V > UINT32_MAX)
      return bad("bad dimensions '" + Spec + "' (each a decimal number below 2^32)");
    D[I] = uint32_t(V);
  }
  return D;
}

llvm::Expected<KernelArg> parseKernelArg(const std::string &Spec) {
  auto Parts = split(Spec, ':', 5);
  KernelArg A;
  if (Parts[0] != "buf") {
    if (Parts.size() != 2) return bad("scalar argument '" + Spec + "' needs TYPE:VALUE");
    A.type = Parts[0];
    A.elemBytes = elemBytesOf(A.type);
    if (!A.elemBytes) return bad("unknown element type '" + A.type + "' in '" + Spec + "'");
    A.count = 1;
    A.bytes.assign(8, 0);
    if (llvm::Error E = parseValue(A.type, A.elemBytes, Parts[1], Spec, A.bytes.data())) return E;
    return A;
  }
  if (Parts.size() < 4) return bad("buffer argument '" + Spec + "' needs buf:TYPE:COUNT:INIT");
  A.isBuffer = true;
  A.type = Parts[1];
  A.elemBytes = elemBytesOf(A.type);
  if (!A.elemBytes) return bad("unknown element type '" + A.type + "' in '" + Spec + "'");
  if (Parts[2].empty() || llvm::StringRef(Parts[2]).getAsInteger(10, A.count))
    return bad("buffer count '" + Parts[2] + "' in '" + Spec + "' is not a non-negative decimal number");
  if (A.count > MaxBufferBytes / A.elemBytes)
    return support::resourceLimit(support::noLoc("buffer '" + Spec + "' needs more than the runner's limit of " +
                                                 std::to_string(MaxBufferBytes >> 30) + " GiB"));
  A.bytes.assign(A.count * A.elemBytes, 0);
  const std::string &Init = Parts[3];
  const unsigned B = A.elemBytes;
  if (Init == "zero") {
  } else if (Init == "iota") {
    for (uint64_t K = 0; K < A.count; ++K) {
      if (isFloat(A.type)) storeFloat(A.type, double(K), &A.bytes[K * B]);
      else storeInteger(B, K, &A.bytes[K * B]);
    }
  } else if (Init == "fill") {
    if (Parts.size() < 5) return bad("fill in '" + Spec + "' needs a value (fill:V)");
    std::vector<uint8_t> V(8, 0);
    if (llvm::Error E = parseValue(A.type, B, Parts[4], Spec, V.data())) return E;
    for (uint64_t K = 0; K < A.count; ++K) memcpy(&A.bytes[K * B], V.data(), B);
  } else if (Init == "rand") {
    uint64_t Seed = 0;
    if (Parts.size() >= 5 && (Parts[4].empty() || llvm::StringRef(Parts[4]).getAsInteger(10, Seed)))
      return bad("rand seed '" + Parts[4] + "' in '" + Spec + "' is not a non-negative decimal number");
    std::mt19937_64 R(Seed);
    for (uint64_t K = 0; K < A.count; ++K) {
      if (isFloat(A.type)) storeFloat(A.type, double(R() % 2000001) / 1000.0 - 1000.0, &A.bytes[K * B]);
      else storeInteger(B, R() % 1000, &A.bytes[K * B]);
    }
  } else if (Init == "file") {
    if (Parts.size() < 5) return bad("file in '" + Spec + "' needs a path (file:PATH)");
    // The first count * elemBytes bytes of the file (fewer: the rest stays zero).
    // Read like the tools' inputs (InputFile.h): a directory, a FIFO nobody
    // writes to or an unreadable file is an error naming the path, not a
    // silently zero buffer or a hang.
    std::string Bytes, Err;
    if (!readInputPrefix(Parts[4], Bytes, Err, A.bytes.size()))
      return bad(Err + " (in '" + Spec + "')");
    if (!Bytes.empty()) memcpy(A.bytes.data(), Bytes.data(), Bytes.size());
  } else {
    return bad("unknown buffer initialiser '" + Init + "' in '" + Spec + "'");
  }
  return A;
}

llvm::Expected<DumpRequest> parseDump(const std::string &Spec, bool WithPath) {
  auto P = split(Spec, ':', 2);
  DumpRequest D;
  uint64_t K = 0;
  if (P[0].rfind("buf", 0) != 0 || P[0].size() == 3 || llvm::StringRef(P[0]).drop_front(3).getAsInteger(10, K))
    return bad("bad buffer name '" + P[0] + "' (expected bufK)");
  D.buffer = size_t(K);
  if (WithPath) {
    if (P.size() != 2 || P[1].empty()) return bad("--dump-file needs bufK:PATH, not '" + Spec + "'");
    D.path = P[1];
  } else if (P.size() == 2) {
    uint64_t N = 0;
    if (P[1].empty() || llvm::StringRef(P[1]).getAsInteger(10, N))
      return bad("element count '" + P[1] + "' in '" + Spec + "' is not a non-negative decimal number");
    D.count = N;
  }
  return D;
}

void formatElements(const std::string &T, unsigned Bytes, const uint8_t *P, uint64_t N, std::string &Out) {
  char Buf[64];
  for (uint64_t K = 0; K < N; ++K, P += Bytes) {
    if (T == "f32") {
      float F;
      memcpy(&F, P, 4);
      snprintf(Buf, sizeof Buf, " %.9g", F);
    } else if (T == "f64") {
      double D;
      memcpy(&D, P, 8);
      snprintf(Buf, sizeof Buf, " %.17g", D);
    } else {
      uint64_t U = 0;
      memcpy(&U, P, Bytes);
      if (T[0] == 'i') {
        const unsigned S = 64 - 8 * Bytes;
        int64_t V = int64_t(U << S) >> S;
        snprintf(Buf, sizeof Buf, " %" PRId64, V);
      } else {
        snprintf(Buf, sizeof Buf, " %" PRIu64, U);
      }
    }
    Out += Buf;
  }
}

} // namespace ptx2amd::tools
