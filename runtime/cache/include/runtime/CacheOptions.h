//===- runtime/CacheOptions.h - Options fingerprint of a cache key -*- C++ -*-===//
//
// The part of a cache key that says how a module was translated: every
// field of amdgpulower::LowerOptions that changes the output bytes (target,
// optimisation level, warp policy spec -- module default and per-kernel
// overrides --, code object version) and the input kind. Left out on
// purpose: `threads` (codegen is deterministic whatever the thread count:
// tests/cache/DeterminismTest.cpp) and `warnWarpSize` (diagnostics only).
// Header-only over the option structs, so runtimecache links no stage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"
#include "support/Contract.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace runtime {

enum class CacheInputKind { PTX, LLVMIR };

// Extra: options of a pipeline driver beyond LowerOptions that change the
// bytes, as (name, value) pairs in a fixed order -- e.g. ("pin", the sorted,
// comma-joined host-visible globals that are kept under their names) or
// ("kernel", the one kernel of a per-kernel image).
inline std::string optionsFingerprint(const amdgpulower::LowerOptions &O, CacheInputKind In,
                                      llvm::ArrayRef<std::pair<std::string, std::string>> Extra);

inline std::string optionsFingerprint(const amdgpulower::LowerOptions &O,
                                      CacheInputKind In = CacheInputKind::PTX) {
  return optionsFingerprint(O, In, {});
}

inline std::string optionsFingerprint(const amdgpulower::LowerOptions &O, CacheInputKind In,
                                      llvm::ArrayRef<std::pair<std::string, std::string>> Extra) {
  auto Pol = [](amdgpulower::WarpPolicy P) { return std::string(support::warpPolicyName(P)); };
  std::string S = "fp1;in=";
  S += In == CacheInputKind::PTX ? "ptx" : "llvm";
  S += ";arch=" + O.arch + ";O" + std::to_string(O.optLevel) + ";cov=" + std::to_string(O.codeObjectVersion);
  S += ";policy=";
  S += Pol(O.defaultPolicy);
  for (const auto &[Kernel, P] : O.kernelPolicy) { // std::map: sorted, so the spec's order does not matter
    S += ";kp=" + std::to_string(Kernel.size()) + ":" + Kernel + "=";
    S += Pol(P);
  }
  for (const auto &[Name, Value] : Extra) // length-prefixed: values may hold any character
    S += ";x:" + Name + "=" + std::to_string(Value.size()) + ":" + Value;
  return S;
}

} // namespace runtime
