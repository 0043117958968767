#!/usr/bin/env python3
"""Benchmark: completion and signature help while typing, next to
mlir-lsp-server's completion.

waveasm-lsp, on a generated 10,000-instruction kernel (gen_waveasm.py): a
new line is typed in the middle of the file, one character at a time, as a
copy of a mid-file `v_add_u32` with a new result name. Each keystroke is a
ranged didChange followed by textDocument/completion and then
textDocument/signatureHelp at the cursor; the next keystroke waits for both
answers (a user typing at the speed of the server). Latency is measured at
the client from the request's send to the response's arrival. The text does
not parse until the line is complete, so almost every request answers from
the last good parse.

mlir-lsp-server (LLVM 22, stock), on a builtin-dialect file of 10,000
`arith.addi` in one func.func (bench/lsp_bench.py's), typing
`%t = arith.addi %N, %b : i32` the same way (full-text sync, the only kind
it offers); it has no signature help.

Writes bench/results/completion.json and prints a table. Targets (reported,
never asserted): completion and signature help p50 <= 5 ms, p99 <= 20 ms.
"""

import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from lsp_bench import find_edit, make_files, report_header, server_arguments  # noqa: E402
from lsp_client import LspClient, utf16_len  # noqa: E402

CAPABILITIES = {
    "textDocument": {
        "publishDiagnostics": {"versionSupport": True},
        "completion": {"completionItem": {"snippetSupport": True}},
    },
}


def percentiles(samples):
    ordered = sorted(samples)

    def pct(p):
        return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]

    return {"p50": round(pct(50), 2), "p90": round(pct(90), 2),
            "p99": round(pct(99), 2), "max": round(ordered[-1], 2),
            "n": len(ordered)}


def type_line(client, uri, line, typed, full_text_lines=None, signature=True,
              timeout=60.0, think_ms=0.0, version=2):
    """Types `typed` on the new line `line` (already inserted, empty) one
    character at a time, the first change numbered `version` + 1; returns
    per-request latencies, list sizes and the last version."""
    completion, signature_ms, sizes = [], [], []
    for i, char in enumerate(typed):
        time.sleep(think_ms / 1000.0)
        version += 1
        if full_text_lines is not None:
            full_text_lines[line] = typed[: i + 1]
            change = {"text": "\n".join(full_text_lines)}
        else:
            at = {"line": line, "character": utf16_len(typed[:i])}
            change = {"range": {"start": at, "end": at}, "text": char}
        client.change(uri, version, [change])
        position = {"line": line, "character": utf16_len(typed[: i + 1])}
        params = {"textDocument": {"uri": uri}, "position": position}
        # Both requests go out with the keystroke, as an editor's suggest
        # and parameter-hint controllers send them; each is timed from its
        # own send to its answer's arrival.
        sent = time.perf_counter()
        completion_id = client.request_async("textDocument/completion", params)
        signature_id = None
        if signature:
            signature_sent = time.perf_counter()
            signature_id = client.request_async("textDocument/signatureHelp", params)
        message, arrival = client.wait_response(completion_id, timeout, with_time=True)
        completion.append((arrival - sent) * 1000)
        result = message.get("result") or {}
        items = result.get("items", result) if isinstance(result, dict) else result
        sizes.append(len(items))
        if signature_id is not None:
            _, arrival = client.wait_response(signature_id, timeout, with_time=True)
            signature_ms.append((arrival - signature_sent) * 1000)
    return completion, signature_ms, sizes, version


