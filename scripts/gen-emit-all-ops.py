#!/usr/bin/env python3
"""Generates tests/lit/pipeline/emit-all-ops-<target>.mlir: one register-
allocated instance of every WaveASM op that has an assembly form on the
target, for the assembly emitter's llvm-mc round trip.

usage: scripts/gen-emit-all-ops.py OPS_TSV TARGET [WAVEASM_OPT] > FILE

OPS_TSV is ../shared/waveasm/ops.tsv (one row per op). Ops that have no
assembly form on TARGET are listed in UNSUPPORTED and covered by the
diagnostics test instead. With WAVEASM_OPT, the emitted instructions are
appended as CHECK lines: review them against llvm-mc before committing.
"""

import subprocess
import sys

# Ops with no machine instruction on the target (diagnosed by the emitter).
UNSUPPORTED = {
    "both": {"v_mad_f32", "v_mfma_i32_16x16x16_i8", "v_mfma_i32_32x32x8_i8"},
    "gfx942": {
        "v_cvt_bf16_f32", "v_cvt_pk_bf16_f32", "v_mfma_f32_16x16x32_f16",
        "v_mfma_f32_16x16x32_bf16", "v_mfma_scale_f32_16x16x128_f8f6f4",
        "v_mfma_scale_f32_32x32x64_f8f6f4", "buffer_load_dwordx4_lds",
        "buffer_atomic_pk_add_bf16",
    },
    "gfx950": set(),
}

# MFMA: (accumulator registers, A/B registers).
MFMA = {
    "v_mfma_f32_16x16x16_f16": (4, 2), "v_mfma_f32_16x16x32_f16": (4, 4),
    "v_mfma_f32_32x32x8_f16": (16, 2), "v_mfma_f32_16x16x4_f16": (16, 2),
    "v_mfma_f32_32x32x4_f16": (32, 2), "v_mfma_f32_4x4x4_f16": (4, 2),
    "v_mfma_f32_16x16x16_bf16": (4, 2), "v_mfma_f32_16x16x32_bf16": (4, 4),
    "v_mfma_f32_32x32x8_bf16": (16, 2), "v_mfma_f32_16x16x4_bf16": (16, 2),
    "v_mfma_f32_32x32x4_bf16": (32, 2), "v_mfma_f32_4x4x4_bf16": (4, 2),
    "v_mfma_i32_16x16x4_i8": (16, 1), "v_mfma_i32_32x32x4_i8": (32, 1),
    "v_mfma_i32_4x4x4_i8": (4, 1), "v_mfma_f32_16x16x4_f32": (4, 1),
    "v_mfma_f32_32x32x2_f32": (16, 1), "v_mfma_f32_4x4x1_f32": (4, 1),
    "v_mfma_f64_16x16x4_f64": (8, 2), "v_mfma_f64_4x4x4_f64": (2, 2),
    "v_mfma_scale_f32_16x16x128_f8f6f4": (4, 4),
    "v_mfma_scale_f32_32x32x64_f8f6f4": (16, 4),
}
for k in ("16x16x32", "32x32x16"):
    for a in ("fp8", "bf8"):
        for b in ("fp8", "bf8"):
            MFMA[f"v_mfma_f32_{k}_{a}_{b}"] = (4 if k == "16x16x32" else 16, 2)

V64_ALL = {"v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64", "v_fma_f64",
           "v_sub_f64", "v_rcp_f64", "v_rsq_f64", "v_sqrt_f64", "v_mov_b64",
           "v_not_b64", "v_and_b64", "v_or_b64", "v_xor_b64"}


def pv(i, n=1):
    return f"!waveasm.pvreg<{i}>" if n == 1 else f"!waveasm.pvreg<{i}, {n}>"


def ps(i, n=1):
    return f"!waveasm.psreg<{i}>" if n == 1 else f"!waveasm.psreg<{i}, {n}>"


def pa(i, n=1):
    return f"!waveasm.pareg<{i}>" if n == 1 else f"!waveasm.pareg<{i}, {n}>"


# Inputs: (ssa name, type).
V = {1: ("%v16", pv(16)), 2: ("%v20", pv(20, 2)), 4: ("%v24", pv(24, 4)),
     8: ("%v32", pv(32, 8))}
