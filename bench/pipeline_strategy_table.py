#!/usr/bin/env python3
"""Issue 12 item 5's table: for every GEMM-like example loop, est_cycles
(whole program) and est_cycles_per_iter of the scheduled loop for
  input        the program as written,
  reorder      waveasm-conductor --strategy list-latency,
  pipelined    waveasm-conductor --strategy pipeline (stages 2 to 5, with
               and without the latency reorder of the steady-state body;
               kept only when est_cycles drops),
  best         waveasm-conductor --strategy list-latency,pipeline (the best
               built-in schedule with pipelining allowed: the pipeline round
               starts from the reordered body and is kept only if better),
and the loop's lower bound per iteration (waveasm-opt --waveasm-metrics).
Both Conductor runs use --metric-order est_cycles,peak_vgpr (the strategy's
own criterion) and check the kept schedule by execution (the default).
CPU time (user+sys of the child) per run is reported: the machine is shared.

usage: pipeline_strategy_table.py --conductor BIN --opt BIN [-o results.md] FILES...
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile


def cpu_of(run):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = run()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def conductor(binary, path, strategy):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mlir")
        proc, cpu = cpu_of(lambda: subprocess.run(
            [binary, "--llm", "none", "--no-cache", "--strategy", strategy,
             "--metric-order", "est_cycles,peak_vgpr", path, "-o", out],
            capture_output=True, text=True))
    log = proc.stdout + proc.stderr
    rows = {}
    for line in log.splitlines():
        m = re.match(r"^(\S+)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)", line)
        if m:
            rows[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    kept = "kept" in log
    return rows, kept, cpu, proc.returncode, log


def lower_bound(binary, path):
    proc = subprocess.run([binary, "--waveasm-metrics", path], capture_output=True, text=True)
    try:
        programs = json.loads(proc.stdout)["programs"]
    except (ValueError, KeyError):
        return None
    loops = programs[0].get("loops", [])
    return loops[0]["lower_bound_cycles"] if loops else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--conductor", required=True)
    ap.add_argument("--opt", required=True)
    ap.add_argument("-o", default="-")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    lines = ["| example | input est_cycles (per iter) | reorder only | pipelined strategy "
             "| best (reorder, then pipeline) | lower bound per iter "
             "| CPU s reorder / pipeline / both |",
             "|---|---|---|---|---|---|---|"]
    for path in args.files:
        name = os.path.basename(path)
        reorder, _, cpu_r, rc_r, _ = conductor(args.conductor, path, "list-latency")
        piped, kept, cpu_p, rc_p, log = conductor(args.conductor, path, "pipeline")
        both, kept_both, cpu_b, rc_b, log_b = conductor(args.conductor, path,
                                                        "list-latency,pipeline")
        if rc_r or rc_p or rc_b or "est_cycles" not in reorder:
            lines.append("| %s | (conductor failed: %s) | | | | | |" % (
                name, log.strip().splitlines()[-1] if log.strip() else rc_p))
            continue

        def cell(rows, column):
            total = rows["est_cycles"][column]
            per = rows.get("loop0.est_cycles_per_iter", (None, None))[column]
            return "%d (%s)" % (total, "%d" % per if per is not None else "-")
        bound = lower_bound(args.opt, path)
        pipelined_both = any("kept" in line and "builtin:pipeline" in line
                             for line in log_b.splitlines())
        lines.append("| %s | %s | %s | %s%s | %s%s | %s | %.2f / %.2f / %.2f |" % (
            name, cell(reorder, 0), cell(reorder, 1), cell(piped, 1),
            "" if kept else " (input kept)", cell(both, 1),
            " (pipelined)" if pipelined_both else "",
            bound if bound is not None else "-", cpu_r, cpu_p, cpu_b))
    text = "\n".join(lines) + "\n"
    if args.o == "-":
        sys.stdout.write(text)
    else:
        with open(args.o, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
