#!/usr/bin/env python3
"""Code-action latency of waveasm-lsp on the bundled examples.

For every op line of every example (after the pipeline has run), sends
textDocument/codeAction at the op and measures the round trip through the
e2e client (stdio, JSON, the worker job that measures candidate moves).
Also times waveasm.scheduleLoop (built-in) on each innermost loop.
Writes bench/results/code_actions.json. Nothing is asserted.

  python3 bench/code_action_bench.py [--lsp build/bin/waveasm-lsp] [--out F]
      [--no-check-by-execution]   (the single moves unchecked: the cost of
                                   running each against the document)
"""

import argparse
import glob
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))

from lsp_client import LspClient  # noqa: E402

EDITOR = {"window": {"workDoneProgress": True},
          "workspace": {"applyEdit": True, "workspaceEdit": {"documentChanges": True}}}


def pct(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


def bench_file(lsp, path, check_by_execution=True):
    text = open(path, encoding="utf-8").read()
    client = LspClient([lsp])
    try:
        client.initialize(EDITOR, {"checkByExecution": check_by_execution})
        uri = "file:///bench/" + os.path.basename(path)
        client.open(uri, text, 1)
        client.wait_diagnostics(uri, 1, timeout=60)
        client.result("waveasm/metrics", {"textDocument": {"uri": uri}}, 60)
        times, with_moves, loops, titles = [], 0, [], []
        lines = text.split("\n")
        for i, line in enumerate(lines):
            s = line.lstrip()
            if not (s.startswith("%") or s.startswith("waveasm.")):
                continue
            pos = {"line": i, "character": len(line) - len(s) + 1}
            t0 = time.monotonic()
            actions = client.result("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
                "context": {"diagnostics": []}}, 60)
            times.append((time.monotonic() - t0) * 1000)
            moves = [a["title"] for a in actions if "edit" in a]
            with_moves += bool(moves)
            titles += moves
            if "waveasm.loop" in s:
                loops.append(pos)
        schedule = []
        for pos in loops:
            t0 = time.monotonic()
            result = client.result("workspace/executeCommand", {
                "command": "waveasm.scheduleLoop",
                "arguments": [{"uri": uri, "position": pos, "strategy": "builtin"}]}, 120)
            schedule.append({"ms": round((time.monotonic() - t0) * 1000, 1),
                             "summary": result.get("summary"),
                             "applied": result.get("applied")})
            # The bench client answers applyEdit without editing: the
            # document stays as written for the next loop.
        times.sort()
        return {"file": os.path.basename(path), "op_lines": len(times),
                "median_ms": round(statistics.median(times), 2),
                "p90_ms": round(pct(times, 0.9), 2), "max_ms": round(times[-1], 2),
                "ops_with_moves": with_moves, "example_titles": titles[:3],
                "schedule_loop_builtin": schedule}
    finally:
        client.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lsp", default=os.environ.get(
        "WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp")))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "code_actions.json"))
    ap.add_argument("--no-check-by-execution", dest="check", action="store_false",
                    help="do not run the single moves in the simulator")
    ap.add_argument("--examples", nargs="*",
                    default=sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))))
    args = ap.parse_args()
    rows = [bench_file(args.lsp, path, args.check) for path in args.examples]
    for r in rows:
        print("%-32s %3d ops  median %5.1f ms  p90 %5.1f ms  max %5.1f ms  moves on %2d ops  %s"
              % (r["file"], r["op_lines"], r["median_ms"], r["p90_ms"], r["max_ms"],
                 r["ops_with_moves"],
                 "; ".join("%s (%s ms)" % (s["summary"], s["ms"])
                           for s in r["schedule_loop_builtin"])))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"note": "textDocument/codeAction round trip per op line (client "
                           "included), after the pipeline; waveasm.scheduleLoop "
                           "builtin per loop. 2 shared cores, Release.",
                   "check_by_execution": args.check,
                   "files": rows}, f, indent=1)


if __name__ == "__main__":
    main()
