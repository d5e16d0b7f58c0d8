#!/bin/sh
# Builds the recording libcuda.so.1 into $1 (default ./out). Needs nm, python3, cc and a CUDA
# toolkit ($CUDA_HOME, default /usr/local/cuda) for the stub's export list and cuda.h.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out}
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
python3 "$here/gen_trace_tables.py" "$cuda/lib64/stubs/libcuda.so" "$cuda/include/cuda.h" "$out/cuda_trace_gen.h"
cc -O1 -g -fPIC -shared -Wall -Wno-unused-function -I"$out" -o "$out/libcuda.so.1" \
  -Wl,-soname,libcuda.so.1 "$here/cuda_trace.c" -ldl -lpthread
ln -sf libcuda.so.1 "$out/libcuda.so"
echo "built $out/libcuda.so.1"
