//===- IRBuilder.cpp - ANTLR parse tree -> typed PTX IR -------------------===//
//
// Walks the tree produced by PTX.g4 and builds ptx::Module. This is where
// names are resolved: registers (with `%r<N>` ranges) per scoped `{ }` block,
// so inline-asm blocks that re-declare `%temp` get distinct RegIds; labels
// and body-level variables per block with forward references resolved at
// the end of the function; module symbols (globals, functions) at the end of
// the module, so declaration order does not matter. Declaration attributes
// and modifiers arrive as generic DOTWORD lists and are decoded here; the
// per-opcode validity of modifiers and operand types is checked by Sema.cpp
// (checkInstruction) right after each instruction is built. Statements that
// contain a syntax error are skipped so that one error does not cascade.
//
// Token text is taken from the original buffer by the tokens' start/stop
// indices (the driver guarantees char index == byte offset), which avoids
// ANTLR's per-token UTF-32 -> UTF-8 conversion.
//
//===----------------------------------------------------------------------===//
#include "IRBuilder.h"
#include "ptx/Limits.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

using namespace antlr4;
using ptxgen::PTXParser;

namespace ptx::detail {
namespace {

using TN = tree::TerminalNode;
using PT = tree::ParseTree;

struct SRegInfo {
  SReg sreg;
  bool vector; // needs .x/.y/.z
};

const std::unordered_map<std::string_view, SRegInfo> &sregTable() {
  static const auto *t = new std::unordered_map<std::string_view, SRegInfo>{
      {"%tid", {SReg::Tid, true}}, {"%ntid", {SReg::Ntid, true}},
      {"%laneid", {SReg::Laneid, false}}, {"%warpid", {SReg::Warpid, false}},
      {"%nwarpid", {SReg::Nwarpid, false}}, {"%ctaid", {SReg::Ctaid, true}},
      {"%nctaid", {SReg::Nctaid, true}}, {"%smid", {SReg::Smid, false}},
      {"%nsmid", {SReg::Nsmid, false}}, {"%gridid", {SReg::Gridid, false}},
      {"%is_explicit_cluster", {SReg::IsExplicitCluster, false}},
      {"%clusterid", {SReg::Clusterid, true}}, {"%nclusterid", {SReg::Nclusterid, true}},
      {"%cluster_ctaid", {SReg::ClusterCtaid, true}},
      {"%cluster_nctaid", {SReg::ClusterNctaid, true}},
      {"%cluster_ctarank", {SReg::ClusterCtarank, false}},
      {"%cluster_nctarank", {SReg::ClusterNctarank, false}},
      {"%lanemask_eq", {SReg::LanemaskEq, false}}, {"%lanemask_le", {SReg::LanemaskLe, false}},
      {"%lanemask_lt", {SReg::LanemaskLt, false}}, {"%lanemask_ge", {SReg::LanemaskGe, false}},
      {"%lanemask_gt", {SReg::LanemaskGt, false}}, {"%clock", {SReg::Clock, false}},
      {"%clock_hi", {SReg::ClockHi, false}}, {"%clock64", {SReg::Clock64, false}},
      {"%globaltimer", {SReg::Globaltimer, false}},
      {"%globaltimer_lo", {SReg::GlobaltimerLo, false}},
      {"%globaltimer_hi", {SReg::GlobaltimerHi, false}},
      {"%total_smem_size", {SReg::TotalSmemSize, false}},
      {"%aggr_smem_size", {SReg::AggrSmemSize, false}},
      {"%dynamic_smem_size", {SReg::DynamicSmemSize, false}},
      {"%current_graph_exec", {SReg::CurrentGraphExec, false}},
  };
  return *t;
}

// Resolves special registers with an index in the name (%envreg3, %pm0,
// %pm5_64, %reserved_smem_offset_begin) or a table entry.
std::optional<std::pair<SReg, uint8_t>> lookupSReg(std::string_view base, std::string_view comp,
                                                   bool &badComponent) {
  badComponent = false;
  auto num = [](std::string_view s, unsigned maxv) -> std::optional<uint8_t> {
    if (s.empty() || s.size() > 2) return std::nullopt;
    unsigned v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    if (v > maxv) return std::nullopt;
    return uint8_t(v);
  };
  auto &t = sregTable();
  auto it = t.find(base);
  if (it != t.end()) {
    if (it->second.vector) {
      if (comp == "x") return std::pair{it->second.sreg, uint8_t(0)};
      if (comp == "y") return std::pair{it->second.sreg, uint8_t(1)};
      if (comp == "z") return std::pair{it->second.sreg, uint8_t(2)};
      badComponent = true;
      return std::nullopt;
    }
    if (!comp.empty()) { badComponent = true; return std::nullopt; }
    return std::pair{it->second.sreg, uint8_t(0)};
  }
  if (!comp.empty()) return std::nullopt;
  if (base.substr(0, 7) == "%envreg")
    if (auto n = num(base.substr(7), 31)) return std::pair{SReg::Envreg, *n};
  if (base.substr(0, 3) == "%pm") {
    auto rest = base.substr(3);
    if (rest.size() == 4 && rest.substr(1) == "_64")
      if (auto n = num(rest.substr(0, 1), 7)) return std::pair{SReg::Pm64, *n};
    if (auto n = num(rest, 7)) return std::pair{SReg::Pm, *n};
  }
  static constexpr std::string_view kRes[] = {"%reserved_smem_offset_begin",
                                              "%reserved_smem_offset_end",
                                              "%reserved_smem_offset_cap",
                                              "%reserved_smem_offset_0",
                                              "%reserved_smem_offset_1"};
  for (uint8_t i = 0; i < 5; ++i)
    if (base == kRes[i]) return std::pair{SReg::ReservedSmemOffset, i};
  return std::nullopt;
}

struct BlockScope {
  int parent = -1;
  std::unordered_map<std::string_view, uint32_t> regs;   // single register -> RegDecl index
  std::unordered_map<std::string_view, uint32_t> ranges; // %r<N> prefix -> RegDecl index
  std::unordered_map<std::string, SourceLoc> syms;       // labels, local variables, target lists
};

struct PendingRef {
  std::string_view name;
  SourceLoc loc;
  int block;
};

class Builder {
public:
  Builder(const BuildInput &in, DiagSink &d) : in_(in), diags_(d) {}

  std::unique_ptr<Module> run(PTXParser::PtxModuleContext *tree) {
    mod_ = std::make_unique<Module>();
    mod_->sourceName = std::string(in_.sourceName);
    if (tree) {
      for (auto *c : tree->children) {
        if (auto *item = dynamic_cast<PTXParser::ModuleItemContext *>(c)) moduleItem(item);
      }
    }
    resolveModuleRefs();
    if (tree && !tree->exception && in_.errorOffsets.empty()) {
      // ptxas rejects modules without these; report them like it does.
      if (mod_->versionMajor == 0) error({1, 1}, "missing '.version' directive");
      if (mod_->target.empty()) error({1, 1}, "missing '.target' directive");
    }
    return std::move(mod_);
  }

private:
  const BuildInput &in_;
  DiagSink &diags_;
  std::unique_ptr<Module> mod_;

  // Module symbols: name -> (is definition, loc).
  struct ModSym { bool defined; bool isFunc; SourceLoc loc; };
  std::unordered_map<std::string, ModSym> modSyms_;
  std::vector<std::pair<std::string, SourceLoc>> moduleRefs_;

