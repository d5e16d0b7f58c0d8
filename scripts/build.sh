#!/usr/bin/env bash
# Installs the Debian packages (scripts/setup.sh), configures the project with CMake + Ninja in
# $BUILD_DIR (default: build/ at the repository root) and builds the given targets (default: all).
# ccache is used automatically when installed (setup.sh installs it), so rebuilds are cheap.
# Environment: BUILD_DIR, JOBS (default 2), CMAKE_BUILD_TYPE (default RelWithDebInfo).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-2}"

bash "$ROOT/scripts/setup.sh"
if command -v ccache >/dev/null; then
  export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
  ccache --max-size=5G >/dev/null 2>&1 || true
fi
cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}"
ninja -C "$BUILD_DIR" -j"$JOBS" "$@"
