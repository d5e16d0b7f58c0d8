#!/usr/bin/env bash
# usage: run_fuzz.sh <fuzzer> <work-dir> <seconds> <max_len> <seed-dir>...
# Runs one libFuzzer target for a bounded time on a fresh copy of its seeds
# and fails on any finding (crash, sanitizer report, timeout, OOM, leak).
set -u
fuzz=$1 work=$2 secs=$3 maxlen=$4
shift 4
rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts"
for d in "$@"; do cp "$d"/* "$work/corpus/" 2>/dev/null || true; done
"$fuzz" "$work/corpus" -max_total_time="$secs" -max_len="$maxlen" -rss_limit_mb=4096 -timeout=30 -report_slow_units=100000 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 -seed=1 2>&1 | tail -20
rc=${PIPESTATUS[0]}
if ls "$work/artifacts/" | grep -q .; then echo "fuzz: findings in $work/artifacts"; exit 1; fi
exit "$rc"
