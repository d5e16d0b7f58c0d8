//===- Sema.cpp - decoding and checking of instructions -------------------===//
//
// decodeInstruction fills the decoded view of an instruction (type list,
// state space, vector width) from its source-ordered modifiers.
// checkInstruction validates one instruction against the instruction table
// (InstrTable.cpp) and PTX's operand type rules:
//   * every modifier is allowed for the opcode, appears once, and exclusive
//     categories (rounding, comparison, space, semantics, scope, vector, ...)
//     have at most one member; .approx/.full exclude rounding modifiers;
//   * the number of type modifiers and operands is within the opcode's bounds;
//   * register operands agree with the instruction type, following the ISA's
//     "Operand type checking" rules: a .bN instruction type accepts any
//     register of N bits, .sN/.uN accept integer or bit registers of N bits,
//     .fN accepts float or bit registers of N bits, predicates only .pred
//     registers; ld/st/cvt use the relaxed rule (register at least as wide).
// Only shapes that are certain are checked, so valid nvcc output never trips
// a check (the corpus tests enforce that).
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

namespace ptx::detail {
namespace {

Space spaceOfMod(Mod m) {
  switch (m) {
  case Mod::Global: return Space::Global;
  case Mod::Shared: case Mod::SharedCta: return Space::Shared;
  case Mod::SharedCluster: return Space::SharedCluster;
  case Mod::Local: return Space::Local;
  case Mod::Const: return Space::Const;
  case Mod::Param: case Mod::ParamEntry: case Mod::ParamFunc: return Space::Param;
  case Mod::Tex: return Space::Tex;
  default: return Space::None;
  }
}

bool isMemoryOp(Opcode op) {
  switch (op) {
  case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Atom: case Opcode::Red:
  case Opcode::Prefetch: case Opcode::Prefetchu:
    return true;
  default:
    return false;
  }
}

std::string dotted(Modifier m) {
  return "." + std::string(m.isType() ? typeName(m.type) : modName(m.mod));
}

std::string instrName(const Instruction &in) {
  std::string s(opcodeName(in.op));
  for (auto m : in.mods) s += dotted(m);
  return s;
}

enum class Need : uint8_t { None, Type0, Type1, Wide0, Pred, Int32, Relaxed0, Relaxed1 };

class Checker {
public:
  Checker(const Instruction &in, const Function &fn, const std::vector<SourceLoc> &modLocs,
          DiagSink &d)
      : in_(in), fn_(fn), modLocs_(modLocs), diags_(d) {}

  void run() {
    checkVideoSelectors();
    checkNegatedRegisters();
    const InstrRule &rule = instrRule(in_.op);
    checkModifiers(rule);
    checkCounts(rule);
    if (!countsOk_) return;
    checkOperandTypes();
  }

private:
  // Byte/half selectors (%r.b3210, %r.h10) belong to the video instructions only.
  void checkVideoSelectors() {
    bool video = in_.op >= Opcode::Vadd && in_.op <= Opcode::Vset4;
    for (const Operand &o : in_.operands)
      if (o.vsel && !video)
        diags_.error(o.loc, "register selector on '" + std::string(opcodeName(in_.op)) +
                                "': byte/half selectors are only valid on video instructions");
  }

  // -%r: only vmad negates register operands (a, b, c; not with .po, which adds 1 itself).
  void checkNegatedRegisters() {
    for (size_t i = 0; i < in_.operands.size(); ++i) {
      const Operand &o = in_.operands[i];
      if (!o.minus) continue;
      if (in_.op != Opcode::Vmad || i == 0)
        diags_.error(o.loc, "unary '-' applies only to constants (and to the a, b, c operands of vmad)");
      else if (in_.has(Mod::Po))
        diags_.error(o.loc, "'vmad.po' does not take negated operands");
    }
  }

  const Instruction &in_;
  const Function &fn_;
  const std::vector<SourceLoc> &modLocs_;
  DiagSink &diags_;
  bool countsOk_ = true;

  SourceLoc modLoc(size_t i) const { return i < modLocs_.size() ? modLocs_[i] : in_.loc; }

