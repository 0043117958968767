#!/usr/bin/env python3
"""Benchmark: waveasm-lsp as an editor sees it, next to mlir-lsp-server.

Both servers are driven through tests/e2e/lsp_client.py (Content-Length
framing over pipes; times are taken when a message arrives at the client):

waveasm-lsp, on a generated 10,000-instruction kernel (gen_waveasm.py):
  - didChange -> publishDiagnostics latency, for a one-line semantic change
    in the middle of the file (an instruction's mnemonic toggled between
    v_xor_b32 and v_and_b32; a ranged, incremental edit), each edit after
    the previous one was fully processed (so the debounce's leading edge
    applies, as for an isolated keystroke);
  - the same with the debounce's leading edge off (a pure trailing
    debounce, for reference);
  - the full pipeline refresh: didChange -> workspace/inlayHint/refresh
    (parse, verify, compile, analyses, lints);
  - textDocument/inlayHint for a 100-line range once the pipeline has run;
  - resident memory (VmRSS from /proc/PID/status) after the edits.

mlir-lsp-server (LLVM 22, stock), on a builtin-dialect file with 10,000
`arith.addi` in one func.func, with the same kind of edit (addi <-> subi
mid-file); it only supports full-text sync, so each change carries the
whole text (as an editor would send it).

Writes bench/results/lsp.json and prints a table. Targets (reported, never
asserted): diagnostics p50 <= 30 ms, inlay hints <= 10 ms, pipeline refresh
<= 200 ms, RSS <= 300 MB, and waveasm-lsp's diagnostics p50 not above
mlir-lsp-server's.
"""

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))

from lsp_client import LspClient, LspError, utf16_len  # noqa: E402

CAPABILITIES = {
    "window": {"workDoneProgress": False},
    "workspace": {
        "inlayHint": {"refreshSupport": True},
        "codeLens": {"refreshSupport": True},
    },
    "textDocument": {"publishDiagnostics": {"versionSupport": True}},
}


def summary(samples):
    if not samples:
        return None
    ordered = sorted(samples)

    def pct(p):
        return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]

    return {
        "p50": round(statistics.median(ordered), 2),
        "p90": round(pct(90), 2),
        "min": round(ordered[0], 2),
        "max": round(ordered[-1], 2),
        "n": len(ordered),
        "samples": [round(s, 2) for s in samples],
    }


def toggle_edit(lines, needle_a, needle_b):
    """Finds the line nearest the middle containing `needle_a`; returns
    (line index, character of the needle, a, b)."""
    middle = len(lines) // 2
    for distance in range(len(lines)):
        for index in (middle + distance, middle - distance):
            if 0 <= index < len(lines) and needle_a in lines[index] \
                    and not lines[index].lstrip().startswith("//"):
                column = utf16_len(lines[index][: lines[index].index(needle_a)])
                return index, column
    raise RuntimeError("no line with %r" % needle_a)


