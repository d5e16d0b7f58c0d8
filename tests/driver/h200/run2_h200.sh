#!/bin/bash
# run2_h200.sh: the second H200 call. The first (run_h200.sh) showed that handing static cudart
# wrapped copies of the export tables makes it fail with cudaErrorSoftwareValidityNotEstablished
# after three calls of table d4082055 slot 1. Here: one experiment per way of observing the slots
# (refuse d4082055, keep it untouched, patch slots in place), on st_vectoradd; the first that
# passes records every static program. Plus the driver probe, one section per process.
set -u
ROOT=$(pwd)
export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d)
R=$W/res
mkdir -p $R/golden $R/trace $R/build $R/exp $R/probe
exec > >(tee $R/run.log) 2>&1
date
REAL=$(ldconfig -p | awk '/libcuda\.so\.1 / {print $NF; exit}')
echo "real driver: $REAL"
. $ROOT/tests/driver/h200/build_h200.sh
exp() { # name, env assignments...
  local name=$1; shift
  (cd $I && env LD_LIBRARY_PATH=$B CUDA_TRACE_REAL=$REAL CUDA_TRACE_LOG=$R/exp/$name.log "$@" \
     timeout 60 $B/st_vectoradd > $R/exp/$name.out 2> $R/exp/$name.err; echo "rc=$?" >> $R/exp/$name.err)
  echo "--- exp $name ($*): $(tail -1 $R/exp/$name.err) $(wc -l < $R/exp/$name.log) lines; $(head -c 200 $R/exp/$name.out | tr '\n' '|')"
}
exp refuse_d408 CUDA_TRACE_REFUSE=d4082055
exp refuse_d408_801 CUDA_TRACE_REFUSE=d4082055 CUDA_TRACE_REFUSE_CODE=801
exp keep_d408 CUDA_TRACE_KEEP=d4082055
exp inplace CUDA_TRACE_INPLACE=1
exp inplace_keep_d408 CUDA_TRACE_INPLACE=1 CUDA_TRACE_KEEP=d4082055
exp refuse_d408_inplace CUDA_TRACE_REFUSE=d4082055 CUDA_TRACE_INPLACE=1
exp refuse_f8cf_d408 CUDA_TRACE_REFUSE=f8cff951,d4082055
exp refuse_f8cf_nowrap CUDA_TRACE_REFUSE=f8cff951 CUDA_TRACE_NOWRAP=1
exp refuse_d408_nowrap CUDA_TRACE_REFUSE=d4082055 CUDA_TRACE_NOWRAP=1
exp refuse_6bd5_nowrap CUDA_TRACE_REFUSE=6bd5fb6c CUDA_TRACE_NOWRAP=1
exp refuse_a094_nowrap CUDA_TRACE_REFUSE=a094798c CUDA_TRACE_NOWRAP=1
exp refuse_263e_nowrap CUDA_TRACE_REFUSE=263e8860 CUDA_TRACE_NOWRAP=1
exp refuse_42d8_nowrap CUDA_TRACE_REFUSE=42d85a81 CUDA_TRACE_NOWRAP=1
exp refuse_c693_nowrap CUDA_TRACE_REFUSE=c693336e CUDA_TRACE_NOWRAP=1
WIN=""
for e in refuse_d408 keep_d408 inplace_keep_d408 refuse_d408_inplace inplace refuse_d408_801; do
  if grep -q PASS $R/exp/$e.out 2>/dev/null; then WIN=$e; break; fi
done
echo "winning configuration: ${WIN:-none}"
case "$WIN" in
  refuse_d408) CFG="CUDA_TRACE_REFUSE=d4082055" ;;
  refuse_d408_801) CFG="CUDA_TRACE_REFUSE=d4082055 CUDA_TRACE_REFUSE_CODE=801" ;;
  keep_d408) CFG="CUDA_TRACE_KEEP=d4082055" ;;
  inplace) CFG="CUDA_TRACE_INPLACE=1" ;;
  inplace_keep_d408) CFG="CUDA_TRACE_INPLACE=1 CUDA_TRACE_KEEP=d4082055" ;;
  refuse_d408_inplace) CFG="CUDA_TRACE_REFUSE=d4082055 CUDA_TRACE_INPLACE=1" ;;
  *) CFG="CUDA_TRACE_REFUSE=d4082055" ;;
esac
trace() { # name, program args...
  local name=$1; shift
  (cd $I && env LD_LIBRARY_PATH=$B CUDA_TRACE_REAL=$REAL CUDA_TRACE_LOG=$R/trace/$name.log $CFG timeout 60 "$@" \
     > $R/trace/$name.out 2> $R/trace/$name.err; echo "rc=$?" >> $R/trace/$name.err)
  echo "--- trace $name: $(tail -1 $R/trace/$name.err) $(wc -l < $R/trace/$name.log) lines; $(head -c 200 $R/trace/$name.out | tr '\n' '|')"
}
for p in st_vectoradd st_symbol st_props st_stream graph; do trace $p $B/$p; done
probe() { # name, args...
  local name=$1; shift
  (cd $I && timeout 12 $B/drv_probe "$@" > $R/probe/$name.out 2> $R/probe/$name.err; echo "rc=$?" >> $R/probe/$name.err)
  echo "--- probe $name: $(tail -1 $R/probe/$name.err) $(wc -l < $R/probe/$name.out) lines"
}
probe guid guid
probe errors errors
probe attrs attrs
for f in k.ptx k_sm100.ptx k.fatbin k_sm80only.fatbin k_compressed.fatbin k_sm80.cubin k_sm90.cubin k_host.o k_truncated.fatbin garbage.bin; do
  probe img_$f images $f
done
probe proc proc $B/exports.txt
date
cd $W && tar czf $OUT/driver_h200_2.tar.gz res
cp $R/run.log $OUT/run2.log
