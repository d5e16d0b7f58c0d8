//===- main.cpp - ptx2amd command-line driver -----------------------------===//
//
// Reads PTX (files or stdin; several files are -rdc modules linked into one
// image), runs the front end and, depending on the
// options, stops after checking (-fsyntax-only), prints the parsed module
// (--emit=ptx), checks the print/re-parse round trip (--roundtrip-check) or,
// by default, translates with libptxjit (runTranslation): like clang, with no
// -o the output is <input>.hsaco for --offload-arch (default gfx1100, said
// with -v). Outputs are written to a temporary file and renamed; a failed run
// removes an older output of the same name. Diagnostics go to stderr through
// the one renderer (support::render); the exit status says what kind of error
// happened (support/ExitStatus.h: 1 input, 2 usage, 3 unsupported construct,
// 4 internal / toolchain), decided on the diagnostics' kinds, never on text.
//
//===----------------------------------------------------------------------===//
#include "InputFile.h"
#include "Options.h"
#include "ProcessAllocator.h"
#include "StdoutStatus.h"
#include "ptxjit.h"
#include "ptx/Parser.h"
#include "ptx2amd/Version.h"
#include "support/Diagnostic.h"
#include "support/ExitStatus.h"
#include "support/OutputFile.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace {

using support::ExitStatus;
constexpr int kUsage = int(ExitStatus::Usage), kInternal = int(ExitStatus::Internal);

bool readInput(const std::string &path, std::string &out, std::string *err) {
  return ptx2amd::tools::readInputFile(path, out, *err);
}

// All-or-nothing: a temporary file renamed over `path` ("" / "-": stdout).
bool writeOutput(const std::string &path, const std::string &data) {
  if (llvm::Error e = support::writeOutputFile(path, data)) {
    std::fprintf(stderr, "ptx2amd: error: %s\n", llvm::toString(std::move(e)).c_str());
    return false;
  }
  return true;
}

int runInputAction(const ptx2amd::Options &opts, const std::string &name, const std::string &text) {
  ptx::ParseOptions po;
  po.semanticChecks = !opts.noSema;
  po.maxErrors = opts.maxErrors;
  ptx::ParseResult r = ptx::parse(text, name, po);
  std::string diags = r.diags.render(name, text);
  std::fputs(diags.c_str(), stderr);
  if (!r.ok()) {
    if (opts.emit == ptx2amd::EmitKind::Ptx) support::removeStaleOutput(opts.output);
    unsigned n = r.diags.errorCount();
    std::fprintf(stderr, "%u error%s generated.\n", n, n == 1 ? "" : "s");
    return support::exitCode(support::exitStatusOf(r.diags.all()));
  }
  if (opts.roundtripCheck) {
    std::string printed = ptx::print(*r.module);
    ptx::ParseResult r2 = ptx::parse(printed, name + " (printed)", po);
    if (!r2.ok()) {
      std::fputs(r2.diags.render(name + " (printed)", printed).c_str(), stderr);
      std::fprintf(stderr, "%s: round-trip failed: the printed PTX does not parse\n", name.c_str());
      return kInternal; // the printer's bug, not the input's
    }
    std::string why;
    if (!ptx::structurallyEqual(*r.module, *r2.module, &why)) {
      std::fprintf(stderr, "%s: round-trip mismatch: %s\n", name.c_str(), why.c_str());
      return kInternal;
    }
    if (opts.emit == ptx2amd::EmitKind::None) return 0;
  }
  switch (opts.emit) {
  case ptx2amd::EmitKind::None:
    return 0;
  case ptx2amd::EmitKind::Ptx:
    if (!writeOutput(opts.output, ptx::print(*r.module))) return kInternal;
    return 0;
  default:
    std::fprintf(stderr, "ptx2amd: error: this --emit kind is not implemented yet (only --emit=ptx)\n");
    return kInternal;
  }
}

