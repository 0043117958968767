#!/usr/bin/env python3
"""ctest smoke test of the benchmark drivers: each one on a tiny input.

Runs parse_print.py and pipeline_process.py on a 1k-instruction file (one
timed run), mca_compare.py on one example and two ranking variants, and
waveasm-bench-compile (when given) on a 40-op loop body for a few
milliseconds.  Passes when every driver exits with 0, i.e. every input
compiled and every result was written; timings are never checked.  Results
go to --out-dir (the build tree), never to bench/results/.
"""

import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--waveasm-opt", required=True)
    ap.add_argument("--bench-compile", help="waveasm-bench-compile binary (optional)")
    ap.add_argument("--bench-loop-opt", help="waveasm-bench-loop-opt binary (optional)")
    ap.add_argument("--llvm-mca", default=os.environ.get("LLVM_MCA", "/usr/lib/llvm-22/bin/llvm-mca"))
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    py = [sys.executable, "-B"]
    out = lambda name: os.path.join(args.out_dir, name)  # noqa: E731

    steps = [
        ("parse_print", py + [os.path.join(HERE, "parse_print.py"), "--waveasm-opt",
                              args.waveasm_opt, "--sizes", "1000", "--runs", "1",
                              "--warmup", "0", "--out", out("parse_print.json")]),
        ("pipeline_process", py + [os.path.join(HERE, "pipeline_process.py"), "--waveasm-opt",
                                   args.waveasm_opt, "--sizes", "1000", "--runs", "1",
                                   "--warmup", "0", "--out", out("pipeline_process.json")]),
    ]
    mca = shutil.which(args.llvm_mca) or args.llvm_mca
    if os.access(mca, os.X_OK):
        steps.append(("mca_compare", py + [
            os.path.join(HERE, "mca_compare.py"), "--waveasm-opt", args.waveasm_opt,
            "--llvm-mca", mca, "--iterations", "10",
            "--examples", os.path.join(REPO, "examples", "gemm_f16_double_buffer.mlir"),
            "--variants", os.path.join(HERE, "mca_variants", "v1_clustered_early.mlir"),
            os.path.join(HERE, "mca_variants", "v4_clustered_late.mlir"),
            "--out", out("mca_compare.json")]))
    else:
        print("skip mca_compare: llvm-mca not found (%s)" % mca)
    if args.bench_compile:
        loop = out("loop_body_40.mlir")
        steps.append(("gen_waveasm --loop-body", py + [
            os.path.join(HERE, "gen_waveasm.py"), "--loop-body", "40", "-o", loop]))
        steps.append(("waveasm-bench-compile", [
            args.bench_compile, "--benchmark_repetitions=1", "--benchmark_min_time=0.005",
            "--benchmark_out=" + out("compile_and_measure.json"),
            "--benchmark_out_format=json", loop]))

    if args.bench_loop_opt:
        steps.append(("loop_opt_cost", py + [
            os.path.join(HERE, "loop_opt_cost.py"), "--bench", args.bench_loop_opt,
            "--sizes", "1000", "--repeat", "1", "--json", out("loop_opt_cost.json")]))

    failed = []
    for name, argv in steps:
        r = subprocess.run(argv, capture_output=True, text=True)
        print("%-24s exit %d" % (name, r.returncode))
        if r.returncode != 0:
            failed.append(name)
            sys.stdout.write(r.stdout[-4000:])
            sys.stdout.write(r.stderr[-4000:])
    if failed:
        print("FAILED: %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
