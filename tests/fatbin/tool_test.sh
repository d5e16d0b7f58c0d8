#!/usr/bin/env bash
# ptx2amd-fatbin on real nvcc output: an executable whose PTX is LZ4-compressed
# (--compress-mode=speed) and a raw -fatbin file (zstd). Requires a gfx1100 code
# object (ELF, EM_AMDGPU, e_flags mach 0x41) with the kernel's symbol, and a
# 2-arch offload bundle whose entries name both targets.
set -euo pipefail
NVCC="$1" TOOL="$2" READELF="$3" WORK="$4"
mkdir -p "$WORK" && cd "$WORK"
cat > k.cu <<'CU'
__global__ void scale(float *p, float s, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= s; }
int main() { return 0; }
CU
"$NVCC" -cudart shared --compress-mode=speed -gencode arch=compute_90,code=compute_90 -o k.exe k.cu
"$NVCC" -fatbin -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 -o k.fatbin k.cu
"$TOOL" k.exe --list | tee list.txt
grep -q "module 0: PTX for sm_90" list.txt
"$TOOL" k.exe -o k.hsaco --offload-arch=gfx1100
"$READELF" -h -s k.hsaco > readelf.txt # (grep -q on a pipe would SIGPIPE the reader under pipefail)
grep -q "EM_AMDGPU" readelf.txt
grep -q "0x41, gfx1100" readelf.txt
grep -q "FUNC .*_Z5scalePffi$" readelf.txt
"$TOOL" k.fatbin --list | tee list2.txt
grep -q "module 0: PTX for sm_80" list2.txt
"$TOOL" k.fatbin -o k.bundle --offload-arch=gfx1100 --offload-arch=gfx90a --warp-policy=pad
[ "$(head -c 24 k.bundle)" = "__CLANG_OFFLOAD_BUNDLE__" ]
grep -aq "amdgcn-amd-amdhsa--gfx90a" k.bundle
grep -aq "amdgcn-amd-amdhsa--gfx1100" k.bundle
# A cubin-only executable has no PTX: clear error, exit 1.
"$NVCC" -cudart shared -gencode arch=compute_90,code=sm_90 -o sass.exe k.cu
if "$TOOL" sass.exe -o x.hsaco --offload-arch=gfx1100 2> err.txt; then echo "expected failure"; exit 1; fi
grep -q "holds no PTX" err.txt
echo "ptx2amd-fatbin: OK"
