//===- OpTable.cpp - the opcode table (Opcodes.def) as a lookup -----------===//
#include "Core.h"
#include "ops/Ops.h"

#include "llvm/ADT/StringMap.h"

namespace isaemu::detail {

namespace {
const OpRow Rows[] = {
#define ISA_OP(NAME, FAMILY, HANDLER) {#NAME, Family::FAMILY, HANDLER},
#include "Opcodes.def"
};

void missingHandler(Wave &w, const Inst &I) {
  raiseUnsupported(w, I, {}, "executed an instruction without a handler (loaded with missing opcodes)");
}
const OpRow Missing = {"<missing>", Family::SOPP, missingHandler};

struct Table {
  llvm::StringMap<const OpRow *> ByName;
  Table() {
    for (const OpRow &R : Rows) ByName[R.name] = &R;
  }
};
} // namespace

const OpRow *findRow(llvm::StringRef Base) {
  static const Table T; // immutable after construction
  auto It = T.ByName.find(Base);
  return It == T.ByName.end() ? nullptr : It->second;
}
const OpRow *missingRow() { return &Missing; }

const char *familyName(Family F) {
  switch (F) {
#define ISA_FAMILY(N)                                                                              \
  case Family::N: return #N;
#include "Families.def"
  }
  return "?";
}

} // namespace isaemu::detail