  void checkModifiers(const InstrRule &rule) {
    auto opName = std::string(opcodeName(in_.op));
    // Exclusive categories: index of the first modifier seen in each.
    constexpr size_t kCats = 32;
    int first[kCats];
    for (auto &f : first) f = -1;
    int approxOrFull = -1, rounding = -1;
    for (size_t i = 0; i < in_.mods.size(); ++i) {
      Modifier m = in_.mods[i];
      // wmma.mma / mma name the A and B layouts and element formats in order (.row.row, .s4.s4)
      bool layoutPair = (in_.op == Opcode::Wmma || in_.op == Opcode::Mma) && !m.isType() &&
                        (m.mod == Mod::Row || m.mod == Mod::Col || modCategory(m.mod) == ModCat::ElemType);
      for (size_t j = 0; j < i && !layoutPair; ++j) {
        if (in_.mods[j] == m && !m.isType()) {
          diags_.error(modLoc(i), "duplicate modifier '" + dotted(m) + "' on '" + opName + "'");
          break;
        }
      }
      if (m.isType()) continue;
      if (!rule.anyMod && !rule.mods.test(size_t(m.mod))) {
        diags_.error(modLoc(i), "modifier '" + dotted(m) + "' is not valid for '" + opName + "'");
        continue;
      }
      ModCat c = modCategory(m.mod);
      bool exclusive = false;
      switch (c) {
      case ModCat::Rounding: case ModCat::Compare: case ModCat::Sem: case ModCat::Scope:
      case ModCat::Vector: case ModCat::Cache: case ModCat::Mode: case ModCat::Geometry:
        exclusive = true;
        break;
      case ModCat::Space:
        exclusive = in_.op != Opcode::Cp && in_.op != Opcode::Fence && !rule.anyMod;
        break;
      case ModCat::Op:
        exclusive = !rule.anyMod;
        break;
      default:
        break;
      }
      // mul.hi / mul.lo / mad.wide share the Compare spellings.
      if (exclusive && size_t(c) < kCats) {
        if (first[size_t(c)] >= 0) {
          diags_.error(modLoc(i), "conflicting modifiers '" + dotted(in_.mods[first[size_t(c)]]) +
                                      "' and '" + dotted(m) + "' on '" + opName + "'");
        } else {
          first[size_t(c)] = int(i);
        }
      }
      if (m.mod == Mod::Approx || m.mod == Mod::Full) approxOrFull = int(i);
      if (c == ModCat::Rounding) rounding = int(i);
    }
    if (approxOrFull >= 0 && rounding >= 0) {
      int later = std::max(approxOrFull, rounding);
      diags_.error(modLoc(size_t(later)), "conflicting modifiers '" +
                                              dotted(in_.mods[size_t(approxOrFull)]) + "' and '" +
                                              dotted(in_.mods[size_t(rounding)]) + "' on '" + opName + "'");
    }
    // mul/mad: .hi/.lo/.wide are mutually exclusive.
    if (in_.op == Opcode::Mul || in_.op == Opcode::Mad) {
      int n = int(in_.has(Mod::Hi)) + int(in_.has(Mod::Lo)) + int(in_.has(Mod::Wide));
      if (n > 1) diags_.error(in_.loc, "'" + opName + "' takes only one of '.hi', '.lo', '.wide'");
      bool intType = !in_.types.empty() && !isFloat(in_.types[0]);
      if (intType && n == 0 && typeBits(in_.types[0]) > 8)
        diags_.error(in_.loc, "integer '" + instrName(in_) + "' requires '.hi', '.lo' or '.wide'");
    }
    // Packed 16-bit integer types exist only for add (sm_90, no .sat) and min/max (.relu only on .s16x2).
    for (Type t : in_.types) {
      if (t != Type::U16x2 && t != Type::S16x2) continue;
      if (in_.op == Opcode::Add) {
        if (in_.has(Mod::Sat))
          diags_.error(in_.loc, "'.sat' does not apply to '." + std::string(typeName(t)) + "'");
      } else if (in_.op != Opcode::Min && in_.op != Opcode::Max)
        diags_.error(in_.loc, "'." + std::string(typeName(t)) + "' is only valid on add/min/max, not on '" + opName + "'");
      else if (t == Type::U16x2 && in_.has(Mod::Relu))
        diags_.error(in_.loc, "'.relu' is only valid with '.s16x2' or '.s32', not on '" + instrName(in_) + "'");
    }
    // Required operations.
    auto require = [&](ModCat cat, const char *what) {
      for (auto m : in_.mods)
        if (!m.isType() && modCategory(m.mod) == cat) return;
      diags_.error(in_.loc, "'" + instrName(in_) + "' requires " + what);
    };
    switch (in_.op) {
    case Opcode::Setp: case Opcode::Set: require(ModCat::Compare, "a comparison operator"); break;
    case Opcode::Atom: case Opcode::Red: require(ModCat::Op, "an operation (e.g. '.add')"); break;
    case Opcode::Shfl: require(ModCat::Mode, "a mode ('.up', '.down', '.bfly' or '.idx')"); break;
    case Opcode::Vote:
      if (!in_.has(Mod::All) && !in_.has(Mod::Any) && !in_.has(Mod::Uni) && !in_.has(Mod::Ballot))
        diags_.error(in_.loc, "'" + instrName(in_) + "' requires a mode ('.all', '.any', '.uni' or '.ballot')");
      break;
    default:
      break;
    }
  }

