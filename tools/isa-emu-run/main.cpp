//===- isa-emu-run - run one kernel on the machine-code emulator -----------===//
//
// Input: an AMDGPU code object (.hsaco / .co) or a PTX file, which is
// translated with ptx2amd (ptxjit::translate + amdgpulower::compileModule:
// the code object we ship). Arguments as in ptx2amd-run: scalars
// (u32:5, f32:1.5, ...) and buffers (buf:TYPE:COUNT:INIT). --diff (PTX
// input) runs the same launch on amdgpu-emu (the lowered IR) with identical
// inputs and reports the first differing output byte of every buffer.
// --list-missing loads the code object and lists opcodes without handlers.
// Exit status 1 on any error or difference.
//
//===----------------------------------------------------------------------===//
#include "InputFile.h"
#include "KernelArgs.h"
#include "StdoutStatus.h"
#include "emu/Emu.h"
#include "isa-emu/IsaEmu.h"
#include "ptxjit/Lowering.h"
#include "support/CommandLine.h"
#include "support/Error.h"


#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *Usage =
    "isa-emu-run FILE.{ptx,hsaco} --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]\n"
    "         [--offload-arch gfx1100] [--warp-policy pack|pad|K=pad] [--dyn-lds BYTES] [--diff]\n"
    "         [--arg u32:5 | i32:-1 | u64:N | i64:N | f32:1.5 | f64:2.5]... [--arg buf:TYPE:COUNT:INIT]...\n"
    "         [--dump bufK[:N]]... [--counters] [-j N] [--disasm]\n"
    "       isa-emu-run FILE --list-missing [--offload-arch gfx1100]";

[[noreturn]] void die(const std::string &M) {
  fprintf(stderr, "isa-emu-run: %s\n", M.c_str());
  exit(1);
}

void parseDim(const std::string &S, uint32_t D[3]) {
  auto R = ptx2amd::tools::parseDims(S);
  if (!R) die(llvm::toString(R.takeError()));
  D[0] = (*R)[0], D[1] = (*R)[1], D[2] = (*R)[2];
}

void printDiagnostics(const std::vector<support::Diagnostic> &Diags, const std::string &File, llvm::StringRef Text) {
  for (const support::Diagnostic &D : Diags)
    fputs(support::render(D, D.file == File ? std::string_view(Text.data(), Text.size()) : std::string_view()).c_str(),
          stderr);
}


} // namespace

