//===- Targets.cpp - The AMDGPU processors ptx2amd compiles for -------------===//
//
// The fixed table of supported processors (issue 3: 13 named GPUs and LLVM
// 22's four generic targets) with the wave size ptx2amd uses on each: gfx9
// (GCN/CDNA) only has wave64; gfx10+ (RDNA) run wave32, the native warp
// width. Generic targets need code object v6 (LLVM rejects them below it).
//
//===----------------------------------------------------------------------===//
#include "amdgpulower/Lower.h"

#include <array>

namespace amdgpulower {

static constexpr std::array<TargetInfo, 17> kTargets = {{
    {"gfx900", 64, false},  {"gfx906", 64, false},  {"gfx908", 64, false},
    {"gfx90a", 64, false},  {"gfx942", 64, false},  {"gfx950", 64, false},
    {"gfx1030", 32, false}, {"gfx1100", 32, false}, {"gfx1101", 32, false},
    {"gfx1102", 32, false}, {"gfx1151", 32, false}, {"gfx1200", 32, false},
    {"gfx1201", 32, false}, {"gfx9-generic", 64, true}, {"gfx9-4-generic", 64, true},
    {"gfx11-generic", 32, true}, {"gfx12-generic", 32, true},
}};

llvm::ArrayRef<TargetInfo> supportedTargets() { return kTargets; }

const TargetInfo *findTarget(std::string_view name) {
  for (const auto &t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

std::string_view warpPolicyName(WarpPolicy p) {
  switch (p) {
  case WarpPolicy::Native: return "native";
  case WarpPolicy::Pack: return "pack";
  case WarpPolicy::Pad: return "pad";
  }
  return "?";
}

std::string renderDiagnostic(const Diagnostic &d) {
  std::string s;
  if (!d.file.empty()) {
    s += d.file;
    if (d.line) s += ":" + std::to_string(d.line) + ":" + std::to_string(d.col);
    s += ": ";
  }
  s += d.severity == Severity::Error ? "error: " : d.severity == Severity::Warning ? "warning: " : "note: ";
  s += d.message;
  return s;
}

} // namespace amdgpulower
