#!/usr/bin/env python3
"""Start-up of the shipped tools (issue 16): `waveasm-lsp` spawned until its
`initialize` answer arrives, and `waveasm-lsp check` on an example as a whole
process (CPU and wall, procbench), for one or more builds side by side.

    bench/startup_bench.py [--runs N] [--example FILE] BIN_DIR...

BIN_DIR is a directory holding waveasm-lsp (build/bin, build-release/bin, or
usr/bin of an extracted .deb).  Wall times depend on other load on the
machine: the load average is printed with them.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import procbench  # noqa: E402


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise RuntimeError("the server closed its output before answering")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def initialize_ms(lsp):
    """Spawn to the initialize response, in ms; the server is then shut down."""
    start = time.perf_counter()
    proc = subprocess.Popen([lsp], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                            "params": {"processId": os.getpid(), "rootUri": None,
                                       "capabilities": {}}}))
    proc.stdin.flush()
    while True:
        message = read_message(proc.stdout)
        if message.get("id") == 1:
            break
    elapsed = (time.perf_counter() - start) * 1000.0
    if "result" not in message:
        raise RuntimeError("initialize failed: %s" % message)
    for m in ({"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
              {"jsonrpc": "2.0", "method": "exit"}):
        proc.stdin.write(frame(m))
    proc.stdin.close()
    proc.wait(timeout=30)
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bins", nargs="+", help="directories holding waveasm-lsp")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--example", default=os.path.join(ROOT, "examples",
                                                      "gemm_f16_double_buffer.mlir"))
    args = ap.parse_args()
    print("load average before: %s" % (procbench.loadavg(),))
    for directory in args.bins:
        lsp = os.path.join(directory, "waveasm-lsp")
        size = os.path.getsize(lsp)
        initialize_ms(lsp)  # warm the page cache
        times = sorted(initialize_ms(lsp) for _ in range(args.runs))
        check = procbench.measure([lsp, "check", "--no-tables", "--fail-on", "none",
                                   args.example], args.runs, 1)
        if "error" in check:
            print("%s: check failed: %s" % (lsp, check["error"]))
            return 1
        print("%s (%d bytes)" % (lsp, size))
        print("  initialize answered: median %.1f ms, min %.1f ms wall (%d fresh processes)"
              % (statistics.median(times), times[0], args.runs))
        print("  check %s: wall median %.1f ms, CPU median %.1f ms"
              % (os.path.basename(args.example), check["wall_ms"]["median"],
                 check["cpu_ms"]["median"]))
    print("load average after: %s" % (procbench.loadavg(),))
    return 0


if __name__ == "__main__":
    sys.exit(main())
