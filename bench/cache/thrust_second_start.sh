#!/usr/bin/env bash
# Thrust/CUB program's second start vs its first (issue 13, item 5: the
# second start's translation time must be <= 5 % of the first's).
#
# usage: thrust_second_start.sh BUILD_DIR [PROGRAM=thrust_algos] [ARCH=gfx90a]
#
# Builds tests/corpus/PROGRAM.cu with `nvcc -cudart shared` (PTX for
# compute_90), then runs it twice through the shim (BUILD_DIR/lib/shim, our
# libcudart.so.13) with a fresh PTX2AMD_CACHE_DIR and PTX2AMD_LOG=debug:
# run 1 translates and publishes, run 2 must load every module from the cache
# (one "cache hit" line per module). Reports both wall times and, from the
# runtime's log, the time spent getting modules (runtime/lib/Module.cpp's
# "loaded NAME (...) for ARCH in S s" lines, summed per run) and their ratio.
# Needs the runtime core's cache integration (cudart-shim on runtime/); on a
# shim without it run 2 shows no "cache hit" and the script says so (exit 2).
# Before the shim runs, the library-level measurement: BUILD_DIR/bin/
# bench_cache_second_start (the runtime's module-loading path through the
# cache, without running the program) twice on a fresh directory, for the
# emulator's product (emu-bc) and the hardware's (hsaco); its ratio must be
# <= 5 % as well. RUN_SHIM=0 skips the shim part.
set -euo pipefail
BUILD="$(cd "${1:?usage: $0 BUILD_DIR [PROGRAM] [ARCH]}" && pwd)"
PROG="${2:-thrust_algos}"
ARCH="${3:-gfx90a}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
SHIM="$BUILD/lib/shim"
[ -e "$SHIM/libcudart.so.13" ] || SHIM="$(dirname "$(find "$BUILD" -name 'libcudart.so.13' | head -1)")"
WORK="$(mktemp -d -t ptx2amd-second-start-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
FLAGS="$(sed -n 's|^// nvcc-flags: ||p' "$ROOT/tests/corpus/$PROG.cu" | tr '\n' ' ')"
# shellcheck disable=SC2086
"$NVCC" -cudart shared -std=c++17 -gencode arch=compute_90,code=compute_90 $FLAGS \
  -o "$WORK/$PROG" "$ROOT/tests/corpus/$PROG.cu"

PROBE="$BUILD/bin/bench_cache_second_start"
probe_fail=0
for kind in emu-bc hsaco; do
  rm -rf "$WORK/probe-cache"
  "$PROBE" "$WORK/$PROG" --arch="$ARCH" --kind="$kind" --cache-dir="$WORK/probe-cache" > "$WORK/probe1.txt"
  "$PROBE" "$WORK/$PROG" --arch="$ARCH" --kind="$kind" --cache-dir="$WORK/probe-cache" > "$WORK/probe2.txt"
  P1=$(sed -n 's/^total: .* hits, \([0-9.]*\) ms.*/\1/p' "$WORK/probe1.txt")
  P2=$(sed -n 's/^total: .* hits, \([0-9.]*\) ms.*/\1/p' "$WORK/probe2.txt")
  printf 'library (%s, %s): first start %s\n' "$kind" "$ARCH" "$(grep '^total' "$WORK/probe1.txt")"
  printf 'library (%s, %s): second start %s\n' "$kind" "$ARCH" "$(grep '^total' "$WORK/probe2.txt")"
  R=$(awk -v a="$P2" -v b="$P1" 'BEGIN { printf "%.3f", 100 * a / b }')
  printf 'library (%s): second/first = %s %% (limit 5 %%)\n' "$kind" "$R"
  awk -v r="$R" 'BEGIN { exit !(r <= 5) }' || probe_fail=1
done
[ "${RUN_SHIM:-1}" = 0 ] && exit "$probe_fail"

run() { # $1 = label; prints wall seconds, module-time ms and cache hits
  local log="$WORK/$1.log" t0 t1
  t0=$(date +%s.%N)
  env LD_LIBRARY_PATH="$SHIM" PTX2AMD_ARCH="$ARCH" PTX2AMD_CACHE_DIR="$WORK/cache" PTX2AMD_LOG=debug \
    "$WORK/$PROG" > "$WORK/$1.out" 2> "$log"
  t1=$(date +%s.%N)
  local wall ms hits
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  # The runtime's per-module line (logger jit, info): "loaded NAME (...) for ARCH in S s".
  ms=$(grep -Eo 'loaded .* in [0-9.]+ s$' "$log" | grep -Eo '[0-9.]+ s$' | tr -d ' s' \
       | awk '{ s += 1000 * $1; n++ } END { if (n) printf "%.3f", s; else print "?" }' || true)
  hits=$(grep -c 'cache hit' "$log" || true)
  grep -q 'PASS$' "$WORK/$1.out" || { echo "$1: program did not PASS"; cat "$WORK/$1.out"; exit 1; }
  printf '%s %s %s %s\n' "$1" "$wall" "${ms:-?}" "$hits"
}
read -r _ W1 M1 H1 < <(run first)
read -r _ W2 M2 H2 < <(run second)
printf 'program %s, %s, cache %s\n' "$PROG" "$ARCH" "$WORK/cache"
printf 'first start : wall %.3f s, module translation %s ms, %s cache hits\n' "$W1" "$M1" "$H1"
printf 'second start: wall %.3f s, module load %s ms, %s cache hits\n' "$W2" "$M2" "$H2"
if [ "$H2" = 0 ]; then
  echo "second start had no cache hit: this shim does not use the on-disk cache (runtime integration missing)"
  exit 2
fi
if [ "$M1" != "?" ] && [ "$M2" != "?" ]; then
  R=$(awk -v a="$M2" -v b="$M1" 'BEGIN { printf "%.2f", 100 * a / b }')
  printf 'second/first translation time: %s %% (limit 5 %%)\n' "$R"
  awk -v r="$R" 'BEGIN { exit !(r <= 5) }' || exit 1
else
  printf 'the runtime logs no per-module times; wall-clock saving %s s\n' "$(awk -v a="$W1" -v b="$W2" 'BEGIN { printf "%.3f", a - b }')"
fi
