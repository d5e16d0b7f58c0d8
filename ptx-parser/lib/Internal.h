//===- Internal.h - declarations shared by the ptx-parser sources ---------===//
//
// Private interface between the front-end pieces: modifier categories, the
// instruction table (InstrTable.cpp), the IR builder (IRBuilder.cpp) and the
// semantic checks (Sema.cpp). Nothing here is part of the public contract.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ptx/Diagnostics.h"
#include "ptx/IR.h"
#include "ptx/Parser.h"

#include <bitset>
#include <string>
#include <string_view>
#include <vector>

namespace ptx::detail {

enum class ModCat : uint8_t {
#define PTX_MODCAT(C) C,
#include "ModCats.def"
};
ModCat modCategory(Mod m);
std::string_view modCategoryName(ModCat c);
size_t numMods();
size_t numOpcodes();

// Bounded error sink: stops recording after opts.maxErrors errors.
struct DiagSink {
  DiagnosticList &list;
  unsigned maxErrors;
  bool full() const { return maxErrors && list.errorCount() >= maxErrors; }
  void error(SourceLoc loc, std::string msg) {
    if (!full()) list.error(loc, std::move(msg));
  }
  void warning(SourceLoc loc, std::string msg) {
    if (!full()) list.warning(loc, std::move(msg));
  }
  void unsupported(SourceLoc loc, std::string msg) {
    if (!full()) list.unsupported(loc, std::move(msg));
  }
};

// Per-opcode rule from the instruction table (InstrTable.cpp). Operand
// typing rules live in Sema.cpp (they depend on modifiers such as .wide).
struct InstrRule {
  Opcode op = Opcode::Invalid;
  uint8_t minOps = 0, maxOps = 0;     // operand count bounds
  uint8_t minTypes = 0, maxTypes = 0; // number of type modifiers
  bool anyMod = false;                // every known modifier spelling allowed
  std::bitset<1024> mods;             // allowed non-type modifiers
};
const InstrRule &instrRule(Opcode op);
// Inconsistencies between the table and Modifiers.def/Opcodes.def (for tests).
std::vector<std::string> instrTableProblems();
constexpr size_t kMaxMods = 1024;

// Fills Instruction::types/space/vecWidth from the modifiers (always run).
void decodeInstruction(Instruction &in);
// Checks one built instruction against the instruction table: modifiers
// allowed for the opcode, exclusive categories, operand count, operand types
// and widths. modLocs[i] is the location of in.mods[i].
void checkInstruction(const Instruction &in, const Function &fn,
                      const std::vector<SourceLoc> &modLocs, DiagSink &diags);

// Token streams of the hand-written lexer and of the ANTLR-generated one
// (type, start, stop, line, col), for the lexer cross-check test.
struct LexedToken {
  size_t type, start, stop, line, col;
  bool operator==(const LexedToken &) const = default;
};
std::vector<LexedToken> lexWithAntlr(std::string_view text);
std::vector<LexedToken> lexFast(std::string_view text);

} // namespace ptx::detail
