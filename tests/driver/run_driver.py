#!/usr/bin/env python3
"""run_driver.py: one tests/driver program against ptx2amd's libcuda.so.1, stdout vs the H200's.

Builds (once per build tree, under <build>/tests/driver/work) the images of kernels.cu (and kx.ptx
of kernels_ext.cu) exactly as the H200 scripts built them, and the host program with the system C++ compiler
(linked against the toolkit's stub libcuda; at run time LD_LIBRARY_PATH puts ptx2amd's
libcuda.so.1 first). Runs it in the images directory and compares its stdout byte for byte with
golden/<name>.out. Exit 0 on equality, 1 otherwise (with a diff), 2 on a setup failure.

usage: run_driver.py --build DIR --cuda DIR --program NAME (--golden NAME | --self-check) [--arch gfx1100]
                     [--policy pack|pad] [--nvrtc] [--preload LIB] -- ARGS...
"""
import argparse
import difflib
import fcntl
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

IMAGES = {  # image -> nvcc flags (source kernels.cu unless SOURCES names another)
    "k.ptx": ["-ptx", "-arch=sm_90"],
    "kx.ptx": ["-ptx", "-arch=sm_90"],
    "ti.ptx": ["-ptx", "-arch=sm_90"],
    "k.fatbin": ["-fatbin", "-gencode", "arch=compute_90,code=compute_90", "-gencode", "arch=compute_80,code=sm_80"],
    "k_sm80only.fatbin": ["-fatbin", "-gencode", "arch=compute_80,code=sm_80"],
    "k_compressed.fatbin": ["-fatbin", "-gencode", "arch=compute_90,code=compute_90", "-Xfatbin=-compress-all"],
    "k_sm80.cubin": ["-cubin", "-arch=sm_80"],
}

SOURCES = {"kx.ptx": "kernels_ext.cu", "ti.ptx": "tex_int_kernels.cu"}

def stale(out, src):
    """Missing, or older than its source (a changed kernels_ext.cu / program is rebuilt)."""
    return not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src)

def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(f"setup failed: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
        sys.exit(2)
    return r

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--cuda", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--golden", help="golden/<NAME>.out to compare stdout with")
    ap.add_argument("--self-check", action="store_true", help="no golden: the program's last line must be PASS")
    ap.add_argument("--arch", default="gfx1100")
    ap.add_argument("--policy")
    ap.add_argument("--nvrtc", action="store_true")
    ap.add_argument("--preload", default="",
                    help="LD_PRELOAD for the program only (a sanitizer runtime such as libasan.so); "
                         "a sanitizer report on its stderr fails the run")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    work = os.path.join(a.build, "tests", "driver", "work")
    os.makedirs(work, exist_ok=True)
    nvcc = os.path.join(a.cuda, "bin", "nvcc")
    with open(os.path.join(work, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # tests run in parallel; build each product once
        for name, flags in IMAGES.items():
            out = os.path.join(work, name)
            src = os.path.join(HERE, SOURCES.get(name, "kernels.cu"))
            if stale(out, src):
                run([nvcc, *flags, "-o", out + ".tmp", src])
                os.rename(out + ".tmp", out)
        exe = os.path.join(work, a.program)
        if stale(exe, os.path.join(HERE, a.program + ".cpp")):
            cmd = ["c++", "-std=c++17", "-O1", f"-I{a.cuda}/include", "-o", exe + ".tmp",
                   os.path.join(HERE, a.program + ".cpp"), f"-L{a.cuda}/lib64/stubs", "-lcuda", "-ldl"]
            if a.nvrtc:
                cmd += [f"-L{a.cuda}/lib64", "-lnvrtc"]
            run(cmd)
            os.rename(exe + ".tmp", exe)
    env = dict(os.environ)
    libdirs = [os.path.join(a.build, "lib", "driver")]
    if a.nvrtc:
        libdirs.append(os.path.join(a.cuda, "lib64"))
    env["LD_LIBRARY_PATH"] = ":".join(libdirs + [env.get("LD_LIBRARY_PATH", "")])
    env["PTX2AMD_ARCH"] = a.arch
    env["PTX2AMD_DEVICE"] = "emu"
    if a.policy:
        env["PTX2AMD_WARP_POLICY"] = a.policy
    # PTX2AMD_TEST_PRELOAD: a PTX2AMD_SANITIZE build's libasan (tests/CMakeLists.txt); the program
    # is not instrumented but loads our instrumented libcuda, so the runtime must come first.
    preload = a.preload or os.environ.get("PTX2AMD_TEST_PRELOAD", "")
    if preload:
        env["LD_PRELOAD"] = preload
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:halt_on_error=1")
    r = subprocess.run([exe, *a.args], cwd=work, env=env, capture_output=True, text=True,
                       timeout=600 * float(os.environ.get("PTX2AMD_TEST_TIMEOUT_SCALE", "1")))
    if preload and re.search(r"ERROR: (Address|Leak)Sanitizer|SUMMARY: UndefinedBehaviorSanitizer", r.stderr):
        sys.stdout.write(r.stderr[-8000:] + f"\nsanitizer report ({preload} preloaded)\n")
        return 1
    if a.self_check:
        lines = r.stdout.splitlines()
        if r.returncode == 0 and lines and lines[-1] == "PASS":
            return 0
        sys.stdout.write(r.stdout[-4000:] + r.stderr[-4000:] + f"\nself-check failed (exit {r.returncode})\n")
        return 1
    want = open(os.path.join(HERE, "golden", a.golden + ".out")).read()
    if r.stdout == want:
        return 0
    sys.stdout.write(f"stdout differs from golden/{a.golden}.out (exit {r.returncode})\n")
    sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), r.stdout.splitlines(True), "H200", "ptx2amd"))
    sys.stdout.write(r.stderr[-4000:])
    return 1

if __name__ == "__main__":
    sys.exit(main())
