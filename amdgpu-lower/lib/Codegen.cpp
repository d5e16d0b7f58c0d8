//===- Codegen.cpp - TargetMachine, instruction selection, parallel split ---===//
//
// Creates the amdgcn-amd-amdhsa TargetMachine for a processor, runs
// instruction selection to an ELF relocatable or assembly, and implements
// compileModule(): the lowered (not yet optimised) module is split per
// kernel with the AMDGPU target's own module splitter (kernels with their
// call graphs, LDS kept per kernel), each part is serialised to bitcode,
// then worker threads - each with its own LLVMContext, since a context is
// single-threaded - optimise and compile the parts; lld links the objects
// into one code object. The whole module (and its context, when the caller
// hands it over) is freed before the parts are compiled.
//
//===----------------------------------------------------------------------===//
#include "BackendDiagnostics.h"
#include "Passes.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser();
}

namespace amdgpulower {

// One-time target setup. Besides registering the AMDGPU target this turns
// off AMDGPUPromoteAlloca's "promote private arrays to LDS": it grows a
// kernel's static LDS behind the PTX declarations' back, so less is left for
// the dynamic shared memory a CUDA launch asks for (the optimiser cannot
// know that size) and the metadata no longer equals the PTX .shared size.
// Promotion to vector registers stays on. The option is process-wide; it is
// set once, before any compilation, and never changed.
static void initAMDGPU() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
    auto &opts = llvm::cl::getRegisteredOptions();
    auto it = opts.find("disable-promote-alloca-to-lds");
    if (it != opts.end())
      if (auto *o = static_cast<llvm::cl::opt<bool> *>(it->second)) o->setValue(true);
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(std::string_view arch,
                                                                         unsigned optLevel) {
  initAMDGPU();
  if (!findTarget(arch))
    return support::invalidInput(support::noLocf("unsupported offload arch '%.*s'", int(arch.size()), arch.data()));
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string err;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target) return support::internalError(support::noLocf("AMDGPU target unavailable: %s", err.c_str()));
  llvm::TargetOptions to;
  llvm::CodeGenOptLevel ol = optLevel == 0   ? llvm::CodeGenOptLevel::None
                             : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                             : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                             : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, llvm::StringRef(arch.data(), arch.size()), "", to, llvm::Reloc::PIC_, std::nullopt, ol));
  if (!tm) return support::internalError(support::noLocf("cannot create a TargetMachine for %.*s", int(arch.size()), arch.data()));
  return tm;
}

llvm::Expected<std::vector<char>> emitMachineCode(llvm::Module &m, llvm::TargetMachine &tm,
                                                  bool assembly) {
  m.setDataLayout(tm.createDataLayout());
  m.setTargetTriple(tm.getTargetTriple());
  foldNaNFreeChecks(m);
  selectMinMax(m);
  if (auto e = lowerDirectedRounding(m, tm.getTargetCPU())) return std::move(e);
  trapCallsOfData(m);
  outlineDivision64(m);
  lowerFlushedExp2(m);
  llvm::SmallVector<char, 0> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             assembly ? llvm::CodeGenFileType::AssemblyFile
                                      : llvm::CodeGenFileType::ObjectFile))
    return support::internalError(support::noLocf("the AMDGPU target cannot emit this file type"));
  pm.run(m);
  return std::vector<char>(buf.begin(), buf.end());
}

namespace {
// Upper bound of compileModule()'s per-kernel parts (one part per kernel up
// to this many). Part of the output's definition: changing it changes the
// bytes of every module with more than one kernel.
constexpr unsigned kCodegenParts = 16;
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
} // namespace

