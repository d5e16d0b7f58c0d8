#!/usr/bin/env bash
# record_list.sh -- H200 goldens for a chosen list of programs (tests/shim, tests/corpus, probes).
#
#   scripts/golden/record_list.sh OUTDIR ENTRY...     (on the GPU machine, from the repo root)
# ENTRY is `path/to/prog.cu[:ARGS]` (ARGS: the program's arguments, ',' for spaces; an entry with
# arguments is recorded as <name>_<args>). Each source is compiled once with
# `nvcc -O2 -std=c++17 -arch=sm_90` plus its "// nvcc-flags:" line (16 in parallel), run three
# times (60 s limit each) and written as OUTDIR/<name>.stdout, .stderr and .meta (source sha256,
# nvcc command, exit status, wall seconds, and `stable_runs 3` when the three stdouts are identical,
# else `stable_runs 1` with the differing runs kept as .stdout.runN). Outputs over 1 MB are
# compressed (zstd -19 when the machine has it, else xz -6) and the .meta says so. OUTDIR/DEVICE
# names the GPU, driver and nvcc. Fetch OUTDIR and move the files into tests/golden/programs/ or
# tests/golden/probes/ by hand (the .meta's `source` line says which program each one is).
set -uo pipefail
out=${1:?OUTDIR}; shift
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
mkdir -p "$out"
flags="-O2 -std=c++17 -arch=sm_90"
declare -A seen
for e in "$@"; do
  src=${e%%:*}
  [ -n "${seen[$src]:-}" ] && continue
  seen[$src]=1
  n=$(basename "$src" .cu)
  extra=$(sed -n 's|^// nvcc-flags: *||p' "$root/$src" | tr '\n' ' ')
  ( nvcc $flags $extra -o "$work/$n" "$root/$src" >"$work/$n.compile.log" 2>&1; echo $? >"$work/$n.crc" ) &
  while [ "$(jobs -rp | wc -l)" -ge 16 ]; do sleep 0.2; done
done
wait
comp=$(command -v zstd >/dev/null && echo zstd || echo xz)
for e in "$@"; do
  src=${e%%:*}; n=$(basename "$src" .cu); args=""; tag=$n
  if [ "$e" != "$src" ]; then args=$(echo "${e#*:}" | tr ',' ' '); tag="${n}_$(echo "$args" | tr ' ' '_')"; fi
  crc=$(cat "$work/$n.crc")
  rc=-1; secs=0; stable=0
  if [ "$crc" = 0 ]; then
    for r in 1 2 3; do
      t0=$(date +%s.%N)
      (cd "$work" && timeout 60 "./$n" $args >"$work/$tag.out$r" 2>"$work/$tag.err$r")
      rcr=$?
      t1=$(date +%s.%N)
      [ $r = 1 ] && { rc=$rcr; secs=$(python3 -c "print(round($t1-$t0,2))"); }
    done
    cp "$work/$tag.out1" "$out/$tag.stdout"; cp "$work/$tag.err1" "$out/$tag.stderr"
    if cmp -s "$work/$tag.out1" "$work/$tag.out2" && cmp -s "$work/$tag.out1" "$work/$tag.out3"; then
      stable=3
    else
      stable=1; cp "$work/$tag.out2" "$out/$tag.stdout.run2"; cp "$work/$tag.out3" "$out/$tag.stdout.run3"
    fi
  else
    cp "$work/$n.compile.log" "$out/$tag.compile.log"
  fi
  packed=""
  if [ -f "$out/$tag.stdout" ] && [ "$(stat -c %s "$out/$tag.stdout")" -gt 1000000 ]; then
    if [ $comp = zstd ]; then zstd -q -19 --rm "$out/$tag.stdout"; packed="stdout.zst"; else xz -6 "$out/$tag.stdout"; packed="stdout.xz"; fi
    rm -f "$out/$tag.stdout.run2" "$out/$tag.stdout.run3"
  fi
  {
    echo "source $src"
    echo "source_sha256 $(sha256sum "$root/$src" | cut -d' ' -f1)"
    echo "nvcc nvcc $flags ${extra}-o $n $n.cu"
    [ -n "$args" ] && echo "args $args"
    echo "compile_status $crc"
    echo "exit_status $rc"
    echo "wall_seconds $secs"
    echo "stable_runs $stable"
    [ -n "$packed" ] && echo "packed $packed"
  } >"$out/$tag.meta"
  printf '%-28s compile %s exit %s %ss stable %s %s\n' "$tag" "$crc" "$rc" "$secs" "$stable" "$packed"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; } >"$out/DEVICE" 2>&1
