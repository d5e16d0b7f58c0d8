//===- SdmaEngine.h - one SDMA queue's engine thread ------------*- C++ -*-===//
//
// What an SDMA engine does for a user-mode SDMA queue (KFD queue type SDMA
// or SDMA_XGMI): a thread waits for the doorbell (the byte write index ROCr
// stores after writing packets), executes the packets between the read and
// the write index in order (Sdma.h: copies and fills against the process's
// GPU memory through Kfd::translate, fences, memory polls with a deadline,
// the 64-bit atomic add, timestamps, the trap that raises a KFD event) and
// publishes the read index after each. ROCr 5.2 copies host<->device (and
// small device-local copies) this way unless HSA_ENABLE_SDMA=0. A packet or
// field the engine does not model is reported by name and the process ends,
// as on a GPU queue error; a poll past VGPU_WAIT_DEADLINE_S likewise.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "HardwareQueue.h"

#include <atomic>
#include <thread>

namespace vgpu {

class Kfd;

class SdmaEngine final : public HardwareQueue {
public:
  SdmaEngine(Kfd &K, const QueueDesc &D);
  ~SdmaEngine() override;
  SdmaEngine(const SdmaEngine &) = delete;
  SdmaEngine &operator=(const SdmaEngine &) = delete;

  std::string describe() const override;

private:
  void run();
  /// Executes the packet at ring byte index \p Index; returns its length in bytes, 0 on a fatal error (reported).
  uint64_t execute(uint64_t Index);
  bool copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, uint64_t Index);
  bool copyRect(const uint32_t *W, uint64_t Index);
  bool fill(const uint32_t *W, uint64_t Index);
  bool poll(const uint32_t *W, uint64_t Index);
  /// Host address of a 4- or 8-byte word the engine writes or polls; nullptr (reported) when unmapped.
  uint8_t *word(uint64_t Va, unsigned Bytes, const char *What, uint64_t Index);

  Kfd &K;
  QueueDesc D;
  std::atomic<bool> Stop{false};
  std::thread Thread;
};

} // namespace vgpu
