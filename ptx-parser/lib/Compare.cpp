//===- Compare.cpp - structural equality of PTX modules -------------------===//
//
// structurallyEqual compares two modules field by field, ignoring source
// locations and spellings that only exist for diagnostics (Operand::name of
// registers, which is compared through Function::regs instead). It is the
// oracle of the round-trip property parse(print(parse(x))) == parse(x); on
// the first difference it reports a path such as
// `functions[3](_Z1kPf).instrs[17].operands[1].offset: 4 vs 8`.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include <sstream>

namespace ptx {
namespace {

class Cmp {
public:
  std::string why;

  bool module(const Module &a, const Module &b) {
    return eq("versionMajor", a.versionMajor, b.versionMajor) &&
           eq("versionMinor", a.versionMinor, b.versionMinor) && eq("target", a.target, b.target) &&
           eq("addressSize", a.addressSize, b.addressSize) &&
           list("globals", a.globals, b.globals, &Cmp::variable) &&
           list("functions", a.functions, b.functions, &Cmp::function) &&
           list("files", a.files, b.files, &Cmp::file) &&
           list("sections", a.sections, b.sections, &Cmp::section) &&
           eq("pragmas", a.pragmas, b.pragmas) && list("order", a.order, b.order, &Cmp::topLevel);
  }

private:
  std::vector<std::string> path_;

  std::string where(const std::string &field) const {
    std::string s;
    for (const auto &p : path_) s += p + ".";
    return s + field;
  }
  template <typename T> static std::string show(const T &v) {
    std::ostringstream os;
    if constexpr (std::is_enum_v<T>) os << int64_t(v);
    else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      os << "[";
      for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
      os << "]";
    } else if constexpr (std::is_same_v<T, std::vector<uint32_t>> || std::is_same_v<T, std::vector<uint64_t>>) {
      os << "[";
      for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
      os << "]";
    } else if constexpr (std::is_same_v<T, std::optional<uint32_t>> || std::is_same_v<T, std::optional<uint64_t>>) {
      if (v) os << *v; else os << "none";
    } else if constexpr (std::is_same_v<T, uint8_t>) os << int(v);
    else os << v;
    return os.str();
  }
  template <typename T> bool eq(const char *field, const T &a, const T &b) {
    if (a == b) return true;
    if (why.empty()) why = where(field) + ": " + show(a) + " vs " + show(b);
    return false;
  }
  template <typename T, typename F>
  bool list(const char *field, const std::vector<T> &a, const std::vector<T> &b, F f,
            const std::vector<std::string> *names = nullptr) {
    if (a.size() != b.size()) {
      why = where(field) + ".size: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
      return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
      std::string p = std::string(field) + "[" + std::to_string(i) + "]";
      if constexpr (std::is_same_v<T, Function>) p += "(" + a[i].name + ")";
      path_.push_back(p);
      bool ok = (this->*f)(a[i], b[i]);
      path_.pop_back();
      if (!ok) return false;
    }
    return true;
  }

  bool topLevel(const TopLevel &a, const TopLevel &b) {
    return eq("kind", a.kind, b.kind) && eq("index", a.index, b.index);
  }

  bool init(const InitExpr &a, const InitExpr &b) {
    return eq("kind", a.kind, b.kind) && eq("fbits", a.fbits, b.fbits) && eq("value", a.value, b.value) &&
           eq("offset", a.offset, b.offset) && eq("name", a.name, b.name) &&
           list("elems", a.elems, b.elems, &Cmp::init);
  }

  bool variable(const Variable &a, const Variable &b) {
    if (!(eq("name", a.name, b.name) && eq("linkage", a.linkage, b.linkage) && eq("space", a.space, b.space) &&
          eq("align", a.align, b.align) && eq("type", a.type, b.type) && eq("vecWidth", a.vecWidth, b.vecWidth) &&
          eq("dims", a.dims, b.dims) && eq("managed", a.managed, b.managed) && eq("ptr", a.ptr, b.ptr) &&
          eq("ptrSpace", a.ptrSpace, b.ptrSpace) && eq("ptrAlign", a.ptrAlign, b.ptrAlign)))
      return false;
    if (a.init.has_value() != b.init.has_value()) return eq("init.present", a.init.has_value(), b.init.has_value());
    if (a.init) {
      path_.push_back("init");
      bool ok = init(*a.init, *b.init);
      path_.pop_back();
      return ok;
    }
    return true;
  }

  bool operand(const Operand &a, const Operand &b) {
    if (!(eq("kind", a.kind, b.kind) && eq("negated", a.negated, b.negated) && eq("minus", a.minus, b.minus)))
      return false;
    switch (a.kind) {
    case Operand::Kind::Reg:
      return eq("reg", a.reg, b.reg) && eq("offset", a.offset, b.offset) && eq("vsel", a.vsel, b.vsel);
    case Operand::Kind::SReg: return eq("sreg", a.sreg, b.sreg) && eq("sregIndex", a.sregIndex, b.sregIndex);
    case Operand::Kind::Imm: return eq("imm", a.imm, b.imm);
    case Operand::Kind::FImm: return eq("imm", a.imm, b.imm) && eq("fbits", a.fbits, b.fbits);
    case Operand::Kind::Sym: return eq("name", a.name, b.name) && eq("offset", a.offset, b.offset);
    case Operand::Kind::Sink: return true;
    default: return eq("offset", a.offset, b.offset) && list("elems", a.elems, b.elems, &Cmp::operand);
    }
  }