def measure_waveasm(lsp, path, runs, leading_edge=True, timeout=120.0):
    text = open(path).read()
    lines = text.split("\n")
    line, column = toggle_edit(lines, "waveasm.v_xor_b32", None)
    column += len("waveasm.v_")
    uri = "file://" + os.path.abspath(path)
    options = {"debounce": {"leadingEdge": leading_edge}}
    result = {"edit_line": line + 1}
    # The server's own log gives its parse times, to split the latency into
    # parsing and everything else (transport, store, runtime).
    log = tempfile.TemporaryFile(mode="w+")
    with LspClient([lsp, "--log=info"], stderr=log) as client:
        client.initialize(CAPABILITIES, options)
        start = time.perf_counter()
        client.open(uri, text)
        _, arrival = client.wait_diagnostics(uri, 1, timeout=timeout, with_time=True)
        result["open_to_diagnostics_ms"] = round((arrival - start) * 1000, 2)
        _, arrival = client.wait_event("workspace/inlayHint/refresh", timeout=timeout,
                                       with_time=True)
        result["open_to_pipeline_refresh_ms"] = round((arrival - start) * 1000, 2)

        diagnostics, refresh, hints = [], [], []
        current = "xor"
        for run in range(runs):
            version = run + 2
            new = "and" if current == "xor" else "xor"
            mark = client.mark()
            start = time.perf_counter()
            client.change(uri, version, [{
                "range": {"start": {"line": line, "character": column},
                          "end": {"line": line, "character": column + 3}},
                "text": new,
            }])
            current = new
            params, arrival = client.wait_diagnostics(uri, version, since=mark,
                                                      timeout=timeout, with_time=True)
            errors = [d for d in params["diagnostics"] if d.get("severity") == 1]
            if errors:
                raise RuntimeError("the edit broke the file: %r" % errors[:1])
            diagnostics.append((arrival - start) * 1000)
            _, arrival = client.wait_event("workspace/inlayHint/refresh", since=mark,
                                           timeout=timeout, with_time=True)
            refresh.append((arrival - start) * 1000)
            t0 = time.perf_counter()
            got = client.result("textDocument/inlayHint", {
                "textDocument": {"uri": uri},
                "range": {"start": {"line": line - 50, "character": 0},
                          "end": {"line": line + 50, "character": 0}},
            }, timeout)
            hints.append((time.perf_counter() - t0) * 1000)
            result["hints_in_range"] = len(got)
            # Idle for longer than any debounce interval: the next edit is an
            # isolated keystroke.
            time.sleep(0.6)
        result["rss_mb"] = round(client.rss_kib() / 1024.0, 1)
        result["diagnostics_ms"] = summary(diagnostics)
        result["pipeline_refresh_ms"] = summary(refresh)
        result["inlay_hints_100_lines_ms"] = summary(hints)
        result["exit_code"] = client.shutdown_and_exit()
    log.seek(0)
    parses, pipelines, lints = {}, [], []
    for entry in log:
        match = re.search(r"parsed \S+ v(\d+) in ([\d.]+) ms", entry)
        if match:
            parses[int(match.group(1))] = float(match.group(2))
        match = re.search(r"pipeline for \S+ v\d+: \w+ in ([\d.]+) ms, lints in ([\d.]+) ms",
                          entry)
        if match:
            pipelines.append(float(match.group(1)))
            lints.append(float(match.group(2)))
    edits = [parses[v] for v in sorted(parses) if v >= 2]
    result["server_parse_ms"] = summary(edits)
    result["server_compile_ms"] = summary(pipelines[1:])
    result["server_lints_ms"] = summary(lints[1:])
    if edits:
        overhead = [d - p for d, p in zip(diagnostics, edits)]
        result["diagnostics_minus_parse_ms"] = summary(overhead)
    return result


def builtin_file(n):
    lines = ["func.func @f(%a: i32, %b: i32) -> i32 {",
             "  %0 = arith.addi %a, %b : i32"]
    for i in range(1, n):
        lines.append("  %%%d = arith.addi %%%d, %%b : i32" % (i, i - 1))
    lines.append("  return %%%d : i32" % (n - 1))
    lines.append("}")
    return "\n".join(lines) + "\n"


