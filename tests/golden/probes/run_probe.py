#!/usr/bin/env python3
"""Runs one H200 probe program of tests/golden/probes through the runtime shim on the emulator and
compares its stdout with the H200's, line by line (the probes print one line per form / sample).

  run_probe.py --nvcc NVCC --shim-dir DIR --probes tests/golden/probes --work DIR --prog NAME
               --arch gfx1100|gfx90a [--policy pack|pad] [--generator "gen_NAME.py [OPTIONS]"]
               [--max-diff GROUP=N ...] [--golden NAME --arg ARG ...]

With --generator the probe's .cu is generated into the work folder first (the committed golden's
meta records the sha256 of the generated source, so a generator change makes the golden stale,
which fails the test). The golden is <probes>/<prog>.stdout.zst (zstd) or <prog>.stdout. Prints
the differing lines (at most 20) and "RESULT PASS" / "RESULT FAIL".
--max-diff GROUP=N lets at most N lines whose first word is GROUP differ (a model's documented
residual, e.g. the texture filter's trilinear blend); every other line must be equal. The
per-group counts are printed, so an improvement shows as well as a regression.
--info PREFIX names lines that describe the device rather than answer a case (e.g. the limits a
probe read from cudaDeviceGetAttribute, which differ between the H200 and ours): such a line is
printed from both sides and not compared, but it must be at the same place on both sides; every
other line is compared."""
import argparse, hashlib, os, subprocess, sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--shim-dir", required=True)
    ap.add_argument("--probes", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--arch", required=True)
    ap.add_argument("--policy", default="pack")
    ap.add_argument("--generator")
    ap.add_argument("--nvcc-flags", default="-O2 -std=c++17")
    ap.add_argument("--max-diff", action="append", default=[], metavar="GROUP=N")
    ap.add_argument("--info", action="append", default=[], metavar="PREFIX")
    ap.add_argument("--golden", help="the golden's name (<golden>.meta / .stdout[.zst]; default: the probe's)")
    ap.add_argument("--arg", action="append", default=[], help="an argument of the probe (the golden's meta "
                    "must record the same 'args')")
    a = ap.parse_args()
    work = os.path.join(a.work, "%s.%s.%s" % (a.prog, a.arch, a.policy))  # one per test: they run in parallel
    os.makedirs(work, exist_ok=True)
    if a.generator:
        gen = a.generator.split()  # the generator script, then its options
        subprocess.run([sys.executable, os.path.join(a.probes, gen[0])] + gen[1:] + [work], check=True,
                       stdout=subprocess.DEVNULL)
        src = os.path.join(work, a.prog + ".cu")
    else:
        src = os.path.join(a.probes, a.prog + ".cu")
    gname = a.golden or a.prog
    meta = dict(l.split(" ", 1) for l in open(os.path.join(a.probes, gname + ".meta")).read().splitlines() if " " in l)
    if meta.get("args", "").strip() != " ".join(a.arg):
        print("golden recorded with arguments '%s', not '%s'\nRESULT FAIL" % (meta.get("args", "").strip(), " ".join(a.arg)))
        return 1
    sha = hashlib.sha256(open(src, "rb").read()).hexdigest()
    if meta.get("source_sha256", "").strip() != sha:
        print("golden stale: the probe source changed since the H200 recorded it\nRESULT FAIL")
        return 1
    if meta.get("exit_status", "").strip() != "0":
        print("golden not valid (the H200 run failed)\nRESULT FAIL")
        return 1
    gz = os.path.join(a.probes, gname + ".stdout.zst")
    golden = (subprocess.run(["zstd", "-dc", gz], check=True, capture_output=True, text=True).stdout
              if os.path.exists(gz) else open(os.path.join(a.probes, gname + ".stdout")).read())
    exe = os.path.join(work, a.prog)
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        cmd = [a.nvcc, "-cudart", "shared", "-gencode", "arch=compute_90,code=compute_90"] + a.nvcc_flags.split() + \
              ["-o", exe, src]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print("nvcc failed:", " ".join(cmd), r.stdout, r.stderr, "RESULT FAIL", sep="\n")
            return 1
    env = dict(os.environ, LD_LIBRARY_PATH=a.shim_dir, PTX2AMD_ARCH=a.arch, PTX2AMD_WARP_POLICY=a.policy)
    # A PTX2AMD_SANITIZE build (tests/CMakeLists.txt): its libasan first in the nvcc program.
    if os.environ.get("PTX2AMD_TEST_PRELOAD"):
        env["LD_PRELOAD"] = os.environ["PTX2AMD_TEST_PRELOAD"]
    r = subprocess.run([exe] + a.arg, capture_output=True, text=True, env=env,
                       timeout=900 * float(os.environ.get("PTX2AMD_TEST_TIMEOUT_SCALE", "1")))
    sys.stderr.write(r.stderr[-3000:])
    g, o = golden.splitlines(), r.stdout.splitlines()
    allowed = {k: int(v) for k, v in (m.split("=", 1) for m in a.max_diff)}
    info = lambda l: any(l.startswith(p) for p in a.info)
    for i, (x, y) in enumerate(zip(g, o)):
        if info(x) and x != y:
            print("line %d (device description, not compared):\n  H200: %s\n  emu:  %s" % (i + 1, x, y))
    bad = [(i, x, y) for i, (x, y) in enumerate(zip(g, o)) if x != y and not (info(x) and info(y))]
    per_group = {}
    for i, x, y in bad:
        grp = x.split(" ", 1)[0]
        per_group[grp] = per_group.get(grp, 0) + 1
    over = {k: n for k, n in per_group.items() if n > allowed.get(k, 0)}
    for k in sorted(per_group):
        print("group %s: %d lines differ (allowed %d)%s" % (k, per_group[k], allowed.get(k, 0),
                                                          "  OVER" if k in over else ""))
    for i, x, y in [b for b in bad if b[1].split(" ", 1)[0] in over][:20]:
        print("line %d differs:\n  H200: %s\n  emu:  %s" % (i + 1, x[:300], y[:300]))
    ok = r.returncode == 0 and not over and len(g) == len(o)
    print("%s on %s/%s: %d lines, %d differ, %d vs %d lines, exit %d" %
          (a.prog, a.arch, a.policy, len(g), len(bad), len(g), len(o), r.returncode))
    print("RESULT", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