static int runTool(int argc, char **argv) {
  std::string File, Kernel, GridSpec, BlockSpec;
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  unsigned DynLds = 0;
  std::vector<std::string> Inputs, ArgSpecs, Dumps;
  bool Diff = false, Counters = false, ListMissing = false, Disasm = false;
  support::cl::CommonOptions Common;
  support::cl::Parser P("isa-emu-run", Usage);
  support::cl::addCommonOptions(P, Common, support::cl::kAllCommon & ~(support::cl::kOutput | support::cl::kOptLevel));
  P.value("--kernel", "<name>", "kernel to launch (mangled name)", Kernel);
  P.value("--grid", "X[,Y,Z]", "grid size in blocks", GridSpec);
  P.value("--block", "X[,Y,Z]", "block size in threads", BlockSpec);
  P.unsignedValue("--dyn-lds", "<bytes>", "dynamic shared memory per block", DynLds);
  P.list("--arg", "<spec>", "kernel argument: TYPE:VALUE or buf:TYPE:COUNT:INIT (repeatable, in order)", ArgSpecs);
  P.list("--dump", "bufK[:N]", "print buffer K after the launch (repeatable)", Dumps);
  P.flag("--diff", "also run the launch on amdgpu-emu (PTX input) and compare every buffer", Diff);
  P.flag("--counters", "print the lane- and wave-instruction counts", Counters);
  P.flag("--list-missing", "load the code object and list the opcodes without a handler", ListMissing);
  P.flag("--disasm", "print the kernel's disassembly", Disasm);
  // Older spellings, kept for existing scripts: --arch = --offload-arch, --threads = -j.
  P.add({"--arch", true, "<gfx>", "", [&](std::string_view V) {
           Common.offloadArchs.clear();
           Common.offloadArchs.emplace_back(V);
           return llvm::Error::success();
         }, true});
  P.unsignedValue("--threads", "<n>", "", Common.threads);
  P.hideLast();
  P.positional(Inputs);
  if (llvm::Error E = P.parse(argc, argv)) die(llvm::toString(std::move(E)));
  if (Common.help) { fputs(P.help().c_str(), stdout); return 0; }
  if (Common.version) { puts(support::cl::versionLine("isa-emu-run").c_str()); return 0; }
  if (Inputs.size() > 1) die("more than one input file");
  if (Inputs.empty()) die(std::string("missing input\nusage: ") + Usage);
  File = Inputs[0];
  if (!GridSpec.empty()) parseDim(GridSpec, Grid);
  if (!BlockSpec.empty()) parseDim(BlockSpec, Block);
  if (Common.offloadArchs.size() > 1) die("isa-emu-run runs on one --offload-arch");
  const std::string Arch = Common.arch();
  if (!support::findTarget(Arch))
    die("unsupported --offload-arch '" + Arch + "' (supported: " + support::supportedTargetList() + ")");
  const unsigned Threads = Common.threads;
  support::WarpPolicy Policy = Common.warpPolicy.module.value_or(support::WarpPolicy::Pack);
  for (const auto &[K, Pol] : Common.warpPolicy.kernels) // later entries win
    if (K == Kernel) Policy = Pol;
  std::string TextStore, ReadErr;
  if (!ptx2amd::tools::readInputFile(File, TextStore, ReadErr)) die(ReadErr);
  llvm::StringRef Text = TextStore;
  bool IsElf = Text.starts_with("\x7f" "ELF");

  amdgpulower::LowerOptions LO;
  LO.arch = Arch;
  LO.defaultPolicy = Common.warpPolicy.module.value_or(support::WarpPolicy::Pack);
  for (const auto &[K, Pol] : Common.warpPolicy.kernels) LO.kernelPolicy[K] = Pol;
  LO.threads = 1;
  std::vector<char> CodeObject;
  if (IsElf) CodeObject.assign(Text.begin(), Text.end());
  else {
    llvm::LLVMContext Ctx;
    std::vector<amdgpulower::Diagnostic> Diags;
    auto M = ptxjit::translate(Text, File, ptxjit::InputKind::PTX, Ctx, Diags);
    printDiagnostics(Diags, File, Text);
    if (!M) {
      // Its errors are the error diagnostics just printed (ptxjit/Lowering.h).
      llvm::consumeError(M.takeError());
      die("translation failed");
    }
    Diags.clear();
    auto CO = amdgpulower::compileModule(std::move(*M), LO, amdgpulower::OutputKind::CodeObject, Diags);
    printDiagnostics(Diags, File, Text);
    if (!CO) die(llvm::toString(CO.takeError()));
    CodeObject = std::move(*CO);
  }

  isaemu::DeviceOptions DO;
  DO.threads = Threads;
  auto Dev = isaemu::Device::create(DO);
  if (!Dev) die(llvm::toString(Dev.takeError()));
  std::set<std::string> Missing;
  auto Prog = (*Dev)->loadCodeObject(CodeObject, ListMissing ? &Missing : nullptr);
  if (!Prog) die(llvm::toString(Prog.takeError()));
  if (ListMissing) {
    for (auto &M : Missing) printf("%s\n", M.c_str());
    printf("%zu opcodes without a handler\n", Missing.size());
    return 0;
  }
  if (Kernel.empty()) die("missing --kernel");
  auto KI = (*Prog)->kernel(Kernel);
  if (!KI) die(llvm::toString(KI.takeError()));
  if (Disasm) fputs((*Prog)->disassembly(Kernel).c_str(), stdout);

  // Pad policy (wave64): one trailing explicit __ptx2amd_block_dim argument
  // and a hardware workgroup of 64 * ceil(T / 32) lanes.
  bool Pad = (*KI)->waveSize == 64 && Policy == support::WarpPolicy::Pad &&
             (*KI)->explicitArgs.size() == ArgSpecs.size() + 1;
  if ((*KI)->explicitArgs.size() != ArgSpecs.size() + (Pad ? 1 : 0))
    die("kernel '" + Kernel + "' takes " + std::to_string((*KI)->explicitArgs.size()) + " arguments, " +
        std::to_string(ArgSpecs.size()) + " given");

  std::vector<ptx2amd::tools::KernelArg> Args;
  for (const std::string &Spec : ArgSpecs) {
    auto KA = ptx2amd::tools::parseKernelArg(Spec);
    if (!KA) die(llvm::toString(KA.takeError()));
    Args.push_back(std::move(*KA));
  }

  // ---- isa-emu
  std::vector<uint64_t> IsaAddr(Args.size());
  std::vector<std::vector<uint8_t>> Scalars(Args.size() + 1);
  std::vector<void *> Ptrs;
  for (size_t a = 0; a < Args.size(); ++a) {
    if (Args[a].isBuffer) {
      auto Addr = (*Dev)->malloc(std::max<uint64_t>(Args[a].bytes.size(), 1));
      if (!Addr) die(llvm::toString(Addr.takeError()));
      IsaAddr[a] = *Addr;
      if (auto E = (*Dev)->copyToDevice(*Addr, Args[a].bytes.data(), Args[a].bytes.size())) die(llvm::toString(std::move(E)));
      Scalars[a].resize(16);
      memcpy(Scalars[a].data(), &IsaAddr[a], 8);
    } else {
      Scalars[a] = Args[a].bytes;
      Scalars[a].resize(16);
    }
    Ptrs.push_back(Scalars[a].data());
  }
  isaemu::LaunchConfig LC;
  LC.grid = {Grid[0], Grid[1], Grid[2]};
  LC.block = {Block[0], Block[1], Block[2]};
  LC.dynamicLdsBytes = DynLds;
  if (Pad) {
    uint32_t T = Block[0] * Block[1] * Block[2];
    if (T > support::kPadMaxBlockThreads)
      die("pad policy supports at most " + std::to_string(support::kPadMaxBlockThreads) + " threads per block");
    uint32_t BD[4] = {Block[0], Block[1], Block[2], 0};
    Scalars.back().assign(reinterpret_cast<uint8_t *>(BD), reinterpret_cast<uint8_t *>(BD) + 16);
    Ptrs.push_back(Scalars.back().data());
    LC.block = {64 * ((T + 31) / 32), 1, 1};
  }
  if (auto E = (*Dev)->launch(**Prog, Kernel, LC, Ptrs.data())) die(llvm::toString(std::move(E)));
  std::vector<std::vector<uint8_t>> IsaOut(Args.size());
  for (size_t a = 0; a < Args.size(); ++a)
    if (Args[a].isBuffer) {
      IsaOut[a].resize(Args[a].bytes.size());
      if (auto E = (*Dev)->copyFromDevice(IsaOut[a].data(), IsaAddr[a], IsaOut[a].size())) die(llvm::toString(std::move(E)));
    }
  for (auto &Spec : Dumps) {
    auto D = ptx2amd::tools::parseDump(Spec, /*WithPath=*/false);
    if (!D) die(llvm::toString(D.takeError()));
    size_t Seen = 0, A = 0;
    for (; A < Args.size(); ++A)
      if (Args[A].isBuffer && Seen++ == D->buffer) break;
    if (A == Args.size()) die("no buffer 'buf" + std::to_string(D->buffer) + "'");
    uint64_t N = std::min<uint64_t>(Args[A].count, D->count.value_or(Args[A].count));
    std::string Line = "buf" + std::to_string(D->buffer) + ":";
    ptx2amd::tools::formatElements(Args[A].type, Args[A].elemBytes, IsaOut[A].data(), N, Line);
    printf("%s\n", Line.c_str());
  }
  if (Counters) {
    auto C = (*Dev)->counters();
    printf("lane-instructions: %" PRIu64 "\nwave-instructions: %" PRIu64 "\n", C.laneInstructions, C.waveInstructions);
  }
  if (!Diff) return 0;
  if (IsElf) die("--diff needs PTX input");

  // ---- amdgpu-emu, same inputs
  auto Ctx = std::make_unique<llvm::LLVMContext>();
  std::vector<amdgpulower::Diagnostic> Diags;
  auto M = ptxjit::lowerPTX(Text, File, *Ctx, LO, Diags);
  if (!M) {
    printDiagnostics(Diags, File, Text);
    llvm::consumeError(M.takeError());
    die("translation for amdgpu-emu failed");
  }
  auto EDev = emu::Device::create({});
  if (!EDev) die(llvm::toString(EDev.takeError()));
  auto EMod = (*EDev)->loadModule(std::move(*M), std::move(Ctx));
  if (!EMod) die(llvm::toString(EMod.takeError()));
  std::vector<uint64_t> EAddr(Args.size());
  std::vector<std::vector<uint8_t>> EScal(Args.size());
  std::vector<void *> EPtrs;
  for (size_t a = 0; a < Args.size(); ++a) {
    if (Args[a].isBuffer) {
      auto Addr = (*EDev)->malloc(std::max<uint64_t>(Args[a].bytes.size(), 1));
      if (!Addr) die(llvm::toString(Addr.takeError()));
      EAddr[a] = *Addr;
      if (auto E = (*EDev)->copyToDevice(*Addr, Args[a].bytes.data(), Args[a].bytes.size())) die(llvm::toString(std::move(E)));
      EScal[a].resize(16);
      memcpy(EScal[a].data(), &EAddr[a], 8);
    } else {
      EScal[a] = Args[a].bytes;
      EScal[a].resize(16);
    }
    EPtrs.push_back(EScal[a].data());
  }
  emu::LaunchConfig EC;
  EC.grid = {Grid[0], Grid[1], Grid[2]};
  EC.block = {Block[0], Block[1], Block[2]};
  EC.dynamicLdsBytes = DynLds;
  if (auto E = (*EDev)->launch(**EMod, Kernel, EC, EPtrs.data())) die("emu: " + llvm::toString(std::move(E)));
  int Rc = 0;
  size_t BufIdx = 0;
  for (size_t a = 0; a < Args.size(); ++a) {
    if (!Args[a].isBuffer) continue;
    std::vector<uint8_t> Out(Args[a].bytes.size());
    if (auto E = (*EDev)->copyFromDevice(Out.data(), EAddr[a], Out.size())) die(llvm::toString(std::move(E)));
    size_t k = 0;
    while (k < Out.size() && Out[k] == IsaOut[a][k]) ++k;
    if (k < Out.size()) {
      printf("buf%zu: first difference at byte %zu (element %zu): isa 0x%02x, emu 0x%02x\n", BufIdx, k,
             k / Args[a].elemBytes, IsaOut[a][k], Out[k]);
      Rc = 1;
    } else printf("buf%zu: %zu bytes equal on isa and emu\n", BufIdx, Out.size());
    ++BufIdx;
  }
  return Rc;
}

// A failed write to stdout (--help, --version or the tool's listing on a full
// disk) is a failure too (tools/common/StdoutStatus.h).
int main(int argc, char **argv) { return ptx2amd::tools::finishStdout("isa-emu-run", runTool(argc, argv), 1); }