llvm::Expected<std::vector<char>> compileModule(std::unique_ptr<llvm::Module> m,
                                                const LowerOptions &opts, OutputKind kind,
                                                std::vector<Diagnostic> &diags,
                                                std::vector<StageTime> *times,
                                                std::unique_ptr<llvm::LLVMContext> context) {
  if (context && context.get() != &m->getContext())
    return support::internalError(support::noLocf("compileModule: the context handed over is not the module's"));
  auto t0 = Clock::now();
  if (auto e = lowerModuleNoOpt(*m, opts, diags)) return e;
  if (auto e = checkUndefinedFunctions(*m)) return e;
  if (times) times->push_back({"lower (policy, ABI, devlib)", since(t0)});

  unsigned threads = opts.threads ? opts.threads : std::max(1u, std::thread::hardware_concurrency());
  unsigned kernels = 0;
  for (llvm::Function &f : *m)
    if (!f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL) ++kernels;

  // Split into bitcode parts. The number of parts depends on the module
  // only, never on `threads`: the partition decides which functions are
  // duplicated per part and the linked layout, so a thread-dependent count
  // gave different bytes for -j1 and -j2 (and a content-addressed cache
  // needs one answer). Threads only decide how many parts run at once.
  auto t1 = Clock::now();
  std::vector<llvm::SmallString<0>> parts;
  auto tm = createTargetMachine(opts.arch, opts.optLevel);
  if (!tm) return tm.takeError();
  unsigned nparts = std::min(kCodegenParts, std::max(1u, kernels));
  bool split = false;
  // Names of blocks and instructions do not reach the output (only
  // assembly prints block names, as comments; argument names do: the
  // metadata note lists each kernel argument's). They are dropped before the
  // split and each part's context discards every name its passes create,
  // which saves the symbol-table work of cloning, bitcode, inlining and
  // InstCombine. (A context's discard flag cannot be used for the split
  // itself: functions cloned under it get no symbol table, so not even
  // their argument names reach the bitcode.)
  bool keepNames = kind == OutputKind::Assembly;
  if (!keepNames)
    for (llvm::Function &f : *m)
      for (llvm::BasicBlock &bb : f) {
        bb.setName("");
        for (llvm::Instruction &in : bb) in.setName("");
      }
  // Only code objects are split: a relocatable object (--emit=obj) is one
  // part by definition and assembly must be one coherent file (the parts
  // duplicate shared functions under the same names).
  if (nparts > 1 && kind == OutputKind::CodeObject) {
    split = (*tm)->splitModule(*m, nparts, [&](std::unique_ptr<llvm::Module> part) {
      llvm::SmallString<0> bc;
      llvm::raw_svector_ostream os(bc);
      llvm::WriteBitcodeToFile(*part, os);
      parts.push_back(std::move(bc));
    });
  }
  if (!split) {
    parts.clear();
    llvm::SmallString<0> bc;
    llvm::raw_svector_ostream os(bc);
    llvm::WriteBitcodeToFile(*m, os);
    parts.push_back(std::move(bc));
  }
  m.reset();
  context.reset();
  if (times) times->push_back({"split (" + std::to_string(parts.size()) + " parts)", since(t1)});

  // Optimise + compile the parts in parallel.
  auto t2 = Clock::now();
  std::vector<std::vector<char>> outputs(parts.size());
  std::vector<std::optional<llvm::Error>> errors(parts.size());
  std::vector<std::vector<Diagnostic>> partDiags(parts.size());
  std::vector<double> optTime(parts.size()), cgTime(parts.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < parts.size();) {
      llvm::LLVMContext ctx;
      auto mod = llvm::parseBitcodeFile(llvm::MemoryBufferRef(parts[i].str(), "part"), ctx);
      if (!mod) { errors[i].emplace(mod.takeError()); continue; }
      ctx.setDiscardValueNames(!keepNames); // the names read stay (arguments: see above)
      BackendDiagnostics bd(ctx, (*mod)->getSourceFileName());
      auto to = Clock::now();
      if (auto e = optimizeModule(**mod, opts)) { errors[i].emplace(std::move(e)); continue; }
      optTime[i] = since(to);
      auto tc = Clock::now();
      // Machine code at CodeGenOptLevel::Default for -O2 and -O3. Aggressive
      // runs GVN instead of two of the codegen IR passes' EarlyCSE runs (work
      // nvcc and our middle end did already) and tail-duplicates more in
      // block placement; measured (docs/notes/session8-perf.md): bench/codegen
      // identical, the CUB module 1.4 % fewer instructions, less CPU time.
      auto ptm = createTargetMachine(opts.arch, std::min(opts.optLevel, 2u));
      if (!ptm) { errors[i].emplace(ptm.takeError()); continue; }
      auto out = emitMachineCode(**mod, **ptm, kind == OutputKind::Assembly);
      partDiags[i] = bd.all();
      if (bd.hasErrors()) { errors[i].emplace(bd.takeErrors()); continue; }
      if (!out) { errors[i].emplace(out.takeError()); continue; }
      cgTime[i] = since(tc);
      outputs[i] = std::move(*out);
    }
  };
  std::vector<std::thread> pool;
  unsigned nthreads = std::min<size_t>(threads, parts.size());
  for (unsigned i = 1; i < nthreads; ++i) pool.emplace_back(worker);
  worker();
  for (auto &t : pool) t.join();
  for (auto &pd : partDiags)
    for (auto &d : pd)
      if (d.severity != Severity::Error) diags.push_back(d);
  std::vector<llvm::Error> failed;
  for (auto &e : errors)
    if (e) failed.push_back(std::move(*e));
  if (!failed.empty()) return support::joinAll(std::move(failed));
  if (times) {
    double o = 0, c = 0;
    for (size_t i = 0; i < parts.size(); ++i) o += optTime[i], c += cgTime[i];
    times->push_back({"optimize (sum over parts)", o});
    times->push_back({"codegen (sum over parts)", c});
    times->push_back({"optimize+codegen wall (" + std::to_string(nthreads) + " threads)", since(t2)});
  }

  if (kind == OutputKind::Assembly) {
    std::vector<char> all;
    for (auto &o : outputs) all.insert(all.end(), o.begin(), o.end());
    return all;
  }
  if (kind == OutputKind::Object) {
    if (outputs.size() == 1) return std::move(outputs[0]);
    return support::invalidInput(support::noLocf("--emit=obj with several codegen parts: use one thread (-j1) "
                                   "or --emit=hsaco"));
  }
  auto t3 = Clock::now();
  auto linked = linkCodeObject(outputs);
  if (!linked) return linked.takeError();
  if (outputs.size() > 1)
    if (auto e = mergeMetadataNotes(*linked)) return e;
  if (times) times->push_back({"link (lld)", since(t3)});
  return linked;
}

} // namespace amdgpulower
