//===- Printer.cpp - typed IR -> PTX text ---------------------------------===//
//
// Prints a Module as PTX that ptxas accepts for the module's own .target.
// Everything is printed from the IR (never from saved source text), in the
// declaration order recorded in Module::order and Function::body, with
// modifiers in their source order so the output re-parses to a structurally
// equal module. Float immediates are printed as exact 0f/0d bit patterns.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include <cinttypes>
#include <cstdio>

namespace ptx {
namespace {

std::string_view sregBase(SReg s) {
  switch (s) {
  case SReg::Tid: return "%tid"; case SReg::Ntid: return "%ntid"; case SReg::Laneid: return "%laneid";
  case SReg::Warpid: return "%warpid"; case SReg::Nwarpid: return "%nwarpid";
  case SReg::Ctaid: return "%ctaid"; case SReg::Nctaid: return "%nctaid"; case SReg::Smid: return "%smid";
  case SReg::Nsmid: return "%nsmid"; case SReg::Gridid: return "%gridid";
  case SReg::IsExplicitCluster: return "%is_explicit_cluster"; case SReg::Clusterid: return "%clusterid";
  case SReg::Nclusterid: return "%nclusterid"; case SReg::ClusterCtaid: return "%cluster_ctaid";
  case SReg::ClusterNctaid: return "%cluster_nctaid"; case SReg::ClusterCtarank: return "%cluster_ctarank";
  case SReg::ClusterNctarank: return "%cluster_nctarank"; case SReg::LanemaskEq: return "%lanemask_eq";
  case SReg::LanemaskLe: return "%lanemask_le"; case SReg::LanemaskLt: return "%lanemask_lt";
  case SReg::LanemaskGe: return "%lanemask_ge"; case SReg::LanemaskGt: return "%lanemask_gt";
  case SReg::Clock: return "%clock"; case SReg::ClockHi: return "%clock_hi"; case SReg::Clock64: return "%clock64";
  case SReg::Pm: return "%pm"; case SReg::Pm64: return "%pm"; case SReg::Envreg: return "%envreg";
  case SReg::Globaltimer: return "%globaltimer"; case SReg::GlobaltimerLo: return "%globaltimer_lo";
  case SReg::GlobaltimerHi: return "%globaltimer_hi"; case SReg::ReservedSmemOffset: return "%reserved_smem_offset";
  case SReg::TotalSmemSize: return "%total_smem_size"; case SReg::AggrSmemSize: return "%aggr_smem_size";
  case SReg::DynamicSmemSize: return "%dynamic_smem_size"; case SReg::CurrentGraphExec: return "%current_graph_exec";
  }
  return "%invalid_sreg";
}

std::string sregName(SReg s, uint8_t idx) {
  std::string b(sregBase(s));
  switch (s) {
  case SReg::Tid: case SReg::Ntid: case SReg::Ctaid: case SReg::Nctaid: case SReg::Clusterid:
  case SReg::Nclusterid: case SReg::ClusterCtaid: case SReg::ClusterNctaid:
    return b + (idx == 0 ? ".x" : idx == 1 ? ".y" : ".z");
  case SReg::Pm: return b + std::to_string(idx);
  case SReg::Pm64: return b + std::to_string(idx) + "_64";
  case SReg::Envreg: return b + std::to_string(idx);
  case SReg::ReservedSmemOffset: {
    static constexpr const char *k[] = {"_begin", "_end", "_cap", "_0", "_1"};
    return b + (idx < 5 ? k[idx] : "_begin");
  }
  default: return b;
  }
}

std::string hexFloat(int64_t bits, uint8_t fbits) {
  char buf[32];
  if (fbits == 32) std::snprintf(buf, sizeof buf, "0f%08" PRIX32, uint32_t(bits));
  else std::snprintf(buf, sizeof buf, "0d%016" PRIX64, uint64_t(bits));
  return buf;
}

std::string withOffset(std::string s, int64_t off) {
  if (off > 0) s += "+" + std::to_string(off);
  else if (off < 0) s += std::to_string(off);
  return s;
}

class Printer {
public:
  explicit Printer(const Module &m) : m_(m) {}