  void checkCounts(const InstrRule &rule) {
    auto nt = in_.types.size();
    if (nt < rule.minTypes || nt > rule.maxTypes) {
      countsOk_ = false;
      std::string want = rule.minTypes == rule.maxTypes ? std::to_string(rule.minTypes)
                         : std::to_string(rule.minTypes) + " to " + std::to_string(rule.maxTypes);
      diags_.error(in_.loc, "'" + instrName(in_) + "' has " + std::to_string(nt) +
                                " type modifier" + (nt == 1 ? "" : "s") + ", expected " + want);
    }
    // The table allows a type-less st for st.bulk only (ptxas: "Unexpected
    // instruction types specified for 'st'"); the translator relies on it.
    if (countsOk_ && nt == 0 && in_.op == Opcode::St && !in_.has(Mod::Bulk)) {
      countsOk_ = false;
      diags_.error(in_.loc, "'" + instrName(in_) + "' has no type modifier (only st.bulk takes none)");
    }
    auto no = in_.operands.size();
    if (no < rule.minOps || no > rule.maxOps) {
      countsOk_ = false;
      std::string want = rule.minOps == rule.maxOps ? std::to_string(rule.minOps)
                         : std::to_string(rule.minOps) + " to " + std::to_string(rule.maxOps);
      diags_.error(in_.loc, "'" + instrName(in_) + "' takes " + want + " operand" +
                                (rule.maxOps == 1 ? "" : "s") + ", got " + std::to_string(no));
    }
  }

  static bool isIntLike(Type t) {
    switch (t) {
    case Type::B8: case Type::B16: case Type::B32: case Type::B64: case Type::B128:
    case Type::U8: case Type::U16: case Type::U32: case Type::U64:
    case Type::S8: case Type::S16: case Type::S32: case Type::S64:
      return true;
    default:
      return false;
    }
  }
  static bool isBit(Type t) {
    return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64 || t == Type::B128;
  }

