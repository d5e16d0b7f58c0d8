//===- FastLexer.h - hand-written lexer feeding the ANTLR parser ---------===//
//
// A TokenSource that implements the lexer rules of PTX.g4 by hand (the
// grammar file stays the source of truth; the generated ANTLR lexer is kept
// for cross-checking). It works on bytes, so token start/stop indices are
// byte offsets into the original text, and it is ~10x faster than the
// generated lexer, which dominated front-end time on large modules.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "antlr4-runtime.h"

#include <string_view>

namespace ptx::detail {

class FastTokenSource : public antlr4::TokenSource {
public:
  explicit FastTokenSource(std::string_view text) : text_(text) {}

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return tokLine_; }
  size_t getCharPositionInLine() override { return tokCol_; }
  antlr4::CharStream *getInputStream() override { return nullptr; }
  std::string getSourceName() override { return "<ptx>"; }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

  // Token type of the next token (advances); start/stop/line/col of it.
  struct Lexeme {
    size_t type;
    size_t start, stop; // stop inclusive
    size_t line, col;   // 1-based line, 0-based column (ANTLR convention)
  };
  Lexeme lex();

private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t lineStart_ = 0;
  size_t tokLine_ = 1, tokCol_ = 0;
};

// A token stored by value in FastTokenStream (one allocation for all tokens
// instead of one CommonToken per token).
class FastToken final : public antlr4::Token {
public:
  uint32_t type = 0, line = 0, col = 0, index = 0;
  size_t start = 0, stop = 0;
  const class FastTokenStream *owner = nullptr;

  std::string getText() const override;
  size_t getType() const override { return type == uint32_t(-1) ? antlr4::Token::EOF : type; }
  size_t getLine() const override { return line; }
  size_t getCharPositionInLine() const override { return col; }
  size_t getChannel() const override { return antlr4::Token::DEFAULT_CHANNEL; }
  size_t getTokenIndex() const override { return index; }
  size_t getStartIndex() const override { return start; }
  size_t getStopIndex() const override { return stop; }
  antlr4::TokenSource *getTokenSource() const override;
  antlr4::CharStream *getInputStream() const override { return nullptr; }
  std::string toString() const override { return getText(); }
};

// All tokens of the input, lexed up front into one vector; implements the
// TokenStream interface the generated parser reads (everything is on the
// default channel: whitespace and comments are never emitted).
class FastTokenStream final : public antlr4::TokenStream {
public:
  explicit FastTokenStream(std::string_view text);

  antlr4::Token *LT(ssize_t k) override;
  antlr4::Token *get(size_t i) const override {
    return const_cast<FastToken *>(&toks_[i < toks_.size() ? i : toks_.size() - 1]);
  }
  antlr4::TokenSource *getTokenSource() const override { return const_cast<FastTokenSource *>(&source_); }
  std::string getText(const antlr4::misc::Interval &interval) override;
  std::string getText() override { return std::string(text_); }
  std::string getText(antlr4::RuleContext *ctx) override;
  std::string getText(antlr4::Token *start, antlr4::Token *stop) override;

  void consume() override {
    if (p_ + 1 < toks_.size()) ++p_;
  }
  size_t LA(ssize_t i) override {
    // LA(1) is by far the most frequent call (every match and decision);
    // p_ is always a valid index (consume/seek clamp it to the EOF token).
    if (i == 1) return toks_[p_].FastToken::getType();
    antlr4::Token *t = LT(i);
    return t ? t->getType() : antlr4::Token::INVALID_TYPE;
  }
  ssize_t mark() override { return 0; }
  void release(ssize_t) override {}
  size_t index() override { return p_; }
  void seek(size_t i) override { p_ = i < toks_.size() ? i : toks_.size() - 1; }
  size_t size() override { return toks_.size(); }
  std::string getSourceName() const override { return "<ptx>"; }

  std::string_view text() const { return text_; }
  const std::vector<FastToken> &tokens() const { return toks_; }

private:
  std::string_view text_;
  FastTokenSource source_;
  std::vector<FastToken> toks_;
  size_t p_ = 0;
};

} // namespace ptx::detail
