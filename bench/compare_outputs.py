#!/usr/bin/env python3
"""Output identity for speed work: what `waveasm-opt` prints must not change.

Runs `waveasm-opt` in a set of modes on a set of inputs and writes each
output (stdout + stderr + exit code, the input's path replaced by INPUT) to
a file under OUT_DIR, one file per (input, mode):

  dump [--suite S] --waveasm-opt BIN OUT_DIR   # once per binary
  diff OLD_DIR NEW_DIR [--allow GLOB]...       # every file that differs
  compare BEFORE_BIN AFTER_BIN [--suite S] [--allow GLOB]... [--keep DIR]
                                              # dump both, then diff

Suites (`--suite`, default `opt`; `all` runs both):
  opt    the parsed input printed back, `--waveasm-pipeline` IR, with
         `--emit-assembly`, with `--waveasm-metrics`, and the short
         pipeline's assembly (`--waveasm-pipeline=optimize=false
         --emit-assembly`), on every example, every lit `.mlir` input, the
         shared spec's examples and generated programs;
  loops  `--waveasm-pipeline-loops` with the option sets below (automatic
         stages and unroll first; `--options` replaces them) on the
         examples, the pipelining lit inputs (TRIPS substituted by 1..8),
         the shared examples and generated loops.

A speed change must leave `diff` empty. `--allow GLOB` names an intended
difference (an improved choice, say `examples__*.loops-num-stages=2`): it
is listed but does not make the exit status 1.
"""

import argparse
import concurrent.futures
import filecmp
import fnmatch
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True

OPT_MODES = {
    "print": [],
    "pipeline": ["--waveasm-pipeline"],
    "asm": ["--waveasm-pipeline", "--emit-assembly"],
    "metrics": ["--waveasm-pipeline", "--waveasm-metrics"],
    "short-asm": ["--waveasm-pipeline=optimize=false", "--emit-assembly"],
}
LOOP_OPTIONS = [
    "",  # num-stages=0 unroll=0: everything automatic
    "num-stages=2",
    "num-stages=3",
    "num-stages=4",
    "num-stages=2 unroll=1 order=body",
    "only-if-profitable=true",
]
GENERATED = [(1000, 1), (10000, 1), (20000, 1), (3000, 7)]
LOOP_BODIES = [(300, 1), (100, 2)]
PIPELINE_LOOPS = [(40, 8), (120, 16), (300, 32), (300, 3), (600, 64)]
PIPELINE_BODIES = [(100, 1), (300, 2), (1000, 3)]


def shared_examples():
    for base in (os.path.join(os.path.dirname(ROOT), "shared"), "/work/shared"):
        path = os.path.join(base, "waveasm", "examples")
        if os.path.isdir(path):
            return [p for p in sorted(glob.glob(os.path.join(path, "*.mlir")))
                    if not os.path.basename(p).startswith("invalid_")]
    return []


def generate(gen_dir, script, args, name):
    """Writes (once) the output of a generator script and returns its path."""
    path = os.path.join(gen_dir, name)
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, script)] + args +
                       ["-o", path], check=True)
    return path


def opt_inputs(gen_dir):
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "lit", "**",
                                           "*.mlir"), recursive=True))
    files += shared_examples()
    for prefix, flag, sizes in (("gen", "--instructions", GENERATED),
                                ("loop", "--loop-body", LOOP_BODIES)):
        for n, seed in sizes:
            files.append(generate(gen_dir, "gen_waveasm.py",
                                  [flag, str(n), "--seed", str(seed)],
                                  f"{prefix}_{n}_{seed}.mlir"))
    return files


def loop_inputs(gen_dir):
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    lit_dir = os.path.join(ROOT, "tests", "lit", "pipeline", "Inputs",
                           "pipeline-loops")
    for path in sorted(glob.glob(os.path.join(lit_dir, "*.mlir"))):
        text = open(path).read()
        if "TRIPS" not in text:
            files.append(path)
            continue
        for trips in range(1, 9):
            out = os.path.join(gen_dir, f"lit-{trips}-{os.path.basename(path)}")
            with open(out, "w") as f:
                f.write(text.replace("TRIPS", str(trips)))
            files.append(out)
    files += shared_examples()
    for ops, trips in PIPELINE_LOOPS:
        files.append(generate(gen_dir, "gen_pipeline_loop.py",
                              ["--ops", str(ops), "--trips", str(trips)],
                              f"gen-pipe-{ops}-{trips}.mlir"))
    for body, seed in PIPELINE_BODIES:
        files.append(generate(gen_dir, "gen_waveasm.py",
                              ["--loop-body", str(body), "--seed", str(seed)],
                              f"gen-waveasm-{body}-{seed}.mlir"))
    return files


