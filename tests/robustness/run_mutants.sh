#!/usr/bin/env bash
# usage: run_mutants.sh <ptx2amd> <mutants-dir> <work-dir>
# Each mutant starts with "// EXPECT: <exit-code> <diagnostic substring>". It is
# translated with `ptx2amd -O1 --offload-arch=gfx1100` under an 8 GB address
# space cap and a 60 s timeout; the exit code must match exactly, stderr must
# hold the substring, and no diagnostic may lack a position ("<unknown>",
# "internal: translated module is invalid") or come from a crash.
set -u
tool=$1 dir=$2 work=$3
mkdir -p "$work"
# A PTX2AMD_SANITIZE build (tests/CMakeLists.txt sets PTX2AMD_TEST_PRELOAD): ASan reserves
# terabytes of shadow address space, so the cap becomes ASan's own RSS limit (a report, exit
# non-zero) instead of ulimit -v, and the timeout is scaled.
limit="ulimit -v 8000000" secs=60
if [ -n "${PTX2AMD_TEST_PRELOAD:-}" ]; then
  limit=true
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=8000"
  secs=$(awk -v s="${PTX2AMD_TEST_TIMEOUT_SCALE:-1}" 'BEGIN { print int(60 * s) }')
fi
fail=0 n=0
for f in "$dir"/*.ptx; do
  n=$((n + 1))
  spec=$(grep -m1 '^// EXPECT: ' "$f" | sed 's#^// EXPECT: ##')
  want_rc=${spec%% *} want_msg=${spec#* }
  (cd "$dir" && $limit && timeout "$secs" "$tool" -O1 --offload-arch=gfx1100 "$(basename "$f")" \
     -o "$work/out.hsaco") > "$work/stdout" 2> "$work/stderr"
  rc=$?
  why=""
  [ "$rc" = "$want_rc" ] || why="exit code $rc, expected $want_rc"
  grep -qF -- "$want_msg" "$work/stderr" || why="$why; no '$want_msg' in stderr"
  if grep -qE '<unknown>|translated module is invalid|LLVM ERROR|terminate called|Sanitizer' "$work/stderr"; then
    why="$why; unpositioned or fatal diagnostic"
  fi
  if [ -n "$why" ]; then
    echo "FAIL $(basename "$f"): $why"; sed 's/^/    /' "$work/stderr" | head -5; fail=1
  else
    echo "ok   $(basename "$f")"
  fi
done
echo "robustness mutants: $n checked"
exit $fail
