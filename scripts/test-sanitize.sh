#!/usr/bin/env bash
# The whole test suite on an ASan + UBSan build (issue 10, deliverable 4; not part of CI, which
# runs the `sanitizer` sample in the normal build): configures $BUILD_DIR (default build-asan/
# at the repository root) with PTX2AMD_SANITIZE=ON (cmake/Sanitize.cmake: every host target
# instrumented, every test's timeout x4 and libasan preloaded into the uninstrumented programs
# under test), builds everything and runs every CTest test. Extra arguments go to ctest
# (e.g. -L shim, -R '^emu\.'). Environment: BUILD_DIR, JOBS (default 2), NICE (default 10),
# ASAN_OPTIONS / UBSAN_OPTIONS (defaults below; docs/notes/session9-robust.md says why).
# About 1 h of build and 1.5-2 h of tests on 2 cores.
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
cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTX2AMD_FUZZ=OFF -DPTX2AMD_SANITIZE=ON
nice -n "$NICE" ninja -C "$BUILD_DIR" -j"$JOBS"
# detect_leaks=0: most processes load uninstrumented code that keeps process-lifetime
#   allocations (ROCm's HIP runtime and ROCr, the nvcc programs under test, LLVM's statics); a
#   leak is not a memory-safety error, and LSan's exit status would fail every such test. Leaks in
#   our own code are checked separately (the instrumented unit tests with detect_leaks=1).
# allocator_may_return_null=1: a huge allocation fails as it does with glibc (nullptr /
#   std::bad_alloc, which the resource-limit paths handle) instead of ASan aborting the process.
# Reports are never recoverable: halt_on_error (ASan's default) and -fno-sanitize-recover=undefined.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:halt_on_error=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# A private, fresh code-object cache: the shared one (~/.cache/ptx2amd) holds entries written by
# other builds of the same sources, with which the runtime would skip the instrumented translation.
export PTX2AMD_CACHE_DIR="${PTX2AMD_CACHE_DIR:-$BUILD_DIR/sanitize-cache}"
rm -rf "$BUILD_DIR/sanitize-cache"
cd "$BUILD_DIR"
nice -n "$NICE" ctest -j"$JOBS" --output-on-failure "$@"
