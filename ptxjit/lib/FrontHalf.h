//===- FrontHalf.h - the two steps of translate(), for the linker -*- C++ -*-===//
//
// translate() = parseUnit() + translateParsed(); Link.cpp needs the parsed
// modules (their linkage directives and positions) between the two.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ptxjit/Lowering.h"

#include "ptx/Parser.h"

namespace ptxjit {

// ptx::parse with the diagnostics appended (file = sourceName); an error when any is an error.
llvm::Expected<ptx::ParseResult> parseUnit(std::string_view text, std::string_view sourceName,
                                           std::vector<amdgpulower::Diagnostic> &diags,
                                           std::vector<amdgpulower::StageTime> *times);
// ptx2llvm::translate with its typed errors flattened into diagnostics.
llvm::Expected<std::unique_ptr<llvm::Module>> translateParsed(const ptx::Module &pm, std::string_view sourceName,
                                                              llvm::LLVMContext &ctx,
                                                              std::vector<amdgpulower::Diagnostic> &diags,
                                                              std::vector<amdgpulower::StageTime> *times);

} // namespace ptxjit