  // Checks one register against an expected instruction type.
  void checkReg(const Operand &op, Type want, unsigned wantBits, bool relaxed, size_t idx) {
    if (op.kind == Operand::Kind::Pair) {
      if (!op.elems.empty()) checkReg(op.elems[0], want, wantBits, relaxed, idx);
      return;
    }
    if (op.kind == Operand::Kind::Vec) {
      for (const auto &e : op.elems) checkReg(e, want, wantBits, relaxed, idx);
      return;
    }
    if (op.kind != Operand::Kind::Reg || op.reg >= fn_.regs.size()) return;
    const Register &r = fn_.regs[op.reg];
    Type rt = r.type;
    if (r.vecWidth) return; // vector registers: not checked here
    auto where = [&] { return "operand " + std::to_string(idx + 1) + " of '" + instrName(in_) + "'"; };
    if (want == Type::Pred) {
      if (rt != Type::Pred)
        diags_.error(op.loc, where() + ": '" + r.name + "' is a ." + std::string(typeName(rt)) +
                                 " register, expected a .pred register");
      return;
    }
    if (rt == Type::Pred) {
      diags_.error(op.loc, where() + ": predicate register '" + r.name + "' used where a ." +
                               std::string(typeName(want)) + " value is expected");
      return;
    }
    unsigned rb = typeBits(rt);
    if (relaxed ? rb < wantBits : rb != wantBits) {
      diags_.error(op.loc, where() + ": '" + r.name + "' is a " + std::to_string(rb) +
                               "-bit register, expected " + (relaxed ? "at least " : "") +
                               std::to_string(wantBits) + " bits");
      return;
    }
    if (relaxed || isBit(want) || isBit(rt)) return;
    bool wantFloat = isFloat(want), regFloat = isFloat(rt);
    if (wantFloat != regFloat && (isIntLike(want) || wantFloat) && (isIntLike(rt) || regFloat))
      diags_.error(op.loc, where() + ": '" + r.name + "' is a ." + std::string(typeName(rt)) +
                               " register, incompatible with ." + std::string(typeName(want)));
  }

  void expect(size_t i, Need n) {
    if (i >= in_.operands.size() || n == Need::None) return;
    const Operand &op = in_.operands[i];
    Type t0 = in_.type(0), t1 = in_.type(1);
    switch (n) {
    case Need::Type0: checkReg(op, t0, typeBits(t0), false, i); break;
    case Need::Type1: checkReg(op, t1, typeBits(t1), false, i); break;
    case Need::Wide0: {
      Type w = t0;
      switch (t0) {
      case Type::U16: w = Type::U32; break; case Type::S16: w = Type::S32; break;
      case Type::U32: w = Type::U64; break; case Type::S32: w = Type::S64; break;
      case Type::B16: w = Type::B32; break; case Type::B32: w = Type::B64; break;
      default: return; // not a legal .wide type; reported elsewhere if at all
      }
      checkReg(op, w, typeBits(w), false, i);
      break;
    }
    case Need::Pred: checkReg(op, Type::Pred, 1, false, i); break;
    case Need::Int32: checkReg(op, Type::B32, 32, false, i); break;
    case Need::Relaxed0: checkReg(op, t0, typeBits(t0), true, i); break;
    case Need::Relaxed1: checkReg(op, t1, typeBits(t1), true, i); break;
    case Need::None: break;
    }
  }

