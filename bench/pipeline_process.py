#!/usr/bin/env python3
"""Benchmark: the backend pipeline on generated WaveASM files, whole process.

For each size (default 1k, 10k, 20k, 50k instructions) a GEMM-like kernel is
generated with gen_waveasm.py and run through

  waveasm-opt --waveasm-pipeline --emit-assembly FILE -o /dev/null

(parse, verify, the production order: upstream's optimizations, register
allocation, VGPR compaction, wait counts, hazards; assembly).  `--backend`
measures the short pipeline (`--waveasm-pipeline=optimize=false`) instead.
Per pass: one more run with `--mlir-timing --mlir-timing-display=list` per
size gives each pass's wall time, reported as ns per instruction at every
size (linear passes keep it flat).  One
untimed run writes the assembly to a temporary file: it must succeed (a
register overflow or any other diagnostic is reported as the size's error)
and gives the number of emitted instructions.  Then K timed runs (default
15) measure wall time, CPU time (user+sys) and peak RSS of fresh processes
(procbench.py).  A minimal one-op program is measured the same way: the
process start-up baseline.

Reported per size: median wall / CPU time, peak RSS and ns per instruction
(median wall time / generated instructions), plus "net" ns per instruction
with the start-up baseline subtracted, and the same from CPU time.  Growth
must be near linear: the script prints ns/instr(largest) / ns/instr(smallest)
for each (1.0 = linear; the raw ratio is below 1 when start-up dominates the
small file; on a loaded machine the CPU ratios are the reliable ones).  The
budget "20,000 instructions in <= 150 ms" is shown for reference only --
this script never fails because of a timing (exit status 2 only when a file
does not compile).

Writes bench/results/pipeline_process.json.  waveasm-opt: --waveasm-opt,
else $WAVEASM_OPT, else <repo>/build/bin/waveasm-opt.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, HERE)
import procbench  # noqa: E402  (stdlib-only sibling module)

TARGET = {"instructions": 20000, "wall_ms": 150.0}
PASSES = ["--waveasm-pipeline", "--emit-assembly"]
BACKEND = ["--waveasm-pipeline=optimize=false", "--emit-assembly"]
TIMING = ["--mlir-timing", "--mlir-timing-display=list",
          "--mlir-disable-threading"]
TIMING_LINE = re.compile(r"^\s*([\d.]+)\s+\(\s*[\d.]+%\)\s+(.+?)\s*$")


def pass_times(exe, path):
    """{pass name: wall ms} of one --mlir-timing run (list display: one
    line per pass, summed over programs)."""
    r = subprocess.run([exe] + PASSES + TIMING + [path, "-o", os.devnull],
                       capture_output=True, text=True)
    times = {}
    for line in r.stderr.splitlines():
        m = TIMING_LINE.match(line)
        if m and m.group(2) not in ("Total", "Rest"):
            times[m.group(2)] = float(m.group(1)) * 1000.0
    return times

MINIMAL = """waveasm.program @empty target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  waveasm.s_endpgm
}
"""


def count_asm_instructions(path):
    """Instruction lines in the .text part of an emitted assembly file."""
    n, in_text = 0, False
    for line in open(path):
        s = line.split(";", 1)[0].strip()
        if s.startswith(".text"):
            in_text = True
            continue
        if s.startswith((".section", ".amdgpu_metadata")):
            in_text = False
        if not in_text or not s or s.startswith(".") or re.match(r"^[\w.$]+:$", s):
            continue
        n += 1
    return n


def compile_once(exe, path, workdir):
    """Untimed run to a file: (error or None, emitted instructions)."""
    asm = os.path.join(workdir, os.path.basename(path) + ".s")
    r = subprocess.run([exe] + PASSES + [path, "-o", asm], capture_output=True, text=True)
    if r.returncode != 0:
        lines = [l for l in r.stderr.splitlines() if "error" in l] or r.stderr.splitlines()
        return "waveasm-opt exited with %d: %s" % (
            r.returncode, "\n".join(lines[:5])[:2000]), None
    n = count_asm_instructions(asm)
    os.unlink(asm)
    return None, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    procbench.add_common_args(ap, "1000,10000,20000,50000", "pipeline_process.json")
    ap.add_argument("--backend", action="store_true",
                    help="the short pipeline (allocation, waits, hazards)")
    args = ap.parse_args()
    if args.backend:
        PASSES[:] = BACKEND

    exe = procbench.find_tool(args.tool)
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
        text = gen_waveasm.Gen(n, args.seed).generate()
        p = os.path.join(workdir, "gen_%d_seed%d.mlir" % (n, args.seed))
        with open(p, "w") as f:
            f.write(text)
        inputs.append((procbench.size_name(n), n, p))

    load_before = procbench.loadavg()
    results = []
    failed = False
    for name, n, path in inputs:
        r = {"name": name, "instructions": n, "bytes": os.path.getsize(path),
             "file": os.path.basename(path)}
        if n > 1:
            r["seed"] = args.seed
        err, emitted = compile_once(exe, path, workdir)
        if err:
            r["error"] = err
        else:
            r["asm_instructions"] = emitted
            r.update(procbench.measure([exe] + PASSES + [path, "-o", os.devnull],
                                       args.runs, args.warmup, checked=True))
            if n > 1:
                r["pass_ms"] = pass_times(exe, path)
        failed |= "error" in r
        results.append(r)

    startup = startup_cpu = None
    if "error" not in results[0]:
        startup = results[0]["wall_ms"]["median"]
        startup_cpu = results[0]["cpu_ms"]["median"]
    for r in results[1:]:
        if "error" in r:
            continue
        wall = r["wall_ms"]["median"]
        r["ns_per_instruction"] = round(wall * 1e6 / r["instructions"], 1)
        r["cpu_ns_per_instruction"] = round(r["cpu_ms"]["median"] * 1e6 / r["instructions"], 1)
        if startup is not None:
            r["net_ns_per_instruction"] = round((wall - startup) * 1e6 / r["instructions"], 1)
            r["net_cpu_ns_per_instruction"] = round(
                (r["cpu_ms"]["median"] - startup_cpu) * 1e6 / r["instructions"], 1)

    print("waveasm-opt: %s" % exe)
    print("command: waveasm-opt %s FILE -o /dev/null" % " ".join(PASSES))
    print("runs per input: %d (+%d warm-up), seed %d, load average before: %s" % (
        args.runs, args.warmup, args.seed, load_before))
    hdr = "%-18s %7s %7s %24s %9s %9s %9s %9s" % (
        "input", "instrs", "asm", "wall ms median [min-max]", "cpu ms", "RSS MiB",
        "ns/instr", "net ns/i")
    print(hdr)
    print("-" * len(hdr))
    for r in results:
        if "error" in r:
            print("%-18s %7d  ERROR: %s" % (r["name"], r["instructions"], r["error"]))
            continue
        w = r["wall_ms"]
        print("%-18s %7d %7d %10.1f [%5.1f-%6.1f] %9.1f %9.1f %9s %9s" % (
            r["name"], r["instructions"], r["asm_instructions"], w["median"], w["min"],
            w["max"], r["cpu_ms"]["median"], r["peak_rss_kib"]["median"] / 1024.0,
            "%.0f" % r["ns_per_instruction"] if "ns_per_instruction" in r else "-",
            "%.0f" % r["net_ns_per_instruction"] if "net_ns_per_instruction" in r else "-"))
        if r["rss_at_floor"]:
            print("  note: %d RSS samples at the spawner floor (%d KiB)" % (
                r["rss_at_floor"], r["rss_floor_kib"]))

    timed = [r for r in results[1:] if r.get("pass_ms")]
    if timed:
        print("\nper pass, ns per instruction (wall, one --mlir-timing run each):")
        print("%-48s" % "pass" + "".join("%10s" % r["name"] for r in timed))
        for name in timed[-1]["pass_ms"]:
            print("%-48s" % name[:48] + "".join(
                "%10.0f" % (r["pass_ms"].get(name, 0) * 1e6 / r["instructions"])
                for r in timed))

    growth = None
    ok = [r for r in results[1:] if "ns_per_instruction" in r]
    if len(ok) >= 2:
        small, big = ok[0], ok[-1]
        growth = {"from": small["instructions"], "to": big["instructions"]}
        for key in ("ns_per_instruction", "net_ns_per_instruction",
                    "cpu_ns_per_instruction", "net_cpu_ns_per_instruction"):
            if small.get(key, 0) > 0 and key in big:
                growth[key + "_ratio"] = round(big[key] / small[key], 3)
        fmt = lambda k: "%.2f" % growth[k] if k in growth else "-"  # noqa: E731
        print("growth ns/instr(%d) / ns/instr(%d) (1.0 = linear): wall %s, wall net of "
              "start-up %s; CPU %s, CPU net of start-up %s" % (
                  big["instructions"], small["instructions"],
                  fmt("ns_per_instruction_ratio"), fmt("net_ns_per_instruction_ratio"),
                  fmt("cpu_ns_per_instruction_ratio"), fmt("net_cpu_ns_per_instruction_ratio")))
    for r in results:
        if r["instructions"] == TARGET["instructions"] and "error" not in r:
            wall = r["wall_ms"]["median"]
            print("reference budget for %d instructions: <= %.0f ms -> measured %.1f ms (%s; "
                  "CPU %.1f ms)" % (
                      TARGET["instructions"], TARGET["wall_ms"], wall,
                      "within" if wall <= TARGET["wall_ms"] else "over",
                      r["cpu_ms"]["median"]))

    out = {
        "benchmark": "pipeline_process",
        "description": "waveasm-opt %s FILE -o /dev/null, whole process" % " ".join(PASSES),
        "date": procbench.now_utc(),
        "tool": exe,
        "runs": args.runs,
        "warmup": args.warmup,
        "generator": "bench/gen_waveasm.py",
        "reference_budget": TARGET,
        "host": procbench.host_info(load_before),
        "units": dict(procbench.UNITS, ns_per_instruction="median wall ns / generated op",
                      net_ns_per_instruction="(median wall - start-up median) ns / generated op",
                      cpu_ns_per_instruction="median CPU ns / generated op",
                      net_cpu_ns_per_instruction="(median CPU - start-up median) ns / "
                                                 "generated op"),
        "results": results,
        "growth": growth,
    }
    procbench.write_json(args.out, out)
    if not args.keep_inputs:
        shutil.rmtree(workdir, ignore_errors=True)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