  std::string run() {
    out_.reserve(1 << 16);
    if (m_.versionMajor || m_.versionMinor)
      out_ += ".version " + std::to_string(m_.versionMajor) + "." + std::to_string(m_.versionMinor) + "\n";
    if (!m_.target.empty()) {
      out_ += ".target ";
      for (size_t i = 0; i < m_.target.size(); ++i) out_ += (i ? ", " : "") + m_.target[i];
      out_ += "\n";
    }
    out_ += ".address_size " + std::to_string(m_.addressSize) + "\n\n";
    for (const auto &t : m_.order) {
      switch (t.kind) {
      case TopLevel::Kind::Variable: variable(m_.globals.at(t.index), true); out_ += ";\n"; break;
      case TopLevel::Kind::Function: function(m_.functions.at(t.index)); break;
      case TopLevel::Kind::File: file(m_.files.at(t.index)); break;
      case TopLevel::Kind::Section: section(m_.sections.at(t.index)); break;
      case TopLevel::Kind::Pragma: out_ += ".pragma \"" + m_.pragmas.at(t.index) + "\";\n"; break;
      }
    }
    return std::move(out_);
  }

private:
  const Module &m_;
  std::string out_;
  const Function *fn_ = nullptr;

  static const char *linkage(Linkage l) {
    switch (l) {
    case Linkage::Visible: return ".visible ";
    case Linkage::Extern: return ".extern ";
    case Linkage::Weak: return ".weak ";
    case Linkage::Common: return ".common ";
    default: return "";
    }
  }

  void variable(const Variable &v, bool withLinkage) {
    if (withLinkage) out_ += linkage(v.linkage);
    out_ += "." + std::string(spaceName(v.space));
    if (v.managed) out_ += " .attribute(.managed)";
    if (v.align) out_ += " .align " + std::to_string(v.align);
    if (v.vecWidth) out_ += " .v" + std::to_string(v.vecWidth);
    out_ += " ." + std::string(typeName(v.type));
    if (v.ptr) {
      out_ += " .ptr";
      if (v.ptrSpace != Space::None) out_ += " ." + std::string(spaceName(v.ptrSpace));
      if (v.ptrAlign) out_ += " .align " + std::to_string(v.ptrAlign);
    }
    out_ += " " + v.name;
    for (auto d : v.dims) out_ += d ? "[" + std::to_string(d) + "]" : std::string("[]");
    if (v.init) {
      out_ += " = ";
      init(*v.init);
    }
  }

  void init(const InitExpr &e) {
    switch (e.kind) {
    case InitExpr::Kind::Int: out_ += std::to_string(e.value); break;
    case InitExpr::Kind::Float: out_ += hexFloat(e.value, e.fbits); break;
    case InitExpr::Kind::Sym: out_ += withOffset(e.name, e.offset); break;
    case InitExpr::Kind::GenericSym: out_ += withOffset("generic(" + e.name + ")", e.offset); break;
    case InitExpr::Kind::List:
      out_ += "{";
      for (size_t i = 0; i < e.elems.size(); ++i) {
        if (i) out_ += ", ";
        init(e.elems[i]);
      }
      out_ += "}";
      break;
    }
  }

  void paramList(const std::vector<Variable> &ps, bool multiline) {
    out_ += "(";
    for (size_t i = 0; i < ps.size(); ++i) {
      out_ += i ? (multiline ? ",\n\t" : ", ") : (multiline ? "\n\t" : "");
      variable(ps[i], false);
    }
    if (multiline && !ps.empty()) out_ += "\n";
    out_ += ")";
  }

