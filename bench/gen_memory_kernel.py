#!/usr/bin/env python3
"""Generates a large WaveASM program for timing the wait-count and hazard
passes: a straight-line prologue, a K loop and an epilogue built from a
repeating block of buffer loads, LDS writes/reads, barriers, VALU (some
transcendental), v_readfirstlane, MFMA accumulator chains and stores.

  gen_memory_kernel.py N [--physical] > big.mlir

N is the approximate number of instructions. --physical writes allocated IR
(!waveasm.pvreg / !waveasm.psreg, registers assigned round-robin) instead of
virtual registers.
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("n", type=int)
p.add_argument("--physical", action="store_true")
args = p.parse_args()

phys = args.physical
out = []
emit = out.append
counter = [0]
vnext = [32]  # round-robin physical VGPR (v32..v223), 4-aligned blocks
snext = [40]


def name(prefix="v"):
    counter[0] += 1
    return f"%{prefix}{counter[0]}"


def vt(size=1):
    if not phys:
        return "!waveasm.vreg" if size == 1 else f"!waveasm.vreg<{size}, {size}>"
    base = vnext[0]
    base = (base + size - 1) // size * size
    if base + size > 224:
        base = 32
    vnext[0] = base + size
    return f"!waveasm.pvreg<{base}>" if size == 1 else f"!waveasm.pvreg<{base}, {size}>"


def st():
    if not phys:
        return "!waveasm.sreg"
    s = snext[0]
    snext[0] = 40 if s >= 90 else s + 1
    return f"!waveasm.psreg<{s}>"


emit("waveasm.program @big target = #waveasm.target<#waveasm.gfx942, 5>")
emit("    abi = #waveasm.abi<tid = 0, kernarg = 0>")
emit("    attributes {workgroup_size = [256, 1, 1]} {")
emit("  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>")
emit("  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>")
emit("  %c0 = waveasm.constant 0 : !waveasm.imm<0>")
emit("  %c4 = waveasm.constant 4 : !waveasm.imm<4>")
emit("  %c1 = waveasm.constant 1 : !waveasm.imm<1>")
emit("  %c64 = waveasm.constant 64 : !waveasm.imm<64>")
t = vt()
emit(f"  %off = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> {t}")
OFF = ("%off", t)
count = [0]


def block(indent, acc):
    """One repeating unit (~24 instructions); returns the new accumulator."""
    i = " " * indent
    off, offt = OFF
    a, at = name(), vt(4)
    emit(f"{i}{a} = waveasm.buffer_load_dwordx4 %srd, {off}, %c0 : !waveasm.psreg<8, 4>, {offt}, !waveasm.imm<0> -> {at}")
    b, bt = name(), vt(4)
    emit(f"{i}{b} = waveasm.buffer_load_dwordx4 %srd, {off}, %c0 offset : 64 : !waveasm.psreg<8, 4>, {offt}, !waveasm.imm<0> -> {bt}")
    emit(f"{i}waveasm.ds_write_b128 {a}, {off} : {at}, {offt}")
    emit(f"{i}waveasm.ds_write_b128 {b}, {off} {{offset = 2048 : i64}} : {bt}, {offt}")
    emit(f"{i}waveasm.s_barrier")
    frags = []
    for k in range(4):
        f, ft = name(), vt(2)
        emit(f"{i}{f} = waveasm.ds_read_b64 {off} {{offset = {k * 256} : i64}} : {offt} -> {ft}")
        frags.append((f, ft))
    for k in range(4):
        (x, xt), (y, yt) = frags[k % 2], frags[2 + k // 2]
        n, nt = name(), acc[1] if phys else "!waveasm.vreg<4, 4>"
        emit(f"{i}{n} = waveasm.v_mfma_f32_16x16x16_f16 {x}, {y}, {acc[0]} : {xt}, {yt}, {acc[1]} -> {nt}")
        acc = (n, nt)
    e, et = name(), vt()
    emit(f"{i}{e} = waveasm.extract {acc[0]}[0] : {acc[1]} -> {et if not phys else '!waveasm.pvreg<%d>' % int(acc[1].split('<')[1].split(',')[0])}")
    if phys:
        et = '!waveasm.pvreg<%d>' % int(acc[1].split('<')[1].split(',')[0])
    r, rt = name(), vt()
    emit(f"{i}{r} = waveasm.v_exp_f32 {e} : {et} -> {rt}")
    m, mt = name(), vt()
    emit(f"{i}{m} = waveasm.v_mul_f32 {r}, {e} : {rt}, {et} -> {mt}")
    s, stt = name("s"), st()
    emit(f"{i}{s} = waveasm.v_readfirstlane_b32 {m} : {mt} -> {stt}")
    l, lt = name(), vt()
    emit(f"{i}{l} = waveasm.buffer_load_dword %srd, {off}, {s} : !waveasm.psreg<8, 4>, {offt}, {stt} -> {lt}")
    q, qt = name(), vt()
    emit(f"{i}{q} = waveasm.v_add_u32 {l}, {m} : {lt}, {mt} -> {qt}")
    emit(f"{i}waveasm.buffer_store_dword {q}, %srd, {off} : {qt}, !waveasm.psreg<8, 4>, {offt}")
    count[0] += 24
    return acc


acc_t = vt(4) if phys else "!waveasm.vreg<4, 4>"
emit(f"  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> {acc_t}")
acc = ("%acc0", acc_t)
third = max(1, args.n // 3 // 24)
for _ in range(third):
    acc = block(2, acc)
k0t = st()
emit(f"  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> {k0t}")
emit(f"  %kend, %accend = waveasm.loop (%k = %k0, %a = {acc[0]}) : ({k0t}, {acc[1]}) -> ({k0t}, {acc[1]}) {{")
acc = ("%a", acc[1])
for _ in range(third):
    acc = block(4, acc)
emit(f"    %kn:2 = waveasm.s_add_u32 %k, %c1 : {k0t}, !waveasm.imm<1> -> {k0t}, !waveasm.scc")
emit(f"    %more = waveasm.s_cmp_lt_u32 %kn#0, %c64 : {k0t}, !waveasm.imm<64> -> !waveasm.scc")
emit(f"    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, {acc[0]}) : {k0t}, {acc[1]}")
emit("  }")
acc = ("%accend", acc[1])
for _ in range(third):
    acc = block(2, acc)
emit(f"  waveasm.buffer_store_dwordx4 {acc[0]}, %srd, {OFF[0]} : {acc[1]}, !waveasm.psreg<8, 4>, {OFF[1]}")
emit("  waveasm.s_endpgm")
emit("}")
print("\n".join(out))
