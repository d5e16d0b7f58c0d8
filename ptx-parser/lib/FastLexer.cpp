//===- FastLexer.cpp - PTX.g4's lexer rules, by hand ----------------------===//
//
// Longest match with ties going to the earlier rule, exactly as ANTLR does
// for PTX.g4: directive keywords win over DOTWORD at equal length, FLOAT
// over INT. Whitespace and comments are skipped; anything unmatched becomes
// a one-byte ERROR_CHAR token. Line/column bookkeeping follows ANTLR (column
// = bytes since the last '\n').
//
//===----------------------------------------------------------------------===//
#include "FastLexer.h"

#include "PTXLexer.h"

#include <unordered_map>

using ptxgen::PTXLexer;

namespace ptx::detail {
namespace {

inline bool isWord(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
inline bool isWord$(unsigned char c) { return isWord(c) || c == '$'; }
inline bool isDigit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool isHex(unsigned char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

const std::unordered_map<std::string_view, size_t> &keywords() {
  static const auto *m = new std::unordered_map<std::string_view, size_t>{
      {".version", PTXLexer::KW_VERSION}, {".target", PTXLexer::KW_TARGET},
      {".address_size", PTXLexer::KW_ADDRESS_SIZE}, {".file", PTXLexer::KW_FILE},
      {".loc", PTXLexer::KW_LOC}, {".section", PTXLexer::KW_SECTION},
      {".pragma", PTXLexer::KW_PRAGMA}, {".visible", PTXLexer::KW_VISIBLE},
      {".extern", PTXLexer::KW_EXTERN}, {".weak", PTXLexer::KW_WEAK},
      {".common", PTXLexer::KW_COMMON}, {".entry", PTXLexer::KW_ENTRY},
      {".func", PTXLexer::KW_FUNC}, {".global", PTXLexer::KW_GLOBAL},
      {".shared", PTXLexer::KW_SHARED}, {".const", PTXLexer::KW_CONST},
      {".local", PTXLexer::KW_LOCAL}, {".param", PTXLexer::KW_PARAM},
      {".tex", PTXLexer::KW_TEX}, {".reg", PTXLexer::KW_REG},
      {".align", PTXLexer::KW_ALIGN}, {".attribute", PTXLexer::KW_ATTRIBUTE},
      {".maxntid", PTXLexer::KW_MAXNTID}, {".reqntid", PTXLexer::KW_REQNTID},
      {".reqnctapercluster", PTXLexer::KW_REQNCTAPERCLUSTER},
      {".minnctapersm", PTXLexer::KW_MINNCTAPERSM}, {".maxnreg", PTXLexer::KW_MAXNREG},
      {".maxclusterrank", PTXLexer::KW_MAXCLUSTERRANK},
      {".explicitcluster", PTXLexer::KW_EXPLICITCLUSTER}, {".noreturn", PTXLexer::KW_NORETURN},
      {".callprototype", PTXLexer::KW_CALLPROTOTYPE}, {".calltargets", PTXLexer::KW_CALLTARGETS},
      {".branchtargets", PTXLexer::KW_BRANCHTARGETS},
  };
  return *m;
}

} // namespace

FastTokenSource::Lexeme FastTokenSource::lex() {
  const char *s = text_.data();
  const size_t n = text_.size();
  size_t p = pos_;
  auto newline = [&](size_t at) {
    ++line_;
    lineStart_ = at + 1;
  };
  // Skip whitespace and comments.
  for (;;) {
    if (p >= n) break;
    unsigned char c = s[p];
    if (c == ' ' || c == '\t' || c == '\r') { ++p; continue; }
    if (c == '\n') { newline(p); ++p; continue; }
    if (c == '/' && p + 1 < n && s[p + 1] == '/') {
      p += 2;
      while (p < n && s[p] != '\n' && s[p] != '\r') ++p;
      continue;
    }
    if (c == '/' && p + 1 < n && s[p + 1] == '*') {
      size_t q = p + 2;
      bool closed = false;
      while (q + 1 < n) {
        if (s[q] == '*' && s[q + 1] == '/') { closed = true; break; }
        ++q;
      }
      if (!closed) break; // '/' becomes ERROR_CHAR
      for (size_t k = p; k < q; ++k)
        if (s[k] == '\n') newline(k);
      p = q + 2;
      continue;
    }
    break;
  }
  Lexeme L;
  L.start = p;
  L.line = line_;
  L.col = p - lineStart_;
  if (p >= n) {
    pos_ = p;
    L.type = antlr4::Token::EOF;
    L.stop = p - 1;
    return L;
  }
  unsigned char c = s[p];
  size_t len = 1;
  size_t type = PTXLexer::ERROR_CHAR;
  switch (c) {
  case '{': type = PTXLexer::LBRACE; break;
  case '}': type = PTXLexer::RBRACE; break;
  case '[': type = PTXLexer::LBRACK; break;
  case ']': type = PTXLexer::RBRACK; break;
  case '(': type = PTXLexer::LPAREN; break;
  case ')': type = PTXLexer::RPAREN; break;
  case '<': type = PTXLexer::LT; break;
  case '>': type = PTXLexer::GT; break;
  case ';': type = PTXLexer::SEMI; break;
  case ',': type = PTXLexer::COMMA; break;
  case ':': type = PTXLexer::COLON; break;
  case '@': type = PTXLexer::AT; break;
  case '!': type = PTXLexer::BANG; break;
  case '+': type = PTXLexer::PLUS; break;
  case '-': type = PTXLexer::MINUS; break;
  case '|': type = PTXLexer::PIPE; break;
  case '=': type = PTXLexer::EQUALS; break;
  case '~': type = PTXLexer::TILDE; break;
  case '.': {
    if (p + 1 < n && isWord(s[p + 1])) {
      size_t q = p + 2;
      while (q < n && isWord$(s[q])) ++q;
      while (q + 2 < n && s[q] == ':' && s[q + 1] == ':' && isWord(s[q + 2])) {
        q += 3;
        while (q < n && isWord(s[q])) ++q;
      }
      len = q - p;
      type = PTXLexer::DOTWORD;
      auto &kw = keywords();
      auto it = kw.find(std::string_view(s + p, len));
      if (it != kw.end()) type = it->second;
    }
    break;
  }
  case '%': {
    size_t q = p + 1;
    while (q < n && isWord$(s[q])) ++q;
    if (q > p + 1) {
      if (q + 1 < n && s[q] == '.' && isWord(s[q + 1])) {
        q += 2;
        while (q < n && isWord(s[q])) ++q;
      }
      len = q - p;
      type = PTXLexer::REGISTER;
    }
    break;
  }
  case '"': {
    size_t q = p + 1;
    bool ok = false;
    while (q < n) {
      char d = s[q];
      if (d == '"') { ok = true; break; }
      if (d == '\\') {
        if (q + 1 >= n) break;
        q += 2;
        continue;
      }
      if (d == '\r' || d == '\n') break;
      ++q;
    }
    if (ok) {
      for (size_t k = p; k < q; ++k)
        if (s[k] == '\n') newline(k); // only via "\\\n" escapes
      len = q + 1 - p;
      type = PTXLexer::STRING;
    }
    break;
  }
  default:
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$') {
      size_t q = p + 1;
      while (q < n && isWord$(s[q])) ++q;
      len = q - p;
      type = PTXLexer::IDENT;
    } else if (isDigit(c)) {
      // FLOAT alternatives (listed first: win ties), then INT.
      size_t best = 0;
      size_t bestType = PTXLexer::INT;
      auto consider = [&](size_t l, size_t t) {
        if (l > best) { best = l; bestType = t; }
      };
      auto hexRun = [&](size_t from, size_t maxLen) {
        size_t k = 0;
        while (from + k < n && k < maxLen && isHex(s[from + k])) ++k;
        return k;
      };
      if (c == '0' && p + 1 < n) {
        char d = s[p + 1];
        if ((d == 'f' || d == 'F') && hexRun(p + 2, 8) == 8) consider(10, PTXLexer::FLOAT);
        if ((d == 'd' || d == 'D') && hexRun(p + 2, 16) == 16) consider(18, PTXLexer::FLOAT);
      }
      size_t q = p;
      while (q < n && isDigit(s[q])) ++q;
      auto exponent = [&](size_t at) -> size_t {
        if (at < n && (s[at] == 'e' || s[at] == 'E')) {
          size_t k = at + 1;
          if (k < n && (s[k] == '+' || s[k] == '-')) ++k;
          size_t d0 = k;
          while (k < n && isDigit(s[k])) ++k;
          if (k > d0) return k - at;
        }
        return 0;
      };
      if (q < n && s[q] == '.') {
        size_t k = q + 1;
        while (k < n && isDigit(s[k])) ++k;
        k += exponent(k);
        consider(k - p, PTXLexer::FLOAT);
      } else if (size_t e = exponent(q)) {
        consider(q + e - p, PTXLexer::FLOAT);
      }
      // INT
      if (c == '0' && p + 2 < n && (s[p + 1] == 'x' || s[p + 1] == 'X') && isHex(s[p + 2])) {
        size_t k = p + 2;
        while (k < n && isHex(s[k])) ++k;
        if (k < n && s[k] == 'U') ++k;
        consider(k - p, PTXLexer::INT);
      }
      if (c == '0' && p + 2 < n && (s[p + 1] == 'b' || s[p + 1] == 'B') && (s[p + 2] == '0' || s[p + 2] == '1')) {
        size_t k = p + 2;
        while (k < n && (s[k] == '0' || s[k] == '1')) ++k;
        if (k < n && s[k] == 'U') ++k;
        consider(k - p, PTXLexer::INT);
      }
      {
        size_t k = q;
        if (k < n && s[k] == 'U') ++k;
        consider(k - p, PTXLexer::INT);
      }
      len = best;
      type = bestType;
    }
    break;
  }
  pos_ = p + len;
  L.type = type;
  L.stop = p + len - 1;
  return L;
}

std::unique_ptr<antlr4::Token> FastTokenSource::nextToken() {
  Lexeme L = lex();
  tokLine_ = L.line;
  tokCol_ = L.col;
  auto t = std::make_unique<antlr4::CommonToken>(std::pair<antlr4::TokenSource *, antlr4::CharStream *>(this, nullptr),
                                                 L.type, antlr4::Token::DEFAULT_CHANNEL, L.start, L.stop);
  return t;
}

std::string FastToken::getText() const {
  if (getType() == antlr4::Token::EOF) return "<EOF>";
  auto t = owner->text();
  if (start >= t.size() || stop < start || stop >= t.size()) return "";
  return std::string(t.substr(start, stop - start + 1));
}

antlr4::TokenSource *FastToken::getTokenSource() const { return owner->getTokenSource(); }

FastTokenStream::FastTokenStream(std::string_view text) : text_(text), source_(text) {
  toks_.reserve(text.size() / 5 + 16);
  for (;;) {
    auto L = source_.lex();
    FastToken t;
    t.type = uint32_t(L.type);
    t.line = uint32_t(L.line);
    t.col = uint32_t(L.col);
    t.index = uint32_t(toks_.size());
    t.start = L.start;
    t.stop = L.stop;
    t.owner = this;
    toks_.push_back(t);
    if (L.type == antlr4::Token::EOF) break;
  }
}

antlr4::Token *FastTokenStream::LT(ssize_t k) {
  if (k == 1) return &toks_[p_]; // p_ < toks_.size() always (see consume/seek)
  if (k == 0) return nullptr;
  if (k < 0) {
    if (ssize_t(p_) + k < 0) return nullptr;
    return &toks_[size_t(ssize_t(p_) + k)];
  }
  size_t i = p_ + size_t(k) - 1;
  return &toks_[i < toks_.size() ? i : toks_.size() - 1];
}

std::string FastTokenStream::getText(const antlr4::misc::Interval &iv) {
  if (iv.a < 0 || iv.b < 0 || size_t(iv.a) >= toks_.size()) return "";
  size_t b = toks_[size_t(iv.a)].start;
  size_t e = toks_[std::min(size_t(iv.b), toks_.size() - 1)].stop;
  if (b >= text_.size() || e < b) return "";
  e = std::min(e, text_.size() - 1);
  return std::string(text_.substr(b, e - b + 1));
}

std::string FastTokenStream::getText(antlr4::RuleContext *ctx) {
  return ctx ? getText(ctx->getSourceInterval()) : std::string();
}

std::string FastTokenStream::getText(antlr4::Token *start, antlr4::Token *stop) {
  if (!start || !stop) return "";
  return getText(antlr4::misc::Interval(start->getTokenIndex(), stop->getTokenIndex()));
}

} // namespace ptx::detail
