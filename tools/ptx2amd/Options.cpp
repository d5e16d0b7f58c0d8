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
      {"--emit", Arg::Joined, "ptx", "output kind: ptx (print the parsed module)",
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