V2 = {1: ("%v17", pv(17)), 2: ("%v22", pv(22, 2)), 4: ("%v28", pv(28, 4)),
      8: ("%v40", pv(40, 8))}
V3 = {1: ("%v18", pv(18)), 2: ("%v48", pv(48, 2))}
S = {1: ("%s8", ps(8)), 2: ("%s10", ps(10, 2))}
S2 = {1: ("%s9", ps(9)), 2: ("%s12", ps(12, 2))}

PROLOGUE = """  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %s9 = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %s10 = waveasm.precolored.sreg 10, 2 : !waveasm.psreg<10, 2>
  %s12 = waveasm.precolored.sreg 12, 2 : !waveasm.psreg<12, 2>
  %v16 = waveasm.precolored.vreg 16 : !waveasm.pvreg<16>
  %v17 = waveasm.precolored.vreg 17 : !waveasm.pvreg<17>
  %v18 = waveasm.precolored.vreg 18 : !waveasm.pvreg<18>
  %v20 = waveasm.precolored.vreg 20, 2 : !waveasm.pvreg<20, 2>
  %v22 = waveasm.precolored.vreg 22, 2 : !waveasm.pvreg<22, 2>
  %v24 = waveasm.precolored.vreg 24, 4 : !waveasm.pvreg<24, 4>
  %v28 = waveasm.precolored.vreg 28, 4 : !waveasm.pvreg<28, 4>
  %v32 = waveasm.precolored.vreg 32, 8 : !waveasm.pvreg<32, 8>
  %v40 = waveasm.precolored.vreg 40, 8 : !waveasm.pvreg<40, 8>
  %v48 = waveasm.precolored.vreg 48, 2 : !waveasm.pvreg<48, 2>
  %a0 = waveasm.precolored.areg 0 : !waveasm.pareg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>"""


