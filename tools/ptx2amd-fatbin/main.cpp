//===- ptx2amd-fatbin - translate the PTX of a CUDA binary to AMDGPU code ----===//
//
// Offline converter for CI: reads a host executable/object built by nvcc
// (its .nv_fatbin / __nv_relfatbin sections) or a raw fatbin file
// (nvcc -fatbin), extracts the best PTX of every fatbin container with
// ptxfatbin (zstd / LZ4 payloads included) and translates each with libptxjit
// into an AMDGPU code object (one --offload-arch, output *.hsaco or *.co) or a
// clang offload bundle (any number of archs). With several PTX modules the
// outputs are OUT.0, OUT.1, ... Exit status 1 on any error, with the
// translator's diagnostics on stderr.
//
//===----------------------------------------------------------------------===//
#include "fatbin/Fatbin.h"
#include "ptxjit.h"
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

int main(int argc, char **argv) {
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

  auto Buf = llvm::MemoryBuffer::getFile(In, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf) die("cannot read '" + In + "': " + Buf.getError().message());
  llvm::ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()), (*Buf)->getBufferSize());
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
  for (size_t I = 0; I < Mods->size(); ++I) {
    ptxjit_options O;
    ptxjit_options_create(&O);
    for (const std::string &A : Archs)
      if (ptxjit_options_add_arch(O, A.c_str()) != PTXJIT_SUCCESS) die("unknown --offload-arch '" + A + "'");
    auto CPolicy = [](support::WarpPolicy W) {
      return W == support::WarpPolicy::Pad ? PTXJIT_WARP_POLICY_PAD : PTXJIT_WARP_POLICY_PACK;
    };
    if (Common.warpPolicy.module) ptxjit_options_set_warp_policy(O, CPolicy(*Common.warpPolicy.module));
    for (const auto &[K, W] : Common.warpPolicy.kernels) ptxjit_options_set_kernel_warp_policy(O, K.c_str(), CPolicy(W));
    ptxjit_options_set_opt_level(O, Common.optLevel);
    ptxjit_options_set_threads(O, Common.threads);
    ptxjit_options_set_emit(O, Emit == "bundle" ? PTXJIT_EMIT_BUNDLE : PTXJIT_EMIT_CODE_OBJECT);
    std::string Name = In + ":ptx" + std::to_string(I);
    ptxjit_options_set_source_name(O, Name.c_str());
    ptxjit_result R = nullptr;
    ptxjit_status S = ptxjit_compile(Ctx, (*Mods)[I].text.data(), (*Mods)[I].text.size(), O, &R);
    for (size_t D = 0; R && D < ptxjit_result_diagnostic_count(R); ++D) {
      ptxjit_diagnostic Dg;
      if (ptxjit_result_diagnostic(R, D, &Dg) == PTXJIT_SUCCESS)
        fputs(support::render({Dg.severity == PTXJIT_SEVERITY_ERROR     ? support::Severity::Error
                               : Dg.severity == PTXJIT_SEVERITY_WARNING ? support::Severity::Warning
                                                                        : support::Severity::Note,
                               *Dg.file ? Dg.file : Name, Dg.line, Dg.column, Dg.message})
                  .c_str(),
              stderr);
    }
    size_t Size = 0;
    const void *Data = R ? ptxjit_result_data(R, &Size) : nullptr;
    std::string Path = Mods->size() == 1 ? Out : Out + "." + std::to_string(I);
    if (S != PTXJIT_SUCCESS || !Data) {
      fprintf(stderr, "ptx2amd-fatbin: translation of PTX module %zu (sm_%u) failed\n", I, (*Mods)[I].arch);
      support::removeStaleOutput(Path);
      Status = 1;
    } else {
      if (llvm::Error E = support::writeOutputFile(Path, std::string_view(static_cast<const char *>(Data), Size)))
        die(llvm::toString(std::move(E)));
      printf("%s: PTX module %zu (sm_%u) -> %s (%zu bytes)\n", In.c_str(), I, (*Mods)[I].arch, Path.c_str(), Size);
    }
    if (R) ptxjit_result_destroy(R);
    ptxjit_options_destroy(O);
  }
  ptxjit_context_destroy(Ctx);
  return Status;
}
