#!/usr/bin/env python3
"""Static code quality of ptx2amd vs native HIP on the bench/codegen kernels.

usage: compare.py [--arch gfx1100 --arch gfx90a] [--kernels a,b,...] [--ptx2amd PATH]
                  [--nvcc PATH] [--clang PATH] [--objdump PATH] [--readelf PATH]
                  [--src kernels.cu] [--workdir DIR] [--json OUT] [--markdown]

kernels.cu is compiled twice per target from the same source: as CUDA
(nvcc -ptx -arch=sm_90 -O3, then ptx2amd -O3 --offload-arch=<gfx>) and as
native HIP (clang -x hip -O3 --offload-arch=<gfx> -nogpulib
-D__AMDGCN_WAVEFRONT_SIZE=32|64, compat.h supplying the few ROCm device
library functions). For every kernel it reads, from each code object, the
metadata note (.vgpr_count, .sgpr_count, .agpr_count, LDS =
.group_segment_fixed_size, scratch = .private_segment_fixed_size) and the
static instruction count (instructions of the kernel symbol's address range in
llvm-objdump's disassembly, not counting gfx11's s_delay_alu scheduling hints) and prints ours, native and ours/native. Geomeans
of the ratios are over the kernels where both values are non-zero (a ratio
with a zero side is printed as '-'; LDS and scratch are mostly zero).
Exit status 0 when every compile succeeded and every kernel was found in both
code objects; the ratios themselves are measurements, not pass/fail.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
METRICS = ['insts', 'vgpr', 'sgpr', 'lds', 'scratch']
WAVE = {'gfx90a': 64, 'gfx908': 64, 'gfx900': 64, 'gfx906': 64, 'gfx942': 64}


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-2000:] + p.stderr[-4000:])
        raise SystemExit(f'command failed ({p.returncode}): {" ".join(cmd)}')
    return p.stdout


def kernel_metadata(readelf, obj):
    """name -> {vgpr, sgpr, agpr, lds, scratch} from the AMDGPU metadata note."""
    text = run([readelf, '--notes', obj])
    kernels, cur = {}, None
    keys = {'.vgpr_count': 'vgpr', '.sgpr_count': 'sgpr', '.agpr_count': 'agpr',
            '.group_segment_fixed_size': 'lds', '.private_segment_fixed_size': 'scratch'}
    for line in text.splitlines():
        # Kernel-level keys are indented 4 spaces ("  - .args:" opens a kernel).
        if line.startswith('  - .'):
            cur = {}
        m = re.match(r'^ {2}(?: {2}|- )(\.[a-z_]+):\s*(\S+)', line)
        if not m or cur is None:
            continue
        k, v = m.group(1), m.group(2)
        if k == '.name':
            kernels[v] = cur
        elif k in keys:
            cur[keys[k]] = int(v)
    return kernels


def instruction_counts(readelf, objdump, obj):
    """name -> number of instructions in the kernel function symbol's range."""
    ranges = {}
    for line in run([readelf, '-s', '--wide', obj]).splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == 'FUNC':
            ranges[f[7]] = (int(f[1], 16), int(f[1], 16) + int(f[2]))
    addrs = []
    # llvm-objdump prints "\tmnemonic operands  // ADDRESS: ENCODING".
    for line in run([objdump, '-d', obj]).splitlines():
        m = re.match(r'^\s+(\S+).*//\s*([0-9A-Fa-f]{8,}):', line)
        if m and m.group(1) != 's_delay_alu':
            addrs.append(int(m.group(2), 16))
    return {n: sum(1 for a in addrs if lo <= a < hi) for n, (lo, hi) in ranges.items()}


def collect(readelf, objdump, obj):
    md = kernel_metadata(readelf, obj)
    ic = instruction_counts(readelf, objdump, obj)
    out = {}
    for n, m in md.items():
        out[n] = {'insts': ic.get(n, 0), 'vgpr': m.get('vgpr', 0) + m.get('agpr', 0),
                  'sgpr': m.get('sgpr', 0), 'lds': m.get('lds', 0), 'scratch': m.get('scratch', 0)}
    return out


