//===- Options.cpp - table-driven command-line parsing for ptx2amd --------===//
//
// One table lists every option: its spelling, whether it takes a value
// (`--opt=value`, or `-o value`), its help line and a handler that stores it
// in Options. --help is generated from the same table.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include <functional>
#include <string_view>

namespace ptx2amd {
namespace {

enum class Arg { None, Joined, Separate }; // --x | --x=v | -x v (also -xv / -x=v)

struct OptSpec {
  const char *name;
  Arg arg;
  const char *meta;
  const char *help;
  std::function<bool(Options &, std::string_view, std::string *)> handle;
};

const std::vector<OptSpec> &table() {
  static const std::vector<OptSpec> t = {
      {"-o", Arg::Separate, "<file>", "write output to <file> ('-' = stdout)",
       [](Options &o, std::string_view v, std::string *) { o.output = std::string(v); return true; }},
      {"-fsyntax-only", Arg::None, nullptr, "parse and check the input, produce no output",
       [](Options &o, std::string_view, std::string *) { o.syntaxOnly = true; return true; }},
      {"--emit", Arg::Joined, "ptx|llvm|asm|obj|hsaco",
       "output kind: parsed PTX, lowered LLVM IR, AMDGPU assembly, relocatable object, code object "
       "(default with --offload-arch: hsaco; several archs: an offload bundle)",
       [](Options &o, std::string_view v, std::string *err) {
         if (v == "ptx") o.emit = EmitKind::Ptx;
         else if (v == "llvm") o.emit = EmitKind::Llvm;
         else if (v == "asm") o.emit = EmitKind::Asm;
         else if (v == "obj") o.emit = EmitKind::Obj;
         else if (v == "hsaco") o.emit = EmitKind::Hsaco;
         else { *err = "unknown --emit kind '" + std::string(v) + "'"; return false; }
         return true;
       }},
      {"--offload-arch", Arg::Joined, "<gfx>", "AMDGPU target for translation (repeatable)",
       [](Options &o, std::string_view v, std::string *) { o.offloadArchs.emplace_back(v); return true; }},
      {"-O", Arg::Separate, "<0-3>", "optimisation level (default -O3)",
       [](Options &o, std::string_view v, std::string *err) {
         if (v.size() != 1 || v[0] < '0' || v[0] > '3') {
           *err = "invalid optimisation level '-O" + std::string(v) + "' (use -O0..-O3)";
           return false;
         }
         o.optLevel = unsigned(v[0] - '0');
         return true;
       }},
      {"--warp-policy", Arg::Joined, "pack|pad|<kernel>=pack|pad",
       "wave64 warp policy for the module or one kernel (repeatable; wave32 targets ignore it)",
       [](Options &o, std::string_view v, std::string *err) {
         size_t eq = v.rfind('=');
         std::string_view pol = eq == std::string_view::npos ? v : v.substr(eq + 1);
         if (pol != "pack" && pol != "pad") {
           *err = "invalid --warp-policy '" + std::string(v) + "' (pack, pad or KERNEL=pack|pad)";
           return false;
         }
         if (eq == std::string_view::npos) o.warpPolicy = std::string(pol);
         else if (eq == 0) { *err = "--warp-policy: empty kernel name"; return false; }
         else o.kernelWarpPolicy.emplace_back(std::string(v.substr(0, eq)), std::string(pol));
         return true;
       }},
      {"--code-object-version", Arg::Joined, "4|5|6", "AMDGPU code object version (default 5)",
       [](Options &o, std::string_view v, std::string *err) {
         if (v != "4" && v != "5" && v != "6") {
           *err = "invalid --code-object-version '" + std::string(v) + "' (4, 5 or 6)";
           return false;
         }
         o.codeObjectVersion = unsigned(v[0] - '0');
         return true;
       }},
      {"--time-passes", Arg::None, nullptr, "print the wall time of each translation stage",
       [](Options &o, std::string_view, std::string *) { o.timePasses = true; return true; }},
      {"-Wwarp-size", Arg::None, nullptr, "warn about PTX patterns that hang under --warp-policy=pack",
       [](Options &o, std::string_view, std::string *) { o.warnWarpSize = true; return true; }},
      {"-j", Arg::Separate, "<n>", "codegen threads (default: all cores; the output is the same for any n)",
       [](Options &o, std::string_view v, std::string *err) {
         try { o.threads = unsigned(std::stoul(std::string(v))); }
         catch (...) { *err = "invalid -j value '" + std::string(v) + "'"; return false; }
         return true;
       }},
      {"-v", Arg::None, nullptr, "verbose: print the toolchain version and each step",
       [](Options &o, std::string_view, std::string *) { o.verbose = true; return true; }},
      {"--roundtrip-check", Arg::None, nullptr,
       "parse, print, re-parse and compare structurally; exit 1 on a difference",
       [](Options &o, std::string_view, std::string *) { o.roundtripCheck = true; return true; }},
      {"--no-sema", Arg::None, nullptr, "skip instruction checks (modifiers, operand types)",
       [](Options &o, std::string_view, std::string *) { o.noSema = true; return true; }},
      {"--max-errors", Arg::Joined, "<n>", "stop after <n> errors (0 = no limit; default 100)",
       [](Options &o, std::string_view v, std::string *err) {
         try { o.maxErrors = unsigned(std::stoul(std::string(v))); }
         catch (...) { *err = "invalid --max-errors value '" + std::string(v) + "'"; return false; }
         return true;
       }},
      {"--help", Arg::None, nullptr, "show this help",
       [](Options &o, std::string_view, std::string *) { o.help = true; return true; }},
      {"--version", Arg::None, nullptr, "show the version",
       [](Options &o, std::string_view, std::string *) { o.version = true; return true; }},
  };
  return t;
}

} // namespace

bool parseOptions(int argc, char **argv, Options &opts, std::string *err) {
  const auto &t = table();
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "-" || a.empty() || a[0] != '-') {
      opts.inputs.emplace_back(a);
      continue;
    }
    if (a == "-h") a = "--help";
    bool matched = false;
    for (const auto &o : t) {
      std::string_view n = o.name;
      if (a.substr(0, n.size()) != n) continue;
      std::string_view rest = a.substr(n.size());
      if (o.arg == Arg::None) {
        if (!rest.empty()) continue;
        matched = true;
        if (!o.handle(opts, {}, err)) return false;
        break;
      }
      std::string_view val;
      if (!rest.empty() && rest[0] == '=') val = rest.substr(1);
      else if (!rest.empty() && o.arg == Arg::Separate) val = rest;
      else if (rest.empty()) {
        if (i + 1 >= argc) { *err = "option '" + std::string(n) + "' needs a value"; return false; }
        val = argv[++i];
      } else continue;
      matched = true;
      if (!o.handle(opts, val, err)) return false;
      break;
    }
    if (!matched) {
      *err = "unknown option '" + std::string(a) + "' (see --help)";
      return false;
    }
  }
  return true;
}

std::string helpText(const char *argv0) {
  std::string s = "usage: " + std::string(argv0) + " [options] <input.ptx | ->\n\noptions:\n";
  for (const auto &o : table()) {
    std::string l = "  " + std::string(o.name);
    if (o.meta) l += (o.arg == Arg::Separate ? " " : "=") + std::string(o.meta);
    if (l.size() < 26) l.resize(26, ' ');
    else l += "  ";
    s += l + o.help + "\n";
  }
  return s;
}

} // namespace ptx2amd
