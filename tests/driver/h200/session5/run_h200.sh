#!/bin/bash
# driver (issue 9, session 5): driver-API arrays / textures / surfaces (drv_array, + mipmapped
# arrays), created contexts (drv_ctx), graph memcpy-array / symbol / mem-alloc / enable / instantiate
# with params nodes (graph_mem, -cudart shared and static), the corpus texture program built with
# the default static cudart. Everything runs twice (determinism). Results under $OUT/driver/.
# Second visit: also drv_array probe (linear filter + integer reads) and graph_mem probe (error nodes).
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
bg graph_mem.shared nvcc -O2 -std=c++17 -arch=sm_90 -cudart shared -o $W/graph_mem.shared $HERE/graph_mem.cu
bg graph_mem.static nvcc -O2 -std=c++17 -arch=sm_90 -o $W/graph_mem.static $HERE/graph_mem.cu
bg texture.static nvcc -O2 -std=c++17 -arch=sm_90 -o $W/texture.static $HERE/texture.cu
bg texture.shared nvcc -O2 -std=c++17 -arch=sm_90 -cudart shared -o $W/texture.shared $HERE/texture.cu
bg drv_array g++ -std=c++17 -O1 -I/usr/local/cuda/include -o $W/drv_array $HERE/drv_array.cpp -L/usr/local/cuda/lib64/stubs -lcuda
bg drv_ctx g++ -std=c++17 -O1 -I/usr/local/cuda/include -o $W/drv_ctx $HERE/drv_ctx.cpp -L/usr/local/cuda/lib64/stubs -lcuda -lpthread
bg k.ptx nvcc -ptx -arch=sm_90 -o $W/k.ptx $HERE/kernels.cu
bg kx.ptx nvcc -ptx -arch=sm_90 -o $W/kx.ptx $HERE/kernels_ext.cu
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
twice drv_array $W/drv_array kx.ptx
twice drv_array_mip $W/drv_array kx.ptx mip
twice drv_ctx $W/drv_ctx k.ptx kx.ptx
twice drv_array_probe $W/drv_array kx.ptx probe
twice graph_mem_probe.shared $W/graph_mem.shared probe
go graph_mem_probe.static $W/graph_mem.static probe
twice graph_mem.shared $W/graph_mem.shared
twice graph_mem.static $W/graph_mem.static
twice texture.static $W/texture.static
go texture.shared $W/texture.shared
cmp -s $R/run/graph_mem.shared.out $R/run/graph_mem.static.out && echo "    graph_mem shared == static" || echo "    graph_mem shared != static"
cmp -s $R/run/texture.shared.out $R/run/texture.static.out && echo "    texture shared == static" || echo "    texture shared != static"
cp $W/k.ptx $W/kx.ptx $R/build/
date
