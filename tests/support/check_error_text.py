#!/usr/bin/env python3
"""Fails when code decides what happened by searching an error's text.

Consumers must branch on support::ErrorKind / the typed errors of
support/Error.h (isA<>, errorKind, handleErrors), never on the wording of a
message. This scans the tree's C/C++ sources outside the assertions of unit
tests (EXPECT_/ASSERT_ lines check wording on purpose) for searches of
message-like literals and for toString(...).find(...). Known sites still
pending (inside cudart-shim/ and emu/, owned by the runtime work) are listed
in error-text-allowlist.txt with a reason; an entry that no longer matches
anything is an error too, so the list can only shrink. Besides literals with
words of failure, any literal searched for in a variable named like a report
(Msg, Printed, detail, ...) is flagged: the runtime once decided launch
faults by `Msg.find("bytes of LDS exceed")` and `Printed.find("Assertion `")`,
which the word list alone did not catch.

usage: check_error_text.py SOURCE_ROOT | --selftest
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(sys.argv[1]).resolve()
ALLOW = pathlib.Path(__file__).with_name("error-text-allowlist.txt")
SELFTEST = sys.argv[1] == "--selftest"

WORDS = (r"(unsupported|not supported|not implemented|not modelled|assert|fault|trap|time ?out|timed out|hang|"
         r"resident|error|fail|invalid|cannot|unknown|illegal|abort|exceed|geometry|overflow|outside|"
         r"out of|no such|rejected|refused|misaligned|deadlock)")
# Variables that hold an error's or a run's report: searching them for a
# literal decides by text, whatever the words.
REPORT_VARS = r"\b\w*(msg|message|err|error|errors|what|why|detail|details|printed|reason|diag|report|stderr)\w*"
PATTERNS = [
    # x.find("... unsupported ..."), StringRef::contains("...error..."), strstr(msg, "...")
    re.compile(r"\b(find|rfind|contains|contains_insensitive|starts_with|startswith|ends_with|endswith|count|strstr|search)\s*\(\s*(?:[A-Za-z_][\w.>-]*\s*,\s*)?\"[^\"]*" + WORDS + r"[^\"]*\"", re.I),
    # llvm::toString(E).find(...) / message().find(...)
    re.compile(r"(toString\s*\(.*\)|message\s*\(\s*\))\s*\.\s*(find|rfind|contains|starts_with|ends_with)\s*\(", re.I),
    # Msg.find("..."), Printed.find("..."), errText->contains("..."), whatever the literal
    re.compile(REPORT_VARS + r"\s*(\.|->)\s*(find|rfind|contains|contains_insensitive|starts_with|startswith|ends_with|endswith|count)\s*\(\s*\"", re.I),
    # std::regex over a message
    re.compile(r"regex_(search|match)\s*\(\s*(msg|message|err|error|what|text)\b", re.I),
]
SUFFIXES = {".cpp", ".h", ".c", ".cc", ".hpp", ".def", ".inc"}


def tracked_files():
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip():
        return [ROOT / p for p in out.stdout.splitlines()]
    return [p for p in ROOT.rglob("*") if p.is_file() and "build" not in p.parts]


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
        entries.append([path.strip(), snippet.strip(), reason.strip(), 0])
    return entries


def main():
    allow = load_allowlist()
    bad = []
    for f in tracked_files():
        if f.suffix not in SUFFIXES or not f.is_file():
            continue
        rel = f.relative_to(ROOT).as_posix()
        if rel.startswith(("tests/corpus/", "build/")):
            continue
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            code = line.split("//", 1)[0]
            if re.search(r"\b(EXPECT|ASSERT)_\w+\s*\(", code):
                continue
            if not any(p.search(code) for p in PATTERNS):
                continue
            hit = next((e for e in allow if e[0] == rel and e[1] in line), None)
            if hit:
                hit[3] += 1
            else:
                bad.append(f"{rel}:{n}: {line.strip()}")
    stale = [f"{e[0]}: {e[1]}" for e in allow if e[3] == 0]
    for b in bad:
        print(f"error: decides by error text (use support::ErrorKind): {b}")
    for s in stale:
        print(f"error: allow-list entry matches nothing any more; remove it: {s}")
    if bad or stale:
        return 1
    print(f"ok: no consumer inspects error text ({len(allow)} pending allow-listed sites)")
    return 0


def selftest():
    """The patterns catch the shapes that existed in the tree, and skip assertions."""
    bad = [
        'cudaError_t Code = Msg.find("device assertion failed") != std::string::npos;',
        'if (lower.find("unsupported") != std::string::npos) {',
        'if (llvm::toString(std::move(E)).find("trap") != npos)',
        'bool t = StringRef(M).contains("timed out");',
        'size_t at = line.find(": error: ");',
        # the two sites the first version of this check missed, and isa's
        'else if (Msg.find("bytes of LDS exceed") != std::string::npos) Code = Errc::InvalidValue;',
        'else if (Msg.find("threads exceeds") != std::string::npos) Code = Errc::InvalidConfiguration;',
        'if (Msg.find("s_trap") != std::string::npos && Printed.find("Assertion `") != std::string::npos)',
        'else if (Msg.find("bad launch geometry") != npos) Code = X;',
        'if (Detail.contains("out of device memory")) return Errc::MemoryAllocation;',
    ]
    good = [
        'EXPECT_NE(S.find("trap"), std::string::npos) << S;',
        'size_t e = text.find("\\n}\\n", pos);',
        'if (E.isA<support::UnsupportedError>()) {',
        'if (name.starts_with("__ptx_")) return true;',
        'size_t nl = Fmt.find("%s");',
        'auto It = Sizes.find(Addr);',
    ]
    def flagged(line):
        code = line.split("//", 1)[0]
        if re.search(r"\b(EXPECT|ASSERT)_\w+\s*\(", code):
            return False
        return any(p.search(code) for p in PATTERNS)
    errors = [f"not caught: {l}" for l in bad if not flagged(l)] + [f"false alarm: {l}" for l in good if flagged(l)]
    for e in errors:
        print("selftest:", e)
    print("selftest:", "FAILED" if errors else "ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(selftest() if SELFTEST else main())
