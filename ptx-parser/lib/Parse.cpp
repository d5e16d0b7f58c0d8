//===- Parse.cpp - PTX text -> IR driver (ANTLR two-stage parse) ----------===//
//
// Runs the generated lexer/parser on the input and hands the tree to the IR
// builder. Parsing is two-stage: first SLL prediction with a bail-out error
// strategy (fast, no error reporting), and only if that fails a second pass
// with full LL prediction and the default recovering strategy, whose syntax
// errors are turned into clang-style diagnostics. Tokens come from the
// hand-written FastTokenSource (byte offsets = token indices); the generated
// ANTLR lexer is kept for the cross-check used by the tests (lexWithAntlr),
// which maps bytes >= 0x80 to a placeholder so that ANTLR's UTF-8 decoder
// cannot throw and char indices stay byte offsets. No exception escapes
// this file.
//
//===----------------------------------------------------------------------===//
#include "FastLexer.h"
#include "IRBuilder.h"
#include "PTXLexer.h"
#include "PTXParser.h"

#include <algorithm>
#include <chrono>

using namespace antlr4;
using ptxgen::PTXLexer;
using ptxgen::PTXParser;

namespace ptx {
namespace {

std::string displayToken(std::string_view text, Token *t) {
  if (!t) return "<unknown>";
  if (t->getType() == Token::EOF) return "end of file";
  auto b = t->getStartIndex(), e = t->getStopIndex();
  std::string s;
  if (b != INVALID_INDEX && e != INVALID_INDEX && e >= b && e < text.size())
    s = std::string(text.substr(b, e - b + 1));
  else
    s = t->getText();
  if (s.size() > 40) s = s.substr(0, 40) + "...";
  for (auto &c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return "'" + s + "'";
}

struct NestingTooDeep {};

// The generated parser with one runtime hook replaced: the 4.9 runtime's
// Parser::addContextToParseTree() finds the parent context with a
// dynamic_cast on every rule entry (~5% of front-end instructions on a large
// module). Every context the generated parser creates is a
// ParserRuleContext (non-virtual base of all of them), so a static_cast is
// exact. Statement contexts also get their child list sized once (guard,
// opcode, modifiers, operands, commas, ';' are typically 6-16 children)
// instead of growing 1, 2, 4, 8, 16.
class TreeParser final : public PTXParser {
public:
  using PTXParser::PTXParser;

protected:
  void addContextToParseTree() override {
    if (_ctx->parent == nullptr) return;
    if (_ctx->getRuleIndex() == PTXParser::RuleStatement) _ctx->children.reserve(16);
    static_cast<ParserRuleContext *>(_ctx->parent)->addChild(_ctx);
  }
};

class DiagListener : public BaseErrorListener {
public:
  DiagListener(std::string_view text, detail::DiagSink &d, std::vector<size_t> &offs)
      : text_(text), diags_(d), offsets_(offs) {}

  void syntaxError(Recognizer *recognizer, Token *offending, size_t line, size_t col,
                   const std::string &msg, std::exception_ptr) override {
    SourceLoc loc{uint32_t(line), uint32_t(col + 1)};
    size_t off = offending && offending->getStartIndex() != INVALID_INDEX ? offending->getStartIndex()
                                                                          : text_.size();
    offsets_.push_back(off);
    std::string m;
    auto *parser = dynamic_cast<Parser *>(recognizer);
    if (offending && offending->getType() == PTXLexer::ERROR_CHAR) {
      m = "invalid character " + displayToken(text_, offending);
    } else if (offending && offending->getType() == Token::EOF) {
      m = "unexpected end of file";
      if (parser) m += expected(parser);
    } else if (offending) {
      m = "unexpected " + displayToken(text_, offending);
      if (parser) m += expected(parser);
    } else {
      m = msg;
    }
    diags_.error(loc, std::move(m));
  }

private:
  std::string expected(Parser *p) {
    misc::IntervalSet set;
    try {
      set = p->getExpectedTokens();
    } catch (...) {
      return "";
    }
    if (set.size() == 0 || set.size() > 4) return "";
    std::string s = ", expected ";
    auto v = set.toList();
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s += i + 1 == v.size() ? " or " : ", ";
      s += p->getVocabulary().getDisplayName(v[i]);
    }
    return s;
  }
  std::string_view text_;
  detail::DiagSink &diags_;
  std::vector<size_t> &offsets_;
};

} // namespace

ParseResult parse(std::string_view text, std::string_view sourceName, const ParseOptions &opts) {
  ParseResult res;
  detail::DiagSink sink{res.diags, opts.maxErrors};
  detail::BuildInput bin;
  bin.text = text;
  bin.sourceName = sourceName;
  bin.semanticChecks = opts.semanticChecks;
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  Clock::time_point t0 = Clock::now(), t1 = t0, t2 = t0, t3 = t0;
  try {
    DiagListener listener(text, sink, bin.errorOffsets);
    detail::FastTokenStream tokens(text);
    t1 = Clock::now();
    // The parser and the IR builder recurse on { } [ ] ( ); bound the depth
    // so that hostile input cannot exhaust the stack.
    {
      constexpr int kMaxDepth = 256;
      int depth = 0;
      for (const auto &t : tokens.tokens()) {
        size_t ty = t.getType();
        if (ty == PTXLexer::LBRACE || ty == PTXLexer::LPAREN || ty == PTXLexer::LBRACK) {
          if (++depth > kMaxDepth) {
            sink.error({t.line, t.col + 1}, "brackets nested deeper than " + std::to_string(kMaxDepth) +
                                                " levels");
            throw NestingTooDeep{};
          }
        } else if (ty == PTXLexer::RBRACE || ty == PTXLexer::RPAREN || ty == PTXLexer::RBRACK) {
          if (depth > 0) --depth;
        }
      }
    }
    TreeParser parser(&tokens);
    parser.removeErrorListeners();
    auto *interp = parser.getInterpreter<atn::ParserATNSimulator>();
    interp->setPredictionMode(atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<BailErrorStrategy>());
    PTXParser::PtxModuleContext *tree = nullptr;
    try {
      tree = parser.ptxModule();
    } catch (ParseCancellationException &) {
      tree = nullptr;
    } catch (RecognitionException &) {
      tree = nullptr;
    }
    if (!tree) {
      tokens.seek(0);
      parser.reset();
      parser.setErrorHandler(std::make_shared<DefaultErrorStrategy>());
      parser.addErrorListener(&listener);
      interp->setPredictionMode(atn::PredictionMode::LL);
      tree = parser.ptxModule();
    }
    std::sort(bin.errorOffsets.begin(), bin.errorOffsets.end());
    t2 = Clock::now();
    res.module = detail::buildModule(tree, bin, sink);
    t3 = Clock::now();
  } catch (NestingTooDeep &) {
    // reported above; the module stays empty
  } catch (std::exception &e) {
    res.diags.error({}, std::string("internal parser error: ") + e.what());
  } catch (...) {
    res.diags.error({}, "internal parser error");
  }
  if (opts.timings) {
    Clock::time_point t4 = Clock::now();
    *opts.timings = ParseTimings{ms(t0, t1), ms(t1, t2), ms(t2, t3), ms(t3, t4)};
  }
  if (!res.module) {
    res.module = std::make_unique<Module>();
    res.module->sourceName = std::string(sourceName);
  }
  // Report in source order (module-level name resolution runs last).
  const auto &all = res.diags.all();
  if (!std::is_sorted(all.begin(), all.end(), [](const Diagnostic &a, const Diagnostic &b) {
        return std::tie(a.line, a.col) < std::tie(b.line, b.col);
      })) {
    auto v = all;
    std::stable_sort(v.begin(), v.end(), [](const Diagnostic &a, const Diagnostic &b) {
      return std::tie(a.line, a.col) < std::tie(b.line, b.col);
    });
    DiagnosticList sorted;
    for (auto &d : v) sorted.add(d);
    res.diags = std::move(sorted);
  }
  return res;
}

namespace detail {

std::vector<LexedToken> lexWithAntlr(std::string_view text) {
  std::vector<LexedToken> out;
  try {
    std::string clean(text);
    for (auto &c : clean)
      if (static_cast<unsigned char>(c) >= 0x80 || c == 0) c = '\x01';
    ANTLRInputStream input(clean);
    PTXLexer lexer(&input);
    lexer.removeErrorListeners();
    for (;;) {
      auto t = lexer.nextToken();
      out.push_back({t->getType(), t->getStartIndex(), t->getStopIndex(), t->getLine(),
                     t->getCharPositionInLine()});
      if (t->getType() == Token::EOF) break;
    }
  } catch (...) {
    out.push_back({size_t(-2), 0, 0, 0, 0});
  }
  return out;
}

std::vector<LexedToken> lexFast(std::string_view text) {
  std::vector<LexedToken> out;
  FastTokenSource src(text);
  for (;;) {
    auto l = src.lex();
    out.push_back({l.type, l.start, l.stop, l.line, l.col});
    if (l.type == Token::EOF) break;
  }
  return out;
}

} // namespace detail
} // namespace ptx
