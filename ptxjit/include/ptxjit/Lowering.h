//===- ptxjit/Lowering.h - C++ entry: PTX -> lowered llvm::Module -*- C++ -*-===//
//
// For in-process users that want the LLVM module itself (the emulator runs
// exactly this module: amdgpu-lower's output after the optimisation
// pipeline, before instruction selection — docs/pipeline.md "Contract: emu
// input"). Same front half as ptxjit_compile: ptx::parse ->
// ptx2llvm::translate -> amdgpulower::lowerModule.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string_view>
#include <vector>

namespace ptxjit {

enum class InputKind { PTX, LLVMIR };

// PTX (or LLVM IR) text -> the translated module, before amdgpu-lower.
// Front-end diagnostics (warnings and errors) are appended to `diags`; on
// failure the Error holds every error again, typed (one payload each, with
// its support::ErrorKind), so a caller prints `diags` or passes the Error on.
llvm::Expected<std::unique_ptr<llvm::Module>>
translate(std::string_view text, std::string_view sourceName, InputKind kind,
          llvm::LLVMContext &ctx, std::vector<amdgpulower::Diagnostic> &diags,
          std::vector<amdgpulower::StageTime> *times = nullptr);

// translate() + amdgpulower::lowerModule() for opts.arch (same contract:
// the lowering's errors are appended to `diags` and returned typed).
llvm::Expected<std::unique_ptr<llvm::Module>>
lowerPTX(std::string_view text, std::string_view sourceName, llvm::LLVMContext &ctx,
         const amdgpulower::LowerOptions &opts, std::vector<amdgpulower::Diagnostic> &diags,
         InputKind kind = InputKind::PTX);

} // namespace ptxjit
