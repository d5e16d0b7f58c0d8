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
#include "InputFile.h"
#include "fatbin/Fatbin.h"
#include "ptxjit.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {
const char *Usage =
    "usage: ptx2amd-fatbin INPUT (ELF from nvcc | .fatbin) -o OUT --offload-arch=gfxNNN [--offload-arch=...]\n"
    "         [--warp-policy=pack|pad] [--sm=90 (highest PTX arch to pick)] [--emit=bundle|code-object]\n"
    "         [--list]   (print the PTX modules found and exit)\n";

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
  std::string In, Out, Policy = "pack", Emit;
  std::vector<std::string> Archs;
  unsigned SM = 90;
  bool List = false;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "-o" && I + 1 < argc) Out = argv[++I];
    else if (A.rfind("--offload-arch=", 0) == 0) Archs.push_back(A.substr(15));
    else if (A.rfind("--warp-policy=", 0) == 0) Policy = A.substr(14);
    else if (A.rfind("--sm=", 0) == 0) SM = unsigned(std::stoul(A.substr(5)));
    else if (A.rfind("--emit=", 0) == 0) Emit = A.substr(7);
    else if (A == "--list") List = true;
    else if (A == "-h" || A == "--help") { fputs(Usage, stdout); return 0; }
    else if (!A.empty() && A[0] == '-') die("unknown option '" + A + "'\n" + Usage);
    else if (In.empty()) In = A;
    else die("more than one input");
  }
  if (In.empty() || (!List && (Out.empty() || Archs.empty()))) die(std::string("missing arguments\n") + Usage);
  if (Policy != "pack" && Policy != "pad") die("--warp-policy must be pack or pad");
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
  for (size_t I = 0; I < Mods->size(); ++I) {
    ptxjit_options O;
    ptxjit_options_create(&O);
    for (const std::string &A : Archs)
      if (ptxjit_options_add_arch(O, A.c_str()) != PTXJIT_SUCCESS) die("unknown --offload-arch '" + A + "'");
    ptxjit_options_set_warp_policy(O, Policy == "pad" ? PTXJIT_WARP_POLICY_PAD : PTXJIT_WARP_POLICY_PACK);
    ptxjit_options_set_emit(O, Emit == "bundle" ? PTXJIT_EMIT_BUNDLE : PTXJIT_EMIT_CODE_OBJECT);
    std::string Name = In + ":ptx" + std::to_string(I);
    ptxjit_options_set_source_name(O, Name.c_str());
    ptxjit_result R = nullptr;
    ptxjit_status S = ptxjit_compile(Ctx, (*Mods)[I].text.data(), (*Mods)[I].text.size(), O, &R);
    for (size_t D = 0; R && D < ptxjit_result_diagnostic_count(R); ++D) {
      ptxjit_diagnostic Dg;
      if (ptxjit_result_diagnostic(R, D, &Dg) == PTXJIT_SUCCESS)
        fprintf(stderr, "%s:%u:%u: %s: %s\n", *Dg.file ? Dg.file : Name.c_str(), Dg.line, Dg.column,
                Dg.severity == PTXJIT_SEVERITY_ERROR ? "error" : Dg.severity == PTXJIT_SEVERITY_WARNING ? "warning" : "note",
                Dg.message);
    }
    size_t Size = 0;
    const void *Data = R ? ptxjit_result_data(R, &Size) : nullptr;
    if (S != PTXJIT_SUCCESS || !Data) {
      fprintf(stderr, "ptx2amd-fatbin: translation of PTX module %zu (sm_%u) failed\n", I, (*Mods)[I].arch);
      Status = 1;
    } else {
      std::string Path = Mods->size() == 1 ? Out : Out + "." + std::to_string(I);
      FILE *F = fopen(Path.c_str(), "wb");
      if (!F || fwrite(Data, 1, Size, F) != Size) die("cannot write '" + Path + "'");
      fclose(F);
      printf("%s: PTX module %zu (sm_%u) -> %s (%zu bytes)\n", In.c_str(), I, (*Mods)[I].arch, Path.c_str(), Size);
    }
    if (R) ptxjit_result_destroy(R);
    ptxjit_options_destroy(O);
  }
  ptxjit_context_destroy(Ctx);
  return Status;
}
