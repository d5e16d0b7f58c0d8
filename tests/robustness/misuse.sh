#!/usr/bin/env bash
# usage: misuse.sh <ptx2amd> <ptx2amd-fatbin> <ptx2amd-run> <isa-emu-run> <data-dir> <work-dir>
#                  [<ptx2amd-opt> <ptx2amd-exec>]
# Inputs a user can hand the tools by mistake: each must end with a failure
# exit code (ptx2amd: 2, "usage: unreadable input file" in support/ExitStatus.h;
# ptx2amd-fatbin, ptx2amd-run, isa-emu-run and ptx2amd-opt: 1; ptx2amd-exec:
# 127 for a PROGRAM it cannot run, like a shell) and a message naming the
# problem - never a signal, an uncaught exception or a hang (every command
# runs under `timeout 20`; a FIFO nobody writes to must not block). Every
# tool's --help prints its usage, and a failed write to stdout (/dev/full) is
# a failure with a message, not exit 0 with the text lost.
set -u
P=$1 F=$2 R=$3 I=$4 data=$5 work=$6 O=${7:-} X=${8:-}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail=0
# check <want-rc> <stdout-file> <substring> <command...>
check() {
  local want=$1 outf=$2 msg=$3; shift 3
  timeout 20 "$@" > "$outf" 2> err.txt
  local rc=$?
  if [ $rc -ne $want ] || ! grep -qF -- "$msg" err.txt; then
    echo "FAIL ($rc, want $want): $* -> $(head -c 300 err.txt)"; fail=1
  else
    echo "ok   $*: $(head -1 err.txt)"
  fi
}
expect() { # expect <substring> <command...> (exit 2 for ptx2amd, else 1)
  local msg=$1; shift
  local want=1
  for a in "$@"; do [ "$a" = "$P" ] && want=2; done
  check $want out.txt "$msg" "$@"
}
mkfifo fifo
truncate -s 300M huge.ptx
printf 'junk' > junk.bin
head -c 100 "$data/zstd.fatbin" > truncated.fatbin
expect "is a directory" "$P" -fsyntax-only .
expect "is a directory" "$P" -O1 --offload-arch=gfx1100 . -o x.hsaco
expect "larger than the input limit" "$P" -fsyntax-only /dev/zero
expect "FIFO with no writer" "$P" -fsyntax-only fifo
expect "larger than the input limit" "$P" -fsyntax-only huge.ptx
expect "No such file or directory" "$P" -fsyntax-only does-not-exist.ptx
expect "is a directory" "$F" . --list
expect "larger than the input limit" "$F" /dev/zero --list
expect "FIFO with no writer" "$F" fifo --list
expect "neither an ELF file nor a fatbin container" "$F" junk.bin --list
expect "field container.fat_size at offset 0x8" "$F" truncated.fatbin --list
expect "is a directory" "$R" . --check
expect "FIFO with no writer" "$R" fifo --check
expect "larger than the input limit" "$I" /dev/zero --list-missing
expect "FIFO with no writer" "$I" fifo --list-missing
# Command-line values the kernel runners parse (tools/common/KernelArgs.cpp): each used to end in
# std::terminate (an uncaught std::stoull/stod exception or std::bad_alloc) or to wrap silently.
cat > k.ptx <<'PTX'
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u32 n, .param .u64 p)
{
  ret;
}
PTX
run=("$R" k.ptx --kernel k --grid 1 --block 32)
expect "buffer count '-1' in 'buf:u32:-1:zero' is not a non-negative decimal number" "${run[@]}" --arg u32:1 --arg buf:u32:-1:zero
expect "needs more than the runner's limit of 4 GiB" "${run[@]}" --arg u32:1 --arg buf:u32:99999999999999:iota
expect "rand seed 'x' in 'buf:u32:4:rand:x' is not a non-negative decimal number" "${run[@]}" --arg u32:1 --arg buf:u32:4:rand:x
expect "'' in 'buf:f32:4:fill:' is not a number" "${run[@]}" --arg u32:1 --arg buf:f32:4:fill:
expect "'1.5' in 'buf:u32:4:fill:1.5' is not an integer that fits u32" "${run[@]}" --arg u32:1 --arg buf:u32:4:fill:1.5
expect "'99999999999999999999' in 'u32:99999999999999999999' is not an integer that fits u32" "${run[@]}" --arg u32:99999999999999999999 --arg buf:u32:4:zero
expect "'300' in 'i8:300' is not an integer that fits i8" "${run[@]}" --arg i8:300 --arg buf:u32:4:zero
expect "unknown element type 'q32'" "${run[@]}" --arg q32:1 --arg buf:u32:4:zero
expect "bad dimensions '4294967296'" "$R" k.ptx --kernel k --grid 4294967296 --block 32 --arg u32:1 --arg buf:u32:4:zero
expect "bad dimensions '-1'" "$R" k.ptx --kernel k --grid -1 --block 32 --arg u32:1 --arg buf:u32:4:zero
expect "bad dimensions '1,2,3,4' (at most X,Y,Z)" "$R" k.ptx --kernel k --grid 1,2,3,4 --block 32 --arg u32:1 --arg buf:u32:4:zero
expect "bad buffer name 'bufx'" "${run[@]}" --arg u32:1 --arg buf:u32:4:zero --dump bufx
expect "element count 'y' in 'buf0:y'" "${run[@]}" --arg u32:1 --arg buf:u32:4:zero --dump buf0:y
expect "--dump-file needs bufK:PATH" "${run[@]}" --arg u32:1 --arg buf:u32:4:zero --dump-file buf0
expect "rand seed '-3' in 'buf:u32:4:rand:-3'" "$I" k.ptx --kernel k --grid 1 --block 32 --arg u32:1 --arg buf:u32:4:rand:-3
expect "bad dimensions ',,'" "$I" k.ptx --kernel k --grid ,, --block 32 --arg u32:1 --arg buf:u32:4:zero
# A mode-000 file. Root reads it anyway (CAP_DAC_OVERRIDE), so as root the
# tool runs with those two capabilities dropped from its bounding set; the
# case is never skipped.
printf '.version 9.0\n' > unreadable.ptx && chmod 000 unreadable.ptx
asuser=()
if [ "$(id -u)" = 0 ]; then
  asuser=(setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=-dac_override,-dac_read_search)
