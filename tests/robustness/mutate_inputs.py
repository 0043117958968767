#!/usr/bin/env python3
"""Bad input never crashes: feeds deterministic mutations of the example
kernels (truncations, byte flips, deleted spans, duplicated lines) to
waveasm-opt and checks that every run ends with success or a diagnostic
(`file:line:col: error: ...`), never a signal, an assertion or a hang.

usage: mutate_inputs.py WAVEASM_OPT EXAMPLE_DIR... [--runs-per-file N]
                        [--tool-args "ARGS"]  (e.g. the backend pipeline)
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

DIAG = re.compile(rb"^[^\s:][^:]*:\d+:\d+: error: ", re.M)


def mutations(src, rng, count):
    for trial in range(count):
        kind = trial % 4
        if kind == 0:  # truncation
            yield "truncate", src[: rng.randrange(len(src))]
        elif kind == 1:  # one byte replaced
            pos = rng.randrange(len(src))
            yield "flip", src[:pos] + bytes([rng.randrange(256)]) + src[pos + 1 :]
        elif kind == 2:  # a span deleted
            a = rng.randrange(len(src))
            b = min(len(src), a + rng.randrange(1, 60))
            yield "delete", src[:a] + src[b:]
        else:  # a line duplicated (redefinitions, misplaced terminators)
            lines = src.split(b"\n")
            i = rng.randrange(len(lines))
            yield "duplicate", b"\n".join(lines[: i + 1] + lines[i:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--runs-per-file", type=int, default=40)
    parser.add_argument("--tool-args", default="",
                        help="extra waveasm-opt arguments, space-separated")
    args = parser.parse_args()

    files = sorted(
        f
        for d in args.dirs
        if os.path.isdir(d)
        for f in glob.glob(os.path.join(d, "*.mlir"))
    )
    if not files:
        print("no input files found", file=sys.stderr)
        return 1
    rng = random.Random(1234)
    failures = 0
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mutant.mlir")
        for f in files:
            src = open(f, "rb").read()
            for kind, data in mutations(src, rng, args.runs_per_file):
                with open(path, "wb") as out:
                    out.write(data)
                runs += 1
                try:
                    r = subprocess.run(
                        [args.tool, *args.tool_args.split(), path, "-o",
                         os.devnull],
                        capture_output=True,
                        timeout=30,
                    )
                except subprocess.TimeoutExpired:
                    failures += 1
                    print(f"HANG: {kind} mutation of {f}")
                    continue
                crashed = (
                    r.returncode not in (0, 1)
                    or b"Assertion" in r.stderr
                    or b"Stack dump" in r.stderr
                )
                undiagnosed = r.returncode == 1 and not DIAG.search(r.stderr)
                if crashed or undiagnosed:
                    failures += 1
                    keep = os.path.join(tmp, "..", f"mutant-{failures}.mlir")
                    print(f"{'CRASH' if crashed else 'NO DIAGNOSTIC'}: {kind} "
                          f"mutation of {f} (exit {r.returncode})")
                    print(r.stderr.decode(errors="replace")[-600:])
    print(f"{runs - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
