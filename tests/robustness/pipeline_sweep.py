#!/usr/bin/env python3
"""Pipelining sweep: every loop of every example, pipelined under many
option sets, must compute what the input computes (the simulator decides).

For each example (examples/*.mlir and the shared spec's examples, the
invalid_* ones excepted), each loop (by pre-order number) and a sample of
option sets of `--waveasm-pipeline-loops` (num-stages 2-6 or automatic,
unroll, order, lds-buffers and lds-spare, only-if-profitable,
loads-after-reads and overlap-outer), and for every stage count on the loop given
other trip counts (a loop whose bound is a constant: 1 to 9 iterations,
below and above the stage count, with remainders) and given other values
of the kernel arguments its `// waveasm-sim:` lines set (trip counts the IR
does not know), the pipelined program is
compared with the input by `waveasm-sim --compare` (timing-aware, every
wave; LDS left at the end ignored, as compare-pipelined.sh explains), and
every pipelined program that changed is also compared with its own
production-pipeline output (`--against-pipeline`: allocation, waits,
hazards). A pass that refuses a loop (a remark, exit 0, unchanged text) is
fine; a pass that fails, a simulator error or a difference is a finding.

usage: pipeline_sweep.py [--per-loop N] [--seed S] [--all] [--jobs J]
                         [--waveasm-opt P] [--waveasm-sim P] [--lds-buffers N]...
                         [--version-descriptors auto|never|always]
                         [--descriptor K:J[+OFFSET]]... [FILES...]

Loop versioning on precolored descriptors (pipeline/opt/
DescriptorVersioning.h) is run on either side: `--version-descriptors=
always` versions every loop the check can be built for, and
`--descriptor=K:J[+OFFSET]` (repeatable) makes the simulator's descriptor
K address buffer J's bytes, so the buffers overlap and the check sends the
run through the slow copy (by default each buffer is its own: the fast
copy runs).

Prints one line per finding and a summary; exits 1 when there is one.
"""

import argparse
import concurrent.futures
import glob
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared", "waveasm", "examples"))

