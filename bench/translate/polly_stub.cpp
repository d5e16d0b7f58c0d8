//===- polly_stub.cpp - for the statically linked benchmark binary only ----===//
//
// Debian's LLVM 22 links Polly into LTOBackend's static plugin list, but no
// static Polly library is shipped. build_static.sh links this empty plugin
// in its place (ptx2amd never runs Polly); the normal, dylib-linked build
// does not use this file.
//
//===----------------------------------------------------------------------===//
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "polly-not-linked", "0", [](llvm::PassBuilder &) {}};
}
