//===- Link.cpp - separately compiled PTX modules -> one module (Link.h) ----===//
//
// Each unit is parsed, its linkage directives are collected (name, kind,
// position), conflicts are reported on the PTX (where both positions are
// known), each unit is translated, the LLVM modules are linked with
// llvm::Linker, and the result is checked for what the linker cannot see:
// names still undefined and calls whose prototype differs from the callee's
// definition (an `.extern .func` declared with other parameters than it is
// defined, or an exiting `.func`, which takes an extra exit-flag argument,
// called from another unit).
//
//===----------------------------------------------------------------------===//
#include "ptxjit/Link.h"
#include "FrontHalf.h"

#include "support/Contract.h"
#include "support/Error.h"

#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Linker/Linker.h"

#include <map>

namespace ptxjit {

using amdgpulower::Diagnostic;
using amdgpulower::Severity;

namespace {

struct SymbolSite {
  size_t unit = 0;
  ptx::SourceLoc loc;
};

// What one name is in all units: its strong definitions, whether any unit
// defines it weakly / as common, and where it is declared .extern.
struct SymbolUse {
  std::vector<SymbolSite> strong, extern_;
  bool weakOrCommon = false;
  bool isFunction = false;
};

std::string where(llvm::ArrayRef<PTXUnit> units, const SymbolSite &s) {
  return std::string(units[s.unit].name) + ":" + std::to_string(s.loc.line) + ":" + std::to_string(s.loc.col);
}

Diagnostic diagAt(llvm::ArrayRef<PTXUnit> units, const SymbolSite &s, Severity sev, std::string msg) {
  Diagnostic d;
  d.severity = sev;
  d.file = std::string(units[s.unit].name);
  d.line = s.loc.line;
  d.col = s.loc.col;
  d.message = std::move(msg);
  d.kind = support::ErrorKind::InvalidInput;
  return d;
}

void collect(const ptx::Module &pm, size_t unit, std::map<std::string, SymbolUse> &syms) {
  for (const ptx::Function &f : pm.functions) {
    SymbolUse &u = syms[f.name];
    u.isFunction = true;
    if (f.linkage == ptx::Linkage::Weak) u.weakOrCommon = true;
    else if (f.hasBody && f.linkage == ptx::Linkage::Visible) {
      // a prototype followed by its definition in one unit is one definition
      if (u.strong.empty() || u.strong.back().unit != unit) u.strong.push_back({unit, f.loc});
    } else if (!f.hasBody && f.linkage == ptx::Linkage::Extern)
      u.extern_.push_back({unit, f.loc});
  }
  for (const ptx::Variable &v : pm.globals) {
    SymbolUse &u = syms[v.name];
    if (v.linkage == ptx::Linkage::Weak || v.linkage == ptx::Linkage::Common) u.weakOrCommon = true;
    else if (v.linkage == ptx::Linkage::Visible) u.strong.push_back({unit, v.loc});
    else if (v.linkage == ptx::Linkage::Extern) u.extern_.push_back({unit, v.loc});
  }
}

// Two strong definitions of one name: an error at the second, a note at the first.
bool checkDuplicates(llvm::ArrayRef<PTXUnit> units, const std::map<std::string, SymbolUse> &syms,
                     std::vector<Diagnostic> &diags) {
  bool bad = false;
  for (const auto &[name, u] : syms)
    for (size_t i = 1; i < u.strong.size(); ++i) {
      diags.push_back(diagAt(units, u.strong[i], Severity::Error,
                             "duplicate definition of '" + name + "' (first defined at " + where(units, u.strong[0]) +
                                 ")"));
      diags.push_back(diagAt(units, u.strong[0], Severity::Note, "'" + name + "' first defined here"));
      bad = true;
    }
  return bad;
}

// A name some unit declares .extern and none defines, that the linked module still uses.
bool checkUndefined(llvm::ArrayRef<PTXUnit> units, const std::map<std::string, SymbolUse> &syms,
                    const llvm::Module &m, std::vector<Diagnostic> &diags) {
  bool bad = false;
  for (const auto &[name, u] : syms) {
    if (u.extern_.empty() || !u.strong.empty() || u.weakOrCommon) continue;
    const llvm::GlobalValue *gv = m.getNamedValue(name);
    if (!gv || !gv->isDeclaration() || gv->use_empty()) continue; // renamed runtime functions (vprintf) or unused
    std::string msg = std::string("undefined ") + (u.isFunction ? ".extern .func '" : ".extern variable '") + name +
                      "': no linked module defines it";
    // libcudadevrt's PTX (linked into every -rdc program) calls into the NVIDIA driver.
    if (llvm::StringRef(name).starts_with("__cuda_syscall_"))
      msg += " (a CUDA device runtime service: dynamic parallelism / device-side runtime API calls are not "
             "supported)";
    diags.push_back(diagAt(units, u.extern_[0], Severity::Error, std::move(msg)));
    bad = true;
  }
  return bad;
}

constexpr const char *kUnitAttr = "ptx2amd.link.unit"; // defining unit of a function, during linking

// Calls whose function type differs from the callee's after linking, at the call's PTX position.
bool checkPrototypes(const llvm::Module &m, std::vector<Diagnostic> &diags) {
  bool bad = false;
  for (const llvm::Function &f : m)
    for (const llvm::BasicBlock &bb : f)
      for (const llvm::Instruction &i : bb) {
        auto *cb = llvm::dyn_cast<llvm::CallBase>(&i);
        if (!cb) continue;
        auto *callee = llvm::dyn_cast<llvm::Function>(cb->getCalledOperand());
        if (!callee || callee->getFunctionType() == cb->getFunctionType()) continue;
        bool exits = callee->arg_size() && callee->getArg(callee->arg_size() - 1)->getName() == "ptx.exit.flag";
        Diagnostic d = support::noLoc(
            exits ? "call of '" + callee->getName().str() +
                        "', which may execute 'exit', from another module: unsupported (an exiting .func "
                        "takes an exit flag its callers in other modules do not pass)"
                  : "call of '" + callee->getName().str() +
                        "' through an .extern prototype whose parameters differ from its definition in another "
                        "module");
        d.kind = exits ? support::ErrorKind::Unsupported : support::ErrorKind::InvalidInput;
        d.file = f.getFnAttribute(kUnitAttr).getValueAsString().str();
        if (const llvm::MDNode *loc = i.getMetadata(support::md::kLoc); loc && loc->getNumOperands() == 2)
          if (auto *l = llvm::mdconst::dyn_extract<llvm::ConstantInt>(loc->getOperand(0)))
            if (auto *c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(loc->getOperand(1))) {
              d.line = unsigned(l->getZExtValue());
              d.col = unsigned(c->getZExtValue());
            }
        diags.push_back(std::move(d));
        bad = true;
      }
  return bad;
}

// Internal functions nothing calls, repeatedly (libcudadevrt's module, linked
// into every -rdc program, defines device-runtime entry points that call
// driver services; unused, they and their references go). Variables stay:
// the host may access any of them by name.
void dropDeadFunctions(llvm::Module &m) {
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::Function &f : llvm::make_early_inc_range(m)) {
      if (f.isDeclaration() || !f.hasLocalLinkage()) continue;
      f.removeDeadConstantUsers();
      if (!f.use_empty()) continue;
      f.eraseFromParent();
      changed = true;
    }
  }
}