def waveasm_run(lsp, path, timeout, think_ms, count):
    text = open(path).read()
    lines = text.split("\n")
    index, _ = find_edit(lines, "= waveasm.v_add_u32 ")
    source = lines[index]
    tail = source[source.index(" = waveasm."):]
    uri = "file://" + os.path.abspath(path)
    client = LspClient([lsp])
    client.initialize(CAPABILITIES)
    client.open(uri, text)
    client.wait_diagnostics(uri, 1, timeout=timeout)
    completion, signature, sizes = [], [], []
    version, end = 1, utf16_len(source)
    for k in range(count):
        # The empty new line below the last one (a keystroke of its own),
        # then the instruction typed into it.
        typed = "  %%typed%d%s" % (k, tail)
        at = {"line": index + k, "character": end}
        version += 1
        client.change(uri, version, [{"range": {"start": at, "end": at}, "text": "\n"}])
        client.wait_diagnostics(uri, version, timeout=timeout)
        c, s, z, version = type_line(client, uri, index + k + 1, typed,
                                     timeout=timeout, think_ms=think_ms,
                                     version=version)
        completion += c
        signature += s
        sizes += z
        end = utf16_len(typed)
    rss = round(client.rss_kib() / 1024.0, 1)
    client.shutdown_and_exit()
    client.close()
    return {"typed": typed.strip(), "line": index + 2, "lines_typed": count,
            "completion_ms": percentiles(completion),
            "signature_help_ms": percentiles(signature),
            "items_per_list": {"min": min(sizes), "max": max(sizes)},
            "rss_mb": rss}


def mlir_run(server, path, timeout, think_ms):
    text = open(path).read()
    lines = text.split("\n")
    index, _ = find_edit(lines, "arith.addi")
    typed = "  %%t = arith.addi %%%d, %%b : i32" % (index - 2)
    uri = "file://" + os.path.abspath(path)
    client = LspClient([server])
    init = client.initialize(CAPABILITIES)
    has_signature = bool(init["capabilities"].get("signatureHelpProvider"))
    client.open(uri, text)
    client.wait_diagnostics(uri, timeout=timeout)
    lines.insert(index + 1, "")
    client.change(uri, 2, [{"text": "\n".join(lines)}])
    completion, signature, sizes, _ = type_line(
        client, uri, index + 1, typed, full_text_lines=lines,
        signature=has_signature, timeout=timeout, think_ms=think_ms)
    client.shutdown_and_exit()
    client.close()
    out = {"typed": typed.strip(), "completion_ms": percentiles(completion),
           "items_per_list": {"min": min(sizes), "max": max(sizes)},
           "signature_help": has_signature}
    if signature:
        out["signature_help_ms"] = percentiles(signature)
    return out


def main():
    parser = server_arguments(__doc__)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--think-ms", type=float, default=80.0,
                        help="pause before each keystroke (a fast typist: 80 ms; "
                             "0 types as fast as the server answers)")
    parser.add_argument("--lines", type=int, default=3,
                        help="instructions typed into the 10k file, one per new "
                             "line (about 90 keystrokes each)")
    parser.add_argument("-o", "--output", default=os.path.join(
        ROOT, "bench", "results", "completion.json"))
    args = parser.parse_args()

    waveasm_file, builtin = make_files(args.instructions, "completion-bench-")

    report = {
        **report_header(),
        "instructions": args.instructions,
        "think_ms": args.think_ms,
        "waveasm_lsp": waveasm_run(args.lsp, waveasm_file, args.timeout, args.think_ms,
                                   args.lines),
    }
    if os.path.exists(args.mlir_lsp):
        report["mlir_lsp_server"] = mlir_run(args.mlir_lsp, builtin, args.timeout,
                                             args.think_ms)
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")

    print("%-18s %-20s %8s %8s %8s" % ("server", "request", "p50 ms", "p99 ms", "max ms"))
    for server in ("waveasm_lsp", "mlir_lsp_server"):
        for request in ("completion_ms", "signature_help_ms"):
            r = report.get(server, {}).get(request)
            if r:
                print("%-18s %-20s %8.2f %8.2f %8.2f" % (server, request[:-3], r["p50"],
                                                          r["p99"], r["max"]))
    print("written to", args.output)


if __name__ == "__main__":
    main()
