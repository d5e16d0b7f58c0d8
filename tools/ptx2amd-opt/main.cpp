//===- ptx2amd-opt - run amdgpu-lower passes by name on LLVM IR ---------------===//
//
// `opt` for amdgpu-lower: reads an LLVM IR module in ptx-to-llvm's output
// contract, runs the pipeline given with -passes (amdgpu-lower's named passes
// of amdgpulower/Passes.def, mixed freely with LLVM's own passes) for
// --offload-arch and --warp-policy, and prints the module. Diagnostics of the
// passes go to stderr through support::render; any error gives exit status 1.
// Used by the per-pass lit tests (tests/lit/amdgpu-lower/passes/).
//
//===----------------------------------------------------------------------===//
#include "InputFile.h"
#include "StdoutStatus.h"
#include "amdgpulower/NewPM.h"
#include "support/CommandLine.h"
#include "support/Error.h"
#include "support/OutputFile.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

static int runTool(int argc, char **argv) {
  support::cl::CommonOptions common;
  std::string passes;
  bool warnWarpSize = false;
  std::vector<std::string> inputs;
  support::cl::Parser p("ptx2amd-opt", "ptx2amd-opt in.ll -passes=<pipeline> [--offload-arch=<gfx>] [-o out.ll]");
  support::cl::addCommonOptions(p, common, support::cl::kOutput | support::cl::kOffloadArch |
                                               support::cl::kWarpPolicy | support::cl::kOptLevel |
                                               support::cl::kVerbose);
  p.value("-passes", "<pipeline>", "pass pipeline (amdgpulower/Passes.def names and LLVM passes)", passes);
  p.flag("-Wwarp-size", "warn about spin-waits under pack (ptx2amd-warp-size-check)", warnWarpSize);
  p.positional(inputs);
  auto die = [](const std::string &m) {
    std::fprintf(stderr, "ptx2amd-opt: error: %s\n", m.c_str());
    return 1;
  };
  if (llvm::Error e = p.parse(argc, argv)) return die(llvm::toString(std::move(e)));
  if (common.help) return std::fputs(p.help().c_str(), stdout), 0;
  if (common.version) return std::puts(support::cl::versionLine("ptx2amd-opt").c_str()), 0;
  if (inputs.size() != 1) return die("exactly one input file expected");
  if (passes.empty()) return die("no -passes given");

  // Read like every tool's input (tools/common/InputFile.h): a directory, a FIFO
  // without a writer or /dev/zero is a message, not a hang.
  std::string bytes, readErr;
  if (!ptx2amd::tools::readInputFile(inputs[0], bytes, readErr)) return die(readErr);
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseIR(llvm::MemoryBufferRef(bytes, inputs[0]), err, ctx);
  if (!m) {
    std::fputs(support::render({support::Severity::Error, inputs[0], unsigned(std::max(0, err.getLineNo())),
                                unsigned(std::max(0, err.getColumnNo() + 1)), err.getMessage().str()})
                   .c_str(),
               stderr);
    return 1;
  }

  amdgpulower::PassState state;
  state.opts.arch = common.arch();
  state.opts.optLevel = common.optLevel;
  state.opts.warnWarpSize = warnWarpSize;
  if (common.warpPolicy.module) state.opts.defaultPolicy = *common.warpPolicy.module;
  for (const auto &[k, pol] : common.warpPolicy.kernels) state.opts.kernelPolicy[k] = pol;

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  amdgpulower::registerPasses(pb, state);
  llvm::ModulePassManager mpm;
  if (llvm::Error e = pb.parsePassPipeline(mpm, passes)) return die(llvm::toString(std::move(e)));
  mpm.run(*m, mam);

  std::fputs(support::renderAll(state.diags).c_str(), stderr);
  if (state.failed()) {
    for (const support::Diagnostic &d : support::takeDiagnostics(state.takeError(), inputs[0]))
      std::fputs(support::render(d).c_str(), stderr);
    return 1;
  }
  std::string verify;
  llvm::raw_string_ostream vos(verify);
  if (llvm::verifyModule(*m, &vos)) return die("the module is invalid after the passes:\n" + verify);
  std::string text;
  llvm::raw_string_ostream os(text);
  m->print(os, nullptr);
  if (llvm::Error e = support::writeOutputFile(common.output, text)) return die(llvm::toString(std::move(e)));
  return 0;
}

// A failed write to stdout (--help, --version or the tool's listing on a full
// disk) is a failure too (tools/common/StdoutStatus.h).
int main(int argc, char **argv) { return ptx2amd::tools::finishStdout("ptx2amd-opt", runTool(argc, argv), 1); }
