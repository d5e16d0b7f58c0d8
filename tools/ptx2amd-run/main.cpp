//===- ptx2amd-run - run one kernel of a PTX file on amdgpu-emu -------------===//
//
// Translates a PTX file with ptx2amd (ptxjit::lowerPTX) for an AMD target and
// launches one kernel on the emulator with arguments from the command line:
// scalars (u32:5, f32:1.5, ...) and buffers (buf:TYPE:COUNT:INIT with INIT =
// zero | iota | fill:V | rand:SEED | file:PATH), then prints the buffers
// asked for with --dump and, with --counters, the lane-instruction count.
// Meant for users and bug reports; exit status 1 on any error (translation,
// load, launch fault), with the emulator's report on stderr.
//
//===----------------------------------------------------------------------===//
#include "InputFile.h"
#include "KernelArgs.h"
#include "StdoutStatus.h"
#include "emu/Emu.h"
#include "ptxjit/Link.h"
#include "ptxjit/Lowering.h"
#include "support/CommandLine.h"
#include "support/Error.h"
#include "support/OutputFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *Usage =
    "ptx2amd-run FILE.ptx [MORE.ptx ... (-rdc modules, linked)] --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]\n"
    "         [--offload-arch gfx1100] [--warp-policy pack|pad|K=pad] [--dyn-lds BYTES] [--cooperative]\n"
    "         [--arg u32:5 | i32:-1 | u64:N | i64:N | f32:1.5 | f64:2.5 | u16:N | u8:N]...\n"
    "         [--arg buf:TYPE:COUNT:INIT]...   TYPE: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64\n"
    "                                          INIT: zero | iota | fill:V | rand:SEED | file:PATH\n"
    "         [--dump bufK[:N]]... [--dump-file bufK:PATH]... [--counters] [-j N]\n"
    "       ptx2amd-run FILE.ptx --check [--offload-arch gfx1100] [--warp-policy pack|pad]\n"
    "         (translate and load only: reports anything the emulator cannot execute)";

[[noreturn]] void die(const std::string &Msg) {
  fprintf(stderr, "ptx2amd-run: %s\n", Msg.c_str());
  exit(1);
}

struct Buffer {
  std::string type;
  unsigned elem = 4;
  uint64_t count = 0;
  uint64_t addr = 0;
};

emu::Dim3 parseDim(const std::string &S) {
  auto D = ptx2amd::tools::parseDims(S);
  if (!D) die(llvm::toString(D.takeError()));
  emu::Dim3 R;
  R.x = (*D)[0], R.y = (*D)[1], R.z = (*D)[2];
  return R;
}

} // namespace

