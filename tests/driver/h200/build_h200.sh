# build_h200.sh: sourced by run_h200.sh / run2_h200.sh on the H200. Builds the recording
# libcuda.so.1 ($B/libcuda.so.1), the static-cudart and driver-API programs ($B) and the images of
# kernels.cu ($I). Expects ROOT, W, R set by the caller.
T=$ROOT/tools/cuda-trace
D=$ROOT/tests/driver
B=$W/b
pids=""
mkdir -p $B
cc -O1 -g -fPIC -shared -Wall -Wno-unused-function -I$T/out -o $B/libcuda.so.1 -Wl,-soname,libcuda.so.1 $T/cuda_trace.c -ldl -lpthread || echo "TRACER BUILD FAILED"
# Static-cudart programs and the graph program (default nvcc = static cudart).
for p in st_vectoradd st_symbol st_props st_stream; do
  nvcc -arch=sm_90 -o $B/$p $D/static/$p.cu > $R/build/$p.txt 2>&1 & pids="$pids $!"
done
nvcc -arch=sm_90 -o $B/graph $D/graph.cu > $R/build/graph.txt 2>&1 & pids="$pids $!"
# Driver-API programs.
CU="-std=c++17 -O1 -I/usr/local/cuda/include"
for p in drv_vectoradd drv_extra drv_coop drv_globals drv_probe; do
  g++ $CU -o $B/$p $D/$p.cpp -L/usr/local/cuda/lib64/stubs -lcuda -ldl > $R/build/$p.txt 2>&1 & pids="$pids $!"
done
g++ $CU -o $B/nvrtc_saxpy $D/nvrtc_saxpy.cpp -L/usr/local/cuda/lib64/stubs -L/usr/local/cuda/lib64 -lcuda -lnvrtc > $R/build/nvrtc.txt 2>&1 & pids="$pids $!"
# Images of kernels.cu.
K=$D/kernels.cu
I=$B/img
mkdir -p $I
nvcc -ptx -arch=sm_90 -o $I/k.ptx $K & pids="$pids $!"
nvcc -ptx -arch=sm_100 -o $I/k_sm100.ptx $K & pids="$pids $!"
nvcc -fatbin -gencode arch=compute_90,code=compute_90 -gencode arch=compute_80,code=sm_80 -o $I/k.fatbin $K & pids="$pids $!"
nvcc -fatbin -gencode arch=compute_80,code=sm_80 -o $I/k_sm80only.fatbin $K & pids="$pids $!"
nvcc -fatbin -gencode arch=compute_90,code=compute_90 -Xfatbin=-compress-all -o $I/k_compressed.fatbin $K & pids="$pids $!"
nvcc -cubin -arch=sm_80 -o $I/k_sm80.cubin $K & pids="$pids $!"
nvcc -cubin -arch=sm_90 -o $I/k_sm90.cubin $K & pids="$pids $!"
nvcc -c -gencode arch=compute_90,code=compute_90 -o $I/k_host.o $K & pids="$pids $!"
wait $pids
head -c 100 $I/k.fatbin > $I/k_truncated.fatbin
head -c 4096 /dev/urandom > $I/garbage.bin
ls -l $B $I
cp $I/*.ptx $R/build/ 2>/dev/null
nm -D --defined-only /usr/local/cuda/lib64/stubs/libcuda.so 2>/dev/null | awk '$2=="T"{print $3}' > $B/exports.txt
[ -s $B/exports.txt ] || grep -o 'cu[A-Za-z0-9_]*' $T/out/cuda_trace_gen.h | sort -u > $B/exports.txt
