#!/usr/bin/env python3
"""run_static.py: a corpus program built with nvcc's *default static cudart*, run unmodified through
ptx2amd's libcuda.so.1 (static cudart dlopens libcuda.so.1: LD_LIBRARY_PATH puts ours first).

Compiles tests/corpus/<prog>.cu (or any .cu given with --source) exactly as tests/shim/run_shim.py
does except for `-cudart shared` (PTX for compute_90 embedded, plus the program's `// nvcc-flags:`),
runs it with PTX2AMD_ARCH / PTX2AMD_WARP_POLICY, and requires exit status 0, a line ending in PASS
(corpus programs) and stdout equal to the H200's: tests/golden/programs/<prog>.stdout when current
(run_shim.golden decides), or --golden FILE.

With --shim-dir the program is built with `-cudart shared` instead and runs on ptx2amd's
libcudart.so.13 from that directory (libcuda.so.1 from --driver-dir after it); --link-cuda adds -lcuda
(programs that call the driver API too); --self-check requires a last line PASS; --exit-code N
expects the exit status N (the H200's) instead of 0.

usage: run_static.py --nvcc NVCC --driver-dir DIR --work DIR (--prog NAME --corpus DIR --golden-dir DIR
                     | --source FILE.cu [--golden FILE] [--self-check]) [--arch gfx1100] [--policy pack]
                     [--shim-dir DIR] [--link-cuda] [-- PROGRAM ARGS]
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "shim"))
from run_shim import build_program, golden, golden_verdict, newest_mtime, program_sources  # noqa: E402  (the shim's rules)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--driver-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--prog")
    ap.add_argument("--corpus")
    ap.add_argument("--golden-dir")
    ap.add_argument("--source")
    ap.add_argument("--golden")
    ap.add_argument("--arch", default="gfx1100")
    ap.add_argument("--policy", default="pack")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--shim-dir")
    ap.add_argument("--link-cuda", action="store_true")
    ap.add_argument("--self-check", action="store_true")
    ap.add_argument("--exit-code", type=int, default=0, help="the exit status the H200 run had")
    ap.add_argument("--launcher", help="run through this ptx2amd-exec (it sets the library path itself)")
    ap.add_argument("--relative-file", action="store_true",
                    help="compile in the source's directory so __FILE__ is the bare file name")
    ap.add_argument("--object-dir", default="",
                    help="corpus programs: nvcc objects in DIR/<prog>/, shared with run_shim.py's build of the "
                         "same program (only the link differs)")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    if a.source:
        src, units = a.source, [a.source]
        m = re.search(r"^// nvcc-flags:(.*)$", open(src).read(), re.M)
        extra = m.group(1).split() if m else []
    else:  # a corpus program: one .cu, or the translation units of multi/<prog>/ (-rdc)
        src, units, extra = program_sources(a.corpus, a.prog)
    name = os.path.splitext(os.path.basename(src))[0]
    os.makedirs(a.work, exist_ok=True)
    if a.shim_dir:
        extra = ["-cudart", "shared"] + extra
    if a.link_cuda:
        extra += ["-L" + os.path.join(os.path.dirname(os.path.dirname(a.nvcc)), "lib64", "stubs"), "-lcuda"]
    exe = os.path.join(a.work, name + (".shared" if a.shim_dir else ".static"))
    if a.prog and a.object_dir and not a.relative_file and not a.shim_dir and not a.link_cuda:
        if not os.path.exists(exe) or os.path.getmtime(exe) < newest_mtime(src):
            failed = build_program(a.nvcc, units, extra, exe, "compute_90", False, os.path.join(a.object_dir, a.prog))
            if failed:
                print(failed)
                return 1
    elif not os.path.exists(exe) or os.path.getmtime(exe) < newest_mtime(src):
        tmp = exe + ".tmp%d" % os.getpid()
        where = os.path.dirname(os.path.abspath(src)) if a.relative_file else None
        srcs = [os.path.basename(u) for u in units] if where else units
        cmd = [a.nvcc, "-O2", "-std=c++17", "-gencode", "arch=compute_90,code=compute_90", "-o", os.path.abspath(tmp)] + srcs + extra
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=where)
        if r.returncode != 0:
            print("nvcc failed:", " ".join(cmd), r.stdout, r.stderr, sep="\n")
            return 1
        os.replace(tmp, exe)
    env = dict(os.environ)
    if not a.launcher:
        env["LD_LIBRARY_PATH"] = ":".join(([a.shim_dir] if a.shim_dir else []) + [a.driver_dir])
    env["PTX2AMD_ARCH"] = a.arch
    env["PTX2AMD_WARP_POLICY"] = a.policy
    env["PTX2AMD_DEVICE"] = "emu"
    # A PTX2AMD_SANITIZE build (tests/CMakeLists.txt): its libasan first in the uninstrumented
    # program (a launcher, ptx2amd-exec, is instrumented and does this for the program itself).
    sanitized = bool(os.environ.get("PTX2AMD_TEST_PRELOAD"))
    if sanitized and not a.launcher:
        env["LD_PRELOAD"] = os.environ["PTX2AMD_TEST_PRELOAD"]
    timeout = a.timeout * float(os.environ.get("PTX2AMD_TEST_TIMEOUT_SCALE", "1"))
    try:
        run = [a.launcher, "--device=emu", "--arch=" + a.arch, "--", exe] if a.launcher else [exe]
        r = subprocess.run(run + a.args, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        print("RESULT FAIL (timeout)")
        return 1
    sys.stdout.write(r.stdout[-6000:])
    sys.stdout.write(r.stderr[-3000:])
    if a.golden:
        want, why = open(a.golden).read(), "golden given"
    elif a.prog:
        want, why = golden(a.golden_dir, a.prog, src)
    else:
        want, why = None, "self-checking, no golden"
    ok = r.returncode == a.exit_code
    if sanitized and re.search(r"ERROR: (Address|Leak)Sanitizer|SUMMARY: UndefinedBehaviorSanitizer", r.stderr):
        print("sanitizer report on stderr")
        ok = False
    if a.self_check:
        lines = r.stdout.splitlines()
        ok = ok and bool(lines) and lines[-1] == "PASS"
    if a.prog:
        lines = [l.rstrip() for l in r.stdout.splitlines()]
        ok = ok and any(l.endswith("PASS") for l in lines) and not any(l.endswith("FAIL") for l in lines)
    if want is not None and want != r.stdout:
        print("stdout differs from the H200 golden")
        ok = False
    verdict = golden_verdict(a.golden_dir, a.prog, why) if a.prog and not a.golden else None
    if verdict:
        print("H200 golden required:", verdict)
        ok = False
    print(f"({why}; exit {r.returncode})")
    print("RESULT PASS" if ok else "RESULT FAIL")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
