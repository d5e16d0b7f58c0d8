//===- Exec.cpp - running waves and workgroups; fault reports; memory -----===//
//
// A wave runs its pre-decoded instructions in order (an in-order model:
// s_waitcnt is a no-op) until s_endpgm, s_barrier, a fault or the end of its
// slice. The waves of a workgroup run cooperatively: each runs until it
// blocks or its slice ends, and a barrier releases when every wave that has
// not ended has reached it. stepWorkgroup is one such round, so a scheduler
// can interleave resident workgroups (cooperative launches, Device.cpp). Memory helpers resolve global, LDS (shared
// aperture) and private (private aperture / scratch, swizzled per lane in
// dwords as the hardware lays scratch out) addresses or report a fault.
//
//===----------------------------------------------------------------------===//
#include "Image.h"

#include "llvm/ADT/StringExtras.h"

namespace isaemu::detail {

void raiseFault(Wave &w, const Inst &I, ::support::FaultKind Kind, const std::string &What, int Lane, uint64_t Addr,
                bool HasAddr) {
  if (w.state == WaveState::Fault) return;
  w.state = WaveState::Fault;
  w.faultKind = Kind;
  w.faultConstruct.clear();
  const ProgramImage &P = *w.prog;
  std::string Where = "?", Text = "?";
  auto It = P.byAddr.find(I.addr);
  if (It != P.byAddr.end()) {
    Where = P.funcNames[P.func[It->second]];
    Text = P.text[It->second];
    // Offset from the start of the function.
    uint32_t First = It->second;
    while (First > 0 && P.func[First - 1] == P.func[It->second]) --First;
    Where += "+0x" + llvm::utohexstr(I.addr - P.code[First].addr);
  }
  std::string M = "isa-emu: " + What + " in kernel " + w.ls->kernel->info.name + ", workgroup (" +
                  std::to_string(w.wg->id[0]) + "," + std::to_string(w.wg->id[1]) + "," +
                  std::to_string(w.wg->id[2]) + "), wave " + std::to_string(w.id);
  if (Lane >= 0) M += ", lane " + std::to_string(Lane);
  if (HasAddr) M += ", address 0x" + llvm::utohexstr(Addr);
  M += "\n  at " + Where + ": " + Text;
  w.fault = M;
}

void raiseUnsupported(Wave &w, const Inst &I, std::string Construct, const std::string &What, int Lane, uint64_t Addr,
                      bool HasAddr) {
  if (w.state == WaveState::Fault) return;
  raiseFault(w, I, ::support::FaultKind::Trap, What, Lane, Addr, HasAddr);
  if (Construct.empty()) { // the mnemonic of the instruction
    const ProgramImage &P = *w.prog;
    auto It = P.byAddr.find(I.addr);
    llvm::StringRef T = It != P.byAddr.end() ? llvm::StringRef(P.text[It->second]).ltrim() : "instruction";
    Construct = T.take_until([](char C) { return C == ' ' || C == '\t'; }).str();
  }
  w.faultConstruct = std::move(Construct);
}

uint8_t *globalPtr(LaunchState &ls, uint64_t a, uint64_t n) {
  if (ls.resolve) return ls.resolve(a, n);
  if (a < GlobalBase || a - GlobalBase + n > ls.arenaMapped) return nullptr;
  return ls.arena + (a - GlobalBase);
}

uint8_t *ldsPtr(Wave &w, uint64_t off, uint64_t n) {
  if (off + n > w.wg->lds.size()) return nullptr;
  return w.wg->lds.data() + off;
}

// Scratch is swizzled per lane in dwords: lane l's dword k of the wave's
// private segment is at base + (k * W + l) * 4. \p n must stay in one dword.
uint8_t *privatePtr(Wave &w, unsigned lane, uint64_t off, uint64_t n) {
  if (off + n > w.privBytes || (off & 3) + n > 4) return nullptr;
  uint64_t base = w.prog->gfx9 ? (w.S[SFlatScrLo] | uint64_t(w.S[SFlatScrLo + 1]) << 32) : w.flatScr;
  uint64_t a = base + ((off >> 2) * w.W + lane) * 4 + (off & 3);
  if (a < w.privBase || a + n > w.privBase + uint64_t(w.privBytes) * w.W) return nullptr;
  return globalPtr(*w.ls, a, n);
}

uint8_t *flatPtr(Wave &w, unsigned lane, uint64_t a, uint64_t n) {
  uint32_t hi = uint32_t(a >> 32);
  if (hi == uint32_t(SharedApertureBase >> 32)) return ldsPtr(w, uint32_t(a), n);
  if (hi == uint32_t(PrivateApertureBase >> 32)) return privatePtr(w, lane, uint32_t(a), n);
  return globalPtr(*w.ls, a, n);
}

namespace {

// The counters are updated before each instruction runs: s_memtime and
// s_getreg(SHADER_CYCLES) read waveInstrs as the wave's clock.
void runWave(Wave &w, unsigned Slice) {
  const Inst *Code = w.prog->code.data();
  uint32_t N = uint32_t(w.prog->code.size());
  while (Slice--) {
    if (w.pc >= N) {
      raiseFault(w, Code[N - 1], ::support::FaultKind::IllegalInstruction, "execution ran past the end of the code");
      break;
    }
    const Inst &I = Code[w.pc++];
    w.laneInstrs += __builtin_popcountll(w.exec());
    ++w.waveInstrs;
    I.fn(w, I);
    if (w.state != WaveState::Running) break;
  }
}

} // namespace

// The watchdog (DeviceOptions::maxWaveInstructions): every scheduling round
// adds the wave instructions it ran to the launch's count; the wave whose
// slice takes the count past the limit ends with a Timeout fault naming
// where it was (an endless loop reads as a hang on hardware; here it is
// cudaErrorLaunchTimeout).
namespace {
// Adds the workgroup's counts to the launch's (also when it ends in a fault).
void finishWorkgroup(LaunchState &LS, Workgroup &WG) {
  uint64_t L = 0, C = 0;
  for (Wave &w : WG.waves) { L += w.laneInstrs; C += w.waveInstrs; }
  LS.laneInstrs += L;
  LS.waveInstrs += C;
}
} // namespace

StepResult stepWorkgroup(LaunchState &LS, Workgroup &WG) {
  const unsigned Slice = LS.sliceInstructions ? LS.sliceInstructions : 2048;
  unsigned Live = 0, AtBarrier = 0;
  for (Wave &w : WG.waves) {
    if (w.state == WaveState::Running) {
      uint64_t Before = w.waveInstrs;
      runWave(w, Slice);
      if (LS.maxWaveInstructions) {
        uint64_t Now = LS.watchdogInstrs.fetch_add(w.waveInstrs - Before, std::memory_order_relaxed) +
                       (w.waveInstrs - Before);
        if (Now > LS.maxWaveInstructions && (w.state == WaveState::Running || w.state == WaveState::Barrier))
          raiseFault(w, w.prog->code[w.pc ? w.pc - 1 : 0], ::support::FaultKind::Timeout,
                     "the launch exceeded the watchdog's limit of " + std::to_string(LS.maxWaveInstructions) +
                         " wave instructions (a kernel that never ends?)");
      }
    }
    if (w.state == WaveState::Fault) {
      std::lock_guard<std::mutex> L(LS.errMu);
      if (LS.error.empty()) {
        LS.error = w.fault;
        LS.errorFault = w.faultKind;
        LS.errorConstruct = w.faultConstruct;
      }
      finishWorkgroup(LS, WG);
      return StepResult::Failed;
    }
    if (w.state != WaveState::Done) ++Live;
    if (w.state == WaveState::Barrier) ++AtBarrier;
  }
  if (LS.abort.load(std::memory_order_relaxed)) {
    finishWorkgroup(LS, WG);
    return StepResult::Failed;
  }
  if (Live == 0) {
    finishWorkgroup(LS, WG);
    return StepResult::Done;
  }
  if (AtBarrier == Live)
    for (Wave &w : WG.waves)
      if (w.state == WaveState::Barrier) w.state = WaveState::Running;
  return StepResult::Live;
}

bool runWorkgroup(LaunchState &LS, Workgroup &WG) {
  while (true) {
    StepResult R = stepWorkgroup(LS, WG);
    if (R != StepResult::Live) return R == StepResult::Done;
  }
}

} // namespace isaemu::detail
