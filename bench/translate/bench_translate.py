#!/usr/bin/env python3
"""Wall time of `ptx2amd -O3` for one AMDGPU target vs `ptxas -O3 -arch=sm_90`
on the same PTX (>= 1 MB), measured side by side in one run, as a ratio.

usage: bench_translate.py [--ptx FILE | --cu FILE] [--arch gfx1100] [--runs 3]
                          [--ptx2amd PATH] [--ptxas PATH] [--nvcc PATH] [-j N] [--json OUT]

The two compilers run alternately (ptxas, ptx2amd, ptxas, ...) so machine load
affects both alike; the reported times are medians of --runs runs, with user
CPU time alongside wall time (on a shared machine user time is the steadier
number). ptx2amd's per-stage times (--time-passes) are those of its median run.
Without --ptx the PTX is generated from --cu (default: the CUB corpus program)
with `nvcc -ptx -arch=sm_90`.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run_timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-4000:])
        raise SystemExit(f'command failed ({p.returncode}): {" ".join(cmd)}')
    user = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, user, p.stderr


def parse_stages(stderr):
    stages = []
    for line in stderr.splitlines():
        parts = line.strip().split(' s  ', 1)
        if len(parts) == 2:
            try:
                stages.append((parts[1], float(parts[0])))
            except ValueError:
                pass
    return stages


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--ptx')
    ap.add_argument('--cu', default=os.path.join(ROOT, 'tests', 'corpus', 'cub_algos.cu'))
    ap.add_argument('--arch', default='gfx1100')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--ptx2amd', default=os.path.join(ROOT, 'build', 'bin', 'ptx2amd'))
    ap.add_argument('--ptxas', default='/usr/local/cuda/bin/ptxas')
    ap.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    ap.add_argument('-j', dest='threads', type=int, default=0, help='ptx2amd codegen threads (0 = all cores)')
    ap.add_argument('--json')
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix='ptx2amd-bench-')
    ptx = a.ptx
    if not ptx:
        ptx = os.path.join(tmp, 'bench.ptx')
        subprocess.run([a.nvcc, '-ptx', '-arch=sm_90', '-std=c++17', a.cu, '-o', ptx], check=True)
    size = os.path.getsize(ptx)
    if size < 1 << 20:
        raise SystemExit(f'{ptx}: {size} bytes; the benchmark needs >= 1 MB of PTX')
    kernels = open(ptx).read().count('.entry ')

    ptxas_cmd = [a.ptxas, '-O3', '-arch=sm_90', ptx, '-o', os.path.join(tmp, 'out.cubin')]
    amd_cmd = [a.ptx2amd, ptx, f'--offload-arch={a.arch}', '-O3', '--time-passes',
               f'-j{a.threads}', '-o', os.path.join(tmp, 'out.hsaco')]
    # One warm-up of each (page cache, lazy binding), not counted.
    run_timed(ptxas_cmd)
    run_timed(amd_cmd)
    ptxas_runs, amd_runs = [], []
    for _ in range(a.runs):
        ptxas_runs.append(run_timed(ptxas_cmd))
        amd_runs.append(run_timed(amd_cmd))
    pw = statistics.median(r[0] for r in ptxas_runs)
    pu = statistics.median(r[1] for r in ptxas_runs)
    aw = statistics.median(r[0] for r in amd_runs)
    au = statistics.median(r[1] for r in amd_runs)
    median_run = sorted(amd_runs, key=lambda r: r[0])[len(amd_runs) // 2]
    stages = parse_stages(median_run[2])

    print(f'PTX: {ptx} ({size / 1e6:.2f} MB, {kernels} kernels), {a.runs} runs each, '
          f'{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}')
    print(f'ptxas -O3 -arch=sm_90       wall {pw:8.3f} s   user+sys {pu:8.3f} s')
    print(f'ptx2amd -O3 {a.arch:<14}  wall {aw:8.3f} s   user+sys {au:8.3f} s')
    print(f'ratio ptx2amd/ptxas         wall {aw / pw:8.2f} x   user+sys {au / pu:8.2f} x')
    print('ptx2amd stages (median run):')
    for name, t in stages:
        print(f'  {t:9.4f} s  {name}')
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(dict(ptx=ptx, bytes=size, kernels=kernels, arch=a.arch, runs=a.runs,
                           cpus=os.cpu_count(), ptxas_wall=pw, ptxas_user=pu, ptx2amd_wall=aw,
                           ptx2amd_user=au, ratio_wall=aw / pw, ratio_user=au / pu,
                           stages=stages), f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
