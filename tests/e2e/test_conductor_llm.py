#!/usr/bin/env python3
"""waveasm-conductor --llm openai|anthropic against the fake LLM server.

Each test starts tests/fake_llm/fake_llm_server.py on 127.0.0.1 (never the
network), runs the CLI with the key in an env var, and checks the output,
the exit status, what the server received, and that the key appears in no
output and no log.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNEL = os.path.join(ROOT, "examples", "gemm_f16_double_buffer.mlir")
# Six ds_read_b128 fragment rows 256 B apart: padding pays (141 -> 131
# issue slots per iteration).
PAD_KERNEL = os.path.join(ROOT, "examples", "gemm_f16_32x32x8_global.mlir")
CONDUCTOR = os.environ.get(
    "WAVEASM_CONDUCTOR", os.path.join(ROOT, "build", "bin", "waveasm-conductor"))
KEY_ENV = "WAVEASM_E2E_LLM_KEY"
KEY = "sk-e2e-SECRET-5551234"

sys.path.insert(0, os.path.join(ROOT, "tests", "fake_llm"))
from fake_llm_process import FakeLLMProcess  # noqa: E402


class ConductorLLM(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()
        self.tmp.cleanup()

    def server(self, script):
        s = FakeLLMProcess(script, KEY_ENV, KEY, self.tmp.name)
        self.servers.append(s)
        return s

    def run_cli(self, server, provider, *args, key=KEY, kernel=KERNEL):
        out = os.path.join(self.tmp.name, "out.mlir")
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.tmp.name, "c"),
                   no_proxy="127.0.0.1,localhost")
        env.pop(KEY_ENV, None)
        if key is not None:
            env[KEY_ENV] = key
        cmd = [CONDUCTOR, kernel, "--llm", provider, "--base-url",
               server.url(provider), "--model", "fake-model",
               "--api-key-env", KEY_ENV, "-o", out] + list(args)
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              timeout=120)
        for text in (proc.stdout, proc.stderr, server.raw_log()):
            self.assertNotIn(KEY, text)
        return proc, out

    def test_single_agent_openai(self):
        s = self.server({"replies": [{"text": "```\nmove I7 after I15\n```"},
                                     {"text": "done"}]})
        proc, out = self.run_cli(s, "openai", "--rounds", "4")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("round 1: 1 move, kept [openai:fake-model]", proc.stdout)
        self.assertIn("wrote", proc.stdout)
        with open(out) as f:
            self.assertIn("waveasm.program", f.read())
        log = s.log()
        self.assertEqual(len(log["requests"]), 2)  # "done" ends the loop
        first = log["requests"][0]
        self.assertEqual(first["path"], "/v1/chat/completions")
        self.assertTrue(first["auth_ok"])
        self.assertEqual(first["body"]["model"], "fake-model")
        self.assertIn('loc("I0")', first["body"]["messages"][1]["content"])

    def test_cache_hit_makes_zero_requests(self):
        first = self.server({"replies": [{"text": "move I7 after I15"},
                                         {"text": "done"}]})
        proc, out = self.run_cli(first, "openai", "--rounds", "4")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertEqual(len(first.log()["requests"]), 2)
        with open(out) as f:
            scheduled = f.read()
        # Same input, same cache directory: the moves are replayed through
        # validation and the LLM is never asked.
        second = self.server({"replies": [{"text": "swap I4 I5"}]})
        proc, out = self.run_cli(second, "openai", "--rounds", "4")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("cache hit", proc.stdout)
        self.assertEqual(second.requests(), [])
        with open(out) as f:
            self.assertEqual(f.read(), scheduled)

    def test_no_better_schedule_is_cached(self):
        # The model finds nothing ("done" at once): a second run of the same
        # input (a CI job) must not pay for the call again.
        first = self.server({"replies": [{"text": "done"}]})
        proc, _ = self.run_cli(first, "openai", "--rounds", "4")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertEqual(len(first.log()["requests"]), 1)
        entries = os.listdir(os.path.join(self.tmp.name, "c", "waveasm", "conductor"))
        self.assertEqual(len(entries), 1)
        with open(os.path.join(self.tmp.name, "c", "waveasm", "conductor", entries[0])) as f:
            entry = json.load(f)
        self.assertEqual(entry["moves"], [])
        self.assertEqual(entry["source"], "openai:fake-model")
        second = self.server({"replies": [{"text": "swap I4 I5"}]})
        proc, _ = self.run_cli(second, "openai", "--rounds", "4")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("cache hit: openai:fake-model found no better schedule for this "
                      "input; it stays as written (no LLM call)", proc.stdout)
        self.assertEqual(second.requests(), [])

    def test_failed_run_is_not_cached(self):
        s = self.server({"default": {"status": 401}})
        proc, _ = self.run_cli(s, "openai", "--rounds", "2")
        self.assertEqual(proc.returncode, 1, proc.stderr + proc.stdout)
        cache = os.path.join(self.tmp.name, "c", "waveasm", "conductor")
        self.assertFalse(os.path.isdir(cache) and os.listdir(cache))

    def test_builtin_entry_is_named_and_can_be_bypassed(self):
        # The built-in strategies' schedule, cached first...
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.tmp.name, "c"))
        builtin = subprocess.run([CONDUCTOR, KERNEL, "--llm", "none", "-o",
                                  os.path.join(self.tmp.name, "b.mlir")],
                                 capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(builtin.returncode, 0, builtin.stderr + builtin.stdout)
        # ...is replayed for an LLM run, which says so...
        s = self.server({"replies": [{"text": "done"}]})
        proc, _ = self.run_cli(s, "openai", "--rounds", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        # (the built-in source names its strategies and build)
        self.assertRegex(proc.stdout, r"cache hit: replayed \d+ cached moves found by "
                                      r"builtin:list-latency,pressure,spectral \S+ \(git \S+\)")
        self.assertRegex(proc.stdout, r"note: the cached result is builtin:\S+ \S+ \(git \S+\)'s, "
                                      r"not openai:fake-model's")
        self.assertEqual(s.requests(), [])
        # ...unless the user asks for the model's own entries.
        proc, _ = self.run_cli(s, "openai", "--rounds", "2", "--cache-same-source")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertRegex(proc.stdout, r"cache: bypassed the entry found by builtin:\S+ \S+ "
                                      r"\(git \S+\) \(--cache-same-source\)")
        self.assertEqual(len(s.requests()), 1)
        # The model's result replaced it: the next same-source run hits.
        proc, _ = self.run_cli(s, "openai", "--rounds", "2", "--cache-same-source")
        self.assertIn("cache hit: openai:fake-model", proc.stdout)
        self.assertEqual(len(s.requests()), 1)

    def test_parallel_agents_anthropic(self):
        s = self.server({"default": {"random_moves": 1, "delay": 0.2}})
        proc, _ = self.run_cli(s, "anthropic", "--rounds", "2", "--agents",
                               "4", "--checkpoint", "1", "--top-k", "2")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("checkpoint 1: kept 2 of 4", proc.stdout)
        self.assertIn("search: 2 checkpoints, 8 rounds, 8 requests",
                      proc.stdout)
        log = s.log()
        self.assertEqual(len(log["requests"]), 8)
        self.assertEqual(log["max_in_flight"], 4)
        self.assertTrue(all(r["path"] == "/v1/messages" and r["auth_ok"]
                            for r in log["requests"]))

    def test_tool_calling_mode(self):
        s = self.server({"replies": [
            {"tool_calls": [{"name": "evaluate", "arguments": {}},
                            {"name": "apply_moves",
                             "arguments": {"moves": ["move I7 after I15"]}}]},
            {"text": "done"}]})
        proc, _ = self.run_cli(s, "openai", "--llm-tools", "--rounds", "3",
                               "--checkpoint", "3")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("agent 0 round 1: 1 move, kept", proc.stdout)
        requests = s.log()["requests"]
        self.assertEqual(len(requests), 2)
        names = [t["function"]["name"] for t in requests[0]["body"]["tools"]]
        self.assertEqual(names, ["apply_moves", "evaluate"])
        tool_msgs = [m for m in requests[1]["body"]["messages"]
                     if m["role"] == "tool"]
        self.assertEqual(len(tool_msgs), 2)
        self.assertIn("peak_vgpr", tool_msgs[0]["content"])
        self.assertIn("round 1: 1 move, kept", tool_msgs[1]["content"])

    def test_unauthorized_is_a_clear_error(self):
        s = self.server({"default": {"status": 401}})
        proc, out = self.run_cli(s, "openai", "--rounds", "3")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("authentication failed (HTTP 401)", proc.stderr)
        self.assertIn(KEY_ENV, proc.stderr)
        self.assertFalse(os.path.exists(out))
        self.assertEqual(len(s.log()["requests"]), 1)  # no retry

    def test_missing_key_names_the_env_var(self):
        s = self.server({"default": {"text": "done"}})
        proc, _ = self.run_cli(s, "anthropic", key=None)
        self.assertEqual(proc.returncode, 1)
        self.assertIn(KEY_ENV + " is not set", proc.stderr)
        self.assertEqual(len(s.log()["requests"]), 0)

    def test_prose_reply_is_a_round_with_ignored_lines(self):
        # A reply with neither commands nor tool calls is a round with
        # ignored lines, not a failure.
        s = self.server({"replies": [{"text": "I think it is fine."},
                                     {"text": "done"}]})
        proc, _ = self.run_cli(s, "openai", "--rounds", "3")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("ignored: I think it is fine.", proc.stdout)

    def test_pad_lds_is_validated_then_kept(self):
        # The model's text is untrusted: a line that is not exactly the
        # grammar is not applied (its error goes back to the model), a
        # padding the rewrite refuses fails the round with the reason, and
        # a valid one is measured, checked by execution and written padded.
        s = self.server({"replies": [
            {"text": "pad lds 256 16 && rm -rf /\npad lds 8 16"},
            {"text": "```\npad lds 256 16\n```"},
            {"text": "done"}]})
        proc, out = self.run_cli(s, "openai", "--rounds", "4",
                                 "--metric-order", "est_cycles,peak_vgpr",
                                 kernel=PAD_KERNEL)
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("round 1: 0 moves, failed at 'pad lds 8 16': the LDS "
                      "cannot be padded so: a lane's 16 bytes at 0 + 0 cross "
                      "a row of 8 bytes", proc.stdout)
        self.assertIn("error: reply:1:16: unexpected words after 'pad lds S P'",
                      proc.stdout)
        self.assertIn("round 2: 1 move, kept [openai:fake-model]", proc.stdout)
        requests = s.log()["requests"]
        self.assertEqual(len(requests), 3)
        first = requests[0]["body"]["messages"][1]["content"]
        self.assertIn("'pad lds S P' lays the program's LDS out", first)
        self.assertIn("'pad lds S P'", requests[0]["body"]["messages"][0]["content"])
        second = requests[1]["body"]["messages"][-1]["content"]
        self.assertIn("Failed: pad lds 8 16 \u2014 the LDS cannot be padded so:",
                      second)
        self.assertIn("Malformed commands (not applied):\n  reply:1:16: "
                      "unexpected words", second)
        with open(out) as f:
            padded = f.read()
        self.assertIn("lds_size = 13040", padded)
        self.assertNotIn("waveasm.lds_padding", padded)
        sim = subprocess.run(
            [os.path.join(os.path.dirname(CONDUCTOR), "waveasm-sim"),
             "--ignore-lds", "--compare", PAD_KERNEL, out],
            capture_output=True, text=True, timeout=300)
        self.assertEqual(sim.returncode, 0, sim.stdout + sim.stderr)
        self.assertIn("equal on 4 seeds", sim.stdout)


if __name__ == "__main__":
    unittest.main()
