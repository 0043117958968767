#!/usr/bin/env python3
"""Benchmark: single WaveASM-to-WaveASM passes on generated files.

For each size (default 1k, 10k, 20k, 50k instructions) a GEMM-like kernel is
generated with gen_waveasm.py and each pass (default: the peephole family,
--waveasm-scoped-cse, --waveasm-peephole, --waveasm-m0-redundancy-elim,
--waveasm-memory-offset-opt) runs alone on it K times (default 7):

  waveasm-opt --verify-each=false --mlir-timing --PASS FILE -o /dev/null

The pass's own line of the --mlir-timing report is its time (parsing,
printing and the verifier after the pass are excluded; the report has a
0.1 ms resolution). Reported per pass and size: the minimum over the runs
(the machine is shared; the minimum is the least disturbed run) and ns per
instruction. Linear passes keep ns/instr roughly flat across sizes; the
script prints ns/instr(largest) / ns/instr(10k) per pass (1.0 = linear;
cache misses on the largest file push it somewhat above 1). Timings are
never asserted.

Writes bench/results/opt_passes.json. waveasm-opt: --waveasm-opt, else
$WAVEASM_OPT, else <repo>/build/bin/waveasm-opt.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, HERE)
import procbench  # noqa: E402  (stdlib-only sibling module)

PEEPHOLE_FAMILY = ("waveasm-scoped-cse,waveasm-peephole,"
                   "waveasm-m0-redundancy-elim,waveasm-memory-offset-opt")


def pass_seconds(exe, flag, path):
    """The pass's wall time from one --mlir-timing report."""
    r = subprocess.run([exe, "--verify-each=false", "--mlir-timing",
                        "--" + flag, path, "-o", os.devnull],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s on %s failed: %s" % (flag, path, r.stderr[:2000]))
    # The pass's line follows the "'waveasm.program' Pipeline" line.
    lines = r.stderr.splitlines()
    for i, line in enumerate(lines):
        if "Pipeline" in line and i + 1 < len(lines):
            return float(lines[i + 1].split()[0])
    raise RuntimeError("no pass time in the --mlir-timing report of " + flag)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    procbench.add_common_args(ap, "1000,10000,20000,50000", "opt_passes.json")
    ap.add_argument("--passes", default=PEEPHOLE_FAMILY,
                    help="comma-separated pass flags without -- (default: "
                         "the peephole family)")
    ap.set_defaults(runs=7)
    args = ap.parse_args()

    exe = procbench.find_tool(args.tool)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    passes = [p.strip() for p in args.passes.split(",") if p.strip()]
    gen_waveasm = procbench.import_generator()
    workdir = args.keep_inputs or tempfile.mkdtemp(prefix="waveasm-bench-")
    os.makedirs(workdir, exist_ok=True)
    inputs = []
    for n in sizes:
        p = os.path.join(workdir, "gen_%d_seed%d.mlir" % (n, args.seed))
        with open(p, "w") as f:
            f.write(gen_waveasm.Gen(n, args.seed).generate())
        inputs.append((n, p))

    load_before = procbench.loadavg()
    results = []
    print("%-28s %8s %10s %10s" % ("pass", "instr", "min ms", "ns/instr"))
    for flag in passes:
        rows = []
        for n, path in inputs:
            best = min(pass_seconds(exe, flag, path) for _ in range(args.runs))
            row = {"instructions": n, "min_ms": round(best * 1e3, 2),
                   "ns_per_instruction": round(best * 1e9 / n, 1)}
            rows.append(row)
            print("%-28s %8d %10.2f %10.1f" % (flag, n, row["min_ms"],
                                              row["ns_per_instruction"]))
        growth = None
        base = [r for r in rows if r["instructions"] == 10000]
        if base and base[0]["ns_per_instruction"] > 0:
            growth = round(rows[-1]["ns_per_instruction"] /
                           base[0]["ns_per_instruction"], 2)
            print("%-28s growth ns/instr(%d) / ns/instr(10k): %.2f"
                  % (flag, rows[-1]["instructions"], growth))
        results.append({"pass": flag, "sizes": rows, "growth": growth})

    procbench.write_json(args.out, {
        "benchmark": "opt_passes",
        "description": "waveasm-opt --verify-each=false --mlir-timing --PASS "
                       "FILE: the pass's own time, minimum over the runs",
        "date": procbench.now_utc(),
        "tool": exe,
        "runs": args.runs,
        "seed": args.seed,
        "generator": "bench/gen_waveasm.py",
        "host": procbench.host_info(load_before),
        "results": results,
    })


if __name__ == "__main__":
    main()