def measure_mlir(server, path, runs, timeout=120.0):
    text = open(path).read()
    lines = text.split("\n")
    line, column = toggle_edit(lines, "arith.addi", None)
    column += len("arith.")
    uri = "file://" + os.path.abspath(path)
    result = {"edit_line": line + 1}
    with LspClient([server]) as client:
        init = client.initialize(CAPABILITIES)
        sync = init["capabilities"].get("textDocumentSync", {})
        change_kind = sync.get("change", 1) if isinstance(sync, dict) else sync
        result["sync"] = "incremental" if change_kind == 2 else "full"
        start = time.perf_counter()
        client.open(uri, text)
        _, arrival = client.wait_diagnostics(uri, timeout=timeout, with_time=True)
        result["open_to_diagnostics_ms"] = round((arrival - start) * 1000, 2)
        diagnostics = []
        current = "addi"
        for run in range(runs):
            version = run + 2
            new = "subi" if current == "addi" else "addi"
            lines[line] = lines[line][:column] + new + lines[line][column + 4:]
            current = new
            if change_kind == 2:
                change = {"range": {"start": {"line": line, "character": column},
                                    "end": {"line": line, "character": column + 4}},
                          "text": new}
            else:
                change = {"text": "\n".join(lines)}
            mark = client.mark()
            start = time.perf_counter()
            client.change(uri, version, [change])
            params, arrival = client.wait_diagnostics(uri, since=mark, timeout=timeout,
                                                      with_time=True)
            if params["diagnostics"]:
                raise RuntimeError("the edit broke the file: %r" % params["diagnostics"][:1])
            diagnostics.append((arrival - start) * 1000)
            time.sleep(0.3)
        result["rss_mb"] = round(client.rss_kib() / 1024.0, 1)
        result["diagnostics_ms"] = summary(diagnostics)
        result["exit_code"] = client.shutdown_and_exit()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lsp", default=os.environ.get(
        "WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp")))
    parser.add_argument("--mlir-lsp", default="/usr/lib/llvm-22/bin/mlir-lsp-server")
    parser.add_argument("-n", "--instructions", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("-o", "--output", default=os.path.join(ROOT, "bench", "results",
                                                               "lsp.json"))
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="lsp-bench-")
    waveasm_file = os.path.join(tmp, "kernel.mlir")
    subprocess.check_call([sys.executable, os.path.join(ROOT, "bench", "gen_waveasm.py"),
                           "-n", str(args.instructions), "-o", waveasm_file])
    builtin = os.path.join(tmp, "builtin.mlir")
    with open(builtin, "w") as f:
        f.write(builtin_file(args.instructions))

    report = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                    "loadavg": list(os.getloadavg())},
        "instructions": args.instructions,
        "runs": args.runs,
        "files": {
            "waveasm": {"lines": sum(1 for _ in open(waveasm_file)),
                        "bytes": os.path.getsize(waveasm_file)},
            "builtin": {"lines": sum(1 for _ in open(builtin)),
                        "bytes": os.path.getsize(builtin)},
        },
    }
    print("waveasm-lsp (%s) ..." % args.lsp, flush=True)
    report["waveasm_lsp"] = measure_waveasm(args.lsp, waveasm_file, args.runs)
    print("waveasm-lsp, trailing debounce only ...", flush=True)
    trailing = measure_waveasm(args.lsp, waveasm_file, max(5, args.runs // 2),
                               leading_edge=False)
    report["waveasm_lsp_trailing_debounce"] = {
        "diagnostics_ms": trailing["diagnostics_ms"]}
    if os.path.exists(args.mlir_lsp):
        print("mlir-lsp-server (%s) ..." % args.mlir_lsp, flush=True)
        report["mlir_lsp_server"] = measure_mlir(args.mlir_lsp, builtin, args.runs)
    report["loadavg_after"] = list(os.getloadavg())

    ours = report["waveasm_lsp"]
    theirs = report.get("mlir_lsp_server")
    targets = {
        "diagnostics_p50_le_30ms": ours["diagnostics_ms"]["p50"] <= 30,
        "inlay_hints_p50_le_10ms": ours["inlay_hints_100_lines_ms"]["p50"] <= 10,
        "pipeline_refresh_p50_le_200ms": ours["pipeline_refresh_ms"]["p50"] <= 200,
        "rss_le_300mb": ours["rss_mb"] <= 300,
    }
    if theirs:
        targets["diagnostics_not_slower_than_mlir_lsp_server"] = (
            ours["diagnostics_ms"]["p50"] <= theirs["diagnostics_ms"]["p50"])
    report["targets_met"] = targets

    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")

    print()
    print("%-44s %14s %16s" % ("", "waveasm-lsp", "mlir-lsp-server"))

    def row(name, a, b=None):
        print("%-44s %14s %16s" % (name, a, "-" if b is None else b))

    row("file (lines / KiB)",
        "%d / %d" % (report["files"]["waveasm"]["lines"],
                     report["files"]["waveasm"]["bytes"] // 1024),
        "%d / %d" % (report["files"]["builtin"]["lines"],
                     report["files"]["builtin"]["bytes"] // 1024))
    row("didOpen -> diagnostics (ms)", ours["open_to_diagnostics_ms"],
        theirs and theirs["open_to_diagnostics_ms"])
    row("didChange -> diagnostics p50 / p90 (ms)",
        "%.1f / %.1f" % (ours["diagnostics_ms"]["p50"], ours["diagnostics_ms"]["p90"]),
        theirs and "%.1f / %.1f" % (theirs["diagnostics_ms"]["p50"],
                                     theirs["diagnostics_ms"]["p90"]))
    row("  trailing debounce only, p50 (ms)",
        report["waveasm_lsp_trailing_debounce"]["diagnostics_ms"]["p50"])
    if ours.get("server_parse_ms"):
        row("  of which parse + verify + index, p50 (ms)", ours["server_parse_ms"]["p50"])
        row("  of which everything else, p50 (ms)",
            ours["diagnostics_minus_parse_ms"]["p50"])
    row("didChange -> pipeline refresh p50 (ms)", ours["pipeline_refresh_ms"]["p50"])
    if ours.get("server_compile_ms"):
        row("  compile / lints on the worker, p50 (ms)", "%.1f / %.1f" % (
            ours["server_compile_ms"]["p50"], ours["server_lints_ms"]["p50"]))
    row("inlay hints, 100 lines, p50 (ms)", ours["inlay_hints_100_lines_ms"]["p50"])
    row("resident memory (MB)", ours["rss_mb"], theirs and theirs["rss_mb"])
    print()
    for name, met in targets.items():
        print("  %-50s %s" % (name, "met" if met else "NOT met"))
    print("\nwrote", args.output)


if __name__ == "__main__":
    main()
