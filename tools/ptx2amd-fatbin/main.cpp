//===- ptx2amd-fatbin - translate the PTX of a CUDA binary to AMDGPU code ----===//
//
// Offline converter for CI: reads a host executable/object built by nvcc
// (its .nv_fatbin / __nv_relfatbin sections) or a raw fatbin file
// (nvcc -fatbin), extracts the best PTX of every fatbin container with
// ptxfatbin (zstd / LZ4 payloads included) and translates each with libptxjit
// into an AMDGPU code object (one --offload-arch, output *.hsaco or *.co) or a
// clang offload bundle (any number of archs). With several PTX modules the
// outputs are OUT.0, OUT.1, ...; when all are relocatable (-rdc objects) they
// are linked into one output instead. Exit status 1 on any error, with the
// translator's diagnostics on stderr. Bundles carry a manifest in the host
// entry (runtime/BundleLookup.h): the cache key of each code object, so the
// runtime uses a bundle placed as PROG.bundle[.N] next to the program (or in
// $PTX2AMD_BUNDLE_PATH) only for exactly the PTX, target and options it was
// made from, before any JIT.
//
//===----------------------------------------------------------------------===//
#include "InputFile.h"
#include "StdoutStatus.h"
#include "ptxjit.h"
#include "amdgpulower/Lower.h"
#include "fatbin/Fatbin.h"
#include "runtime/BundleLookup.h"
#include "runtime/CacheOptions.h"
#include "support/CommandLine.h"
#include "support/Diagnostic.h"
#include "support/OutputFile.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {
const char *Usage =
    "ptx2amd-fatbin INPUT (ELF from nvcc | .fatbin) [-o OUT] [--offload-arch=gfxNNN ...]\n"
    "         [--warp-policy=pack|pad|K=pad] [--sm=90 (highest PTX arch to pick)] [--emit=bundle|code-object]\n"
    "         [--list]   (print the PTX modules found and exit)\n"
    "  Without -o the output is INPUT.hsaco (one arch) or INPUT.bundle; without --offload-arch, gfx1100.";

[[noreturn]] void die(const std::string &M) {
  fprintf(stderr, "ptx2amd-fatbin: %s\n", M.c_str());
  exit(1);
}
bool endsWith(const std::string &S, const char *Suf) {
  size_t N = strlen(Suf);
  return S.size() >= N && S.compare(S.size() - N, N, Suf) == 0;
}
} // namespace

