#!/usr/bin/env bash
# usage: misuse.sh <ptx2amd> <ptx2amd-fatbin> <ptx2amd-run> <data-dir> <work-dir>
# Inputs a user can hand the tools by mistake: each must end with a failure
# exit code (ptx2amd: 2, "usage: unreadable input file" in support/ExitStatus.h;
# ptx2amd-fatbin and ptx2amd-run: 1) and a message naming the problem - never a signal, an uncaught exception or
# a hang (every command runs under `timeout 20`; a FIFO nobody writes to must
# not block).
set -u
P=$1 F=$2 R=$3 data=$4 work=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail=0
expect() { # expect <substring> <command...>
  local msg=$1; shift
  local want=1
  for a in "$@"; do [ "$a" = "$P" ] && want=2; done
  timeout 20 "$@" > out.txt 2> err.txt
  local rc=$?
  if [ $rc -ne $want ] || ! grep -qF -- "$msg" err.txt; then
    echo "FAIL ($rc): $* -> $(head -c 300 err.txt)"; fail=1
  else
    echo "ok   $*: $(head -1 err.txt)"
  fi
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
exit $fail
