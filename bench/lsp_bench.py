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
whole text (as an editor would send it). WaveASM lines are about three
times longer, so it is also measured on a builtin file of the same size in
bytes as the WaveASM one, for context.

The servers' edits are interleaved (one edit each, in turn, with idle time
in between), so every server sees the same load on this shared machine.
waveasm-lsp's log splits its latency into the parse and everything else.

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


def find_edit(lines, needle):
    """The line nearest the middle containing `needle` (not a comment) and
    the UTF-16 column where the needle starts."""
    middle = len(lines) // 2
    for distance in range(len(lines)):
        for index in (middle + distance, middle - distance):
            if 0 <= index < len(lines) and needle in lines[index] \
                    and not lines[index].lstrip().startswith("//"):
                return index, utf16_len(lines[index][: lines[index].index(needle)])
    raise RuntimeError("no line with %r" % needle)


class WaveasmSession:
    """waveasm-lsp with the 10,000-instruction kernel open. Each edit
    toggles one instruction between v_xor_b32 and v_and_b32 (a ranged,
    incremental change) and waits for its diagnostics, then for the
    pipeline's inlay hint refresh, then asks for 100 lines of hints."""

    def __init__(self, lsp, path, leading_edge=True, timeout=120.0):
        self.timeout = timeout
        text = open(path).read()
        self.line, column = find_edit(text.split("\n"), "waveasm.v_xor_b32")
        self.column = column + len("waveasm.v_")
        self.uri = "file://" + os.path.abspath(path)
        self.current, self.version = "xor", 1
        self.diagnostics, self.refresh, self.hints = [], [], []
        self.result = {"edit_line": self.line + 1}
        # The server's log gives its own parse times, to split the latency
        # into parsing and everything else (transport, store, runtime).
        self.log = tempfile.TemporaryFile(mode="w+")
        self.client = LspClient([lsp, "--log=info"], stderr=self.log)
        self.client.initialize(CAPABILITIES, {"debounce": {"leadingEdge": leading_edge}})
        start = time.perf_counter()
        self.client.open(self.uri, text)
        _, arrival = self.client.wait_diagnostics(self.uri, 1, timeout=timeout,
                                                  with_time=True)
        self.result["open_to_diagnostics_ms"] = round((arrival - start) * 1000, 2)
        _, arrival = self.client.wait_event("workspace/inlayHint/refresh",
                                            timeout=timeout, with_time=True)
        self.result["open_to_pipeline_refresh_ms"] = round((arrival - start) * 1000, 2)

    def edit(self):
        client, line, column = self.client, self.line, self.column
        self.version += 1
        new = "and" if self.current == "xor" else "xor"
        self.current = new
        mark = client.mark()
        start = time.perf_counter()
        client.change(self.uri, self.version, [{
            "range": {"start": {"line": line, "character": column},
                      "end": {"line": line, "character": column + 3}},
            "text": new}])
        params, arrival = client.wait_diagnostics(self.uri, self.version, since=mark,
                                                  timeout=self.timeout, with_time=True)
        if [d for d in params["diagnostics"] if d.get("severity") == 1]:
            raise RuntimeError("the edit broke the file: %r" % params["diagnostics"][:1])
        self.diagnostics.append((arrival - start) * 1000)
        _, arrival = client.wait_event("workspace/inlayHint/refresh", since=mark,
                                       timeout=self.timeout, with_time=True)
        self.refresh.append((arrival - start) * 1000)
        t0 = time.perf_counter()
        hints = client.result("textDocument/inlayHint", {
            "textDocument": {"uri": self.uri},
            "range": {"start": {"line": line - 50, "character": 0},
                      "end": {"line": line + 50, "character": 0}}}, self.timeout)
        self.hints.append((time.perf_counter() - t0) * 1000)
        self.result["hints_in_range"] = len(hints)

    def finish(self):
        result = self.result
        result["rss_mb"] = round(self.client.rss_kib() / 1024.0, 1)
        result["diagnostics_ms"] = summary(self.diagnostics)
        result["pipeline_refresh_ms"] = summary(self.refresh)
        result["inlay_hints_100_lines_ms"] = summary(self.hints)
        result["exit_code"] = self.client.shutdown_and_exit()
        self.client.close()
        self.log.seek(0)
        parses, compiles, lints, incremental = {}, [], [], {}
        full_parse_reasons = []
        for entry in self.log:
            match = re.search(r"diagnosed \S+ v(\d+) incrementally in ([\d.]+) ms",
                              entry)
            if match:
                incremental[int(match.group(1))] = float(match.group(2))
            match = re.search(r"v\d+ needs a full parse: (.*)$", entry)
            if match:
                full_parse_reasons.append(match.group(1).strip())
            match = re.search(r"parsed \S+ v(\d+) in ([\d.]+) ms", entry)
            if match:
                parses[int(match.group(1))] = float(match.group(2))
            match = re.search(r"pipeline for \S+ v\d+: \w+ in ([\d.]+) ms, "
                              r"lints in ([\d.]+) ms", entry)
            if match:
                compiles.append(float(match.group(1)))
                lints.append(float(match.group(2)))
        edits = [parses[v] for v in sorted(parses) if v >= 2]
        result["server_parse_ms"] = summary(edits)
        result["server_compile_ms"] = summary(compiles[1:])
        result["server_lints_ms"] = summary(lints[1:])
        # The keystroke path: the edited op re-parsed and the module
        # verified (server/IncrementalParse.h); the full parse follows.
        incremental_edits = [incremental[v] for v in sorted(incremental)]
        result["server_incremental_ms"] = summary(incremental_edits)
        result["edits_diagnosed_incrementally"] = len(incremental_edits)
        result["edits_needing_a_full_parse"] = full_parse_reasons
        if len(incremental_edits) == len(self.diagnostics):
            result["diagnostics_minus_incremental_ms"] = summary(
                [d - p for d, p in zip(self.diagnostics, incremental_edits)])
        if len(edits) == len(self.diagnostics):
            result["diagnostics_minus_parse_ms"] = summary(
                [d - p for d, p in zip(self.diagnostics, edits)])
        return result


