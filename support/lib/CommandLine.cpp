//===- CommandLine.cpp - table-driven argv parsing shared by the tools -------===//
//
// One matcher for every tool (see support/CommandLine.h for the accepted
// forms) and the common options' handlers, so `--offload-arch`, `-O`, `-j`,
// `--warp-policy`, ... are checked in one place.
//
//===----------------------------------------------------------------------===//
#include "support/CommandLine.h"

#include "support/Error.h"

#include "ptx2amd/Version.h"

#include "llvm/Config/llvm-config.h"

namespace support::cl {

namespace {
llvm::Error bad(const std::string &msg, const std::string &option) {
  return invalidInput(noLoc(msg), option);
}
bool parseUnsigned(std::string_view v, unsigned &out) {
  if (v.empty() || v.size() > 9) return false;
  unsigned n = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + unsigned(c - '0');
  }
  out = n;
  return true;
}
} // namespace

void Parser::flag(std::string name, std::string help, bool &out) {
  add({std::move(name), false, {}, std::move(help), [&out](std::string_view) {
         out = true;
         return llvm::Error::success();
       }});
}
void Parser::value(std::string name, std::string meta, std::string help, std::string &out) {
  add({std::move(name), true, std::move(meta), std::move(help), [&out](std::string_view v) {
         out = std::string(v);
         return llvm::Error::success();
       }});
}
void Parser::list(std::string name, std::string meta, std::string help, std::vector<std::string> &out) {
  add({std::move(name), true, std::move(meta), std::move(help), [&out](std::string_view v) {
         out.emplace_back(v);
         return llvm::Error::success();
       }});
}
void Parser::unsignedValue(std::string name, std::string meta, std::string help, unsigned &out, unsigned max) {
  std::string n = name;
  add({std::move(name), true, std::move(meta), std::move(help), [&out, n, max](std::string_view v) -> llvm::Error {
         unsigned x;
         if (!parseUnsigned(v, x) || x > max)
           return bad("invalid value '" + std::string(v) + "' for " + n, n);
         out = x;
         return llvm::Error::success();
       }});
}

llvm::Error Parser::parse(int argc, const char *const *argv) {
  bool optionsDone = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (optionsDone || a == "-" || a.empty() || a[0] != '-') {
      if (!positional_) return bad("unexpected argument '" + std::string(a) + "'", "");
      positional_->emplace_back(a);
      optionsDone |= stopAtPositional_;
      continue;
    }
    if (a == "--") {
      optionsDone = true;
      continue;
    }
    if (a == "-h") a = "--help";
    const Option *match = nullptr;
    std::string_view val;
    bool haveVal = false;
    for (const Option &o : options_) {
      std::string_view n = o.name;
      if (a.substr(0, n.size()) != n) continue;
      std::string_view rest = a.substr(n.size());
      if (!o.takesValue) {
        if (!rest.empty()) continue;
        match = &o;
        break;
      }
      if (rest.empty()) {
        match = &o;
        break;
      }
      if (rest[0] == '=') {
        match = &o, val = rest.substr(1), haveVal = true;
        break;
      }
      if (n.size() == 2) { // -O3, -j4, -ofile
        match = &o, val = rest, haveVal = true;
        break;
      }
    }
    if (!match) return bad("unknown option '" + std::string(a) + "' (see --help)", std::string(a));
    if (match->takesValue && !haveVal) {
      if (i + 1 >= argc) return bad("option '" + match->name + "' needs a value", match->name);
      val = argv[++i];
    }
    if (llvm::Error e = match->handle(val)) return e;
  }
  return llvm::Error::success();
}

std::string Parser::help() const {
  std::string s = "usage: " + usage_ + "\n\noptions:\n";
  for (const Option &o : options_) {
    if (o.hidden) continue;
    std::string l = "  " + o.name;
    if (o.takesValue) l += (o.name.size() == 2 ? " " : "=") + o.meta;
    if (l.size() < 30) l.resize(30, ' ');
    else l += "  ";
    s += l + o.help + "\n";
  }
  return s;
}

void addCommonOptions(Parser &p, CommonOptions &o, unsigned which) {
  if (which & kOutput) p.value("-o", "<file>", "write the output to <file> ('-' = stdout)", o.output);
  if (which & kOffloadArch)
    p.add({"--offload-arch", true, "<gfx>",
           "AMDGPU target (repeatable where several make sense; default " + std::string(kDefaultTarget) + ")",
           [&o](std::string_view v) -> llvm::Error {
             if (!findTarget(v))
               return bad("unsupported --offload-arch '" + std::string(v) + "' (supported: " +
                              supportedTargetList() + ")",
                          "--offload-arch");
             for (const std::string &a : o.offloadArchs)
               if (a == v) return llvm::Error::success();
             o.offloadArchs.emplace_back(v);
             return llvm::Error::success();
           }});
  if (which & kWarpPolicy)
    p.add({"--warp-policy", true, "pack|pad|<kernel>=pack|pad",
           "wave64 warp policy of the module or of one kernel (repeatable, comma lists; wave32 ignores it)",
           [&o](std::string_view v) -> llvm::Error { return parseWarpPolicySpec(v, o.warpPolicy, "--warp-policy"); }});
  if (which & kOptLevel) p.unsignedValue("-O", "<0-3>", "optimisation level (default -O3)", o.optLevel, 3);
  if (which & kThreads) p.unsignedValue("-j", "<n>", "threads (default: all cores; the output is the same for any n)", o.threads);
  if (which & kVerbose) p.flag("-v", "verbose: print the toolchain version and each step", o.verbose);
  p.flag("--version", "print the version and exit", o.version);
  p.flag("--help", "print this help and exit", o.help);
}

std::string versionLine(std::string_view tool) {
  return std::string(tool) + " version " + PTX2AMD_VERSION + " (LLVM " LLVM_VERSION_STRING ")";
}

} // namespace support::cl
