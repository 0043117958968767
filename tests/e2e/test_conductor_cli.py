#!/usr/bin/env python3
"""End-to-end tests of the waveasm-conductor CLI (no network: replies come
from --replies scripts; the cache lives in a temporary XDG_CACHE_HOME).

WAVEASM_CONDUCTOR points at the binary, WAVEASM_OPT at waveasm-opt (used to
check that the written schedule parses and verifies)."""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "gemm_f16_double_buffer.mlir")
CONDUCTOR = os.environ.get("WAVEASM_CONDUCTOR",
                           os.path.join(ROOT, "build", "bin", "waveasm-conductor"))
OPT = os.environ.get("WAVEASM_OPT", os.path.join(ROOT, "build", "bin", "waveasm-opt"))

INTERLEAVE = """Here is my schedule:
```
move I7 after I15
move I9 after I17
move I11 after I14
```
---
swap I6 I14
---
done
"""


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class ConductorCLI(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="conductor-cli-")
        self.env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.tmp, "cache"))
        self.env.pop("WAVEASM_LLM_API_KEY", None)
        self.input = os.path.join(self.tmp, "gemm.mlir")
        shutil.copy(EXAMPLE, self.input)
        self.input_hash = sha(self.input)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_cli(self, *args, replies=None):
        argv = [CONDUCTOR, self.input, *args]
        if replies is not None:
            path = os.path.join(self.tmp, "replies.txt")
            with open(path, "w") as f:
                f.write(replies)
            argv += ["--replies", path]
        return subprocess.run(argv, capture_output=True, text=True,
                              env=self.env, timeout=120)

    def assert_input_untouched(self):
        self.assertEqual(sha(self.input), self.input_hash)

    def assert_verifies(self, path):
        result = subprocess.run([OPT, path], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_scripted_rounds_write_a_better_schedule(self):
        out = os.path.join(self.tmp, "out.mlir")
        result = self.run_cli("-o", out, replies=INTERLEAVE)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)
        log = result.stdout
        self.assertIn("round 1: 3 moves, kept, 1 ignored line [script]\n"
                      "  better: peak_vgpr 50 -> 48\n", log)
        self.assertIn("round 2: 0 moves, failed at 'swap I6 I14': would break "
                      "dominance of %58 (defined by I6, used by I14), reverted", log)
        self.assertIn("round 3: 0 moves, done [script]", log)
        self.assertRegex(log, r"peak_vgpr\s+50\s+48\s+\*")
        self.assertIn("wrote " + out + " (3 moves)", log)
        self.assert_input_untouched()
        self.assert_verifies(out)
        # Text-preserving: the same lines, reordered.
        with open(self.input) as a, open(out) as b:
            before, after = a.read(), b.read()
        self.assertNotEqual(before, after)
        self.assertEqual(sorted(before.splitlines()), sorted(after.splitlines()))

    def test_stdout_output_and_log_on_stderr(self):
        result = self.run_cli(replies="move I7 after I15\n")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("waveasm.program @gemm_f16_double_buffer", result.stdout)
        self.assertIn("round 1:", result.stderr)
        self.assertNotIn("round 1:", result.stdout)
        self.assert_input_untouched()

    def test_refuses_to_overwrite_the_input(self):
        result = self.run_cli("-o", self.input, replies="move I7 after I15\n")
        self.assertEqual(result.returncode, 2)
        self.assertIn("refusing to overwrite the input file", result.stderr)
        self.assert_input_untouched()

    def test_unknown_provider_and_bad_numbers(self):
        result = self.run_cli("--llm", "gpt")
        self.assertEqual(result.returncode, 2)
        self.assertIn("unknown --llm 'gpt'", result.stderr)
        result = self.run_cli("--rounds", "0")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--rounds must be at least 1", result.stderr)
        self.assert_input_untouched()

    def test_builtin_run_exits_zero_no_worse(self):
        out = os.path.join(self.tmp, "out.mlir")
        result = self.run_cli("--llm", "none", "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)
        self.assert_input_untouched()
        self.assert_verifies(out)
        # Before/after table: no key of the default order got worse.
        for key in ("peak_vgpr", "waitcnts_inserted", "nops_inserted",
                    "total_instructions"):
            match = re.search(r"^%s\s+(\d+)\s+(\d+)" % key, result.stdout, re.M)
            self.assertIsNotNone(match, key)

    def test_a_cached_no_better_schedule_speaks_for_its_strategies(self):
        # A built-in run that found nothing is remembered for the same
        # strategies of the same build; other strategies still run.
        out = os.path.join(self.tmp, "out.mlir")
        nothing = ("--llm", "none", "--strategy", "spectral", "--spectral-epsilon", "0.99",
                   "-o", out)
        first = self.run_cli(*nothing)
        self.assertEqual(first.returncode, 0, first.stderr + first.stdout)
        self.assertIn("(0 moves)", first.stdout)
        second = self.run_cli(*nothing)
        self.assertRegex(second.stdout, r"cache hit: builtin:spectral \S+ \(git \S+\) found no "
                         r"better schedule for this input; it stays as written \(no strategy run\)")
        other = self.run_cli("--llm", "none", "--strategy", "list-latency", "-o", out)
        self.assertEqual(other.returncode, 0, other.stderr + other.stdout)
        self.assertNotIn("cache hit", other.stdout)
        self.assertRegex(other.stdout, r"cache: bypassed the entry found by builtin:spectral "
                         r"\S+ \(git \S+\) \(its \"no better schedule\" is not this source's\)")
        self.assert_input_untouched()

    def test_parse_error_is_located(self):
        bad = os.path.join(self.tmp, "bad.mlir")
        with open(bad, "w") as f:
            f.write("waveasm.program @k target = #waveasm.target<#waveasm.gfx942> "
                    "abi = #waveasm.abi<> {\n  %x = waveasm.bogus_op\n}\n")
        result = subprocess.run([CONDUCTOR, bad, "-o", os.path.join(self.tmp, "o")],
                                capture_output=True, text=True, env=self.env,
                                timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertRegex(result.stderr, re.escape(bad) + r":2:\d+: error:")
        missing = subprocess.run([CONDUCTOR, os.path.join(self.tmp, "nope.mlir")],
                                 capture_output=True, text=True, env=self.env,
                                 timeout=60)
        self.assertEqual(missing.returncode, 2)
        self.assertIn("cannot read", missing.stderr)

    def test_cache_hit_replays_without_replies(self):
        out1 = os.path.join(self.tmp, "out1.mlir")
        out2 = os.path.join(self.tmp, "out2.mlir")
        first = self.run_cli("-o", out1, replies=INTERLEAVE)
        self.assertEqual(first.returncode, 0, first.stderr)
        entries = os.listdir(os.path.join(self.tmp, "cache", "waveasm", "conductor"))
        self.assertEqual(len(entries), 1)
        self.assertRegex(entries[0], r"^[0-9a-f]{64}\.json$")
        # Second run: an empty script; the cache supplies the moves.
        second = self.run_cli("-o", out2, replies="")
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertIn("cache hit: replayed 3 cached moves found by script (no LLM call)",
                      second.stdout)
        with open(out1) as a, open(out2) as b:
            self.assertEqual(a.read(), b.read())
        # --no-cache ignores it.
        third = self.run_cli("-o", out2, "--no-cache", replies="")
        self.assertNotIn("cache hit", third.stdout)
        # A corrupt entry is ignored with a warning.
        path = os.path.join(self.tmp, "cache", "waveasm", "conductor", entries[0])
        with open(path, "w") as f:
            f.write("{ not json")
        fourth = self.run_cli("-o", out2, replies="")
        self.assertEqual(fourth.returncode, 0, fourth.stderr)
        self.assertIn("warning: ignoring corrupt cache entry " + path, fourth.stdout)
        self.assertNotIn("cache hit", fourth.stdout)
        self.assert_input_untouched()

    def test_program_that_cannot_compile_exits_one(self):
        # 130 live 4-VGPR loads exceed the 512-VGPR file: no schedule of the
        # straight-line program body can allocate.
        lines = ["waveasm.program @big target = #waveasm.target<#waveasm.gfx942> "
                 "abi = #waveasm.abi<> {",
                 "  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>",
                 "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>",
                 "  %c0 = waveasm.constant 0 : !waveasm.imm<0>"]
        for i in range(130):
            lines.append("  %%l%d = waveasm.buffer_load_dwordx4 %%srd, %%tid, %%c0 "
                         "offset : %d : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, "
                         "!waveasm.imm<0> -> !waveasm.vreg<4, 4>" % (i, (i * 16) % 4096))
        for i in range(130):
            lines.append("  waveasm.buffer_store_dwordx4 %%l%d, %%srd, %%tid : "
                         "!waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>" % i)
        lines += ["  waveasm.s_endpgm", "}"]
        big = os.path.join(self.tmp, "big.mlir")
        with open(big, "w") as f:
            f.write("\n".join(lines) + "\n")
        out = os.path.join(self.tmp, "big_out.mlir")
        result = subprocess.run([CONDUCTOR, big, "-o", out, "--llm", "none"],
                                capture_output=True, text=True, env=self.env,
                                timeout=120)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("no schedule that compiles was found", result.stderr)
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