def server_arguments(doc):
    """The options every server benchmark takes: the two servers and the
    size of the generated files."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--lsp", default=os.environ.get(
        "WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp")))
    parser.add_argument("--mlir-lsp", default="/usr/lib/llvm-22/bin/mlir-lsp-server")
    parser.add_argument("-n", "--instructions", type=int, default=10000)
    return parser


def make_files(instructions, prefix):
    """A generated WaveASM kernel and a builtin-dialect file of as many
    ops, in a new temporary directory."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    waveasm_file = os.path.join(tmp, "kernel.mlir")
    subprocess.check_call([sys.executable, os.path.join(ROOT, "bench", "gen_waveasm.py"),
                           "-n", str(instructions), "-o", waveasm_file])
    builtin = os.path.join(tmp, "builtin.mlir")
    with open(builtin, "w") as f:
        f.write(builtin_file(instructions))
    return waveasm_file, builtin


def report_header():
    """When and where a measurement ran."""
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                    "loadavg": list(os.getloadavg())},
    }


def builtin_file(n):
    lines = ["func.func @f(%a: i32, %b: i32) -> i32 {",
             "  %0 = arith.addi %a, %b : i32"]
    for i in range(1, n):
        lines.append("  %%%d = arith.addi %%%d, %%b : i32" % (i, i - 1))
    lines.append("  return %%%d : i32" % (n - 1))
    lines.append("}")
    return "\n".join(lines) + "\n"


class MlirSession:
    """mlir-lsp-server with a builtin-dialect file open; each edit toggles
    one mid-file `arith.addi` to `arith.subi` and back. It only offers
    full-text sync, so (as an editor would) each change carries the whole
    text."""

    def __init__(self, server, path, timeout=120.0):
        self.timeout = timeout
        text = open(path).read()
        self.lines = text.split("\n")
        self.line, column = find_edit(self.lines, "arith.addi")
        self.column = column + len("arith.")
        self.uri = "file://" + os.path.abspath(path)
        self.current, self.version = "addi", 1
        self.diagnostics = []
        self.result = {"edit_line": self.line + 1}
        self.client = LspClient([server])
        init = self.client.initialize(CAPABILITIES)
        sync = init["capabilities"].get("textDocumentSync", {})
        self.change_kind = sync.get("change", 1) if isinstance(sync, dict) else sync
        self.result["sync"] = "incremental" if self.change_kind == 2 else "full"
        start = time.perf_counter()
        self.client.open(self.uri, text)
        _, arrival = self.client.wait_diagnostics(self.uri, timeout=timeout,
                                                  with_time=True)
        self.result["open_to_diagnostics_ms"] = round((arrival - start) * 1000, 2)

    def edit(self):
        line, column = self.line, self.column
        self.version += 1
        new = "subi" if self.current == "addi" else "addi"
        self.current = new
        self.lines[line] = self.lines[line][:column] + new + self.lines[line][column + 4:]
        if self.change_kind == 2:
            change = {"range": {"start": {"line": line, "character": column},
                                "end": {"line": line, "character": column + 4}},
                      "text": new}
        else:
            change = {"text": "\n".join(self.lines)}
        mark = self.client.mark()
        start = time.perf_counter()
        self.client.change(self.uri, self.version, [change])
        params, arrival = self.client.wait_diagnostics(self.uri, since=mark,
                                                       timeout=self.timeout, with_time=True)
        if params["diagnostics"]:
            raise RuntimeError("the edit broke the file: %r" % params["diagnostics"][:1])
        self.diagnostics.append((arrival - start) * 1000)

    def finish(self):
        self.result["rss_mb"] = round(self.client.rss_kib() / 1024.0, 1)
        self.result["diagnostics_ms"] = summary(self.diagnostics)
        self.result["exit_code"] = self.client.shutdown_and_exit()
        self.client.close()
        return self.result