  static void ints(std::string &o, const char *dir, const std::vector<uint32_t> &v) {
    if (v.empty()) return;
    o += dir;
    for (size_t i = 0; i < v.size(); ++i) o += (i ? ", " : " ") + std::to_string(v[i]);
    o += "\n";
  }

  void function(const Function &f) {
    fn_ = &f;
    out_ += linkage(f.linkage);
    out_ += f.isEntry ? ".entry " : ".func ";
    if (!f.results.empty()) {
      paramList(f.results, false);
      out_ += " ";
    }
    out_ += f.name;
    paramList(f.params, true);
    out_ += "\n";
    const auto &p = f.perf;
    ints(out_, ".maxntid", p.maxntid);
    ints(out_, ".reqntid", p.reqntid);
    ints(out_, ".reqnctapercluster", p.reqnctapercluster);
    if (p.minnctapersm) out_ += ".minnctapersm " + std::to_string(*p.minnctapersm) + "\n";
    if (p.maxnreg) out_ += ".maxnreg " + std::to_string(*p.maxnreg) + "\n";
    if (p.maxclusterrank) out_ += ".maxclusterrank " + std::to_string(*p.maxclusterrank) + "\n";
    if (p.explicitcluster) out_ += ".explicitcluster\n";
    if (p.noreturn) out_ += ".noreturn\n";
    for (const auto &pr : p.pragmas) out_ += ".pragma \"" + pr + "\";\n";
    if (!f.hasBody) {
      out_ += ";\n";
      fn_ = nullptr;
      return;
    }
    out_ += "{\n";
    int depth = 1;
    for (const auto &s : f.body) {
      if (s.kind == Statement::Kind::BlockEnd) --depth;
      if (s.kind != Statement::Kind::Label) out_.append(size_t(std::max(depth, 0)), '\t');
      switch (s.kind) {
      case Statement::Kind::Instr: instruction(f.instrs.at(s.index)); break;
      case Statement::Kind::Label: out_ += f.labels.at(s.index).name + ":"; break;
      case Statement::Kind::RegDecl: regDecl(f.regDecls.at(s.index)); break;
      case Statement::Kind::VarDecl: variable(f.locals.at(s.index), false); out_ += ";"; break;
      case Statement::Kind::Pragma: out_ += ".pragma \"" + f.pragmas.at(s.index) + "\";"; break;
      case Statement::Kind::BlockBegin: out_ += "{"; ++depth; break;
      case Statement::Kind::BlockEnd: out_ += "}"; break;
      case Statement::Kind::Loc: loc(f.locs.at(s.index)); break;
      case Statement::Kind::TargetList: targetList(f.targetLists.at(s.index)); break;
      }
      out_ += "\n";
    }
    out_ += "}\n";
    fn_ = nullptr;
  }

  void regDecl(const RegDecl &r) {
    out_ += ".reg";
    if (r.vecWidth) out_ += " .v" + std::to_string(r.vecWidth);
    out_ += " ." + std::string(typeName(r.type)) + " " + r.name;
    if (r.count) out_ += "<" + std::to_string(r.count) + ">";
    out_ += ";";
  }

  void loc(const LocDirective &l) {
    out_ += ".loc " + std::to_string(l.file) + " " + std::to_string(l.line) + " " + std::to_string(l.col);
    out_ += l.extra;
  }

  void targetList(const TargetList &t) {
    out_ += t.name + ": ";
    switch (t.kind) {
    case TargetList::Kind::CallPrototype:
      out_ += ".callprototype ";
      if (!t.results.empty()) {
        paramList(t.results, false);
        out_ += " ";
      }
      out_ += "_ ";
      paramList(t.params, false);
      if (t.noreturn) out_ += " .noreturn";
      break;
    case TargetList::Kind::BranchTargets:
    case TargetList::Kind::CallTargets:
      out_ += t.kind == TargetList::Kind::BranchTargets ? ".branchtargets " : ".calltargets ";
      for (size_t i = 0; i < t.targets.size(); ++i) out_ += (i ? ", " : "") + t.targets[i];
      break;
    }
    out_ += ";";
  }