fi
expect "Permission denied" "${asuser[@]}" "$P" -fsyntax-only unreadable.ptx
expect "Permission denied" "${asuser[@]}" "$F" unreadable.ptx --list
expect "Permission denied" "${asuser[@]}" "$R" unreadable.ptx --check
expect "Permission denied" "${asuser[@]}" "$I" unreadable.ptx --list-missing
# A buffer initialised from a file (file:PATH) reads it like an input: a
# directory used to give a silently zero buffer, a FIFO without a writer hung.
expect "'.' is a directory (in 'buf:u32:4:file:.')" "${run[@]}" --arg u32:1 --arg buf:u32:4:file:.
expect "'fifo' is empty (a FIFO with no writer)" "${run[@]}" --arg u32:1 --arg buf:u32:4:file:fifo
expect "'fifo' is empty (a FIFO with no writer)" "$I" k.ptx --kernel k --grid 1 --block 1 --arg u32:1 --arg buf:u32:4:file:fifo
expect "Permission denied (in 'buf:u32:4:file:unreadable.ptx')" "${asuser[@]}" "${run[@]}" --arg u32:1 --arg buf:u32:4:file:unreadable.ptx
# ... and still gives a buffer the file's first bytes (the rest zero), from a
# short regular file and from an endless stream.
printf 'abcdefgh' > eight.bin
for spec in "buf:u8:12:file:eight.bin|buf0: 97 98 99 100 101 102 103 104 0 0 0 0" "buf:u8:4:file:/dev/zero|buf0: 0 0 0 0"; do
  got=$(timeout 20 "${run[@]}" --arg u32:1 --arg "${spec%%|*}" --dump buf0 2> err.txt)
  if [ "$got" != "${spec#*|}" ]; then echo "FAIL: ${spec%%|*} -> '$got' $(head -c 200 err.txt)"; fail=1; else echo "ok   ${spec%%|*}: $got"; fi
