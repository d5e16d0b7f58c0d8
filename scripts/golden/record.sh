#!/usr/bin/env bash
# record.sh -- regenerate the golden tables of tests/golden/data on a real NVIDIA H200.
#
#   scripts/golden/record.sh record OUTDIR    (on the machine with the GPU, from the repo root)
#       generates the PTX sweeps + plan + manifest (gen.py --prune, needs ptxas), builds record.cu
#       (nvcc -arch=sm_90 ... -lcuda), runs it, and leaves OUTDIR/golden-raw.tar.<zst|xz|gz>
#       (raw <family>.bin outputs, manifest.json, plan.txt, record.log, nvidia-smi.txt).
#   scripts/golden/record.sh install TARBALL  (here, from the repo root)
#       unpacks that tarball, compresses each <family>.bin with zstd -19 into
#       tests/golden/data/<family>.bin.zst and installs manifest.json + record.log.
set -euo pipefail
mode=${1:?usage: record.sh record OUTDIR | install TARBALL}
root=$(cd "$(dirname "$0")/../.." && pwd)

case "$mode" in
record)
  out=${2:?OUTDIR}
  work=$(mktemp -d)
  python3 "$root/scripts/golden/gen.py" --out "$work/gen" --prune 2>"$work/gen.log" || {
    cat "$work/gen.log"; exit 1; }
  tail -1 "$work/gen.log"
  nvcc -O2 -std=c++17 -arch=sm_90 "$root/scripts/golden/record.cu" -o "$work/record" -lcuda
  "$work/record" --check-plan "$work/gen"
  mkdir -p "$work/raw"
  "$work/record" "$work/gen" "$work/raw"
  cp "$work/gen/manifest.json" "$work/gen/plan.txt" "$work/gen.log" "$work/raw/"
  nvidia-smi >"$work/raw/nvidia-smi.txt" 2>&1 || true
  mkdir -p "$out"
  if command -v zstd >/dev/null; then
    tar -C "$work/raw" -cf - . | zstd -T0 -19 -q -o "$out/golden-raw.tar.zst"
  elif command -v xz >/dev/null; then
    tar -C "$work/raw" -cf - . | xz -T0 -6 >"$out/golden-raw.tar.xz"
  else
    tar -C "$work/raw" -czf "$out/golden-raw.tar.gz" .
  fi
  ls -l "$out"
  ;;
install)
  tarball=${2:?TARBALL}
  tmp=$(mktemp -d)
  case "$tarball" in
    *.zst) zstd -dc "$tarball" | tar -C "$tmp" -xf - ;;
    *.xz) xz -dc "$tarball" | tar -C "$tmp" -xf - ;;
    *) tar -C "$tmp" -xzf "$tarball" ;;
  esac
  data="$root/tests/golden/data"
  mkdir -p "$data"
  rm -f "$data"/*.bin.zst
  for f in "$tmp"/*.bin; do
    zstd -q -19 -f "$f" -o "$data/$(basename "$f").zst"
  done
  cp "$tmp/manifest.json" "$tmp/record.log" "$tmp/nvidia-smi.txt" "$data/"
  du -sh "$data"
  ;;
*)
  echo "unknown mode $mode" >&2; exit 2 ;;
esac