// Translation (the default; --emit=llvm|asm|obj|hsaco): a thin client of
// libptxjit. Diagnostics come back structured and are printed clang-style.
// Several inputs are separately compiled (-rdc) PTX modules linked into one
// image (ptxjit_compile_linked); the output is named after the first.
struct Input {
  std::string name, text;
};
int runTranslation(const ptx2amd::Options &opts, const std::vector<Input> &inputs) {
  using ptx2amd::EmitKind;
  const std::string &name = inputs[0].name;
  std::vector<std::string> archs = opts.offloadArchs;
  if (archs.empty()) {
    archs.push_back(opts.arch()); // support::kDefaultTarget
    if (opts.verbose)
      std::fprintf(stderr, "ptx2amd: no --offload-arch given: compiling for %s (the default target)\n",
                   archs[0].c_str());
  }
  EmitKind emit = opts.emit == EmitKind::None ? EmitKind::Hsaco : opts.emit;
  // The output path: -o, else (code objects and objects) <input stem>.hsaco|.bundle|.o, like clang.
  std::string out = opts.output;
  if (out.empty() && (emit == EmitKind::Hsaco || emit == EmitKind::Obj)) {
    std::string base = name == "<stdin>" ? "a" : name.substr(name.find_last_of('/') + 1);
    if (size_t dot = base.rfind('.'); dot != std::string::npos && dot > 0) base.resize(dot);
    out = base + (emit == EmitKind::Obj ? ".o" : archs.size() > 1 ? ".bundle" : ".hsaco");
  }
  if (emit != EmitKind::Hsaco && archs.size() != 1) {
    std::fprintf(stderr, "ptx2amd: error: --emit=llvm|asm|obj take exactly one --offload-arch\n");
    return kUsage;
  }
  ptxjit_context ctx = nullptr;
  ptxjit_options jo = nullptr;
  if (ptxjit_context_create(&ctx) || ptxjit_options_create(&jo)) {
    std::fprintf(stderr, "ptx2amd: error: cannot initialise libptxjit\n");
    return kInternal;
  }
  ptxjit_context_set_cache_enabled(ctx, 0);
  int rc = 0;
  auto fail = [&](const std::string &m, int status) {
    std::fprintf(stderr, "ptx2amd: error: %s\n", m.c_str());
    rc = status;
  };
  for (const auto &a : archs)
    if (ptxjit_options_add_arch(jo, a.c_str()) != PTXJIT_SUCCESS) {
      std::string list;
      for (size_t i = 0; i < ptxjit_supported_arch_count(); ++i)
        list += std::string(i ? ", " : "") + ptxjit_supported_arch(i);
      fail("unsupported --offload-arch '" + a + "' (supported: " + list + ")", kUsage);
    }
  ptxjit_options_set_opt_level(jo, opts.optLevel);
  auto cPolicy = [](support::WarpPolicy p) {
    return p == support::WarpPolicy::Pad ? PTXJIT_WARP_POLICY_PAD : PTXJIT_WARP_POLICY_PACK;
  };
  if (opts.warpPolicy.module) ptxjit_options_set_warp_policy(jo, cPolicy(*opts.warpPolicy.module));
  for (const auto &[k, p] : opts.warpPolicy.kernels) ptxjit_options_set_kernel_warp_policy(jo, k.c_str(), cPolicy(p));
  ptxjit_options_set_code_object_version(jo, opts.codeObjectVersion);
  ptxjit_options_set_warn_warp_size(jo, opts.warnWarpSize);
  ptxjit_options_set_threads(jo, opts.threads);
  ptxjit_options_set_time_stages(jo, opts.timePasses || opts.verbose);
  ptxjit_options_set_source_name(jo, name.c_str());
  bool llInput = name.size() > 3 && name.compare(name.size() - 3, 3, ".ll") == 0;
  if (llInput && inputs.size() > 1) fail("only PTX inputs can be linked (several inputs given, one is LLVM IR)", kUsage);
  if (llInput) ptxjit_options_set_input_kind(jo, PTXJIT_INPUT_LLVM_IR);
  ptxjit_options_set_emit(jo, emit == EmitKind::Llvm   ? PTXJIT_EMIT_LLVM_IR
                              : emit == EmitKind::Asm ? PTXJIT_EMIT_ASSEMBLY
                              : emit == EmitKind::Obj ? PTXJIT_EMIT_OBJECT
                              : archs.size() > 1 ? PTXJIT_EMIT_BUNDLE
                                                             : PTXJIT_EMIT_CODE_OBJECT);
  if (opts.verbose) {
    std::fprintf(stderr, "ptx2amd: %s\n", ptxjit_version_string());
    std::fprintf(stderr, "ptx2amd: %s%s (%s) -> -O%u, code object v%u, warp policy %s, archs:", name.c_str(),
                 inputs.size() > 1 ? (" + " + std::to_string(inputs.size() - 1) + " linked").c_str() : "",
                 llInput ? "LLVM IR" : "PTX", opts.optLevel, opts.codeObjectVersion,
                 std::string(support::warpPolicyName(opts.warpPolicy.module.value_or(support::WarpPolicy::Pack))).c_str());
    for (const auto &a : archs) std::fprintf(stderr, " %s", a.c_str());
    std::fprintf(stderr, "\n");
  }
  ptxjit_result res = nullptr;
  if (!rc) {
    std::vector<const char *> texts, names;
    std::vector<size_t> sizes;
    for (const Input &in : inputs) {
      texts.push_back(in.text.data());
      sizes.push_back(in.text.size());
      names.push_back(in.name.c_str());
    }
    ptxjit_status st = ptxjit_compile_linked(ctx, inputs.size(), texts.data(), sizes.data(), names.data(), jo, &res);
    unsigned errors = 0;
    std::vector<support::Diagnostic> diags;
    for (size_t i = 0; res && i < ptxjit_result_diagnostic_count(res); ++i) {
      ptxjit_diagnostic d;
      ptxjit_result_diagnostic(res, i, &d);
      errors += d.severity == PTXJIT_SEVERITY_ERROR;
      support::Diagnostic sd{d.severity == PTXJIT_SEVERITY_ERROR     ? support::Severity::Error
                             : d.severity == PTXJIT_SEVERITY_WARNING ? support::Severity::Warning
                                                                     : support::Severity::Note,
                             *d.file ? d.file : "ptx2amd", d.line, d.column, d.message,
                             support::ErrorKind(ptxjit_result_diagnostic_kind(res, i))};
      std::string_view src;
      for (const Input &in : inputs)
        if (in.name == d.file) src = in.text;
      std::fputs(support::render(sd, src).c_str(), stderr);
      diags.push_back(std::move(sd));
    }
    if (res && (opts.timePasses || opts.verbose)) {
      std::fprintf(stderr, "===-- ptx2amd stage times (wall) --===\n");
      double total = 0;
      for (size_t i = 0; i < ptxjit_result_stage_count(res); ++i) {
        const char *n;
        double t;
        ptxjit_result_stage(res, i, &n, &t);
        std::fprintf(stderr, "  %10.4f s  %s\n", t, n);
      }
      (void)total;
    }
    if (st != PTXJIT_SUCCESS) {
      if (errors) std::fprintf(stderr, "%u error%s generated.\n", errors, errors == 1 ? "" : "s");
      else std::fprintf(stderr, "ptx2amd: error: translation failed\n");
      // By the diagnostics' kinds (support/ExitStatus.h); none at all: Internal.
      rc = support::exitCode(support::exitStatusOf(diags));
    } else {
      size_t n = 0;
      const char *data = static_cast<const char *>(ptxjit_result_data(res, &n));
      if (!writeOutput(out, std::string(data, n))) rc = kInternal;
      else if (opts.verbose) std::fprintf(stderr, "ptx2amd: wrote %zu bytes to %s\n", n, out.empty() ? "<stdout>" : out.c_str());
    }
  }
  if (rc) support::removeStaleOutput(out); // never leave an older output that looks current
  ptxjit_result_destroy(res);
  ptxjit_options_destroy(jo);
  ptxjit_context_destroy(ctx);
  return rc;
}

} // namespace

