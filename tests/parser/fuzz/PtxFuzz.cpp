//===- PtxFuzz.cpp - libFuzzer target for the PTX front end ---------------===//
//
// Any input: parse must not crash (ASan/UBSan abort on memory errors and
// undefined behaviour), diagnostics must render, and when the input parses
// without errors the round-trip property must hold: print() re-parses without
// errors to a structurally equal module. A violation aborts (a finding).
//
//===----------------------------------------------------------------------===//
#include "ptx/Parser.h"

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  ptx::ParseOptions opts;
  opts.maxErrors = 20;
  ptx::ParseResult r = ptx::parse(text, "fuzz.ptx", opts);
  std::string rendered = r.diags.render("fuzz.ptx", text);
  if (!r.ok()) return 0;
  std::string printed = ptx::print(*r.module);
  ptx::ParseResult r2 = ptx::parse(printed, "printed.ptx", opts);
  if (!r2.ok()) {
    std::fprintf(stderr, "round trip: printed PTX does not parse:\n%s\n--- printed ---\n%s\n",
                 r2.diags.render("printed.ptx", printed).c_str(), printed.c_str());
    std::abort();
  }
  std::string why;
  if (!ptx::structurallyEqual(*r.module, *r2.module, &why)) {
    std::fprintf(stderr, "round trip mismatch: %s\n--- printed ---\n%s\n", why.c_str(), printed.c_str());
    std::abort();
  }
  return 0;
}
