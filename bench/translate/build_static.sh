#!/usr/bin/env bash
# Links a self-contained ptx2amd (LLVM, lld, ANTLR runtime, zlib/zstd and the
# C++ runtime static; only glibc shared) from an existing build directory, so
# the translation benchmark can run on a machine without LLVM 22 installed
# (e.g. a lent many-core machine), side by side with its ptxas.
#   bench/translate/build_static.sh <build-dir> [out]
set -euo pipefail
B=${1:?build dir}
OUT=${2:-$B/static/ptx2amd}
[ "${SKIP_BUILD:-0}" = 1 ] || ninja -C "$B" -j2 ptx2amd >/dev/null
mkdir -p "$(dirname "$OUT")"
HERE=$(cd "$(dirname "$0")" && pwd)
c++ -std=c++20 -O2 -I/usr/lib/llvm-22/include -c "$HERE/polly_stub.cpp" -o "$B/static/polly_stub.o"
# The tools' allocator (ptx-parser/ptxalloc: mimalloc + huge pages), statically when available.
# Debian ships only the shared library: then it is copied next to the binary ($ORIGIN rpath).
MIMALLOC=
if [ -e /usr/lib/x86_64-linux-gnu/libmimalloc.a ]; then
  MIMALLOC=-lmimalloc
elif [ -e /usr/lib/x86_64-linux-gnu/libmimalloc.so.2 ]; then
  MIMALLOC="-Wl,-Bdynamic -lmimalloc -Wl,-rpath,\$ORIGIN"
  cp -L /usr/lib/x86_64-linux-gnu/libmimalloc.so.2 "$(dirname "$OUT")/"
fi
LIBS=$(llvm-config-22 --link-static --libs all | tr ' ' '\n' | grep -v Polly | tr '\n' ' ')
c++ -O2 "$B"/tools/ptx2amd/CMakeFiles/ptx2amd.dir/{main,Options}.cpp.o "$B/static/polly_stub.o" -o "$OUT" \
  -Wl,--start-group "$B"/lib/libptx2amd_toolargs.a "$B"/lib/libptx2amd_toolinput.a \
  "$B"/lib/libptxjit.a "$B"/lib/libptxalloc.a "$B"/lib/libptxparser.a "$B"/lib/libptxgrammar.a \
  "$B"/lib/libamdgpulower.a "$B"/lib/libptxtollvm.a "$B"/lib/libsupport.a -Wl,--end-group \
  /usr/lib/x86_64-linux-gnu/libantlr4-runtime.a \
  /usr/lib/llvm-22/lib/liblldELF.a /usr/lib/llvm-22/lib/liblldCommon.a \
  -L/usr/lib/llvm-22/lib -Wl,--start-group $LIBS -Wl,--end-group \
  -Wl,-Bstatic -lz -lzstd $MIMALLOC -Wl,-Bdynamic -lrt -ldl -lm -lpthread -static-libstdc++ -static-libgcc
echo "$OUT"