def geomean(xs):
    xs = [x for x in xs if x is not None]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def ratio(a, b):
    return a / b if a and b else (1.0 if a == 0 and b == 0 else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--arch', action='append')
    ap.add_argument('--kernels', help='comma-separated subset (default: all)')
    ap.add_argument('--src', default=os.path.join(HERE, 'kernels.cu'))
    ap.add_argument('--ptx2amd', default=os.path.join(ROOT, 'build', 'bin', 'ptx2amd'))
    ap.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    ap.add_argument('--clang', default='clang++-22')
    ap.add_argument('--objdump', default='llvm-objdump-22')
    ap.add_argument('--readelf', default='llvm-readelf-22')
    ap.add_argument('--workdir')
    ap.add_argument('--json')
    ap.add_argument('--markdown', action='store_true', help='print README-style tables')
    args = ap.parse_args()
    archs = args.arch or ['gfx1100', 'gfx90a']
    want = set(args.kernels.split(',')) if args.kernels else None
    work = args.workdir or tempfile.mkdtemp(prefix='bench-codegen-')
    os.makedirs(work, exist_ok=True)
    inc = os.path.dirname(os.path.abspath(args.src))

    ptx = os.path.join(work, 'kernels.ptx')
    run([args.nvcc, '-ptx', '-arch=sm_90', '-O3', '-I', inc, args.src, '-o', ptx])
    results, ok = {}, True
    for arch in archs:
        ours = os.path.join(work, f'ours.{arch}.hsaco')
        native = os.path.join(work, f'native.{arch}.hsaco')
        run([args.ptx2amd, '-O3', f'--offload-arch={arch}', ptx, '-o', ours])
        run([args.clang, '-x', 'hip', f'--offload-arch={arch}', '-nogpulib', '--cuda-device-only',
             '--no-gpu-bundle-output', f'-D__AMDGCN_WAVEFRONT_SIZE={WAVE.get(arch, 32)}', '-O3',
             '-Wno-unused-command-line-argument', '-I', inc, args.src, '-o', native])
        o, n = collect(args.readelf, args.objdump, ours), collect(args.readelf, args.objdump, native)
        names = sorted(set(o) | set(n))
        if want:
            names = [k for k in names if k in want]
            for k in sorted(want - set(names)):
                print(f'{arch}: kernel {k} not in the suite', file=sys.stderr)
                ok = False
        rows = {}
        for k in names:
            if k not in o or k not in n or not o[k]['insts'] or not n[k]['insts']:
                print(f'{arch}: kernel {k} missing from {"ours" if k not in o else "native"}', file=sys.stderr)
                ok = False
                continue
            rows[k] = {'ours': o[k], 'native': n[k],
                       'ratio': {m: ratio(o[k][m], n[k][m]) for m in METRICS}}
        results[arch] = {'kernels': rows,
                         'geomean': {m: geomean([r['ratio'][m] for r in rows.values()
                                                 if r["ours"][m] and r['native'][m]])
                                     for m in METRICS}}

    fmt = lambda x: '-' if x is None else f'{x:.2f}'
    for arch, r in results.items():
        if args.markdown:
            print(f'\n### {arch}\n')
            print('| kernel | insts ours/native | × | VGPR | × | SGPR | × | LDS | × | scratch |')
            print('|---|---|---|---|---|---|---|---|---|---|')
        else:
            print(f'== {arch}  (ours/native = ratio)')
            print(f'{"kernel":<18}' + ''.join(f'{m:>20}' for m in METRICS))
        for k, row in r['kernels'].items():
            cells = [(row['ours'][m], row['native'][m], row['ratio'][m]) for m in METRICS]
            if args.markdown:
                print(f'| {k} | ' + ' | '.join(f'{a}/{b} | {fmt(x)}' for a, b, x in cells[:4]) +
                      f' | {cells[4][0]}/{cells[4][1]} |')
            else:
                print(f'{k:<18}' + ''.join(f'{f"{a}/{b}={fmt(x)}":>20}' for a, b, x in cells))
        g = r['geomean']
        if args.markdown:
            print(f'| **geomean** | | **{fmt(g["insts"])}** | | **{fmt(g["vgpr"])}** | | '
                  f'**{fmt(g["sgpr"])}** | | {fmt(g["lds"])} | |')
        else:
            print(f'{"geomean":<18}' + ''.join(f'{fmt(g[m]):>20}' for m in METRICS))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1, sort_keys=True)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
