#!/usr/bin/env python3
"""Time the legalization and SCC passes on generated programs (ns per op).

For each size, `gen_waveasm.py` makes a GEMM-like program; then
  * arith legalization runs on a copy whose two-operand VALU/SALU add, mul,
    and, or ops are rewritten as `waveasm.arith.*` ops (same operands and
    types), and whose `s_cmp_lt_u32` loop tests are `arith.cmp ult` + an
    `s_cmp_ne_u32` of the 0/1 result;
  * SCC spill/reload and the SCC verifier run on a copy with an SCC writer
    (`s_add_u32`) put between every loop test and its `waveasm.condition`
    (the verifier on the original: it must report nothing there);
  * VGPR compaction runs on the program after `--waveasm-linear-scan`.
The pass's own wall time comes from `--mlir-timing` (median of --runs), so
parsing and printing are not counted. Linear passes show a flat ns/op.

Usage: legalization_scc_bench.py [--sizes 1000,10000,50000] [--runs 5]
       [--waveasm-opt PATH] [-o results.json]
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

BINARY = re.compile(
    r"^(\s*%\S+ = )waveasm\.(v_add_u32|v_mul_lo_u32|v_and_b32|v_or_b32|"
    r"s_mul_i32) (%\S+), (%\S+) : (\S+), (\S+) -> (\S+)$")
ARITH = {"v_add_u32": "add", "v_mul_lo_u32": "mul", "v_and_b32": "and",
         "v_or_b32": "or", "s_mul_i32": "mul"}
LOOP_TEST = re.compile(
    r"^(\s*)(%\S+) = waveasm\.s_cmp_lt_u32 (%\S+), (%\S+) : (\S+), (\S+) "
    r"-> !waveasm\.scc$")


def to_arith(text):
    out = []
    for line in text.splitlines():
        m = BINARY.match(line)
        if m:
            head, op, a, b, ta, tb, tr = m.groups()
            out.append("%swaveasm.arith.%s %s, %s : (%s, %s) -> %s" %
                       (head, ARITH[op], a, b, ta, tb, tr))
            continue
        m = LOOP_TEST.match(line)
        if m:
            ind, res, a, b, ta, tb = m.groups()
            out.append("%s%s_b = waveasm.arith.cmp ult, %s, %s : (%s, %s) -> "
                       "!waveasm.sreg" % (ind, res, a, b, ta, tb))
            out.append("%s%s_z = waveasm.constant 0 : !waveasm.imm<0>" %
                       (ind, res))
            out.append("%s%s = waveasm.s_cmp_ne_u32 %s_b, %s_z : "
                       "!waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc" %
                       (ind, res, res, res))
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def with_scc_hazards(text):
    """An s_add_u32 between each loop test and the rest of the body."""
    out = []
    for line in text.splitlines():
        out.append(line)
        m = LOOP_TEST.match(line)
        if m:
            ind, res, a, _, ta, _ = m.groups()
            out.append("%s%s_h:2 = waveasm.s_add_u32 %s, %s : %s, %s -> "
                       "!waveasm.sreg, !waveasm.scc" % (ind, res, a, a, ta, ta))
    return "\n".join(out) + "\n"


def ops_in(text):
    return sum(1 for line in text.splitlines()
               if re.search(r"waveasm\.[a-z]", line) and
               "waveasm.program" not in line)


def pass_time(opt, flags, name, path, runs):
    times = []
    for _ in range(runs):
        r = subprocess.run([opt, "--mlir-disable-threading", "--mlir-timing",
                            "--mlir-timing-display=list", *flags, path, "-o",
                            os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("%s failed on %s:\n%s" % (" ".join(flags), path,
                                               r.stderr[-2000:]))
        m = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+" + name + r"$",
                      r.stderr, re.M)
        if not m:
            sys.exit("no timing for %s in:\n%s" % (name, r.stderr))
        times.append(float(m.group(1)))
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,50000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--waveasm-opt", default=os.environ.get(
        "WAVEASM_OPT", os.path.join(HERE, "..", "build", "bin",
                                    "waveasm-opt")))
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    opt = args.waveasm_opt
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(s) for s in args.sizes.split(",")]:
            base = os.path.join(tmp, "base%d.mlir" % n)
            subprocess.run([sys.executable, os.path.join(HERE,
                            "gen_waveasm.py"), "-n", str(n), "-o", base],
                           check=True)
            text = open(base).read()
            files = {"arith": to_arith(text), "hazards": with_scc_hazards(text)}
            paths = {}
            for key, body in files.items():
                paths[key] = os.path.join(tmp, "%s%d.mlir" % (key, n))
                open(paths[key], "w").write(body)
            paths["allocated"] = os.path.join(tmp, "alloc%d.mlir" % n)
            subprocess.run([opt, "--waveasm-linear-scan", base, "-o",
                            paths["allocated"]], check=True)
            arith_ops = files["arith"].count("waveasm.arith.")
            cases = [
                ("waveasm-arith-legalization", "WaveASMArithLegalization",
                 "arith", "%d arith ops" % arith_ops),
                ("waveasm-scc-spill-reload", "WaveASMSCCSpillReload",
                 "hazards", "every loop test reloaded"),
                ("waveasm-scc-verifier", "WaveASMSCCVerifier", None,
                 "no hazard"),
                ("waveasm-vgpr-compaction", "WaveASMVGPRCompaction",
                 "allocated", "after linear scan"),
            ]
            for flag, name, key, what in cases:
                path = paths[key] if key else base
                ops = ops_in(open(path).read())
                secs = pass_time(opt, ["--" + flag], name, path, args.runs)
                rows.append({"pass": flag, "instructions": n, "ops": ops,
                             "input": what, "ms": round(secs * 1e3, 3),
                             "ns_per_op": round(secs * 1e9 / ops, 1)})
                print("%-28s %6d ops  %8.2f ms  %7.1f ns/op  (%s)" %
                      (flag, ops, secs * 1e3, secs * 1e9 / ops, what))
    if args.output:
        with open(args.output, "w") as f:
            json.dump({"runs": args.runs, "results": rows}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
