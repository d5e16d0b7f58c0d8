//===- support/CommandLine.h - the one option parser of the tools --*- C++ -*-===//
//
// Every tool (ptx2amd, ptx2amd-fatbin, ptx2amd-run, ptx2amd-opt,
// isa-emu-run, ptx2amd-exec) parses argv with this table-driven parser, so
// one option is spelled and parsed the same in every tool:
//   * a value option takes `--name=value` and `--name value`; a one-letter
//     option also `-xvalue` (`-O3`, `-j4`, `-ofile`) and `-x value`;
//   * a flag takes no value (`-v`, `--cooperative`);
//   * anything not starting with '-' (and "-" itself, stdin) is positional;
//   * `--` ends options.
// addCommonOptions() adds the options every tool shares with one spelling,
// help line and checker: -o, -O, -j, -v, --offload-arch, --warp-policy,
// --version, --help (-h). --help is generated from the table.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Contract.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace support::cl {

struct Option {
  std::string name;     // "--emit", "-o", "-fsyntax-only"
  bool takesValue = false;
  std::string meta;     // "<file>" for help
  std::string help;
  // Stores the value (empty for flags); an Error (InvalidInputError) rejects it.
  std::function<llvm::Error(std::string_view)> handle;
  bool hidden = false;  // an alias kept for old scripts: parsed, not listed in --help
};

class Parser {
public:
  Parser(std::string tool, std::string usage) : tool_(std::move(tool)), usage_(std::move(usage)) {}
  void add(Option o) { options_.push_back(std::move(o)); }
  // Marks the option added last as an alias: parsed, not listed in --help.
  void hideLast() { options_.back().hidden = true; }
  void flag(std::string name, std::string help, bool &out);
  void value(std::string name, std::string meta, std::string help, std::string &out);
  void list(std::string name, std::string meta, std::string help, std::vector<std::string> &out);
  void unsignedValue(std::string name, std::string meta, std::string help, unsigned &out, unsigned max = ~0u);
  // Positional arguments ("-" included).
  void positional(std::vector<std::string> &out) { positional_ = &out; }
  // A launcher's command line (`tool [options] PROGRAM ARGS...`): the first
  // positional argument ends the options, as `--` does, so PROGRAM's own
  // options reach it unparsed.
  void stopAtFirstPositional() { stopAtPositional_ = true; }

  // Parses argv[1..]; errors are InvalidInputError naming the option.
  llvm::Error parse(int argc, const char *const *argv);
  std::string help() const;
  const std::string &tool() const { return tool_; }

private:
  std::string tool_, usage_;
  std::vector<Option> options_;
  std::vector<std::string> *positional_ = nullptr;
  bool stopAtPositional_ = false;
};

// The options every tool shares.
struct CommonOptions {
  std::string output;                    // -o; empty: the tool's default
  unsigned optLevel = 3;                 // -O0..-O3
  unsigned threads = 0;                  // -j: codegen / emulator threads, 0 = all cores
  bool verbose = false;                  // -v
  bool version = false;                  // --version
  bool help = false;                     // --help, -h
  std::vector<std::string> offloadArchs; // --offload-arch (repeatable, checked against supportedTargets())
  WarpPolicySpec warpPolicy;             // --warp-policy (repeatable: pack|pad|KERNEL=pack|pad, comma lists)
  // The single --offload-arch, or kDefaultTarget when none was given.
  std::string arch() const { return offloadArchs.empty() ? std::string(kDefaultTarget) : offloadArchs.front(); }
};
enum CommonSet : unsigned {
  kOutput = 1, kOptLevel = 2, kThreads = 4, kVerbose = 8, kOffloadArch = 16, kWarpPolicy = 32,
  kAllCommon = 63 // --version and --help are always added
};
void addCommonOptions(Parser &p, CommonOptions &o, unsigned which = kAllCommon);

// "ptx2amd version 0.1.0 (LLVM 22.1.8)" for --version.
std::string versionLine(std::string_view tool);

} // namespace support::cl
