#!/usr/bin/env python3
"""Checks an AMDGPU code object's kernel metadata against the PTX it came from.

usage: check_metadata.py FILE.ptx FILE.hsaco --wave 32|64 [--policy pack|pad] [--private]

Everything expected is computed from the PTX declarations, nothing is
hard-coded: for every .entry
  * .args[i].offset/.size == the .param layout (in order, each at its
    declared .align or natural alignment), kernarg size >= explicit size,
    kernarg align >= the largest param alignment;
  * .max_flat_workgroup_size == the .reqntid/.maxntid product (64 work-items
    per 32-thread warp under pad), 1024 without bounds;
  * .group_segment_fixed_size == the kernel's static .shared bytes (laid out
    at their alignments), plus the 192-byte software-barrier state when the
    kernel uses bar.red / bar.arrive / named barriers;
  * .private_segment_fixed_size >= the .local depot (with --private; -O0
    keeps the depot, higher levels may promote it to registers);
  * .wavefront_size == --wave; exactly one NT_AMDGPU_METADATA note.
Prints one line per kernel checked; exits 1 on the first mismatch.
"""
import argparse
import re
import subprocess
import sys

import yaml

TYPE_BYTES = {'b8': 1, 'u8': 1, 's8': 1, 'b16': 2, 'u16': 2, 's16': 2, 'f16': 2, 'bf16': 2,
              'b32': 4, 'u32': 4, 's32': 4, 'f32': 4, 'f16x2': 4, 'bf16x2': 4,
              'b64': 8, 'u64': 8, 's64': 8, 'f64': 8, 'b128': 16}
SW_BARRIER_STATE = 192  # amdgpu-lower/devlib/barrier.c: 3 x 16 x u32


def align_to(x, a):
    return (x + a - 1) // a * a


def parse_ptx(text):
    kernels = {}
    for m in re.finditer(r'\.entry\s+([\w$]+)\s*\(([^)]*)\)([^{]*)\{', text):
        name, params, directives = m.group(1), m.group(2), m.group(3)
        layout, off, max_align = [], 0, 1
        for p in [x.strip() for x in params.split(',') if x.strip()]:
            pm = re.match(r'\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+[\w$]+(?:\[(\d+)\])?', p)
            if not pm:
                raise SystemExit(f'cannot parse param: {p}')
            elem = TYPE_BYTES[pm.group(2)]
            size = elem * int(pm.group(3)) if pm.group(3) else elem
            align = int(pm.group(1)) if pm.group(1) else elem
            off = align_to(off, align)
            layout.append((off, size))
            off += size
            max_align = max(max_align, align)
        bounds = None
        for key in ('reqntid', 'maxntid'):
            dm = re.search(r'\.' + key + r'\s+([\d\s,]+)', directives)
            if dm and bounds is None:
                dims = [int(x) for x in dm.group(1).replace(',', ' ').split()]
                bounds = 1
                for d in dims:
                    bounds *= d
        # Body: from this '{' to the matching '}'.
        depth, i = 0, m.end() - 1
        while True:
            if text[i] == '{':
                depth += 1
            elif text[i] == '}':
                depth -= 1
                if depth == 0:
                    break
            i += 1
        body = text[m.end():i]
        shared = 0
        for sm in re.finditer(r'^\s*\.shared\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+[\w$]+(?:\[(\d+)\])?\s*;',
                              body, re.M):
            elem = TYPE_BYTES[sm.group(2)]
            align = int(sm.group(1)) if sm.group(1) else elem
            shared = align_to(shared, align) + elem * (int(sm.group(3)) if sm.group(3) else 1)
        sw_barrier = bool(re.search(r'\b(bar|barrier)(\.cta)?\.(red|arrive)\b', body) or
                          re.search(r'\b(bar|barrier)(\.cta)?\.sync(\.aligned)?\s+([1-9]|\d+\s*,)', body))
        if sw_barrier:
            shared = align_to(shared, 4) + SW_BARRIER_STATE
        local = 0
        for lm in re.finditer(r'\.local\s+\.align\s+\d+\s+\.b8\s+[\w$]+\[(\d+)\]', body):
            local += int(lm.group(1))
        kernels[name] = dict(layout=layout, size=off, align=max_align, bounds=bounds,
                             shared=shared, local=local)
    return kernels


def read_metadata(hsaco, readelf):
    out = subprocess.run([readelf, '--notes', hsaco], check=True, capture_output=True, text=True).stdout
    notes = out.count('NT_AMDGPU_METADATA')
    if notes != 1:
        raise SystemExit(f'FAIL: {notes} NT_AMDGPU_METADATA notes (want exactly 1)')
    if 'Invalid AMDGPU Metadata' in out:
        raise SystemExit('FAIL: llvm-readelf reports invalid AMDGPU metadata')
    start = out.index('---')
    end = out.index('\n...', start)
    return yaml.safe_load(out[start:end])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptx')
    ap.add_argument('hsaco')
    ap.add_argument('--wave', type=int, required=True)
    ap.add_argument('--policy', default='pack')
    ap.add_argument('--private', action='store_true')
    ap.add_argument('--readelf', default='llvm-readelf')
    a = ap.parse_args()
    expect = parse_ptx(open(a.ptx).read())
    md = read_metadata(a.hsaco, a.readelf)
    got = {k['.name']: k for k in md['amdhsa.kernels']}
    if set(got) != set(expect):
        raise SystemExit(f'FAIL: kernels {sorted(got)} != PTX entries {sorted(expect)}')
    pad = a.policy == 'pad' and a.wave == 64

    def check(cond, name, what):
        if not cond:
            raise SystemExit(f'FAIL: {name}: {what}')

    for name, e in sorted(expect.items()):
        k = got[name]
        args = k.get('.args', [])
        check(len(args) >= len(e['layout']), name, 'fewer .args than PTX params')
        for i, (off, size) in enumerate(e['layout']):
            check(args[i]['.offset'] == off and args[i]['.size'] == size, name,
                  f'param {i}: metadata offset/size {args[i][".offset"]}/{args[i][".size"]}, PTX {off}/{size}')
        if pad:
            bd = args[len(e['layout'])]
            check(bd.get('.name') == '__ptx2amd_block_dim' and bd['.size'] == 16 and
                  bd['.offset'] == align_to(e['size'], 16), name, f'pad block-dim kernarg {bd}')
        check(k['.kernarg_segment_size'] >= e['size'], name, 'kernarg segment smaller than the params')
        check(k['.kernarg_segment_align'] >= e['align'], name, 'kernarg alignment below a param alignment')
        threads = e['bounds'] or 1024
        want_wg = min(1024, 64 * ((threads + 31) // 32)) if pad else threads
        check(k['.max_flat_workgroup_size'] == want_wg, name,
              f'.max_flat_workgroup_size {k[".max_flat_workgroup_size"]}, want {want_wg}')
        check(k['.group_segment_fixed_size'] == e['shared'], name,
              f'.group_segment_fixed_size {k[".group_segment_fixed_size"]}, PTX static shared {e["shared"]}')
        if a.private:
            check(k['.private_segment_fixed_size'] >= e['local'], name,
                  f'.private_segment_fixed_size {k[".private_segment_fixed_size"]} < .local {e["local"]}')
        check(k['.wavefront_size'] == a.wave, name, f'.wavefront_size {k[".wavefront_size"]}')
        print(f'ok {name}: {len(e["layout"])} params, kernarg {e["size"]}, wg {want_wg}, '
              f'lds {e["shared"]}, local {e["local"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
