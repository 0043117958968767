#!/usr/bin/env python3
"""Generate a realistic, valid WaveASM kernel with exactly N instructions.

The output is one `waveasm.program` (gfx942, wave64) shaped like a GEMM
kernel: a short prologue (precolored ABI registers, kernarg s_loads, a base
set of constants, thread-id address math), then a few `waveasm.loop` K-loops
separated by straight-line segments, then `waveasm.s_endpgm`.

Each loop carries an SGPR induction variable, two LDS base pointers that
swap every iteration (double-buffer pattern), 4-8 MFMA accumulators
(`!waveasm.vreg<4, 4>`) and 1-2 prefetched global tiles, and ends with
`s_add_u32` + `s_cmp_lt_u32` + `waveasm.condition` (nothing writes SCC between
the compare and the terminator).  Bodies and segments are filled with a
category mix close to real GEMM kernels (see TARGET_MIX): buffer loads,
ds_read/ds_write, v_mfma_f32_16x16x16_f16, VALU address arithmetic, SALU ops
(most with an SCC result), constants, extracts, s_barrier and s_setprio.
Operands are picked mostly among recently defined values so live ranges stay
short, as in compiler output; every value is defined before use and values
defined in a loop body are not used after the loop.

"Instruction count" = number of operations inside the program, excluding the
`waveasm.program` op itself (loop ops, their bodies and terminators count).
The generator emits exactly N such operations and is deterministic for a
given (N, seed).

Usage: gen_waveasm.py --instructions 20000 --seed 1 -o out.mlir [--stats]
"""

import argparse
import random
import re
import sys

# Fractions of the instruction count per category (the remainder of the
# program -- loop/condition ops, constants, extracts, precolored values,
# s_load, s_barrier, s_setprio, s_endpgm -- is "other").
TARGET_MIX = {
    "valu": 0.30,
    "salu": 0.15,
    "lds": 0.15,
    "vmem": 0.10,
    "mfma": 0.15,
    "other": 0.15,
}

MIN_INSTRUCTIONS = 200

V = "!waveasm.vreg"
S = "!waveasm.sreg"
FRAG = "!waveasm.vreg<2, 2>"
TILE = "!waveasm.vreg<4, 4>"
SCC = "!waveasm.scc"


def imm_t(v):
    return "!waveasm.imm<%d>" % v


def classify(opname):
    """Category of an op name (without the `waveasm.` prefix)."""
    if opname.startswith("v_mfma"):
        return "mfma"
    if opname.startswith("ds_"):
        return "lds"
    if opname.startswith(("buffer_", "global_", "flat_")):
        return "vmem"
    if opname.startswith("v_"):
        return "valu"
    if opname.startswith("s_") and not opname.startswith(
            ("s_load", "s_barrier", "s_setprio", "s_endpgm", "s_waitcnt",
             "s_nop", "s_sched_barrier", "s_mov_b32_m0")):
        return "salu"
    return "other"


class Val:
    __slots__ = ("ref", "ty")

    def __init__(self, ref, ty):
        self.ref = ref
        self.ty = ty