static int runTool(int argc, char **argv) {
  ptx2amd::Options opts;
  if (llvm::Error e = ptx2amd::parseOptions(argc, argv, opts)) {
    std::fprintf(stderr, "ptx2amd: error: %s\n", llvm::toString(std::move(e)).c_str());
    return kUsage;
  }
  std::string err;
  if (opts.help) {
    std::fputs(ptx2amd::helpText(argv[0]).c_str(), stdout);
    return 0;
  }
  if (opts.version) {
    std::printf("%s\n", support::cl::versionLine("ptx2amd").c_str());
    return 0;
  }
  if (opts.inputs.empty()) {
    std::fprintf(stderr, "ptx2amd: error: no input file (use '-' for stdin)\n");
    return kUsage;
  }
  if (opts.syntaxOnly && opts.emit != ptx2amd::EmitKind::None) {
    std::fprintf(stderr, "ptx2amd: error: -fsyntax-only cannot be combined with --emit\n");
    return kUsage;
  }
  // Translation is the default; -fsyntax-only, --roundtrip-check and --emit=ptx stop at the front end.
  bool translate = !opts.syntaxOnly && !opts.roundtripCheck && opts.emit != ptx2amd::EmitKind::Ptx;
  ptx::configureProcessAllocator(translate ? ptx::AllocatorUse::Translation : ptx::AllocatorUse::FrontEnd);
  std::vector<Input> inputs;
  for (const std::string &in : opts.inputs) {
    Input i;
    i.name = in == "-" ? "<stdin>" : in;
    if (!readInput(in, i.text, &err)) {
      std::fprintf(stderr, "ptx2amd: error: %s\n", err.c_str());
      return kUsage; // an input named on the command line that cannot be read
    }
    inputs.push_back(std::move(i));
  }
  if (translate) return runTranslation(opts, inputs);
  if (inputs.size() > 1 && opts.emit == ptx2amd::EmitKind::Ptx) {
    std::fprintf(stderr, "ptx2amd: error: --emit=ptx takes exactly one input\n");
    return kUsage;
  }
  ExitStatus rc = ExitStatus::Success;
  for (const Input &i : inputs) rc = support::worseExitStatus(rc, ExitStatus(runInputAction(opts, i.name, i.text)));
  return support::exitCode(rc);
}

// A failed write to stdout (--help, --version or the tool's listing on a full
// disk) is a failure too (tools/common/StdoutStatus.h).
int main(int argc, char **argv) { return ptx2amd::tools::finishStdout("ptx2amd", runTool(argc, argv), 4); }
