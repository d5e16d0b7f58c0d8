//===- Options.cpp - ptx2amd's option table ------------------------------------===//
//
// ptx2amd's own options on top of the common ones (support::cl): each row
// names the option, its value, its help line and where it is stored. --help
// is generated from the same table.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "support/Error.h"
#include "support/ExitStatus.h"

namespace ptx2amd {
namespace {

support::cl::Parser makeParser(const char *argv0, Options &o) {
  support::cl::Parser p(argv0, std::string(argv0) + " [options] <input.ptx | input.ll | -> [more.ptx ...]\n\n"
                                   "Several PTX inputs are separately compiled (nvcc -rdc / -dc) modules, linked into one image.\n"
                                   "Translates PTX to an AMDGPU code object; with no output option writes "
                                   "<input>.hsaco for --offload-arch (default " +
                                   std::string(support::kDefaultTarget) + ").");
  support::cl::addCommonOptions(p, o);
  p.flag("-fsyntax-only", "parse and check the input, produce no output", o.syntaxOnly);
  p.add({"--emit", true, "ptx|llvm|asm|obj|hsaco",
         "output kind: parsed PTX, lowered LLVM IR, AMDGPU assembly, relocatable object, code object "
         "(default: hsaco; several archs: an offload bundle)",
         [&o](std::string_view v) -> llvm::Error {
           if (v == "ptx") o.emit = EmitKind::Ptx;
           else if (v == "llvm") o.emit = EmitKind::Llvm;
           else if (v == "asm") o.emit = EmitKind::Asm;
           else if (v == "obj") o.emit = EmitKind::Obj;
           else if (v == "hsaco") o.emit = EmitKind::Hsaco;
           else return support::invalidInput(support::noLoc("unknown --emit kind '" + std::string(v) + "'"), "--emit");
           return llvm::Error::success();
         }});
  p.add({"--code-object-version", true, "4|5|6", "AMDGPU code object version (default 5)",
         [&o](std::string_view v) -> llvm::Error {
           if (v != "4" && v != "5" && v != "6")
             return support::invalidInput(
                 support::noLoc("invalid --code-object-version '" + std::string(v) + "' (4, 5 or 6)"),
                 "--code-object-version");
           o.codeObjectVersion = unsigned(v[0] - '0');
           return llvm::Error::success();
         }});
  p.flag("--time-passes", "print the wall time of each translation stage", o.timePasses);
  p.flag("-Wwarp-size", "warn about PTX patterns that hang under --warp-policy=pack", o.warnWarpSize);
  p.flag("--roundtrip-check", "parse, print, re-parse and compare structurally; exit 4 on a difference",
         o.roundtripCheck);
  p.flag("--no-sema", "skip instruction checks (modifiers, operand types)", o.noSema);
  p.unsignedValue("--max-errors", "<n>", "stop after <n> errors (0 = no limit; default 100)", o.maxErrors);
  p.positional(o.inputs);
  return p;
}

} // namespace

llvm::Error parseOptions(int argc, char **argv, Options &opts) {
  return makeParser(argv[0], opts).parse(argc, argv);
}

std::string helpText(const char *argv0) {
  Options scratch;
  return makeParser(argv0, scratch).help() + support::exitStatusHelp();
}

} // namespace ptx2amd