// The image is final: everything but kernels becomes internal, so the
// optimiser sees whole-program visibility as in a single non-rdc module.
void internalize(llvm::Module &m) {
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel &&
        f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) {
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
      f.setVisibility(llvm::GlobalValue::DefaultVisibility);
    }
  for (llvm::GlobalVariable &g : m.globals())
    if (!g.isDeclaration() && !g.getName().starts_with("llvm.")) {
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
      g.setVisibility(llvm::GlobalValue::DefaultVisibility);
    }
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>>
translateUnits(llvm::ArrayRef<PTXUnit> units, InputKind kind, llvm::LLVMContext &ctx, std::vector<Diagnostic> &diags,
               std::vector<amdgpulower::StageTime> *times) {
  if (units.empty()) return support::invalidInput(support::noLoc("no input module"));
  if (units.size() == 1) return translate(units[0].text, units[0].name, kind, ctx, diags, times);
  if (kind != InputKind::PTX) return support::invalidInput(support::noLoc("only PTX modules can be linked"));

  std::vector<ptx::ParseResult> parsed;
  bool parseFailed = false;
  for (const PTXUnit &u : units) {
    auto pr = parseUnit(u.text, u.name, diags, times);
    if (!pr) {
      llvm::consumeError(pr.takeError()); // its diagnostics are in diags
      parseFailed = true;
      continue;
    }
    parsed.push_back(std::move(*pr));
  }
  if (parseFailed) return support::invalidInput(support::noLoc("PTX parse errors"));

  std::map<std::string, SymbolUse> syms;
  for (size_t i = 0; i < parsed.size(); ++i) collect(*parsed[i].module, i, syms);
  if (checkDuplicates(units, syms, diags))
    return support::invalidInput(support::noLoc("PTX link errors"));

  std::vector<std::unique_ptr<llvm::Module>> mods;
  bool translateFailed = false;
  for (size_t i = 0; i < parsed.size(); ++i) {
    auto m = translateParsed(*parsed[i].module, units[i].name, ctx, diags, times);
    if (!m) {
      llvm::consumeError(m.takeError()); // its diagnostics are in diags
      translateFailed = true;
      continue;
    }
    for (llvm::Function &f : **m)
      if (!f.isDeclaration()) f.addFnAttr(kUnitAttr, units[i].name);
    mods.push_back(std::move(*m));
  }
  if (translateFailed) {
    support::ErrorKind k = support::ErrorKind::InvalidInput;
    for (const Diagnostic &d : diags)
      if (d.severity == Severity::Error && d.kind == support::ErrorKind::Unsupported) k = d.kind;
    support::Diagnostic summary = support::noLoc("PTX translation errors");
    summary.kind = k;
    return llvm::make_error<support::DiagError>(std::move(summary));
  }

  support::StageTimer linkTime(times, "link");
  std::unique_ptr<llvm::Module> dest = std::move(mods[0]);
  dest->setModuleIdentifier("linked");
  std::string linkErrors;
  auto oldHandler = ctx.getDiagnosticHandlerCallBack();
  void *oldCookie = ctx.getDiagnosticContext();
  ctx.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *di, void *cookie) {
        if (di->getSeverity() != llvm::DS_Error) return;
        std::string &out = *static_cast<std::string *>(cookie);
        llvm::raw_string_ostream os(out);
        llvm::DiagnosticPrinterRawOStream dp(os);
        if (!out.empty()) os << "; ";
        di->print(dp);
      },
      &linkErrors);
  bool failed = false;
  {
    llvm::Linker linker(*dest);
    for (size_t i = 1; i < mods.size() && !failed; ++i) failed = linker.linkInModule(std::move(mods[i]));
  }
  ctx.setDiagnosticHandlerCallBack(oldHandler, oldCookie);
  if (failed) {
    Diagnostic d = support::noLoc("linking the PTX modules failed: " + linkErrors);
    d.kind = support::ErrorKind::InvalidInput;
    diags.push_back(d);
    return support::invalidInput(support::noLoc("PTX link errors"));
  }
  internalize(*dest);
  dropDeadFunctions(*dest);
  bool bad = checkUndefined(units, syms, *dest, diags);
  bad |= checkPrototypes(*dest, diags);
  for (llvm::Function &f : *dest) f.removeFnAttr(kUnitAttr);
  if (bad) return support::invalidInput(support::noLoc("PTX link errors"));
  return dest;
}

} // namespace ptxjit
