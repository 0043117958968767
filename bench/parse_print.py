#!/usr/bin/env python3
"""Benchmark: parse + verify + print of generated WaveASM files, whole process.

For each size (default 1k, 20k, 50k instructions) a GEMM-like kernel is
generated with gen_waveasm.py, checked once (`waveasm-opt FILE -o /dev/null`
must succeed), then run K times (default 15).  Each run is a fresh process
spawned with os.posix_spawn and reaped with os.wait4 (from a small helper
Python process, see procbench.py), which gives the wall time (perf_counter around
spawn..reap), the CPU time (user+sys) and the peak RSS (ru_maxrss) of exactly
that child.  A minimal one-op program is measured the same way as the
process-startup baseline.  When /usr/bin/time exists, one extra run per input
cross-checks the peak RSS with GNU time.  Wall time is sensitive to other load
on the machine: compare it with the CPU time and the recorded load average.

Reports medians (plus min/max) in a table and writes all samples to
bench/results/parse_print.json.  The budget under discussion is "20,000
instructions: <= 80 ms and <= 80 MB"; the table shows it for reference only --
this script never fails because of a timing.

waveasm-opt is taken from --waveasm-opt, else $WAVEASM_OPT, else
<repo>/build/bin/waveasm-opt (repo = parent of this script's directory).
"""

import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, HERE)
import procbench  # noqa: E402  (stdlib-only sibling module)

TARGET = {"instructions": 20000, "wall_ms": 80.0, "peak_rss_mb": 80.0}

MINIMAL = """waveasm.program @empty target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  waveasm.s_endpgm
}
"""


def measure(exe, path, runs, warmup):
    return procbench.measure([exe, path, "-o", os.devnull], runs, warmup)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("waveasm_opt", nargs="?", help="path to waveasm-opt (positional form)")
    procbench.add_common_args(ap, "1000,20000,50000", "parse_print.json")
    args = ap.parse_args()

    exe = procbench.find_tool(args.tool or args.waveasm_opt)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    gen_waveasm = procbench.import_generator()

    workdir = args.keep_inputs or tempfile.mkdtemp(prefix="waveasm-bench-")
    os.makedirs(workdir, exist_ok=True)
    inputs = []
    p = os.path.join(workdir, "minimal.mlir")
    with open(p, "w") as f:
        f.write(MINIMAL)
    inputs.append(("minimal (startup)", 1, p))
    for n in sizes:
        g = gen_waveasm.Gen(n, args.seed)
        text = g.generate()
        p = os.path.join(workdir, "gen_%d_seed%d.mlir" % (n, args.seed))
        with open(p, "w") as f:
            f.write(text)
        inputs.append((procbench.size_name(n), n, p))

    load_before = procbench.loadavg()
    results = []
    failed = False
    for name, n, path in inputs:
        r = {"name": name, "instructions": n, "bytes": os.path.getsize(path),
             "lines": sum(1 for _ in open(path)), "file": os.path.basename(path)}
        if n > 1:
            r["seed"] = args.seed
        r.update(measure(exe, path, args.runs, args.warmup))
        failed |= "error" in r
        results.append(r)

    # Table.
    hdr = "%-18s %8s %9s %22s %10s %14s" % (
        "input", "instrs", "size KiB", "wall ms median [min-max]", "cpu ms", "peak RSS MiB")
    print("waveasm-opt: %s" % exe)
    print("runs per input: %d (+%d warm-up), seed %d, load average before: %s" % (
        args.runs, args.warmup, args.seed, load_before))
    print(hdr)
    print("-" * len(hdr))
    for r in results:
        if "error" in r:
            print("%-18s %8d  ERROR: %s" % (r["name"], r["instructions"], r["error"]))
            continue
        w = r["wall_ms"]
        print("%-18s %8d %9.1f %10.1f [%5.1f-%6.1f] %10.1f %14.1f" % (
            r["name"], r["instructions"], r["bytes"] / 1024.0, w["median"], w["min"], w["max"],
            r["cpu_ms"]["median"], r["peak_rss_kib"]["median"] / 1024.0))
        if r["rss_at_floor"]:
            print("  note: %d RSS samples at the spawner floor (%d KiB)" % (
                r["rss_at_floor"], r["rss_floor_kib"]))
    for r in results:
        if r["instructions"] == TARGET["instructions"] and "error" not in r:
            wall = r["wall_ms"]["median"]
            mb = r["peak_rss_kib"]["median"] * 1024 / 1e6
            print("reference budget for %d instructions: <= %.0f ms, <= %.0f MB -> "
                  "measured %.1f ms (%s), %.1f MB (%s)" % (
                      TARGET["instructions"], TARGET["wall_ms"], TARGET["peak_rss_mb"],
                      wall, "within" if wall <= TARGET["wall_ms"] else "over",
                      mb, "within" if mb <= TARGET["peak_rss_mb"] else "over"))

    out = {
        "benchmark": "parse_print",
        "description": "waveasm-opt FILE -o /dev/null (parse + verify + print), whole process",
        "date": procbench.now_utc(),
        "tool": exe,
        "runs": args.runs,
        "warmup": args.warmup,
        "generator": "bench/gen_waveasm.py",
        "reference_budget": TARGET,
        "host": procbench.host_info(load_before),
        "units": procbench.UNITS,
        "results": results,
    }
    procbench.write_json(args.out, out)
    if not args.keep_inputs:
        shutil.rmtree(workdir, ignore_errors=True)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
