#!/usr/bin/env python3
"""Wall-clock of the parallel LLM search (conductor::Search).

Starts tests/fake_llm/fake_llm_server.py answering every request after a
fixed delay with random moves among the prompt's tags, runs
waveasm-bench-llm-search (P agents, N rounds, checkpoint every K rounds,
top-k) on a bundled kernel, and writes bench/results/llm_search.json.

Target: 8 agents x 5 rounds with a 1 s LLM latency in <= 6 s wall-clock
(the rounds of one agent are sequential, 5 x 1 s; agents overlap).
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE = os.path.join(ROOT, "tests", "fake_llm", "fake_llm_server.py")


def run(bench, kernel, provider, agents, rounds, checkpoint, top_k, delay,
        tools=False):
    server = subprocess.Popen(
        [sys.executable, FAKE, "--delay", str(delay), "--random-moves", "2"],
        stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        base = "http://127.0.0.1:%d" % port
        if provider == "openai":
            base += "/v1"
        cmd = [bench, "--provider", provider, "--base-url", base,
               "--agents", str(agents), "--rounds", str(rounds),
               "--checkpoint", str(checkpoint), "--top-k", str(top_k), kernel]
        if tools:
            cmd.insert(1, "--tools")
        env = dict(os.environ, no_proxy="127.0.0.1,localhost")
        out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                             timeout=120, env=env)
        result = json.loads(out.stdout)
        result["llm_delay_s"] = delay
        return result
    finally:
        server.terminate()
        server.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default=os.path.join(
        ROOT, "build", "bin", "waveasm-bench-llm-search"))
    ap.add_argument("--kernel", default=os.path.join(
        ROOT, "examples", "gemm_f16_double_buffer.mlir"))
    ap.add_argument("--out", default=os.path.join(
        ROOT, "bench", "results", "llm_search.json"))
    ap.add_argument("--quick", action="store_true",
                    help="tiny run (smoke test): 2 agents, 2 rounds, 0.1 s")
    args = ap.parse_args()

    runs = []
    if args.quick:
        runs.append(run(args.bench, args.kernel, "openai", 2, 2, 1, 1, 0.1))
    else:
        for provider in ("openai", "anthropic"):
            runs.append(run(args.bench, args.kernel, provider, 8, 5, 2, 4, 1.0))
        # One agent alone: the lower bound of the same 5 rounds.
        runs.append(run(args.bench, args.kernel, "openai", 1, 5, 5, 1, 1.0))
    for r in runs:
        print("%-9s agents=%d rounds=%d delay=%.1fs: wall %.2f s, cpu %.2f s, "
              "requests %d, max in flight %d" % (
                  r["provider"], r["agents"], r["rounds"], r["llm_delay_s"],
                  r["wall_s"], r["cpu_s"], r["requests"], r["max_in_flight"]))
    target = {"agents": 8, "rounds": 5, "llm_delay_s": 1.0, "max_wall_s": 6.0}
    doc = {"target": target, "runs": runs}
    if not args.quick:
        main_runs = [r for r in runs if r["agents"] == 8]
        doc["meets_target"] = all(r["wall_s"] <= 6.0 for r in main_runs)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
