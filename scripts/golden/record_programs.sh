#!/usr/bin/env bash
# record_programs.sh -- whole-program golden outputs of the public corpus (tests/corpus/*.cu) on a
# real NVIDIA H200.
#
#   scripts/golden/record_programs.sh OUTDIR   (on the GPU machine, from the repo root)
# Compiles every tests/corpus/*.cu with `nvcc -O2 -std=c++17 -arch=sm_90` (16 in parallel), runs
# each once (60 s limit) and writes OUTDIR/programs/<name>.stdout, <name>.stderr and <name>.meta
# (source sha256, nvcc command, compile status, exit status, wall seconds), then packs them into
# OUTDIR/programs.tar.xz.  Install here with:
#   tar -C tests/golden -xJf programs.tar.xz      (creates tests/golden/programs/)
set -uo pipefail
out=${1:?OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
mkdir -p "$work/programs" "$out"
export NVCCFLAGS="-O2 -std=c++17 -arch=sm_90"
compile() {
  f=$1; n=$(basename "$f" .cu)
  # Per-program flags: the corpus marker line "// nvcc-flags: ..." (tests/corpus/CMakeLists.txt).
  extra=$(sed -n 's|^// nvcc-flags: *||p' "$f" | tr '\n' ' ')
  nvcc $NVCCFLAGS $extra -o "$WORK/bin_$n" "$f" >"$WORK/programs/$n.compile.log" 2>&1
  echo $? >"$WORK/programs/$n.compile_rc"
}
export -f compile
export WORK=$work
ls "$root"/tests/corpus/*.cu | xargs -P 16 -I{} bash -c 'compile {}'
for f in "$root"/tests/corpus/*.cu; do
  n=$(basename "$f" .cu)
  crc=$(cat "$work/programs/$n.compile_rc")
  rc=-1; secs=0
  if [ "$crc" = 0 ]; then
    t0=$(date +%s.%N)
    (cd "$work" && timeout 60 "./bin_$n" >"programs/$n.stdout" 2>"programs/$n.stderr")
    rc=$?
    secs=$(echo "$(date +%s.%N) - $t0" | bc 2>/dev/null || echo 0)
  fi
  {
    echo "source tests/corpus/$n.cu"
    echo "source_sha256 $(sha256sum "$f" | cut -d' ' -f1)"
    echo "nvcc nvcc $NVCCFLAGS $(sed -n 's|^// nvcc-flags: *||p' "$f" | tr '\n' ' ')-o $n $n.cu"
    echo "compile_status $crc"
    echo "exit_status $rc"
    echo "wall_seconds $secs"
  } >"$work/programs/$n.meta"
  [ "$crc" = 0 ] && rm -f "$work/programs/$n.compile.log"
  rm -f "$work/programs/$n.compile_rc"
  printf '%-20s compile %s exit %s %ss\n' "$n" "$crc" "$rc" "$secs"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$work/programs/DEVICE" 2>&1
nvcc --version | tail -2 >>"$work/programs/DEVICE"
tar -C "$work" -cJf "$out/programs.tar.xz" programs
ls -l "$out"
