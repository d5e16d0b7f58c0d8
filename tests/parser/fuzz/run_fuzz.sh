#!/usr/bin/env bash
# usage: run_fuzz.sh <ptx_fuzz> <seed-dir> <work-dir> <seconds>
# Runs the fuzzer for a bounded time on a copy of the seed corpus; exits
# non-zero on any finding (crash, sanitizer report, round-trip violation).
set -u
fuzz=$1 seeds=$2 work=$3 secs=$4
mkdir -p "$work/corpus" "$work/artifacts"
cp -n "$seeds"/*.ptx "$(dirname "$0")"/seeds/*.ptx "$work/corpus/" 2>/dev/null || true
dict=$(dirname "$0")/ptx.dict
"$fuzz" "$work/corpus" -dict="$dict" -max_total_time="$secs" -max_len=4096 -rss_limit_mb=4096 \
  -timeout=20 -artifact_prefix="$work/artifacts/" -print_final_stats=1 2>&1 | tail -25
rc=${PIPESTATUS[0]}
if ls "$work/artifacts/" | grep -q .; then echo "fuzz: findings in $work/artifacts"; exit 1; fi
exit "$rc"
