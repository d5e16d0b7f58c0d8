#!/usr/bin/env bash
# The tools share one option parser (support/CommandLine.h): the same
# spelling works everywhere in both `--opt=v` and `--opt v` forms; `ptx2amd
# x.ptx` writes x.hsaco for the default target (gfx1100) like clang; outputs
# are all-or-nothing (a failed run leaves neither a partial nor an older file);
# ptx2amd's exit status names the kind of failure (1 input, 2 usage,
# 3 unsupported construct, 4 internal / I/O).
# usage: tools_test.sh BIN_DIR LLVM_BIN_DIR SRC_DIR WORK_DIR
set -u
BIN=$(realpath "$1") LLVM=$(realpath "$2") SRC=$(realpath "$3") WORK=$4
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fails=0
check() { # check NAME COMMAND... : the command must succeed
  local name=$1; shift
  if "$@" >"$name.out" 2>&1; then echo "ok   $name"; else echo "FAIL $name"; sed 's/^/     /' "$name.out" | tail -5; fails=$((fails + 1)); fi
}
cp "$SRC/vadd.ptx" vadd.ptx
expect_out='buf2: 10 11 12 13 14 15 0 0' # out[i] = i + 10 for i < 6 (a = iota, b = 10, n = 6)
run_args=(--kernel vadd --grid 1 --block 8 --arg buf:u32:8:iota --arg buf:u32:8:fill:10 --arg buf:u32:8:zero --arg u32:6 --dump buf2)

# --- default output naming and -v ---
check default_output bash -c "'$BIN/ptx2amd' vadd.ptx -v 2>v.err && test -s vadd.hsaco && grep -q 'compiling for gfx1100 (the default target)' v.err && grep -q 'wrote .* bytes to vadd.hsaco' v.err"
check default_output_is_gfx1100 bash -c "'$LLVM/llvm-readelf' --notes vadd.hsaco | grep -q 'amdgcn-amd-amdhsa--gfx1100'"

