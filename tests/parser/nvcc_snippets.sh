#!/usr/bin/env bash
# usage: nvcc_snippets.sh <ptx2amd> <cuda-home> <snippet-dir> <work-dir>
# Compiles every snippet with nvcc -ptx for several targets and debug modes;
# each PTX must parse without errors and round-trip (--roundtrip-check), and
# the printed PTX (--emit=ptx) must be accepted by ptxas for its own target.
set -u
tool=$1 cuda=$2 src=$3 work=$4
mkdir -p "$work"
fail=0 n=0
variants=("sm_75:" "sm_80:" "sm_90:" "sm_100:" "sm_80:-G" "sm_90:-lineinfo")
for cu in "$src"/*.cu; do
  base=$(basename "$cu" .cu)
  for v in "${variants[@]}"; do
    arch=${v%%:*} flag=${v#*:}
    out="$work/${base}_${arch}${flag//-/_}.ptx"
    if ! "$cuda/bin/nvcc" -ptx -arch="$arch" $flag "$cu" -o "$out" 2>"$out.nvcc.log"; then
      echo "FAIL nvcc $base $arch $flag"; cat "$out.nvcc.log"; fail=1; continue
    fi
    n=$((n+1))
    if ! "$tool" --roundtrip-check "$out"; then echo "FAIL roundtrip $out"; fail=1; continue; fi
    if ! "$tool" --emit=ptx "$out" -o "$out.printed.ptx"; then echo "FAIL print $out"; fail=1; continue; fi
    if ! "$cuda/bin/ptxas" -arch="$arch" "$out.printed.ptx" -o "$out.cubin" 2>"$out.ptxas.log"; then
      echo "FAIL ptxas $out.printed.ptx"; cat "$out.ptxas.log"; fail=1; continue
    fi
    echo "ok $base $arch $flag"
  done
done
# Committed PTX (tests/parser/data): printed form must re-assemble too.
for ptx in "$src"/../data/*.ptx; do
  arch=$(grep -m1 '^\.target' "$ptx" | sed 's/^\.target[[:space:]]*//; s/,.*//')
  out="$work/data_$(basename "$ptx")"
  if ! "$tool" --roundtrip-check "$ptx"; then echo "FAIL roundtrip $ptx"; fail=1; continue; fi
  if ! "$tool" --emit=ptx "$ptx" -o "$out"; then echo "FAIL print $ptx"; fail=1; continue; fi
  if ! "$cuda/bin/ptxas" -arch="$arch" "$out" -o "$out.cubin" 2>"$out.ptxas.log"; then
    echo "FAIL ptxas $out"; cat "$out.ptxas.log"; fail=1; continue
  fi
  echo "ok data $(basename "$ptx") $arch"
done
[ "$n" -gt 0 ] || { echo "no snippets compiled"; exit 1; }
exit $fail
