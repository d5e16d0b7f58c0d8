#!/bin/bash
# driver (issue 9, graphs + mixed APIs): builds the graph / mixed-context test programs with nvcc
# (-cudart shared and nvcc's default static cudart) and runs each on the H200; stdout/stderr/rc per
# program under $OUT/driver/. Cheap programs run twice (determinism check). Budget: < 60 s.
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
for p in graph graph_errors graph_nodes graph_bench; do
  nvcc -O2 -std=c++17 -arch=sm_90 -cudart shared -o $W/$p.shared $HERE/$p.cu > $R/build/$p.shared.txt 2>&1 & pids="$pids $!"
  nvcc -O2 -std=c++17 -arch=sm_90 -o $W/$p.static $HERE/$p.cu > $R/build/$p.static.txt 2>&1 & pids="$pids $!"
done
nvcc -O2 -std=c++17 -arch=sm_90 -cudart shared -o $W/mixed_ctx.shared $HERE/mixed_ctx.cu -lcuda > $R/build/mixed_ctx.shared.txt 2>&1 & pids="$pids $!"
nvcc -O2 -std=c++17 -arch=sm_90 -o $W/mixed_ctx.static $HERE/mixed_ctx.cu -lcuda > $R/build/mixed_ctx.static.txt 2>&1 & pids="$pids $!"
g++ -std=c++17 -O1 -I/usr/local/cuda/include -o $W/drv_graph $HERE/drv_graph.cpp -L/usr/local/cuda/lib64/stubs -lcuda > $R/build/drv_graph.txt 2>&1 & pids="$pids $!"
nvcc -ptx -arch=sm_90 -o $W/k.ptx $HERE/kernels.cu > $R/build/k.txt 2>&1 & pids="$pids $!"
wait $pids
ls -l $W
go() { # name, command...
  local name=$1; shift
  (cd $W && timeout 20 "$@" > $R/run/$name.out 2> $R/run/$name.err; echo "rc=$?" >> $R/run/$name.err)
  echo "--- $name: $(tail -1 $R/run/$name.err); $(wc -l < $R/run/$name.out) lines"
}
for v in shared static; do
  for p in graph graph_errors graph_nodes mixed_ctx; do
    go $p.$v $W/$p.$v
    go $p.$v.2 $W/$p.$v
    cmp -s $R/run/$p.$v.out $R/run/$p.$v.2.out && echo "    $p.$v deterministic" || echo "    $p.$v DIFFERS between runs"
  done
  go graph_bench.$v $W/graph_bench.$v
  go graph_bench_big.$v $W/graph_bench.$v 50 200
done
go drv_graph $W/drv_graph k.ptx
go drv_graph.2 $W/drv_graph k.ptx
cmp -s $R/run/drv_graph.out $R/run/drv_graph.2.out && echo "    drv_graph deterministic" || echo "    drv_graph DIFFERS"
cp $W/k.ptx $R/build/
date
