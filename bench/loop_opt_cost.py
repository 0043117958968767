#!/usr/bin/env python3
"""Cost of the loop optimizations per instruction, at 1k, 10k and 50k
instructions: they must be linear.

Three kinds of programs per size:
  * `gen`: bench/gen_waveasm.py's GEMM-like programs (the passes scan every
    loop; few shapes match);
  * `loops`: many loops of about 250 ops whose bodies are full of the shapes
    the passes rewrite (strength-reduction candidates over 4 descriptors
    and 4 strides, LDS reads off a double buffer, 4 scale-byte repack
    chains), so every loop is rebuilt;
  * `one-loop`: the same shapes in a single loop of the whole size.

Each pass runs alone in process (`waveasm-bench-loop-opt`, Google
Benchmark: a fresh clone per iteration, not timed; no verifier); the median
wall time divided by the program's op count is the ns per instruction.
Writes bench/results/loop_opt_cost.json.

Usage: bench/loop_opt_cost.py [--bench build/bin/waveasm-bench-loop-opt]
                              [--sizes 1000,10000,50000,200000] [--repeat 5]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PASSES = [
    ("waveasm-scale-pack-elimination", "WaveASMScalePackElimination"),
    ("waveasm-buffer-load-strength-reduction",
     "WaveASMBufferLoadStrengthReduction"),
    ("waveasm-loop-address-promotion", "WaveASMLoopAddressPromotion"),
]  # (flag, pass name)

V = "!waveasm.vreg"
S = "!waveasm.sreg"
IMM = "!waveasm.imm<%d>"
TID = "!waveasm.pvreg<0>"


def prologue(out):
    out.append("waveasm.program @loop_opt_cost target = "
               "#waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {")
    out.append("  %tid = waveasm.precolored.vreg 0 : " + TID)
    for d in range(4):
        out.append("  %%srd%d = waveasm.precolored.sreg %d, 4 : "
                   "!waveasm.psreg<%d, 4>" % (d, 4 + 4 * d, 4 + 4 * d))
    for c in (0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 64, 4096):
        out.append("  %%c%d = waveasm.constant %d : %s" % (c, c, IMM % c))
    for j in range(8):
        out.append("  %%inv%d = waveasm.v_lshlrev_b32 %%c%d, %%tid : %s, %s "
                   "-> %s" % (j, j % 4 + 1, IMM % (j % 4 + 1), TID, V))
    out.append("  %%x = waveasm.buffer_load_dword %%srd0, %%tid, %%c0 : "
               "!waveasm.psreg<4, 4>, %s, %s -> %s" % (TID, IMM % 0, V))
    for k in range(4):
        out.append("  %%x%d = waveasm.v_bfe_u32 %%x, %%c%d, %%c8 : %s, %s, "
                   "%s -> %s" % (k, 8 * k, V, IMM % (8 * k), IMM % 8, V))
    out.append("  %%k0 = waveasm.s_mov_b32 %%c0 : %s -> %s" % (IMM % 0, S))
    out.append("  %%b1 = waveasm.s_mov_b32 %%c4096 : %s -> %s"
               % (IMM % 4096, S))
    return len(out) - 1  # ops so far (the program line is not an op)


def loop(out, index, body_ops, chains=4):
    """One loop whose body has about `body_ops` ops; returns the op count."""
    args = ["%k = %k0", "%rd = %k0", "%wr = %b1"]
    types = [S, S, S]
    for c in range(chains):
        for k in range(4):
            args.append("%%y%d_%d = %%x%d" % (c, k, k))
            types.append(V)
    out.append("  %%r%d:%d = waveasm.loop (%s) : (%s) -> (%s) {"
               % (index, len(types), ", ".join(args), ", ".join(types),
                  ", ".join(types)))
    ops = 1
    out.append("    %%kn:2 = waveasm.s_add_u32 %%k, %%c1 : %s, %s -> %s, "
               "!waveasm.scc" % (S, IMM % 1, S))
    ops += 1
    for c in range(chains):
        out.append("    %%p%d_1 = waveasm.v_lshl_or_b32 %%y%d_1, %%c8, "
                   "%%y%d_0 : %s, %s, %s -> %s" % (c, c, c, V, IMM % 8, V, V))
        out.append("    %%p%d_2 = waveasm.v_lshl_or_b32 %%y%d_2, %%c16, "
                   "%%p%d_1 : %s, %s, %s -> %s" % (c, c, c, V, IMM % 16, V, V))
        out.append("    %%p%d = waveasm.v_lshl_or_b32 %%y%d_3, %%c24, "
                   "%%p%d_2 : %s, %s, %s -> %s" % (c, c, c, V, IMM % 24, V, V))
        out.append("    %%n%d = waveasm.buffer_load_dword %%srd1, %%p%d, "
                   "%%kn#0 : !waveasm.psreg<8, 4>, %s, %s -> %s"
                   % (c, c, V, S, V))
        for k in range(4):
            out.append("    %%z%d_%d = waveasm.v_bfe_u32 %%n%d, %%c%d, %%c8 "
                       ": %s, %s, %s -> %s" % (c, k, c, 8 * k, V,
                                               IMM % (8 * k), IMM % 8, V))
        ops += 8
    u = 0
    while ops < body_ops - 2:
        if u % 2 == 0:  # strength-reduction candidate
            d, s = (u // 2) % 4, (u // 8) % 4 + 2
            out.append("    %%sa%d = waveasm.v_lshlrev_b32 %%c%d, %%kn#0 : "
                       "%s, %s -> %s" % (u, s, IMM % s, S, V))
            out.append("    %%sv%d = waveasm.v_add_u32 %%sa%d, %%inv%d : "
                       "%s, %s -> %s" % (u, u, u % 8, V, V, V))
            out.append("    %%sl%d = waveasm.buffer_load_dword %%srd%d, "
                       "%%sv%d, %%c0 : !waveasm.psreg<%d, 4>, %s, %s -> %s"
                       % (u, d, u, 4 + 4 * d, V, IMM % 0, V))
            ops += 3
        else:  # LDS read off the rotating read buffer
            out.append("    %%la%d = waveasm.v_add_u32 %%rd, %%inv%d : "
                       "%s, %s -> %s" % (u, u % 8, S, V, V))
            out.append("    %%lr%d = waveasm.ds_read_b32 %%la%d : %s -> %s"
                       % (u, u, V, V))
            ops += 2
        u += 1
    out.append("    %%go = waveasm.s_cmp_lt_u32 %%kn#0, %%c64 : %s, %s -> "
               "!waveasm.scc" % (S, IMM % 64))
    yields = ["%kn#0", "%wr", "%rd"]
    for c in range(chains):
        yields += ["%%z%d_%d" % (c, k) for k in range(4)]
    out.append("    waveasm.condition %%go : !waveasm.scc iter_args(%s) : %s"
               % (", ".join(yields), ", ".join(types)))
    out.append("  }")
    return ops + 2


def gen_shapes(n, body_ops):
    out = []
    total = prologue(out)
    index = 0
    while total < n - 1:
        total += loop(out, index, min(body_ops, n - 1 - total))
        index += 1
    out.append("  waveasm.s_endpgm")
    out.append("}")
    return "\n".join(out) + "\n", total + 1


def measure(bench, path, repeat):
    """Median wall time per pass (seconds) and the op count of `path`."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([bench, "--benchmark_repetitions=%d" % repeat,
                        "--benchmark_out=" + out.name,
                        "--benchmark_out_format=json", path],
                       check=True, capture_output=True)
        report = json.load(open(out.name))
    # The median of the repetitions (a single repetition has no aggregate).
    times, ops = {}, 0
    for b in report["benchmarks"]:
        if b.get("run_type") == "aggregate" and \
                b.get("aggregate_name") != "median":
            continue
        name = b["run_name"].split("/")[0]
        if b.get("run_type") != "aggregate" and name in times and repeat > 1:
            continue
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        times[name] = b["real_time"] * unit
        ops = int(b["ops"])
    return times, ops


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", default=os.path.join(
        ROOT, "build", "bin", "waveasm-bench-loop-opt"),
        help="the in-process driver (bench/LoopOptBench.cpp)")
    parser.add_argument("--sizes", default="1000,10000,50000,200000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", default=os.path.join(
        ROOT, "bench", "results", "loop_opt_cost.json"))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            kernels = {}
            path = os.path.join(tmp, "gen%d.mlir" % n)
            subprocess.run([sys.executable,
                            os.path.join(ROOT, "bench", "gen_waveasm.py"),
                            "-n", str(n), "--seed", "1", "-o", path],
                           check=True)
            kernels["gen"] = path
            for kind, body in (("loops", 250), ("one-loop", n)):
                path = os.path.join(tmp, "%s%d.mlir" % (kind, n))
                text, _ = gen_shapes(n, body)
                with open(path, "w") as f:
                    f.write(text)
                kernels[kind] = path
            for kind, path in kernels.items():
                times, ops = measure(args.bench, path, args.repeat)
                for flag, _ in PASSES:
                    rows.append({"kind": kind, "size": n, "ops": ops,
                                 "pass": flag, "seconds": times[flag],
                                 "ns_per_op": times[flag] * 1e9 / ops})
    print("| program | ops | " + " | ".join(f for f, _ in PASSES) + " |")
    print("|---|---|" + "---|" * len(PASSES))
    keys = []
    for r in rows:
        if (r["kind"], r["size"]) not in keys:
            keys.append((r["kind"], r["size"]))
    for kind, n in keys:
        cells = []
        ops = 0
        for flag, _ in PASSES:
            r = next(r for r in rows if r["kind"] == kind
                     and r["size"] == n and r["pass"] == flag)
            ops = r["ops"]
            cells.append("%.0f ns/op (%.2f ms)" % (r["ns_per_op"],
                                                   r["seconds"] * 1e3))
        print("| %s %d | %d | %s |" % (kind, n, ops, " | ".join(cells)))
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"rows": rows}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
