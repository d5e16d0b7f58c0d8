//===- Translate.cpp - ptx2llvm::translate, the stage driver --------------===//
//
// Creates the LLVM module (triple amdgcn-amd-amdhsa, AMDGPU data layout),
// declares all globals and functions first (so initializers, calls and
// function addresses can refer forward), defines initializers, translates
// every body, then verifies the module. Every problem of every function is
// collected; if there is any, the result is one llvm::Error listing them all
// (one `file:line:col: error: ...` line each) and no module.
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

Expected<std::unique_ptr<Module>> translate(const ptx::Module &pm, LLVMContext &ctx,
                                            const Options &opts) {
  std::string file = !opts.sourceName.empty() ? opts.sourceName : pm.sourceName;
  auto m = std::make_unique<Module>(file, ctx);
  m->setTargetTriple(Triple("amdgcn-amd-amdhsa"));
  m->setDataLayout(amdgpuDataLayout());
  m->setSourceFileName(file);
  ModuleCtx mc(pm, ctx, *m, file);
  if (pm.addressSize != 64)
    mc.error({}, "unsupported .address_size " + std::to_string(pm.addressSize) + " (only 64)");
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
      opts.partialErrors->insert(opts.partialErrors->end(), mc.errors.begin() + before, mc.errors.end());
      mc.errors.resize(before);
    }
  }
  checkExitingFunctions(mc);
  if (!mc.errors.empty()) {
    std::string all;
    for (const auto &e : mc.errors) all += e + "\n";
    all.pop_back();
    return createStringError(inconvertibleErrorCode(), all);
  }
  if (opts.verify) {
    std::string msg;
    raw_string_ostream os(msg);
    if (verifyModule(*m, &os))
      return createStringError(inconvertibleErrorCode(),
                               file + ": error: internal: translated module is invalid:\n" + msg);
  }
  return m;
}

} // namespace ptx2llvm