class Gen:
    def __init__(self, n, seed, loop_body=None):
        self.n = n
        self.loop_body = loop_body
        self.seed = seed
        self.rng = random.Random(seed)
        self.lines = []
        self.indent = 1
        self.counts = {k: 0 for k in TARGET_MIX}
        self.total = 0
        self.next_id = 0
        self.since_barrier = 0
        self.prio_high = False
        # Scoped pools (saved/restored around loop bodies).
        self.vals = []      # 1-dword VGPR values (addresses, data)
        self.sregs = []     # 1-dword SGPR values
        self.frags = []     # MFMA A/B fragments (vreg<2, 2>)
        self.pending = []   # loaded tiles waiting for a ds_write (vreg<4, 4>)
        self.ldstiles = []  # tiles read back from LDS (vreg<4, 4>)
        self.accs = []      # current MFMA accumulators (vreg<4, 4>)
        self.consts = {}    # value -> Val
        self.const_names = set()
        self.lds_bases = []  # SGPR LDS base pointers (inside loops)
        self.srds = []
        self.ptrs = []      # 64-bit SGPR pointers (sreg<2, 2>)
        self.counter = None  # the innermost loop's counter, inside a loop

    # ------------------------------------------------------------ emission
    def name(self, prefix):
        self.next_id += 1
        return "%%%s%d" % (prefix, self.next_id)

    def emit(self, text, opname):
        self.lines.append("  " * self.indent + text)
        cat = classify(opname)
        self.counts[cat] += 1
        self.total += 1
        self.since_barrier += 1

    def raw(self, text):
        """A line that is not an op (closing brace, blank, comment)."""
        self.lines.append(("  " * self.indent + text) if text else "")

    # ------------------------------------------------------------- helpers
    def pick(self, pool, recent=6, p_recent=0.85):
        if len(pool) > recent and self.rng.random() < p_recent:
            return self.rng.choice(pool[-recent:])
        return self.rng.choice(pool)

    @staticmethod
    def push(pool, v, cap=24):
        pool.append(v)
        if len(pool) > cap:
            del pool[0]

    def const(self, value):
        return self.consts[value]

    def small_const(self):
        choices = [c for c in self.consts if 1 <= c <= 16]
        return self.consts[self.rng.choice(choices)]

    def any_const(self):
        return self.consts[self.rng.choice(list(self.consts))]

    def new_const(self, value):
        base = "c%d" % value if value >= 0 else "cm%d" % -value
        if base in self.const_names:
            nm = self.name(base + "_")
        else:
            nm = "%" + base
        self.const_names.add(base)
        self.emit("%s = waveasm.constant %d : %s" % (nm, value, imm_t(value)),
                  "constant")
        v = Val(nm, imm_t(value))
        self.consts[value] = v
        return v

    # ------------------------------------------------------ op generators
    def op_valu(self):
        r = self.rng.random()
        d = self.name("v")
        in_loop = bool(self.lds_bases)
        if in_loop and r < 0.12:
            base = self.rng.choice(self.lds_bases)
            a = self.pick(self.vals)
            txt = "%s = waveasm.v_add_u32 %s, %s : %s, %s -> %s" % (
                d, base.ref, a.ref, base.ty, a.ty, V)
            op = "v_add_u32"
        elif r < 0.30:
            k = self.small_const()
            a = self.pick(self.vals)
            op = self.rng.choice(["v_lshlrev_b32", "v_lshrrev_b32"])
            txt = "%s = waveasm.%s %s, %s : %s, %s -> %s" % (
                d, op, k.ref, a.ref, k.ty, a.ty, V)
        elif r < 0.48:
            a, b = self.pick(self.vals), self.pick(self.vals)
            op = self.rng.choice(["v_add_u32", "v_add_u32", "v_sub_u32",
                                  "v_or_b32", "v_xor_b32"])
            txt = "%s = waveasm.%s %s, %s : %s, %s -> %s" % (
                d, op, a.ref, b.ref, a.ty, b.ty, V)
        elif r < 0.58:
            a, b = self.pick(self.vals), self.pick(self.vals)
            k = self.small_const()
            op = self.rng.choice(["v_lshl_add_u32", "v_lshl_or_b32"])
            txt = "%s = waveasm.%s %s, %s, %s : %s, %s, %s -> %s" % (
                d, op, a.ref, k.ref, b.ref, a.ty, k.ty, b.ty, V)
        elif r < 0.66:
            a = self.pick(self.vals)
            s = self.pick(self.sregs)
            op = self.rng.choice(["v_add_u32", "v_mul_lo_u32"])
            txt = "%s = waveasm.%s %s, %s : %s, %s -> %s" % (
                d, op, s.ref, a.ref, s.ty, a.ty, V) if op == "v_add_u32" else \
                "%s = waveasm.%s %s, %s : %s, %s -> %s" % (
                    d, op, a.ref, s.ref, a.ty, s.ty, V)
        elif r < 0.72:
            a = self.pick(self.vals)
            k = self.any_const()
            txt = "%s = waveasm.v_and_b32 %s, %s : %s, %s -> %s" % (
                d, a.ref, k.ref, a.ty, k.ty, V)
            op = "v_and_b32"
        elif r < 0.77:
            a = self.pick(self.vals)
            o, w = self.small_const(), self.small_const()
            txt = "%s = waveasm.v_bfe_u32 %s, %s, %s : %s, %s, %s -> %s" % (
                d, a.ref, o.ref, w.ref, a.ty, o.ty, w.ty, V)
            op = "v_bfe_u32"
        elif r < 0.85:
            a, b = self.pick(self.vals), self.pick(self.vals)
            op = self.rng.choice(["v_add_f32", "v_mul_f32", "v_max_f32",
                                  "v_sub_f32"])
            txt = "%s = waveasm.%s %s, %s : %s, %s -> %s" % (
                d, op, a.ref, b.ref, a.ty, b.ty, V)
        elif r < 0.90:
            a, b, c = (self.pick(self.vals), self.pick(self.vals),
                       self.pick(self.vals))
            op = self.rng.choice(["v_fma_f32", "v_add3_u32"])
            txt = "%s = waveasm.%s %s, %s, %s : %s, %s, %s -> %s" % (
                d, op, a.ref, b.ref, c.ref, a.ty, b.ty, c.ty, V)
        elif r < 0.95:
            a = self.pick(self.vals)
            op = self.rng.choice(["v_cvt_f32_u32", "v_cvt_f32_i32",
                                  "v_exp_f32", "v_rcp_f32", "v_not_b32"])
            txt = "%s = waveasm.%s %s : %s -> %s" % (d, op, a.ref, a.ty, V)
        else:
            s = self.pick(self.sregs)
            txt = "%s = waveasm.v_mov_b32 %s : %s -> %s" % (d, s.ref, s.ty, V)
            op = "v_mov_b32"
        self.emit(txt, op)
        self.push(self.vals, Val(d, V))

    def op_salu(self):
        r = self.rng.random()
        d = self.name("s")
        a = self.pick(self.sregs)
        # Inside a loop most scalar work derives from the counter (offsets,
        # strides), as in real kernels: loop-invariant code motion would
        # otherwise hoist it all and keep every result live across the loop.
        if self.counter is not None and self.rng.random() < 0.7:
            a = self.counter
        if r < 0.40:
            op = self.rng.choice(["s_add_u32", "s_add_u32", "s_sub_u32",
                                  "s_lshl_b32", "s_lshr_b32", "s_and_b32",
                                  "s_xor_b32", "s_or_b32"])
            if op in ("s_lshl_b32", "s_lshr_b32"):
                b = self.small_const()
            elif self.rng.random() < 0.5:
                b = self.any_const()
            else:
                b = self.pick(self.sregs)
            txt = "%s:2 = waveasm.%s %s, %s : %s, %s -> %s, %s" % (
                d, op, a.ref, b.ref, a.ty, b.ty, S, SCC)
            res = d + "#0"
        elif r < 0.55:
            b = self.pick(self.sregs)
            op = self.rng.choice(["s_max_u32", "s_min_u32", "s_max_i32"])
            txt = "%s:2 = waveasm.%s %s, %s : %s, %s -> %s, %s" % (
                d, op, a.ref, b.ref, a.ty, b.ty, S, SCC)
            res = d + "#0"
        elif r < 0.75:
            b = self.any_const() if self.rng.random() < 0.6 else \
                self.pick(self.sregs)
            op = "s_mul_i32"
            txt = "%s = waveasm.s_mul_i32 %s, %s : %s, %s -> %s" % (
                d, a.ref, b.ref, a.ty, b.ty, S)
            res = d
        elif r < 0.85:
            b = self.any_const()
            op = "s_bfe_u32"
            txt = "%s:2 = waveasm.s_bfe_u32 %s, %s : %s, %s -> %s, %s" % (
                d, a.ref, b.ref, a.ty, b.ty, S, SCC)
            res = d + "#0"
        else:
            b = self.any_const() if self.rng.random() < 0.7 else a
            op = "s_mov_b32"
            txt = "%s = waveasm.s_mov_b32 %s : %s -> %s" % (d, b.ref, b.ty, S)
            res = d
        self.emit(txt, op)
        self.push(self.sregs, Val(res, S))

    def op_lds(self):
        r = self.rng.random()
        addr = self.pick(self.vals)
        off = self.rng.randrange(0, 64) * 64
        attr = " {offset = %d : i64}" % off if off else ""
        if self.pending and r < 0.30:
            t = self.pending.pop(self.rng.randrange(len(self.pending)))
            self.emit("waveasm.ds_write_b128 %s, %s%s : %s, %s" % (
                t.ref, addr.ref, attr, t.ty, addr.ty), "ds_write_b128")
        elif r < 0.36:
            dval = self.pick(self.vals)
            self.emit("waveasm.ds_write_b32 %s, %s%s : %s, %s" % (
                dval.ref, addr.ref, attr, dval.ty, addr.ty), "ds_write_b32")
        elif r < 0.88:
            d = self.name("f")
            self.emit("%s = waveasm.ds_read_b64 %s%s : %s -> %s" % (
                d, addr.ref, attr, addr.ty, FRAG), "ds_read_b64")
            self.push(self.frags, Val(d, FRAG), cap=8)
        elif r < 0.94:
            d = self.name("t")
            self.emit("%s = waveasm.ds_read_b128 %s%s : %s -> %s" % (
                d, addr.ref, attr, addr.ty, TILE), "ds_read_b128")
            self.push(self.ldstiles, Val(d, TILE), cap=6)
        else:
            d = self.name("v")
            self.emit("%s = waveasm.ds_read_b32 %s%s : %s -> %s" % (
                d, addr.ref, attr, addr.ty, V), "ds_read_b32")
            self.push(self.vals, Val(d, V))

    def soffset(self):
        if self.rng.random() < 0.6:
            return self.pick(self.sregs)
        return self.const(0)

    def op_vmem(self):
        r = self.rng.random()
        voff = self.pick(self.vals)
        off = self.rng.choice([0, 0, 0, 16, 64, 256, 1024, 2048])
        offs = " offset : %d" % off if off else ""
        if r < 0.55:
            srd = self.rng.choice(self.srds[:2])
            so = self.soffset()
            d = self.name("t")
            self.emit("%s = waveasm.buffer_load_dwordx4 %s, %s, %s%s : %s, %s, %s -> %s" % (
                d, srd.ref, voff.ref, so.ref, offs, srd.ty, voff.ty, so.ty, TILE),
                "buffer_load_dwordx4")
            self.push(self.pending, Val(d, TILE), cap=8)
        elif r < 0.70:
            srd = self.rng.choice(self.srds[:3])
            so = self.soffset()
            d = self.name("v")
            self.emit("%s = waveasm.buffer_load_dword %s, %s, %s%s : %s, %s, %s -> %s" % (
                d, srd.ref, voff.ref, so.ref, offs, srd.ty, voff.ty, so.ty, V),
                "buffer_load_dword")
            self.push(self.vals, Val(d, V))
        elif r < 0.80:
            p = self.rng.choice(self.ptrs)
            d = self.name("f")
            zero = self.const(0)
            self.emit("%s = waveasm.global_load_dwordx2 %s, %s, %s : %s, %s, %s -> %s" % (
                d, p.ref, voff.ref, zero.ref, p.ty, voff.ty, zero.ty, FRAG),
                "global_load_dwordx2")
            self.push(self.frags, Val(d, FRAG), cap=8)
        elif r < 0.92 and self.accs:
            acc = self.rng.choice(self.accs)
            srd = self.srds[3]
            self.emit("waveasm.buffer_store_dwordx4 %s, %s, %s%s : %s, %s, %s" % (
                acc.ref, srd.ref, voff.ref, offs, acc.ty, srd.ty, voff.ty),
                "buffer_store_dwordx4")
        else:
            data = self.pick(self.vals)
            srd = self.srds[3]
            self.emit("waveasm.buffer_store_dword %s, %s, %s%s : %s, %s, %s" % (
                data.ref, srd.ref, voff.ref, offs, data.ty, srd.ty, voff.ty),
                "buffer_store_dword")

    def op_mfma(self):
        if not self.frags:
            return self.op_lds_read_frag()
        a = self.pick(self.frags, recent=4)
        b = self.pick(self.frags, recent=4)
        if b is a and len(self.frags) > 1:
            b = self.frags[-1] if a is not self.frags[-1] else self.frags[-2]
        i = self.rng.randrange(len(self.accs))
        acc = self.accs[i]
        d = self.name("acc")
        self.emit("%s = waveasm.v_mfma_f32_16x16x16_f16 %s, %s, %s : %s, %s, %s -> %s" % (
            d, a.ref, b.ref, acc.ref, a.ty, b.ty, acc.ty, TILE),
            "v_mfma_f32_16x16x16_f16")
        self.accs[i] = Val(d, TILE)

    def op_lds_read_frag(self):
        addr = self.pick(self.vals)
        d = self.name("f")
        self.emit("%s = waveasm.ds_read_b64 %s : %s -> %s" % (
            d, addr.ref, addr.ty, FRAG), "ds_read_b64")
        self.push(self.frags, Val(d, FRAG), cap=8)

    def op_other(self):
        r = self.rng.random()
        if r < 0.12 and self.since_barrier > 40:
            self.emit("waveasm.s_barrier", "s_barrier")
            self.since_barrier = 0
        elif r < 0.16:
            self.prio_high = not self.prio_high
            self.emit("waveasm.s_setprio %d" % (1 if self.prio_high else 0),
                      "s_setprio")
        elif r < 0.55 and (self.pending or self.ldstiles):
            src = self.rng.choice(self.pending + self.ldstiles)
            d = self.name("v")
            self.emit("%s = waveasm.extract %s[%d] : %s -> %s" % (
                d, src.ref, self.rng.randrange(4), src.ty, V), "extract")
            self.push(self.vals, Val(d, V))
        else:
            # A fresh constant (typical of pre-CSE translator output).
            for _ in range(8):
                val = self.rng.choice([
                    self.rng.randrange(0, 65),
                    self.rng.randrange(1, 64) * 64,
                    self.rng.randrange(1, 256) * 1024,
                    self.rng.randrange(-16, 0),
                ])
                if val not in self.consts:
                    break
            else:
                val = 100000 + self.next_id
            self.new_const(val)

    # ----------------------------------------------------------- filling
    BURST = {"valu": 4, "salu": 3, "lds": 4, "vmem": 2, "mfma": 4, "other": 2}
    GEN = {"valu": "op_valu", "salu": "op_salu", "lds": "op_lds",
           "vmem": "op_vmem", "mfma": "op_mfma", "other": "op_other"}

    def fill(self, budget):
        """Emit exactly `budget` ops following the category mix."""
        end = self.total + budget
        while self.total < end:
            t = self.total + 1
            best, best_score = None, None
            for cat, frac in TARGET_MIX.items():
                score = frac * t - self.counts[cat] + self.rng.random() * 1.5
                if best_score is None or score > best_score:
                    best, best_score = cat, score
            burst = self.rng.randint(1, self.BURST[best])
            for _ in range(min(burst, end - self.total)):
                getattr(self, self.GEN[best])()

    # --------------------------------------------------------- structure
    def prologue(self):
        e = self.emit
        e("%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>", "precolored.vreg")
        e("%kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>", "precolored.sreg")
        e("%wg_x = waveasm.precolored.sreg 2 : !waveasm.psreg<2>", "precolored.sreg")
        e("%wg_y = waveasm.precolored.sreg 3 : !waveasm.psreg<3>", "precolored.sreg")
        for i, nm in enumerate(["srd_a", "srd_b", "srd_s", "srd_c"]):
            idx = 8 + 4 * i
            e("%%%s = waveasm.precolored.sreg %d, 4 : !waveasm.psreg<%d, 4>" % (nm, idx, idx),
              "precolored.sreg")
            self.srds.append(Val("%" + nm, "!waveasm.psreg<%d, 4>" % idx))
        for v in [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 16, 31, 32, 63, 64, 1024, 4096]:
            self.new_const(v)
        e("%ptr_a = waveasm.s_load_dwordx2 %kargs, %c1 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>".replace(
            "%c1", self.const(0).ref), "s_load_dwordx2")
        e("%ptr_b = waveasm.s_load_dwordx2 %kargs, {} : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<2, 2>".format(
            self.const(8).ref), "s_load_dwordx2")
        e("%dims = waveasm.s_load_dwordx2 %kargs, {} : !waveasm.psreg<0, 2>, !waveasm.imm<16> -> !waveasm.sreg<2, 2>".format(
            self.const(16).ref), "s_load_dwordx2")
        self.ptrs = [Val("%ptr_a", "!waveasm.sreg<2, 2>"), Val("%ptr_b", "!waveasm.sreg<2, 2>")]
        e("%kdim = waveasm.extract %dims[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg", "extract")
        e("%ldim = waveasm.extract %dims[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg", "extract")
        self.sregs += [Val("%kdim", S), Val("%ldim", S)]
        # Workgroup-id derived scalars and thread-id derived addresses.
        c = self.consts
        e("%%s_bm:2 = waveasm.s_lshl_b32 %%wg_y, %s : !waveasm.psreg<3>, %s -> %s, %s" % (
            c[12].ref, c[12].ty, S, SCC), "s_lshl_b32")
        e("%%s_bn:2 = waveasm.s_lshl_b32 %%wg_x, %s : !waveasm.psreg<2>, %s -> %s, %s" % (
            c[12].ref, c[12].ty, S, SCC), "s_lshl_b32")
        self.sregs += [Val("%s_bm#0", S), Val("%s_bn#0", S)]
        tid = "!waveasm.pvreg<0>"
        e("%%lane = waveasm.v_and_b32 %%tid, %s : %s, %s -> %s" % (c[63].ref, tid, c[63].ty, V), "v_and_b32")
        e("%%row = waveasm.v_lshrrev_b32 %s, %%tid : %s, %s -> %s" % (c[2].ref, c[2].ty, tid, V), "v_lshrrev_b32")
        e("%%col = waveasm.v_and_b32 %%tid, %s : %s, %s -> %s" % (c[3].ref, tid, c[3].ty, V), "v_and_b32")
        e("%%g_off = waveasm.v_lshl_add_u32 %%row, %s, %%col : %s, %s, %s -> %s" % (
            c[11].ref, V, c[11].ty, V, V), "v_lshl_add_u32")
        e("%%lds_off = waveasm.v_lshlrev_b32 %s, %%tid : %s, %s -> %s" % (c[4].ref, c[4].ty, tid, V), "v_lshlrev_b32")
        e("%%frag_off = waveasm.v_lshlrev_b32 %s, %%lane : %s, %s -> %s" % (c[3].ref, c[3].ty, V, V), "v_lshlrev_b32")
        self.vals += [Val("%lane", V), Val("%row", V), Val("%col", V), Val("%g_off", V),
                      Val("%lds_off", V), Val("%frag_off", V)]
        self.raw("")

    def zero_accs(self, n):
        accs = []
        for _ in range(n):
            d = self.name("z")
            self.emit("%s = waveasm.v_mov_b32 %s {no_cse} : %s -> %s" % (
                d, self.const(0).ref, self.const(0).ty, TILE), "v_mov_b32")
            accs.append(Val(d, TILE))
        return accs

    def loop_fixed_cost(self, n_acc, n_carry):
        # pre: k0, 2 lds bases, zero accs, carry loads, loop op
        # body: carry prefetch loads, s_add, s_cmp, condition
        # post: accumulator stores
        return 1 + 2 + n_acc + n_carry + 1 + n_carry + 3 + n_acc

    def loop(self, body_budget, n_acc, n_carry, trip):
        e = self.emit
        L = self.next_id
        trip_c = self.const(trip)
        k0 = self.name("s")
        e("%s = waveasm.s_mov_b32 %s : %s -> %s" % (k0, self.const(0).ref, self.const(0).ty, S), "s_mov_b32")
        b0, b1 = self.name("s"), self.name("s")
        e("%s = waveasm.s_mov_b32 %s : %s -> %s" % (b0, self.const(0).ref, self.const(0).ty, S), "s_mov_b32")
        e("%s = waveasm.s_mov_b32 %s : %s -> %s" % (b1, self.const(4096).ref, self.const(4096).ty, S), "s_mov_b32")
        inits = self.zero_accs(n_acc)
        carry_init = []
        for i in range(n_carry):
            d = self.name("t")
            srd = self.srds[i % 2]
            e("%s = waveasm.buffer_load_dwordx4 %s, %%g_off, %s : %s, %s, %s -> %s" % (
                d, srd.ref, self.const(0).ref, srd.ty, V, self.const(0).ty, TILE),
                "buffer_load_dwordx4")
            carry_init.append(Val(d, TILE))

        # Block arguments.
        k = Val("%%k%d" % L, S)
        rd, wr = Val("%%rd%d" % L, S), Val("%%wr%d" % L, S)
        acc_args = [Val("%%a%d_%d" % (L, i), TILE) for i in range(n_acc)]
        car_args = [Val("%%p%d_%d" % (L, i), TILE) for i in range(n_carry)]
        args = [k, rd, wr] + car_args + acc_args
        inits_all = [Val(k0, S), Val(b0, S), Val(b1, S)] + carry_init + inits
        types = ", ".join(a.ty for a in args)
        res = self.name("r")
        assigns = ", ".join("%s = %s" % (a.ref, i.ref) for a, i in zip(args, inits_all))
        e("%s:%d = waveasm.loop (%s) : (%s) -> (%s) {" % (res, len(args), assigns, types, types),
          "loop")

        saved = (list(self.vals), list(self.sregs), list(self.frags), list(self.pending),
                 list(self.ldstiles), list(self.accs), dict(self.consts), list(self.lds_bases))
        self.indent += 1
        saved_counter = self.counter
        self.counter = k
        self.sregs.append(k)
        self.lds_bases = [rd, wr]
        self.accs = list(acc_args)
        self.pending = self.pending + car_args
        # Prefetch the next iteration's tiles first (latency hiding).
        carry_next = []
        for i in range(n_carry):
            d = self.name("t")
            srd = self.srds[i % 2]
            so = self.pick(self.sregs)
            e("%s = waveasm.buffer_load_dwordx4 %s, %%g_off, %s : %s, %s, %s -> %s" % (
                d, srd.ref, so.ref, srd.ty, V, so.ty, TILE), "buffer_load_dwordx4")
            carry_next.append(Val(d, TILE))
        self.fill(body_budget - n_carry - 3)
        kn = self.name("s")
        e("%s:2 = waveasm.s_add_u32 %s, %s : %s, %s -> %s, %s" % (
            kn, k.ref, self.const(1).ref, S, self.const(1).ty, S, SCC), "s_add_u32")
        cond = self.name("cc")
        e("%s = waveasm.s_cmp_lt_u32 %s#0, %s : %s, %s -> %s" % (
            cond, kn, trip_c.ref, S, trip_c.ty, SCC), "s_cmp_lt_u32")
        yields = [Val(kn + "#0", S), wr, rd] + carry_next + self.accs
        e("waveasm.condition %s : %s iter_args(%s) : %s" % (
            cond, SCC, ", ".join(y.ref for y in yields), ", ".join(y.ty for y in yields)),
            "condition")
        self.indent -= 1
        self.counter = saved_counter
        self.raw("}")
        (self.vals, self.sregs, self.frags, self.pending, self.ldstiles, self.accs,
         self.consts, self.lds_bases) = saved
        # Results: accumulators become live; store them (epilogue of the loop).
        base = 3 + n_carry
        self.accs = [Val("%s#%d" % (res, base + i), TILE) for i in range(n_acc)]
        srd = self.srds[3]
        for i, acc in enumerate(self.accs):
            voff = self.pick(self.vals)
            offs = " offset : %d" % (i * 256) if i else ""
            e("waveasm.buffer_store_dwordx4 %s, %s, %s%s : %s, %s, %s" % (
                acc.ref, srd.ref, voff.ref, offs, acc.ty, srd.ty, voff.ty),
                "buffer_store_dwordx4")
        self.raw("")

    def generate(self):
        n = self.n
        if n < MIN_INSTRUCTIONS:
            raise SystemExit("--instructions must be >= %d" % MIN_INSTRUCTIONS)
        rng = self.rng
        n_loops = max(1, min(16, int(round(n / 5000.0))))
        shapes = [(rng.choice([4, 4, 6, 8]), rng.choice([1, 2]), rng.choice([16, 32, 64]))
                  for _ in range(n_loops)]

        self.lines.append("// Generated by bench/gen_waveasm.py --instructions %d --seed %s" % (n, self.seed))
        self.lines.append("// GEMM-like WaveASM kernel for parser/printer benchmarks (gfx942, wave64).")
        self.lines.append("waveasm.program @bench_kernel")
        self.lines.append("  target = #waveasm.target<#waveasm.gfx942, 5>")
        self.lines.append("  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2, wg_id_y = 3>")
        self.lines.append("  attributes {lds_size = 65536 : i64, workgroup_size = [256, 1, 1]} {")
        self.prologue()
        # Initial accumulators for straight-line MFMAs before the first loop.
        self.accs = self.zero_accs(4)

        fixed = self.total + 1  # + s_endpgm
        fixed += sum(self.loop_fixed_cost(a, c) for a, c, _ in shapes)
        if self.loop_body is not None:
            # One loop whose body has exactly `loop_body` ops around a minimal
            # prologue/epilogue (the compile-and-measure benchmark's shape).
            n_acc, n_carry, trip = shapes[0]
            body = self.loop_body - (n_carry + 3)
            if body < 20:
                raise SystemExit("--loop-body must be >= %d" % (n_carry + 23))
            n = self.n = fixed + int(body / 0.85) + 1
            free = n - fixed
            self.fill(0)
            self.raw("")
            self.loop(self.loop_body, n_acc, n_carry, trip)
            self.fill(n - self.total - 1)
            self.emit("waveasm.s_endpgm", "s_endpgm")
            self.indent = 0
            self.raw("}")
            if self.total != n:
                raise SystemExit("internal error: generated %d ops, wanted %d" % (self.total, n))
            return "\n".join(self.lines) + "\n"
        free = n - fixed
        if free < 40 * n_loops:
            raise SystemExit("--instructions %d too small for %d loops" % (n, n_loops))
        body_total = int(free * 0.85)
        seg_total = free - body_total
        bodies = self.split(body_total, n_loops, minimum=20)
        segs = self.split(seg_total, n_loops + 1, minimum=0)
        for i, (n_acc, n_carry, trip) in enumerate(shapes):
            self.fill(segs[i])
            self.raw("")
            self.loop(bodies[i] + n_carry + 3, n_acc, n_carry, trip)
        self.fill(segs[-1])
        self.emit("waveasm.s_endpgm", "s_endpgm")
        self.indent = 0
        self.raw("}")
        if self.total != n:
            raise SystemExit("internal error: generated %d ops, wanted %d" % (self.total, n))
        return "\n".join(self.lines) + "\n"

    def split(self, total, parts, minimum):
        w = [self.rng.uniform(0.8, 1.2) for _ in range(parts)]
        s = sum(w)
        out = [max(minimum, int(total * x / s)) for x in w]
        out[-1] += total - sum(out)
        if min(out) < minimum:
            raise SystemExit("internal error: cannot split %d into %d parts" % (total, parts))
        return out


