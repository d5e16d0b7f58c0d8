#!/usr/bin/env python3
"""Run one corpus program through ptx2amd's runtime shim (issue 4 items 4-5).

Compiles tests/corpus/<prog>.cu (or the translation units of tests/corpus/multi/<prog>/ with
-rdc=true) with `nvcc -cudart shared` (PTX for compute_90
embedded, plus the program's own `// nvcc-flags:`), runs the executable with
LD_LIBRARY_PATH pointing at the shim (libcudart.so.13 -> amdgpu-emu) and
PTX2AMD_ARCH / PTX2AMD_WARP_POLICY set, and requires: exit status 0, a stdout
line ending in PASS and no line ending in FAIL, and -- when the H200 golden in
tests/golden/programs/ is current (compile and exit status 0, source_sha256
equal to the source's) -- stdout identical to the H200's. Prints the compile
and run wall times.
"""
import argparse, fcntl, hashlib, os, re, subprocess, sys, time


def source_sha256(src):
    """sha256 of a program: its .cu file, or for a multi-file (-rdc) program every file of its
    folder concatenated in name order (as the H200 recording script hashes it)."""
    h = hashlib.sha256()
    for f in ([os.path.join(src, n) for n in sorted(os.listdir(src))] if os.path.isdir(src) else [src]):
        h.update(open(f, "rb").read())
    return h.hexdigest()


def program_sources(corpus, prog):
    """(src, units, nvcc flags) of a program: <corpus>/<prog>.cu, or <corpus>/multi/<prog>/*.cu,
    separately compiled translation units (nvcc -rdc=true) linked into one executable; src is the
    file or the folder (what source_sha256 and the rebuild check look at)."""
    src = os.path.join(corpus, prog + ".cu")
    units = [src]
    multi = os.path.join(corpus, "multi", prog)
    if os.path.isdir(multi):
        src = multi
        units = [os.path.join(multi, n) for n in sorted(os.listdir(multi)) if n.endswith(".cu")]
    extra = ["-rdc=true"] if os.path.isdir(src) else []
    for u in units:
        m = re.search(r"^// nvcc-flags:(.*)$", open(u).read(), re.M)
        if m:
            extra += m.group(1).split()
    return src, units, extra


def newest_mtime(src):
    if os.path.isdir(src):
        return max(os.path.getmtime(os.path.join(src, n)) for n in os.listdir(src))
    return os.path.getmtime(src)


def build_program(nvcc, units, extra, exe, ptx_arch, shared_cudart, object_dir=None):
    """nvcc-compiles a program (its translation units `units`, nvcc flags `extra`) into `exe`, with PTX
    for `ptx_arch` embedded, linked with `-cudart shared` or nvcc's default static cudart. With
    `object_dir` the units are compiled to objects kept there (rebuilt when older than their unit or
    the program's folder) and then linked: a corpus program's shim test (shared cudart) and its
    static-cudart test (tests/driver/run_static.py) then pay for the compilation once. Returns None,
    or the failing command and its output."""
    gencode = ["-gencode", "arch=%s,code=%s" % (ptx_arch, ptx_arch)]
    cudart = ["-cudart", "shared"] if shared_cudart else []
    tmp = exe + ".tmp%d" % os.getpid()
    steps = []
    if object_dir:
        os.makedirs(object_dir, exist_ok=True)
        objs = []
        for u in units:
            o = os.path.join(object_dir, os.path.splitext(os.path.basename(u))[0] + "." + ptx_arch + ".o")
            objs.append(o)
            if not os.path.exists(o) or os.path.getmtime(o) < newest_mtime(os.path.dirname(u) if len(units) > 1 else u):
                steps.append(([nvcc, "-O2", "-std=c++17"] + gencode + ["-c", "-o", o + ".tmp%d" % os.getpid(), u] + extra, o))
        steps.append(([nvcc, "-O2", "-std=c++17"] + cudart + gencode + ["-o", tmp] + objs + extra, exe))
    else:
        steps.append(([nvcc, "-O2", "-std=c++17"] + cudart + gencode + ["-o", tmp] + units + extra, exe))
    for cmd, out in steps:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return "\n".join(["nvcc failed: " + " ".join(cmd), r.stdout, r.stderr])
        os.replace(cmd[cmd.index("-o") + 1], out)
    return None


