//===- ptx2llvm-test.cpp - parse PTX, translate, print LLVM IR ------------===//
//
// Small driver of the ptx-to-llvm stage for its own tests (until and besides
// `ptx2amd --emit=llvm`): `ptx2llvm-test in.ptx [-o out.ll] [--stats] [--partial]`
// (--partial: failing functions become declarations, errors on stderr).
// Prints the translated module, or the collected errors and exit code 1.
// --stats prints per-function success counts instead (for corpus sweeps):
// each function is translated in a module of its own together with all
// declarations, so one failing function does not hide the others.
//
//===----------------------------------------------------------------------===//
#include "ptx/Parser.h"
#include "ptx2llvm/Translate.h"
#include "support/Error.h"

#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char **argv) {
  std::string in, out;
  bool stats = false, partial = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-o" && i + 1 < argc) out = argv[++i];
    else if (a == "--stats") stats = true;
    else if (a == "--partial") partial = true;
    else in = a;
  }
  if (in.empty()) { std::cerr << "usage: ptx2llvm-test in.ptx [-o out.ll] [--stats]\n"; return 2; }
  std::ifstream f(in);
  if (!f) { std::cerr << in << ": cannot open\n"; return 2; }
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  auto pr = ptx::parse(text, in);
  if (!pr.ok() || !pr.module) {
    std::cerr << pr.diags.render(in, text);
    return 1;
  }
  llvm::LLVMContext ctx;
  if (stats) {
    // Partial translation: the failing functions are reported by name.
    std::vector<support::Diagnostic> errors;
    std::vector<std::string> failed;
    ptx2llvm::Options so{in, true, &errors, &failed};
    auto m = ptx2llvm::translate(*pr.module, ctx, so);
    if (!m) support::appendDiagnostics(m.takeError(), errors, in);
    unsigned total = 0, bad = unsigned(failed.size());
    for (const auto &fn : pr.module->functions) total += fn.hasBody;
    std::cout << "functions: " << total << " translated: " << (total - bad) << " failed: " << bad << "\n";
    std::cout << support::renderAll(errors);
    return bad || !m ? 1 : 0;
  }
  std::vector<support::Diagnostic> partialErrors;
  ptx2llvm::Options opts{in, true, partial ? &partialErrors : nullptr};
  auto m = ptx2llvm::translate(*pr.module, ctx, opts);
  std::cerr << support::renderAll(partialErrors);
  if (!m) {
    std::cerr << support::renderAll(support::takeDiagnostics(m.takeError(), in));
    return 1;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(out.empty() ? "-" : out, ec);
  (*m)->print(os, nullptr);
  return 0;
}
