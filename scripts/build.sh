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
  # Hash paths relative to the checkout (and ignore the working directory), so a fresh clone in
  # another folder -- as CI makes -- reuses the objects of earlier builds.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
fi
cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}"
ninja -C "$BUILD_DIR" -j"$JOBS" "$@"