static int runTool(int argc, char **argv) {
  std::string File, Kernel, Grid, Block;
  emu::LaunchConfig Cfg;
  std::vector<std::string> Inputs, ArgSpecs, Dumps, DumpFiles;
  bool Counters = false, Check = false;
  support::cl::CommonOptions Common;
  support::cl::Parser P("ptx2amd-run", Usage);
  support::cl::addCommonOptions(P, Common, support::cl::kAllCommon & ~support::cl::kOutput);
  P.value("--kernel", "<name>", "kernel to launch (mangled name)", Kernel);
  P.value("--grid", "X[,Y,Z]", "grid size in blocks", Grid);
  P.value("--block", "X[,Y,Z]", "block size in threads", Block);
  P.unsignedValue("--dyn-lds", "<bytes>", "dynamic shared memory per block", Cfg.dynamicLdsBytes);
  P.flag("--cooperative", "cooperative launch (all blocks resident)", Cfg.cooperative);
  P.list("--arg", "<spec>", "kernel argument: TYPE:VALUE or buf:TYPE:COUNT:INIT (repeatable, in order)", ArgSpecs);
  P.list("--dump", "bufK[:N]", "print buffer K after the launch (repeatable)", Dumps);
  P.list("--dump-file", "bufK:PATH", "write buffer K to PATH after the launch (repeatable)", DumpFiles);
  P.flag("--counters", "print the lane- and wave-instruction counts", Counters);
  P.flag("--check", "translate and load only (no launch)", Check);
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
  if (Common.version) { puts(support::cl::versionLine("ptx2amd-run").c_str()); return 0; }
  if (!Inputs.empty()) File = Inputs[0]; // several: -rdc modules linked (ptxjit/Link.h)
  if (File.empty() || (!Check && (Kernel.empty() || Grid.empty() || Block.empty())))
    die("missing arguments\nusage: " + std::string(Usage));
  if (!Grid.empty()) Cfg.grid = parseDim(Grid);
  if (!Block.empty()) Cfg.block = parseDim(Block);
  if (Common.offloadArchs.size() > 1) die("ptx2amd-run runs on one --offload-arch");
  const std::string Arch = Common.arch();
  if (!support::findTarget(Arch))
    die("unsupported --offload-arch '" + Arch + "' (supported: " + support::supportedTargetList() + ")");
  const unsigned Threads = Common.threads;
  if (Common.verbose) fprintf(stderr, "ptx2amd-run: %s on %s, -O%u\n", File.c_str(), Arch.c_str(), Common.optLevel);

  std::string Text, ReadErr;
  if (!ptx2amd::tools::readInputFile(File, Text, ReadErr)) die(ReadErr);
  std::vector<std::string> MoreText(Inputs.size() > 1 ? Inputs.size() - 1 : 0);
  for (size_t I = 1; I < Inputs.size(); ++I)
    if (!ptx2amd::tools::readInputFile(Inputs[I], MoreText[I - 1], ReadErr)) die(ReadErr);
  auto Ctx = std::make_unique<llvm::LLVMContext>();
  amdgpulower::LowerOptions LO;
  LO.arch = Arch;
  LO.optLevel = Common.optLevel;
  LO.defaultPolicy = Common.warpPolicy.module.value_or(amdgpulower::WarpPolicy::Pack);
  for (const auto &[K, Pol] : Common.warpPolicy.kernels) LO.kernelPolicy[K] = Pol;
  std::vector<amdgpulower::Diagnostic> Diags;
  bool IsLL = File.size() > 3 && File.substr(File.size() - 3) == ".ll";
  llvm::Expected<std::unique_ptr<llvm::Module>> M = nullptr;
  if (MoreText.empty()) {
    M = ptxjit::lowerPTX(Text, File, *Ctx, LO, Diags, IsLL ? ptxjit::InputKind::LLVMIR : ptxjit::InputKind::PTX);
  } else {
    std::vector<ptxjit::PTXUnit> Units{{Text, File}};
    for (size_t I = 0; I < MoreText.size(); ++I) Units.push_back({MoreText[I], Inputs[I + 1]});
    M = ptxjit::translateUnits(Units, ptxjit::InputKind::PTX, *Ctx, Diags);
    if (M)
      if (llvm::Error E = amdgpulower::lowerModule(**M, LO, Diags)) {
        support::copyDiagnostics(E, Diags, File);
        M = std::move(E);
      }
  }
  for (auto &D : Diags) fputs(support::render(D, D.file == File ? std::string_view(Text) : std::string_view()).c_str(), stderr);
  if (!M) {
    // Its errors are the error diagnostics just printed (ptxjit/Lowering.h).
    llvm::consumeError(M.takeError());
    die("translation failed");
  }

  emu::DeviceOptions DO;
  DO.threads = Threads;
  auto Dev = emu::Device::create(DO);
  if (!Dev) die(llvm::toString(Dev.takeError()));
  auto Mod = (*Dev)->loadModule(std::move(*M), std::move(Ctx));
  if (!Mod) die(llvm::toString(Mod.takeError()));
  if (Check) {
    uint32_t MaxSlots = 0, MaxValues = 0;
    for (auto &N : (*Mod)->kernelNames())
      if (auto K = (*Mod)->kernel(N)) {
        MaxSlots = std::max(MaxSlots, K->registerSlots);
        MaxValues = std::max(MaxValues, K->ssaValues);
      } else llvm::consumeError(K.takeError());
    printf("%s: %zu kernels load on emu for %s (largest kernel frame: %u register slots for %u SSA value slots)\n",
           File.c_str(), (*Mod)->kernelNames().size(), Arch.c_str(), MaxSlots, MaxValues);
    return 0;
  }
  auto KI = (*Mod)->kernel(Kernel);
  if (!KI) die(llvm::toString(KI.takeError()));
  if (KI->argSizes.size() != ArgSpecs.size())
    die("kernel '" + Kernel + "' takes " + std::to_string(KI->argSizes.size()) + " arguments, " +
        std::to_string(ArgSpecs.size()) + " given");

  std::vector<Buffer> Buffers;
  std::vector<std::vector<uint8_t>> Storage(ArgSpecs.size());
  std::vector<void *> Args;
  for (size_t a = 0; a < ArgSpecs.size(); ++a) {
    auto KA = ptx2amd::tools::parseKernelArg(ArgSpecs[a]);
    if (!KA) die(llvm::toString(KA.takeError()));
    std::vector<uint8_t> &S = Storage[a];
    if (KA->isBuffer) {
      Buffer B;
      B.type = KA->type;
      B.elem = KA->elemBytes;
      B.count = KA->count;
      auto Addr = (*Dev)->malloc(KA->bytes.size());
      if (!Addr) die(llvm::toString(Addr.takeError()));
      B.addr = *Addr;
      if (auto E = (*Dev)->copyToDevice(B.addr, KA->bytes.data(), KA->bytes.size())) die(llvm::toString(std::move(E)));
      S.resize(8);
      memcpy(S.data(), &B.addr, 8);
      Buffers.push_back(B);
    } else {
      S = std::move(KA->bytes);
    }
    if (S.size() < KI->argSizes[a]) S.resize(KI->argSizes[a]);
    Args.push_back(S.data());
  }
  if (auto E = (*Dev)->launch(**Mod, Kernel, Cfg, Args.data())) die(llvm::toString(std::move(E)));

  auto findBuf = [&](const ptx2amd::tools::DumpRequest &D) -> Buffer & {
    if (D.buffer >= Buffers.size()) die("no buffer 'buf" + std::to_string(D.buffer) + "'");
    return Buffers[D.buffer];
  };
  for (auto &Spec : Dumps) {
    auto D = ptx2amd::tools::parseDump(Spec, /*WithPath=*/false);
    if (!D) die(llvm::toString(D.takeError()));
    Buffer &B = findBuf(*D);
    uint64_t N = std::min<uint64_t>(B.count, D->count.value_or(B.count));
    std::vector<uint8_t> Host(N * B.elem);
    if (auto E = (*Dev)->copyFromDevice(Host.data(), B.addr, Host.size())) die(llvm::toString(std::move(E)));
    std::string Line = "buf" + std::to_string(D->buffer) + ":";
    ptx2amd::tools::formatElements(B.type, B.elem, Host.data(), N, Line);
    printf("%s\n", Line.c_str());
  }
  for (auto &Spec : DumpFiles) {
    auto D = ptx2amd::tools::parseDump(Spec, /*WithPath=*/true);
    if (!D) die(llvm::toString(D.takeError()));
    Buffer &B = findBuf(*D);
    std::vector<uint8_t> Host(B.count * B.elem);
    if (auto E = (*Dev)->copyFromDevice(Host.data(), B.addr, Host.size())) die(llvm::toString(std::move(E)));
    // All-or-nothing, and a failed write (a full disk, /dev/full) is an error, not a lost buffer.
    if (llvm::Error E = support::writeOutputFile(
            D->path, std::string_view(reinterpret_cast<const char *>(Host.data()), Host.size())))
      die(llvm::toString(std::move(E)));
  }
  if (Counters) {
    auto C = (*Dev)->counters(Kernel);
    printf("lane-instructions: %" PRIu64 "\nwave-instructions: %" PRIu64 "\n", C.laneInstructions, C.waveInstructions);
  }
  return 0;
}

// A failed write to stdout (--help, --version or the tool's listing on a full
// disk) is a failure too (tools/common/StdoutStatus.h).
int main(int argc, char **argv) { return ptx2amd::tools::finishStdout("ptx2amd-run", runTool(argc, argv), 1); }
