#!/usr/bin/env python3
"""Benchmark: parse + verify + print of generated WaveASM files, whole process.

For each size (default 1k, 20k, 50k instructions) a GEMM-like kernel is
generated with gen_waveasm.py, checked once (`waveasm-opt FILE -o /dev/null`
must succeed), then run K times (default 15).  Each run is a fresh process
spawned with os.posix_spawn and reaped with os.wait4 (from a small helper
Python process, see SPAWNER), which gives the wall time (perf_counter around
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
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TARGET = {"instructions": 20000, "wall_ms": 80.0, "peak_rss_mb": 80.0}

MINIMAL = """waveasm.program @empty target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  waveasm.s_endpgm
}
"""


# Timed runs happen in a fresh, minimal Python process (`-S -I`, stdlib `os`
# only).  On Linux a child's ru_maxrss includes the RSS high-water mark of the
# address space it had before exec -- for a fork/posix_spawn child that is the
# parent's -- so spawning from this (large) process would report this
# process's RSS.  The small spawner keeps that floor at a few MB; it reports
# its own VmHWM as `rss_floor_kib`, and samples at or below it are flagged.
SPAWNER = r"""
import os, sys, time
exe, path, runs, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
floor = 0
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        floor = int(line.split()[1])
print("floor", floor, flush=True)
argv = [exe, path, "-o", os.devnull]
acts = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
for i in range(warmup + runs):
    t0 = time.perf_counter()
    pid = os.posix_spawn(exe, argv, os.environ, file_actions=acts)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if i >= warmup:
        print("run", os.waitstatus_to_exitcode(status), repr(wall),
              repr(ru.ru_utime + ru.ru_stime), ru.ru_maxrss, flush=True)
"""


def spawn_runs(exe, path, runs, warmup):
    """Return (floor_kib, [(rc, wall_s, cpu_s, maxrss_kib), ...])."""
    out = subprocess.run([sys.executable, "-S", "-I", "-c", SPAWNER, exe, path,
                          str(runs), str(warmup)],
                         capture_output=True, text=True, check=True).stdout
    floor, samples = 0, []
    for line in out.splitlines():
        f = line.split()
        if f[0] == "floor":
            floor = int(f[1])
        elif f[0] == "run":
            samples.append((int(f[1]), float(f[2]), float(f[3]), int(f[4])))
    return floor, samples


def gnu_time_rss(exe, path):
    """Cross-check: peak RSS (KiB) of one run measured by GNU time, if present."""
    gt = "/usr/bin/time"
    if not os.access(gt, os.X_OK):
        return None
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as tf:
        r = subprocess.run([gt, "-f", "%M", "-o", tf.name, exe, path, "-o", os.devnull],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            return None
        try:
            return int(tf.read().split()[-1])
        except (ValueError, IndexError):
            return None


def summary(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs),
            "mean": round(statistics.fmean(xs), 3), "samples": xs}


def measure(exe, path, runs, warmup):
    # Validity check first (captures the diagnostic if the tool rejects it).
    chk = subprocess.run([exe, path, "-o", os.devnull], capture_output=True, text=True)
    if chk.returncode != 0:
        return {"error": "waveasm-opt exited with %d: %s" % (
            chk.returncode, chk.stderr.strip()[:2000])}
    floor, samples = spawn_runs(exe, path, runs, warmup)
    if any(rc != 0 for rc, _, _, _ in samples):
        return {"error": "waveasm-opt failed during timing"}
    rss = [s[3] for s in samples]
    res = {"wall_ms": summary([round(s[1] * 1000.0, 3) for s in samples]),
           "cpu_ms": summary([round(s[2] * 1000.0, 3) for s in samples]),
           "peak_rss_kib": summary(rss),
           "rss_floor_kib": floor,
           "rss_at_floor": sum(1 for x in rss if x <= floor)}
    gt = gnu_time_rss(exe, path)
    if gt is not None:
        res["peak_rss_kib_gnu_time"] = gt
    return res


def loadavg():
    try:
        return [float(x) for x in open("/proc/loadavg").read().split()[:3]]
    except OSError:
        return None


def default_tool():
    env = os.environ.get("WAVEASM_OPT")
    if env:
        return env
    return os.path.join(REPO, "build", "bin", "waveasm-opt")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("waveasm_opt", nargs="?", help="path to waveasm-opt (positional form)")
    ap.add_argument("--waveasm-opt", dest="tool", help="path to waveasm-opt")
    ap.add_argument("--runs", "-k", type=int, default=15, help="timed runs per input (default 15)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs per input (default 1)")
    ap.add_argument("--sizes", default="1000,20000,50000",
                    help="comma-separated instruction counts (default 1000,20000,50000)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "parse_print.json"),
                    help="JSON output (default bench/results/parse_print.json)")
    ap.add_argument("--keep-inputs", metavar="DIR",
                    help="write the generated inputs to DIR and keep them")
    args = ap.parse_args()

    exe = args.tool or args.waveasm_opt or default_tool()
    exe = shutil.which(exe) or exe
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        sys.exit("waveasm-opt not found or not executable: %s" % exe)
    exe = os.path.abspath(exe)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
    sys.path.insert(0, HERE)
    import gen_waveasm  # noqa: E402  (stdlib-only sibling module)

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
        inputs.append(("generated %dk" % (n // 1000) if n % 1000 == 0 else "generated %d" % n, n, p))

    load_before = loadavg()
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
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "tool": exe,
        "runs": args.runs,
        "warmup": args.warmup,
        "generator": "bench/gen_waveasm.py",
        "reference_budget": TARGET,
        "host": {"machine": platform.machine(), "system": platform.system(),
                 "release": platform.release(), "python": platform.python_version(),
                 "cpus": os.cpu_count(), "loadavg_before": load_before,
                 "loadavg_after": loadavg()},
        "units": {"wall_ms": "milliseconds", "cpu_ms": "milliseconds (user+sys)",
                  "peak_rss_kib": "KiB (ru_maxrss)"},
        "results": results,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    print("results written to %s" % args.out)
    if not args.keep_inputs:
        shutil.rmtree(workdir, ignore_errors=True)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