# --- the same options in both forms, in every tool ---
for form in "--offload-arch=gfx90a" "--offload-arch gfx90a"; do
  tag=${form// /_}
  check "ptx2amd_$tag" bash -c "'$BIN/ptx2amd' vadd.ptx $form --warp-policy pad -O 2 -j 1 -o a.$tag.hsaco && '$LLVM/llvm-readelf' --notes a.$tag.hsaco | grep -q gfx90a"
  check "ptx2amd-run_$tag" bash -c "'$BIN/ptx2amd-run' vadd.ptx $form --warp-policy=pad -O2 -j1 ${run_args[*]} | grep -qx '$expect_out'"
  check "ptx2amd-run_kernel_policy_$tag" bash -c "'$BIN/ptx2amd-run' vadd.ptx $form --warp-policy vadd=pad ${run_args[*]} | grep -qx '$expect_out'"
done
check ptx2amd-run_default_target bash -c "'$BIN/ptx2amd-run' vadd.ptx ${run_args[*]} | grep -qx '$expect_out'"
# isa-emu-run: the same options and arguments, on the machine-code emulator.
for form in "--offload-arch=gfx90a --warp-policy=pad" "--offload-arch gfx90a --warp-policy vadd=pad" "-j 1"; do
  tag=${form// /_}
  check "isa-emu-run_$tag" bash -c "'$BIN/isa-emu-run' vadd.ptx $form ${run_args[*]} | grep -qx '$expect_out'"
done
for tool in ptx2amd ptx2amd-run ptx2amd-fatbin ptx2amd-opt isa-emu-run; do
  check "${tool}_version" bash -c "'$BIN/$tool' --version | grep -q '^$tool version [0-9]'"
  check "${tool}_help" bash -c "'$BIN/$tool' --help | grep -q -- '--offload-arch' && '$BIN/$tool' --help | grep -q -- '--warp-policy'"
  check "${tool}_bad_policy" bash -c "'$BIN/$tool' vadd.ptx --warp-policy=wide >/dev/null 2>p.$tool; test \$? -ne 0 && grep -q \"unknown policy 'wide'\" p.$tool"
  check "${tool}_bad_arch" bash -c "'$BIN/$tool' vadd.ptx --offload-arch gfx803 >/dev/null 2>e.$tool; test \$? -ne 0 && grep -q \"unsupported --offload-arch 'gfx803'\" e.$tool"
done

# ptx2amd-exec: options before PROGRAM (the first positional), checked by the same
# parsers, passed to the runtime as its variables; usage errors exit with 2.
mkdir -p fakeshim && : > fakeshim/libcudart.so.13
printf '#!/bin/sh\nPTX2AMD_SHIM_DIR=%s/fakeshim PTX2AMD_ARCH= PTX2AMD_WARP_POLICY= exec %s/ptx2amd-exec "$@"\n' "$PWD" "$BIN" > exec.sh
chmod +x exec.sh
check ptx2amd-exec_version bash -c "'$BIN/ptx2amd-exec' --version | grep -q '^ptx2amd-exec version [0-9]'"
check ptx2amd-exec_help bash -c "'$BIN/ptx2amd-exec' --help | grep -q -- '--offload-arch' && '$BIN/ptx2amd-exec' --help | grep -q -- '--warp-policy'"
for form in "--offload-arch=gfx90a --warp-policy=pad" "--offload-arch gfx90a --warp-policy pad"; do
  tag=${form// /_}
  check "ptx2amd-exec_$tag" bash -c "./exec.sh --device emu $form env > env.$tag && grep -qx PTX2AMD_ARCH=gfx90a env.$tag && grep -qx PTX2AMD_WARP_POLICY=pad env.$tag && grep -qx PTX2AMD_DEVICE=emu env.$tag"
done
check ptx2amd-exec_program_options_untouched bash -c "./exec.sh --device=emu echo -v --offload-arch=x | grep -qx -- '-v --offload-arch=x'"
check ptx2amd-exec_bad_policy bash -c "'$BIN/ptx2amd-exec' --warp-policy=wide true 2>p.exec; test \$? -eq 2 && grep -q \"unknown policy 'wide'\" p.exec"
check ptx2amd-exec_bad_arch bash -c "'$BIN/ptx2amd-exec' --offload-arch gfx803 true 2>e.exec; test \$? -eq 2 && grep -q \"unsupported --offload-arch 'gfx803'\" e.exec"
check ptx2amd-exec_no_program bash -c "'$BIN/ptx2amd-exec' --device=emu 2>n.exec; test \$? -eq 2 && grep -q 'no program given' n.exec"

# --- all-or-nothing outputs ---
printf 'OLD' > stale.hsaco
sed 's/add.s32 \t%r5, %r3, %r4;/bogus.op %r5;/' vadd.ptx > bad.ptx
check failure_removes_stale_output bash -c "! '$BIN/ptx2amd' bad.ptx -o stale.hsaco 2>/dev/null && test ! -e stale.hsaco"
printf 'OLD' > stale.ll
check failure_removes_stale_llvm bash -c "! '$BIN/ptx2amd' bad.ptx --emit=llvm -o stale.ll 2>/dev/null && test ! -e stale.ll"
printf 'OLD' > replaced.hsaco
check success_replaces_output bash -c "'$BIN/ptx2amd' vadd.ptx -o replaced.hsaco && test \"\$(head -c 4 replaced.hsaco | od -An -c | tr -d ' ')\" = '177ELF'"
check no_temporary_files_left bash -c "! ls -a | grep -q 'temp-stream'"
mkdir -p ro && printf 'KEEP' > ro/keep.hsaco && chmod a-w ro
if [ "$(id -u)" != 0 ]; then # root ignores directory permissions
  check unwritable_dir_keeps_nothing_partial bash -c "! '$BIN/ptx2amd' vadd.ptx -o ro/new.hsaco 2>/dev/null && test ! -e ro/new.hsaco"
fi
chmod u+w ro
check devnull_output bash -c "'$BIN/ptx2amd' vadd.ptx -o /dev/null && test -c /dev/null"

# --- exit status by error kind (support/ExitStatus.h, documented in --help) ---
# status STATUS COMMAND...: the command exits with exactly STATUS
status() { local want=$1; shift; "$@"; local got=$?; [ "$got" = "$want" ] || { echo "exit status $got, want $want"; return 1; }; }
sed 's/ld.global.u32 \t%r3, \[%rd5\];/ld.shared::cluster.u32 %r3, [%rd5];/' vadd.ptx > cluster.ptx
check exit_cluster_input_differs bash -c "! cmp -s vadd.ptx cluster.ptx"
check exit_0_success status 0 "$BIN/ptx2amd" vadd.ptx -o ok.hsaco
check exit_1_input_error status 1 "$BIN/ptx2amd" bad.ptx -o x.hsaco
check exit_1_input_error_syntax_only status 1 "$BIN/ptx2amd" -fsyntax-only bad.ptx
check exit_2_unknown_option status 2 "$BIN/ptx2amd" vadd.ptx --no-such-option
check exit_2_bad_policy status 2 "$BIN/ptx2amd" vadd.ptx --warp-policy=wide
check exit_2_bad_arch status 2 "$BIN/ptx2amd" vadd.ptx --offload-arch gfx803
check exit_2_no_input status 2 "$BIN/ptx2amd"
check exit_2_missing_input status 2 "$BIN/ptx2amd" no-such-file.ptx
check exit_3_unsupported_construct bash -c "'$BIN/ptx2amd' cluster.ptx -o c.hsaco 2>c.err; test \$? = 3 && grep -q 'ld.shared::cluster' c.err && test ! -e c.hsaco"
check exit_4_unwritable_output status 4 "$BIN/ptx2amd" vadd.ptx -o /proc/version/x.hsaco
check exit_status_in_help bash -c "'$BIN/ptx2amd' --help | grep -q '^Exit status:' && '$BIN/ptx2amd' --help | grep -q '3  the input uses constructs'"

echo "tools: $fails failure(s)"
[ "$fails" = 0 ] && echo "tools: OK"
