#!/usr/bin/env bash
# The whole test suite on an ASan + UBSan build (issue 10, deliverable 4; not part of CI, which
# runs the `sanitizer` sample in the normal build): configures $BUILD_DIR (default build-asan/
# at the repository root) with PTX2AMD_SANITIZE=ON (cmake/Sanitize.cmake: every host target
# instrumented, every test's timeout x4 and libasan preloaded into the uninstrumented programs
# under test), builds everything and runs every CTest test.
#
# usage: scripts/test-sanitize.sh [ctest arguments...]   one ctest over the selection
#        STAGES=1 scripts/test-sanitize.sh                the staged run recorded in the notes
#
# Extra arguments go to ctest (e.g. -L shim, -R '^emu\.'). STAGES=1 runs every test instead in
# the order of docs/notes/session10-robust.md (a smoke test of each mechanism, then the labels
# most likely to find something first, then everything without those labels, then the
# all-instrumented labels again with LeakSanitizer on), one log per stage and a summary line per
# stage in $BUILD_DIR/sanitize-logs/stages.txt; the exit status is non-zero if any stage failed.
# Environment: BUILD_DIR, JOBS (default 2), NICE (default 10), STAGES,
# ASAN_OPTIONS / UBSAN_OPTIONS (defaults below; docs/notes/session9-robust.md says why).
# On an idle 2-core machine: about 10 min of build (-O1 -g1: ASan's recommended level, 10x
# faster to compile than -O2 -g here) and 1-1.5 h of tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-asan}"
JOBS="${JOBS:-2}"
NICE="${NICE:-10}"

bash "$ROOT/scripts/setup.sh"
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
fi
cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTX2AMD_FUZZ=OFF -DPTX2AMD_SANITIZE=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
nice -n "$NICE" ninja -C "$BUILD_DIR" -j"$JOBS"
# detect_leaks=0: most processes load uninstrumented code that keeps process-lifetime
#   allocations (ROCm's HIP runtime and ROCr, the nvcc programs under test, LLVM's statics); a
#   leak is not a memory-safety error, and LSan's exit status would fail every such test. Leaks in
#   our own code are checked separately (the all-instrumented labels with detect_leaks=1, stage 6).
# allocator_may_return_null=1: a huge allocation fails as it does with glibc (nullptr /
#   std::bad_alloc, which the resource-limit paths handle) instead of ASan aborting the process.
# Reports are never recoverable: halt_on_error (ASan's default) and -fno-sanitize-recover=undefined.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:halt_on_error=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# A private, fresh code-object cache: the shared one (~/.cache/ptx2amd) holds entries written by
# other builds of the same sources, with which the runtime would skip the instrumented translation.
export PTX2AMD_CACHE_DIR="${PTX2AMD_CACHE_DIR:-$BUILD_DIR/sanitize-cache}"
rm -rf "$PTX2AMD_CACHE_DIR"
cd "$BUILD_DIR"
if [[ -z "${STAGES:-}" ]]; then
  exec nice -n "$NICE" ctest -j"$JOBS" --output-on-failure "$@"
fi

L="$BUILD_DIR/sanitize-logs"
mkdir -p "$L"
failed=0
done_re=""
log() { echo "$(date +%T) $*" | tee -a "$L/stages.txt"; }
# run NAME CTEST-ARGS...: one stage, its log, its summary line.
run() {
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s)
  log "start $name $*"
  nice -n "$NICE" ctest -j"$JOBS" --output-on-failure "$@" > "$L/$name.log" 2>&1 || rc=$?
  log "end $name rc=$rc $(( $(date +%s) - t0 )) s: $(grep -E '^[0-9]+% tests passed|No tests were found' "$L/$name.log" || true)"
  [[ $rc == 0 ]] || failed=1
}
# stage NAME LABEL-REGEX: the tests with one of those labels and none of an earlier stage's.
stage() {
  run "$1" -L "$2" ${done_re:+-LE "$done_re"}
  done_re="${done_re:+$done_re|}$2"
}
# Stage 0: one test of each mechanism (libasan preloaded into nvcc programs, ptx2amd-exec, vgpu,
# the driver API, static cudart, graphs, install clients, mutants without ulimit).
run stage0-smoke -R '^(shim\.saxpy\.(w32|vgpu|isa-w32)|shim\.exec\.emu_gfx90a_pad|driver\.vectoradd_ptx_data\.w32|driver\.static\.st_vectoradd\.w32|graphs\.graph\.shared\.w32|vgpu\.hsa_dispatch|vgpu\.rocminfo|robustness\.(mutants|exec_preload_order)|install\.client)$'
stage stage1-units '^(support|parser|lit|emu|fatbin|ptxjit|ptx2llvm|tools|install|robustness|sanitizer|cache|runtime)$'
stage stage2-runtime '^(shim|driver|graphs|vgpu|vgpu-all|vgpu-sample|static_corpus)$'
stage stage3-translator '^(isa|targets)$'
stage stage4-rest '^(golden|tensor|texture|video|corpus|bench-codegen)$'
run stage5-unlabelled -LE "$done_re"
# Stage 6 (leaks of our own code): the labels whose processes are all instrumented, again with
# LeakSanitizer on; programs built by nvcc and ROCm's runtime (shim, driver, vgpu, graphs,
# install) are left out.
ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:halt_on_error=1" \
  run stage6-leaks -L '^(support|parser|lit|emu|isa|fatbin|ptxjit|ptx2llvm|tools|cache|runtime|robustness|targets)$' \
      -LE '^(shim|driver|graphs|vgpu|install)$'
log "all done, failed=$failed"
exit "$failed"
