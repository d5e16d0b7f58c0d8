//===- Image.h - isa-emu loaded programs, workgroups, launches -*- C++ -*-===//
//
// ProgramImage: one loaded code object (its bytes in device memory, the
// decoded instructions of every function, the kernels with their
// descriptors and metadata). Workgroup/LaunchState: the run-time state of a
// dispatch (LDS, private memory, the AQL packet and kernarg addresses).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Core.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>

namespace isaemu::detail {

struct KernelImage {
  KernelInfo info;
  uint32_t entryIndex = 0; ///< first instruction
};

struct TargetMC;

struct ProgramImage {
  std::string target;
  unsigned waveSize = 64;
  bool packedTid = false; ///< work-item IDs packed 10:10:10 in v0 (gfx90a, gfx940+, gfx11+)
  bool gfx9 = false, gfx11 = false;
  /// Architected flat scratch (gfx940+, gfx11+): the dispatcher sets FLAT_SCRATCH and
  /// no private segment wave offset SGPR / flat scratch init is passed.
  bool architectedFlatScratch = false;
  uint64_t base = 0, imageSize = 0; ///< device address of the loaded image
  bool ownsImage = false;           ///< the device allocated [base, +imageSize) (loadCodeObject)
  std::vector<Inst> code;           ///< decoded instructions, in address order
  std::vector<Inst> helpers;        ///< DPP base instructions, VOPD halves
  std::vector<std::string> text;    ///< disassembly of code[i]
  std::vector<uint32_t> func;       ///< code[i] -> index into funcNames
  std::vector<std::string> funcNames;
  std::unordered_map<uint64_t, uint32_t> byAddr; ///< instruction address -> index
  std::map<std::string, KernelImage, std::less<>> kernels;
  std::map<std::string, uint64_t, std::less<>> symbols;
};

struct Workgroup {
  std::vector<Wave> waves;
  std::vector<uint8_t> lds;
  std::vector<uint8_t> priv; ///< [wave][lane][privPerLane]
  uint32_t privPerLane = 0;
  uint32_t id[3] = {};
  unsigned slot = 0; ///< host worker running it: the compute unit HW_ID / HW_ID1 report
};

struct LaunchState {
  Device::Impl *dev = nullptr;
  const ProgramImage *prog = nullptr;
  const KernelImage *kernel = nullptr;
  LaunchConfig cfg;
  uint64_t dispatchPtr = 0, kernargPtr = 0, queuePtr = 0;
  uint8_t *arena = nullptr;
  uint64_t arenaMapped = 0; ///< bytes of global memory valid during the launch
  /// Process-memory mode: resolves a global address (nullptr = fault); arena unused.
  std::function<uint8_t *(uint64_t, uint64_t)> resolve;
  std::atomic<bool> abort{false};
  std::mutex errMu;
  std::string error;                 ///< first fault's report (empty: none)
  support::FaultKind errorFault = support::FaultKind::MemoryFault;
  std::string errorConstruct;        ///< non-empty: unsupported construct
  std::atomic<uint64_t> laneInstrs{0}, waveInstrs{0};
  uint64_t maxWaveInstructions = 0; ///< the watchdog (0 = off): DeviceOptions::maxWaveInstructions
  unsigned sliceInstructions = 2048;
  std::atomic<uint64_t> watchdogInstrs{0}; ///< wave instructions run so far (updated per slice)
};

/// Decodes every function of the code object's .text into P.code (Decoder.cpp).
/// StopAtUndecodable: a function ends at its first word the disassembler rejects
/// (raw code whose extent is unknown) instead of failing.
llvm::Error decodeProgram(ProgramImage &P, llvm::ArrayRef<uint8_t> Text, uint64_t TextAddr,
                          const std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> &Funcs,
                          std::set<std::string> *Missing = nullptr,
                          bool StopAtUndecodable = false);

/// Looks up the handler row of an opcode name without its encoding suffixes.
const OpRow *findRow(llvm::StringRef Base);

/// One scheduling round of a workgroup (Exec.cpp): every running wave runs
/// one slice, then a barrier every live wave reached releases. Failed: a
/// wave faulted (LS.error holds the report) or the launch was aborted.
/// Done and Failed add the workgroup's counters to the launch's.
enum class StepResult { Live, Done, Failed };
StepResult stepWorkgroup(LaunchState &LS, Workgroup &WG);
/// Runs one workgroup to completion (Exec.cpp); false on fault/abort.
bool runWorkgroup(LaunchState &LS, Workgroup &WG);

} // namespace isaemu::detail
