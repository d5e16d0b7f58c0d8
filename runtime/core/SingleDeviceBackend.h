//===- core/SingleDeviceBackend.h - a backend of one emulated device -*- C++ -*-===//
//
// The emulator backends (emu, isa) enumerate exactly one device, opened
// from the backend's options; this is that Backend once for both.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Backend.h"

#include <string>

namespace runtime {

template <class DeviceT, class OptionsT> class SingleDeviceBackend final : public Backend {
public:
  SingleDeviceBackend(std::string Name, OptionsT O) : Name(std::move(Name)), O(std::move(O)) {}
  llvm::StringRef name() const override { return Name; }
  unsigned deviceCount() const override { return 1; }
  llvm::Expected<std::unique_ptr<BackendDevice>> openDevice(unsigned Ordinal) override {
    if (Ordinal != 0) return makeError(Errc::InvalidDevice, "backend '" + Name + "' has one device");
    return std::make_unique<DeviceT>(O);
  }

private:
  std::string Name;
  OptionsT O;
};

} // namespace runtime
