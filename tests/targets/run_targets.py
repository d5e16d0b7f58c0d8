#!/usr/bin/env python3
"""Target sweep of one corpus program: translate its PTX for a group of AMDGPU targets and check
every resulting code object. The PTX is the public corpus suite's (tests/corpus: nvcc -ptx for
sm_75/80/90/100, kept in build/tests/corpus/work/<prog>/<sm>/); its tests are the fixtures.

Modes:
  (default)  one `ptx2amd -O3 --offload-arch=A --offload-arch=B ...` run for the group's targets
             (one parse + translation shared by all targets; an offload bundle comes out), then
             for every target's code object in the bundle:
               * ELF64, EM_AMDGPU, ELF e_flags naming the target, amdhsa.target ending in --<arch>
               * amdhsa.kernels names == the PTX .entry names (each exactly once), each kernel's
                 .symbol == <name>.kd and one <name>.kd symbol in the symbol table
               * .wavefront_size == 32 (gfx10+) or 64 (gfx9)
               * warp policy (wave64 only): pad kernels have the trailing __ptx2amd_block_dim
                 kernarg and pack kernels do not
               * .max_flat_workgroup_size == the bound the PTX asks for (.reqntid/.maxntid product, or
                 1024 without one) in hardware work-items: x1 for native/pack, 64*ceil(T/32) capped at
                 1024 for pad; .reqd_workgroup_size likewise for .reqntid kernels
             and ptx2amd must exit 0 with no 'error:' diagnostic.
Under --policy=pad, a kernel whose .maxntid/.reqntid exceeds 512 threads cannot run padded (an AMD
work-group holds at most 1024 work-items): the whole-module pad run must then fail with exactly the
"N threads per block need M work-items under --warp-policy=pad" error for one of those kernels, and
the sweep is repeated with --warp-policy=<kernel>=pack for each of them (those kernels are then
checked as pack, the rest as pad). A missing tool or any mismatch fails the case; nothing is skipped.

  --sample   the CI form (README.md "Sampling"): one program, a fixed-rule sample of the full sweep
             that rotates with the seed ($PTX2AMD_TARGETS_SEED, default: the UTC day number). Each run
             checks one PTX ISA level (--sms) and one target of every lowering family (FAMILIES),
             wave64 families under pack or pad; every (sm, target, policy) of the sweep comes up in
             any 24 consecutive seeds (4 levels x 3 targets x 2 policies of the largest wave64 family;
             --selftest checks that). The checks are the shard checks above.
"""
import argparse
import math
import os
import re
import resource
import shlex
import struct
import subprocess
import sys
import time

import yaml