def count_ops(text):
    """Independent op counter/classifier over generated text (for --stats)."""
    counts = {k: 0 for k in TARGET_MIX}
    ops = {}
    total = 0
    for line in text.splitlines():
        m = re.match(r"\s*(?:%[\w#:, %]+=\s*)?waveasm\.([\w.]+)", line)
        if not m or line.lstrip().startswith("waveasm.program"):
            continue
        op = m.group(1)
        total += 1
        counts[classify(op)] += 1
        ops[op] = ops.get(op, 0) + 1
    return total, counts, ops


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--instructions", "-n", type=int, default=20000,
                    help="number of ops inside the program (default 20000)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--loop-body", type=int, default=None,
                    help="generate one loop whose body has exactly this many ops "
                         "(the program gets a short prologue/epilogue; "
                         "--instructions is then ignored)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    ap.add_argument("--stats", action="store_true",
                    help="print the op count and category mix to stderr")
    args = ap.parse_args()
    g = Gen(args.instructions, args.seed, args.loop_body)
    text = g.generate()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    if args.stats:
        total, counts, ops = count_ops(text)
        sys.stderr.write("instructions: %d (requested %d)\n" % (total, args.instructions))
        for k in TARGET_MIX:
            sys.stderr.write("  %-6s %6d  %5.1f%%  (target %4.1f%%)\n" % (
                k, counts[k], 100.0 * counts[k] / total, 100 * TARGET_MIX[k]))
        sys.stderr.write("  distinct ops: %d\n" % len(ops))


if __name__ == "__main__":
    main()
