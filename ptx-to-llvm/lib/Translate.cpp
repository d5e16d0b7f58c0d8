//===- Translate.cpp - ptx2llvm::translate, the stage driver --------------===//
//
// Creates the LLVM module (triple amdgcn-amd-amdhsa, AMDGPU data layout),
// declares all globals and functions first (so initializers, calls and
// function addresses can refer forward), defines initializers, translates
// every body, then verifies the module. Every problem of every function is
// collected; if there is any, the result is one llvm::Error holding them all
// (an llvm::ErrorList of support::UnsupportedError / InvalidInputError, each
// with its file:line:col) and no module.
//
// NaN note (checked against the H200 tables in tests/golden): f32/f16/bf16
// arithmetic, abs/neg.f32, cvt to f16/bf16 and cvt.f32.f16 return the
// canonical NaN (0x7fffffff / 0x7fff); f64 arithmetic and the f32<->f64 and
// bf16->f32 conversions keep the (quieted) payload. FnCtx::canonicalNaN
// implements the first group; its selects carry !ptx2amd.canon so that
// amdgpu-lower can keep them only where the NaN bits can be observed.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ptx2llvm {

const char *amdgpuDataLayout() {
  return "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-"
         "p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-"
         "v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";
}

// The verifier prints the instruction it rejects on the lines after its
// message; find that instruction in `f` by its printed form (metadata
// attachments stripped) and return its `!ptx.loc` position.
static ptx::SourceLoc offendingInstruction(Function &f, const std::string &verifierText) {
  auto strip = [](std::string s) {
    if (size_t md = s.find(", !"); md != std::string::npos) s.resize(md);
    size_t b = s.find_first_not_of(' ');
    return b == std::string::npos ? std::string() : s.substr(b);
  };
  std::vector<std::string> printed;
  for (StringRef line : split(StringRef(verifierText), '\n'))
    if (line.starts_with("  ")) printed.push_back(strip(line.str()));
  if (printed.empty()) return {};
  unsigned kind = f.getContext().getMDKindID(support::md::kLoc);
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      MDNode *md = i.getMetadata(kind);
      if (!md || md->getNumOperands() != 2) continue;
      std::string text;
      raw_string_ostream os(text);
      i.print(os);
      if (std::find(printed.begin(), printed.end(), strip(text)) == printed.end()) continue;
      auto *line = mdconst::dyn_extract<ConstantInt>(md->getOperand(0));
      auto *col = mdconst::dyn_extract<ConstantInt>(md->getOperand(1));
      if (line && col) return {uint32_t(line->getZExtValue()), uint32_t(col->getZExtValue())};
    }
  return {};
}

Expected<std::unique_ptr<Module>> translate(const ptx::Module &pm, LLVMContext &ctx,
                                            const Options &opts) {
  std::string file = !opts.sourceName.empty() ? opts.sourceName : pm.sourceName;
  auto m = std::make_unique<Module>(file, ctx);
  m->setTargetTriple(Triple("amdgcn-amd-amdhsa"));
  m->setDataLayout(amdgpuDataLayout());
  m->setSourceFileName(file);
  ModuleCtx mc(pm, ctx, *m, file);
  if (pm.addressSize != 64)
    mc.unsupported({}, ".address_size " + std::to_string(pm.addressSize),
                   "unsupported .address_size " + std::to_string(pm.addressSize) + " (only 64)");
  declareGlobals(mc);
  declareFunctions(mc);
  defineGlobalInitializers(mc);
  for (const auto &pf : pm.functions) {
    size_t before = mc.errors.size();
    translateBody(mc, pf);
    if (opts.partialErrors && mc.errors.size() > before) {
      if (Function *f = mc.functions.lookup(pf.name)) {
        f->deleteBody();
        f->setLinkage(GlobalValue::ExternalLinkage);
      }
      for (size_t i = before; i < mc.errors.size(); ++i) opts.partialErrors->push_back(mc.errors[i].diag);
      if (opts.failedFunctions) opts.failedFunctions->push_back(pf.name);
      mc.errors.resize(before);
    }
  }
  checkExitingFunctions(mc);
  if (!mc.errors.empty()) {
    std::vector<Error> all;
    for (auto &p : mc.errors)
      all.push_back(p.construct.empty() ? support::invalidInput(std::move(p.diag))
                                        : support::unsupported("ptx-to-llvm", std::move(p.construct), std::move(p.diag)));
    return support::joinAll(std::move(all));
  }
  if (opts.verify) {
    std::string msg;
    raw_string_ostream os(msg);
    if (verifyModule(*m, &os)) {
      // Put each broken function's first verifier complaint at the PTX
      // instruction that produced the offending IR (its !ptx.loc), else at
      // the function's directive: one internal error per broken function.
      std::vector<Error> errs;
      for (const auto &pf : pm.functions) {
        Function *f = mc.functions.lookup(pf.name);
        std::string fmsg;
        raw_string_ostream fos(fmsg);
        if (!f || f->isDeclaration() || !verifyFunction(*f, &fos)) continue;
        std::string first = fmsg.substr(0, fmsg.find('\n'));
        ptx::SourceLoc at = offendingInstruction(*f, fmsg);
        if (!at.line) at = pf.loc;
        errs.push_back(support::internalError(support::at(
            file, at.line, at.col,
            "internal: the translation of this instruction in '" + pf.name + "' is invalid LLVM IR (" + first + ")")));
      }
      if (errs.empty())
        return support::internalError(support::at(file, 0, 0, "internal: translated module is invalid:\n" + msg));
      return support::joinAll(std::move(errs));
    }
  }
  return m;
}

} // namespace ptx2llvm
