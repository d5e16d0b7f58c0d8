#!/bin/bash
# driver (issue 9, session 6, first visit, 18:02 UTC): the runtime API under a driver-created current
# context (ctx_runtime.cu, -cudart shared and static, both with -lcuda) and linear filtering of
# textures read as integers through the driver API (drv_tex_int.cpp + tex_int_kernels.cu; one process
# per format). Everything runs twice (determinism). Results under $OUT/driver/. Sources: the
# ctx_runtime.cu of that time had no modes (it aborted on the H200 after its 15th line).
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
bg drv_tex_int g++ -std=c++17 -O1 -I/usr/local/cuda/include -o $W/drv_tex_int $HERE/drv_tex_int.cpp -L/usr/local/cuda/lib64/stubs -lcuda
bg ti.ptx nvcc -ptx -arch=sm_90 -o $W/ti.ptx $HERE/tex_int_kernels.cu
wait $pids
ls -l $W
go() { # name, command...
  local name=$1; shift
  (cd $W && timeout 20 "$@" > $R/run/$name.out 2> $R/run/$name.err; echo "rc=$?" >> $R/run/$name.err)
  echo "--- $name: $(tail -1 $R/run/$name.err); $(wc -l < $R/run/$name.out) lines"
}
twice() { # name, command...
  local name=$1
  go "$@"
  shift; go $name.2 "$@"
  cmp -s $R/run/$name.out $R/run/$name.2.out && echo "    $name deterministic" || echo "    $name DIFFERS between runs"
}
twice ctx_runtime.shared $W/ctx_runtime.shared
twice ctx_runtime.static $W/ctx_runtime.static
cmp -s $R/run/ctx_runtime.shared.out $R/run/ctx_runtime.static.out && echo "    ctx_runtime shared == static" || echo "    ctx_runtime shared != static"
for f in u8 s8 u16 s16 u32 s32; do twice drv_tex_int.$f $W/drv_tex_int ti.ptx $f; done
go drv_tex_int.all $W/drv_tex_int ti.ptx
cp $W/ti.ptx $R/build/
date
