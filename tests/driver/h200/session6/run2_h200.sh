#!/bin/bash
# driver (issue 9, session 6, second visit): the runtime API under a driver-created current context
# (ctx_runtime.cu, -cudart shared and static, both with -lcuda), in its four modes (default, thread,
# destroyed, reset: the first visit's single run aborted with "free(): invalid pointer" after the
# part now in the default mode), stdout line-buffered. Default mode twice (determinism).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=${OUT:-/tmp/out}/driver
mkdir -p $R/build $R/run
W=$(mktemp -d)
exec > >(tee $R/run.log) 2>&1
date; nvidia-smi -L; nvcc --version | tail -2
pids=""
bg() { local log=$1; shift; "$@" > $R/build/$log.txt 2>&1 & pids="$pids $!"; }
bg ctx_runtime.shared nvcc -O2 -std=c++17 -arch=sm_90 -cudart shared -o $W/ctx_runtime.shared $HERE/ctx_runtime.cu -L/usr/local/cuda/lib64/stubs -lcuda
bg ctx_runtime.static nvcc -O2 -std=c++17 -arch=sm_90 -o $W/ctx_runtime.static $HERE/ctx_runtime.cu -L/usr/local/cuda/lib64/stubs -lcuda
wait $pids
ls -l $W
go() { # name, command...
  local name=$1; shift
  (cd $W && timeout 20 "$@" > $R/run/$name.out 2> $R/run/$name.err; echo "rc=$?" >> $R/run/$name.err)
  echo "--- $name: $(tail -1 $R/run/$name.err); $(wc -l < $R/run/$name.out) lines"
}
for v in shared static; do
  go ctx_runtime.$v $W/ctx_runtime.$v
  go ctx_runtime.$v.2 $W/ctx_runtime.$v
  cmp -s $R/run/ctx_runtime.$v.out $R/run/ctx_runtime.$v.2.out && echo "    $v deterministic" || echo "    $v DIFFERS between runs"
  for m in thread destroyed reset; do go ctx_runtime_$m.$v $W/ctx_runtime.$v $m; done
done
for m in "" _thread _destroyed _reset; do
  cmp -s $R/run/ctx_runtime$m.shared.out $R/run/ctx_runtime$m.static.out && echo "    ctx_runtime$m shared == static" || echo "    ctx_runtime$m shared != static"
done
date
