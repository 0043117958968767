"""Whole-process measurement shared by the benchmark scripts (stdlib only).

`measure(argv, runs, warmup)` runs a command K times as fresh processes and
returns the median/min/max of its wall time, CPU time (user+sys) and peak RSS.

Timed runs happen in a fresh, minimal Python process (`-S -I`, stdlib `os`
only, see SPAWNER): each child is started with os.posix_spawn and reaped with
os.wait4, which gives the wall time (perf_counter around spawn..reap), the CPU
time and the peak RSS (ru_maxrss) of exactly that child.  On Linux a child's
ru_maxrss includes the RSS high-water mark of the address space it had before
exec -- for a fork/posix_spawn child that is the parent's -- so spawning from
a large process would report that process's RSS.  The small spawner keeps the
floor at a few MB; it reports its own VmHWM as `rss_floor_kib`, and samples at
or below it are counted in `rss_at_floor`.  When /usr/bin/time exists, one
extra run cross-checks the peak RSS (`peak_rss_kib_gnu_time`).

Wall time is sensitive to other load on the machine: compare it with the CPU
time and the load average recorded by `host_info`.
"""

import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

SPAWNER = r"""
import os, sys, time
argv = sys.argv[3:]
runs, warmup = int(sys.argv[1]), int(sys.argv[2])
floor = 0
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        floor = int(line.split()[1])
print("floor", floor, flush=True)
acts = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
for i in range(warmup + runs):
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=acts)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if i >= warmup:
        print("run", os.waitstatus_to_exitcode(status), repr(wall),
              repr(ru.ru_utime + ru.ru_stime), ru.ru_maxrss, flush=True)
"""


def spawn_runs(argv, runs, warmup):
    """Return (floor_kib, [(rc, wall_s, cpu_s, maxrss_kib), ...])."""
    out = subprocess.run([sys.executable, "-S", "-I", "-c", SPAWNER,
                          str(runs), str(warmup)] + list(argv),
                         capture_output=True, text=True, check=True).stdout
    floor, samples = 0, []
    for line in out.splitlines():
        f = line.split()
        if f[0] == "floor":
            floor = int(f[1])
        elif f[0] == "run":
            samples.append((int(f[1]), float(f[2]), float(f[3]), int(f[4])))
    return floor, samples


def gnu_time_rss(argv):
    """Cross-check: peak RSS (KiB) of one run measured by GNU time, if present."""
    gt = "/usr/bin/time"
    if not os.access(gt, os.X_OK):
        return None
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as tf:
        r = subprocess.run([gt, "-f", "%M", "-o", tf.name] + list(argv),
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


def check(argv):
    """Run once; None on success, else the error text (exit code + stderr)."""
    chk = subprocess.run(list(argv), capture_output=True, text=True)
    if chk.returncode != 0:
        return "%s exited with %d: %s" % (
            os.path.basename(argv[0]), chk.returncode, chk.stderr.strip()[:2000])
    return None


def measure(argv, runs, warmup, checked=False):
    """Validity check (unless `checked`), then `runs` timed runs (after
    `warmup` untimed ones).

    Returns {"wall_ms", "cpu_ms", "peak_rss_kib": summary, "rss_floor_kib",
    "rss_at_floor"[, "peak_rss_kib_gnu_time"]} or {"error": text}."""
    err = None if checked else check(argv)
    if err is not None:
        return {"error": err}
    floor, samples = spawn_runs(argv, runs, warmup)
    if any(rc != 0 for rc, _, _, _ in samples):
        return {"error": "%s failed during timing" % os.path.basename(argv[0])}
    rss = [s[3] for s in samples]
    res = {"wall_ms": summary([round(s[1] * 1000.0, 3) for s in samples]),
           "cpu_ms": summary([round(s[2] * 1000.0, 3) for s in samples]),
           "peak_rss_kib": summary(rss),
           "rss_floor_kib": floor,
           "rss_at_floor": sum(1 for x in rss if x <= floor)}
    gt = gnu_time_rss(argv)
    if gt is not None:
        res["peak_rss_kib_gnu_time"] = gt
    return res


def loadavg():
    try:
        return [float(x) for x in open("/proc/loadavg").read().split()[:3]]
    except OSError:
        return None


def add_common_args(ap, default_sizes, results_name):
    """The options every whole-process benchmark takes."""
    ap.add_argument("--waveasm-opt", dest="tool", help="path to waveasm-opt")
    ap.add_argument("--runs", "-k", type=int, default=15,
                    help="timed runs per input (default 15)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed runs per input (default 1)")
    ap.add_argument("--sizes", default=default_sizes,
                    help="comma-separated instruction counts (default %s)" % default_sizes)
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "results", results_name),
                    help="JSON output (default bench/results/%s)" % results_name)
    ap.add_argument("--keep-inputs", metavar="DIR",
                    help="write the generated inputs to DIR and keep them")


def find_tool(explicit, env_var="WAVEASM_OPT", name="waveasm-opt"):
    """`explicit`, else $env_var, else <repo>/build/bin/<name>; exits if missing."""
    exe = explicit or os.environ.get(env_var) or os.path.join(REPO, "build", "bin", name)
    exe = shutil.which(exe) or exe
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        sys.exit("%s not found or not executable: %s" % (name, exe))
    return os.path.abspath(exe)


def import_generator():
    """The stdlib-only sibling gen_waveasm module (no __pycache__ in bench/)."""
    sys.dont_write_bytecode = True
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    import gen_waveasm  # noqa: E402
    return gen_waveasm


def size_name(n):
    return "generated %dk" % (n // 1000) if n % 1000 == 0 else "generated %d" % n


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def host_info(load_before):
    return {"machine": platform.machine(), "system": platform.system(),
            "release": platform.release(), "python": platform.python_version(),
            "cpus": os.cpu_count(), "loadavg_before": load_before,
            "loadavg_after": loadavg()}


UNITS = {"wall_ms": "milliseconds", "cpu_ms": "milliseconds (user+sys)",
         "peak_rss_kib": "KiB (ru_maxrss)"}


def write_json(path, obj):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")
    print("results written to %s" % path)