class Gen:
    def __init__(self, target):
        self.target = target
        self.n = 0
        self.lines = []

    def res(self):
        self.n += 1
        return f"%r{self.n}"

    def emit(self, line):
        self.lines.append("  " + line)

    def valu(self, op, nops, nres):
        r = self.res()
        if op.startswith("v_cmp_"):
            w = 2 if op.endswith(("_i64", "_u64")) else 1
            (a, ta), (b, tb) = V[w], V2[w]
            self.emit(f"waveasm.{op} {a}, {b} : {ta}, {tb}")
            return
        if op in ("v_add_co_u32", "v_sub_co_u32", "v_addc_co_u32",
                  "v_subb_co_u32"):
            self.emit(f"{r}:2 = waveasm.{op} %v16, %v17 : {pv(16)}, {pv(17)}"
                      f" -> {pv(100)}, {ps(106, 2)}")
            return
        special = {
            "v_mov_b32": f"{r} = waveasm.v_mov_b32 %v16 : {pv(16)} -> {pv(100)}",
            "v_readfirstlane_b32":
                f"{r} = waveasm.v_readfirstlane_b32 %v16 : {pv(16)} -> {ps(20)}",
            "v_readlane_b32":
                f"{r} = waveasm.v_readlane_b32 %v16, %s8 : {pv(16)}, {ps(8)}"
                f" -> {ps(20)}",
            "v_writelane_b32":
                f"{r} = waveasm.v_writelane_b32 %s8, %c1, %v16 : {ps(8)}, "
                f"!waveasm.imm<1>, {pv(16)} -> {pv(16)}",
            "v_cndmask_b32":
                f"{r} = waveasm.v_cndmask_b32 %v16, %v17, %v18 : {pv(16)}, "
                f"{pv(17)}, {pv(18)} -> {pv(100)}",
            "v_accvgpr_read_b32":
                f"{r} = waveasm.v_accvgpr_read_b32 %a0 : {pa(0)} -> {pv(100)}",
            "v_accvgpr_write_b32":
                f"waveasm.v_accvgpr_write_b32 %v16, %a0 : {pv(16)}, {pa(0)}",
        }
        if op in special:
            self.emit(special[op])
            return
        wd, ws = 1, [1, 1, 1]
        if op in V64_ALL:
            wd, ws = 2, [2, 2, 2]
        elif op in ("v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"):
            wd, ws = 2, [1, 2, 1]
        elif op == "v_ldexp_f64":
            wd, ws = 2, [2, 1, 1]
        elif op == "v_cvt_f32_f64":
            ws = [2, 1, 1]
        elif op == "v_cvt_f64_f32":
            wd = 2
        srcs = [V[ws[0]], V2[ws[1]], V3[ws[2]]][:nops]
        names = ", ".join(s[0] for s in srcs)
        types = ", ".join(s[1] for s in srcs)
        self.emit(f"{r} = waveasm.{op} {names} : {types} -> {pv(100, wd)}")

    def mfma(self, op):
        acc, ab = MFMA[op]
        r = self.res()
        a, b = V[ab], V2[ab]
        accty = pa(64, acc)
        self.emit(f"%acc{self.n} = waveasm.precolored.areg 64, {acc} : {accty}")
        if op.startswith("v_mfma_scale"):
            self.emit(f"{r} = waveasm.{op} {a[0]}, {b[0]}, %acc{self.n}, %v16, "
                      f"%v17 {{cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 1 : "
                      f"i32, op_sel_b = 2 : i32}} : {a[1]}, {b[1]}, {accty}, "
                      f"{pv(16)}, {pv(17)} -> {accty}")
        else:
            self.emit(f"{r} = waveasm.{op} {a[0]}, {b[0]}, %acc{self.n} : "
                      f"{a[1]}, {b[1]}, {accty} -> {accty}")

    def salu(self, op, nops, nres):
        r = self.res()
        w64 = op.endswith("64")
        if op.startswith("s_cmp_"):
            w = 2 if w64 else 1
            self.emit(f"{r} = waveasm.{op} {S[w][0]}, {S2[w][0]} : {S[w][1]}, "
                      f"{S2[w][1]} -> !waveasm.scc")
            return
        if op == "s_cselect_b32":
            self.emit(f"%cmp{self.n} = waveasm.s_cmp_lt_u32 %s8, %s9 : "
                      f"{ps(8)}, {ps(9)} -> !waveasm.scc")
            self.emit(f"{r} = waveasm.s_cselect_b32 %cmp{self.n}, %s8, %c8 : "
                      f"!waveasm.scc, {ps(8)}, !waveasm.imm<8> -> {ps(20)}")
            return
        if op == "s_addc_u32":
            self.emit(f"%add{self.n}:2 = waveasm.s_add_u32 %s8, %s9 : {ps(8)}, "
                      f"{ps(9)} -> {ps(20)}, !waveasm.scc")
            self.emit(f"{r}:2 = waveasm.s_addc_u32 %add{self.n}#1, %s9, %c0 : "
                      f"!waveasm.scc, {ps(9)}, !waveasm.imm<0> -> {ps(21)}, "
                      f"!waveasm.scc")
            return
        if op == "s_mov_b32_m0":
            self.emit(f"waveasm.s_mov_b32_m0 %s8 : {ps(8)}")
            return
        if op == "s_and_saveexec_b64":
            self.emit(f"{r} = waveasm.s_and_saveexec_b64 -> {ps(20, 2)}")
            return
        if op == "s_mov_b64_exec":
            self.emit(f"waveasm.s_mov_b64_exec %s10 : {ps(10, 2)}")
            return
        wd, ws = 1, [1, 1]
        if w64:
            if op.startswith(("s_bcnt", "s_ff", "s_flbit")):
                ws = [2, 1]
            elif op == "s_bfm_b64":
                wd = 2
            elif op.startswith(("s_lshl", "s_lshr", "s_ashr", "s_bfe")):
                wd, ws = 2, [2, 1]
            else:
                wd, ws = 2, [2, 2]
        srcs = [S[ws[0]], S2[ws[1]]][:nops]
        names = ", ".join(s[0] for s in srcs)
        types = ", ".join(s[1] for s in srcs)
        results = ps(20, wd) + (", !waveasm.scc" if nres == 2 else "")
        bind = f"{r}:2" if nres == 2 else r
        self.emit(f"{bind} = waveasm.{op} {names} : {types} -> {results}")

    def smem(self, op):
        n = {"s_load_dword": 1, "s_load_dwordx2": 2, "s_load_dwordx4": 4,
             "s_load_dwordx8": 8, "s_load_dwordx16": 16}[op]
        self.emit(f"{self.res()} = waveasm.{op} %kargs, %c8 : {ps(0, 2)}, "
                  f"!waveasm.imm<8> -> {ps(32, n)}")

    def vmem(self, op):
        r = self.res()
        n = 1
        for suffix, k in (("x2", 2), ("x3", 3), ("x4", 4)):
            if op.endswith("dword" + suffix):
                n = k
        if op.endswith("_lds"):
            self.emit(f"waveasm.{op} %v16, %srd, %s8 {{instOffset = 4 : i64}}"
                      f" : {pv(16)}, {ps(4, 4)}, {ps(8)}")
            return
        base, bty = ("%srd", ps(4, 4)) if op.startswith("buffer") else \
            ("%s10", ps(10, 2))
        if "_load_" in op:
            self.emit(f"{r} = waveasm.{op} {base}, %v16, %c0 offset : 16 : "
                      f"{bty}, {pv(16)}, !waveasm.imm<0> -> {pv(100, n)}")
        else:
            data = {1: ("%v17", pv(17)), 2: ("%v20", pv(20, 2)),
                    3: ("%v24", pv(24, 3)), 4: ("%v24", pv(24, 4))}[n]
            if n == 3:
                self.emit(f"%x3_{self.n} = waveasm.precolored.vreg 24, 3 : {pv(24, 3)}")
                data = (f"%x3_{self.n}", pv(24, 3))
            self.emit(f"waveasm.{op} {data[0]}, {base}, %v16 offset : 8 : "
                      f"{data[1]}, {bty}, {pv(16)}")

    def lds(self, op):
        n = {"b32": 1, "b64": 2, "b128": 4, "u8": 1, "i8": 1, "u16": 1,
             "i16": 1, "b8": 1, "b16": 1}[op.rsplit("_", 1)[1]]
        if op.startswith(("ds_read2", "ds_write2")):
            n = 2 if op.endswith("b32") else 4
        if op.startswith("ds_read"):
            self.emit(f"{self.res()} = waveasm.{op} %v16 {{offset = 16 : i64}}"
                      f" : {pv(16)} -> {pv(100, n)}")
        else:
            data = {1: ("%v17", pv(17)), 2: ("%v20", pv(20, 2)),
                    4: ("%v24", pv(24, 4))}[n]
            self.emit(f"waveasm.{op} {data[0]}, %v16 {{offset = 16 : i64}} : "
                      f"{data[1]}, {pv(16)}")

    def other(self, op):
        forms = {
            "s_waitcnt": "waveasm.s_waitcnt vmcnt(0) lgkmcnt(0)",
            "s_waitcnt_vmcnt": "waveasm.s_waitcnt_vmcnt 1",
            "s_waitcnt_lgkmcnt": "waveasm.s_waitcnt_lgkmcnt 2",
            "s_waitcnt_expcnt": "waveasm.s_waitcnt_expcnt 3",
            "s_barrier": "waveasm.s_barrier",
            "s_nop": "waveasm.s_nop 2",
            "s_sched_barrier": "waveasm.s_sched_barrier 0",
            "s_setprio": "waveasm.s_setprio 1",
            "s_branch": "waveasm.s_branch @L_top",
            "s_cbranch_scc0": "waveasm.s_cbranch_scc0 @L_top",
            "s_cbranch_scc1": "waveasm.s_cbranch_scc1 @L_top",
            "s_cbranch_vccz": "waveasm.s_cbranch_vccz @L_top",
            "s_cbranch_vccnz": "waveasm.s_cbranch_vccnz @L_top",
            "s_cbranch_execz": "waveasm.s_cbranch_execz @L_top",
            "s_cbranch_execnz": "waveasm.s_cbranch_execnz @L_top",
            "label": "waveasm.label @L_top",
            "comment": 'waveasm.comment "all ops"',
            "raw": 'waveasm.raw "s_nop 0"',
            "dce_protect": f"waveasm.dce_protect %v16 : {pv(16)}",
        }
        if op in forms:
            self.emit(forms[op])
            return True
        return op in ("s_endpgm", "constant", "precolored.vreg",
                      "precolored.sreg", "precolored.areg", "program",
                      "condition", "yield")

    def structure(self):
        self.emit(f"%pk = waveasm.pack %v16, %v17 : ({pv(16)}, {pv(17)}) -> "
                  f"{pv(16, 2)}")
        self.emit(f"%ex = waveasm.extract %v24[2] : {pv(24, 4)} -> {pv(26)}")
        self.emit(f"%in = waveasm.insert %v17 into %v28[1] : {pv(17)}, "
                  f"{pv(28, 4)} -> {pv(28, 4)}")
        self.emit(f"%lp = waveasm.loop (%i = %s8) : ({ps(8)}) -> {ps(8)} {{")
        self.emit(f"  %nx:2 = waveasm.s_add_u32 %i, %c1 : {ps(8)}, "
                  f"!waveasm.imm<1> -> {ps(8)}, !waveasm.scc")
        self.emit(f"  %cc = waveasm.s_cmp_lt_u32 %nx#0, %s9 : {ps(8)}, {ps(9)}"
                  f" -> !waveasm.scc")
        self.emit(f"  waveasm.condition %cc : !waveasm.scc iter_args(%nx#0) : "
                  f"{ps(8)}")
        self.emit("}")
        self.emit(f"%ic = waveasm.s_cmp_eq_u32 %lp, %s9 : {ps(8)}, {ps(9)} -> "
                  f"!waveasm.scc")
        self.emit(f"%if = waveasm.if %ic : !waveasm.scc -> {ps(8)} {{")
        self.emit(f"  waveasm.yield %s9 : {ps(9)}")
        self.emit("} else {")
        self.emit(f"  waveasm.yield %lp : {ps(8)}")
        self.emit("}")


