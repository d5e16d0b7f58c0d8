#!/bin/bash
# run_h200.sh: everything tests/driver needs from the lent H200, in one device call.
# Run from a directory holding tests/driver/ and tools/cuda-trace/ (with out/cuda_trace_gen.h
# pre-generated, so the device needs no python). Builds the recording libcuda.so.1, the static-cudart
# programs, the driver-API programs and their images; runs each program plainly (golden stdout)
# and the static ones under the recorder; packs everything into $OUT/driver_h200.tar.gz.
set -u
ROOT=$(pwd)
export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d)
R=$W/res
mkdir -p $R/golden $R/trace $R/build
exec > >(tee $R/run.log) 2>&1
date
nvidia-smi -L
nvcc --version | tail -2
REAL=$(ldconfig -p | awk '/libcuda\.so\.1 / {print $NF; exit}')
echo "real driver: $REAL"
ls -l $REAL $(readlink -f $REAL)
. $ROOT/tests/driver/h200/build_h200.sh
run() { # name, command...
  local name=$1; shift
  (cd $I && timeout 60 "$@" > $R/golden/$name.out 2> $R/golden/$name.err; echo "rc=$?" >> $R/golden/$name.err)
  echo "--- $name: $(tail -1 $R/golden/$name.err) $(head -c 300 $R/golden/$name.out | tr '\n' '|')"
}
for m in data dataex file library; do run vectoradd_ptx_$m $B/drv_vectoradd $m k.ptx; done
for m in data fatbin library; do run vectoradd_fatbin_$m $B/drv_vectoradd $m k.fatbin; done
run vectoradd_compressed_data $B/drv_vectoradd data k_compressed.fatbin
run vectoradd_cubin_sm80_data $B/drv_vectoradd data k_sm80.cubin
run vectoradd_cubin_sm80_library $B/drv_vectoradd library k_sm80.cubin
run vectoradd_sm80only_fatbin $B/drv_vectoradd fatbin k_sm80only.fatbin
run vectoradd_cubin_sm90_data $B/drv_vectoradd data k_sm90.cubin
run extra $B/drv_extra k.ptx
run coop $B/drv_coop k.ptx
run globals $B/drv_globals k.ptx
run nvrtc_saxpy $B/nvrtc_saxpy
run graph $B/graph
for p in st_vectoradd st_symbol st_props st_stream; do run $p $B/$p; done
run probe $B/drv_probe $B/exports.txt k.ptx k_sm100.ptx k.fatbin k_sm80only.fatbin k_compressed.fatbin k_sm80.cubin k_sm90.cubin k_host.o k_truncated.fatbin garbage.bin
# Under the recorder: static cudart dlopens libcuda.so.1, so the recorder's directory goes first.
trace() { # name, env..., program
  local name=$1; shift
  (cd $I && env LD_LIBRARY_PATH=$B CUDA_TRACE_REAL=$REAL CUDA_TRACE_LOG=$R/trace/$name.log "$@" \
     > $R/trace/$name.out 2> $R/trace/$name.err; echo "rc=$?" >> $R/trace/$name.err)
  echo "--- trace $name: $(tail -1 $R/trace/$name.err) $(wc -l < $R/trace/$name.log) lines; $(head -c 200 $R/trace/$name.out | tr '\n' '|')"
}
for p in st_vectoradd st_symbol st_props st_stream graph; do trace $p timeout 60 $B/$p; done
trace st_vectoradd_nowrap CUDA_TRACE_NOWRAP=1 timeout 60 $B/st_vectoradd
trace drv_vectoradd_fatbin timeout 60 $B/drv_vectoradd fatbin k.fatbin
trace nvrtc_saxpy timeout 60 $B/nvrtc_saxpy
date
cd $W && tar czf $OUT/driver_h200.tar.gz res
cp $R/run.log $OUT/run.log
