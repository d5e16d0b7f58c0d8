//===- runtime/Module.h - translated modules, their kernels and globals -*- C++ -*-===//
//
// A Module is one PTX module translated once by the ptxjit pipeline driver
// for the context's device and loaded by its backend. When the module's
// kernels together declare more static LDS than one work-group may use (CUB,
// Thrust) and no host-visible variable would be duplicated, each kernel gets
// its own image, loaded on first use (the split is done by ptxjit, not here).
// Function and global handles stay valid until the module is unloaded or the
// context is reset.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Backend.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <atomic>

namespace runtime {

class Context;
class Module;

struct ModuleSource {
  std::string ptx;            // PTX text
  std::string name = "module.ptx";
  // Further separately compiled (-rdc) PTX modules, linked with `ptx` into
  // one image (ptxjit/Link.h); named <name>.1, <name>.2, ... in diagnostics.
  std::vector<std::string> linkedPtx;
  // Names of module-scope variables the host accesses by name (CUDA's
  // registered __device__/__constant__ variables): kept under their names,
  // never folded by the optimiser.
  std::vector<std::string> hostVisibleGlobals;
  // Variables larger than an empty object among them (they forbid a split).
  std::vector<std::string> hostMutableGlobals;
};

class Function {
public:
  const KernelProperties &properties() const { return Props; }
  Module &module() const { return *Mod; }
  BackendModule &image() const { return *Image; }

private:
  friend class Module;
  Module *Mod = nullptr;
  BackendModule *Image = nullptr;
  KernelProperties Props;
};

class Module {
public:
  ~Module();
  Context &context() const { return *Ctx; }
  std::vector<std::string> kernelNames() const;
  // The kernel; loads its image on first use in split mode.
  llvm::Expected<Function *> function(llvm::StringRef Name);
  // Device address and size of a module-scope variable.
  llvm::Expected<GlobalInfo> global(llvm::StringRef Name);
  bool isSplit() const;
  // Unloaded by a device reset (cudaDeviceReset / cuDevicePrimaryCtxReset):
  // the object stays valid so stale handles fail cleanly, but function(),
  // global() and launches of its kernels are InvalidResourceHandle.
  bool retired() const { return Retired.load(); }

  struct Impl;
  explicit Module(Context &C, std::unique_ptr<Impl> I);

private:
  friend class Context;
  // Context::reset, once the module is retired and the context idle: each image gives its
  // device memory back (BackendModule::releaseMemory).
  void releaseMemory();
  Context *Ctx;
  std::unique_ptr<Impl> P;
  std::atomic<bool> Retired{false};
};

} // namespace runtime
