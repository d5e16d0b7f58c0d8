//===- PtxMutator.cpp - line- and token-level PTX mutations ---------------===//
//
// Tokens are found with a tiny scanner (identifiers with dots, %registers,
// numbers incl. 0f/0d hex floats, punctuation); a token edit rewrites one
// span of one line. The vocabularies (types, modifiers, numbers) are the ones
// that most often reach unusual translator paths: every PTX scalar type,
// vector widths, state spaces, rounding/saturation modifiers, and numbers at
// type boundaries.
//
//===----------------------------------------------------------------------===//
#include "PtxMutator.h"

#include <algorithm>
#include <cctype>
#include <random>
#include <vector>

namespace ptxfuzz {
namespace {

const char *const Types[] = {".u8",  ".u16", ".u32", ".u64", ".s8",   ".s16", ".s32", ".s64", ".f16",
                             ".f32", ".f64", ".b8",  ".b16", ".b32",  ".b64", ".pred", ".f16x2", ".bf16",
                             ".bf16x2", ".b128", ".v2", ".v4", ".e4m3x2"};
const char *const Mods[] = {".global", ".shared", ".local", ".const", ".param", ".rn", ".rz", ".rm", ".rp", ".rni",
                            ".rzi", ".sat", ".ftz", ".approx", ".full", ".wide", ".hi", ".lo", ".cc", ".sync",
                            ".aligned", ".relaxed", ".acquire", ".release", ".gpu", ".cta", ".sys", ".volatile",
                            ".uni", ".eq", ".ne", ".lt", ".gt", ".and", ".or", ".xor", ".add", ".min", ".max",
                            ".exch", ".cas", ".inc", ".dec", ".all", ".any", ".ballot", ".up", ".down", ".bfly",
                            ".idx", ".clamp", ".wrap", ".shiftamt", ".nc", ".ca", ".cg", ".cs", ".lu", ".cv"};
const char *const Numbers[] = {"0", "1", "-1", "2", "3", "7", "8", "31", "32", "33", "63", "64", "255", "256",
                               "1024", "65535", "65536", "2147483647", "-2147483648", "4294967295",
                               "9223372036854775807", "18446744073709551615", "0x7fffffff", "0x80000000",
                               "0f7F800000", "0fFF800000", "0f7FC00000", "0f00000001", "0d7FF0000000000000",
                               "0d8000000000000000", "1000000", "100000000"};

struct Tok {
  size_t Begin, End;
  char Kind; // 'i' identifier/opcode, '.' dotted word, '%' register, '0' number, 'p' punctuation
};

std::vector<Tok> tokens(const std::string &L) {
  std::vector<Tok> T;
  size_t I = 0, N = L.size();
  while (I < N) {
    unsigned char C = L[I];
    if (C == '/' && I + 1 < N && L[I + 1] == '/') break;
    if (std::isspace(C)) { ++I; continue; }
    size_t B = I;
    char K;
    if (C == '%' || C == '.' || std::isalpha(C) || C == '_' || C == '$') {
      K = C == '%' ? '%' : C == '.' ? '.' : 'i';
      ++I;
      while (I < N && (std::isalnum((unsigned char)L[I]) || L[I] == '_' || L[I] == '$')) ++I;
    } else if (std::isdigit(C) || (C == '-' && I + 1 < N && std::isdigit((unsigned char)L[I + 1]))) {
      K = '0';
      ++I;
      while (I < N && (std::isalnum((unsigned char)L[I]) || L[I] == '.')) ++I;
    } else {
      K = 'p';
      ++I;
    }
    T.push_back({B, I, K});
  }
  return T;
}

std::vector<std::string> splitLines(const std::string &S) {
  std::vector<std::string> L;
  size_t At = 0;
  while (At <= S.size()) {
    size_t Nl = S.find('\n', At);
    if (Nl == std::string::npos) Nl = S.size();
    L.push_back(S.substr(At, Nl - At));
    At = Nl + 1;
  }
  return L;
}

std::string join(const std::vector<std::string> &L) {
  std::string S;
  for (size_t I = 0; I < L.size(); ++I) S += L[I], S += I + 1 < L.size() ? "\n" : "";
  return S;
}

bool isInstruction(const std::string &L) {
  auto T = tokens(L);
  return !T.empty() && (T[0].Kind == 'i' || (T[0].Kind == 'p' && L[T[0].Begin] == '@')) &&
         L.find(';') != std::string::npos;
}

template <typename A> const char *pick(std::mt19937 &R, const A &Arr) {
  return Arr[R() % (sizeof(Arr) / sizeof(Arr[0]))];
}

} // namespace

void mutatePTX(std::string &Text, unsigned Seed) {
  std::mt19937 R(Seed);
  std::vector<std::string> L = splitLines(Text);
  if (L.empty()) return;
  // Registers and opcodes seen in the file (replacement vocabularies).
  std::vector<std::string> Regs, Ops;
  for (const auto &Line : L) {
    auto T = tokens(Line);
    for (const Tok &K : T)
      if (K.Kind == '%' && Regs.size() < 512) Regs.push_back(Line.substr(K.Begin, K.End - K.Begin));
    if (isInstruction(Line) && T[0].Kind == 'i' && Ops.size() < 512) Ops.push_back(Line.substr(T[0].Begin, T[0].End - T[0].Begin));
  }
  unsigned Edits = 1 + R() % 4;
  for (unsigned E = 0; E < Edits && !L.empty(); ++E) {
    size_t I = R() % L.size();
    std::string &Line = L[I];
    auto T = tokens(Line);
    auto Replace = [&](const Tok &K, const std::string &With) {
      Line = Line.substr(0, K.Begin) + With + Line.substr(K.End);
    };
    switch (R() % 10) {
    case 0: L.erase(L.begin() + I); break;
    case 1: L.insert(L.begin() + I, L[R() % L.size()]); break;
    case 2: std::swap(L[I], L[R() % L.size()]); break;
    case 3: { // swap two operands of an instruction
      std::vector<Tok> Opnds;
      for (const Tok &K : T) if (K.Kind == '%' || K.Kind == '0') Opnds.push_back(K);
      if (Opnds.size() < 2) break;
      Tok A = Opnds[R() % Opnds.size()], B = Opnds[R() % Opnds.size()];
      if (A.Begin == B.Begin) break;
      if (A.Begin > B.Begin) std::swap(A, B);
      std::string SA = Line.substr(A.Begin, A.End - A.Begin), SB = Line.substr(B.Begin, B.End - B.Begin);
      Line = Line.substr(0, A.Begin) + SB + Line.substr(A.End, B.Begin - A.End) + SA + Line.substr(B.End);
      break;
    }
    case 4: case 5: { // type / modifier
      std::vector<Tok> Dots;
      for (const Tok &K : T) if (K.Kind == '.') Dots.push_back(K);
      if (Dots.empty()) break;
      Replace(Dots[R() % Dots.size()], R() % 2 ? pick(R, Types) : pick(R, Mods));
      break;
    }
    case 6: { // number
      std::vector<Tok> Nums;
      for (const Tok &K : T) if (K.Kind == '0') Nums.push_back(K);
      if (Nums.empty()) break;
      Replace(Nums[R() % Nums.size()], pick(R, Numbers));
      break;
    }
    case 7: { // register
      std::vector<Tok> Rs;
      for (const Tok &K : T) if (K.Kind == '%') Rs.push_back(K);
      if (Rs.empty() || Regs.empty()) break;
      Replace(Rs[R() % Rs.size()], Regs[R() % Regs.size()]);
      break;
    }
    case 8: // opcode
      if (isInstruction(Line) && T[0].Kind == 'i' && !Ops.empty()) Replace(T[0], Ops[R() % Ops.size()]);
      break;
    case 9: { // add a modifier after a dotted word
      std::vector<Tok> Dots;
      for (const Tok &K : T) if (K.Kind == '.') Dots.push_back(K);
      if (Dots.empty()) break;
      const Tok &K = Dots[R() % Dots.size()];
      Line.insert(K.End, pick(R, Mods));
      break;
    }
    }
  }
  Text = join(L);
}

std::string crossOverPTX(const std::string &A, const std::string &B, unsigned Seed) {
  std::mt19937 R(Seed);
  auto LA = splitLines(A), LB = splitLines(B);
  if (LA.empty() || LB.empty()) return A;
  size_t CA = R() % LA.size(), CB = R() % LB.size();
  std::vector<std::string> Out(LA.begin(), LA.begin() + CA);
  Out.insert(Out.end(), LB.begin() + CB, LB.end());
  return join(Out);
}

} // namespace ptxfuzz