static int runTool(int argc, char **argv) {
  std::string In, Emit;
  std::vector<std::string> Inputs;
  unsigned SM = 90;
  bool List = false;
  support::cl::CommonOptions Common;
  support::cl::Parser P("ptx2amd-fatbin", Usage);
  support::cl::addCommonOptions(P, Common);
  P.unsignedValue("--sm", "<n>", "highest PTX architecture to pick (default 90)", SM);
  P.value("--emit", "bundle|code-object", "output kind (default: code object for one arch, else bundle)", Emit);
  P.flag("--list", "print the PTX modules found and exit", List);
  P.positional(Inputs);
  if (llvm::Error E = P.parse(argc, argv)) die(llvm::toString(std::move(E)));
  if (Common.help) { fputs(P.help().c_str(), stdout); return 0; }
  if (Common.version) { puts(support::cl::versionLine("ptx2amd-fatbin").c_str()); return 0; }
  if (Inputs.size() > 1) die("more than one input");
  if (Inputs.empty()) die("missing arguments\nusage: " + std::string(Usage));
  In = Inputs[0];
  std::vector<std::string> Archs = Common.offloadArchs;
  if (Archs.empty()) {
    Archs.push_back(Common.arch());
    if (Common.verbose) fprintf(stderr, "ptx2amd-fatbin: no --offload-arch given: compiling for %s\n", Archs[0].c_str());
  }
  std::string Out = Common.output;
  if (Out.empty()) {
    std::string Base = In.substr(In.find_last_of('/') + 1);
    Out = Base + (Archs.size() == 1 && Emit != "bundle" ? ".hsaco" : ".bundle");
  }
  if (Emit.empty()) Emit = (Archs.size() == 1 && !endsWith(Out, ".bundle")) ? "code-object" : "bundle";
  if (Emit != "bundle" && Emit != "code-object") die("--emit must be bundle or code-object");
  if (Emit == "code-object" && Archs.size() != 1) die("a code object holds exactly one --offload-arch; use --emit=bundle");

  std::string Raw, ReadErr;
  if (!ptx2amd::tools::readInputFile(In, Raw, ReadErr, ptx2amd::tools::MaxBinaryInputBytes)) die(ReadErr);
  llvm::ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Raw.data()), Raw.size());
  auto Mods = ptxfatbin::ptxFromFile(Bytes, SM);
  if (!Mods) die(llvm::toString(Mods.takeError()));
  if (Mods->empty()) die("'" + In + "' holds no PTX (compile with -gencode arch=compute_XX,code=compute_XX)");
  if (List) {
    for (size_t I = 0; I < Mods->size(); ++I)
      printf("module %zu: PTX for sm_%u, %zu bytes%s\n", I, (*Mods)[I].arch, (*Mods)[I].text.size(),
             (*Mods)[I].relocatable() ? ", relocatable (-rdc)" : "");
    return 0;
  }

  ptxjit_context Ctx;
  if (ptxjit_context_create(&Ctx) != PTXJIT_SUCCESS) die("cannot create a ptxjit context");
  int Status = 0;
  auto CPolicy = [](support::WarpPolicy W) {
    return W == support::WarpPolicy::Pad ? PTXJIT_WARP_POLICY_PAD : PTXJIT_WARP_POLICY_PACK;
  };
  // One translation per (module, arch): a code object each; bundles are
  // assembled here so the manifest can name every entry's cache key.
  // A job is one module, or all relocatable (-rdc) modules, linked into one image.
  struct Job {
    std::vector<std::string> texts, names;
    uint32_t arch = 0;
  };
  std::vector<Job> Jobs;
  bool AllRelocatable = Mods->size() > 1;
  for (const auto &M : *Mods) AllRelocatable &= M.relocatable();
  for (size_t I = 0; I < Mods->size(); ++I) {
    if (!AllRelocatable || Jobs.empty()) Jobs.emplace_back();
    Jobs.back().texts.push_back((*Mods)[I].text);
    Jobs.back().names.push_back(In + ":ptx" + std::to_string(I));
    Jobs.back().arch = std::max(Jobs.back().arch, (*Mods)[I].arch);
  }
  auto compileOne = [&](const Job &J, const std::string &Arch, std::vector<char> &Bytes) {
    ptxjit_options O;
    ptxjit_options_create(&O);
    if (ptxjit_options_add_arch(O, Arch.c_str()) != PTXJIT_SUCCESS) die("unknown --offload-arch '" + Arch + "'");
    if (Common.warpPolicy.module) ptxjit_options_set_warp_policy(O, CPolicy(*Common.warpPolicy.module));
    for (const auto &[K, W] : Common.warpPolicy.kernels) ptxjit_options_set_kernel_warp_policy(O, K.c_str(), CPolicy(W));
    ptxjit_options_set_opt_level(O, Common.optLevel);
    ptxjit_options_set_threads(O, Common.threads);
    ptxjit_options_set_emit(O, PTXJIT_EMIT_CODE_OBJECT);
    ptxjit_options_set_source_name(O, J.names[0].c_str());
    std::vector<const char *> Texts, Names;
    std::vector<size_t> Sizes;
    for (size_t K = 0; K < J.texts.size(); ++K) {
      Texts.push_back(J.texts[K].data());
      Sizes.push_back(J.texts[K].size());
      Names.push_back(J.names[K].c_str());
    }
    ptxjit_result R = nullptr;
    ptxjit_status S = ptxjit_compile_linked(Ctx, Texts.size(), Texts.data(), Sizes.data(), Names.data(), O, &R);
    for (size_t D = 0; R && D < ptxjit_result_diagnostic_count(R); ++D) {
      ptxjit_diagnostic Dg;
      if (ptxjit_result_diagnostic(R, D, &Dg) == PTXJIT_SUCCESS)
        fputs(support::render({Dg.severity == PTXJIT_SEVERITY_ERROR     ? support::Severity::Error
                               : Dg.severity == PTXJIT_SEVERITY_WARNING ? support::Severity::Warning
                                                                        : support::Severity::Note,
                               *Dg.file ? Dg.file : J.names[0], Dg.line, Dg.column, Dg.message})
                  .c_str(),
              stderr);
    }
    size_t Size = 0;
    const void *Data = R ? ptxjit_result_data(R, &Size) : nullptr;
    bool Ok = S == PTXJIT_SUCCESS && Data;
    if (Ok) Bytes.assign(static_cast<const char *>(Data), static_cast<const char *>(Data) + Size);
    if (R) ptxjit_result_destroy(R);
    ptxjit_options_destroy(O);
    return Ok;
  };
  for (size_t I = 0; I < Jobs.size(); ++I) {
    const Job &J = Jobs[I];
    std::string Path = Jobs.size() == 1 ? Out : Out + "." + std::to_string(I);
    std::vector<char> Bytes;
    bool Ok = true;
    if (Emit == "code-object") {
      Ok = compileOne(J, Archs[0], Bytes);
    } else {
      std::vector<amdgpulower::BundleEntry> Entries;
      std::vector<std::pair<std::string, runtime::CacheKey>> Keys;
      for (const std::string &A : Archs) {
        std::vector<char> CO;
        if (!(Ok = compileOne(J, A, CO))) break;
        // The options ptxjit used, as the runtime's cache key sees them.
        amdgpulower::LowerOptions LO;
        LO.arch = A;
        LO.optLevel = Common.optLevel;
        if (Common.warpPolicy.module) LO.defaultPolicy = *Common.warpPolicy.module;
        for (const auto &[K, W] : Common.warpPolicy.kernels) LO.kernelPolicy[K] = W;
        Keys.push_back({runtime::bundleEntryIdFor(A), runtime::makeCacheKey(runtime::linkedPtxKeyText(J.texts), A, runtime::optionsFingerprint(LO))});
        Entries.push_back({runtime::bundleEntryIdFor(A), std::move(CO)});
      }
      if (Ok) {
        std::string M = runtime::makeBundleManifest(Keys);
        Bytes = amdgpulower::writeOffloadBundle(Entries, std::vector<char>(M.begin(), M.end()));
      }
    }
    if (!Ok) {
      fprintf(stderr, "ptx2amd-fatbin: translation of PTX module %zu (sm_%u%s) failed\n", I, J.arch,
              J.texts.size() > 1 ? (", " + std::to_string(J.texts.size()) + " -rdc modules linked").c_str() : "");
      support::removeStaleOutput(Path);
      Status = 1;
    } else {
      if (llvm::Error E = support::writeOutputFile(Path, std::string_view(Bytes.data(), Bytes.size())))
        die(llvm::toString(std::move(E)));
      printf("%s: PTX module %zu (sm_%u%s) -> %s (%zu bytes)\n", In.c_str(), I, J.arch,
             J.texts.size() > 1 ? (", " + std::to_string(J.texts.size()) + " -rdc modules linked").c_str() : "",
             Path.c_str(), Bytes.size());
    }
  }
  ptxjit_context_destroy(Ctx);
  return Status;
}

// A failed write to stdout (--help, --version or the tool's listing on a full
// disk) is a failure too (tools/common/StdoutStatus.h).
int main(int argc, char **argv) { return ptx2amd::tools::finishStdout("ptx2amd-fatbin", runTool(argc, argv), 1); }
