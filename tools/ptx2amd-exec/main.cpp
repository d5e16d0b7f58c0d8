//===- ptx2amd-exec - run a CUDA program on ptx2amd's runtime ---------------===//
//
//   ptx2amd-exec [--device=auto|hip|emu|isa] [--offload-arch=gfxNNN] [--warp-policy=SPEC]
//                [--cache-dir=DIR] [--vgpu=gfx90a] [-v] [--] PROGRAM [ARGS...]
//
// Options are parsed by support/CommandLine.h (both `--x=v` and `--x v`;
// --arch is kept as an alias of --offload-arch); the first non-option
// argument is PROGRAM, and everything after it is PROGRAM's. Usage errors
// exit with status 2.
//
// Sets the environment the runtime reads (PTX2AMD_DEVICE, PTX2AMD_ARCH,
// PTX2AMD_WARP_POLICY, PTX2AMD_CACHE_DIR, PTX2AMD_LOG; options win over
// variables already set), puts the directories of ptx2amd's libcudart.so.13
// and libcuda.so.1 first on LD_LIBRARY_PATH (<prefix>/lib/shim and
// <prefix>/lib/driver next to this executable's bin/, or $PTX2AMD_SHIM_DIR
// and $PTX2AMD_DRIVER_DIR) and execs PROGRAM. The device is resolved here
// once: `auto` probes the HIP backend and falls back to the emulator with a
// one-line notice; `hip` without a usable AMD GPU exits with status 2 and
// the reason. The program must carry PTX; it may be built with
// `nvcc -cudart shared` (libcudart.so.13) or nvcc's default static cudart
// (which reaches the runtime through libcuda.so.1), or use the driver API.
// --vgpu=gfx90a runs the program on the virtual AMD GPU (vgpu/): libvgpu.so
// ($PTX2AMD_VGPU_LIB, else <prefix>/lib next to bin/) is preloaded, so
// Debian's real ROCm 5.2 HIP runtime drives it, and the device is hip (the
// probe then happens in the program, under the preload). A sanitizer runtime
// at the front of LD_PRELOAD stays there (libvgpu.so goes after it), and a
// PTX2AMD_SANITIZE build puts its own libasan first: PROGRAM is not
// instrumented but the libraries it loads are, and ASan must be loaded first.
//
//===----------------------------------------------------------------------===//
#include "StdoutStatus.h"
#include "runtime/Backend.h"
#include "support/CommandLine.h"
#include "support/Error.h"

#include <sys/stat.h>
#include <unistd.h>
#if defined(PTX2AMD_SANITIZE)
#include <dlfcn.h>
extern "C" void __asan_init();
#endif

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

const char *Usage =
    "ptx2amd-exec [--device=auto|hip|emu|isa] [--offload-arch=gfxNNN] [--warp-policy=pack|pad[,KERNEL=pack|pad...]]\n"
    "                    [--cache-dir=DIR] [--vgpu=gfx90a] [-v] [--] PROGRAM [ARGS...]\n"
    "Runs an unmodified CUDA program (nvcc -cudart shared, default static cudart, or driver API) on ptx2amd's runtime.\n"
    "Environment equivalents: PTX2AMD_DEVICE, PTX2AMD_ARCH, PTX2AMD_WARP_POLICY, PTX2AMD_CACHE_DIR,\n"
    "PTX2AMD_LOG (-v sets info). auto = the AMD GPU through HIP when present, else the emulator;\n"
    "isa = the code object on isa-emu (the machine-code emulator). --vgpu=gfx90a: the real HIP runtime\n"
    "on the virtual AMD GPU (libvgpu.so preloaded; device hip).";

// Usage errors exit with 2 (the program's own status is 0..255 after exec).
[[noreturn]] void usageError(const std::string &Msg, bool WithUsage = false) {
  fprintf(stderr, "ptx2amd-exec: %s\n", Msg.c_str());
  if (WithUsage) fprintf(stderr, "usage: %s\n", Usage);
  exit(2);
}

std::string envOr(const char *Name, const char *Default) {
  const char *V = getenv(Name);
  return V && *V ? V : Default;
}

