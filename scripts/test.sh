#!/usr/bin/env bash
# The whole test suite: setup + configure + build everything, then every CTest test
# (unit tests, lit tests, the nvcc-compiled corpus, ...) in $BUILD_DIR (default build/).
# Environment: BUILD_DIR, JOBS (default 2: build and ctest parallelism).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-2}"
export BUILD_DIR JOBS

bash "$ROOT/scripts/build.sh"
cd "$BUILD_DIR"
ctest --output-on-failure -j"$JOBS" "$@"
