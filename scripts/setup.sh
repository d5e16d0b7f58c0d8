#!/usr/bin/env bash
# Idempotent: installs the Debian packages ptx2amd needs to build and test.
# Safe to run repeatedly; does nothing when everything is already present.
set -euo pipefail
PKGS=(
  cmake ninja-build ccache g++ git python3
  llvm-22-dev liblld-22-dev lld-22 clang-22 llvm-22-tools libclang-rt-22-dev clang-tools-22
  antlr4 libantlr4-runtime-dev
  libspdlog-dev libgtest-dev libgmock-dev libbenchmark-dev
  libzstd-dev liblz4-dev zlib1g-dev libedit-dev libxml2-dev libffi-dev libcurl4-openssl-dev
  libamdhip64-dev libhsa-runtime-dev libhsakmt1 rocminfo libamd-comgr-dev linux-libc-dev
  libmimalloc-dev
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: warning: CUDA toolkit not found at /usr/local/cuda (nvcc is needed by the corpus tests)" >&2
fi
