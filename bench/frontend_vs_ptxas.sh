#!/usr/bin/env bash
# usage: frontend_vs_ptxas.sh <bench_frontend> <file.ptx> [ptxas] [runs]
# Times our front end (parse + IR construction + checks, one cold process per
# run) and `ptxas -O3 -arch=sm_90` on the same file, alternating them in one
# run so both see the same machine load, and prints the best times and the
# ratio (wall clock and user+sys CPU).
set -euo pipefail
bench=$1 ptx=$2 ptxas=${3:-/usr/local/cuda/bin/ptxas} runs=${4:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
best() { sort -g | head -1; }
for i in $(seq "$runs"); do
  /usr/bin/time -f "%e %U %S" -o "$tmp/fe.$i" "$bench" --frontend-once "$ptx" > "$tmp/fe.out.$i"
  /usr/bin/time -f "%e %U %S" -o "$tmp/px.$i" "$ptxas" -O3 -arch=sm_90 "$ptx" -o "$tmp/out.cubin"
done
fe_wall=$(for i in $(seq "$runs"); do awk '{print $1}' "$tmp/fe.$i"; done | best)
fe_cpu=$(for i in $(seq "$runs"); do awk '{print $2+$3}' "$tmp/fe.$i"; done | best)
px_wall=$(for i in $(seq "$runs"); do awk '{print $1}' "$tmp/px.$i"; done | best)
px_cpu=$(for i in $(seq "$runs"); do awk '{print $2+$3}' "$tmp/px.$i"; done | best)
bytes=$(stat -c %s "$ptx")
echo "input: $ptx ($bytes bytes)"
echo "front end (last run): $(cat "$tmp/fe.out.$runs")"
printf "front end  wall %.3f s  cpu %.3f s  (%.1f MB/s wall)\n" "$fe_wall" "$fe_cpu" "$(echo "$bytes / 1000000 / $fe_wall" | bc -l)"
printf "ptxas -O3  wall %.3f s  cpu %.3f s\n" "$px_wall" "$px_cpu"
printf "ratio front end / ptxas: wall %.2f%%  cpu %.2f%%\n" \
  "$(echo "100 * $fe_wall / $px_wall" | bc -l)" "$(echo "100 * $fe_cpu / $px_cpu" | bc -l)"