WAVE64 = {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx9-generic", "gfx9-4-generic"}

# Lowering families of the 17 targets (targets of one family take the same lowering paths in
# amdgpu-lower: gfx10.3 / gfx11 (v_wmma) / gfx12 (v_wmma, new encodings); gfx9 without MFMA /
# gfx908 (first MFMA) / gfx90a (MFMA, packed fp32) / gfx94x (MFMA fp8/xf32, gfx950's own ops)).
# --sample checks one member of every family per run; the partition is checked against --archs.
FAMILIES = [
    ["gfx1030"],
    ["gfx1100", "gfx1101", "gfx1102", "gfx1151", "gfx11-generic"],
    ["gfx1200", "gfx1201", "gfx12-generic"],
    ["gfx900", "gfx906", "gfx9-generic"],
    ["gfx908"],
    ["gfx90a"],
    ["gfx942", "gfx950", "gfx9-4-generic"],
]


def sample_seed():
    """$PTX2AMD_TARGETS_SEED if set (to repeat a run), else the UTC day number: every CI run of one
    day checks the same sample, and consecutive days walk through the whole sweep."""
    env = os.environ.get("PTX2AMD_TARGETS_SEED", "")
    if env:
        if not env.isdigit():
            fail(f"PTX2AMD_TARGETS_SEED must be a non-negative integer, not '{env}'")
        return int(env), "PTX2AMD_TARGETS_SEED"
    return int(time.time()) // 86400, "UTC day number"


def sample_plan(seed, index, sms, all_archs):
    """The fixed rule: k = seed + program index; sm = sms[k mod |sms|]; family f checks combination
    (k div |sms| + f) mod |combos_f| of its (target, policy) combinations (wave32: native; wave64:
    pack then pad per target). Returns (sm, {policy: [targets]})."""
    fam_archs = sorted(a for f in FAMILIES for a in f)
    if fam_archs != sorted(all_archs) or len(set(fam_archs)) != len(fam_archs):
        fail(f"internal: FAMILIES {fam_archs} do not partition the targets {sorted(all_archs)}")
    k = seed + index
    sm = sms[k % len(sms)]
    groups = {"native": [], "pack": [], "pad": []}
    for f, members in enumerate(FAMILIES):
        combos = [(a, p) for a in members for p in (("pack", "pad") if a in WAVE64 else ("native",))]
        a, p = combos[(k // len(sms) + f) % len(combos)]
        groups[p].append(a)
    return sm, {p: a for p, a in groups.items() if a}


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, timeout):
    # PTX2AMD_TEST_TIMEOUT_SCALE: a PTX2AMD_SANITIZE build runs slower (tests/CMakeLists.txt).
    timeout = timeout * float(os.environ.get("PTX2AMD_TEST_TIMEOUT_SCALE", "1"))
    t0, c0 = time.monotonic(), child_cpu()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"timed out after {timeout}s: {shlex.join(cmd)}")
    except OSError as e:
        fail(f"cannot run {cmd[0]}: {e}")
    print(f"  {time.monotonic() - t0:7.2f}s wall {child_cpu() - c0:7.2f}s cpu  {shlex.join(cmd)[:300]}")
    return p


def fail(msg):
    print(f"FAIL {msg}")
    sys.exit(1)


def text(b):
    return b.decode("utf-8", "replace")


def tail(b, n=30):
    lines = text(b).rstrip("\n").splitlines()
    return "\n".join(lines[-n:]) if lines else "(no output)"


# ---- PTX facts the checks are computed from --------------------------------------------------

ENTRY_RE = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$%][\w$%]*)\s*\(?", re.M)
DIMS_RE = re.compile(r"\.(maxntid|reqntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?")


def ptx_entries(ptx_text):
    """{entry name: {'maxntid': n or None, 'reqntid': n or None}} from the PTX text (products)."""
    entries = {}
    matches = list(ENTRY_RE.finditer(ptx_text))
    for i, m in enumerate(matches):
        name = m.group(1)
        # Performance directives sit between the parameter list and the body's '{'.
        end = matches[i + 1].start() if i + 1 < len(matches) else len(ptx_text)
        body_at = ptx_text.find("{", m.end())
        header = ptx_text[m.end(): body_at if 0 <= body_at < end else end]
        info = {"maxntid": None, "reqntid": None}
        for d in DIMS_RE.finditer(header):
            info[d.group(1)] = math.prod(int(x) for x in d.groups()[1:] if x)
        if name in entries:
            fail(f"PTX declares .entry {name} twice")
        entries[name] = info
    return entries


def cuda_bound(info):
    if info["reqntid"] is not None:
        return info["reqntid"]
    if info["maxntid"] is not None:
        return info["maxntid"]
    return None


# ---- offload bundle and ELF ------------------------------------------------------------------

def read_bundle(data):
    magic = b"__CLANG_OFFLOAD_BUNDLE__"
    if not data.startswith(magic):
        fail("output is not an uncompressed clang offload bundle")
    (n,) = struct.unpack_from("<Q", data, 24)
    at, out = 32, {}
    for _ in range(n):
        off, size, idlen = struct.unpack_from("<QQQ", data, at)
        ident = data[at + 24: at + 24 + idlen].decode()
        at += 24 + idlen
        out[ident] = data[off: off + size]
    return out


def check_code_object(arch, policy, blob, path, entries, readelf, pack_kernels, timeout):
    """Returns a list of problems (empty = good)."""
    problems = []
    if blob[:4] != b"\x7fELF" or blob[4] != 2 or blob[5] != 1:
        return [f"{arch}: not a little-endian ELF64 file"]
    (machine,) = struct.unpack_from("<H", blob, 18)
    if machine != 224:
        problems.append(f"{arch}: e_machine {machine}, expected EM_AMDGPU (224)")
    with open(path, "wb") as f:
        f.write(blob)
    p = run([readelf, "-h", "--notes", "--symbols", path], timeout)
    if p.returncode != 0:
        return problems + [f"{arch}: llvm-readelf failed: {tail(p.stderr)}"]
    out = text(p.stdout)
    m = re.search(r"^\s*Flags:\s*(.*)$", out, re.M)
    if not m or arch not in [x.strip() for x in m.group(1).split(",")]:
        problems.append(f"{arch}: ELF flags '{m.group(1) if m else '?'}' do not name {arch}")
    m = re.search(r"^[ \t]*---\n(.*?)^\.\.\.$", out, re.M | re.S)
    if not m:
        return problems + [f"{arch}: no NT_AMDGPU_METADATA note"]
    meta = yaml.safe_load(m.group(1))
    target = meta.get("amdhsa.target", "")
    if not re.fullmatch(r"amdgcn-amd-amdhsa--" + re.escape(arch) + r"(:[a-z-]+[+-])*", target):
        problems.append(f"{arch}: amdhsa.target is '{target}'")
    kernels = meta.get("amdhsa.kernels") or []
    names = [k.get(".name") for k in kernels]
    if sorted(names) != sorted(entries):
        missing = sorted(set(entries) - set(names))
        extra = sorted(set(names) - set(entries))
        problems.append(f"{arch}: amdhsa.kernels ({len(names)}) != PTX entries ({len(entries)}); "
                        f"missing {missing[:5]}, extra {extra[:5]}")
    # Kernel descriptor symbols per symbol table (.dynsym is what a loader looks up).
    tables = {}
    for sec in re.split(r"^Symbol table '", out, flags=re.M)[1:]:
        tables[sec.split("'", 1)[0]] = re.findall(r"\sOBJECT\s+\w+\s+\w+\s+\S+\s+(\S+\.kd)$", sec, re.M)
    if ".dynsym" not in tables:
        problems.append(f"{arch}: no .dynsym symbol table")
    wave = 64 if arch in WAVE64 else 32
    for k in kernels:
        name = k.get(".name")
        if name not in entries:
            continue
        info = entries[name]
        if k.get(".symbol") != name + ".kd":
            problems.append(f"{arch}: kernel {name}: .symbol {k.get('.symbol')}")
        for tab, syms in tables.items():
            if syms.count(name + ".kd") != 1:
                problems.append(f"{arch}: kernel {name}: {syms.count(name + '.kd')} '{name}.kd' symbols in {tab}")
        if k.get(".wavefront_size") != wave:
            problems.append(f"{arch}: kernel {name}: wavefront size {k.get('.wavefront_size')}, expected {wave}")
        kpol = "native" if wave == 32 else ("pack" if policy == "pack" or name in pack_kernels else "pad")
        has_dim = any(a.get(".name") == "__ptx2amd_block_dim" for a in k.get(".args", []))
        if has_dim != (kpol == "pad"):
            problems.append(f"{arch}: kernel {name}: __ptx2amd_block_dim kernarg {'present' if has_dim else 'absent'}"
                            f" under {kpol}")
        bound = cuda_bound(info)
        cuda_max = bound if bound is not None else 1024
        hw = min(64 * math.ceil(cuda_max / 32), 1024) if kpol == "pad" else cuda_max
        if k.get(".max_flat_workgroup_size") != hw:
            problems.append(f"{arch}: kernel {name} ({kpol}, PTX bound {bound}): max_flat_workgroup_size "
                            f"{k.get('.max_flat_workgroup_size')}, expected {hw}")
        if info["reqntid"] is not None:
            req = k.get(".reqd_workgroup_size")
            if not req or math.prod(req) != hw:
                problems.append(f"{arch}: kernel {name}: reqd_workgroup_size {req}, expected {hw} work-items")
    return problems


def translate_and_check(args, ptx, archs, policy, extra, entries, pack_kernels, tag):
    # Heavy programs are split into several shards of one policy that share the work directory and
    # may run at the same time: the bundle is named after the shard's first target, so one shard
    # never removes another's.
    out = os.path.join(args.workdir, f"{args.name}.{tag}.{archs[0]}.bundle")
    if os.path.exists(out):
        os.remove(out)
    cmd = [args.ptx2amd, "-O", args.opt, "-j", "1"] + [f"--offload-arch={a}" for a in archs]
    if policy == "pad":
        cmd.append("--warp-policy=pad")
    cmd += extra + [ptx, "-o", out]
    p = run(cmd, args.timeout)
    errs = [l for l in text(p.stderr).splitlines() if "error:" in l]
    if p.returncode != 0 or errs:
        fail(f"ptx2amd {tag}: exit {p.returncode}, {len(errs)} error lines:\n{tail(p.stderr)}")
    with open(out, "rb") as f:
        data = f.read()
    # Several targets make an offload bundle; one target a plain code object.
    bundle = read_bundle(data) if len(archs) > 1 else {f"hipv4-amdgcn-amd-amdhsa--{archs[0]}": data}
    problems = []
    for a in archs:
        blob = bundle.get(f"hipv4-amdgcn-amd-amdhsa--{a}")
        if not blob:
            problems.append(f"{a}: no code object in the bundle")
            continue
        problems += check_code_object(a, policy, blob, os.path.join(args.workdir, f"{args.name}.{tag}.{a}.hsaco"),
                                      entries, args.readelf, pack_kernels, args.timeout)
    if problems:
        fail(f"{tag}: {len(problems)} problems:\n  " + "\n  ".join(problems[:60]))
    os.remove(out)
    for a in archs:
        path = os.path.join(args.workdir, f"{args.name}.{tag}.{a}.hsaco")
        if os.path.exists(path):
            os.remove(path)
    print(f"  ok: {len(archs)} targets x {len(entries)} kernels ({tag})")


SAMPLE_CYCLE = 24  # 4 ISA levels x the largest family's (target, policy) combinations (3 x 2)


def check_sample_rule(all_archs, sms):
    """Every (sm, target, policy) of the full sweep comes up in any SAMPLE_CYCLE consecutive seeds,
    for every program index, and each seed picks one target per family."""
    want = {(sm, a, p) for sm in sms for a in all_archs for p in (("pack", "pad") if a in WAVE64 else ("native",))}
    for index in range(40):
        for start in (0, 7, 20000):
            seen = set()
            for seed in range(start, start + SAMPLE_CYCLE):
                sm, groups = sample_plan(seed, index, sms, all_archs)
                picked = [a for al in groups.values() for a in al]
                if sorted(picked) != sorted({a for a in picked}) or len(picked) != len(FAMILIES):
                    fail(f"selftest sample rule: seed {seed} index {index} picked {groups}")
                seen |= {(sm, a, p) for p, al in groups.items() for a in al}
            if seen != want:
                fail(f"selftest sample rule: index {index}, seeds {start}..{start + SAMPLE_CYCLE - 1} miss "
                     f"{sorted(want - seen)[:8]}")
    print(f"  ok: sample rule covers all {len(want)} (sm, target, policy) in any {SAMPLE_CYCLE} consecutive seeds")


def selftest(args, ptx):
    """The checker must reject wrong code objects: translate the program for one wave64 and one
    wave32 target, then require that correct expectations pass and each mutated one fails. Also
    checks the sample rule's coverage (check_sample_rule)."""
    check_sample_rule([a for a in args.archs.split(",") if a], [s for s in args.sms.split(",") if s])
    with open(ptx, encoding="utf-8", errors="replace") as f:
        entries = ptx_entries(f.read())
    out = os.path.join(args.workdir, f"{args.name}.selftest.bundle")
    p = run([args.ptx2amd, "-O", args.opt, "-j", "1", "--offload-arch=gfx90a", "--offload-arch=gfx1100", ptx,
             "-o", out], args.timeout)
    if p.returncode != 0:
        fail(f"selftest translation failed:\n{tail(p.stderr)}")
    with open(out, "rb") as f:
        bundle = read_bundle(f.read())
    w64, w32 = bundle["hipv4-amdgcn-amd-amdhsa--gfx90a"], bundle["hipv4-amdgcn-amd-amdhsa--gfx1100"]
    tmp = os.path.join(args.workdir, f"{args.name}.selftest.hsaco")
    some = sorted(entries)[0]
    bounded = dict(entries)
    bounded[some] = {"maxntid": 96, "reqntid": None}
    cases = [
        ("correct wave64", "gfx90a", "pack", w64, entries, True),
        ("correct wave32", "gfx1100", "native", w32, entries, True),
        ("an extra PTX entry", "gfx90a", "pack", w64, dict(entries, bogus_kernel={"maxntid": None, "reqntid": None}), False),
        ("a missing PTX entry", "gfx90a", "pack", w64, {k: v for k, v in entries.items() if k != some}, False),
        ("pack object checked as pad", "gfx90a", "pad", w64, entries, False),
        ("wave64 object checked as gfx1100", "gfx1100", "native", w64, entries, False),
        ("wave32 object checked as gfx90a", "gfx90a", "pack", w32, entries, False),
        ("a .maxntid the object does not have", "gfx90a", "pack", w64, bounded, False),
    ]
    for what, arch, pol, blob, ents, good in cases:
        problems = check_code_object(arch, pol, blob, tmp, ents, args.readelf, set(), args.timeout)
        if bool(problems) == good:
            fail(f"selftest '{what}': expected {'no problems' if good else 'problems'}, got {problems}")
        print(f"  ok: {what}: {problems[0] if problems else 'accepted'}")
    os.remove(out)
    os.remove(tmp)
    print(f"PASS selftest {args.name}: {len(cases)} cases")
    return 0


def launch_limit(args, ptx):
    """A pad kernel without a PTX bound translates; the launcher must refuse blocks of more than 512
    threads (scan launches scan_sums with 1024) with its specific error, and run 512 correctly."""
    base = [args.run, ptx, "--arch", "gfx90a", "--warp-policy", "pad", "--kernel", args.kernel, "--grid", "1"]
    p = run(base + ["--block", "1024", "--arg", "buf:i32:1024:iota", "--arg", "i32:1024"], args.timeout)
    err = text(p.stderr) + text(p.stdout)
    want = (f"launch of pad-policy kernel '{args.kernel}': block of 1024 threads exceeds 512")
    if p.returncode == 0 or want not in err:
        fail(f"pad launch with 1024 threads: expected a failure with '{want}', got exit {p.returncode}:\n{err[-2000:]}")
    print(f"  ok: expected launcher error: {want}")
    p = run(base + ["--block", "512", "--arg", "buf:i32:1024:iota", "--arg", "i32:1024", "--dump", "buf0"], args.timeout)
    got = text(p.stdout).split()
    # scan_sums: exclusive prefix sums of its input (iota): element k = k(k-1)/2.
    want_vals = [str(k * (k - 1) // 2) for k in range(1024)]
    if p.returncode != 0 or got[:1] != ["buf0:"] or got[1:] != want_vals:
        fail(f"pad launch with 512 threads: exit {p.returncode}, output {' '.join(got[:12])} ...\n{tail(p.stderr)}")
    print(f"PASS launch-limit {args.kernel}: 1024 threads refused under pad, 512 threads give the exclusive scan")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--selftest", action="store_true", help="check that the checker rejects wrong objects")
    ap.add_argument("--launch-limit", action="store_true", help="pad launch-size check with ptx2amd-run")
    ap.add_argument("--run", help="ptx2amd-run (with --launch-limit)")
    ap.add_argument("--kernel", help="kernel (with --launch-limit)")
    ap.add_argument("--ptx2amd")
    ap.add_argument("--readelf")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--name", required=True, help="program name (file stem)")
    ap.add_argument("--archs", default="", help="comma-separated targets of this shard")
    ap.add_argument("--policy", choices=["native", "pack", "pad"], default="pack")
    ap.add_argument("--opt", default="3")
    ap.add_argument("--timeout", type=int, default=1500)
    ap.add_argument("--ptx", help="the program's PTX (default: <workdir>/<name>.ptx)")
    ap.add_argument("--sample", action="store_true", help="today's sample of the sweep (module docstring)")
    ap.add_argument("--sms", default="", help="with --sample: PTX ISA levels, comma-separated")
    ap.add_argument("--ptx-dir", help="with --sample: <dir>/<sm>/<name>.ptx for each of --sms")
    ap.add_argument("--index", type=int, help="with --sample: the program's index in the corpus")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    ptx = args.ptx or os.path.join(args.workdir, args.name + ".ptx")
    t0, c0 = time.monotonic(), child_cpu()

    if args.sample:
        return sample(args)
    if not os.path.exists(ptx):
        fail(f"{ptx} missing (the corpus test that runs nvcc for it failed or did not run)")
    if args.selftest:
        return selftest(args, ptx)
    if args.launch_limit:
        return launch_limit(args, ptx)
    archs = [a for a in args.archs.split(",") if a]
    sweep(args, ptx, archs, args.policy)
    print(f"PASS {args.name} {args.policy} [{','.join(archs)}] "
          f"{time.monotonic() - t0:.1f}s wall {child_cpu() - c0:.1f}s cpu")
    return 0


def sweep(args, ptx, archs, policy):
    """The shard checks for one policy group of targets (module docstring)."""
    with open(ptx, encoding="utf-8", errors="replace") as f:
        entries = ptx_entries(f.read())
    if not entries:
        fail(f"no .entry in {ptx}")
    for a in archs:
        if (a in WAVE64) != (policy in ("pack", "pad")):
            fail(f"internal: target {a} does not belong in a {policy} group")

    pack_kernels = set()
    if policy == "pad":
        too_big = {n for n, i in entries.items() if cuda_bound(i) is not None and cuda_bound(i) > 512}
        if too_big:
            # The whole-module pad run must stop on exactly this diagnostic.
            cmd = [args.ptx2amd, "-O", args.opt, "-j", "1", f"--offload-arch={archs[0]}", "--warp-policy=pad",
                   ptx, "-o", os.path.join(args.workdir, args.name + ".expect-error.hsaco")]
            p = run(cmd, args.timeout)
            errs = [l for l in text(p.stderr).splitlines() if "error:" in l]
            pat = re.compile(r"error: kernel '([^']+)': (\d+) threads per block need (\d+) work-items under "
                             r"--warp-policy=pad \(maximum 1024, i\.e\. 512 CUDA threads\)")
            good = [m for m in map(pat.search, errs) if m and m.group(1) in too_big
                    and int(m.group(2)) == cuda_bound(entries[m.group(1)])
                    and int(m.group(3)) == 64 * math.ceil(int(m.group(2)) / 32)]
            if p.returncode == 0 or len(errs) != 1 or len(good) != 1:
                fail(f"pad with kernels {sorted(too_big)} above 512 threads: expected exit 1 and exactly the "
                     f"'threads per block need ... work-items under --warp-policy=pad' error, got exit "
                     f"{p.returncode}:\n{tail(p.stderr)}")
            print(f"  ok: expected pad error: {errs[0].strip()}")
            pack_kernels = too_big
    extra = [f"--warp-policy={k}=pack" for k in sorted(pack_kernels)]
    translate_and_check(args, ptx, archs, policy, extra, entries, pack_kernels, policy)
    print(f"  {policy} [{','.join(archs)}]: {len(entries)} kernels"
          f"{' (pack for ' + ','.join(sorted(pack_kernels)) + ')' if pack_kernels else ''}")


def sample(args):
    """--sample: today's slice of the full sweep for one program (sample_plan)."""
    t0, c0 = time.monotonic(), child_cpu()
    sms = [s for s in args.sms.split(",") if s]
    if not sms or args.index is None:
        fail("internal: --sample needs --sms and --index")
    seed, origin = sample_seed()
    sm, groups = sample_plan(seed, args.index, sms, [a for a in args.archs.split(",") if a])
    picked = " ".join(f"{a}/{p}" for p, al in groups.items() for a in al)
    print(f"sample: seed {seed} ({origin}), program index {args.index}: {sm}: {picked}")
    print(f"  (repeat with PTX2AMD_TARGETS_SEED={seed}; the whole sweep: README.md, label targets-full)")
    ptx = os.path.join(args.ptx_dir, sm, args.name + ".ptx")
    if not os.path.exists(ptx):
        fail(f"{ptx} missing (the corpus test that runs nvcc for {sm} failed or did not run)")
    for policy, archs in groups.items():
        sweep(args, ptx, archs, policy)
    print(f"PASS {args.name} sample {sm}: {picked} {time.monotonic() - t0:.1f}s wall {child_cpu() - c0:.1f}s cpu")
    return 0


if __name__ == "__main__":
    sys.exit(main())
