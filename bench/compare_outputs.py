#!/usr/bin/env python3
"""Byte-identity check for speed work on the pipeline and the parser.

Runs `waveasm-opt` in several output modes on every example, every lit
`.mlir` input, the shared spec examples and generated programs, and writes
each output (stdout + stderr + exit code) to a file under OUT_DIR:

  dump --waveasm-opt BIN OUT_DIR     # once with the old binary, once the new
  diff OLD_DIR NEW_DIR               # lists every file that differs

A speed change must leave `diff` empty: the outputs are the same bytes.
Modes: the parsed input printed back, `--waveasm-pipeline` IR, with
`--emit-assembly`, with `--waveasm-metrics`, and the short pipeline's
assembly (`--waveasm-pipeline=optimize=false --emit-assembly`).
"""

import argparse
import concurrent.futures
import filecmp
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True

MODES = {
    "print": [],
    "pipeline": ["--waveasm-pipeline"],
    "asm": ["--waveasm-pipeline", "--emit-assembly"],
    "metrics": ["--waveasm-pipeline", "--waveasm-metrics"],
    "short-asm": ["--waveasm-pipeline=optimize=false", "--emit-assembly"],
}
GENERATED = [(1000, 1), (10000, 1), (20000, 1), (3000, 7)]
LOOP_BODIES = [(300, 1), (100, 2)]


def inputs(gen_dir):
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "lit", "**",
                                           "*.mlir"), recursive=True))
    shared = os.path.join(os.path.dirname(ROOT), "shared", "waveasm",
                          "examples")
    if not os.path.isdir(shared):
        shared = "/work/shared/waveasm/examples"
    files += sorted(glob.glob(os.path.join(shared, "*.mlir")))
    os.makedirs(gen_dir, exist_ok=True)
    gen = os.path.join(HERE, "gen_waveasm.py")
    for prefix, flag, sizes in (("gen", "--instructions", GENERATED),
                                ("loop", "--loop-body", LOOP_BODIES)):
        for n, seed in sizes:
            path = os.path.join(gen_dir, f"{prefix}_{n}_{seed}.mlir")
            if not os.path.exists(path):
                subprocess.run([sys.executable, gen, flag, str(n),
                                "--seed", str(seed), "-o", path], check=True)
            files.append(path)
    return files


def key(path):
    rel = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
    return rel.strip("/").replace("/", "__")


def run_one(exe, path, mode, out_dir):
    r = subprocess.run([exe] + MODES[mode] + [path, "-o", "-"],
                       capture_output=True)
    name = os.path.join(out_dir, f"{key(path)}.{mode}")
    with open(name, "wb") as f:
        f.write(r.stdout)
        f.write(b"\n--- stderr ---\n")
        f.write(r.stderr.replace(path.encode(), b"INPUT"))
        f.write(f"\n--- exit {r.returncode} ---\n".encode())


def dump(args):
    os.makedirs(args.out_dir, exist_ok=True)
    files = inputs(args.gen_dir)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(run_one, args.waveasm_opt, f, m, args.out_dir)
                for f in files for m in MODES]
        for j in jobs:
            j.result()
    print(f"{len(files)} inputs x {len(MODES)} modes -> {args.out_dir}")


def diff(args):
    old = sorted(os.listdir(args.old))
    new = sorted(os.listdir(args.new))
    bad = sorted(set(old) ^ set(new))
    for name in sorted(set(old) & set(new)):
        if not filecmp.cmp(os.path.join(args.old, name),
                           os.path.join(args.new, name), shallow=False):
            bad.append(name)
    for name in bad:
        print("differs:", name)
    print(f"{len(set(old) & set(new))} outputs compared, {len(bad)} differ")
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--waveasm-opt", default=os.environ.get(
        "WAVEASM_OPT", os.path.join(ROOT, "build", "bin", "waveasm-opt")))
    d.add_argument("--gen-dir", default="/tmp/waveasm-compare-inputs")
    d.add_argument("--jobs", type=int, default=2)
    d.add_argument("out_dir")
    c = sub.add_parser("diff")
    c.add_argument("old")
    c.add_argument("new")
    args = p.parse_args()
    sys.exit(dump(args) if args.cmd == "dump" else diff(args))


if __name__ == "__main__":
    main()
