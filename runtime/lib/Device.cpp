//===- Device.cpp - Platform (backend choice) and Device (runtime/Device.h) --===//
#include "runtime/Device.h"
#include "runtime/Log.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstdlib>

namespace runtime {

// Out-of-line members of the backend interface (Backend.h).
ModuleImage::ModuleImage() = default;
ModuleImage::ModuleImage(ModuleImage &&) noexcept = default;
ModuleImage &ModuleImage::operator=(ModuleImage &&) noexcept = default;
ModuleImage::~ModuleImage() {
  lowered.reset(); // before its context
  context.reset();
}
BackendModule::~BackendModule() = default;
BackendQueue::~BackendQueue() = default;
BackendDevice::~BackendDevice() = default;
Backend::~Backend() = default;

Device::Device(unsigned Ordinal, std::unique_ptr<BackendDevice> B) : Ordinal(Ordinal), B(std::move(B)) {}
Device::~Device() {
  Created.clear(); // before the primary context and the registry
  Ctx.reset();
}
Context &Device::primaryContext() {
  std::call_once(CtxOnce, [&] {
    Ctx = std::make_unique<Context>(*this);
    // Launches route their printf text to their context; what a backend
    // prints outside a launch goes to the primary context.
    B->setPrintfSink([C = Ctx.get()](llvm::StringRef T) { C->appendPrintf(T); });
  });
  return *Ctx;
}

Context *Device::createContext() {
  auto C = std::make_unique<Context>(*this);
  std::lock_guard<std::mutex> G(CreatedMu);
  Created.push_back(std::move(C));
  return Created.back().get();
}

llvm::Error Device::destroyContext(Context *C) {
  std::unique_ptr<Context> Dead;
  {
    std::lock_guard<std::mutex> G(CreatedMu);
    for (auto It = Created.begin(); It != Created.end(); ++It)
      if (It->get() == C) {
        Dead = std::move(*It);
        Created.erase(It);
        break;
      }
  }
  if (!Dead) return makeError(Errc::InvalidValue, "not a live created context of this device");
  Dead.reset(); // ~Context: waits, frees its allocations, flushes its printf text
  return llvm::Error::success();
}

std::vector<Context *> Device::contexts() {
  std::vector<Context *> V;
  if (Ctx) V.push_back(Ctx.get());
  std::lock_guard<std::mutex> G(CreatedMu);
  for (auto &C : Created) V.push_back(C.get());
  return V;
}

Context *Device::context(uint64_t Id) {
  if (Ctx && Ctx->id() == Id) return Ctx.get();
  std::lock_guard<std::mutex> G(CreatedMu);
  for (auto &C : Created)
    if (C->id() == Id) return C.get();
  return nullptr;
}

PlatformOptions PlatformOptions::fromEnvironment() {
  PlatformOptions O;
  if (const char *D = getenv("PTX2AMD_DEVICE"); D && *D) O.device = D;
  if (const char *A = getenv("PTX2AMD_ARCH"); A && *A) O.arch = A;
  if (const char *T = getenv("PTX2AMD_EMU_THREADS"); T && *T) O.emuThreads = unsigned(atoi(T));
  if (const char *W = getenv("PTX2AMD_MAX_WAVE_INSTRUCTIONS"); W && *W) O.maxWaveInstructions = strtoull(W, nullptr, 0);
  return O;
}

Platform::Platform(std::unique_ptr<Backend> B) : B(std::move(B)) {}
Platform::~Platform() = default;

llvm::Expected<std::unique_ptr<Platform>> Platform::create(const PlatformOptions &O) {
  auto Log = logger("runtime");
  auto Emu = [&]() -> llvm::Expected<std::unique_ptr<Backend>> {
    EmuBackendOptions E;
    if (!O.arch.empty()) E.arch = O.arch;
    E.threads = O.emuThreads;
    E.maxWaveInstructions = O.maxWaveInstructions;
    return createEmuBackend(E);
  };
  std::unique_ptr<Backend> B;
  if (O.device == "emu") {
    auto E = Emu();
    if (!E) return E.takeError();
    B = std::move(*E);
  } else if (O.device == "isa") {
    IsaBackendOptions I;
    if (!O.arch.empty()) I.arch = O.arch;
    I.threads = O.emuThreads;
    I.maxWaveInstructions = O.maxWaveInstructions;
    auto R = createIsaBackend(I);
    if (!R) return R.takeError();
    B = std::move(*R);
  } else if (O.device == "hip" || O.device == "auto") {
    HipBackendOptions H;
    H.arch = O.arch;
    auto Hip = createHipBackend(H);
    if (Hip) {
      B = std::move(*Hip);
    } else if (O.device == "hip") {
      return Hip.takeError();
    } else {
      std::string Why;
      takeErrc(Hip.takeError(), &Why);
      Log->info("HIP backend unavailable ({}); using the emulator", Why);
      auto E = Emu();
      if (!E) return E.takeError();
      B = std::move(*E);
    }
  } else {
    return makeError(Errc::InvalidValue, "PTX2AMD_DEVICE='" + O.device + "' is not auto, hip, emu or isa");
  }
  return std::unique_ptr<Platform>(new Platform(std::move(B)));
}

llvm::Expected<Platform *> Platform::get() {
  static Platform *P = nullptr;
  static std::string Failure;
  static std::once_flag Once;
  std::call_once(Once, [] {
    auto R = create(PlatformOptions::fromEnvironment());
    if (!R) {
      Failure = llvm::toString(R.takeError());
      return;
    }
    P = R->release(); // never destroyed (see the header)
    atexit([] { P->drainAll(); });
  });
  if (!P) return makeError(Errc::NoDevice, Failure);
  return P;
}

llvm::StringRef Platform::backendName() const { return B->name(); }
unsigned Platform::deviceCount() const { return B->deviceCount(); }

llvm::Expected<Device *> Platform::device(unsigned Ordinal) {
  std::lock_guard<std::mutex> G(Mu);
  if (Ordinal >= B->deviceCount())
    return makeError(Errc::InvalidDevice, "device " + std::to_string(Ordinal) + " does not exist");
  if (Devices.size() <= Ordinal) Devices.resize(Ordinal + 1);
  if (!Devices[Ordinal]) {
    auto D = B->openDevice(Ordinal);
    if (!D) return D.takeError();
    Devices[Ordinal] = std::make_unique<Device>(Ordinal, std::move(*D));
  }
  return Devices[Ordinal].get();
}

void Platform::drainAll() {
  std::vector<Device *> Ds;
  {
    std::lock_guard<std::mutex> G(Mu);
    for (auto &D : Devices)
      if (D) Ds.push_back(D.get());
  }
  for (Device *D : Ds) {
    D->primaryContext();
    for (Context *C : D->contexts()) llvm::consumeError(C->synchronize());
  }
}

} // namespace runtime
