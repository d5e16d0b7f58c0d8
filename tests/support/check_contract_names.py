#!/usr/bin/env python3
"""Fails when a name or rule of the stages' contract is written outside its one definition.

support/include/support/Contract.h (with DevlibNames.h for the globals the C
device library defines) is where the stages' shared vocabulary lives: the
attribute, metadata and global names, the warp-policy names and their one
parser, the wave-size rule, the default target and the pad block limit. This
scans the code lines (comments stripped) of every tracked C/C++/C source
outside tests/, bench/ and docs/ and reports:
  * a string constant of Contract.h (attr::, md::, global::) spelled as a
    literal elsewhere, or a DevlibNames.h global spelled as an identifier
    elsewhere;
  * a warp-policy name literal ("pack", "pad", "native") outside
    support/lib/Contract.cpp (a second parser or printer of policies);
  * the default target literal outside support/;
  * a wave-size / gfx-generation rule on a processor name (starts_with("gfx9"),
    ... ? 32 : 64 on a target) outside support/;
  * a literal 512 threads-per-block pad limit.
Sites that are other concepts spelled alike (PTX's .pack modifier, the
targets one executor offers) are listed in contract-names-allowlist.txt
with a reason; a stale entry fails too.

usage: check_contract_names.py SOURCE_ROOT | --selftest
"""
import pathlib
import re
import subprocess
import sys

ALLOW = pathlib.Path(__file__).with_name("contract-names-allowlist.txt")
CONTRACT = "support/include/support/Contract.h"
NAMES_H = "support/include/support/DevlibNames.h"
SUFFIXES = {".cpp", ".h", ".c", ".cc", ".hpp", ".def", ".inc"}
SKIP = ("tests/", "bench/", "docs/", "build/")

RULES = [
    # (what, regex, files where it is the definition)
    ("warp-policy name (use support::warpPolicyName / parseWarpPolicyName / parseWarpPolicySpec)",
     re.compile(r'"(pack|pad|native)"'), ("support/lib/Contract.cpp",)),
    ("default target (use support::kDefaultTarget)", re.compile(r'"gfx1100"'), ("support/",)),
    ("wave-size / generation rule on a processor name (use support::waveSizeOf / gfxMajorOf)",
     re.compile(r'(starts_with|startswith|rfind|substr|compare)\s*\(\s*"gfx\d{0,2}"|==\s*"gfx\d{1,2}"'),
     ("support/",)),
    ("pad block limit (use support::kPadMaxBlockThreads)", re.compile(r'\?\s*512\s*:|\b512\s*\?|"pad"\s*\?\s*512'),
     ("support/",)),
]


def strip_comments(text):
    """Code of each line with // and /* */ comments removed (string contents kept)."""
    out, in_block = [], False
    for line in text.splitlines():
        code, i = "", 0
        while i < len(line):
            if in_block:
                j = line.find("*/", i)
                if j < 0:
                    i = len(line)
                else:
                    in_block, i = False, j + 2
                continue
            c = line[i]
            if c == '"':  # copy a string literal whole
                j = i + 1
                while j < len(line) and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                code += line[i:j + 1]
                i = j + 1
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                in_block, i = True, i + 2
            else:
                code += c
                i += 1
        out.append(code)
    return out


def contract_rules(root):
    rules = list(RULES)
    text = (root / CONTRACT).read_text()
    for name, lit in re.findall(r"\b(k\w+)\s*=\s*\"([^\"]+)\"", text):
        if name == "kDefaultTarget":
            continue  # its own rule above
        rules.append((f"contract name support::...::{name} (\"{lit}\")", re.compile('"' + re.escape(lit) + '"'),
                      (CONTRACT,)))
    for macro, ident in re.findall(r"#define\s+(PTX2AMD_[A-Z_]+)\s+(__ptx2amd_\w+)", (root / NAMES_H).read_text()):
        rules.append((f"device-library global {ident} (use {macro} / the support::global constant)",
                      re.compile(r"\b" + re.escape(ident) + r"\b"), (NAMES_H,)))
        rules.append((f"device-library global {ident} as a literal", re.compile('"' + re.escape(ident) + '"'),
                      (NAMES_H,)))
    return rules


def tracked(root):
    out = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("check_contract_names: not a git checkout: " + str(root))
    return [p for p in out.stdout.splitlines() if pathlib.PurePath(p).suffix in SUFFIXES and not p.startswith(SKIP)]


def load_allowlist():
    entries = []
    for n, line in enumerate(ALLOW.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        spec, _, reason = line.partition(" # ")
        path, _, snippet = spec.partition(": ")
        if not reason.strip() or not snippet:
            sys.exit(f"{ALLOW}:{n}: entry needs 'path: snippet # reason'")
        entries.append([path.strip(), snippet.strip(), 0])
    return entries


def scan(files, rules, allow):
    bad = []
    for rel, lines in files:
        for n, code in enumerate(lines, 1):
            for what, rx, home in rules:
                if rel.startswith(home) or not rx.search(code):
                    continue
                hit = next((e for e in allow if e[0] == rel and e[1] in code), None)
                if hit:
                    hit[2] += 1
                else:
                    bad.append(f"{rel}:{n}: {what}: {code.strip()}")
    return bad


def main(root):
    rules, allow = contract_rules(root), load_allowlist()
    files = []
    for rel in tracked(root):
        p = root / rel
        if p.is_file():
            files.append((rel, strip_comments(p.read_text(errors="replace"))))
    bad = scan(files, rules, allow)
    stale = [f"{e[0]}: {e[1]}" for e in allow if e[2] == 0]
    for b in bad:
        print("error: written outside its one definition:", b)
    for s in stale:
        print("error: allow-list entry matches nothing any more; remove it:", s)
    if bad or stale:
        return 1
    print(f"ok: {len(rules)} contract names and rules each in one definition ({len(allow)} allow-listed look-alikes)")
    return 0


def selftest():
    rules = RULES + [("name", re.compile(r'"ptx2amd\.warp-policy"'), (CONTRACT,)),
                     ("global", re.compile(r"\b__ptx2amd_heap\b"), (NAMES_H,))]
    bad = [
        'if (Value == "pack") W = WarpPolicy::Pack;',
        'return P == Pad ? "pad" : "pack";',
        'std::string arch = "gfx1100";',
        'bool gfx10Plus = cpu.starts_with("gfx1");',
        'K.maxThreadsPerBlock = Pad ? 512 : 1024;',
        'llvm::Attribute Pol = F.getFnAttribute("ptx2amd.warp-policy");',
        'GLOBAL struct device_heap *__ptx2amd_heap;',
    ]
    good = [
        'K.maxThreadsPerBlock = Pad ? support::kPadMaxBlockThreads : support::kMaxBlockThreads;',
        '// the "pad" policy runs 32 lanes of 64',
        '/* __ptx2amd_heap -> { u64 base; } */',
        'F.getFnAttribute(support::attr::kWarpPolicy)',
        'if (name.starts_with("__ptx_bar_red_")) return true;',
        'std::string s = "pad it";',
    ]
    errors = []
    for line in bad:
        if not scan([("x.cpp", strip_comments(line))], rules, []):
            errors.append("not caught: " + line)
    for line in good:
        if scan([("x.cpp", strip_comments(line))], rules, []):
            errors.append("false alarm: " + line)
    for e in errors:
        print("selftest:", e)
    print("selftest:", "FAILED" if errors else "ok")
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(selftest() if sys.argv[1] == "--selftest" else main(pathlib.Path(sys.argv[1]).resolve()))