  bool instr(const Instruction &a, const Instruction &b) {
    if (!(eq("op", a.op, b.op) && eq("guard.present", a.guard.has_value(), b.guard.has_value())))
      return false;
    if (a.guard && !(eq("guard.reg", a.guard->reg, b.guard->reg) &&
                     eq("guard.negated", a.guard->negated, b.guard->negated)))
      return false;
    if (a.mods.size() != b.mods.size()) return eq("mods.size", a.mods.size(), b.mods.size());
    for (size_t i = 0; i < a.mods.size(); ++i) {
      if (!(a.mods[i] == b.mods[i])) {
        why = where("mods[" + std::to_string(i) + "]") + " differ";
        return false;
      }
    }
    return list("operands", a.operands, b.operands, &Cmp::operand) &&
           eq("space", a.space, b.space) && eq("vecWidth", a.vecWidth, b.vecWidth) &&
           eq("types.size", a.types.size(), b.types.size());
  }

  bool regDecl(const RegDecl &a, const RegDecl &b) {
    return eq("name", a.name, b.name) && eq("type", a.type, b.type) && eq("vecWidth", a.vecWidth, b.vecWidth) &&
           eq("count", a.count, b.count);
  }
  bool reg(const Register &a, const Register &b) {
    return eq("name", a.name, b.name) && eq("type", a.type, b.type) && eq("vecWidth", a.vecWidth, b.vecWidth) &&
           eq("declIndex", a.declIndex, b.declIndex);
  }
  bool label(const Label &a, const Label &b) { return eq("name", a.name, b.name); }
  bool locDir(const LocDirective &a, const LocDirective &b) {
    return eq("file", a.file, b.file) && eq("line", a.line, b.line) && eq("col", a.col, b.col) &&
           eq("extra", a.extra, b.extra);
  }
  bool targetList(const TargetList &a, const TargetList &b) {
    return eq("kind", a.kind, b.kind) && eq("name", a.name, b.name) &&
           list("results", a.results, b.results, &Cmp::variable) &&
           list("params", a.params, b.params, &Cmp::variable) && eq("noreturn", a.noreturn, b.noreturn) &&
           eq("targets", a.targets, b.targets);
  }
  bool stmt(const Statement &a, const Statement &b) {
    return eq("kind", a.kind, b.kind) && eq("index", a.index, b.index);
  }

  bool function(const Function &a, const Function &b) {
    const auto &p = a.perf, &q = b.perf;
    return eq("name", a.name, b.name) && eq("isEntry", a.isEntry, b.isEntry) &&
           eq("linkage", a.linkage, b.linkage) && list("results", a.results, b.results, &Cmp::variable) &&
           list("params", a.params, b.params, &Cmp::variable) && eq("perf.maxntid", p.maxntid, q.maxntid) &&
           eq("perf.reqntid", p.reqntid, q.reqntid) &&
           eq("perf.reqnctapercluster", p.reqnctapercluster, q.reqnctapercluster) &&
           eq("perf.minnctapersm", p.minnctapersm, q.minnctapersm) && eq("perf.maxnreg", p.maxnreg, q.maxnreg) &&
           eq("perf.maxclusterrank", p.maxclusterrank, q.maxclusterrank) &&
           eq("perf.explicitcluster", p.explicitcluster, q.explicitcluster) &&
           eq("perf.noreturn", p.noreturn, q.noreturn) && eq("perf.pragmas", p.pragmas, q.pragmas) &&
           eq("hasBody", a.hasBody, b.hasBody) && list("body", a.body, b.body, &Cmp::stmt) &&
           list("instrs", a.instrs, b.instrs, &Cmp::instr) && list("labels", a.labels, b.labels, &Cmp::label) &&
           list("regDecls", a.regDecls, b.regDecls, &Cmp::regDecl) &&
           list("locals", a.locals, b.locals, &Cmp::variable) && eq("pragmas", a.pragmas, b.pragmas) &&
           list("locs", a.locs, b.locs, &Cmp::locDir) &&
           list("targetLists", a.targetLists, b.targetLists, &Cmp::targetList) &&
           list("regs", a.regs, b.regs, &Cmp::reg);
  }

  bool file(const FileDirective &a, const FileDirective &b) {
    return eq("index", a.index, b.index) && eq("path", a.path, b.path) &&
           eq("timestamp", a.timestamp, b.timestamp) && eq("size", a.size, b.size);
  }
  bool sline(const SectionLine &a, const SectionLine &b) {
    return eq("type", a.type, b.type) && eq("raw", a.raw, b.raw) &&
           list("values", a.values, b.values, &Cmp::init);
  }
  bool section(const Section &a, const Section &b) {
    return eq("name", a.name, b.name) && list("lines", a.lines, b.lines, &Cmp::sline);
  }
};

} // namespace

bool structurallyEqual(const Module &a, const Module &b, std::string *why) {
  Cmp c;
  bool ok = c.module(a, b);
  if (!ok && why) *why = c.why.empty() ? "modules differ" : c.why;
  return ok;
}

} // namespace ptx