  // Per-function state.
  Function *fn_ = nullptr;
  std::vector<BlockScope> blocks_;
  int curBlock_ = -1;
  std::unordered_map<uint64_t, RegId> regIds_;
  std::vector<PendingRef> fnRefs_;
  std::unordered_set<std::string_view> fnParams_;
  std::vector<SourceLoc> modLocs_;

  // ------------------------------------------------------------ tokens --
  static Token *tokOf(PT *t) {
    if (!t || !isTerminal(t)) return nullptr;
    return static_cast<TN *>(t)->getSymbol();
  }
  std::string_view text(Token *t) const {
    if (!t) return {};
    auto b = t->getStartIndex(), e = t->getStopIndex();
    if (b == INVALID_INDEX || e == INVALID_INDEX || e < b || e >= in_.text.size()) return {};
    return in_.text.substr(b, e - b + 1);
  }
  std::string_view text(TN *n) const { return n ? text(n->getSymbol()) : std::string_view(); }
  static SourceLoc loc(Token *t) {
    if (!t) return {};
    return {uint32_t(t->getLine()), uint32_t(t->getCharPositionInLine() + 1)};
  }
  static SourceLoc loc(TN *n) { return n ? loc(n->getSymbol()) : SourceLoc{}; }
  static SourceLoc loc(ParserRuleContext *c) { return c ? loc(c->getStart()) : SourceLoc{}; }

  // True if a syntax error was reported inside the context's token range.
  bool hasError(ParserRuleContext *c) const {
    if (!c) return true;
    if (c->exception) return true;
    if (in_.errorOffsets.empty()) return false;
    Token *s = c->getStart(), *e = c->getStop();
    size_t b = s ? s->getStartIndex() : 0;
    size_t en = e && e->getStopIndex() != INVALID_INDEX ? e->getStopIndex() : in_.text.size();
    if (e && e->getType() == Token::EOF) en = in_.text.size();
    if (en < b) en = in_.text.size();
    auto it = std::lower_bound(in_.errorOffsets.begin(), in_.errorOffsets.end(), b);
    return it != in_.errorOffsets.end() && *it <= en;
  }

  void error(SourceLoc l, std::string msg) { diags_.error(l, std::move(msg)); }
  void unsupported(SourceLoc l, std::string msg) { diags_.unsupported(l, std::move(msg)); }

