//===- ptx2amd-exec - run a CUDA program on ptx2amd's runtime ---------------===//
//
//   ptx2amd-exec [--device=auto|hip|emu|isa] [--arch=gfxNNN] [--warp-policy=SPEC]
//                [--cache-dir=DIR] [--vgpu=gfx90a] [-v] -- PROGRAM [ARGS...]
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
// --vgpu=gfx90a runs the program on the virtual AMD GPU
// (vgpu/): libvgpu.so ($PTX2AMD_VGPU_LIB, else <prefix>/lib next to bin/) is
// preloaded, so Debian's real ROCm 5.2 HIP runtime drives it, and the device
// is hip (the probe then happens in the program, under the preload).
//
//===----------------------------------------------------------------------===//
#include "runtime/Backend.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace {

void usage(FILE *F) {
  fprintf(F, "usage: ptx2amd-exec [--device=auto|hip|emu|isa] [--arch=gfxNNN] [--warp-policy=pack|pad[,KERNEL=pack|pad...]]\n"
             "                    [--cache-dir=DIR] [--vgpu=gfx90a] [-v] -- PROGRAM [ARGS...]\n"
             "Runs an unmodified `nvcc -cudart shared` CUDA program on ptx2amd's runtime.\n"
             "Environment equivalents: PTX2AMD_DEVICE, PTX2AMD_ARCH, PTX2AMD_WARP_POLICY, PTX2AMD_CACHE_DIR,\n"
             "PTX2AMD_LOG (-v sets info). auto = the AMD GPU through HIP when present, else the emulator;\n"
             "isa = the code object on isa-emu (the machine-code emulator). --vgpu=gfx90a: the real HIP runtime\n"
             "on the virtual AMD GPU (libvgpu.so preloaded; device hip).\n");
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

std::string vgpuLib(const char *Argv0) {
  if (const char *L = getenv("PTX2AMD_VGPU_LIB"); L && *L) return L;
  return (prefixDir(Argv0) / "lib" / "libvgpu.so").string();
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
  const char *Old = getenv("LD_PRELOAD");
  std::string Pre = Lib + (Old && *Old ? std::string(":") + Old : "");
  setenv("LD_PRELOAD", Pre.c_str(), 1);
  setenv("VGPU_TARGET", Target.c_str(), 1);
  setenv("HSA_ENABLE_SDMA", "0", 0); // copies by ROCr's blit kernels: no SDMA engine is modelled
  return {};
}

std::string driverDir(const std::string &Shim) {
  if (const char *D = getenv("PTX2AMD_DRIVER_DIR"); D && *D) return D;
  return (std::filesystem::path(Shim).parent_path() / "driver").string();
}

} // namespace

int main(int argc, char **argv) {
  std::string Device = envOr("PTX2AMD_DEVICE", "auto"), Arch = envOr("PTX2AMD_ARCH", ""),
              Policy = envOr("PTX2AMD_WARP_POLICY", ""), CacheDir = envOr("PTX2AMD_CACHE_DIR", ""), Vgpu;
  bool Verbose = false;
  int I = 1;
  for (; I < argc; ++I) {
    std::string A = argv[I];
    auto Val = [&](const char *Opt) -> const char * {
      size_t L = strlen(Opt);
      return A.compare(0, L, Opt) == 0 ? argv[I] + L : nullptr;
    };
    if (A == "--") { ++I; break; }
    if (A == "-h" || A == "--help") { usage(stdout); return 0; }
    if (A == "-v") Verbose = true;
    else if (const char *V = Val("--device=")) Device = V;
    else if (const char *V = Val("--arch=")) Arch = V;
    else if (const char *V = Val("--warp-policy=")) Policy = V;
    else if (const char *V = Val("--cache-dir=")) CacheDir = V;
    else if (const char *V = Val("--vgpu=")) Vgpu = V;
    else if (A[0] != '-') break; // PROGRAM without "--"
    else {
      fprintf(stderr, "ptx2amd-exec: unknown option '%s'\n", argv[I]);
      usage(stderr);
      return 2;
    }
  }
  if (I >= argc) {
    fprintf(stderr, "ptx2amd-exec: no program given\n");
    usage(stderr);
    return 2;
  }
  if (Device != "auto" && Device != "hip" && Device != "emu" && Device != "isa") {
    fprintf(stderr, "ptx2amd-exec: --device=%s is not auto, hip, emu or isa\n", Device.c_str());
    return 2;
  }
  if (!Vgpu.empty()) {
    if (Device != "auto" && Device != "hip") {
      fprintf(stderr, "ptx2amd-exec: --vgpu runs the HIP backend; --device=%s contradicts it\n", Device.c_str());
      return 2;
    }
    if (std::string Why = setupVgpu(Vgpu, argv[0]); !Why.empty()) {
      fprintf(stderr, "ptx2amd-exec: %s\n", Why.c_str());
      return 2;
    }
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
  std::string LdPath = Lib + ":" + driverDir(Lib) +
                       (getenv("LD_LIBRARY_PATH") ? std::string(":") + getenv("LD_LIBRARY_PATH") : "");
  setenv("LD_LIBRARY_PATH", LdPath.c_str(), 1);
  if (Verbose) fprintf(stderr, "ptx2amd-exec: device %s, runtime %s\n", Device.c_str(), Lib.c_str());
  execvp(argv[I], argv + I);
  fprintf(stderr, "ptx2amd-exec: cannot run '%s': %s\n", argv[I], strerror(errno));
  return 127;
}
