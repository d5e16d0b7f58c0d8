#!/usr/bin/env python3
"""Wall time of `ptx2amd -O3` for one AMDGPU target vs `ptxas -O3 -arch=sm_90`
on the same PTX (>= 1 MB), measured side by side in one run, as a ratio.

usage: bench_translate.py [--ptx FILE | --cu FILE] [--arch gfx1100] [--runs 3]
                          [--ptx2amd PATH] [--ptxas PATH] [--nvcc PATH] [-j N] [--json OUT]
                          [--extra PATH ...]

The two compilers run alternately (ptxas, ptx2amd, ptxas, ...) so machine load
affects both alike; the reported times are medians of --runs runs, with user+sys
CPU time and peak RSS (wait4) alongside wall time (on a shared machine CPU time
is the steadier number). ptx2amd's per-stage times (--time-passes) are those of
its median run. --extra PATH (repeatable) adds other ptx2amd binaries to the
alternation (A/B comparisons in one invocation).
Without --ptx the PTX is generated from --cu (default: the CUB corpus program)
with `nvcc -ptx -arch=sm_90`.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run_timed(cmd):
    """(wall s, user+sys CPU s, peak RSS MB, stderr) of one run of cmd, from wait4."""
    with tempfile.TemporaryFile(mode='w+') as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    if p.returncode != 0:
        sys.stderr.write(stderr[-4000:])
        raise SystemExit(f'command failed ({p.returncode}): {" ".join(cmd)}')
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, stderr


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
    ap.add_argument('--extra', action='append', default=[], metavar='PATH',
                    help='another ptx2amd binary run alternately with the same arguments (A/B)')
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

    def amd_cmd(binary):
        return [binary, ptx, f'--offload-arch={a.arch}', '-O3', '--time-passes',
                f'-j{a.threads}', '-o', os.path.join(tmp, 'out.hsaco')]

    binaries = [a.ptx2amd] + a.extra
    load_start = os.getloadavg()[0]
    # One warm-up of each (page cache, lazy binding), not counted.
    run_timed(ptxas_cmd)
    for b in binaries:
        run_timed(amd_cmd(b))
    ptxas_runs, amd_runs = [], [[] for _ in binaries]
    for _ in range(a.runs):
        ptxas_runs.append(run_timed(ptxas_cmd))
        for i, b in enumerate(binaries):
            amd_runs[i].append(run_timed(amd_cmd(b)))
    load_end = os.getloadavg()[0]

    def medians(runs):
        return tuple(statistics.median(r[k] for r in runs) for k in range(3))

    pw, pu, pm = medians(ptxas_runs)
    print(f'PTX: {ptx} ({size / 1e6:.2f} MB, {kernels} kernels), {a.runs} runs each, '
          f'{os.cpu_count()} CPUs, load {load_start:.1f} at start, {load_end:.1f} at end')
    print(f'ptxas -O3 -arch=sm_90        wall {pw:8.3f} s   user+sys {pu:8.3f} s   peak RSS {pm:7.1f} MB')
    print('  user+sys per run: ' + ' '.join(f'{r[1]:.2f}' for r in ptxas_runs))
    results = []
    for b, runs in zip(binaries, amd_runs):
        aw, au, am = medians(runs)
        print(f'ptx2amd -O3 {a.arch} ({b})')
        print(f'                             wall {aw:8.3f} s   user+sys {au:8.3f} s   peak RSS {am:7.1f} MB')
        print(f'  ratio to ptxas             wall {aw / pw:8.2f} x   user+sys {au / pu:8.2f} x   peak RSS {am / pm:5.2f} x')
        print('  user+sys per run: ' + ' '.join(f'{r[1]:.2f}' for r in runs))
        median_run = sorted(runs, key=lambda r: r[1])[len(runs) // 2]
        stages = parse_stages(median_run[3])
        print('  stages (median-CPU run):')
        for name, t in stages:
            print(f'  {t:9.4f} s  {name}')
        results.append(dict(ptx2amd=b, ptx2amd_wall=aw, ptx2amd_user=au, ptx2amd_peak_rss_mb=am,
                            ratio_wall=aw / pw, ratio_user=au / pu, ratio_peak_rss=am / pm,
                            stages=stages))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(dict(ptx=ptx, bytes=size, kernels=kernels, arch=a.arch, runs=a.runs,
                           threads=a.threads, cpus=os.cpu_count(), load_start=load_start,
                           load_end=load_end, ptxas_wall=pw, ptxas_user=pu,
                           ptxas_peak_rss_mb=pm, **results[0], others=results[1:]), f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
