#!/bin/bash
# CTest ptx2llvm.directed_rounding: translate dr.ptx, retarget the IR to the
# host, link with harness.c and compare with the host FPU (see harness.c).
# usage: run.sh <ptx2llvm-test> <llvm bin dir> <work dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=$1; bin=$2; work=$3
mkdir -p "$work"; cd "$work"
"$tool" "$here/dr.ptx" -o dr.ll
"$bin/opt" -passes='mem2reg,instcombine<no-verify-fixpoint>' dr.ll -S -o dr2.ll
if grep -q alloca dr2.ll; then echo "unexpected memory in directed-rounding functions"; exit 1; fi
sed -e 's/^target datalayout.*$//' -e 's/^target triple.*$//' -e 's/define internal/define/' dr2.ll > host.ll
"$bin/clang" -O1 -c host.ll -o host.o 2>/dev/null
"$bin/clang" -O0 -frounding-math "$here/harness.c" host.o -lm -o harness
./harness
