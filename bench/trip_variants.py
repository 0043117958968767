#!/usr/bin/env python3
"""The same program with one loop run a different number of trips, for the
marginal cost of a trip (bench/pipeline_table.py: a straight program's
figure per iteration).

The loop's trip count must be one the IR gives (TripCount.h, "inferred"):
its condition an `s_cmp` against a constant. The constant operand is
replaced by a new `waveasm.constant` of another value, and the variant is
kept only when `waveasm-opt --waveasm-metrics` infers the wanted count for
that loop (a `trip_count` attribute would not do: the pipelining pass takes
it as a hint and keeps a guarded kernel). Nothing is guessed: a loop whose
count does not come out as asked gives None.
"""

import json
import re
import subprocess


def _block_end(text, start):
    """The index just past the `}` closing the region that opens at the end
    of the op's first line at or after start (an attribute dict before it,
    `attributes {...}`, is not the region)."""
    i = text.index("{\n", start)
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _loop_span(text, program, loop_index):
    """(start, end) of the loop_index-th `waveasm.loop` (pre-order, the
    metrics' order) of `program` in the printed IR."""
    m = re.search(r"waveasm\.program @%s\b" % re.escape(program), text)
    if not m:
        return None
    prog_end = _block_end(text, m.end())
    starts = [x.start() for x in re.finditer(r"\bwaveasm\.loop\b", text[m.end():prog_end])]
    if loop_index >= len(starts):
        return None
    start = m.end() + starts[loop_index]
    return start, _block_end(text, start)


def _own_condition(body):
    """The value name of the condition of the loop whose text is `body`
    (its own `waveasm.condition`, not a nested loop's)."""
    depth = 0
    found = None
    for m in re.finditer(r"[{}]|waveasm\.condition (%[\w#]+)", body):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif depth == 1:
            found = m.group(1)
    return found


def _variant(text, program, loop_index, delta):
    span = _loop_span(text, program, loop_index)
    if not span:
        return None
    body = text[span[0]:span[1]]
    cond = _own_condition(body)
    if not cond:
        return None
    line = re.search(r"^(\s*)%s = (waveasm\.s_cmp_\w+) (%%[\w#]+), (%%[\w#]+) : "
                     r"([^,]+), ([^-]+?) -> !waveasm\.scc$" % re.escape(cond),
                     body, re.M)
    if not line:
        return None
    indent, op, lhs, rhs, lty, rty = line.groups()
    imm = r"!waveasm\.imm<(-?\d+)>"
    # The side that is a constant (the bound); the other is the counter.
    for side, ty in ((1, rty), (0, lty)):
        k = re.fullmatch(imm, ty.strip())
        if not k:
            continue
        value = int(k.group(1)) + delta
        probe = "%trip_probe"
        new_ty = "!waveasm.imm<%d>" % value
        operands = (lhs, probe) if side == 1 else (probe, rhs)
        types = (lty, new_ty) if side == 1 else (new_ty, rty)
        new_line = ("%s%s = waveasm.constant %d : %s\n%s%s = %s %s, %s : %s, %s -> !waveasm.scc"
                    % (indent, probe, value, new_ty, indent, cond, op,
                       operands[0], operands[1], types[0].strip(), types[1].strip()))
        new_body = body[:line.start()] + new_line + body[line.end():]
        return text[:span[0]] + new_body + text[span[1]:]
    return None


def trip_count_of(opt, text, program, loop_index):
    """(count, source) of the loop by `waveasm-opt --waveasm-metrics`."""
    r = subprocess.run([opt, "--waveasm-metrics", "-"], input=text,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, None
    progs = json.loads(r.stdout)["programs"]
    p = next((p for p in progs if p["name"] == program), None)
    if p is None or loop_index >= len(p["loops"]):
        return None, None
    loop = p["loops"][loop_index]
    return loop.get("trip_count"), loop.get("trip_count_source")


def with_trip_count(opt, path, program, loop_index, trips):
    """The IR of `path` (as waveasm-opt prints it) with the loop run `trips`
    times, or None where its count is not an inferred constant compare or
    no small change of the constant gives that count."""
    r = subprocess.run([opt, path], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    text = r.stdout
    count, source = trip_count_of(opt, text, program, loop_index)
    if source != "inferred" or count is None:
        return None
    if count == trips:
        return text
    # The constant moves by the counter's step per trip: try the nearest
    # steps first, both ways (a decreasing counter moves it the other way).
    want = trips - count
    for step in (1, 2, 4, 8, 16, 32, 64):
        for sign in (1, -1):
            variant = _variant(text, program, loop_index, sign * step * want)
            if variant is None:
                return None
            got, src = trip_count_of(opt, variant, program, loop_index)
            if src == "inferred" and got == trips:
                return variant
    return None


def main():
    import argparse
    import os
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="print FILE with one loop run TRIPS times")
    ap.add_argument("--waveasm-opt", default=os.path.join(here, "..", "build", "bin", "waveasm-opt"))
    ap.add_argument("file")
    ap.add_argument("program")
    ap.add_argument("loop", type=int, help="the loop's pre-order number in the program")
    ap.add_argument("trips", type=int)
    args = ap.parse_args()
    text = with_trip_count(args.waveasm_opt, args.file, args.program, args.loop, args.trips)
    if text is None:
        sys.stderr.write("trip_variants: loop %d of @%s has no trip count from a constant "
                         "compare that can be made %d\n" % (args.loop, args.program, args.trips))
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
