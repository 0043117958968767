#!/usr/bin/env python3
"""Compare `waveasm-opt --waveasm-pipeline-loops` outputs of two binaries.

A speed change to the pass (issue 12: how the automatic stage count and
unroll are chosen) must not change what it produces. This script runs two
`waveasm-opt` builds (BEFORE and AFTER) with the same options on the same
inputs and reports every input whose output or diagnostics differ:

  examples/*.mlir, tests/lit/pipeline/Inputs/pipeline-loops/*.mlir (TRIPS
  substituted by 1..8), the shared spec's examples, and generated
  programs (gen_pipeline_loop.py at several sizes and trip counts,
  gen_waveasm.py --loop-body at several sizes)

each with the option sets below (the defaults first). Exit status 1 when
anything differs, so it can gate a refactoring; `--allow FILE:OPTIONS`
names a difference that is intended (an improved choice), which is then
listed but not counted.

usage: compare_pipeline_outputs.py BEFORE AFTER [--options "..."]...
       [--allow PATTERN]... [--keep DIR]
"""

import argparse
import fnmatch
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

DEFAULT_OPTIONS = [
    "",  # num-stages=0 unroll=0: everything automatic
    "num-stages=2",
    "num-stages=3",
    "num-stages=4",
    "num-stages=2 unroll=1 order=body",
    "only-if-profitable=true",
]


def find_shared_examples():
    for base in (os.path.join(ROOT, "..", "shared"), "/work/shared"):
        path = os.path.join(base, "waveasm", "examples")
        if os.path.isdir(path):
            return sorted(glob.glob(os.path.join(path, "*.mlir")))
    return []


def make_inputs(workdir):
    """(name, path) of every input, generated ones written to workdir."""
    inputs = []
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        inputs.append(("examples/" + os.path.basename(path), path))
    lit_dir = os.path.join(ROOT, "tests", "lit", "pipeline", "Inputs",
                           "pipeline-loops")
    for path in sorted(glob.glob(os.path.join(lit_dir, "*.mlir"))):
        text = open(path).read()
        name = "lit/" + os.path.basename(path)
        if "TRIPS" not in text:
            inputs.append((name, path))
            continue
        for trips in range(1, 9):
            out = os.path.join(workdir, f"lit-{trips}-" + os.path.basename(path))
            with open(out, "w") as f:
                f.write(text.replace("TRIPS", str(trips)))
            inputs.append((f"{name}[TRIPS={trips}]", out))
    for path in find_shared_examples():
        if os.path.basename(path).startswith("invalid_"):
            continue
        inputs.append(("shared/" + os.path.basename(path), path))
    for ops, trips in ((40, 8), (120, 16), (300, 32), (300, 3), (600, 64)):
        out = os.path.join(workdir, f"gen-pipe-{ops}-{trips}.mlir")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_pipeline_loop.py"),
                        "--ops", str(ops), "--trips", str(trips), "-o", out],
                       check=True)
        inputs.append((f"gen_pipeline_loop --ops {ops} --trips {trips}", out))
    for body, seed in ((100, 1), (300, 2), (1000, 3)):
        out = os.path.join(workdir, f"gen-waveasm-{body}-{seed}.mlir")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_waveasm.py"),
                        "--loop-body", str(body), "--seed", str(seed), "-o", out],
                       check=True)
        inputs.append((f"gen_waveasm --loop-body {body} --seed {seed}", out))
    return inputs


def run(binary, options, path):
    """(exit code, output IR, diagnostics) of one run."""
    flag = "--waveasm-pipeline-loops"
    if options:
        flag += "=" + options
    proc = subprocess.run([binary, flag, path], capture_output=True, text=True)
    # Diagnostics name the input file; the paths are the same for both runs.
    return proc.returncode, proc.stdout, proc.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--options", action="append",
                        help="option set (repeatable; default: %s)" %
                        DEFAULT_OPTIONS)
    parser.add_argument("--allow", action="append", default=[],
                        help="'INPUT-GLOB:OPTIONS' whose difference is intended")
    parser.add_argument("--keep", help="write differing outputs here")
    args = parser.parse_args()
    option_sets = args.options or DEFAULT_OPTIONS
    with tempfile.TemporaryDirectory() as workdir:
        inputs = make_inputs(workdir)
        compared = differing = allowed = 0
        for name, path in inputs:
            for options in option_sets:
                before = run(args.before, options, path)
                after = run(args.after, options, path)
                compared += 1
                if before == after:
                    continue
                key = f"{name}:{options}"
                intended = any(fnmatch.fnmatch(key, pattern)
                               for pattern in args.allow)
                if intended:
                    allowed += 1
                else:
                    differing += 1
                what = [part for part, b, a in
                        zip(("exit code", "IR", "diagnostics"), before, after)
                        if b != a]
                print(f"{'INTENDED' if intended else 'DIFFERS'}: {name} "
                      f"[{options or 'defaults'}]: {', '.join(what)}")
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    stem = "".join(c if c.isalnum() else "_" for c in key)
                    for tag, result in (("before", before), ("after", after)):
                        with open(os.path.join(args.keep, f"{stem}.{tag}.mlir"),
                                  "w") as f:
                            f.write(result[1] + "\n// stderr:\n" + result[2])
    print(f"{compared} runs ({len(inputs)} inputs x {len(option_sets)} option "
          f"sets): {compared - differing - allowed} identical, {allowed} "
          f"intended differences, {differing} unintended")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
