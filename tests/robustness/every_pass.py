#!/usr/bin/env python3
"""Every pass on every input never crashes: runs each `--waveasm-*` pass that
waveasm-opt registers (read from its --help, so a new pass is covered the day
it lands) on every lit test input and example, and checks that each run ends
with success or a diagnostic, never a signal, an assertion or a hang.

The lit tests run a pass on the inputs written for it; this runs it on the
inputs written for the others (loops without iter_args, empty programs,
nested regions, several programs per module), where a pass's assumptions
about the shape of the IR break first.

usage: every_pass.py WAVEASM_OPT DIR... [--jobs N] [--timeout S]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

PASS = re.compile(r"^\s+(--waveasm-[a-z0-9-]+)\s", re.M)
# Options that print something else than IR rather than run a pass.
NOT_PASSES = {"--waveasm-metrics"}
CRASH = re.compile(rb"PLEASE submit a bug report|Assertion .* failed|"
                   rb"Stack dump:|UNREACHABLE executed")


def passes(tool):
    help_text = subprocess.run([tool, "--help"], capture_output=True,
                               text=True, check=True).stdout
    found = sorted(set(PASS.findall(help_text)) - NOT_PASSES)
    if "--waveasm-pipeline-loops" not in found:
        sys.exit("waveasm-opt --help lists no --waveasm-pipeline-loops: "
                 "the pass list was not read")
    return found


def inputs(dirs):
    files = []
    for d in dirs:
        files += glob.glob(os.path.join(d, "**", "*.mlir"), recursive=True)
    return sorted(files)


def run(tool, flag, path, timeout):
    with open(path, "rb") as f:
        split = b"// -----" in f.read()
    cmd = [tool, flag, path, "-o", os.devnull]
    if split:
        cmd.append("--split-input-file")
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return cmd, "hang (more than %d s)" % timeout
    if proc.returncode < 0 or CRASH.search(proc.stderr):
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-3:]
        return cmd, "crash (exit %d): %s" % (proc.returncode, " | ".join(tail))
    return cmd, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120)
    args = parser.parse_args()
    flags = passes(args.tool)
    files = inputs(args.dirs)
    if not files:
        print("no input files found", file=sys.stderr)
        return 1
    failures = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(run, args.tool, flag, path, args.timeout)
                for flag in flags for path in files]
        for job in jobs:
            cmd, problem = job.result()
            if problem:
                failures.append((cmd, problem))
    for cmd, problem in failures:
        print("%s: %s" % (" ".join(cmd), problem))
    print("%d passes x %d inputs: %d runs, %d crashed or hung"
          % (len(flags), len(files), len(flags) * len(files), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
