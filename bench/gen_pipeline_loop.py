#!/usr/bin/env python3
"""Generate a software-pipelinable K loop of about N body ops.

Each group loads two f16 fragments (buffer_load_dwordx2 at a per-iteration
soffset), masks them (extract, v_and_b32, pack) and accumulates one MFMA
into its own carried accumulator: the shape of tests/lit/pipeline/Inputs/
pipeline-loops/dot-static.mlir, repeated. waveasm-bench-loop-opt times
waveasm-assign-loop-stages and waveasm-pipeline-loops on it
(bench/results/pipeline_loops.json).

usage: gen_pipeline_loop.py [--ops N] [--trips T] [-o FILE]
"""
import argparse
import sys

GROUP_OPS = 13  # 2 loads, 4 extracts, 4 ands, 2 packs, 1 MFMA


def generate(ops, trips):
    groups = max(1, (ops - 4) // GROUP_OPS)
    out = []
    w = out.append
    w("waveasm.program @pipe target = #waveasm.target<#waveasm.gfx942, 5>")
    w("    abi = #waveasm.abi<tid = 0, kernarg = 0>")
    w("    attributes {workgroup_size = [64, 1, 1]} {")
    w("  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>")
    w("  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>")
    w("  %srd_b = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>")
    w("  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>")
    w("  %c0 = waveasm.constant 0 : !waveasm.imm<0>")
    w("  %c1 = waveasm.constant 1 : !waveasm.imm<1>")
    w("  %c3 = waveasm.constant 3 : !waveasm.imm<3>")
    w("  %c4 = waveasm.constant 4 : !waveasm.imm<4>")
    w("  %c9 = waveasm.constant 9 : !waveasm.imm<9>")
    w(f"  %cn = waveasm.constant {trips} : !waveasm.imm<{trips}>")
    w("  %mask = waveasm.constant 1006582783 : !waveasm.imm<1006582783>")
    w("  %voff = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, "
      "!waveasm.pvreg<0> -> !waveasm.vreg")
    w("  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg")
    acc_t = "!waveasm.vreg<4, 4>"
    for g in range(groups):
        w(f"  %z{g} = waveasm.v_mov_b32 %c0 {{no_cse}} : !waveasm.imm<0> -> "
          f"{acc_t}")
    args = ", ".join(["%k = %k0"] + [f"%acc{g} = %z{g}" for g in range(groups)])
    types = ", ".join(["!waveasm.sreg"] + [acc_t] * groups)
    results = ", ".join(["%k_end"] + [f"%r{g}" for g in range(groups)])
    w(f"  {results} = waveasm.loop ({args})")
    w(f"      : ({types}) -> ({types}) {{")
    w("    %soff:2 = waveasm.s_lshl_b32 %k, %c9 : !waveasm.sreg, "
      "!waveasm.imm<9> -> !waveasm.sreg, !waveasm.scc")
    v2 = "!waveasm.vreg<2, 2>"
    mask_t = "!waveasm.imm<1006582783>"
    for g in range(groups):
        for x, srd in (("a", "%srd_a : !waveasm.psreg<4, 4>"),
                       ("b", "%srd_b : !waveasm.psreg<8, 4>")):
            name, ty = srd.split(" : ")
            w(f"    %{x}{g} = waveasm.buffer_load_dwordx2 {name}, %voff, "
              f"%soff#0 offset : {g * 8} : {ty}, !waveasm.vreg, "
              f"!waveasm.sreg -> {v2}")
            for i in range(2):
                w(f"    %{x}{g}e{i} = waveasm.extract %{x}{g}[{i}] : {v2} -> "
                  "!waveasm.vreg")
                w(f"    %{x}{g}m{i} = waveasm.v_and_b32 %{x}{g}e{i}, %mask : "
                  f"!waveasm.vreg, {mask_t} -> !waveasm.vreg")
            w(f"    %{x}{g}p = waveasm.pack %{x}{g}m0, %{x}{g}m1 : "
              f"(!waveasm.vreg, !waveasm.vreg) -> {v2}")
        w(f"    %n{g} = waveasm.v_mfma_f32_16x16x16_f16 %a{g}p, %b{g}p, "
          f"%acc{g} : {v2}, {v2}, {acc_t} -> {acc_t}")
    w("    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> "
      "-> !waveasm.sreg, !waveasm.scc")
    w(f"    %more = waveasm.s_cmp_lt_u32 %k1#0, %cn : !waveasm.sreg, "
      f"!waveasm.imm<{trips}> -> !waveasm.scc")
    yields = ", ".join(["%k1#0"] + [f"%n{g}" for g in range(groups)])
    w(f"    waveasm.condition %more : !waveasm.scc iter_args({yields}) : "
      f"{types}")
    w("  }")
    w("  %out = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, "
      "!waveasm.pvreg<0> -> !waveasm.vreg")
    for g in range(groups):
        w(f"  waveasm.buffer_store_dwordx4 %r{g}, %srd_c, %out offset : "
          f"{g * 1024 % 4096} : {acc_t}, !waveasm.psreg<12, 4>, !waveasm.vreg")
    w("  waveasm.s_endpgm")
    w("}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=300,
                        help="approximate loop body ops (default 300)")
    parser.add_argument("--trips", type=int, default=8)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    text = generate(args.ops, args.trips)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