done
# A failed --dump-file write used to be ignored (exit 0, buffer lost).
expect "cannot write '/dev/full'" "${run[@]}" --arg u32:1 --arg buf:u32:4:zero --dump-file buf0:/dev/full
# stdout on a full device: the listing / dump / help text is lost, so the tool fails.
check 1 /dev/full "ptx2amd-fatbin: error: cannot write standard output" "$F" "$data/zstd.fatbin" --list
check 1 /dev/full "ptx2amd-run: error: cannot write standard output" "${run[@]}" --arg u32:1 --arg buf:u32:4:zero --dump buf0
check 4 /dev/full "ptx2amd: error: cannot write standard output" "$P" --help
check 4 /dev/full "ptx2amd: error: cannot write standard output" "$P" --version
check 1 /dev/full "ptx2amd-fatbin: error: cannot write standard output" "$F" --help
check 1 /dev/full "ptx2amd-run: error: cannot write standard output" "$R" --help
check 1 /dev/full "isa-emu-run: error: cannot write standard output" "$I" --help
# An output that cannot be written is one message with one "error:" prefix (it used to read
# "ptx2amd: error: DIR: error: cannot write 'DIR'", and a full stdout was reported three times).
mkdir -p outdir
check 4 out.txt "ptx2amd: error: cannot write 'outdir': Is a directory" "$P" --emit=ptx k.ptx -o outdir
if [ "$(grep -c error err.txt)" != 1 ]; then echo "FAIL: -o outdir reported $(grep -c error err.txt) errors: $(cat err.txt)"; fail=1; fi
check 4 /dev/full "ptx2amd: error: cannot write standard output: No space left on device" "$P" --emit=ptx k.ptx -o -
if [ "$(wc -l < err.txt)" != 1 ]; then echo "FAIL: a full stdout reported $(wc -l < err.txt) times: $(cat err.txt)"; fail=1; fi
# Every tool's --help: exit 0, its usage on stdout, nothing on stderr.
helps=("$P" "$F" "$R" "$I")
[ -n "$O" ] && helps+=("$O")
[ -n "$X" ] && helps+=("$X")
for t in "${helps[@]}"; do
  for h in --help -h; do
    timeout 20 "$t" $h > help.txt 2> err.txt
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q "^usage: " help.txt || ! grep -qF -- "--help" help.txt || [ -s err.txt ]; then
      echo "FAIL ($rc): $t $h -> $(head -c 200 err.txt)"; fail=1
    else
      echo "ok   $t $h: $(wc -l < help.txt) lines of usage"
    fi
  done
  timeout 20 "$t" --version > help.txt 2> err.txt
  rc=$?
  if [ $rc -ne 0 ] || ! [ -s help.txt ]; then echo "FAIL ($rc): $t --version"; fail=1; else echo "ok   $t --version: $(head -1 help.txt)"; fi
done
# ptx2amd-opt (the per-pass lit tests' driver) read its input with
# llvm::parseIRFile: /dev/zero and a FIFO hung. (A module the verifier rejects
# is ptx2amd-check-input's to diagnose: tests/lit/amdgpu-lower/passes.)
if [ -n "$O" ]; then
  expect "is a directory" "$O" . -passes=verify
  expect "larger than the input limit" "$O" /dev/zero -passes=verify
  expect "FIFO with no writer" "$O" fifo -passes=verify
  expect "Permission denied" "${asuser[@]}" "$O" unreadable.ptx -passes=verify
  check 1 /dev/full "ptx2amd-opt: error: cannot write standard output" "$O" --version
fi
# ptx2amd-exec: a PROGRAM it cannot run is exit 127 with what the path is
# (execve says "Permission denied" for a directory or a FIFO).
if [ -n "$X" ]; then
  check 127 out.txt "cannot run './': it is a directory" "$X" --device=emu ./
  check 127 out.txt "cannot run './fifo': it is not a regular file" "$X" --device=emu ./fifo
  check 127 out.txt "cannot run '/dev/zero': it is not a regular file" "$X" --device=emu /dev/zero
  check 127 out.txt "cannot run 'no-such-program-here': not found in PATH" "$X" --device=emu no-such-program-here
  check 127 out.txt "cannot run 'junk.bin': not found in PATH (a file in the current directory is run as ./junk.bin)" "$X" --device=emu junk.bin
  check 2 /dev/full "ptx2amd-exec: error: cannot write standard output" "$X" --help
fi
exit $fail