  void checkOperandTypes() {
    if (in_.types.empty()) return;
    Type t0 = in_.type(0);
    if (t0 == Type::TexRef || t0 == Type::SamplerRef || t0 == Type::SurfRef) return;
    size_t n = in_.operands.size();
    // Vector operand widths for .v2/.v4/.v8.
    if (in_.vecWidth && isMemoryOp(in_.op)) {
      for (const auto &op : in_.operands) {
        if (op.kind == Operand::Kind::Vec && op.elems.size() != in_.vecWidth)
          diags_.error(op.loc, "vector operand has " + std::to_string(op.elems.size()) +
                                   " elements, '" + instrName(in_) + "' expects " +
                                   std::to_string(in_.vecWidth));
      }
    }
    switch (in_.op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Addc: case Opcode::Subc: case Opcode::And:
    case Opcode::Or: case Opcode::Xor: case Opcode::Div: case Opcode::Rem: case Opcode::Copysign:
    case Opcode::Min: case Opcode::Max: case Opcode::Not: case Opcode::Cnot: case Opcode::Neg:
    case Opcode::Abs: case Opcode::Brev: case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt:
    case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2: case Opcode::Tanh:
    case Opcode::Fma:
      for (size_t i = 0; i < n; ++i) expect(i, Need::Type0);
      break;
    case Opcode::Mul:
      expect(0, in_.has(Mod::Wide) ? Need::Wide0 : Need::Type0);
      expect(1, Need::Type0);
      expect(2, Need::Type0);
      break;
    case Opcode::Mad: case Opcode::Madc:
      expect(0, in_.has(Mod::Wide) ? Need::Wide0 : Need::Type0);
      expect(1, Need::Type0);
      expect(2, Need::Type0);
      expect(3, in_.has(Mod::Wide) ? Need::Wide0 : Need::Type0);
      break;
    case Opcode::Shl: case Opcode::Shr:
      expect(0, Need::Type0);
      expect(1, Need::Type0);
      expect(2, Need::Int32);
      break;
    case Opcode::Popc: case Opcode::Clz: case Opcode::Bfind:
      expect(0, Need::Int32);
      expect(1, Need::Type0);
      break;
    case Opcode::Bfe:
      expect(0, Need::Type0); expect(1, Need::Type0); expect(2, Need::Int32); expect(3, Need::Int32);
      break;
    case Opcode::Bfi:
      expect(0, Need::Type0); expect(1, Need::Type0); expect(2, Need::Type0);
      expect(3, Need::Int32); expect(4, Need::Int32);
      break;
    case Opcode::Setp:
      if (n >= 1) {
        const Operand &d = in_.operands[0];
        if (d.kind == Operand::Kind::Pair) {
          for (const auto &e : d.elems) checkReg(e, Type::Pred, 1, false, 0);
        } else {
          expect(0, Need::Pred);
        }
      }
      expect(1, Need::Type0);
      expect(2, Need::Type0);
      expect(3, Need::Pred);
      break;
    case Opcode::Selp:
      expect(0, Need::Type0); expect(1, Need::Type0); expect(2, Need::Type0); expect(3, Need::Pred);
      break;
    case Opcode::Mov:
      if (n == 2 && in_.operands[0].kind != Operand::Kind::Vec &&
          in_.operands[1].kind != Operand::Kind::Vec && !in_.vecWidth) {
        expect(0, Need::Type0);
        expect(1, Need::Type0);
      }
      break;
    case Opcode::Cvt:
      if (n == 2 && in_.types.size() == 2 && !in_.has(Mod::Pack)) {
        expect(0, Need::Relaxed0);
        expect(1, Need::Relaxed1);
      }
      break;
    case Opcode::Ld: case Opcode::Ldu:
      if (t0 != Type::B128) expect(0, Need::Relaxed0);
      break;
    case Opcode::St:
      if (t0 != Type::B128 && n >= 2) expect(1, Need::Relaxed0);
      break;
    case Opcode::Cvta:
      expect(0, Need::Type0);
      expect(1, Need::Type0);
      break;
    default:
      break;
    }
    // Addresses: the base register of [reg+off] must be 32 or 64 bits.
    for (const auto &op : in_.operands) {
      if (op.kind != Operand::Kind::Addr || op.elems.size() != 1) continue;
      const Operand &b = op.elems[0];
      if (b.kind != Operand::Kind::Reg || b.reg >= fn_.regs.size()) continue;
      const Register &r = fn_.regs[b.reg];
      unsigned bits = typeBits(r.type);
      if (r.type == Type::Pred || (bits != 32 && bits != 64))
        diags_.error(b.loc, "address register '" + r.name + "' must be 32 or 64 bits wide");
    }
  }
};

} // namespace

void decodeInstruction(Instruction &in) {
  in.types.clear();
  in.space = Space::None;
  in.vecWidth = 0;
  for (auto m : in.mods) {
    if (m.isType()) {
      in.types.push_back(m.type);
      continue;
    }
    if (in.space == Space::None) {
      Space s = spaceOfMod(m.mod);
      if (s != Space::None) in.space = s;
    }
    if (m.mod == Mod::V2) in.vecWidth = 2;
    else if (m.mod == Mod::V4) in.vecWidth = 4;
    else if (m.mod == Mod::V8) in.vecWidth = 8;
  }
  if (in.space == Space::None && isMemoryOp(in.op)) in.space = Space::Generic;
}

void checkInstruction(const Instruction &in, const Function &fn,
                      const std::vector<SourceLoc> &modLocs, DiagSink &diags) {
  Checker(in, fn, modLocs, diags).run();
}

} // namespace ptx::detail
