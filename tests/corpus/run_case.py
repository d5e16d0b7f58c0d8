#!/usr/bin/env python3
"""One corpus test case: compile a CUDA program to PTX with nvcc, then check ptx2amd on it.

Steps, each of which must succeed (the case fails on the first failure, nothing is skipped):
  1. nvcc -ptx -arch=<arch> <variant flags> <program flags> prog.cu -o prog.ptx
  2. ptx2amd -fsyntax-only prog.ptx            -> exit 0 and no 'error:' diagnostic
  3. ptx2amd --emit=ptx prog.ptx -o printed.ptx
     ptxas -arch=<the file's own .target> <ptxas flags> printed.ptx  -> accepted
  4. ptx2amd --roundtrip-check prog.ptx        -> parse(print(parse(x))) == parse(x)

Each step's wall and CPU time and the PTX size are printed so the suite's cost can be tracked.
The generated PTX is kept in the work directory (other suites and the fuzzer may reuse it);
the printed copy and the cubin are removed after a passing run.
"""
import argparse
import os
import re
import resource
import shlex
import subprocess
import sys
import time


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(step, cmd, log_lines, timeout):
    # PTX2AMD_TEST_TIMEOUT_SCALE: a PTX2AMD_SANITIZE build runs slower (tests/CMakeLists.txt).
    timeout = timeout * float(os.environ.get("PTX2AMD_TEST_TIMEOUT_SCALE", "1"))
    t0 = time.monotonic()
    c0 = child_cpu()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"FAIL {step}: timed out after {timeout}s: {shlex.join(cmd)}")
        sys.exit(1)
    except OSError as e:
        print(f"FAIL {step}: cannot run {cmd[0]}: {e}")
        sys.exit(1)
    dt = time.monotonic() - t0
    cpu = child_cpu() - c0  # CPU seconds: comparable across loaded and idle machines
    log_lines.append(f"{step:<12} {dt:7.2f}s wall {cpu:7.2f}s cpu  {shlex.join(cmd)}")
    return p, cpu


def tail(data, n=40):
    text = data.decode("utf-8", "replace").rstrip("\n").splitlines()
    return "\n".join(text[-n:]) if text else "(no output)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--ptx2amd", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--arch", required=True, help="e.g. sm_90")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--nvcc-flags", default="", help="variant and program flags (shell-quoted string)")
    ap.add_argument("--ptxas-flags", default="-O0")
    ap.add_argument("--step-timeout", type=int, default=900)
    args = ap.parse_args()

    os.makedirs(args.workdir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(args.src))[0]
    ptx = os.path.join(args.workdir, stem + ".ptx")
    printed = os.path.join(args.workdir, stem + ".printed.ptx")
    cubin = os.path.join(args.workdir, stem + ".printed.cubin")
    for f in (ptx, printed, cubin):
        if os.path.exists(f):
            os.remove(f)
    log = []
    times = {}

    # 1. nvcc -> PTX
    cmd = [args.nvcc, "-ptx", f"-arch={args.arch}"] + shlex.split(args.nvcc_flags) + [args.src, "-o", ptx]
    p, times["nvcc"] = run("nvcc", cmd, log, args.step_timeout)
    if p.returncode != 0 or not os.path.exists(ptx):
        print("\n".join(log))
        print(f"FAIL nvcc (exit {p.returncode}):\n{tail(p.stderr)}")
        return 1
    size = os.path.getsize(ptx)
    with open(ptx, "r", encoding="utf-8", errors="replace") as f:
        head = f.read(1 << 16)
    m = re.search(r"^\s*\.target\s+([A-Za-z0-9_]+)", head, re.M)
    if not m:
        print(f"FAIL: no .target directive in {ptx}")
        return 1
    target = m.group(1)

    # 2. syntax and semantic checks: zero errors.
    p, times["syntax"] = run("syntax-only", [args.ptx2amd, "-fsyntax-only", ptx], log, args.step_timeout)
    errs = [l for l in p.stderr.decode("utf-8", "replace").splitlines() if "error:" in l]
    if p.returncode != 0 or errs:
        print("\n".join(log))
        print(f"FAIL ptx2amd -fsyntax-only (exit {p.returncode}, {len(errs)} error lines):\n{tail(p.stderr)}")
        return 1
    warnings = sum(1 for l in p.stderr.decode("utf-8", "replace").splitlines() if "warning:" in l)

    # 3. print, then ptxas must accept the printed module for the file's own target.
    p, times["print"] = run("emit-ptx", [args.ptx2amd, "--emit=ptx", ptx, "-o", printed], log, args.step_timeout)
    if p.returncode != 0 or not os.path.exists(printed) or os.path.getsize(printed) == 0:
        print("\n".join(log))
        print(f"FAIL ptx2amd --emit=ptx (exit {p.returncode}):\n{tail(p.stderr)}")
        return 1
    cmd = [args.ptxas, f"-arch={target}"] + shlex.split(args.ptxas_flags) + [printed, "-o", cubin]
    p, times["ptxas"] = run("ptxas", cmd, log, args.step_timeout)
    if p.returncode != 0:
        print("\n".join(log))
        print(f"FAIL ptxas rejected the printed PTX (exit {p.returncode}):\n{tail(p.stderr)}")
        print(f"(original: {ptx}, printed: {printed})")
        return 1

    # 4. structural round trip.
    p, times["roundtrip"] = run("roundtrip", [args.ptx2amd, "--roundtrip-check", ptx], log, args.step_timeout)
    if p.returncode != 0:
        print("\n".join(log))
        print(f"FAIL ptx2amd --roundtrip-check (exit {p.returncode}):\n{tail(p.stderr)}\n{tail(p.stdout)}")
        return 1

    print("\n".join(log))
    print(f"PASS {stem} {args.arch} [{args.nvcc_flags}] target={target} ptx_bytes={size} warnings={warnings} "
          + " ".join(f"{k}={v:.2f}s" for k, v in times.items()) + " (cpu)")
    for f in (printed, cubin):
        os.remove(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
