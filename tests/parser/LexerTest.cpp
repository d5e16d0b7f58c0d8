//===- LexerTest.cpp - hand-written lexer == ANTLR-generated lexer --------===//
//
// The parser is fed by FastLexer (for speed) while PTX.g4 stays the source of
// truth. This test lexes real nvcc output and randomly mutated copies of it
// (fixed seed) with both lexers and requires identical token streams (type,
// start, stop, line, column).
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace ptx::detail;

namespace {

std::string readFile(const std::filesystem::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void expectSame(const std::string &text, const std::string &what) {
  auto a = lexWithAntlr(text), b = lexFast(text);
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (!(a[i] == b[i])) {
      ADD_FAILURE() << what << ": token " << i << " differs: antlr {type " << a[i].type << ", " << a[i].start
                    << ".." << a[i].stop << ", " << a[i].line << ":" << a[i].col << "} fast {type " << b[i].type
                    << ", " << b[i].start << ".." << b[i].stop << ", " << b[i].line << ":" << b[i].col
                    << "} near '" << text.substr(a[i].start < text.size() ? a[i].start : 0, 20) << "'";
      return;
    }
  }
  EXPECT_EQ(a.size(), b.size()) << what;
}

TEST(FastLexer, MatchesAntlrLexerOnEdgeCases) {
  const char *cases[] = {
      "0f3F800000 0f3F80 0d3FF0000000000000 0d3FF0 1.5 1. 1e5 1.e-3 00.5 0x1F 0x1FU 0b101 0b2 0777 12U 1e",
      ".L2::cache_hint .L2:: .shared::cta .2d .b32 .reg .regx . .5 %r1 %tid.x %r1. % %$x",
      "\"str\\\"ing\" \"unterminated\n\"a\\\nb\" /* c */ /* unterminated",
      "a:b::c @!%p {}[]()<>;,:+-|=~ # ` \x01 \xff\xfe // comment\r\nx",
      "$L__BB0_1: _ _x $y generic(sym) .version 9.0",
      "",
      "\n\n\t  \r\n",
  };
  int i = 0;
  for (const char *c : cases) expectSame(c, "case " + std::to_string(i++));
}

TEST(FastLexer, MatchesAntlrLexerOnRealAndMutatedPtx) {
  std::mt19937 rng(12345);
  const std::string alphabet = "%.:;,{}[]()<>@!+-|=~\"/*0123456789abcdefxXfFdDU_$ \n\t";
  for (const auto &e : std::filesystem::directory_iterator(PTX_TEST_DATA_DIR)) {
    if (e.path().extension() != ".ptx") continue;
    std::string text = readFile(e.path());
    expectSame(text, e.path().filename().string());
    for (int m = 0; m < 20; ++m) {
      std::string t = text.substr(0, std::min<size_t>(text.size(), 6000));
      for (int k = 0; k < 8; ++k) {
        size_t pos = rng() % t.size();
        switch (rng() % 3) {
        case 0: t[pos] = alphabet[rng() % alphabet.size()]; break;
        case 1: t.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        default: t.erase(pos, 1 + rng() % 3); break;
        }
      }
      expectSame(t, e.path().filename().string() + " mutation " + std::to_string(m));
    }
  }
}

} // namespace
