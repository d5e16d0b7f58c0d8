//===- Parse.cpp - PTX text -> IR driver (ANTLR two-stage parse) ----------===//
//
// Runs the generated lexer/parser on the input and hands the tree to the IR
// builder. Parsing is two-stage: first SLL prediction with a bail-out error
// strategy (fast, no error reporting), and only if that fails a second pass
// with full LL prediction and the default recovering strategy, whose syntax
// errors are turned into clang-style diagnostics. Bytes >= 0x80 are mapped to
// a placeholder before lexing so that ANTLR's UTF-8 decoder cannot throw and
// character indices equal byte offsets into the original text (PTX is ASCII;
// such bytes are legal only inside comments and strings, where the builder
// reads the original bytes back). No exception escapes this file.
//
//===----------------------------------------------------------------------===//
#include "IRBuilder.h"
#include "PTXLexer.h"
#include "PTXParser.h"

#include <algorithm>

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
  try {
    std::string clean(text);
    for (auto &c : clean)
      if (static_cast<unsigned char>(c) >= 0x80 || c == 0) c = '\x01';
    ANTLRInputStream input(clean);
    PTXLexer lexer(&input);
    DiagListener listener(text, sink, bin.errorOffsets);
    lexer.removeErrorListeners();
    lexer.addErrorListener(&listener);
    CommonTokenStream tokens(&lexer);
    tokens.fill();
    PTXParser parser(&tokens);
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
    res.module = detail::buildModule(tree, bin, sink);
  } catch (std::exception &e) {
    res.diags.error({}, std::string("internal parser error: ") + e.what());
  } catch (...) {
    res.diags.error({}, "internal parser error");
  }
  if (!res.module) {
    res.module = std::make_unique<Module>();
    res.module->sourceName = std::string(sourceName);
  }
  // Report in source order (module-level name resolution runs last).
  const auto &all = res.diags.all();
  if (!std::is_sorted(all.begin(), all.end(), [](const Diagnostic &a, const Diagnostic &b) {
        return std::tie(a.loc.line, a.loc.col) < std::tie(b.loc.line, b.loc.col);
      })) {
    auto v = all;
    std::stable_sort(v.begin(), v.end(), [](const Diagnostic &a, const Diagnostic &b) {
      return std::tie(a.loc.line, a.loc.col) < std::tie(b.loc.line, b.loc.col);
    });
    DiagnosticList sorted;
    for (auto &d : v) sorted.report(d.severity, d.loc, d.message);
    res.diags = std::move(sorted);
  }
  return res;
}

} // namespace ptx
