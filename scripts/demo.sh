#!/usr/bin/env bash
# The main job on a real example: a CUDA program (default: tests/corpus/saxpy.cu) goes through
# the pipeline stage by stage. Each stage is one function below; new pipeline stages add a
# function and a line in main(), in pipeline order.
#   1. build      setup.sh + configure + build ptx2amd and ptx2amd-run (ccache)
#   2. nvcc       CUDA -> PTX with the real nvcc (sm_90)
#   3. frontend   ptx2amd parses and checks the PTX, prints it back (ptxas must accept the
#                 printed module) and verifies the parse/print/parse round trip
#   4. translate  ptx2amd translates the PTX to LLVM IR and an AMDGPU code object (gfx942)
#   5. emulate    ptx2amd-run runs the translated saxpy kernel on the CPU emulator (amdgpu-emu)
#                 and the script checks every output element
#   6. run        the whole program, built by nvcc -cudart shared, runs unmodified with
#                 `ptx2amd-exec -- PROGRAM` on ptx2amd's libcudart.so.13 (cudart-shim on the
#                 runtime core: PTX from the fat binary -> ptxjit -> the AMD GPU through HIP when
#                 one is present, else amdgpu-emu as gfx1100), then on the emulator as a wave64
#                 target (`--device=emu --arch=gfx90a`); its own CPU-reference self-check must
#                 print PASS
# Usage: scripts/demo.sh [program.cu]. Outputs go to $BUILD_DIR/demo/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-2}"
export BUILD_DIR JOBS
SRC="${1:-$ROOT/tests/corpus/saxpy.cu}"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
OUT="$BUILD_DIR/demo"
NAME="$(basename "${SRC%.cu}")"
PTX2AMD="$BUILD_DIR/bin/ptx2amd"
ARCH=sm_90
GFX=gfx942
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"

say() { printf '\n== %s\n' "$*"; }

stage_build() {
  say "build: configure + build ptx2amd and ptx2amd-run in $BUILD_DIR"
  bash "$ROOT/scripts/build.sh" ptx2amd ptx2amd-run cudart_shim ptx2amd-exec
}

stage_nvcc() {
  say "nvcc: $SRC -> $OUT/$NAME.ptx ($ARCH)"
  mkdir -p "$OUT"
  "$CUDA_HOME/bin/nvcc" -ptx -arch="$ARCH" "$SRC" -o "$OUT/$NAME.ptx"
  echo "$(wc -c <"$OUT/$NAME.ptx") bytes of PTX, $(grep -c '^\.visible \.entry\|^\.entry' "$OUT/$NAME.ptx") kernel(s)"
}

stage_frontend() {
  say "frontend: parse + check, print, re-assemble the printed PTX with ptxas, round trip"
  "$PTX2AMD" -fsyntax-only "$OUT/$NAME.ptx"
  echo "ptx2amd -fsyntax-only: no errors"
  "$PTX2AMD" --emit=ptx "$OUT/$NAME.ptx" -o "$OUT/$NAME.printed.ptx"
  "$CUDA_HOME/bin/ptxas" -arch="$ARCH" "$OUT/$NAME.printed.ptx" -o "$OUT/$NAME.printed.cubin"
  echo "ptxas accepted the printed PTX ($OUT/$NAME.printed.ptx)"
  "$PTX2AMD" --roundtrip-check "$OUT/$NAME.ptx"
  echo "round trip: parse(print(parse(x))) == parse(x)"
}

stage_translate() {
  say "translate: PTX -> LLVM IR -> AMDGPU code object ($GFX)"
  "$PTX2AMD" --offload-arch="$GFX" --emit=llvm "$OUT/$NAME.ptx" -o "$OUT/$NAME.$GFX.ll"
  echo "LLVM IR: $OUT/$NAME.$GFX.ll ($(grep -c '^define' "$OUT/$NAME.$GFX.ll") function(s))"
  "$PTX2AMD" --offload-arch="$GFX" --emit=hsaco "$OUT/$NAME.ptx" -o "$OUT/$NAME.$GFX.hsaco"
  echo "code object: $OUT/$NAME.$GFX.hsaco ($(wc -c <"$OUT/$NAME.$GFX.hsaco") bytes); kernel metadata:"
  "$LLVM_BIN/llvm-readelf" --notes "$OUT/$NAME.$GFX.hsaco" |
    grep -E '^ +\.(name|wavefront_size|kernarg_segment_size|sgpr_count|vgpr_count):' | sed 's/^ */  /'
}

stage_emulate() {
  if [ "$NAME" != saxpy ]; then
    say "emulate: not run for $NAME (the demo knows the kernel arguments of saxpy only)"
    return
  fi
  local n=1000
  say "emulate: saxpy(n=$n, a=2.5, x=iota, y=1) on amdgpu-emu ($GFX, wave64)"
  "$BUILD_DIR/bin/ptx2amd-run" "$OUT/$NAME.ptx" --kernel _Z5saxpyifPKfPf --grid 4 --block 256 --arch "$GFX" \
    --arg i32:$n --arg f32:2.5 --arg buf:f32:$n:iota --arg buf:f32:$n:fill:1 --dump buf1:$n --counters \
    >"$OUT/$NAME.emu.txt"
  grep -v '^buf1:' "$OUT/$NAME.emu.txt"
  # y[i] = 2.5 * i + 1 is exact in float for these i.
  awk -v n=$n '/^buf1:/ { for (i = 2; i <= NF; ++i) { k = i - 2; if ($i + 0 != 2.5 * k + 1) bad++ }; seen = NF - 1 }
       END { printf "y[0..%d] checked: %d mismatches\n", seen - 1, bad; exit (seen != n || bad) }' "$OUT/$NAME.emu.txt"
}

stage_run() {
  say "run: nvcc -cudart shared $SRC, executed unmodified by ptx2amd-exec (cudart-shim, libcudart.so.13)"
  local flags
  flags="$(sed -n 's|^// nvcc-flags:||p' "$SRC" | head -1)"
  # shellcheck disable=SC2086
  "$CUDA_HOME/bin/nvcc" -O2 -std=c++17 -cudart shared -gencode arch=compute_90,code=compute_90 $flags \
    "$SRC" -o "$OUT/$NAME.shim"
  local how
  for how in auto emu-gfx90a; do
    if [ "$how" = auto ]; then
      "$BUILD_DIR/bin/ptx2amd-exec" -- "$OUT/$NAME.shim" | tee "$OUT/$NAME.run.$how.txt"
    else
      "$BUILD_DIR/bin/ptx2amd-exec" --device=emu --arch=gfx90a --warp-policy=pack -- "$OUT/$NAME.shim" |
        tee "$OUT/$NAME.run.$how.txt"
    fi
    grep -q 'PASS$' "$OUT/$NAME.run.$how.txt"
    echo "$NAME via ptx2amd-exec ($how): exit 0, self-check PASS"
  done
}

main() {
  stage_build
  stage_nvcc
  stage_frontend
  stage_translate
  stage_emulate
  stage_run
  say "demo: all stages passed for $NAME"
}
main