def pending_goldens(golden_dir):
    """Programs listed in <golden_dir>/PENDING (one `name reason...` a line, # comments): their H200
    golden is awaited, so a run without a current golden must not pass on its self-check alone."""
    path = os.path.join(golden_dir, "PENDING")
    if not os.path.exists(path):
        return set()
    return {l.split()[0] for l in open(path).read().splitlines() if l.strip() and not l.startswith("#")}


def golden_verdict(golden_dir, prog, why):
    """None when the golden state is acceptable, else the reason the test fails: a program listed
    in PENDING without a current golden (awaiting its H200 recording), or listed although its
    golden is current (a stale entry: remove it from PENDING)."""
    if prog not in pending_goldens(golden_dir):
        return None
    if why == "golden current":
        return "golden current but %s is still listed in %s/PENDING: remove the entry" % (prog, golden_dir)
    return "%s (%s is listed in PENDING: its H200 golden must be recorded before this test can pass)" % (why, prog)


def golden(golden_dir, prog, src):
    meta = os.path.join(golden_dir, prog + ".meta")
    out = os.path.join(golden_dir, prog + ".stdout")
    if not (os.path.exists(meta) and os.path.exists(out)):
        return None, "no golden"
    fields = dict(l.split(" ", 1) for l in open(meta).read().splitlines() if " " in l)
    sha = source_sha256(src)
    if fields.get("source_sha256", "").strip() != sha:
        return None, "golden stale (source changed since recording)"
    if fields.get("compile_status", "").strip() != "0" or fields.get("exit_status", "").strip() != "0":
        return None, "golden not valid (H200 run failed)"
    return open(out).read(), "golden current"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--shim-dir", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--arch", required=True)
    ap.add_argument("--policy", default="pack")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--ptx-arch", default="compute_90",
                    help="virtual arch whose PTX is embedded (Thrust's sm_90 PTX uses TMA/mbarrier, not translated yet)")
    ap.add_argument("--device", default="", help="PTX2AMD_DEVICE (empty: the runtime's default, auto)")
    ap.add_argument("--emu-threads", type=int, default=0, help="PTX2AMD_EMU_THREADS (0: emulator default)")
    ap.add_argument("--expect-stderr", action="append", default=[],
                    help="text that must appear in the program's stderr")
    ap.add_argument("--launcher", action="append", default=[],
                    help="run the program through this command (e.g. ptx2amd-exec and its options), "
                         "instead of setting LD_LIBRARY_PATH / PTX2AMD_ARCH / PTX2AMD_WARP_POLICY")
    ap.add_argument("--expect-failure", action="store_true",
                    help="the run must exit non-zero (no PASS line needed, no golden comparison)")
    ap.add_argument("--preload", default="",
                    help="LD_PRELOAD for the program run only (a sanitizer runtime such as libasan.so: its "
                         "allocator and libc interceptors check the uninstrumented runtime); any sanitizer "
                         "report on stderr fails the test")
    ap.add_argument("--golden-name", default="",
                    help="golden files <NAME>.stdout / .meta instead of the program's own (a run with arguments)")
    ap.add_argument("--object-dir", default="",
                    help="keep the program's nvcc objects in DIR/<prog>/ (shared with run_static.py)")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()

    src, units, extra = program_sources(a.corpus, a.prog)
    os.makedirs(a.work, exist_ok=True)
    exe = os.path.join(a.work, a.prog + "." + a.ptx_arch)
    # One compile per program, shared by the target/policy variants (nvcc is the slow part). The
    # lock makes a variant that starts while another compiles (ctest -j) wait for that executable
    # instead of compiling it a second time.
    t0 = time.time()
    with open(exe + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(exe) or os.path.getmtime(exe) < newest_mtime(src):
            failed = build_program(a.nvcc, units, extra, exe, a.ptx_arch, True,
                                   os.path.join(a.object_dir, a.prog) if a.object_dir else None)
            if failed:
                print(failed)
                return 1
    t1 = time.time()
    env = dict(os.environ)
    if not a.launcher:
        env["LD_LIBRARY_PATH"] = a.shim_dir
        env["PTX2AMD_ARCH"] = a.arch
        env["PTX2AMD_WARP_POLICY"] = a.policy
    if a.device:
        env["PTX2AMD_DEVICE"] = a.device
    if a.emu_threads:
        env["PTX2AMD_EMU_THREADS"] = str(a.emu_threads)
    # A PTX2AMD_SANITIZE build (tests/CMakeLists.txt) names its libasan in PTX2AMD_TEST_PRELOAD:
    # this nvcc program (uninstrumented) loads our instrumented libcudart, so the sanitizer runtime
    # must come first. A launcher (ptx2amd-exec, instrumented itself) puts it first for the program.
    preload = a.preload or ("" if a.launcher else os.environ.get("PTX2AMD_TEST_PRELOAD", ""))
    sanitized = bool(preload or os.environ.get("PTX2AMD_TEST_PRELOAD"))
    timeout = a.timeout * float(os.environ.get("PTX2AMD_TEST_TIMEOUT_SCALE", "1"))
    if preload:
        env["LD_PRELOAD"] = preload
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:halt_on_error=1")
    try:
        r = subprocess.run(a.launcher + ([exe] if not a.launcher else ["--", exe]) + a.args, capture_output=True,
                           text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        print("TIMEOUT after %d s" % timeout)
        return 1
    t2 = time.time()
    sys.stdout.write(r.stdout[-6000:])
    sys.stderr.write(r.stderr[-6000:])
    print("compile %.1f s, run %.1f s (%s %s, PTX %s, device %s, emu threads %s)" % (
        t1 - t0, t2 - t1, a.arch, a.policy, a.ptx_arch, a.device or "default", a.emu_threads or "default"))
    ok = True
    if a.expect_failure:
        if sanitized and re.search(r"ERROR: (Address|Leak)Sanitizer|SUMMARY: UndefinedBehaviorSanitizer", r.stderr):
            print("sanitizer report on stderr (%s preloaded)" % (preload or "via the launcher"))
            ok = False
        if r.returncode == 0:
            print("exit status 0, expected a failure")
            ok = False
        for want in a.expect_stderr:
            if want not in r.stderr:
                print("stderr lacks %r" % want)
                ok = False
        print("RESULT", "PASS" if ok else "FAIL")
        return 0 if ok else 1
    if r.returncode != 0:
        print("exit status %d" % r.returncode)
        ok = False
    if sanitized and re.search(r"ERROR: (Address|Leak)Sanitizer|SUMMARY: UndefinedBehaviorSanitizer", r.stderr):
        print("sanitizer report on stderr (%s preloaded)" % (preload or "via the launcher"))
        ok = False
    lines = [l.rstrip() for l in r.stdout.splitlines()]
    if not any(l.endswith("PASS") for l in lines) or any(l.endswith("FAIL") for l in lines):
        print("self-check: no PASS line, or a FAIL line")
        ok = False
    for want in a.expect_stderr:
        if want not in r.stderr:
            print("stderr lacks %r" % want)
            ok = False
    g, why = golden(a.golden, a.golden_name or a.prog, src)
    print("H200 comparison:", why)
    verdict = golden_verdict(a.golden, a.golden_name or a.prog, why)
    if verdict:
        print("H200 golden required:", verdict)
        ok = False
    if g is not None and g != r.stdout:
        print("stdout differs from the H200 golden:\n--- golden\n" + g + "--- emu\n" + r.stdout)
        ok = False
    if a.args and g is not None and not a.golden_name:
        print("(note: run with arguments", a.args, "compared against the default-size golden)")
    print("RESULT", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