std::filesystem::path prefixDir(const char *Argv0) {
  char Buf[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  std::filesystem::path Self = N > 0 ? std::filesystem::path(std::string(Buf, size_t(N))) : std::filesystem::path(Argv0);
  return Self.parent_path().parent_path();
}

std::string shimDir(const char *Argv0) {
  if (const char *D = getenv("PTX2AMD_SHIM_DIR"); D && *D) return D;
  return (prefixDir(Argv0) / "lib" / "shim").string();
}

std::string driverDir(const std::string &Shim) {
  if (const char *D = getenv("PTX2AMD_DRIVER_DIR"); D && *D) return D;
  return (std::filesystem::path(Shim).parent_path() / "driver").string();
}

std::string vgpuLib(const char *Argv0) {
  if (const char *L = getenv("PTX2AMD_VGPU_LIB"); L && *L) return L;
  return (prefixDir(Argv0) / "lib" / "libvgpu.so").string();
}

/// A sanitizer runtime (libasan.so.8, libubsan.so.1, libclang_rt.asan-x86_64.so, ...): it must
/// be the first library of the process, so nothing is put in front of it.
bool isSanitizerRuntime(const std::string &Path) {
  std::string Name = std::filesystem::path(Path).filename().string();
  for (const char *P : {"libasan.", "libubsan.", "libtsan.", "liblsan.", "libhwasan.", "libclang_rt."})
    if (Name.rfind(P, 0) == 0) return true;
  return false;
}

/// Sets LD_PRELOAD for PROGRAM: the sanitizer runtimes already at its front (and, in a
/// PTX2AMD_SANITIZE build, this executable's own libasan), then Lib (if any), then the rest.
void setPreload(const std::string &Lib) {
  std::vector<std::string> Front, Rest;
#if defined(PTX2AMD_SANITIZE)
  Dl_info I{};
  if (dladdr(reinterpret_cast<void *>(&__asan_init), &I) && I.dli_fname && *I.dli_fname)
    Front.push_back(std::filesystem::weakly_canonical(I.dli_fname).string());
#endif
  std::string Old = getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "";
  bool Leading = true;
  for (size_t B = 0; B <= Old.size();) {
    size_t E = Old.find_first_of(": ", B);
    if (E == std::string::npos) E = Old.size();
    std::string Entry = Old.substr(B, E - B);
    B = E + 1;
    if (Entry.empty()) continue;
    if (Leading && isSanitizerRuntime(Entry)) {
      std::error_code EC;
      std::string Canon = std::filesystem::weakly_canonical(Entry, EC).string();
      if (EC) Canon = Entry;
      if (std::find(Front.begin(), Front.end(), Canon) == Front.end()) Front.push_back(Canon);
      continue;
    }
    Leading = false;
    Rest.push_back(Entry);
  }
  if (!Lib.empty()) Front.push_back(Lib);
  Front.insert(Front.end(), Rest.begin(), Rest.end());
  std::string Pre;
  for (const std::string &P : Front) Pre += (Pre.empty() ? "" : ":") + P;
  if (Pre.empty()) return;
  setenv("LD_PRELOAD", Pre.c_str(), 1);
}

/// Sets up the environment of the virtual GPU; "" or why it cannot be used.
std::string setupVgpu(const std::string &Target, const char *Argv0) {
  if (Target == "gfx1100")
    return "--vgpu=gfx1100 is not offered: Debian's ROCr 5.2.3 has no gfx11 entry in its ISA registry "
           "(src/core/runtime/isa.cpp ends at gfx1035) nor gfx11 blit/trap shaders, so it would reject the agent; "
           "use --vgpu=gfx90a";
  if (Target != "gfx90a") return "--vgpu=" + Target + " is not a target the virtual GPU presents (gfx90a)";
  std::string Lib = vgpuLib(Argv0);
  if (!std::filesystem::exists(Lib)) return "the virtual GPU library " + Lib + " does not exist (set PTX2AMD_VGPU_LIB)";
  setPreload(Lib);
  setenv("VGPU_TARGET", Target.c_str(), 1);
  return {};
}

// Why execvp(Program) failed, in the terms of what Program is: execve says
// EACCES for a directory or a FIFO and ENOENT for a name not found in PATH.
std::string whyNotRun(const std::string &Program, int Errno) {
  if (Program.find('/') == std::string::npos) {
    if (Errno != ENOENT) return strerror(Errno);
    std::string Why = "not found in PATH";
    if (access(Program.c_str(), F_OK) == 0) Why += " (a file in the current directory is run as ./" + Program + ")";
    return Why;
  }
  struct stat St;
  if (stat(Program.c_str(), &St) == 0) {
    if (S_ISDIR(St.st_mode)) return "it is a directory";
    if (!S_ISREG(St.st_mode)) return "it is not a regular file";
  }
  return strerror(Errno);
}

} // namespace

