//===- main.cpp - ptx2amd command-line driver -----------------------------===//
//
// Reads PTX (file or stdin), runs the front end and, depending on the
// options, stops after checking (-fsyntax-only), prints the parsed module
// (--emit=ptx) or checks the print/re-parse round trip (--roundtrip-check).
// Diagnostics go to stderr in clang style; any error gives exit status 1.
// Translation stages plug in at runInputAction() through new EmitKinds.
//
//===----------------------------------------------------------------------===//
#include "Options.h"
#include "ptx/Parser.h"
#include "ptx2amd/Version.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace {

bool readInput(const std::string &path, std::string &out, std::string *err) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    out = ss.str();
    return true;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    *err = "cannot open '" + path + "'";
    return false;
  }
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  if (f.bad()) {
    *err = "error reading '" + path + "'";
    return false;
  }
  return true;
}

bool writeOutput(const std::string &path, const std::string &data) {
  if (path.empty() || path == "-") {
    std::fwrite(data.data(), 1, data.size(), stdout);
    return std::fflush(stdout) == 0;
  }
  std::ofstream f(path, std::ios::binary);
  f << data;
  return bool(f);
}

int runInputAction(const ptx2amd::Options &opts, const std::string &name, const std::string &text) {
  ptx::ParseOptions po;
  po.semanticChecks = !opts.noSema;
  po.maxErrors = opts.maxErrors;
  ptx::ParseResult r = ptx::parse(text, name, po);
  std::string diags = r.diags.render(name, text);
  std::fputs(diags.c_str(), stderr);
  if (!r.ok()) {
    unsigned n = r.diags.errorCount();
    std::fprintf(stderr, "%u error%s generated.\n", n, n == 1 ? "" : "s");
    return 1;
  }
  if (opts.roundtripCheck) {
    std::string printed = ptx::print(*r.module);
    ptx::ParseResult r2 = ptx::parse(printed, name + " (printed)", po);
    if (!r2.ok()) {
      std::fputs(r2.diags.render(name + " (printed)", printed).c_str(), stderr);
      std::fprintf(stderr, "%s: round-trip failed: the printed PTX does not parse\n", name.c_str());
      return 1;
    }
    std::string why;
    if (!ptx::structurallyEqual(*r.module, *r2.module, &why)) {
      std::fprintf(stderr, "%s: round-trip mismatch: %s\n", name.c_str(), why.c_str());
      return 1;
    }
    if (opts.emit == ptx2amd::EmitKind::None) return 0;
  }
  switch (opts.emit) {
  case ptx2amd::EmitKind::None:
    return 0;
  case ptx2amd::EmitKind::Ptx:
    if (!writeOutput(opts.output, ptx::print(*r.module))) {
      std::fprintf(stderr, "ptx2amd: error: cannot write '%s'\n", opts.output.c_str());
      return 1;
    }
    return 0;
  default:
    std::fprintf(stderr, "ptx2amd: error: this --emit kind is not implemented yet (only --emit=ptx)\n");
    return 1;
  }
}

} // namespace

int main(int argc, char **argv) {
  ptx2amd::Options opts;
  std::string err;
  if (!ptx2amd::parseOptions(argc, argv, opts, &err)) {
    std::fprintf(stderr, "ptx2amd: error: %s\n", err.c_str());
    return 1;
  }
  if (opts.help) {
    std::fputs(ptx2amd::helpText(argv[0]).c_str(), stdout);
    return 0;
  }
  if (opts.version) {
    std::printf("ptx2amd version %s\n", PTX2AMD_VERSION);
    return 0;
  }
  if (opts.inputs.size() != 1) {
    std::fprintf(stderr, "ptx2amd: error: %s\n",
                 opts.inputs.empty() ? "no input file (use '-' for stdin)" : "exactly one input file expected");
    return 1;
  }
  if (opts.syntaxOnly && opts.emit != ptx2amd::EmitKind::None) {
    std::fprintf(stderr, "ptx2amd: error: -fsyntax-only cannot be combined with --emit\n");
    return 1;
  }
  if (!opts.offloadArchs.empty()) {
    std::fprintf(stderr, "ptx2amd: error: --offload-arch: translation is not implemented yet\n");
    return 1;
  }
  const std::string &in = opts.inputs[0];
  std::string text;
  if (!readInput(in, text, &err)) {
    std::fprintf(stderr, "ptx2amd: error: %s\n", err.c_str());
    return 1;
  }
  return runInputAction(opts, in == "-" ? "<stdin>" : in, text);
}