  // ----------------------------------------------------------- numbers --
  // Parses an INT token: decimal, 0x hex, 0b binary, 0-prefixed octal, optional U.
  std::optional<uint64_t> parseInt(std::string_view s, SourceLoc l) {
    if (!s.empty() && s.back() == 'U') s.remove_suffix(1);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; s.remove_prefix(2); }
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) { base = 2; s.remove_prefix(2); }
    else if (s.size() > 1 && s[0] == '0') { base = 8; s.remove_prefix(1); }
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (ec == std::errc::result_out_of_range) {
      error(l, "integer literal is too large for 64 bits");
      return std::nullopt;
    }
    if (ec != std::errc() || p != s.data() + s.size()) {
      error(l, "invalid integer literal '" + std::string(s) + "'");
      return std::nullopt;
    }
    return v;
  }
  // FLOAT token -> (bits, width).
  std::optional<std::pair<uint64_t, uint8_t>> parseFloat(std::string_view s, SourceLoc l) {
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
      uint64_t v = 0;
      std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
      return std::pair{v, uint8_t(s[1] == 'f' || s[1] == 'F' ? 32 : 64)};
    }
    std::string tmp(s);
    char *end = nullptr;
    double d = std::strtod(tmp.c_str(), &end);
    if (!end || *end) {
      error(l, "invalid floating-point literal '" + tmp + "'");
      return std::nullopt;
    }
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    return std::pair{bits, uint8_t(64)};
  }
  std::optional<uint32_t> parseU32(TN *n) {
    if (!n) return std::nullopt;
    auto v = parseInt(text(n), loc(n));
    if (!v) return std::nullopt;
    if (*v > 0xffffffffu) {
      error(loc(n), "value " + std::to_string(*v) + " does not fit in 32 bits");
      return std::nullopt;
    }
    return uint32_t(*v);
  }

  // ------------------------------------------------------ module items --
  void moduleItem(PTXParser::ModuleItemContext *item) {
    if (hasError(item) && !dynamic_cast<PTXParser::TopDeclContext *>(item)) return;
    if (auto *c = dynamic_cast<PTXParser::VersionDirContext *>(item)) {
      auto t = text(c->FLOAT());
      auto dot = t.find('.');
      if (dot == std::string_view::npos) { error(loc(c), "malformed .version"); return; }
      std::from_chars(t.data(), t.data() + dot, mod_->versionMajor);
      std::from_chars(t.data() + dot + 1, t.data() + t.size(), mod_->versionMinor);
    } else if (auto *c = dynamic_cast<PTXParser::TargetDirContext *>(item)) {
      for (auto *id : c->IDENT()) mod_->target.emplace_back(text(id));
    } else if (auto *c = dynamic_cast<PTXParser::AddressSizeDirContext *>(item)) {
      if (auto v = parseU32(c->INT())) {
        if (*v != 32 && *v != 64) error(loc(c->INT()), ".address_size must be 32 or 64");
        mod_->addressSize = *v;
      }
    } else if (auto *c = dynamic_cast<PTXParser::FileDirContext *>(item)) {
      fileDir(c);
    } else if (auto *c = dynamic_cast<PTXParser::SectionDirContext *>(item)) {
      sectionDir(c);
    } else if (auto *c = dynamic_cast<PTXParser::ModulePragmaContext *>(item)) {
      mod_->pragmas.push_back(pragmaText(c->STRING()));
      mod_->order.push_back({TopLevel::Kind::Pragma, uint32_t(mod_->pragmas.size() - 1)});
    } else if (auto *c = dynamic_cast<PTXParser::TopDeclContext *>(item)) {
      topDecl(c);
    }
  }

  std::string pragmaText(const std::vector<TN *> &strs) {
    std::string s;
    for (size_t i = 0; i < strs.size(); ++i) {
      auto t = text(strs[i]);
      if (t.size() >= 2) t = t.substr(1, t.size() - 2);
      if (i) s += "\", \"";
      s += t;
    }
    return s;
  }

  void fileDir(PTXParser::FileDirContext *c) {
    FileDirective f;
    f.loc = loc(c);
    auto ints = c->INT();
    if (ints.empty()) return;
    if (auto v = parseU32(ints[0])) f.index = *v;
    auto s = text(c->STRING());
    f.path = std::string(s.size() >= 2 ? s.substr(1, s.size() - 2) : s);
    if (ints.size() == 3) {
      f.timestamp = parseInt(text(ints[1]), loc(ints[1]));
      f.size = parseInt(text(ints[2]), loc(ints[2]));
    }
    mod_->files.push_back(std::move(f));
    mod_->order.push_back({TopLevel::Kind::File, uint32_t(mod_->files.size() - 1)});
  }

  void sectionDir(PTXParser::SectionDirContext *c) {
    Section sec;
    sec.loc = loc(c);
    sec.name = std::string(text(c->DOTWORD()));
    for (auto *line : c->sectionLine()) {
      SectionLine sl;
      sl.loc = loc(line);
      if (auto *lab = dynamic_cast<PTXParser::SectionLabelContext *>(line)) {
        sl.raw = std::string(text(lab->IDENT())) + ":";
      } else if (auto *d = dynamic_cast<PTXParser::SectionDataContext *>(line)) {
        auto ty = text(d->DOTWORD());
        auto t = typeFromName(ty.empty() ? ty : ty.substr(1));
        if (!t || (*t != Type::B8 && *t != Type::B16 && *t != Type::B32 && *t != Type::B64 &&
                   *t != Type::U8 && *t != Type::U16 && *t != Type::U32 && *t != Type::U64)) {
          unsupported(loc(d->DOTWORD()), "unsupported data directive '" + std::string(ty) +
                                       "' in section (expected .b8/.b16/.b32/.b64)");
          continue;
        }
        sl.type = *t;
        for (auto *e : d->sectionExpr()) sl.values.push_back(sectionExpr(e));
      }
      sec.lines.push_back(std::move(sl));
    }
    mod_->sections.push_back(std::move(sec));
    mod_->order.push_back({TopLevel::Kind::Section, uint32_t(mod_->sections.size() - 1)});
  }

  InitExpr sectionExpr(PTXParser::SectionExprContext *e) {
    InitExpr x;
    x.loc = loc(e);
    auto terms = e->sectionTerm();
    if (terms.size() == 1 && terms[0]->INT()) {
      x.kind = InitExpr::Kind::Int;
      if (auto v = parseInt(text(terms[0]->INT()), loc(terms[0]))) x.value = int64_t(*v);
      return x;
    }
    // symbol (+/- constant) or label difference: keep the text of the first
    // term as the name; fold a trailing integer into offset.
    x.kind = InitExpr::Kind::Sym;
    std::string name;
    int64_t off = 0;
    bool folded = false;
    for (size_t i = 0; i < e->children.size(); ++i) {
      auto *ch = e->children[i];
      if (auto *t = dynamic_cast<PTXParser::SectionTermContext *>(ch)) {
        if (i > 0 && t->INT() && i + 1 == e->children.size()) {
          auto v = parseInt(text(t->INT()), loc(t->INT()));
          bool neg = text(tokOf(e->children[i - 1])) == "-";
          if (v) { off = neg ? -int64_t(*v) : int64_t(*v); folded = true; }
          name.pop_back(); // drop the operator
          break;
        }
        name += text(t->getStart());
      } else {
        name += text(tokOf(ch));
      }
    }
    x.name = std::move(name);
    if (folded) x.offset = off;
    return x;
  }

  void topDecl(PTXParser::TopDeclContext *c) {
    Linkage link = Linkage::None;
    for (auto *l : c->linkage()) {
      Linkage nl = l->KW_VISIBLE() ? Linkage::Visible
                   : l->KW_EXTERN() ? Linkage::Extern
                   : l->KW_WEAK()   ? Linkage::Weak
                                    : Linkage::Common;
      if (link != Linkage::None && link != nl)
        error(loc(l), "conflicting linkage directives");
      link = nl;
    }
    if (auto *f = c->functionDecl()) {
      functionDecl(f, link);
    } else if (auto *v = c->varDecl()) {
      if (hasError(v)) return;
      std::vector<Variable> vars;
      varDecl(v, link, vars, /*moduleScope=*/true);
      for (auto &var : vars) {
        if (var.space == Space::Reg || var.space == Space::Param) {
          error(var.loc, "'." + std::string(spaceName(var.space)) +
                             "' variables are not allowed at module scope");
          continue;
        }
        defineModuleSym(var.name, var.loc, link != Linkage::Extern, false);
        mod_->globals.push_back(std::move(var));
        mod_->order.push_back({TopLevel::Kind::Variable, uint32_t(mod_->globals.size() - 1)});
      }
    }
  }

  void defineModuleSym(const std::string &name, SourceLoc l, bool definition, bool isFunc) {
    auto [it, inserted] = modSyms_.try_emplace(name, ModSym{definition, isFunc, l});
    if (inserted) return;
    if (it->second.isFunc != isFunc) {
      error(l, "redefinition of '" + name + "' as a different kind of symbol");
      return;
    }
    if (definition && it->second.defined) {
      error(l, "redefinition of '" + name + "'");
      return;
    }
    if (definition) it->second = ModSym{true, isFunc, l};
  }

  // ------------------------------------------------------ declarations --
  struct DeclAttrs {
    uint32_t align = 0;
    Type type = Type::None;
    uint8_t vecWidth = 0;
    bool managed = false;
    bool ptr = false;
    Space ptrSpace = Space::None;
    uint32_t ptrAlign = 0;
    bool ok = true;
  };

  static Space spaceOfKw(size_t tokType) {
    switch (tokType) {
    case PTXParser::KW_GLOBAL: return Space::Global;
    case PTXParser::KW_SHARED: return Space::Shared;
    case PTXParser::KW_CONST: return Space::Const;
    case PTXParser::KW_LOCAL: return Space::Local;
    case PTXParser::KW_PARAM: return Space::Param;
    case PTXParser::KW_TEX: return Space::Tex;
    case PTXParser::KW_REG: return Space::Reg;
    default: return Space::None;
    }
  }

  void attributeSpec(PTXParser::AttributeSpecContext *a, DeclAttrs &out) {
    for (auto *item : a->attrItem()) {
      auto t = text(item->DOTWORD());
      if (t == ".managed" && item->INT().empty()) {
        out.managed = true;
      } else {
        unsupported(loc(item), "unsupported attribute '" + std::string(t) + "'");
        out.ok = false;
      }
    }
  }

  DeclAttrs declAttrs(const std::vector<PTXParser::DeclAttrContext *> &attrs) {
    DeclAttrs a;
    for (auto *d : attrs) {
      if (d->KW_ALIGN()) {
        auto v = parseU32(d->INT());
        if (!v) { a.ok = false; continue; }
        if (*v == 0 || (*v & (*v - 1))) {
          error(loc(d->INT()), "alignment must be a power of two");
          a.ok = false;
        }
        (a.ptr ? a.ptrAlign : a.align) = *v;
      } else if (auto *as = d->attributeSpec()) {
        attributeSpec(as, a);
      } else if (auto *dw = d->DOTWORD()) {
        auto s = text(dw).substr(1);
        if (auto t = typeFromName(s)) {
          if (a.type != Type::None) {
            error(loc(dw), "multiple types in declaration");
            a.ok = false;
          }
          a.type = *t;
        } else if (s == "v2" || s == "v4" || s == "v8") {
          a.vecWidth = uint8_t(s[1] - '0');
        } else if (s == "ptr") {
          a.ptr = true;
        } else {
          error(loc(dw), "unknown declaration attribute '." + std::string(s) + "'");
          a.ok = false;
        }
      } else if (Token *t = d->getStart()) {
        Space sp = spaceOfKw(t->getType());
        if (!a.ptr) {
          error(loc(t), "state space '" + std::string(text(t)) + "' must follow '.ptr'");
          a.ok = false;
        }
        a.ptrSpace = sp;
      }
    }
    return a;
  }

  // Builds one Variable per declarator of a non-.reg declaration.
  void varDecl(PTXParser::VarDeclContext *v, Linkage link, std::vector<Variable> &out,
               bool moduleScope) {
    Token *spTok = v->stateSpace() ? v->stateSpace()->getStart() : nullptr;
    Space sp = spTok ? spaceOfKw(spTok->getType()) : Space::None;
    DeclAttrs a = declAttrs(v->declAttr());
    if (!a.ok) return;
    if (a.type == Type::None) {
      error(loc(v), "declaration has no type");
      return;
    }
    for (auto *d : v->declarator()) {
      Variable var;
      var.loc = loc(d);
      var.linkage = link;
      var.space = sp;
      var.align = a.align;
      var.type = a.type;
      var.vecWidth = a.vecWidth;
      var.managed = a.managed;
      var.ptr = a.ptr;
      var.ptrSpace = a.ptrSpace;
      var.ptrAlign = a.ptrAlign;
      var.name = std::string(text(d->getStart()));
      if (d->LT()) {
        error(loc(d), "register ranges '<N>' are only allowed in .reg declarations");
        continue;
      }
      bool ok = true;
      for (auto *as : d->arraySpec()) {
        if (as->IDENT()) {
          if (text(as->IDENT()) != "WARP_SZ") {
            error(loc(as->IDENT()), "array dimension must be an integer constant");
            ok = false;
            break;
          }
          var.dims.push_back(uint64_t(kWarpSz));
        } else if (as->INT()) {
          auto n = parseInt(text(as->INT()), loc(as->INT()));
          if (!n) { ok = false; break; }
          if (*n == 0) { error(loc(as->INT()), "array dimension must be positive"); ok = false; break; }
          var.dims.push_back(*n);
        } else {
          var.dims.push_back(0);
        }
      }
      if (!ok) continue;
      if (auto *init = d->initializer()) {
        if (sp != Space::Global && sp != Space::Const) {
          error(loc(init), "initializers are only allowed for .global and .const variables");
          continue;
        }
        var.init = initializer(init);
      }
      if (a.managed && sp != Space::Global)
        error(var.loc, ".attribute(.managed) requires a .global variable");
      checkVariableSize(var);
      out.push_back(std::move(var));
    }
    (void)moduleScope;
  }

  // Resource limits of ptx/Limits.h: the byte size must not overflow or
  // exceed MaxVariableBytes, initialised variables are at most
  // MaxInitializedBytes, and all .const data at most MaxConstBytes.
  bool checkVariableSize(const Variable &var) {
    uint64_t bytes = var.type == Type::Pred ? 1 : (typeBits(var.type) + 7) / 8;
    bool overflow = var.vecWidth && __builtin_mul_overflow(bytes, uint64_t(var.vecWidth), &bytes);
    for (uint64_t d : var.dims)
      if (d && __builtin_mul_overflow(bytes, d, &bytes)) overflow = true;
    std::string what = "'." + std::string(spaceName(var.space)) + "' variable '" + var.name + "'";
    if (overflow || bytes > MaxVariableBytes) {
      error(var.loc, what + (overflow ? " has a size that overflows 64 bits" : " is " + std::to_string(bytes) +
                                 " bytes, above the limit of 2^47 bytes"));
      return false;
    }
    if (var.init && bytes > MaxInitializedBytes) {
      error(var.loc, "initialised " + what + " is " + std::to_string(bytes) +
                         " bytes, above the limit of 64 MiB for initialised data");
      return false;
    }
    if (var.space == Space::Const && var.linkage != Linkage::Extern) {
      constBytes_ += bytes;
      if (constBytes_ > MaxConstBytes) {
        error(var.loc, "too much .const data: " + std::to_string(constBytes_) + " bytes with " + what +
                           ", above the 65536-byte constant bank");
        return false;
      }
    }
    return true;
  }
  uint64_t constBytes_ = 0;

  InitExpr initializer(PTXParser::InitializerContext *c) {
    InitExpr x;
    x.loc = loc(c);
    if (auto *e = c->constExpr()) return constExpr(e);
    x.kind = InitExpr::Kind::List;
    for (auto *sub : c->initializer()) x.elems.push_back(initializer(sub));
    return x;
  }

  InitExpr constTerm(PTXParser::ConstTermContext *t) {
    InitExpr x;
    x.loc = loc(t);
    if (auto *e = t->constExpr()) return constExpr(e);
    bool neg = t->MINUS() != nullptr;
    if (auto *n = t->INT()) {
      x.kind = InitExpr::Kind::Int;
      if (auto v = parseInt(text(n), loc(n))) x.value = neg ? -int64_t(*v) : int64_t(*v);
    } else if (auto *f = t->FLOAT()) {
      x.kind = InitExpr::Kind::Float;
      if (auto v = parseFloat(text(f), loc(f))) {
        x.value = int64_t(v->first);
        x.fbits = v->second;
        if (neg) x.value ^= int64_t(uint64_t(1) << (x.fbits - 1));
      }
    } else {
      auto ids = t->IDENT();
      if (ids.size() == 2) {
        if (text(ids[0]) != "generic") {
          error(loc(ids[0]), "unknown initializer operator '" + std::string(text(ids[0])) +
                                 "' (expected 'generic')");
        }
        x.kind = InitExpr::Kind::GenericSym;
        x.name = std::string(text(ids[1]));
      } else if (ids.size() == 1 && text(ids[0]) == "WARP_SZ") {
        x.kind = InitExpr::Kind::Int; // predefined identifier, folded (printed as its value)
        x.value = neg ? -kWarpSz : kWarpSz;
      } else if (ids.size() == 1) {
        x.kind = InitExpr::Kind::Sym;
        x.name = std::string(text(ids[0]));
      }
      if (!x.name.empty()) moduleRefs_.emplace_back(x.name, x.loc);
    }
    return x;
  }

  InitExpr constExpr(PTXParser::ConstExprContext *e) {
    auto terms = e->constTerm();
    if (terms.empty()) return InitExpr{};
    InitExpr acc = constTerm(terms[0]);
    size_t ti = 1;
    for (size_t i = 1; i < e->children.size(); ++i) {
      Token *op = tokOf(e->children[i]);
      if (!op || ti >= terms.size()) break;
      InitExpr rhs = constTerm(terms[ti++]);
      ++i;
      bool minus = op->getType() == PTXParser::MINUS;
      if (rhs.kind != InitExpr::Kind::Int) {
        error(rhs.loc, "only integer constants may be added to an initializer term");
        continue;
      }
      int64_t v = minus ? -rhs.value : rhs.value;
      if (acc.kind == InitExpr::Kind::Int) acc.value += v;
      else if (acc.kind == InitExpr::Kind::Sym || acc.kind == InitExpr::Kind::GenericSym)
        acc.offset += v;
      else error(acc.loc, "invalid constant expression");
    }
    return acc;
  }

  std::vector<Variable> paramList(PTXParser::ParamListContext *pl) {
    std::vector<Variable> out;
    if (!pl) return out;
    for (auto *p : pl->paramDecl()) {
      Variable var;
      var.loc = loc(p);
      var.space = p->KW_PARAM() ? Space::Param : Space::Reg;
      DeclAttrs a = declAttrs(p->declAttr());
      var.align = a.align;
      var.type = a.type;
      var.vecWidth = a.vecWidth;
      var.ptr = a.ptr;
      var.ptrSpace = a.ptrSpace;
      var.ptrAlign = a.ptrAlign;
      if (a.managed) error(var.loc, ".attribute(.managed) is not allowed on parameters");
      if (a.type == Type::None) error(var.loc, "parameter has no type");
      Token *nameTok = p->IDENT() ? p->IDENT()->getSymbol()
                                  : (p->REGISTER() ? p->REGISTER()->getSymbol() : nullptr);
      var.name = std::string(text(nameTok));
      if (nameTok) var.loc = loc(nameTok);
      for (auto *as : p->arraySpec()) {
        if (as->IDENT()) {
          if (text(as->IDENT()) != "WARP_SZ")
            error(loc(as->IDENT()), "array dimension must be an integer constant");
          var.dims.push_back(uint64_t(kWarpSz));
        } else if (as->INT()) {
          auto n = parseInt(text(as->INT()), loc(as->INT()));
          var.dims.push_back(n ? *n : 1);
        } else {
          var.dims.push_back(0);
        }
      }
      out.push_back(std::move(var));
    }
    return out;
  }

  // --------------------------------------------------------- functions --
  void functionDecl(PTXParser::FunctionDeclContext *c, Linkage link) {
    Function f;
    f.loc = loc(c);
    f.isEntry = c->KW_ENTRY() != nullptr;
    f.linkage = link;
    TN *nameTok = c->IDENT();
    f.name = std::string(text(nameTok));
    if (f.name.empty()) return; // syntax error already reported
    for (auto *a : c->attributeSpec())
      unsupported(loc(a), "unsupported function attribute '" + a->getText() + "'");
    // Parameter lists before the name are results.
    size_t nameIdx = 0;
    for (size_t i = 0; i < c->children.size(); ++i)
      if (c->children[i] == nameTok) nameIdx = i;
    for (size_t i = 0; i < c->children.size(); ++i) {
      if (auto *pl = dynamic_cast<PTXParser::ParamListContext *>(c->children[i])) {
        if (i < nameIdx) f.results = paramList(pl);
        else f.params = paramList(pl);
      }
    }
    if (f.isEntry && !f.results.empty()) error(f.loc, "kernels (.entry) cannot return values");
    for (auto *d : c->funcDirective()) funcDirective(d, f.perf);
    // Duplicate parameter names.
    {
      std::unordered_set<std::string_view> seen;
      for (auto *list : {&f.results, &f.params})
        for (auto &p : *list)
          if (p.name != "_" && !seen.insert(p.name).second)
            error(p.loc, "redefinition of parameter '" + p.name + "'");
    }
    auto *body = c->block();
    f.hasBody = body != nullptr;
    defineModuleSym(f.name, f.loc, f.hasBody, true);
    if (f.hasBody && link == Linkage::Extern)
      error(f.loc, "'.extern' function '" + f.name + "' cannot have a body");
    mod_->functions.push_back(std::move(f));
    mod_->order.push_back({TopLevel::Kind::Function, uint32_t(mod_->functions.size() - 1)});
    if (body) functionBody(mod_->functions.back(), body);
  }

  void funcDirective(PTXParser::FuncDirectiveContext *d, PerfDirectives &p) {
    auto ints = [&](const std::vector<TN *> &v, std::vector<uint32_t> &out, const char *what) {
      out.clear();
      if (v.size() > 3) error(loc(d), std::string(what) + " takes at most 3 values");
      for (auto *n : v)
        if (auto x = parseU32(n)) out.push_back(*x);
    };
    if (auto *c = dynamic_cast<PTXParser::MaxntidDirContext *>(d)) ints(c->INT(), p.maxntid, ".maxntid");
    else if (auto *c = dynamic_cast<PTXParser::ReqntidDirContext *>(d)) ints(c->INT(), p.reqntid, ".reqntid");
    else if (auto *c = dynamic_cast<PTXParser::ReqnctaperclusterDirContext *>(d))
      ints(c->INT(), p.reqnctapercluster, ".reqnctapercluster");
    else if (auto *c = dynamic_cast<PTXParser::MinnctapersmDirContext *>(d)) p.minnctapersm = parseU32(c->INT());
    else if (auto *c = dynamic_cast<PTXParser::MaxnregDirContext *>(d)) p.maxnreg = parseU32(c->INT());
    else if (auto *c = dynamic_cast<PTXParser::MaxclusterrankDirContext *>(d)) p.maxclusterrank = parseU32(c->INT());
    else if (dynamic_cast<PTXParser::ExplicitclusterDirContext *>(d)) p.explicitcluster = true;
    else if (dynamic_cast<PTXParser::NoreturnDirContext *>(d)) p.noreturn = true;
    else if (auto *c = dynamic_cast<PTXParser::FuncPragmaContext *>(d)) p.pragmas.push_back(pragmaText(c->STRING()));
  }

  void functionBody(Function &f, PTXParser::BlockContext *body) {
    fn_ = &f;
    blocks_.clear();
    regIds_.clear();
    fnRefs_.clear();
    fnParams_.clear();
    for (auto *list : {&f.results, &f.params})
      for (auto &p : *list) fnParams_.insert(p.name);
    blocks_.push_back(BlockScope{});
    curBlock_ = 0;
    // Register-space parameters (.func (.reg .b32 x)) are registers in the body.
    for (auto *list : {&f.results, &f.params}) {
      for (auto &p : *list) {
        if (p.space != Space::Reg) continue;
        RegDecl rd;
        rd.loc = p.loc;
        rd.type = p.type;
        rd.vecWidth = p.vecWidth;
        rd.name = p.name;
        f.regDecls.push_back(rd);
        blocks_[0].regs[std::string_view(p.name)] = uint32_t(f.regDecls.size() - 1);
      }
    }
    for (auto *ch : body->children)
      if (!isTerminal(ch)) statement(static_cast<PTXParser::StatementContext *>(ch));
    resolveFunctionRefs();
    fn_ = nullptr;
  }

  void pushStmt(Statement::Kind k, size_t idx) {
    fn_->body.push_back(Statement{k, uint32_t(idx)});
  }

  void statement(PTXParser::StatementContext *s) {
    // The grammar is LL(1): the first token tells which alternative was
    // taken, so no dynamic_cast is needed. A context that failed before an
    // alternative was chosen is the base class and carries `exception`.
    if (!s || s->exception) return;
    Token *first = s->getStart();
    size_t ft = first ? first->getType() : 0;
    if (ft == PTXParser::LBRACE) {
      auto *b = s;
      pushStmt(Statement::Kind::BlockBegin, 0);
      BlockScope nb;
      nb.parent = curBlock_;
      blocks_.push_back(std::move(nb));
      int saved = curBlock_;
      curBlock_ = int(blocks_.size() - 1);
      if (auto *blk = b->block())
        for (auto *ch : blk->children)
          if (!isTerminal(ch)) statement(static_cast<PTXParser::StatementContext *>(ch));
      curBlock_ = saved;
      pushStmt(Statement::Kind::BlockEnd, 0);
      return;
    }
    if (hasError(s)) return;
    switch (ft) {
    case PTXParser::IDENT:
    case PTXParser::AT:
      instrOrLabel(s);
      break;
    case PTXParser::KW_PRAGMA: {
      fn_->pragmas.push_back(pragmaText(s->STRING()));
      pushStmt(Statement::Kind::Pragma, fn_->pragmas.size() - 1);
      break;
    }
    case PTXParser::KW_LOC:
      locStmt(s);
      break;
    default:
      declStmt(s->varDecl());
      break;
    }
  }

  // Rule contexts the builder visits always have children (a context that
  // failed to match carries `exception` and is skipped before this is
  // used), so a non-empty child list is a cheap "not a terminal" answer;
  // the typeid comparison only runs for leaves.
  static bool isTerminal(PT *t) {
    if (!t->children.empty()) return false;
    const std::type_info &ti = typeid(*t);
    return ti == typeid(tree::TerminalNodeImpl) || ti == typeid(tree::ErrorNodeImpl);
  }

  void instrOrLabel(PTXParser::StatementContext *c) {
    // children: guard? IDENT (':' targetDirective? | modifiers operands ';')
    auto &ch = c->children;
    size_t i = 0;
    PTXParser::GuardContext *guard = nullptr;
    if (i < ch.size() && !isTerminal(ch[i])) guard = static_cast<PTXParser::GuardContext *>(ch[i++]);
    if (i >= ch.size()) return;
    Token *name = static_cast<TN *>(ch[i++])->getSymbol();
    if (i >= ch.size()) return;
    if (isTerminal(ch[i]) && static_cast<TN *>(ch[i])->getSymbol()->getType() == PTXParser::COLON) {
      if (guard) {
        error(loc(guard), "a label cannot have a guard predicate");
        return;
      }
      PTXParser::TargetDirectiveContext *td = nullptr;
      if (i + 1 < ch.size()) td = static_cast<PTXParser::TargetDirectiveContext *>(ch[i + 1]);
      labelStmt(name, td);
      return;
    }
    instruction(guard, name, c, i);
  }

  void defineLocalSym(std::string_view name, SourceLoc l, const char *what) {
    auto &syms = blocks_[curBlock_].syms;
    auto [it, ins] = syms.try_emplace(std::string(name), l);
    if (!ins) {
      error(l, "redefinition of " + std::string(what) + " '" + std::string(name) + "'");
      return;
    }
    if (blocks_[curBlock_].regs.count(name))
      error(l, "redefinition of '" + std::string(name) + "' (already declared as a register)");
  }

  void labelStmt(Token *nameTok, PTXParser::TargetDirectiveContext *td) {
    auto name = text(nameTok);
    SourceLoc l = loc(nameTok);
    if (!td) {
      defineLocalSym(name, l, "label");
      Label lab;
      lab.loc = l;
      lab.name = std::string(name);
      fn_->labels.push_back(std::move(lab));
      pushStmt(Statement::Kind::Label, fn_->labels.size() - 1);
      return;
    }
    TargetList tl;
    tl.loc = l;
    tl.name = std::string(name);
    if (auto *p = dynamic_cast<PTXParser::CallPrototypeContext *>(td)) {
      tl.kind = TargetList::Kind::CallPrototype;
      auto lists = p->paramList();
      if (lists.size() == 2) {
        tl.results = paramList(lists[0]);
        tl.params = paramList(lists[1]);
      } else if (lists.size() == 1) {
        tl.params = paramList(lists[0]);
      }
      if (text(p->IDENT()) != "_")
        error(loc(p->IDENT()), "the function name in a .callprototype must be '_'");
      tl.noreturn = p->KW_NORETURN() != nullptr;
    } else if (auto *b = dynamic_cast<PTXParser::BranchTargetsContext *>(td)) {
      tl.kind = TargetList::Kind::BranchTargets;
      for (auto *id : b->IDENT()) {
        tl.targets.emplace_back(text(id));
        fnRefs_.push_back({text(id), loc(id), curBlock_});
      }
    } else if (auto *ct = dynamic_cast<PTXParser::CallTargetsContext *>(td)) {
      tl.kind = TargetList::Kind::CallTargets;
      for (auto *id : ct->IDENT()) {
        tl.targets.emplace_back(text(id));
        moduleRefs_.emplace_back(std::string(text(id)), loc(id));
      }
    }
    defineLocalSym(name, l, "target list");
    fn_->targetLists.push_back(std::move(tl));
    pushStmt(Statement::Kind::TargetList, fn_->targetLists.size() - 1);
  }

  void declStmt(PTXParser::VarDeclContext *v) {
    Token *spTok = v->stateSpace() ? v->stateSpace()->getStart() : nullptr;
    Space sp = spTok ? spaceOfKw(spTok->getType()) : Space::None;
    if (sp != Space::Reg) {
      std::vector<Variable> vars;
      varDecl(v, Linkage::None, vars, false);
      for (auto &var : vars) {
        if (sp == Space::Global) {
          error(var.loc, "'.global' variables cannot be declared inside a function");
          continue;
        }
        defineLocalSym(var.name, var.loc, "variable");
        fn_->locals.push_back(std::move(var));
        pushStmt(Statement::Kind::VarDecl, fn_->locals.size() - 1);
      }
      return;
    }
    DeclAttrs a = declAttrs(v->declAttr());
    if (!a.ok) return;
    if (a.type == Type::None) {
      error(loc(v), "register declaration has no type");
      return;
    }
    if (a.align || a.ptr || a.managed) {
      error(loc(v), "invalid attribute on a .reg declaration");
      return;
    }
    for (auto *d : v->declarator()) {
      RegDecl rd;
      rd.loc = loc(d);
      rd.type = a.type;
      rd.vecWidth = a.vecWidth;
      auto name = text(d->getStart());
      rd.name = std::string(name);
      if (!d->arraySpec().empty() || d->initializer()) {
        error(rd.loc, "registers cannot be arrays or have initializers");
        continue;
      }
      auto &scope = blocks_[curBlock_];
      if (d->LT()) {
        auto n = parseU32(d->INT());
        if (!n) continue;
        rd.count = *n;
        if (rd.count == 0) { error(loc(d->INT()), "register range count must be positive"); continue; }
        if (!scope.ranges.try_emplace(name, uint32_t(fn_->regDecls.size())).second) {
          error(rd.loc, "redefinition of register range '" + rd.name + "<>'");
          continue;
        }
      } else {
        if (!scope.regs.try_emplace(name, uint32_t(fn_->regDecls.size())).second) {
          error(rd.loc, "redefinition of register '" + rd.name + "'");
          continue;
        }
      }
      fn_->regDecls.push_back(std::move(rd));
      pushStmt(Statement::Kind::RegDecl, fn_->regDecls.size() - 1);
    }
  }

  void locStmt(PTXParser::StatementContext *c) {
    LocDirective ld;
    ld.loc = loc(c);
    auto ints = c->INT();
    if (ints.size() != 3) return;
    auto a = parseU32(ints[0]), b = parseU32(ints[1]), cc = parseU32(ints[2]);
    if (!a || !b || !cc) return;
    ld.file = *a;
    ld.line = *b;
    ld.col = *cc;
    for (auto *attr : c->locAttr()) {
      ld.extra += ", ";
      bool first = true;
      for (auto *ch : attr->children) {
        Token *t = tokOf(ch);
        auto tt = text(t);
        bool op = t && (t->getType() == PTXParser::PLUS || t->getType() == PTXParser::MINUS);
        if (!first && !op && !(ld.extra.back() == '+' || ld.extra.back() == '-')) ld.extra += ' ';
        ld.extra += tt;
        first = false;
      }
      auto key = text(attr->IDENT(0));
      if (key != "function_name" && key != "inlined_at")
        error(loc(attr), "unknown .loc attribute '" + std::string(key) + "'");
      else if ((key == "function_name") != (attr->INT().size() <= 1))
        error(loc(attr), "malformed .loc attribute '" + std::string(key) + "'");
    }
    fn_->locs.push_back(std::move(ld));
    pushStmt(Statement::Kind::Loc, fn_->locs.size() - 1);
  }

  // --------------------------------------------------------- registers --
  // Looks a register name up through the block chain. Returns the RegId.
  std::optional<RegId> lookupReg(std::string_view name) {
    for (int b = curBlock_; b >= 0; b = blocks_[b].parent) {
      auto &sc = blocks_[b];
      if (!sc.regs.empty()) {
        auto it = sc.regs.find(name);
        if (it != sc.regs.end()) return regIdFor(it->second, 0, name);
      }
      if (!sc.ranges.empty()) {
        // split trailing decimal digits: %r12 -> (%r, 12)
        size_t k = name.size();
        while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9') --k;
        if (k == name.size() || k == 0) continue;
        auto it = sc.ranges.find(name.substr(0, k));
        if (it == sc.ranges.end()) continue;
        auto digits = name.substr(k);
        if (digits.size() > 1 && digits[0] == '0') continue; // %r01 is not in %r<N>
        uint64_t n = 0;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec != std::errc()) continue;
        if (n >= fn_->regDecls[it->second].count) continue;
        return regIdFor(it->second, uint32_t(n) + 1, name);
      }
    }
    return std::nullopt;
  }

  RegId regIdFor(uint32_t declIdx, uint32_t numPlus1, std::string_view name) {
    uint64_t key = (uint64_t(declIdx) << 32) | numPlus1;
    auto [it, ins] = regIds_.try_emplace(key, RegId(fn_->regs.size()));
    if (ins) {
      Register r;
      r.name = std::string(name);
      r.type = fn_->regDecls[declIdx].type;
      r.vecWidth = fn_->regDecls[declIdx].vecWidth;
      r.declIndex = declIdx;
      fn_->regs.push_back(std::move(r));
    }
    return it->second;
  }

  // --------------------------------------------------------- operands --
  // REGISTER token -> Reg or SReg operand (error if undeclared).
  bool registerOperand(Token *t, Operand &op) {
    auto full = text(t);
    op.loc = loc(t);
    op.name = std::string(full);
    auto dot = full.find('.');
    std::string_view base = full.substr(0, dot);
    std::string_view comp = dot == std::string_view::npos ? std::string_view() : full.substr(dot + 1);
    if (comp.empty()) {
      if (auto id = lookupReg(base)) {
        op.kind = Operand::Kind::Reg;
        op.reg = *id;
        return true;
      }
    } else if (auto id = lookupReg(base)) {
      // Video instruction byte/half selectors: .b<1-4 digits 0-7>, .h<1-4 digits 0-3>.
      bool half = comp[0] == 'h';
      uint8_t d[4];
      unsigned n = 0;
      bool ok = (comp[0] == 'b' || half) && comp.size() >= 2 && comp.size() <= 5;
      for (size_t k = 1; ok && k < comp.size(); ++k) {
        char ch = comp[k];
        ok = ch >= '0' && ch <= (half ? '3' : '7');
        if (ok) d[n++] = uint8_t(ch - '0');
      }
      if (ok) {
        op.kind = Operand::Kind::Reg;
        op.reg = *id;
        op.vsel = VideoSel::encode(half, d, n);
        op.name = std::string(base);
        return true;
      }
      unsupported(op.loc, "register component selector '." + std::string(comp) +
                              "' is not supported (in '" + std::string(full) + "')");
      return false;
    }
    bool badComp = false;
    if (auto sr = lookupSReg(base, comp, badComp)) {
      op.kind = Operand::Kind::SReg;
      op.sreg = sr->first;
      op.sregIndex = sr->second;
      return true;
    }
    if (badComp) {
      error(op.loc, comp.empty() ? "special register '" + std::string(base) + "' needs a component (.x, .y or .z)"
                                 : "invalid component '." + std::string(comp) + "' for special register '" +
                                       std::string(base) + "'");
      return false;
    }
    error(op.loc, "use of undeclared register '" + std::string(full) + "'");
    return false;
  }

  // An atom (REGISTER | IDENT | INT | FLOAT) -> operand.
  bool atomOperand(Token *t, Operand &op) {
    if (!t) return false;
    op.loc = loc(t);
    switch (t->getType()) {
    case PTXParser::REGISTER:
      return registerOperand(t, op);
    case PTXParser::IDENT: {
      auto name = text(t);
      op.name = std::string(name);
      if (name == "_") { op.kind = Operand::Kind::Sink; return true; }
      if (name == "WARP_SZ") { // predefined: the CUDA warp size under every warp policy
        op.kind = Operand::Kind::Imm;
        op.imm = kWarpSz;
        op.warpSz = true;
        return true;
      }
      if (auto id = lookupReg(name)) {
        op.kind = Operand::Kind::Reg;
        op.reg = *id;
        return true;
      }
      op.kind = Operand::Kind::Sym;
      fnRefs_.push_back({name, op.loc, curBlock_});
      return true;
    }
    case PTXParser::INT: {
      auto v = parseInt(text(t), op.loc);
      if (!v) return false;
      op.kind = Operand::Kind::Imm;
      op.imm = int64_t(*v);
      return true;
    }
    case PTXParser::FLOAT: {
      auto v = parseFloat(text(t), op.loc);
      if (!v) return false;
      op.kind = Operand::Kind::FImm;
      op.imm = int64_t(v->first);
      op.fbits = v->second;
      return true;
    }
    default:
      return false;
    }
  }

  bool exprOperand(PTXParser::OperandContext *c, Operand &op, bool inAddress) {
    auto &ch = c->children;
    size_t i = 0;
    Token *prefix = nullptr;
    if (i < ch.size()) {
      if (Token *t = tokOf(ch[i]); t && (t->getType() == PTXParser::MINUS || t->getType() == PTXParser::BANG ||
                                         t->getType() == PTXParser::TILDE)) {
        prefix = t;
        ++i;
      }
    }
    if (i >= ch.size()) return false;
    if (!atomOperand(tokOf(ch[i++]), op)) return false;
    if (prefix) {
      op.loc = loc(prefix);
      op.warpSz = false; // -WARP_SZ / ~WARP_SZ: printed as the value
      int pt = prefix->getType();
      if (pt == PTXParser::BANG) {
        if (op.kind != Operand::Kind::Reg) {
          error(op.loc, "'!' applies only to predicate registers");
          return false;
        }
        op.negated = true;
      } else if (op.kind == Operand::Kind::Imm) {
        op.imm = pt == PTXParser::MINUS ? int64_t(0 - uint64_t(op.imm)) : ~op.imm;
      } else if (op.kind == Operand::Kind::FImm && pt == PTXParser::MINUS) {
        op.imm ^= int64_t(uint64_t(1) << (op.fbits - 1));
      } else if (op.kind == Operand::Kind::Reg && pt == PTXParser::MINUS && !inAddress) {
        op.minus = true; // vmad's -a / -b / -c; any other use is a Sema error
      } else {
        error(op.loc, "unary '" + std::string(text(prefix)) + "' applies only to constants");
        return false;
      }
    }
    // (+|-) '-'? atom ...
    while (i < ch.size()) {
      Token *t = tokOf(ch[i]);
      if (!t) return false;
      if (t->getType() == PTXParser::PIPE) {
        if (i + 1 >= ch.size()) return false;
        Operand second;
        if (!atomOperand(tokOf(ch[i + 1]), second)) return false;
        if (op.kind != Operand::Kind::Reg && op.kind != Operand::Kind::Sink) {
          error(op.loc, "'|' must join two registers");
          return false;
        }
        Operand pair;
        pair.kind = Operand::Kind::Pair;
        pair.loc = op.loc;
        pair.elems.push_back(std::move(op));
        pair.elems.push_back(std::move(second));
        op = std::move(pair);
        i += 2;
        continue;
      }
      bool minus = t->getType() == PTXParser::MINUS;
      ++i;
      if (i < ch.size()) {
        if (Token *t2 = tokOf(ch[i]); t2 && t2->getType() == PTXParser::MINUS) { minus = !minus; ++i; }
      }
      if (i >= ch.size()) return false;
      Token *at = tokOf(ch[i++]);
      if (!at || at->getType() != PTXParser::INT) {
        error(loc(at), "only integer constants may be added to an operand");
        return false;
      }
      auto v = parseInt(text(at), loc(at));
      if (!v) return false;
      int64_t d = minus ? int64_t(0 - *v) : int64_t(*v);
      switch (op.kind) {
      case Operand::Kind::Imm: op.imm = int64_t(uint64_t(op.imm) + uint64_t(d)); break;
      case Operand::Kind::Sym: op.offset += d; break;
      case Operand::Kind::Reg:
        if (!inAddress) {
          error(op.loc, "register plus offset is only allowed inside an address '[...]'");
          return false;
        }
        op.offset += d;
        break;
      default:
        error(op.loc, "invalid operand expression");
        return false;
      }
    }
    return true;
  }

  // The sub-operands of a vector / list / address operand: its non-terminal
  // children, iterated in place (no temporary list per operand).
  struct SubOperands {
    const std::vector<PT *> &ch;
    struct It {
      const std::vector<PT *> *ch;
      size_t i;
      void skip() { while (i < ch->size() && isTerminal((*ch)[i])) ++i; }
      PTXParser::OperandContext *operator*() const { return static_cast<PTXParser::OperandContext *>((*ch)[i]); }
      It &operator++() { ++i; skip(); return *this; }
      bool operator!=(const It &o) const { return i != o.i; }
    };
    It begin() const { It it{&ch, 0}; it.skip(); return it; }
    It end() const { return It{&ch, ch.size()}; }
    size_t size() const {
      size_t n = 0;
      for (auto *c : ch) n += !isTerminal(c);
      return n;
    }
  };
  static SubOperands operandsOf(PTXParser::OperandContext *c) { return SubOperands{c->children}; }

  bool operand(PTXParser::OperandContext *c, Operand &op) {
    if (!c || c->exception) return false;
    op.loc = loc(c);
    Token *first = c->getStart();
    size_t ft = first ? first->getType() : 0;
    if (ft != PTXParser::LBRACE && ft != PTXParser::LBRACK && ft != PTXParser::LPAREN) {
      if (!exprOperand(c, op, false)) return false;
      if (op.kind == Operand::Kind::Reg && op.offset) {
        error(op.loc, "register plus offset is only allowed inside an address '[...]'");
        return false;
      }
      return true;
    }
    if (ft == PTXParser::LBRACE) {
      auto *v = c;
      op.kind = Operand::Kind::Vec;
      auto subs = operandsOf(v);
      op.elems.reserve(subs.size());
      for (auto *sub : subs) {
        Operand e;
        if (!operand(sub, e)) return false;
        if (e.kind == Operand::Kind::Vec || e.kind == Operand::Kind::Addr || e.kind == Operand::Kind::List) {
          error(e.loc, "invalid vector element");
          return false;
        }
        op.elems.push_back(std::move(e));
      }
      return true;
    }
    if (ft == PTXParser::LPAREN) {
      auto *l = c;
      op.kind = Operand::Kind::List;
      auto subs = operandsOf(l);
      op.elems.reserve(subs.size());
      for (auto *sub : subs) {
        Operand e;
        if (!operand(sub, e)) return false;
        op.elems.push_back(std::move(e));
      }
      return true;
    }
    {
      auto *a = c;
      op.kind = Operand::Kind::Addr;
      auto subs = operandsOf(a);
      if (subs.size() == 1) {
        auto *e = *subs.begin();
        Token *sf = e ? e->getStart() : nullptr;
        size_t st = sf ? sf->getType() : 0;
        if (!e || e->exception || st == PTXParser::LBRACE || st == PTXParser::LBRACK ||
            st == PTXParser::LPAREN) {
          error(loc(e), "invalid address expression");
          return false;
        }
        Operand base;
        if (!exprOperand(e, base, true)) return false;
        switch (base.kind) {
        case Operand::Kind::Imm:
          op.offset = base.imm;
          return true;
        case Operand::Kind::Reg:
        case Operand::Kind::Sym:
          if (base.negated) { error(base.loc, "invalid address expression"); return false; }
          op.offset = base.offset;
          base.offset = 0;
          op.elems.push_back(std::move(base));
          return true;
        default:
          error(base.loc, "invalid address expression");
          return false;
        }
      }
      for (auto *sub : subs) {
        Operand e;
        if (!operand(sub, e)) return false;
        op.elems.push_back(std::move(e));
      }
      return true;
    }
    return false;
  }

  // The instruction's modifiers and operands are c->children[first..].
  void instruction(PTXParser::GuardContext *g, Token *opTok, PTXParser::StatementContext *c, size_t first) {
    Instruction in;
    in.loc = loc(g ? g->getStart() : opTok);
    if (g) {
      // guard: '@' '!'? (REGISTER | IDENT)
      Token *rt = g->children.empty() ? nullptr : tokOf(g->children.back());
      Guard gd;
      gd.loc = loc(g);
      gd.negated = g->children.size() == 3;
      gd.name = std::string(text(rt));
      auto id = lookupReg(gd.name);
      if (!id) {
        error(loc(rt), "use of undeclared register '" + gd.name + "'");
        return;
      }
      gd.reg = *id;
      in.guard = std::move(gd);
    }
    auto opName = text(opTok);
    SourceLoc opLoc = loc(opTok);
    auto op = opcodeFromName(opName);
    if (!op) {
      error(opLoc, "unknown instruction '" + std::string(opName) + "'");
      return;
    }
    in.op = *op;
    modLocs_.clear();
    // Most instructions have 1-4 modifiers and 1-4 operands: one allocation
    // each instead of growing 1, 2, 4.
    in.mods.reserve(4);
    in.operands.reserve(4);
    bool ok = true;
    for (size_t k = first; k < c->children.size(); ++k) {
      PT *ch = c->children[k];
      if (isTerminal(ch)) {
        Token *t = static_cast<TN *>(ch)->getSymbol();
        size_t tt = t->getType();
        if (tt == PTXParser::COMMA || tt == PTXParser::SEMI) continue;
        auto s = text(t);
        if (s.size() < 2) { ok = false; continue; }
        s.remove_prefix(1);
        Modifier mod;
        if (auto ty = typeFromName(s)) mod.type = *ty;
        else if (auto md = modFromName(s)) mod.mod = *md;
        else {
          error(loc(t), "unknown modifier '." + std::string(s) + "' on '" + std::string(opName) + "'");
          ok = false;
          continue;
        }
        in.mods.push_back(mod);
        modLocs_.push_back(loc(t));
        continue;
      }
      Operand x;
      if (!operand(static_cast<PTXParser::OperandContext *>(ch), x)) { ok = false; continue; }
      in.operands.push_back(std::move(x));
    }
    if (!ok) return;
    decodeInstruction(in);
    if (in_.semanticChecks) {
      if (in.guard && fn_->regs[in.guard->reg].type != Type::Pred)
        error(in.guard->loc, "guard '" + in.guard->name + "' is not a predicate register");
      checkInstruction(in, *fn_, modLocs_, diags_);
    }
    fn_->instrs.push_back(std::move(in));
    pushStmt(Statement::Kind::Instr, fn_->instrs.size() - 1);
  }

  // ------------------------------------------------------ resolution --
  void resolveFunctionRefs() {
    for (auto &r : fnRefs_) {
      bool found = false;
      for (int b = r.block; b >= 0 && !found; b = blocks_[b].parent)
        found = blocks_[b].syms.count(std::string(r.name)) != 0;
      if (found || fnParams_.count(r.name)) continue;
      moduleRefs_.emplace_back(std::string(r.name), r.loc);
    }
    fnRefs_.clear();
  }

  void resolveModuleRefs() {
    for (auto &[name, l] : moduleRefs_) {
      if (!modSyms_.count(name)) error(l, "use of undeclared identifier '" + name + "'");
    }
  }
};

} // namespace

std::unique_ptr<Module> buildModule(PTXParser::PtxModuleContext *tree, const BuildInput &in,
                                    DiagSink &diags) {
  Builder b(in, diags);
  return b.run(tree);
}

} // namespace ptx::detail
