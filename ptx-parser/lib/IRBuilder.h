//===- IRBuilder.h - parse tree -> typed IR (private) ---------------------===//
#pragma once

#include "Internal.h"
#include "PTXParser.h"

#include <memory>
#include <vector>

namespace ptx::detail {

struct BuildInput {
  std::string_view text;            // original source (token indices are byte offsets)
  std::string_view sourceName;
  std::vector<size_t> errorOffsets; // sorted offsets of syntax errors (statements there are skipped)
  bool semanticChecks = true;
};

std::unique_ptr<Module> buildModule(ptxgen::PTXParser::PtxModuleContext *tree,
                                    const BuildInput &in, DiagSink &diags);

} // namespace ptx::detail
