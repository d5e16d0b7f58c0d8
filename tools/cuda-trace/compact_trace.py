#!/usr/bin/env python3
"""compact_trace.py: turns a cuda_trace.c log into the committed data format.

Each cuGetProcAddress pair ("= N ... cuGetProcAddress_v2(...)" + "## proc SYM@VER -> EXPORT") becomes
one line "proc SYM VER FLAGS -> EXPORT"; every other line is kept with its sequence number, thread
and depth fields dropped and addresses of the process rebased (heap/stack/library addresses
differ per run, so they are replaced by a class tag and an offset-free form: 0x55..../0x7f.... ->
H?/S?/L?, keeping small values verbatim). Table dumps keep the slot layout (code/data, values of
data slots).

usage: compact_trace.py LOG > OUT
"""
import re
import sys

ADDR = re.compile(r"0x([0-9a-f]{9,16})")

def tag(m):
    v = int(m.group(1), 16)
    if 0x550000000000 <= v < 0x570000000000:
        return "H"          # program heap / image
    if 0x7ff000000000 <= v < 0x800000000000:
        return "S"          # stack
    if 0x7e0000000000 <= v < 0x7ff000000000:
        return "L"          # shared libraries / mmap
    return m.group(0)

def main():
    lines = open(sys.argv[1], errors="replace").read().splitlines()
    out = []
    pending = None
    for line in lines:
        m = re.match(r"= \d+ t\d+ d\d+ (cuGetProcAddress(?:_v2)?)\(\"([^\"]*)\", [^,]+, (0x[0-9a-f]+|0), (0x[0-9a-f]+|0)", line)
        if m:
            pending = (m.group(2), int(m.group(3), 16), int(m.group(4), 16))
            if line.endswith(" = 0"):
                continue
            out.append(f"proc {pending[0]} {pending[1]} {pending[2]} -> error {line.rsplit(' = ', 1)[1]}")
            pending = None
            continue
        m = re.match(r"## proc (\S+)@(\d+) -> (\S+)", line)
        if m and pending:
            out.append(f"proc {pending[0]} {pending[1]} {pending[2]} -> {m.group(3)}")
            pending = None
            continue
        if line.startswith("## real driver"):
            continue
        line = re.sub(r"^([=<>]) \d+ t\d+ d(\d+) ", lambda m: f"{m.group(1)} d{m.group(2)} ", line)
        if line.startswith("## table"):
            line = re.sub(r" at 0x[0-9a-f]+", "", line)
            line = re.sub(r"code:0x[0-9a-f]+", "code", line)
        line = ADDR.sub(tag, line)
        out.append(line)
    sys.stdout.write("\n".join(out) + "\n")

if __name__ == "__main__":
    main()
