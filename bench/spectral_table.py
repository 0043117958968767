#!/usr/bin/env python3
"""Seed 002's spectral strategy next to the pressure strategy.

Per innermost loop of the examples: peak VGPRs and the co-access cost C(pi)
(with the modularity Q) of the input order and of each strategy's order
(`waveasm-strategy`, bench/StrategyDriver.cpp; the spectral order compiled
as the Conductor's round would be), what the Conductor keeps when it runs
the spectral strategy alone (`waveasm-conductor --strategy spectral`: kept
only if the metrics improve, checked by execution), and the strategy's time
on generated loop bodies (gen_waveasm.py --loop-body N).

    python3 bench/spectral_table.py [--build build] [--out results/spectral.json]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLES = [
    "attention_softmax_rows.mlir", "dequant_i8_to_f16.mlir",
    "gemm_bf16_splitk_agpr.mlir", "gemm_f16_32x32x8_global.mlir",
    "gemm_f16_double_buffer.mlir", "gemm_f16_triple_buffer_ntiles.mlir",
    "mxfp4_gemm_direct_to_lds.mlir", "mxfp4_preshuffle_gemm_loop.mlir",
]


def run_strategy(tool, path, strategy):
    """The driver's JSON lines (one per innermost loop)."""
    proc = subprocess.run([tool, "--strategy", strategy, path, "-o", os.devnull],
                          capture_output=True, text=True, check=True)
    return [json.loads(line) for line in proc.stderr.splitlines()
            if line.startswith("{")]


def run_conductor(tool, path):
    """The Conductor with the spectral strategy only: its before/after table."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [tool, path, "--no-cache", "--strategy", "spectral",
             "-o", os.path.join(tmp, "out.mlir")],
            capture_output=True, text=True)
    rows = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"(\S+)\s+(-?[\d.]+)\s+(-?[\d.]+)", line)
        if m:
            rows[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    rounds = [l for l in proc.stdout.splitlines() if l.startswith("round")]
    better = [l.strip()[len("better: "):] for l in proc.stdout.splitlines()
              if l.strip().startswith("better: ")]
    notes = [l for l in proc.stdout.splitlines() + proc.stderr.splitlines()
             if "not checked" in l]
    return {"exit": proc.returncode, "rows": rows, "rounds": rounds,
            "better": better, "checked": not notes}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(HERE, "results",
                                                      "spectral.json"))
    parser.add_argument("--sizes", default="100,300,600")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    strategy_tool = os.path.join(args.build, "bin", "waveasm-strategy")
    conductor = os.path.join(args.build, "bin", "waveasm-conductor")

    loops = []
    for name in EXAMPLES:
        path = os.path.join(ROOT, "examples", name)
        by = {s: run_strategy(strategy_tool, path, s)
              for s in ("pressure", "spectral")}
        cond = run_conductor(conductor, path)
        for i, spectral in enumerate(by["spectral"]):
            pressure = by["pressure"][i]
            def vgpr(entry, key):
                m = entry.get(key)
                return m["peak_vgpr"] if m else None
            loops.append({
                "kernel": name[:-5], "loop": spectral["loop"],
                "ops": spectral["ops"],
                "input": {"peak_vgpr": vgpr(spectral, "before"),
                          "C": spectral["coaccess"]["cost_before"],
                          "Q": spectral["coaccess"]["q_before"]},
                "pressure": {"peak_vgpr": vgpr(pressure, "after"),
                             "C": pressure["coaccess"]["cost_after"],
                             "Q": pressure["coaccess"]["q_after"],
                             "improved": pressure["improved"]},
                "spectral": {"peak_vgpr": vgpr(spectral, "after"),
                             "C": spectral["coaccess"]["cost_after"],
                             "Q": spectral["coaccess"]["q_after"],
                             "improved": spectral["improved"],
                             "variant": spectral["variant"],
                             "ms": spectral["ms"],
                             "cpu_ms": spectral["cpu_ms"]},
                "conductor_spectral": cond,
            })

    timing = []
    gen = os.path.join(HERE, "gen_waveasm.py")
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            path = os.path.join(tmp, f"loop{size}.mlir")
            subprocess.run([sys.executable, gen, "--loop-body", str(size),
                            "-o", path], check=True)
            runs = [run_strategy(strategy_tool, path, "spectral")[0]
                    for _ in range(args.runs)]
            timing.append({"loop_body": size, "ops": runs[0]["ops"],
                           "ms_median": statistics.median(r["ms"] for r in runs),
                           "ms_min": min(r["ms"] for r in runs),
                           "cpu_ms_median": statistics.median(
                               r["cpu_ms"] for r in runs),
                           "C_before": runs[0]["coaccess"]["cost_before"],
                           "C_after": runs[0]["coaccess"]["cost_after"],
                           "improved": runs[0]["improved"]})

    result = {"loops": loops, "timing": timing}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")

    def fmt(x):
        return "-" if x is None else (f"{x:.0f}" if isinstance(x, float) else str(x))
    print("| loop | ops | peak VGPR: input / pressure / spectral | C(pi): input / "
          "pressure / spectral | Q: input / spectral | Conductor (spectral) |")
    print("|---|---|---|---|---|---|")
    for l in loops:
        c = l["conductor_spectral"]
        if c["better"]:
            verdict = "kept: " + c["better"][0]
        elif any(" 0 moves" in r for r in c["rounds"]):
            verdict = "rolled back (C gain < epsilon)"
        else:
            verdict = "reverted (metrics not better)"
        if not c["checked"]:
            verdict += "; not checked by execution"
        print(f"| {l['kernel']} #{l['loop']} | {l['ops']} | "
              f"{fmt(l['input']['peak_vgpr'])} / {fmt(l['pressure']['peak_vgpr'])}"
              f" / {fmt(l['spectral']['peak_vgpr'])} | "
              f"{l['input']['C']:.1f} / {l['pressure']['C']:.1f} / "
              f"{l['spectral']['C']:.1f} | {l['input']['Q']:.3f} / "
              f"{l['spectral']['Q']:.3f} | {verdict} |")
    for t in timing:
        print(f"spectral strategy, --loop-body {t['loop_body']} ({t['ops']} ops): "
              f"{t['ms_median']:.1f} ms wall median (min {t['ms_min']:.1f}), "
              f"{t['cpu_ms_median']:.1f} ms CPU; "
              f"C {t['C_before']:.1f} -> {t['C_after']:.1f}")


if __name__ == "__main__":
    main()
