#!/usr/bin/env python3
"""Golden-table generator: per-instruction PTX sweeps for the NVIDIA ground truth.

This script is the single source of truth for the golden tables under tests/golden/.  For every
arithmetic, conversion and bit instruction form (opcode + modifier combination) that the PTX ISA
defines for sm_90 and that issue 3 lists, it emits one tiny kernel

    .visible .entry k_<form>(.param .u64 in0, .param .u64 in1, .param .u64 in2,
                             .param .u64 out, .param .u32 n)

that loads up to three per-thread inputs, applies exactly that one instruction form and stores the
result(s) (predicates as u32 0/1, carry-out captured with addc/subc).  Forms are grouped into one
PTX module per family.  Inputs are never stored: they are regenerated from a recipe + seed by a
splitmix64-based generator implemented identically here (`Inputs`) and in C++
(tests/golden/golden_inputs.h); the tables of special values are emitted from here into
tests/golden/golden_specials.inc so both sides share them, and the manifest carries an FNV-1a hash
of every form's inputs so any divergence between the two implementations is caught (by record.cu
on the H200 and by the CTest check).

Usage:
  gen.py --out DIR            write DIR/<family>.ptx, DIR/plan.txt, DIR/manifest.json
  gen.py --out DIR --prune    additionally assemble each module with `ptxas -arch=sm_90`, drop the
                              forms ptxas rejects (listed in manifest "rejected") and rewrite
  gen.py --specials FILE      write the C++ table of special values
  gen.py --dump-inputs FORM   print the inputs of one form (debugging)
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

MASK64 = (1 << 64) - 1

# ----------------------------------------------------------------------------------------------
# Input classes: value domain of one operand.  bytes = element size in the input buffer.
# ----------------------------------------------------------------------------------------------
CLASSES = {
    # name: (bytes, kind, width)
    "I8": (1, "int", 8), "I16": (2, "int", 16), "I32": (4, "int", 32), "I64": (8, "int", 64),
    "F16": (2, "float", 16), "BF16": (2, "float", 16), "F32": (4, "float", 32),
    "F64": (8, "float", 64), "F16X2": (4, "pair", 32), "BF16X2": (4, "pair", 32),
    "PRED": (4, "pred", 32), "AMT": (4, "amt", 32), "AMT2": (4, "amt2", 32),
    "F8X2": (2, "int", 16),
}
FLOAT_FMT = {  # exponent bits, mantissa bits
    "F16": (5, 10), "BF16": (8, 7), "F32": (8, 23), "F64": (11, 52),
}
PAIR_HALF = {"F16X2": "F16", "BF16X2": "BF16"}


def _fbits(cls, x):
    if cls == "F32":
        return struct.unpack("<I", struct.pack("<f", x))[0]
    if cls == "F64":
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    if cls == "F16":
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if cls == "BF16":
        return struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    raise ValueError(cls)


def _float_specials(cls):
    e, m = FLOAT_FMT[cls]
    w = 1 + e + m
    sign = 1 << (w - 1)
    expall = ((1 << e) - 1) << m
    mmask = (1 << m) - 1
    qbit = 1 << (m - 1)
    one = _fbits(cls, 1.0)
    v = [0, sign, 1, sign | 1, mmask, sign | mmask, 1 << m, sign | (1 << m),
         expall - 1, sign | (expall - 1), expall, sign | expall,
         expall | qbit, sign | expall | qbit, expall | qbit | (0x55 & (qbit - 1)),
         expall | 0x2A, sign | expall | 1,
         one, sign | one, _fbits(cls, 0.5), _fbits(cls, 2.0), one + 1, one - 1,
         _fbits(cls, 3.0), _fbits(cls, -2.5), _fbits(cls, 1.5), _fbits(cls, 0.75),
         _fbits(cls, 1.0 / 3.0) if cls != "BF16" else 0x3EAB, 2 | (1 << (m - 2)) if m > 2 else 2]
    if cls in ("F32", "F64"):
        for x in (2.0 ** 23, 2.0 ** 23 + 1, 2.0 ** 24 + 1 if cls == "F64" else 2.0 ** 24,
                  2.0 ** 31, 2.0 ** 32, 2.0 ** 63, 2.0 ** 64, -(2.0 ** 31), -(2.0 ** 63),
                  2147483520.0, 65504.0, 65520.0, 2.0 ** -24, 2.0 ** -25, 3.14159265358979,
                  1.4142135623730951, 255.5, -0.5, 2.5, 1e-40 if cls == "F64" else 0.1):
            v.append(_fbits(cls, x))
        if cls == "F64":
            v += [_fbits("F64", 2.0 ** 52), _fbits("F64", 2.0 ** 52 + 1), 0x3810000000000000,
                  0x47EFFFFFE0000000, 0x36A0000000000000, _fbits("F64", -(2.0 ** 64)),
                  _fbits("F64", 4294967295.5), _fbits("F64", -2147483648.5)]
        else:
            v += [0x4EFFFFFF, 0x5EFFFFFF, 0xCEFFFFFF, 0x00000010, 0x7F000000, 0x3F7FFFFE]
    else:
        for x in (255.5, -0.5, 2.5, 128.0, 2048.0 if cls == "F16" else 2.0 ** 24,
                  2049.0 if cls == "F16" else 1.0 / 1024):
            v.append(_fbits(cls, x))
    out = []
    for x in v:
        x &= (1 << w) - 1
        if x not in out:
            out.append(x)
    return out


def _int_specials(width):
    mask = (1 << width) - 1
    h = 1 << (width - 1)
    v = [0, 1, 2, 3, mask, mask - 1, h - 1, h, h + 1, h - 2, 0x7F, 0x80, 0xFF, 0x100,
         0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000000,
         31, 32, 33, 63, 64, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA, 0x0123456789ABCDEF,
         0xFEDCBA9876543210, 0x00FF00FF00FF00FF, 24, 0xFFFFFF, 0x1000000]
    out = []
    for x in v:
        x &= mask
        if x not in out:
            out.append(x)
    return out


SPECIALS = {
    "I8": _int_specials(8), "I16": _int_specials(16), "I32": _int_specials(32),
    "I64": _int_specials(64), "F8X2": _int_specials(16),
    "F16": _float_specials("F16"), "BF16": _float_specials("BF16"),
    "F32": _float_specials("F32"), "F64": _float_specials("F64"),
    "PRED": [0, 1],
    "AMT": [0, 1, 2, 7, 8, 15, 16, 17, 23, 24, 31, 32, 33, 47, 48, 63, 64, 65, 127, 128, 255,
            256, 257, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF],
}
SPECIALS["AMT2"] = [(p | (l << 16)) for p in (0, 1, 8, 16, 31, 32, 33, 255)
                    for l in (0, 1, 8, 16, 31, 32, 33, 255)]
# Pairs: the cartesian of a short list of halves.
# The low half runs over the first 18 specials of the half type (zeros, denormals, min normal, max,
# infinities, NaNs incl. payloads, 1.0); the high half over {+0, +inf, qNaN, 1.0}.
for _pc, _hc in PAIR_HALF.items():
    _hs = SPECIALS[_hc]
    SPECIALS[_pc] = [lo | (_hs[hi] << 16) for hi in (0, 10, 12, 17) for lo in _hs[:18]]


def splitmix_next(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class Rng:
    def __init__(self, seed):
        self.s = seed & MASK64

    def next(self):
        self.s, z = splitmix_next(self.s)
        return z


def fnv1a64(data, h=0xCBF29CE484222325):
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & MASK64
    return h


def random_value(cls, rng):
    """One random input of class cls.  Mirrors golden::randomValue in golden_inputs.h."""
    nbytes, kind, width = CLASSES[cls]
    mask = (1 << width) - 1
    if kind == "pair":
        lo = random_value(PAIR_HALF[cls], rng)
        hi = random_value(PAIR_HALF[cls], rng)
        return lo | (hi << 16)
    m = rng.next() % 8
    w = rng.next()
    sp = SPECIALS[cls]
    if kind == "pred":
        return w & 1
    if kind == "amt":
        if m < 6:
            return w % 72
        if m == 6:
            return w & 0xFFFFFFFF
        return sp[w % len(sp)]
    if kind == "amt2":
        if m < 7:
            return (w % 72) | (((w >> 32) % 72) << 16)
        return w & 0xFFFFFFFF
    if kind == "int":
        if m < 4:
            return w & mask
        if m < 6:
            return ((w % 129) - 64) & mask
        if m == 6:
            return sp[w % len(sp)]
        return (sp[w % len(sp)] + ((w >> 32) % 5) - 2) & mask
    # float
    e, mb = FLOAT_FMT[cls]
    if m < 3:
        return w & mask
    if m < 6:
        bias = (1 << (e - 1)) - 1
        ex = bias + ((w >> 1) % 41) - 20
        ex = max(1, min(ex, (1 << e) - 2))
        mant = (w >> 8) & ((1 << mb) - 1)
        return ((w & 1) << (width - 1)) | (ex << mb) | mant
    if m == 6:
        return sp[w % len(sp)]
    return (sp[w % len(sp)] + ((w >> 32) % 5) - 2) & mask


def recipe_rows(recipe, classes):
    kind = recipe["kind"]
    if kind == "exh16":
        return 65536
    if kind == "exh8":
        return 256
    s = [len(SPECIALS[c]) for c in classes]
    if len(classes) == 1:
        spec = s[0]
    else:
        spec = s[0] * s[1]
    return spec + recipe["nrand"]


def gen_inputs(recipe, classes):
    """Returns a list (one per input) of lists of ints.  Mirrors golden::generateInputs."""
    kind = recipe["kind"]
    nin = len(classes)
    if kind in ("exh16", "exh8"):
        assert nin == 1
        return [list(range(65536 if kind == "exh16" else 256))]
    seed = recipe["seed"]
    cols = [[] for _ in range(nin)]
    sp = [SPECIALS[c] for c in classes]
    # Section A: specials (x specials for two-plus inputs; third input drawn among its specials).
    ra = Rng(seed ^ 0x5EC1A1)
    if nin == 1:
        cols[0].extend(sp[0])
    else:
        n0, n1 = len(sp[0]), len(sp[1])
        for r in range(n0 * n1):
            cols[0].append(sp[0][r // n1])
            cols[1].append(sp[1][r % n1])
            if nin == 3:
                cols[2].append(sp[2][ra.next() % len(sp[2])])
    # Section B: random rows.
    rb = Rng(seed)
    for _ in range(recipe["nrand"]):
        for i in range(nin):
            cols[i].append(random_value(classes[i], rb))
    return cols


def inputs_hash(recipe, classes):
    cols = gen_inputs(recipe, classes)
    h = 0xCBF29CE484222325
    for c, col in zip(classes, cols):
        nb = CLASSES[c][0]
        buf = bytearray()
        for x in col:
            buf += x.to_bytes(nb, "little")
        h = fnv1a64(buf, h)
    return h


# ----------------------------------------------------------------------------------------------
# Forms
# ----------------------------------------------------------------------------------------------
TYPE_CLASS = {
    "u8": "I8", "s8": "I8", "b8": "I8", "u16": "I16", "s16": "I16", "b16": "I16",
    "u32": "I32", "s32": "I32", "b32": "I32", "u64": "I64", "s64": "I64", "b64": "I64",
    "f16": "F16", "bf16": "BF16", "f32": "F32", "f64": "F64", "f16x2": "F16X2",
    "bf16x2": "BF16X2", "u16x2": "I32", "s16x2": "I32", "pred": "PRED",
    "e4m3x2": "F8X2", "e5m2x2": "F8X2", "tf32": "I32",
}
CLASS_REG = {"I8": "b16", "I16": "b16", "I32": "b32", "I64": "b64", "F16": "b16", "BF16": "b16",
             "F32": "b32", "F64": "b64", "F16X2": "b32", "BF16X2": "b32", "PRED": "pred",
             "AMT": "b32", "AMT2": "b32", "F8X2": "b16"}
REG_BYTES = {"b16": 2, "b32": 4, "b64": 8, "pred": 4}
TYPE_REG = {"u8": "b16", "s8": "b16", "u16": "b16", "s16": "b16", "b16": "b16", "f16": "b16",
            "bf16": "b16", "e4m3x2": "b16", "e5m2x2": "b16",
            "u32": "b32", "s32": "b32", "b32": "b32", "f32": "b32", "f16x2": "b32",
            "bf16x2": "b32", "u16x2": "b32", "s16x2": "b32", "tf32": "b32",
            "u64": "b64", "s64": "b64", "b64": "b64", "f64": "b64", "pred": "pred"}

FORMS = []  # dicts: family, name, ins (classes), outs (reg kinds), body, exact, bound, notes


def form(family, name, ins, outs, body, exact=True, bound=None, note=None, nrand=None):
    FORMS.append(dict(family=family, name=name, ins=list(ins), outs=list(outs), body=body,
                      exact=exact, bound=bound, note=note, nrand=nrand))


def simple(family, instr, dtype, srcs, exact=True, bound=None, note=None, outreg=None, nrand=None,
           classes=None):
    """instr applied as `instr d, a[, b[, c]]`; srcs = PTX types of the sources."""
    ins = classes or [TYPE_CLASS[t] for t in srcs]
    ops = ["%d0"] + ["%%a%d" % i for i in range(len(srcs))]
    form(family, instr, ins, [outreg or TYPE_REG[dtype]], "%s %s;" % (instr, ", ".join(ops)),
         exact, bound, note, nrand)


INT_T = ["u16", "s16", "u32", "s32", "u64", "s64"]
DIV0 = "rows with a zero divisor are unspecified by the PTX ISA"


def gen_int():
    F = "int"
    for t in INT_T:
        simple(F, "add.%s" % t, t, [t, t])
        simple(F, "sub.%s" % t, t, [t, t])
        for hl in ("lo", "hi"):
            simple(F, "mul.%s.%s" % (hl, t), t, [t, t])
            simple(F, "mad.%s.%s" % (hl, t), t, [t, t, t])
        simple(F, "sad.%s" % t, t, [t, t, t])
        simple(F, "div.%s" % t, t, [t, t], note=DIV0)
        simple(F, "rem.%s" % t, t, [t, t], note=DIV0)
        simple(F, "min.%s" % t, t, [t, t])
        simple(F, "max.%s" % t, t, [t, t])
        if t[0] == "s":
            simple(F, "abs.%s" % t, t, [t])
            simple(F, "neg.%s" % t, t, [t])
    simple(F, "add.sat.s32", "s32", ["s32", "s32"])
    simple(F, "sub.sat.s32", "s32", ["s32", "s32"])
    simple(F, "mad.hi.sat.s32", "s32", ["s32", "s32", "s32"])
    for t, w in (("u16", "u32"), ("s16", "s32"), ("u32", "u64"), ("s32", "s64")):
        simple(F, "mul.wide.%s" % t, w, [t, t])
        form(F, "mad.wide.%s" % t, [TYPE_CLASS[t], TYPE_CLASS[t], TYPE_CLASS[w]], [TYPE_REG[w]],
             "mad.wide.%s %%d0, %%a0, %%a1, %%a2;" % t)
    for t in ("u32", "s32"):
        for hl in ("lo", "hi"):
            simple(F, "mul24.%s.%s" % (hl, t), t, [t, t])
            simple(F, "mad24.%s.%s" % (hl, t), t, [t, t, t])
    simple(F, "mad24.hi.sat.s32", "s32", ["s32", "s32", "s32"])
    for op in ("min", "max"):
        simple(F, "%s.relu.s32" % op, "s32", ["s32", "s32"])
        for t in ("u16x2", "s16x2"):
            simple(F, "%s.%s" % (op, t), t, [t, t])
        simple(F, "%s.relu.s16x2" % op, "s16x2", ["s16x2", "s16x2"])


def gen_carry():
    F = "carry"
    # Carry-in from a predicate input c: add.cc t, c, -1 sets CF = (c != 0); borrow-in for the
    # subtract chain: sub.cc t, 0, c sets the borrow = (c != 0).
    cap_add = "addc.u32 %d1, 0, 0;"
    cap_sub = "subc.u32 %t0, 0, 0; neg.s32 %d1, %t0;"
    for t in ("u32", "s32", "u64", "s64"):
        R = TYPE_REG[t]
        C = TYPE_CLASS[t]
        form(F, "add.cc.%s" % t, [C, C], [R, "b32"], "add.cc.%s %%d0, %%a0, %%a1; %s" % (t, cap_add),
             note="out1 = carry-out (addc.u32 d, 0, 0)")
        form(F, "sub.cc.%s" % t, [C, C], [R, "b32"], "sub.cc.%s %%d0, %%a0, %%a1; %s" % (t, cap_sub),
             note="out1 = borrow-out (subc.u32 t,0,0; neg)")
        cin = "add.cc.u32 %t1, %t2, -1; " if True else ""
        form(F, "addc.%s" % t, [C, C, "PRED"], [R],
             "selp.u32 %%t2, 1, 0, %%a2; add.cc.u32 %%t1, %%t2, -1; addc.%s %%d0, %%a0, %%a1;" % t,
             note="in2 = carry-in")
        form(F, "addc.cc.%s" % t, [C, C, "PRED"], [R, "b32"],
             "selp.u32 %%t2, 1, 0, %%a2; add.cc.u32 %%t1, %%t2, -1; addc.cc.%s %%d0, %%a0, %%a1; %s"
             % (t, cap_add), note="in2 = carry-in, out1 = carry-out")
        form(F, "subc.%s" % t, [C, C, "PRED"], [R],
             "selp.u32 %%t2, 1, 0, %%a2; sub.cc.u32 %%t1, 0, %%t2; subc.%s %%d0, %%a0, %%a1;" % t,
             note="in2 = borrow-in")
        form(F, "subc.cc.%s" % t, [C, C, "PRED"], [R, "b32"],
             "selp.u32 %%t2, 1, 0, %%a2; sub.cc.u32 %%t1, 0, %%t2; subc.cc.%s %%d0, %%a0, %%a1; %s"
             % (t, cap_sub), note="in2 = borrow-in, out1 = borrow-out")
    for t in ("u32", "s32", "u64", "s64"):
        R = TYPE_REG[t]
        C = TYPE_CLASS[t]
        for hl in ("lo", "hi"):
            form(F, "mad.%s.cc.%s" % (hl, t), [C, C, C], [R, "b32"],
                 "mad.%s.cc.%s %%d0, %%a0, %%a1, %%a2; %s" % (hl, t, cap_add),
                 note="out1 = carry-out")
            # madc with carry-in derived from the low bit of c's predicate-free variant: use c as
            # addend and carry-in = (c & 1).
            form(F, "madc.%s.%s" % (hl, t), [C, C, C], [R],
                 "cvt.u32.%s %%t2, %%a2; and.b32 %%t2, %%t2, 1; add.cc.u32 %%t1, %%t2, -1; "
                 "madc.%s.%s %%d0, %%a0, %%a1, %%a2;" % (R.replace("b", "u"), hl, t),
                 note="carry-in = in2 & 1")
            form(F, "madc.%s.cc.%s" % (hl, t), [C, C, C], [R, "b32"],
                 "cvt.u32.%s %%t2, %%a2; and.b32 %%t2, %%t2, 1; add.cc.u32 %%t1, %%t2, -1; "
                 "madc.%s.cc.%s %%d0, %%a0, %%a1, %%a2; %s" % (R.replace("b", "u"), hl, t, cap_add),
                 note="carry-in = in2 & 1, out1 = carry-out")


def gen_bits():
    F = "bits"
    for t in ("b32", "b64"):
        simple(F, "popc.%s" % t, "u32", [t])
        simple(F, "clz.%s" % t, "u32", [t])
        simple(F, "brev.%s" % t, t, [t])
    for t in ("u32", "s32", "u64", "s64"):
        simple(F, "bfind.%s" % t, "u32", [t])
        simple(F, "bfind.shiftamt.%s" % t, "u32", [t])
        simple(F, "bfe.%s" % t, t, [t, "u32", "u32"], classes=[TYPE_CLASS[t], "AMT", "AMT"])
    for t in ("b32", "b64"):
        C = TYPE_CLASS[t]
        form(F, "bfi.%s" % t, [C, C, "AMT2"], [TYPE_REG[t]],
             "and.b32 %%t0, %%a2, 65535; shr.u32 %%t1, %%a2, 16; bfi.%s %%d0, %%a0, %%a1, %%t0, %%t1;" % t,
             note="in2 = pos | len << 16")
    for mode in ("clamp", "wrap"):
        simple(F, "bmsk.%s.b32" % mode, "b32", ["u32", "u32"], classes=["AMT", "AMT"])
        for t in ("u32", "s32"):
            simple(F, "szext.%s.%s" % (mode, t), t, [t, "u32"], classes=["I32", "AMT"])
        for lr in ("l", "r"):
            simple(F, "shf.%s.%s.b32" % (lr, mode), "b32", ["b32", "b32", "u32"],
                   classes=["I32", "I32", "AMT"])
    for m in ("", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"):
        simple(F, "prmt.b32%s" % m, "b32", ["b32", "b32", "b32"])
    for t in ("b16", "b32", "b64"):
        simple(F, "shl.%s" % t, t, [t, "u32"], classes=[TYPE_CLASS[t], "AMT"])
    for t in ("b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"):
        simple(F, "shr.%s" % t, t, [t, "u32"], classes=[TYPE_CLASS[t], "AMT"])
    for lut in (0x00, 0xFF, 0x96, 0xE8, 0xF0, 0xCC, 0xAA, 0x80, 0xFE, 0x1E, 0x6A, 0xB4, 0x3C,
                0x5A, 0xCA, 0x01):
        form(F, "lop3.b32.0x%02X" % lut, ["I32", "I32", "I32"], ["b32"],
             "lop3.b32 %%d0, %%a0, %%a1, %%a2, 0x%02X;" % lut)
    for at in ("u32", "s32"):
        for bt in ("u32", "s32"):
            dt = "s32" if "s32" in (at, bt) else "u32"
            simple(F, "dp4a.%s.%s" % (at, bt), dt, [at, bt, dt])
            for hl in ("lo", "hi"):
                simple(F, "dp2a.%s.%s.%s" % (hl, at, bt), dt, [at, bt, dt])
    simple(F, "fns.b32", "b32", ["b32", "u32", "s32"], classes=["I32", "AMT", "I32"])
    for t in ("b16", "b32", "b64"):
        for op in ("and", "or", "xor"):
            simple(F, "%s.%s" % (op, t), t, [t, t])
        simple(F, "not.%s" % t, t, [t])
        simple(F, "cnot.%s" % t, t, [t])
    for op in ("and", "or", "xor"):
        simple(F, "%s.pred" % op, "pred", ["pred", "pred"])
    simple(F, "not.pred", "pred", ["pred"])


def gen_cmp():
    F = "cmp"
    icmp_s = ["eq", "ne", "lt", "le", "gt", "ge"]
    icmp_u = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"]
    for t in ("b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"):
        cmps = icmp_u if t[0] == "u" else (icmp_s if t[0] == "s" else ["eq", "ne"])
        for c in cmps:
            simple(F, "setp.%s.%s" % (c, t), "pred", [t, t])
    fcmp = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num",
            "nan"]
    for t in ("f32", "f64", "f16", "bf16"):
        for c in fcmp:
            simple(F, "setp.%s.%s" % (c, t), "pred", [t, t])
            if t in ("f32", "f16"):
                simple(F, "setp.%s.ftz.%s" % (c, t), "pred", [t, t])
    for t in ("f16x2", "bf16x2"):
        for c in ("eq", "lt", "geu", "nan"):
            C = TYPE_CLASS[t]
            form(F, "setp.%s.%s" % (c, t), [C, C], ["pred", "pred"],
                 "setp.%s.%s %%d0|%%d1, %%a0, %%a1;" % (c, t))
    for bop in ("and", "or", "xor"):
        for c, t in (("lt", "s32"), ("hi", "u32"), ("ltu", "f32"), ("eq", "f64")):
            C = TYPE_CLASS[t]
            form(F, "setp.%s.%s.%s" % (c, bop, t), [C, C, "PRED"], ["pred", "pred"],
                 "setp.%s.%s.%s %%d0|%%d1, %%a0, %%a1, %%a2;" % (c, bop, t))
            form(F, "setp.%s.%s.%s.notc" % (c, bop, t), [C, C, "PRED"], ["pred"],
                 "setp.%s.%s.%s %%d0, %%a0, %%a1, !%%a2;" % (c, bop, t))
    for dt in ("u32", "s32", "f32"):
        for c, t in (("lt", "s32"), ("ge", "u32"), ("hs", "u64"), ("ltu", "f32"), ("gt", "f32"),
                     ("nan", "f64"), ("ne", "f16")):
            simple(F, "set.%s.%s.%s" % (c, dt, t), dt, [t, t])
        simple(F, "set.lt.ftz.%s.f32" % dt, dt, ["f32", "f32"])
        form(F, "set.gt.and.%s.s32" % dt, ["I32", "I32", "PRED"], ["b32"],
             "set.gt.and.%s.s32 %%d0, %%a0, %%a1, %%a2;" % dt)
    for t in ("f16x2", "bf16x2"):
        for dt in ("u32", "f16x2" if t == "f16x2" else "bf16x2"):
            simple(F, "set.lt.%s.%s" % (dt, t), dt, [t, t])
    for t in ("b16", "b32", "b64", "u32", "s32", "f32", "f64"):
        simple(F, "selp.%s" % t, t, [t, t, "pred"])
    for dt in ("b16", "b32", "b64", "u32", "s32", "f32", "f64"):
        simple(F, "slct.%s.s32" % dt, dt, [dt, dt, "s32"])
    for dt in ("b32", "u32", "f32"):
        simple(F, "slct.%s.f32" % dt, dt, [dt, dt, "f32"])
        simple(F, "slct.ftz.%s.f32" % dt, dt, [dt, dt, "f32"])


RNDS = ["", ".rn", ".rz", ".rm", ".rp"]


def gen_f32():
    F = "f32"
    for op in ("add", "sub", "mul"):
        for r in RNDS:
            for ftz in ("", ".ftz"):
                for sat in ("", ".sat"):
                    simple(F, "%s%s%s%s.f32" % (op, r, ftz, sat), "f32", ["f32", "f32"])
    for op in ("fma", "mad"):
        for r in RNDS[1:]:
            for ftz in ("", ".ftz"):
                for sat in ("", ".sat"):
                    simple(F, "%s%s%s%s.f32" % (op, r, ftz, sat), "f32", ["f32"] * 3)
    for ftz in ("", ".ftz"):
        simple(F, "div.approx%s.f32" % ftz, "f32", ["f32", "f32"], exact=False, bound=2,
               note="PTX ISA: max ulp error 2 over the full range of b in [2^-126, 2^126]")
        simple(F, "div.full%s.f32" % ftz, "f32", ["f32", "f32"], exact=False, bound=2,
               note="PTX ISA: max 2 ulp, full range")
        for r in RNDS[1:]:
            simple(F, "div%s%s.f32" % (r, ftz), "f32", ["f32", "f32"])
            simple(F, "rcp%s%s.f32" % (r, ftz), "f32", ["f32"], nrand=8192)
            simple(F, "sqrt%s%s.f32" % (r, ftz), "f32", ["f32"], nrand=8192)
        simple(F, "rcp.approx%s.f32" % ftz, "f32", ["f32"], exact=False, bound=1, nrand=8192,
               note="PTX ISA: max 1 ulp")
        simple(F, "sqrt.approx%s.f32" % ftz, "f32", ["f32"], exact=False, bound=1, nrand=8192,
               note="PTX ISA: max relative error 2^-23")
        simple(F, "rsqrt.approx%s.f32" % ftz, "f32", ["f32"], exact=False, bound=2, nrand=8192,
               note="PTX ISA: max relative error 2^-22.9")
        for fn, b, n in (("sin", None, "PTX ISA: max absolute error 2^-20.5 in [-pi, pi]"),
                         ("cos", None, "PTX ISA: max absolute error 2^-20.5 in [-pi, pi]"),
                         ("lg2", None, "PTX ISA: max absolute error 2^-22 (ftz: 2^-22.6) for x in [0.5, 2]; else relative 2^-22"),
                         ("ex2", 2, "PTX ISA: max 2 ulp (input-dependent) across the full range")):
            simple(F, "%s.approx%s.f32" % (fn, ftz), "f32", ["f32"], exact=False, bound=b,
                   nrand=8192, note=n)
        for op in ("min", "max"):
            simple(F, "%s%s.f32" % (op, ftz), "f32", ["f32", "f32"])
            simple(F, "%s%s.NaN.f32" % (op, ftz), "f32", ["f32", "f32"])
        simple(F, "abs%s.f32" % ftz, "f32", ["f32"])
        simple(F, "neg%s.f32" % ftz, "f32", ["f32"])
        for t in ("finite", "infinite", "number", "notanumber", "normal", "subnormal"):
            pass
    simple(F, "tanh.approx.f32", "f32", ["f32"], exact=False, bound=None, nrand=8192,
           note="PTX ISA: max relative error 2^-10.987")
    for op in ("min", "max"):
        simple(F, "%s.xorsign.abs.f32" % op, "f32", ["f32", "f32"])
        simple(F, "%s.NaN.xorsign.abs.f32" % op, "f32", ["f32", "f32"])
        simple(F, "%s.ftz.NaN.xorsign.abs.f32" % op, "f32", ["f32", "f32"])
    simple(F, "copysign.f32", "f32", ["f32", "f32"])
    for t in ("finite", "infinite", "number", "notanumber", "normal", "subnormal"):
        simple(F, "testp.%s.f32" % t, "pred", ["f32"], nrand=8192)


def gen_f64():
    F = "f64"
    for op in ("add", "sub", "mul"):
        for r in RNDS:
            simple(F, "%s%s.f64" % (op, r), "f64", ["f64", "f64"])
    for op in ("fma", "mad"):
        for r in RNDS[1:]:
            simple(F, "%s%s.f64" % (op, r), "f64", ["f64"] * 3)
    for r in RNDS[1:]:
        simple(F, "div%s.f64" % r, "f64", ["f64", "f64"])
        simple(F, "rcp%s.f64" % r, "f64", ["f64"], nrand=8192)
        simple(F, "sqrt%s.f64" % r, "f64", ["f64"], nrand=8192)
    simple(F, "rcp.approx.ftz.f64", "f64", ["f64"], exact=False, nrand=8192,
           note="PTX ISA: approximation, error bound not given numerically (about 2^-20 relative)")
    simple(F, "rsqrt.approx.f64", "f64", ["f64"], exact=False, nrand=8192,
           note="PTX ISA: approximation, error bound not given numerically")
    simple(F, "rsqrt.approx.ftz.f64", "f64", ["f64"], exact=False, nrand=8192,
           note="PTX ISA: approximation, error bound not given numerically")
    for op in ("min", "max"):
        simple(F, "%s.f64" % op, "f64", ["f64", "f64"])
    simple(F, "abs.f64", "f64", ["f64"])
    simple(F, "neg.f64", "f64", ["f64"])
    simple(F, "copysign.f64", "f64", ["f64", "f64"])
    for t in ("finite", "infinite", "number", "notanumber", "normal", "subnormal"):
        simple(F, "testp.%s.f64" % t, "pred", ["f64"], nrand=8192)


def gen_half():
    F = "half"
    for t in ("f16", "f16x2"):
        for op in ("add", "sub", "mul"):
            for r in ("", ".rn"):
                for ftz in ("", ".ftz"):
                    for sat in ("", ".sat"):
                        simple(F, "%s%s%s%s.%s" % (op, r, ftz, sat, t), t, [t, t])
        for ftz in ("", ".ftz"):
            for sat in ("", ".sat"):
                simple(F, "fma.rn%s%s.%s" % (ftz, sat, t), t, [t, t, t])
        simple(F, "fma.rn.relu.%s" % t, t, [t, t, t])
        simple(F, "fma.rn.ftz.relu.%s" % t, t, [t, t, t])
        for ftz in ("", ".ftz"):
            simple(F, "neg%s.%s" % (ftz, t), t, [t])
            simple(F, "abs%s.%s" % (ftz, t), t, [t])
            for op in ("min", "max"):
                simple(F, "%s%s.%s" % (op, ftz, t), t, [t, t])
                simple(F, "%s%s.NaN.%s" % (op, ftz, t), t, [t, t])
        for op in ("min", "max"):
            simple(F, "%s.xorsign.abs.%s" % (op, t), t, [t, t])
            simple(F, "%s.NaN.xorsign.abs.%s" % (op, t), t, [t, t])
        simple(F, "ex2.approx.%s" % t, t, [t], exact=False, bound=None,
               note="PTX ISA: max relative error 2^-9.9")
        simple(F, "ex2.approx.ftz.%s" % t, t, [t], exact=False, bound=None,
               note="PTX ISA: max relative error 2^-9.9")
        simple(F, "tanh.approx.%s" % t, t, [t], exact=False, bound=None,
               note="PTX ISA: max absolute error 2^-10.987 (relative for |x| small)")
    for t in ("bf16", "bf16x2"):
        for op in ("add", "sub", "mul"):
            for r in ("", ".rn"):
                simple(F, "%s%s.%s" % (op, r, t), t, [t, t])
        simple(F, "fma.rn.%s" % t, t, [t, t, t])
        simple(F, "fma.rn.relu.%s" % t, t, [t, t, t])
        simple(F, "neg.%s" % t, t, [t])
        simple(F, "abs.%s" % t, t, [t])
        for op in ("min", "max"):
            simple(F, "%s.%s" % (op, t), t, [t, t])
            simple(F, "%s.NaN.%s" % (op, t), t, [t, t])
            simple(F, "%s.xorsign.abs.%s" % (op, t), t, [t, t])
            simple(F, "%s.NaN.xorsign.abs.%s" % (op, t), t, [t, t])
        simple(F, "ex2.approx.ftz.%s" % t, t, [t], exact=False, bound=None,
               note="PTX ISA: max relative error 2^-7")
        simple(F, "tanh.approx.%s" % t, t, [t], exact=False, bound=None,
               note="PTX ISA: max absolute error 2^-8 (approx.)")


INTS = ["u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64"]
FLTS = ["f16", "bf16", "f32", "f64"]
FBITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def cvt(family, mods, dt, st):
    instr = "cvt%s.%s.%s" % (mods, dt, st)
    simple(family, instr, dt, [st])


def gen_cvt():
    F = "cvt"
    for dt in INTS:
        for st in INTS:
            if dt == st:
                continue
            cvt(F, "", dt, st)
            cvt(F, ".sat", dt, st)
    G = "cvtfi"
    for dt in INTS:
        for st in FLTS:
            for r in (".rni", ".rzi", ".rmi", ".rpi"):
                cvt(G, r, dt, st)
                if st == "f32":
                    cvt(G, r + ".ftz", dt, st)
                if dt in ("s32", "u8"):
                    cvt(G, r + ".sat", dt, st)
    H = "cvtif"
    for dt in FLTS:
        for st in INTS:
            for r in (".rn", ".rz", ".rm", ".rp"):
                cvt(H, r, dt, st)
                if dt == "f32":
                    cvt(H, r + ".sat", dt, st)
    J = "cvtff"
    for dt in FLTS:
        for st in FLTS:
            if dt == st:
                for r in (".rni", ".rzi", ".rmi", ".rpi"):
                    cvt(J, r, dt, st)
                    if dt in ("f32", "f16"):
                        cvt(J, r + ".ftz", dt, st)
                    cvt(J, r + ".sat", dt, st)
                if dt == "f32":
                    cvt(J, ".ftz", dt, st)
                    cvt(J, ".sat", dt, st)
                    cvt(J, ".ftz.sat", dt, st)
            elif FBITS[dt] > FBITS[st] or (dt, st) == ("f32", "bf16"):
                cvt(J, "", dt, st)
                if st == "f32" or dt == "f32":
                    cvt(J, ".ftz", dt, st)
                if dt == "f32" or dt == "f64":
                    cvt(J, ".sat", dt, st)
            else:
                for r in (".rn", ".rz", ".rm", ".rp"):
                    cvt(J, r, dt, st)
                    if st == "f32":
                        cvt(J, r + ".ftz", dt, st)
                    cvt(J, r + ".sat", dt, st)
                for extra in (".rn.relu", ".rn.satfinite", ".rn.relu.satfinite", ".rz.relu",
                              ".rz.satfinite"):
                    cvt(J, extra, dt, st)
    K = "cvtpack"
    # f32 pairs -> packed 16-bit pairs; e4m3/e5m2.
    for dt in ("f16x2", "bf16x2"):
        for m in (".rn", ".rz", ".rn.relu", ".rz.relu", ".rn.satfinite", ".rn.relu.satfinite"):
            simple(K, "cvt%s.%s.f32" % (m, dt), dt, ["f32", "f32"])
    for dt in ("e4m3x2", "e5m2x2"):
        for m in (".rn.satfinite", ".rn.satfinite.relu"):
            simple(K, "cvt%s.%s.f32" % (m, dt), dt, ["f32", "f32"])
            simple(K, "cvt%s.%s.f16x2" % (m, dt), dt, ["f16x2"])
            simple(K, "cvt%s.%s.bf16x2" % (m, dt), dt, ["bf16x2"])
        for m in (".rn", ".rn.relu"):
            simple(K, "cvt%s.f16x2.%s" % (m, dt), "f16x2", [dt])
    for m in (".rna", ".rna.satfinite", ".rn.satfinite", ".rz.satfinite", ".rn", ".rz"):
        simple(K, "cvt%s.tf32.f32" % m, "tf32", ["f32"], nrand=8192)
    for ct in ("u16", "s16"):
        simple(K, "cvt.pack.sat.%s.s32" % ct, "b32", ["s32", "s32"])
    for ct in ("u8", "s8", "u4", "s4", "u2", "s2"):
        simple(K, "cvt.pack.sat.%s.s32.b32" % ct, "b32", ["s32", "s32", "b32"])


VIDEO_NOTE = "PTX video instruction; recorded with the H200's ptxas/driver (emulated there too)"


def gen_video():
    """SIMD (2-/4-way) and scalar video instructions: every op x signedness, .sat, the
    accumulate (.add) and merge forms, and a sample of lane selectors / masks / part selects."""
    F = "video"
    I3 = ["I32", "I32", "I32"]
    nr = 512

    def v(name, body):
        form(F, name, I3, ["b32"], body, note=VIDEO_NOTE, nrand=nr)

    # type combinations: all unsigned, all signed, and two mixed ones
    tys = [("u32", "u32", "u32"), ("s32", "s32", "s32"), ("s32", "u32", "s32"), ("u32", "s32", "u32")]
    for w, lanes in ((2, "h"), (4, "b")):
        for op in ("vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"):
            o = "%s%d" % (op, w)
            for (d, a, b) in tys:
                base = "%s.%s.%s.%s" % (o, d, a, b)
                v(base, "%s %%d0, %%a0, %%a1, %%a2;" % base)
                v(base + ".sat", "%s.sat %%d0, %%a0, %%a1, %%a2;" % base)
                v(base + ".add", "%s.add %%d0, %%a0, %%a1, %%a2;" % base)
            # selectors and masks (one type combination per op, mixed signedness)
            base = "%s.s32.u32.s32" % o
            if w == 2:
                sels = [("h0", "h01", "h23"), ("h10", "h31", "h20")]
            else:
                sels = [("b20", "b0123", "b4567"), ("b3210", "b7351", "b0426")]
            for (m, sa, sb) in sels:
                for mod in ("", ".sat", ".add"):
                    name = "%s%s.d_%s.a_%s.b_%s" % (base, mod, m, sa, sb)
                    v(name, "%s%s %%d0.%s, %%a0.%s, %%a1.%s, %%a2;" % (base, mod, m, sa, sb))
        for cmp_ in ("eq", "ne", "lt", "le", "gt", "ge"):
            for (a, b) in (("u32", "u32"), ("s32", "s32"), ("u32", "s32")):
                base = "vset%d.%s.%s.%s" % (w, a, b, cmp_)
                v(base, "%s %%d0, %%a0, %%a1, %%a2;" % base)
                v(base + ".add", "%s.add %%d0, %%a0, %%a1, %%a2;" % base)
        m, sa, sb = ("h1", "h01", "h23") if w == 2 else ("b20", "b0123", "b6475")
        base = "vset%d.s32.u32.lt" % w
        v(base + ".d_%s.a_%s.b_%s" % (m, sa, sb), "%s %%d0.%s, %%a0.%s, %%a1.%s, %%a2;" % (base, m, sa, sb))
    # Scalar video instructions.
    for op in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
        for (d, a, b) in tys:
            base = "%s.%s.%s.%s" % (op, d, a, b)
            form(F, base, ["I32", "I32"], ["b32"], "%s %%d0, %%a0, %%a1;" % base, note=VIDEO_NOTE, nrand=nr)
            form(F, base + ".sat", ["I32", "I32"], ["b32"], "%s.sat %%d0, %%a0, %%a1;" % base,
                 note=VIDEO_NOTE, nrand=nr)
            for op2 in ("add", "min", "max"):
                v(base + "." + op2, "%s.%s %%d0, %%a0, %%a1, %%a2;" % (base, op2))
                if d != a or a != b:
                    v(base + ".sat." + op2, "%s.sat.%s %%d0, %%a0, %%a1, %%a2;" % (base, op2))
        base = "%s.s32.s32.u32" % op
        for (ds, sa, sb) in (("b0", "b1", "b2"), ("h1", "h1", "b0"), ("b2", "h0", "b3")):
            for mod in ("", ".sat"):
                v("%s%s.d_%s.a_%s.b_%s" % (base, mod, ds, sa, sb),
                  "%s%s %%d0.%s, %%a0.%s, %%a1.%s, %%a2;" % (base, mod, ds, sa, sb))
        base = "%s.u32.u32.s32" % op
        for (sa, sb) in (("b1", "b3"), ("h1", "h0")):
            form(F, "%s.a_%s.b_%s" % (base, sa, sb), ["I32", "I32"], ["b32"],
                 "%s %%d0, %%a0.%s, %%a1.%s;" % (base, sa, sb), note=VIDEO_NOTE, nrand=nr)
            v("%s.sat.add.a_%s.b_%s" % (base, sa, sb), "%s.sat.add %%d0, %%a0.%s, %%a1.%s, %%a2;" % (base, sa, sb))
    for op in ("vshl", "vshr"):
        for (d, a) in (("u32", "u32"), ("s32", "s32"), ("u32", "s32"), ("s32", "u32")):
            for mode in ("clamp", "wrap"):
                base = "%s.%s.%s.u32.%s" % (op, d, a, mode)
                form(F, base, ["I32", "AMT"], ["b32"], "%s %%d0, %%a0, %%a1;" % base, note=VIDEO_NOTE, nrand=nr)
                form(F, base.replace(".u32." + mode, ".u32.sat." + mode), ["I32", "AMT"], ["b32"],
                     "%s %%d0, %%a0, %%a1;" % base.replace(".u32." + mode, ".u32.sat." + mode),
                     note=VIDEO_NOTE, nrand=nr)
        base = "%s.s32.s32.u32.clamp" % op
        form(F, base + ".add.a_b1", ["I32", "AMT", "I32"], ["b32"], "%s.add %%d0, %%a0.b1, %%a1, %%a2;" % base,
             note=VIDEO_NOTE, nrand=nr)
        form(F, base + ".d_h1.a_h0", ["I32", "AMT", "I32"], ["b32"], "%s %%d0.h1, %%a0.h0, %%a1, %%a2;" % base,
             note=VIDEO_NOTE, nrand=nr)
    for cmp_ in ("eq", "ne", "lt", "le", "gt", "ge"):
        for (a, b) in (("u32", "u32"), ("s32", "s32")):
            base = "vset.%s.%s.%s" % (a, b, cmp_)
            form(F, base, ["I32", "I32"], ["b32"], "%s %%d0, %%a0, %%a1;" % base, note=VIDEO_NOTE, nrand=nr)
        v("vset.s32.u32.%s.add" % cmp_, "vset.s32.u32.%s.add %%d0, %%a0, %%a1, %%a2;" % cmp_)
        v("vset.u32.s32.%s.max.a_b1.b_h1" % cmp_, "vset.u32.s32.%s.max %%d0, %%a0.b1, %%a1.h1, %%a2;" % cmp_)
        v("vset.s32.s32.%s.d_b2.a_h0.b_b3" % cmp_, "vset.s32.s32.%s %%d0.b2, %%a0.h0, %%a1.b3, %%a2;" % cmp_)


def build_forms():
    FORMS.clear()
    gen_int()
    gen_carry()
    gen_bits()
    gen_cmp()
    gen_f32()
    gen_f64()
    gen_half()
    gen_cvt()
    gen_video()
    names = set()
    for f in FORMS:
        key = (f["family"], f["name"])
        assert key not in names, key
        names.add(key)


def entry_name(f):
    return "k_" + re.sub(r"[^A-Za-z0-9]", "_", f["name"])


def recipe_of(f, default_nrand):
    ins = f["ins"]
    if len(ins) == 1 and CLASSES[ins[0]][0] * 8 <= 16 and CLASSES[ins[0]][1] != "pred":
        kind = "exh16" if CLASSES[ins[0]][0] == 2 else "exh8"
        return {"kind": kind, "seed": 0, "nrand": 0}
    seed = fnv1a64((f["family"] + ":" + f["name"]).encode())
    nrand = f["nrand"] or (default_nrand if len(ins) > 1 else 2 * default_nrand)
    return {"kind": "mixed", "seed": seed, "nrand": nrand}


# ----------------------------------------------------------------------------------------------
# PTX emission
# ----------------------------------------------------------------------------------------------
PTX_HEADER = """//
// Generated by scripts/golden/gen.py -- do not edit.
//
.version 9.0
.target sm_90
.address_size 64
"""


def kernel_text(f):
    """Returns the kernel as a list of lines."""
    e = entry_name(f)
    L = []
    L.append(".visible .entry %s(.param .u64 in0, .param .u64 in1, .param .u64 in2, "
             ".param .u64 out, .param .u32 n)" % e)
    L.append("{")
    L.append("  .reg .pred %p<2>; .reg .b32 %i<4>; .reg .b64 %x<12>; .reg .b32 %t<8>;")
    for i, c in enumerate(f["ins"]):
        L.append("  .reg .%s %%a%d;" % (CLASS_REG[c], i))
        if c == "PRED":
            L.append("  .reg .b32 %%ra%d;" % i)
    for j, r in enumerate(f["outs"]):
        L.append("  .reg .%s %%d%d;" % (r, j))
    L.append("  ld.param.u32 %i0, [n];")
    L.append("  mov.u32 %i1, %ctaid.x; mov.u32 %i2, %ntid.x; mov.u32 %i3, %tid.x;")
    L.append("  mad.lo.u32 %i1, %i1, %i2, %i3;")
    L.append("  setp.ge.u32 %p0, %i1, %i0;")
    L.append("  @%p0 bra $DONE;")
    for i, c in enumerate(f["ins"]):
        nb = CLASSES[c][0]
        L.append("  ld.param.u64 %%x0, [in%d]; cvta.to.global.u64 %%x0, %%x0;" % i)
        L.append("  mul.wide.u32 %%x1, %%i1, %d; add.s64 %%x0, %%x0, %%x1;" % nb)
        if c == "PRED":
            L.append("  ld.global.u32 %%ra%d, [%%x0]; setp.ne.u32 %%a%d, %%ra%d, 0;" % (i, i, i))
        elif nb == 1:
            L.append("  ld.global.u8 %%a%d, [%%x0];" % i)
        else:
            L.append("  ld.global.b%d %%a%d, [%%x0];" % (nb * 8, i))
    for stmt in f["body"].split(";"):
        stmt = stmt.strip()
        if stmt:
            L.append("  " + stmt + ";  // FORM")
    L.append("  ld.param.u64 %x2, [out]; cvta.to.global.u64 %x2, %x2;")
    L.append("  cvt.u64.u32 %x3, %i0;")  # n
    prefix = 0
    for j, r in enumerate(f["outs"]):
        nb = REG_BYTES[r]
        # address = out + n*prefix + idx*nb
        L.append("  mul.lo.u64 %%x4, %%x3, %d; add.s64 %%x4, %%x2, %%x4;" % prefix)
        L.append("  mul.wide.u32 %%x5, %%i1, %d; add.s64 %%x4, %%x4, %%x5;" % nb)
        if r == "pred":
            L.append("  selp.u32 %%t7, 1, 0, %%d%d; st.global.u32 [%%x4], %%t7;" % j)
        else:
            L.append("  st.global.b%d [%%x4], %%d%d;" % (nb * 8, j))
        prefix += nb
    L.append("$DONE:")
    L.append("  ret;")
    L.append("}")
    return L


def write_module(path, forms):
    """Writes the module; returns {line_number: form_index} for the body lines of each kernel."""
    lines = PTX_HEADER.rstrip("\n").split("\n")
    owner = {}
    for idx, f in enumerate(forms):
        lines.append("")
        start = len(lines) + 1
        lines.extend(kernel_text(f))
        for ln in range(start, len(lines) + 1):
            owner[ln] = idx
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return owner


def families():
    fams = []
    for f in FORMS:
        if f["family"] not in fams:
            fams.append(f["family"])
    return fams


def ptxas_errors(path):
    r = subprocess.run(["ptxas", "-arch=sm_90", path, "-o", os.devnull],
                       capture_output=True, text=True)
    errs = {}
    for line in (r.stderr + r.stdout).splitlines():
        m = re.search(r"line (\d+); (error|fatal)\s*:\s*(.*)", line)
        if m:
            errs.setdefault(int(m.group(1)), m.group(3).strip())
    return r.returncode, errs, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--prune", action="store_true")
    ap.add_argument("--specials")
    ap.add_argument("--nrand", type=int, default=2048)
    ap.add_argument("--dump-inputs")
    ap.add_argument("--rejected-from", help="drop the forms this manifest lists as rejected "
                    "instead of running ptxas (regenerates the stored manifest exactly)")
    args = ap.parse_args()
    build_forms()

    if args.specials:
        write_specials(args.specials)
    if args.dump_inputs:
        for f in FORMS:
            if f["name"] == args.dump_inputs:
                rec = recipe_of(f, args.nrand)
                cols = gen_inputs(rec, f["ins"])
                for r in range(min(40, len(cols[0]))):
                    print(" ".join("%x" % c[r] for c in cols))
                print("hash %016x" % inputs_hash(rec, f["ins"]))
    if not args.out:
        return
    os.makedirs(args.out, exist_ok=True)
    rejected = []
    active = list(FORMS)
    if args.rejected_from:
        with open(args.rejected_from) as fh:
            rejected = json.load(fh)["rejected"]
        drop = {(r["family"], r["name"]) for r in rejected}
        active = [f for f in active if (f["family"], f["name"]) not in drop]
    for fam in families():
        for _ in range(40):
            fforms = [f for f in active if f["family"] == fam]
            path = os.path.join(args.out, fam + ".ptx")
            owner = write_module(path, fforms)
            if not args.prune:
                break
            rc, errs, stderr = ptxas_errors(path)
            if rc == 0:
                break
            if not errs:
                sys.exit("ptxas failed on %s without line info:\n%s" % (path, stderr))
            bad = {}
            for ln, msg in errs.items():
                bad.setdefault(owner[ln], msg)
            for idx, msg in bad.items():
                f = fforms[idx]
                rejected.append({"family": fam, "name": f["name"], "ptxas": msg})
                active.remove(f)
                print("rejected %-40s %s" % (f["name"], msg), file=sys.stderr)
    # Manifest + plan.
    man = {"format": 1, "generator": "scripts/golden/gen.py", "ptx_version": "9.0",
           "target": "sm_90", "nrand_default": args.nrand, "families": [], "rejected": rejected}
    plan = []
    total = 0
    for fam in families():
        fforms = [f for f in active if f["family"] == fam]
        offset = 0
        flist = []
        plan.append("F %s %s.ptx %d" % (fam, fam, len(fforms)))
        for f in fforms:
            rec = recipe_of(f, args.nrand)
            rows = recipe_rows(rec, f["ins"])
            osz = [REG_BYTES[r] for r in f["outs"]]
            h = inputs_hash(rec, f["ins"])
            nbytes = rows * sum(osz)
            flist.append({
                "name": f["name"], "entry": entry_name(f), "inputs": f["ins"],
                "outputs": ["u32pred" if r == "pred" else r for r in f["outs"]],
                "output_bytes": osz, "recipe": rec["kind"], "seed": "%016x" % rec["seed"],
                "nrand": rec["nrand"], "rows": rows, "inputs_fnv1a64": "%016x" % h,
                "offset": offset, "bytes": nbytes, "exact": f["exact"],
                "ulp_bound": f["bound"], "note": f["note"],
                "ptx": [s.strip() + ";" for s in f["body"].split(";") if s.strip()],
            })
            plan.append("K %s %d %s %016x %d %d %s %d %s %016x" % (
                entry_name(f), rows, rec["kind"], rec["seed"], rec["nrand"], len(f["ins"]),
                " ".join(f["ins"]), len(osz), " ".join(str(x) for x in osz), h))
            offset += nbytes
        total += offset
        man["families"].append({"family": fam, "ptx": fam + ".ptx", "data": fam + ".bin.zst",
                                "bytes": offset, "forms": flist})
    man["total_bytes"] = total
    man["num_forms"] = sum(len(x["forms"]) for x in man["families"])
    with open(os.path.join(args.out, "manifest.json"), "w") as fh:
        json.dump(man, fh, indent=1)
    with open(os.path.join(args.out, "plan.txt"), "w") as fh:
        fh.write("\n".join(plan) + "\n")
    print("forms %d (rejected %d), raw output bytes %d" % (man["num_forms"], len(rejected), total),
          file=sys.stderr)


def write_specials(path):
    out = ["// Generated by scripts/golden/gen.py --specials -- do not edit.",
           "// Special input values per input class (bit patterns), shared by the Python and C++",
           "// input generators.", ""]
    for c in CLASSES:
        vals = SPECIALS[c]
        out.append("inline constexpr uint64_t kSpecials_%s[] = {" % c)
        for i in range(0, len(vals), 6):
            out.append("    " + ", ".join("0x%xull" % v for v in vals[i:i + 6]) + ",")
        out.append("};")
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
