#!/usr/bin/env python3
"""Generates cudart-shim/lib/Stubs.cpp from cudart-shim/exports.txt.

exports.txt lists the defined function symbols of the real libcudart.so.13
of CUDA 13.0, one per line, sorted, without @version:
    nm -D --defined-only libcudart.so.13 | awk '$2 == "T" {sub(/@.*/, "", $3); print $3}' | sort -u
Each becomes a weak entry point that fails loudly; Runtime.cpp's strong
definitions replace the ones the shim implements.

usage: gen_cudart_stubs.py [--check] [SHIM_DIR]
  --check: exit 1 when the checked-in Stubs.cpp differs from the output.
"""
import pathlib
import sys

HEADER = '//===- Stubs.cpp - every libcudart.so.13 export, failing loudly by default --===//\n//\n// GENERATED from cudart-shim/exports.txt (the defined function symbols of the\n// real libcudart.so.13 of CUDA 13.0; regenerate: nm -D --defined-only libcudart.so.13, T symbols,\n// without @version, sorted). Each entry point is a *weak* definition\n// that prints "ptx2amd-shim: unsupported CUDA runtime call \'X\'" and returns\n// cudaErrorNotSupported (801); the strong definitions in Runtime.cpp replace\n// the ones the shim implements. No call is ever silently ignored.\n//\n//===----------------------------------------------------------------------===//\n#include <cstdio>\n\nnamespace {\nint unsupportedCall(const char *Name) {\n  fprintf(stderr, "ptx2amd-shim: unsupported CUDA runtime call \'%s\'\\n", Name);\n  return 801; // cudaErrorNotSupported\n}\n} // namespace\n\nextern "C" {\n'


def generate(exports):
    names = [l.strip() for l in exports.splitlines() if l.strip() and not l.startswith("#")]
    body = "".join(f'__attribute__((weak)) int {n}() {{ return unsupportedCall("{n}"); }}\n' for n in names)
    return HEADER + body + '} // extern "C"\n'


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    shim = pathlib.Path(args[0]) if args else pathlib.Path(__file__).resolve().parent.parent / "cudart-shim"
    out = generate((shim / "exports.txt").read_text())
    target = shim / "lib" / "Stubs.cpp"
    if check:
        if target.read_text() != out:
            print(f"{target} is not the output of {__file__}; regenerate it")
            return 1
        print("Stubs.cpp matches exports.txt")
        return 0
    target.write_text(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