static int runTool(int argc, char **argv) {
  std::string Device = envOr("PTX2AMD_DEVICE", "auto"), Arch = envOr("PTX2AMD_ARCH", ""),
              Policy = envOr("PTX2AMD_WARP_POLICY", ""), CacheDir = envOr("PTX2AMD_CACHE_DIR", ""), Vgpu;
  std::vector<std::string> Command;
  support::cl::CommonOptions Common;
  support::cl::Parser P("ptx2amd-exec", Usage);
  P.value("--device", "auto|hip|emu|isa", "where the program's kernels run (default auto)", Device);
  auto setArch = [&](std::string_view V) -> llvm::Error {
    if (!support::findTarget(V))
      return support::invalidInput(support::noLoc("unsupported --offload-arch '" + std::string(V) +
                                                  "' (supported: " + support::supportedTargetList() + ")"),
                                   "--offload-arch");
    Arch = std::string(V);
    return llvm::Error::success();
  };
  P.add({"--offload-arch", true, "<gfx>", "the AMDGPU target the device presents (PTX2AMD_ARCH)", setArch});
  P.add({"--warp-policy", true, "pack|pad|<kernel>=pack|pad", "wave64 warp policies (PTX2AMD_WARP_POLICY)",
         [&](std::string_view V) -> llvm::Error {
           support::WarpPolicySpec Check; // checked here, parsed again by the runtime
           if (llvm::Error E = support::parseWarpPolicySpec(V, Check, "--warp-policy")) return E;
           Policy = std::string(V);
           return llvm::Error::success();
         }});
  P.value("--cache-dir", "<dir>", "code-object cache directory (PTX2AMD_CACHE_DIR)", CacheDir);
  P.value("--vgpu", "gfx90a", "run on the virtual AMD GPU under Debian's ROCm HIP runtime (vgpu/)", Vgpu);
  support::cl::addCommonOptions(P, Common, support::cl::kVerbose);
  P.add({"--arch", true, "<gfx>", "", setArch, true}); // older spelling of --offload-arch
  P.positional(Command);
  P.stopAtFirstPositional();
  if (llvm::Error E = P.parse(argc, argv)) usageError(llvm::toString(std::move(E)));
  if (Common.help) { printf("%s", P.help().c_str()); return 0; }
  if (Common.version) { puts(support::cl::versionLine("ptx2amd-exec").c_str()); return 0; }
  const bool Verbose = Common.verbose;
  if (Command.empty()) usageError("no program given", true);
  if (Device != "auto" && Device != "hip" && Device != "emu" && Device != "isa")
    usageError("--device=" + Device + " is not auto, hip, emu or isa");
  if (!Vgpu.empty()) {
    if (Device != "auto" && Device != "hip") usageError("--vgpu runs the HIP backend; --device=" + Device + " contradicts it");
    if (std::string Why = setupVgpu(Vgpu, argv[0]); !Why.empty()) usageError(Why);
    Device = "hip";
    if (Arch.empty()) Arch = Vgpu;
    if (Verbose) fprintf(stderr, "ptx2amd-exec: running on the virtual %s through HIP (%s)\n", Vgpu.c_str(), getenv("LD_PRELOAD"));
  } else if (Device != "emu" && Device != "isa") {
    runtime::HipBackendOptions H;
    H.arch = Device == "hip" ? Arch : "";
    auto B = runtime::createHipBackend(H);
    if (B) {
      Device = "hip";
      if (Verbose) fprintf(stderr, "ptx2amd-exec: running on the AMD GPU through HIP\n");
    } else {
      std::string Why;
      runtime::takeErrc(B.takeError(), &Why);
      if (Device == "hip") {
        fprintf(stderr, "ptx2amd-exec: --device=hip: %s\n", Why.c_str());
        return 2;
      }
      fprintf(stderr, "ptx2amd-exec: no usable AMD GPU (%s); running on the emulator (amdgpu-emu%s%s)\n", Why.c_str(),
              Arch.empty() ? "" : ", ", Arch.c_str());
      Device = "emu";
    }
  }
  setenv("PTX2AMD_DEVICE", Device.c_str(), 1);
  if (!Arch.empty()) setenv("PTX2AMD_ARCH", Arch.c_str(), 1);
  if (!Policy.empty()) setenv("PTX2AMD_WARP_POLICY", Policy.c_str(), 1);
  if (!CacheDir.empty()) setenv("PTX2AMD_CACHE_DIR", CacheDir.c_str(), 1);
  if (Verbose && !getenv("PTX2AMD_LOG")) setenv("PTX2AMD_LOG", "info", 1);
  std::string Lib = shimDir(argv[0]);
  if (!std::filesystem::exists(std::filesystem::path(Lib) / "libcudart.so.13")) {
    fprintf(stderr, "ptx2amd-exec: ptx2amd's libcudart.so.13 is not in %s (set PTX2AMD_SHIM_DIR)\n", Lib.c_str());
    return 2;
  }
  std::string LdPath = Lib + ":" + driverDir(Lib) + (getenv("LD_LIBRARY_PATH") ? std::string(":") + getenv("LD_LIBRARY_PATH") : "");
  setenv("LD_LIBRARY_PATH", LdPath.c_str(), 1);
  if (Verbose) fprintf(stderr, "ptx2amd-exec: device %s, runtime %s\n", Device.c_str(), Lib.c_str());
#if defined(PTX2AMD_SANITIZE)
  if (Vgpu.empty()) setPreload("");
#endif
  std::vector<char *> Argv;
  for (std::string &A : Command) Argv.push_back(A.data());
  Argv.push_back(nullptr);
  execvp(Argv[0], Argv.data());
  const int ExecErrno = errno;
  fprintf(stderr, "ptx2amd-exec: cannot run '%s': %s\n", Argv[0], whyNotRun(Command[0], ExecErrno).c_str());
  return 127;
}

// A failed write to stdout (--help, --version or the tool's listing on a full
// disk) is a failure too (tools/common/StdoutStatus.h).
int main(int argc, char **argv) { return ptx2amd::tools::finishStdout("ptx2amd-exec", runTool(argc, argv), 2); }