def interleave(sessions, runs, idle=0.6):
    """Edits each session in turn, `runs` rounds, so that all of them see
    the same machine load (this machine is shared). `idle` seconds between
    edits make each one an isolated keystroke (longer than any debounce
    interval)."""
    for _ in range(runs):
        for session in sessions:
            if session is not None:
                session.edit()
                time.sleep(idle)


def main():
    parser = server_arguments(__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("-o", "--output", default=os.path.join(ROOT, "bench", "results",
                                                               "lsp.json"))
    args = parser.parse_args()

    waveasm_file, builtin = make_files(args.instructions, "lsp-bench-")

    report = {
        **report_header(),
        "instructions": args.instructions,
        "runs": args.runs,
        "files": {
            "waveasm": {"lines": sum(1 for _ in open(waveasm_file)),
                        "bytes": os.path.getsize(waveasm_file)},
            "builtin": {"lines": sum(1 for _ in open(builtin)),
                        "bytes": os.path.getsize(builtin)},
        },
    }
    have_mlir = os.path.exists(args.mlir_lsp)
    same_bytes = None
    if have_mlir:
        # WaveASM lines are ~3x longer than `arith.addi` lines; for context
        # also compare at equal file size.
        per_line = report["files"]["builtin"]["bytes"] / float(args.instructions)
        same_n = int(report["files"]["waveasm"]["bytes"] / per_line)
        same_bytes = os.path.join(tmp, "builtin_same_bytes.mlir")
        with open(same_bytes, "w") as f:
            f.write(builtin_file(same_n))

    print("opening the files ...", flush=True)
    ours = WaveasmSession(args.lsp, waveasm_file)
    theirs = MlirSession(args.mlir_lsp, builtin) if have_mlir else None
    theirs_same = MlirSession(args.mlir_lsp, same_bytes) if have_mlir else None
    print("%d interleaved edits each ..." % args.runs, flush=True)
    interleave([ours, theirs, theirs_same], args.runs)
    report["waveasm_lsp"] = ours.finish()
    if have_mlir:
        report["mlir_lsp_server"] = theirs.finish()
        report["mlir_lsp_server_same_bytes"] = theirs_same.finish()
        report["mlir_lsp_server_same_bytes"]["instructions"] = same_n
        report["mlir_lsp_server_same_bytes"]["bytes"] = os.path.getsize(same_bytes)

    print("waveasm-lsp with a trailing-only debounce ...", flush=True)
    trailing = WaveasmSession(args.lsp, waveasm_file, leading_edge=False)
    interleave([trailing], max(5, args.runs // 2))
    report["waveasm_lsp_trailing_debounce"] = {
        "diagnostics_ms": trailing.finish()["diagnostics_ms"]}
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
    if ours.get("server_incremental_ms"):
        row("  edits diagnosed incrementally", "%d of %d" % (
            ours["edits_diagnosed_incrementally"], ours["diagnostics_ms"]["n"]))
        row("  of which incremental parse + verify, p50 (ms)",
            ours["server_incremental_ms"]["p50"])
        if ours.get("diagnostics_minus_incremental_ms"):
            row("  of which everything else, p50 (ms)",
                ours["diagnostics_minus_incremental_ms"]["p50"])
    if ours.get("server_parse_ms"):
        row("  full parse + verify after it, p50 (ms)", ours["server_parse_ms"]["p50"])
    row("didChange -> pipeline refresh p50 (ms)", ours["pipeline_refresh_ms"]["p50"])
    if ours.get("server_compile_ms"):
        row("  compile / lints on the worker, p50 (ms)", "%.1f / %.1f" % (
            ours["server_compile_ms"]["p50"], ours["server_lints_ms"]["p50"]))
    row("inlay hints, 100 lines, p50 (ms)", ours["inlay_hints_100_lines_ms"]["p50"])
    row("resident memory (MB)", ours["rss_mb"], theirs and theirs["rss_mb"])
    same = report.get("mlir_lsp_server_same_bytes")
    if same:
        row("  at equal size (%d addi, %d KiB), p50 (ms)"
            % (same["instructions"], same["bytes"] // 1024), "",
            same["diagnostics_ms"]["p50"])
    print()
    for name, met in targets.items():
        print("  %-50s %s" % (name, "met" if met else "NOT met"))
    print("\nwrote", args.output)


if __name__ == "__main__":
    main()