OUT = []


def print(*args):  # noqa: A001 - collect the text for the CHECK pass
    line = " ".join(str(a) for a in args)
    OUT.append(line)
    sys.stdout.write(line + "\n")


def main():
    tsv, target = sys.argv[1], sys.argv[2]
    skip = UNSUPPORTED["both"] | UNSUPPORTED[target]
    g = Gen(target)
    rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
    for name, cat, nops, nres, *_ in rows:
        op = name.removeprefix("waveasm.")
        if op in skip or cat == "ARITH_PSEUDO":
            continue
        nops_i = int(nops) if nops.isdigit() else 0
        nres_i = int(nres) if nres.isdigit() else 0
        if op in ("loop", "if", "pack", "extract", "insert"):
            continue
        if cat == "VALU":
            g.valu(op, nops_i, nres_i)
        elif cat == "MFMA":
            g.mfma(op)
        elif cat in ("SALU", "SPECIAL_REG"):
            g.salu(op, nops_i, nres_i)
        elif cat == "SMEM":
            g.smem(op)
        elif cat == "VMEM":
            g.vmem(op)
        elif cat == "LDS":
            g.lds(op)
        elif not g.other(op):
            sys.exit(f"unhandled op {op} ({cat})")
    g.structure()
    print(f"// Generated by scripts/gen-emit-all-ops.py {target}: one instance "
          f"of every op with an")
    print(f"// assembly form on {target}, assembled by llvm-mc.")
    print(f"// RUN: waveasm-opt --emit-assembly %s | llvm-mc "
          f"-triple=amdgcn-amd-amdhsa -mcpu={target} -filetype=obj -o /dev/null")
    print(f"// RUN: waveasm-opt --emit-assembly %s | FileCheck %s")
    print()
    print(f"waveasm.program @all_ops_{target} target = "
          f"#waveasm.target<#waveasm.{target}, 5>")
    print("    abi = #waveasm.abi<tid = 0, kernarg = 0> {")
    print(PROLOGUE)
    for line in g.lines:
        print(line)
    print("  waveasm.s_endpgm")
    print("}")
    if len(sys.argv) > 3:
        text = "\n".join(OUT)
        asm = subprocess.run([sys.argv[3], "--emit-assembly", "-"],
                             input=text, capture_output=True, text=True,
                             check=True).stdout.splitlines()
        start = asm.index(f"all_ops_{target}:")
        print()
        print(f"// CHECK-LABEL: {{{{^}}}}all_ops_{target}:")
        for line in asm[start + 1:]:
            if line.startswith("  "):
                print(f"// CHECK-NEXT: {line.strip()}")
            else:
                print(f"// CHECK-NEXT: {{{{^}}}}{line}")
            if line.strip() == "s_endpgm":
                break


if __name__ == "__main__":
    main()