def runs(suite, gen_dir, loop_options):
    """(input path, mode name, waveasm-opt flags) of every run of a suite."""
    os.makedirs(gen_dir, exist_ok=True)
    result = []
    if suite in ("opt", "all"):
        result += [(path, mode, flags) for path in opt_inputs(gen_dir)
                   for mode, flags in OPT_MODES.items()]
    if suite in ("loops", "all"):
        for path in loop_inputs(gen_dir):
            for options in loop_options:
                flag = "--waveasm-pipeline-loops"
                if options:
                    flag += "=" + options
                mode = "loops-" + (options.replace(" ", ",") or "defaults")
                result.append((path, mode, [flag]))
    return result


def key(path):
    rel = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
    return rel.strip("/").replace("/", "__")


def run_one(exe, path, mode, flags, out_dir):
    r = subprocess.run([exe] + flags + [path, "-o", "-"], capture_output=True)
    name = os.path.join(out_dir, f"{key(path)}.{mode}")
    with open(name, "wb") as f:
        f.write(r.stdout)
        f.write(b"\n--- stderr ---\n")
        f.write(r.stderr.replace(path.encode(), b"INPUT"))
        f.write(f"\n--- exit {r.returncode} ---\n".encode())


def dump_outputs(exe, out_dir, args):
    os.makedirs(out_dir, exist_ok=True)
    planned = runs(args.suite, args.gen_dir, args.options or LOOP_OPTIONS)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job in [pool.submit(run_one, exe, path, mode, flags, out_dir)
                    for path, mode, flags in planned]:
            job.result()
    print(f"{len(planned)} outputs ({args.suite}) -> {out_dir}")


def diff_outputs(old_dir, new_dir, allow, keep=None):
    old = set(os.listdir(old_dir))
    new = set(os.listdir(new_dir))
    differing = sorted(old ^ new)
    differing += [name for name in sorted(old & new) if not filecmp.cmp(
        os.path.join(old_dir, name), os.path.join(new_dir, name),
        shallow=False)]
    unintended = 0
    for name in differing:
        intended = any(fnmatch.fnmatch(name, pattern) for pattern in allow)
        unintended += not intended
        print(("intended: " if intended else "differs: ") + name)
        if keep and name in old and name in new:
            os.makedirs(keep, exist_ok=True)
            for tag, src in (("before", old_dir), ("after", new_dir)):
                with open(os.path.join(src, name), "rb") as f, \
                        open(os.path.join(keep, f"{name}.{tag}"), "wb") as g:
                    g.write(f.read())
    print(f"{len(old & new)} outputs compared, {len(differing)} differ "
          f"({len(differing) - unintended} intended)")
    return 1 if unintended else 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    def add_run_options(parser):
        parser.add_argument("--suite", choices=("opt", "loops", "all"),
                            default="opt")
        parser.add_argument("--options", action="append",
                            help="a --waveasm-pipeline-loops option set of "
                            "the loops suite (repeatable)")
        parser.add_argument("--gen-dir", default="/tmp/waveasm-compare-inputs")
        parser.add_argument("--jobs", type=int, default=2)

    d = sub.add_parser("dump")
    add_run_options(d)
    d.add_argument("--waveasm-opt", default=os.environ.get(
        "WAVEASM_OPT", os.path.join(ROOT, "build", "bin", "waveasm-opt")))
    d.add_argument("out_dir")
    c = sub.add_parser("diff")
    c.add_argument("old")
    c.add_argument("new")
    c.add_argument("--allow", action="append", default=[])
    c.add_argument("--keep", help="copy differing outputs here")
    b = sub.add_parser("compare")
    add_run_options(b)
    b.add_argument("before")
    b.add_argument("after")
    b.add_argument("--allow", action="append", default=[])
    b.add_argument("--keep", help="copy differing outputs here")
    args = p.parse_args()

    if args.cmd == "dump":
        dump_outputs(args.waveasm_opt, args.out_dir, args)
        return 0
    if args.cmd == "diff":
        return diff_outputs(args.old, args.new, args.allow, args.keep)
    with tempfile.TemporaryDirectory() as work:
        before, after = os.path.join(work, "before"), os.path.join(work, "after")
        dump_outputs(args.before, before, args)
        dump_outputs(args.after, after, args)
        return diff_outputs(before, after, args.allow, args.keep)


if __name__ == "__main__":
    sys.exit(main())
