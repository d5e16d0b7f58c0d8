//===- Contract.cpp - the target table and the warp-policy spec parser -------===//
//
// The fixed table of supported processors (13 named GPUs and LLVM 22's four
// generic targets; wave sizes from waveSizeOf, so the gfx9/gfx10 rule is
// written once) and the one parser of warp-policy specs.
//
//===----------------------------------------------------------------------===//
#include "support/Contract.h"

#include "support/Error.h"

#include <array>

namespace support {

namespace {
constexpr TargetInfo target(std::string_view name, bool generic = false) {
  return {name, waveSizeOf(name), generic};
}
constexpr std::array<TargetInfo, 17> kTargets = {{
    target("gfx900"),  target("gfx906"),  target("gfx908"),  target("gfx90a"),
    target("gfx942"),  target("gfx950"),  target("gfx1030"), target("gfx1100"),
    target("gfx1101"), target("gfx1102"), target("gfx1151"), target("gfx1200"),
    target("gfx1201"), target("gfx9-generic", true), target("gfx9-4-generic", true),
    target("gfx11-generic", true), target("gfx12-generic", true),
}};
static_assert(waveSizeOf("gfx90a") == 64 && waveSizeOf("gfx1100") == 32 &&
              waveSizeOf("gfx9-4-generic") == 64 && waveSizeOf("gfx11-generic") == 32 &&
              waveSizeOf("gfx803") == 64 && waveSizeOf("sm_90") == 0);
} // namespace

llvm::ArrayRef<TargetInfo> supportedTargets() { return kTargets; }

const TargetInfo *findTarget(std::string_view name) {
  for (const auto &t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

std::string supportedTargetList() {
  std::string s;
  for (const auto &t : kTargets) s += (s.empty() ? "" : ", ") + std::string(t.name);
  return s;
}

std::string_view warpPolicyName(WarpPolicy p) {
  switch (p) {
  case WarpPolicy::Native: return "native";
  case WarpPolicy::Pack: return "pack";
  case WarpPolicy::Pad: return "pad";
  }
  return "?";
}

std::optional<WarpPolicy> parseWarpPolicyName(std::string_view s) {
  if (s == "pack") return WarpPolicy::Pack;
  if (s == "pad") return WarpPolicy::Pad;
  return std::nullopt;
}

llvm::Error parseWarpPolicySpec(std::string_view spec, WarpPolicySpec &into, std::string_view optionName) {
  auto bad = [&](std::string_view item, const std::string &why) {
    return invalidInput(noLoc(std::string(optionName) + ": " + why + " in '" + std::string(item) +
                              "' (expected pack, pad or KERNEL=pack|pad, comma-separated)"),
                        std::string(optionName));
  };
  if (spec.empty()) return bad(spec, "empty policy");
  size_t b = 0;
  while (b <= spec.size()) {
    size_t e = spec.find(',', b);
    if (e == std::string_view::npos) e = spec.size();
    std::string_view item = spec.substr(b, e - b);
    size_t eq = item.rfind('=');
    std::string_view pol = eq == std::string_view::npos ? item : item.substr(eq + 1);
    std::optional<WarpPolicy> p = parseWarpPolicyName(pol);
    if (!p) return bad(item, "unknown policy '" + std::string(pol) + "'");
    if (eq == std::string_view::npos) into.module = *p;
    else if (eq == 0) return bad(item, "empty kernel name");
    else into.kernels.emplace_back(std::string(item.substr(0, eq)), *p);
    b = e + 1;
  }
  return llvm::Error::success();
}

} // namespace support