STAGES = (0, 2, 3, 4, 5, 6)
# Trip counts of the trip-count variants (loops whose bound is a constant).
TRIPS = (1, 2, 3, 4, 5, 7, 9)
UNROLL = (0, 1, 2, 3)
ORDER = ("late-first", "body", "reads-first")
# only-if-profitable: 1 keeps a pipelined loop only when it measures faster
# (the path that puts the program back when not).
PROFITABLE = (0, 1)
# (lds-buffers, lds-spare): a spare buffer needs 4 to 8 (and two more than a
# loop rotates by hand).
LDS_BUFFERS = ((0, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (4, 1), (5, 1), (6, 1),
               (7, 0), (8, 0), (7, 1), (8, 1))
# (loads-after-reads, overlap-outer): direct-to-LDS loads moved after the
# LDS reads (auto: where faster), and the outer loop of a pipelined kernel
# rotated (1, the default). Not multiplied into the other options (that
# would triple --all): each option set gets one pair, in turn.
LATER = (("auto", 1), ("always", 1), ("never", 0), ("auto", 0), ("always", 0), ("never", 1))


def run(argv, timeout=120):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout
    return r.returncode, r.stdout, r.stderr


def loop_trips(opt, text):
    """The trip count of each loop (pre-order) of the first program, None
    where the metrics do not know it; None when the text does not compile
    to metrics."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(text)
        f.flush()
        rc, out, _ = run([opt, "--waveasm-metrics", f.name])
    if rc != 0:
        return None
    programs = json.loads(out)["programs"]
    if not programs:
        return []
    return [l.get("trip_count") if l.get("trip_count_source") == "inferred" else None
            for l in programs[0]["loops"]]


def trip_variants(opt, text, loop, trips, base):
    """(trip count, text) for each count of TRIPS that the loop's bound can
    be given: a loop whose exit compare reads `%NAME = waveasm.constant V`
    with V a multiple of its trip count T (a counter from 0 by V / T) gets
    V' = V / T * trip on the constant's line and the lines that use it;
    kept when the metrics then infer that trip count for the loop and for
    no other loop a changed one. `base`: loop_trips of the text."""
    if not base or loop >= len(base) or not base[loop]:
        return []
    count = base[loop]
    out = []
    for name in sorted(set(re.findall(r"waveasm\.s_cmp_\w+ %[\w#]+, %(\w+)", text))):
        m = re.search(r"^\s*%" + name + r"\s*=\s*waveasm\.constant (\d+) : !waveasm\.imm<\1>",
                      text, re.M)
        if not m or int(m.group(1)) % count:
            continue
        value = int(m.group(1))
        for trip in trips:
            if trip == count:
                continue
            new_value = value // count * trip
            lines = []
            uses = False
            for line in text.splitlines(True):
                # A use's types may continue on the next line (": ...").
                if re.search(r"%" + name + r"\b", line) or \
                        (uses and line.lstrip().startswith(":")):
                    uses = True
                    line = line.replace("constant %d :" % value, "constant %d :" % new_value)
                    line = line.replace("!waveasm.imm<%d>" % value, "!waveasm.imm<%d>" % new_value)
                else:
                    uses = False
                lines.append(line)
            variant = "".join(lines)
            got = loop_trips(opt, variant)
            if got and loop < len(got) and got[loop] == trip and \
                    all(g == b for i, (g, b) in enumerate(zip(got, base)) if i != loop):
                out.append((trip, variant))
    return out


def kernarg_variants(text):
    """(label, text) for each kernel argument a `// waveasm-sim:` line
    gives (`--kernarg-dword=OFF:VAL`, such as a trip count the IR does not
    know) set to other small values: the loop then runs other counts,
    short ones included, which the guard of a dynamic trip count decides."""
    out = []
    for m in re.finditer(r"--kernarg-dword=(\d+):(\d+)", text):
        offset, value = m.group(1), int(m.group(2))
        for new in sorted({1, 2, 3, 5, 7, 13, value + 1} - {value}):
            out.append(("arg%s_%d" % (offset, new),
                        text[:m.start()] + "--kernarg-dword=%s:%d" % (offset, new) +
                        text[m.end():]))
    return out


def loop_count(opt, path):
    rc, out, _ = run([opt, "--waveasm-metrics", path])
    if rc != 0:
        return 0
    return max([0] + [len(p["loops"]) for p in json.loads(out)["programs"]])


def options_of(stages, unroll, order, lds, loop, profitable=0, later=("auto", 1)):
    parts = ["only-if-profitable=%d" % profitable] if profitable else []
    if stages:
        parts.append("num-stages=%d" % stages)
    parts.append("unroll=%d" % unroll)
    if order:  # "": not given, the pass's own choice (reads-first measured too)
        parts.append("order=" + order)
    parts += ["lds-buffers=%d" % lds[0], "lds-spare=%d" % lds[1], "loop=%d" % loop]
    if later != ("auto", 1):
        parts += ["loads-after-reads=" + later[0], "overlap-outer=%d" % later[1]]
    return " ".join(parts)


# The pass's version-descriptors option for every case ("" = its default)
# and the simulator's --descriptor flags (main() sets them).
VERSION_DESCRIPTORS = ""
SIM_FLAGS = []


def check(tools, tmp, source, name, text, options):
    """One case: (verdict, detail). verdict is 'equal', 'unchanged' or
    'finding'."""
    opt, sim = tools
    if VERSION_DESCRIPTORS:
        options += " version-descriptors=" + VERSION_DESCRIPTORS
    tag = re.sub(r"[^A-Za-z0-9]+", "_", name + "_" + options)
    src = os.path.join(tmp, tag + ".in.mlir")
    out = os.path.join(tmp, tag + ".out.mlir")
    with open(src, "w") as f:
        f.write(text)
    rc, _, err = run([opt, "--waveasm-pipeline-loops=" + options, src, "-o", out])
    if rc != 0:
        first = next((l for l in err.splitlines() if "error" in l), err.strip()[:200])
        return "finding", "pass failed: " + first
    _, same, _ = run([opt, src])
    with open(out) as f:
        if f.read() == same:
            return "unchanged", ""
    rc, sout, serr = run([sim, "--compare", "--ignore-lds", "--seeds", "2"] + SIM_FLAGS + [src, out])
    if rc != 0:
        return "finding", "compare: " + (sout + serr).strip().splitlines()[0][:300]
    # The printed output lost the input's comments: its `// waveasm-sim:`
    # lines (kernel arguments such as trip counts) go back at its end.
    with open(out, "a") as f:
        f.write("".join(l + "\n" for l in text.splitlines()
                        if l.lstrip().startswith("// waveasm-sim:")))
    rc, sout, serr = run([sim, "--against-pipeline", "--seeds", "1"] + SIM_FLAGS + [out])
    if rc != 0:
        return "finding", "against-pipeline: " + (sout + serr).strip().splitlines()[0][:300]
    return "equal", ""


def cases(opt, paths, per_loop, rng, everything, lds_choices=None):
    """`lds_choices`: the (lds-buffers, lds-spare) pairs every case forces
    (None: the pass's own choice for the base cases, all pairs sampled)."""
    forced = lds_choices is not None
    lds_choices = lds_choices if forced else LDS_BUFFERS
    for path in paths:
        with open(path) as f:
            text = f.read()
        loops = loop_count(opt, path)
        trips_as_written = loop_trips(opt, text)
        for loop in range(loops):
            combos = list(itertools.product(STAGES, UNROLL, ORDER, lds_choices, PROFITABLE))
            if not everything:
                # The automatic choice and each stage count with default
                # options always (each forced buffer count with
                # --lds-buffers); a seeded sample of the rest.
                base = [(s, 0, "", lds, 0) for s in STAGES
                        for lds in (lds_choices if forced else [(0, 0)])]
                rest = [c for c in combos if c not in base]
                combos = base + rng.sample(rest, min(per_loop, len(rest)))
            for i, (stages, unroll, order, lds, profitable) in enumerate(combos):
                later = LATER[i % len(LATER)] if i >= len(STAGES) else LATER[0]
                yield path, os.path.basename(path)[:-5], text, \
                    options_of(stages, unroll, order, lds, loop, profitable, later)
            # Other trip counts of a loop with a constant bound: short ones
            # (below the stage count: refused or guarded), remainders.
            variants = [("trip%d" % trip, variant)
                        for trip, variant in trip_variants(opt, text, loop, TRIPS, trips_as_written)]
            variants += kernarg_variants(text)
            for label, variant in variants:
                # Every stage count with --all, else the automatic choice
                # and two sampled counts.
                counts = STAGES if everything else \
                    (0,) + tuple(rng.sample(STAGES[1:], 2))
                for stages in counts:
                    lds = rng.choice(lds_choices) if forced else (0, 0)
                    yield path, "%s_%s" % (os.path.basename(path)[:-5], label), variant, \
                        options_of(stages, 0, "", lds, loop)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--waveasm-opt", default=os.path.join(REPO, "build", "bin", "waveasm-opt"))
    ap.add_argument("--waveasm-sim", default=os.path.join(REPO, "build", "bin", "waveasm-sim"))
    ap.add_argument("--per-loop", type=int, default=4,
                    help="sampled option sets per loop beyond the stage counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true", help="every option set")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--version-descriptors", choices=("auto", "never", "always"),
                    help="the pass's version-descriptors for every case")
    ap.add_argument("--descriptor", action="append", default=[],
                    help="K:J[+OFFSET]: the simulator's descriptor K into "
                         "buffer J's bytes (overlapping buffers)")
    ap.add_argument("--lds-buffers", type=int, action="append", default=[],
                    choices=sorted({b for b, _ in LDS_BUFFERS if b}),
                    help="N (repeatable): every case forces lds-buffers=N, "
                         "with and without a spare where one is allowed")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    lds_choices = [c for c in LDS_BUFFERS if c[0] in args.lds_buffers] \
        if args.lds_buffers else None
    global VERSION_DESCRIPTORS, SIM_FLAGS
    VERSION_DESCRIPTORS = args.version_descriptors or ""
    SIM_FLAGS = ["--descriptor=" + d for d in args.descriptor]
    paths = args.files or (sorted(glob.glob(os.path.join(REPO, "examples", "*.mlir"))) +
                           sorted(p for p in glob.glob(os.path.join(SHARED, "*.mlir"))
                                  if not os.path.basename(p).startswith("invalid_")))
    rng = random.Random(args.seed)
    tools = (args.waveasm_opt, args.waveasm_sim)
    counts = {"equal": 0, "unchanged": 0, "finding": 0}
    findings = []
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(check, tools, tmp, path, name, text, options):
                   (name, options)
                   for path, name, text, options in
                   cases(args.waveasm_opt, paths, args.per_loop, rng, args.all,
                         lds_choices)}
        for future in concurrent.futures.as_completed(futures):
            name, options = futures[future]
            verdict, detail = future.result()
            counts[verdict] += 1
            if verdict == "finding":
                findings.append("%s [%s]: %s" % (name, options, detail))
    for line in sorted(findings):
        print("FINDING " + line)
    print("pipeline sweep: %d pipelined and equal, %d left unchanged, %d findings"
          % (counts["equal"], counts["unchanged"], counts["finding"]))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
