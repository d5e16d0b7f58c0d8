//===- ptx/IR.h - Typed PTX intermediate representation ---------*- C++ -*-===//
//
// The typed PTX IR every later stage consumes. It mirrors the PTX ISA 9.0
// module structure: a Module holds globals (state space, type, alignment,
// array shape, initializer), functions/kernels (params, performance
// directives, a flat statement list), and debug sections. Every node carries
// a SourceLoc (1-based line/column in Module::sourceName).
//
// Instructions keep their modifiers in *source order* (so printing
// round-trips) and expose a decoded view (types, state space, vector width)
// filled by semantic analysis against the instruction table. Register operands
// are resolved to RegId indices into Function::regs, so scoped `{ }` blocks
// (inline asm re-declaring `%temp`) need no name lookup downstream.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptx {

struct SourceLoc {
  uint32_t line = 0; // 1-based; 0 = unknown
  uint32_t col = 0;  // 1-based
};

enum class Type : uint8_t {
  None,
#define PTX_TYPE(E, S, BITS) E,
#include "ptx/Types.def"
};
std::string_view typeName(Type t);       // "f32" (no dot); "" for None
unsigned typeBits(Type t);               // 32 for f32, 1 for pred
std::optional<Type> typeFromName(std::string_view s); // without the dot
inline bool isFloat(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2 ||
         t == Type::TF32 || t == Type::F32 || t == Type::F64;
}
inline bool isSigned(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

enum class Opcode : uint16_t {
  Invalid,
#define PTX_OPCODE(E, S) E,
#include "ptx/Opcodes.def"
};
std::string_view opcodeName(Opcode op);
std::optional<Opcode> opcodeFromName(std::string_view s);

// A modifier spelling. Types are modifiers too: Mod::Type + the Type value
// is represented by ModKind::Type (see Modifier below).
enum class Mod : uint16_t {
  Invalid,
#define PTX_MOD(E, S, CAT) E,
#include "ptx/Modifiers.def"
};
std::string_view modName(Mod m); // without the dot
std::optional<Mod> modFromName(std::string_view s);

// One modifier as written: either a type (".f32") or a non-type spelling.
struct Modifier {
  Type type = Type::None; // != None  => this modifier is a type
  Mod mod = Mod::Invalid; // valid when type == None
  bool isType() const { return type != Type::None; }
  bool operator==(const Modifier &) const = default;
};

enum class Space : uint8_t {
  None, Reg, SReg, Const, Global, Local, Param, Shared, SharedCluster, Tex, Generic
};
std::string_view spaceName(Space s); // "global"

enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

// Special registers (PTX ISA "Special Registers"). Components (.x/.y/.z) and
// indices (%envreg7) are kept in Operand::sregIndex.
enum class SReg : uint8_t {
  Tid, Ntid, Laneid, Warpid, Nwarpid, Ctaid, Nctaid, Smid, Nsmid, Gridid,
  IsExplicitCluster, Clusterid, Nclusterid, ClusterCtaid, ClusterNctaid,
  ClusterCtarank, ClusterNctarank,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  Clock, ClockHi, Clock64, Pm, Pm64, Envreg, Globaltimer, GlobaltimerLo,
  GlobaltimerHi, ReservedSmemOffset, TotalSmemSize, AggrSmemSize,
  DynamicSmemSize, CurrentGraphExec,
};

using RegId = uint32_t;

// PTX's predefined identifier WARP_SZ: the CUDA warp size. It is an integer
// constant of the CUDA programming model, not of the machine: under every warp
// policy (wave32, wave64 pack and pad) a CUDA warp is 32 threads, so the IR
// builder folds WARP_SZ to this value wherever PTX allows it (instruction
// operands, initializers, array dimensions); see docs/warp-policies.md.
inline constexpr int64_t kWarpSz = 32;

struct Operand {
  enum class Kind : uint8_t {
    Reg,    // %r1                     -> reg
    SReg,   // %tid.x, %envreg3         -> sreg, sregIndex
    Imm,    // 42, 0x10, -1             -> imm (two's complement bits)
    FImm,   // 0f3F800000, 0d..., 1.5   -> imm holds the bits, fbits = 32 / 64
    Sym,    // variable, function or label name (+ offset) -> name, offset
    Addr,   // [base+off]; base is elems[0] if present (Reg or Sym), offset in offset
    Vec,    // {a, _, c, d}              -> elems
    Sink,   // _
    List,   // (a, b) in call           -> elems
    Pair,   // %r1|%p1 (setp/shfl second predicate result) -> elems = {first, second}
  };
  Kind kind = Kind::Imm;
  bool negated = false;     // !%p (predicate operand)
  bool minus = false;       // -%r: a negated register, legal only as vmad's a, b, c (Sema checks)
  bool warpSz = false;      // Imm written as WARP_SZ (+/- offset): printed back as WARP_SZ
  uint16_t vsel = 0;        // video byte/half selector on a register (%r1.b3210, %r2.h10): VideoSel
  uint8_t fbits = 0;        // FImm width
  uint8_t sregIndex = 0;    // .x=0 .y=1 .z=2 for %tid etc.; N for %envregN
  SReg sreg = SReg::Tid;
  RegId reg = 0;
  int64_t imm = 0;          // Imm value / FImm bits
  int64_t offset = 0;       // Sym / Addr offset
  std::string name;         // Reg/Sym spelling (as written), for printing and diagnostics
  std::vector<Operand> elems;
  SourceLoc loc;
};

// Byte/half-word selector of a video instruction operand (PTX ISA "Video Instructions"):
// `.b<digits>` (bytes, digits 0-7) or `.h<digits>` (half-words, digits 0-3), 1 to 4 digits written
// most significant lane first (`.b3210`: lane 3 <- byte 3, ..., lane 0 <- byte 0). Encoded in
// Operand::vsel as: bits 0-2 digit count (0 = no selector), bit 3 set for `.h`, 3 bits per digit
// from bit 4 up, first written digit first.
struct VideoSel {
  bool half = false;
  uint8_t count = 0;
  uint8_t digit[4] = {0, 0, 0, 0}; // as written: digit[0] is the most significant lane
  static uint16_t encode(bool half, const uint8_t *d, unsigned n) {
    uint16_t v = uint16_t(n) | (half ? 8u : 0u);
    for (unsigned i = 0; i < n; ++i) v |= uint16_t(d[i] & 7u) << (4 + 3 * i);
    return v;
  }
  static VideoSel decode(uint16_t v) {
    VideoSel s;
    s.count = uint8_t(v & 7u);
    s.half = (v & 8u) != 0;
    for (unsigned i = 0; i < s.count && i < 4; ++i) s.digit[i] = uint8_t((v >> (4 + 3 * i)) & 7u);
    return s;
  }
};

struct Guard {
  RegId reg = 0;
  bool negated = false; // @!%p
  std::string name;
  SourceLoc loc;
};

struct Instruction {
  SourceLoc loc;
  std::optional<Guard> guard;
  Opcode op = Opcode::Invalid;
  std::vector<Modifier> mods;   // source order
  std::vector<Operand> operands;
  // Decoded by sema:
  std::vector<Type> types;      // the type modifiers, in order (cvt.f32.s32 -> {F32, S32})
  Space space = Space::None;    // state-space modifier, Generic when absent on ld/st/atom/...
  uint8_t vecWidth = 0;         // 0 (scalar), 2, 4, 8

  bool has(Mod m) const {
    for (const auto &x : mods) if (!x.isType() && x.mod == m) return true;
    return false;
  }
  Type type(size_t i = 0) const { return i < types.size() ? types[i] : Type::None; }
};

// Initializer of a variable: scalar expressions or nested braces.
struct InitExpr {
  enum class Kind : uint8_t {
    Int,        // value
    Float,      // value holds bits, fbits 32/64
    Sym,        // name (+ offset): address of a variable or function
    GenericSym, // generic(name) (+ offset)
    List,       // { elems }
  };
  Kind kind = Kind::Int;
  uint8_t fbits = 0;
  int64_t value = 0;
  int64_t offset = 0;
  std::string name;
  std::vector<InitExpr> elems;
  SourceLoc loc;
};

struct Variable {
  SourceLoc loc;
  Linkage linkage = Linkage::None;
  Space space = Space::None;
  uint32_t align = 0;              // 0 = natural
  Type type = Type::None;
  uint8_t vecWidth = 0;            // .v2/.v4 variables
  std::string name;
  std::vector<uint64_t> dims;      // array dims; 0 = unsized ([])
  std::optional<InitExpr> init;
  bool managed = false;            // .attribute(.managed)
  // .param pointer attributes (kernel params): .ptr .global .align N
  bool ptr = false;
  Space ptrSpace = Space::None;
  uint32_t ptrAlign = 0;
  uint64_t sizeInBytes() const;    // element size * product(dims) (unsized = 0)
};

// `.reg .b32 %r<10>;` (count = 10, declares %r0..%r9) or `.reg .b32 %a, %b;`
struct RegDecl {
  SourceLoc loc;
  Type type = Type::None;
  uint8_t vecWidth = 0;
  std::string name;     // prefix when count > 0
  uint32_t count = 0;   // 0 = a single register named `name`
};

// A register actually referenced in the function (dense; RegId indexes this).
struct Register {
  std::string name;     // "%r5"
  Type type = Type::None;
  uint8_t vecWidth = 0;
  uint32_t declIndex = 0; // into Function::regDecls
};

struct Label {
  SourceLoc loc;
  std::string name;
};

// Debug-line marker: .loc file line col [, function_name ..., inlined_at ...]
struct LocDirective {
  SourceLoc loc;
  uint32_t file = 0, line = 0, col = 0;
  std::string extra;  // the rest (", function_name $L__info_string0, inlined_at 1 2 3"), verbatim
};

// `proto: .callprototype (.param .b32 _) _ (.param .b64 _, ...);`
// `tbl: .branchtargets L1, L2;` / `.calltargets f, g;`
struct TargetList {
  SourceLoc loc;
  enum class Kind : uint8_t { CallPrototype, BranchTargets, CallTargets } kind{};
  std::string name;
  std::vector<Variable> results, params;  // CallPrototype
  bool noreturn = false;
  std::vector<std::string> targets;       // BranchTargets / CallTargets
};

struct Statement {
  enum class Kind : uint8_t {
    Instr, Label, RegDecl, VarDecl, Pragma, BlockBegin, BlockEnd, Loc, TargetList,
  };
  Kind kind;
  uint32_t index = 0; // into the Function vector of that kind (unused for Block*)
};

struct PerfDirectives {
  std::vector<uint32_t> maxntid, reqntid, reqnctapercluster; // 1..3 values; empty = absent
  std::optional<uint32_t> minnctapersm, maxnreg, maxclusterrank;
  bool explicitcluster = false;
  bool noreturn = false;
  std::vector<std::string> pragmas; // function-level .pragma strings (unquoted)
};

struct Function {
  SourceLoc loc;
  bool isEntry = false;
  Linkage linkage = Linkage::None;
  std::string name;
  std::vector<Variable> results; // .func (.param .b32 r) name(...)
  std::vector<Variable> params;
  PerfDirectives perf;
  bool hasBody = false;
  std::vector<Statement> body;
  // Storage indexed by Statement::index:
  std::vector<Instruction> instrs;
  std::vector<Label> labels;
  std::vector<RegDecl> regDecls;
  std::vector<Variable> locals;          // .local/.shared/.param/.const declared in the body
  std::vector<std::string> pragmas;      // .pragma statements in the body (unquoted)
  std::vector<LocDirective> locs;
  std::vector<TargetList> targetLists;
  // Resolved registers referenced by operands/guards.
  std::vector<Register> regs;
};

// `.file 1 "path" [, timestamp, size]`
struct FileDirective {
  SourceLoc loc;
  uint32_t index = 0;
  std::string path;
  std::optional<uint64_t> timestamp, size;
};

// `.section .debug_info { .b8 1, 2; .b32 sym; ... }` kept as data lines.
struct SectionLine {
  Type type = Type::None;             // .b8 / .b16 / .b32 / .b64
  std::vector<InitExpr> values;       // Int, Sym (+offset), or label-difference kept as Sym text
  std::string raw;                    // set instead of type/values for lines kept verbatim
  SourceLoc loc;
};
struct Section {
  SourceLoc loc;
  std::string name;                   // ".debug_info"
  std::vector<SectionLine> lines;
};

struct TopLevel {
  enum class Kind : uint8_t { Variable, Function, File, Section, Pragma };
  Kind kind;
  uint32_t index = 0;
};

struct Module {
  std::string sourceName;
  uint32_t versionMajor = 0, versionMinor = 0;
  std::vector<std::string> target;   // ".target sm_90a, debug" -> {"sm_90a", "debug"}
  uint32_t addressSize = 64;
  std::vector<Variable> globals;
  std::vector<Function> functions;
  std::vector<FileDirective> files;
  std::vector<Section> sections;
  std::vector<std::string> pragmas;
  std::vector<TopLevel> order;       // declaration order, for printing
  // The SM number of .target (75 for sm_75, 90 for sm_90a), 0 if absent.
  uint32_t smVersion() const;
};

} // namespace ptx