  void instruction(const Instruction &in) {
    if (in.guard) {
      out_ += in.guard->negated ? "@!" : "@";
      out_ += regName(in.guard->reg, in.guard->name);
      out_ += " ";
    }
    out_ += opcodeName(in.op);
    for (auto m : in.mods) {
      out_ += ".";
      out_ += m.isType() ? typeName(m.type) : modName(m.mod);
    }
    for (size_t i = 0; i < in.operands.size(); ++i) {
      out_ += i ? ", " : " ";
      operand(in.operands[i]);
    }
    out_ += ";";
  }

  std::string regName(RegId r, const std::string &fallback) const {
    if (fn_ && r < fn_->regs.size()) return fn_->regs[r].name;
    return fallback;
  }

  void operand(const Operand &op) {
    if (op.negated) out_ += "!";
    if (op.minus) out_ += "-";
    switch (op.kind) {
    case Operand::Kind::Reg:
      out_ += regName(op.reg, op.name);
      if (op.vsel) {
        VideoSel v = VideoSel::decode(op.vsel);
        out_ += v.half ? ".h" : ".b";
        for (unsigned i = 0; i < v.count; ++i) out_ += char('0' + v.digit[i]);
      }
      break;
    case Operand::Kind::SReg: out_ += sregName(op.sreg, op.sregIndex); break;
    case Operand::Kind::Imm:
      if (op.warpSz) out_ += withOffset("WARP_SZ", op.imm - kWarpSz);
      else out_ += std::to_string(op.imm);
      break;
    case Operand::Kind::FImm: out_ += hexFloat(op.imm, op.fbits); break;
    case Operand::Kind::Sym: out_ += withOffset(op.name, op.offset); break;
    case Operand::Kind::Sink: out_ += "_"; break;
    case Operand::Kind::Addr:
      out_ += "[";
      if (op.elems.empty()) {
        out_ += std::to_string(op.offset);
      } else if (op.elems.size() == 1) {
        operand(op.elems[0]);
        if (op.offset) out_ += "+" + std::to_string(op.offset);
      } else {
        for (size_t i = 0; i < op.elems.size(); ++i) {
          if (i) out_ += ", ";
          operand(op.elems[i]);
        }
      }
      out_ += "]";
      break;
    case Operand::Kind::Vec:
    case Operand::Kind::List:
      out_ += op.kind == Operand::Kind::Vec ? "{" : "(";
      for (size_t i = 0; i < op.elems.size(); ++i) {
        if (i) out_ += ", ";
        operand(op.elems[i]);
      }
      out_ += op.kind == Operand::Kind::Vec ? "}" : ")";
      break;
    case Operand::Kind::Pair:
      for (size_t i = 0; i < op.elems.size(); ++i) {
        if (i) out_ += "|";
        operand(op.elems[i]);
      }
      break;
    }
  }

  void file(const FileDirective &f) {
    out_ += ".file " + std::to_string(f.index) + " \"" + f.path + "\"";
    if (f.timestamp && f.size)
      out_ += ", " + std::to_string(*f.timestamp) + ", " + std::to_string(*f.size);
    out_ += "\n";
  }

  void section(const Section &s) {
    out_ += ".section " + s.name + "\n{\n";
    for (const auto &l : s.lines) {
      if (!l.raw.empty()) {
        out_ += l.raw + "\n";
        continue;
      }
      out_ += "." + std::string(typeName(l.type)) + " ";
      for (size_t i = 0; i < l.values.size(); ++i) {
        if (i) out_ += ",";
        init(l.values[i]);
      }
      out_ += "\n";
    }
    out_ += "}\n";
  }
};

} // namespace

std::string print(const Module &m) { return Printer(m).run(); }

} // namespace ptx
