//===- runtime/Device.h - the platform: one backend, its devices -*- C++ -*-===//
//
// Platform::get() picks the backend once per process from PTX2AMD_DEVICE
// (`auto` (default): HIP when an AMD GPU is present, else emu with a one-line
// notice; `hip`: HIP or an error; `emu`), with PTX2AMD_ARCH (emu: the target
// it emulates, default gfx1100; hip: must match the agent) and
// PTX2AMD_EMU_THREADS. Devices are opened lazily; each owns its primary
// Context (which receives the device's unrouted printf text), the further
// contexts made by createContext (cuCtxCreate) and the memory registry all
// its contexts share (unified addressing). The platform is the core's only process-wide registry and is never
// destroyed (atexit unregistration of fat binaries may run late); its
// contexts are flushed and drained by an atexit handler.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Context.h"

#include <memory>
#include <mutex>
#include <vector>

namespace runtime {

class Device {
public:
  Device(unsigned Ordinal, std::unique_ptr<BackendDevice> B);
  ~Device();
  unsigned ordinal() const { return Ordinal; }
  BackendDevice &backend() const { return *B; }
  const DeviceProperties &properties() const { return B->properties(); }
  Context &primaryContext();
  // A further context of this device: its own modules, streams, events,
  // limits, sticky error and printf text; memory in the device's address space.
  Context *createContext();
  // Waits for its work and frees what it owns; InvalidValue for a context
  // createContext did not return (or already destroyed).
  llvm::Error destroyContext(Context *C);
  // The open contexts: the primary one (when created) first.
  std::vector<Context *> contexts();
  // The open context whose id() is Id; null when none (destroyed, or never one of this device).
  Context *context(uint64_t Id);
  MemoryRegistry &memory() { return Mem; }

private:
  unsigned Ordinal;
  std::unique_ptr<BackendDevice> B;
  MemoryRegistry Mem; // before the contexts, which free into it
  std::once_flag CtxOnce;
  std::unique_ptr<Context> Ctx;
  std::mutex CreatedMu;
  std::vector<std::unique_ptr<Context>> Created;
};

struct PlatformOptions {
  std::string device = "auto"; // auto | hip | emu
  std::string arch;            // empty: emu gfx1100 / the HIP agent's
  unsigned emuThreads = 0;
  uint64_t maxWaveInstructions = 0; // emulators' watchdog (PTX2AMD_MAX_WAVE_INSTRUCTIONS; 0 = off)
  static PlatformOptions fromEnvironment();
};

class Platform {
public:
  // The process's platform (created on first call from the environment).
  // Fails when no backend can be opened (e.g. PTX2AMD_DEVICE=hip without GPU).
  static llvm::Expected<Platform *> get();
  // For tests and tools: a platform built from explicit options (not global).
  static llvm::Expected<std::unique_ptr<Platform>> create(const PlatformOptions &O);
  ~Platform();
  llvm::StringRef backendName() const;
  unsigned deviceCount() const;
  llvm::Expected<Device *> device(unsigned Ordinal);
  // Waits for every open context's work and flushes its printf text.
  void drainAll();

private:
  explicit Platform(std::unique_ptr<Backend> B);
  std::unique_ptr<Backend> B;
  std::mutex Mu;
  std::vector<std::unique_ptr<Device>> Devices; // by ordinal, lazily
};

} // namespace runtime
