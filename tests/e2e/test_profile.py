#!/usr/bin/env python3
"""End-to-end test of profile CSVs in the language server: rows keyed by a
Conductor tag or an assembly line show as inlay hints on the right lines,
`hints.profile` hides them, a malformed CSV is reported once.

Run: python3 tests/e2e/test_profile.py [-v] [TestClass...]
The server is $WAVEASM_LSP (else build/bin/waveasm-lsp).
"""

import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from lsp_client import LspClient, position_of  # noqa: E402
from test_schedule import EDITOR, KEY, KEY_ENV, FakeLLM  # noqa: E402

LSP = os.environ.get("WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp"))
EXAMPLE = os.path.join(ROOT, "examples", "gemm_f16_double_buffer.mlir")
TIMEOUT = 60.0
STOPWATCH = "\u23f1"


class Profile(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="waveasm-profile-e2e-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.path = os.path.join(self.dir, "gemm.mlir")
        shutil.copy(EXAMPLE, self.path)
        with open(self.path, encoding="utf-8") as f:
            self.text = f.read()
        self.uri = "file://" + self.path
        self.client = LspClient([LSP])
        self.addCleanup(self.client.close)
        self.client.initialize(EDITOR)
        self.client.open(self.uri, self.text)
        self.client.wait_diagnostics(self.uri, 1, timeout=TIMEOUT)
        # The pipeline refresh: hints now carry the compiled numbers.
        self.client.wait_event("workspace/inlayHint/refresh", timeout=TIMEOUT)

    def hints(self):
        return self.client.result("textDocument/inlayHint", {
            "textDocument": {"uri": self.uri},
            "range": {"start": {"line": 0, "character": 0},
                      "end": {"line": self.text.count("\n"), "character": 0}}},
            TIMEOUT)

    def profile_hints(self):
        return [h for h in self.hints() if h["label"].startswith(STOPWATCH)]

    def line(self, needle):
        return position_of(self.text, needle)["line"]

    def end_line(self, needle):
        """The last line of the op starting at `needle` (hints go after the
        op; the example continues an op's types on ': ...' lines)."""
        lines = self.text.split("\n")
        line = self.line(needle)
        while lines[line + 1].lstrip().startswith(":"):
            line += 1
        return line

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w", encoding="utf-8") as f:
            f.write(text)

    def test_rows_show_on_their_ops(self):
        # No profile yet: no profile hints.
        hints = self.hints()
        self.assertFalse([h for h in hints if h["label"].startswith(STOPWATCH)])
        # The tag of %a_nxt in the loop body (the default block), as the tag
        # hints show it.
        a_line = self.end_line("%a_nxt =")
        tags = [h["label"] for h in hints if h["position"]["line"] == a_line
                and re.fullmatch(r"I\d+", h["label"])]
        self.assertEqual(len(tags), 1, tags)
        # The assembly line of the first MFMA, from the server's line map.
        assembly = self.client.result("waveasm/assembly", {"textDocument": {"uri": self.uri}},
                                      TIMEOUT)
        asm = [m["line"] for m in assembly["map"]
               if m["range"]["start"]["line"] == self.line("%p00 =")]
        mfma_line = self.end_line("%p00 =")
        self.assertEqual(len(asm), 1, asm)
        self.assertIn("v_mfma", assembly["text"].split("\n")[asm[0]])

        # The default file next to the document, written after opening it.
        self.write("gemm.mlir.profile.csv",
                   "key,hits,lat_min,lat_mean,lat_max\n"
                   "%s,512,40,52.5,90\n"
                   "%d,1024,88,102,145\n"
                   "I999,1,1,1,1\n" % (tags[0], asm[0] + 1))
        got = sorted((h["position"]["line"], h["label"]) for h in self.profile_hints())
        self.assertEqual(got, sorted([
            (a_line, STOPWATCH + " 52 cyc (40\u201390) \u00d7512"),
            (mfma_line, STOPWATCH + " 102 cyc (88\u2013145) \u00d71024"),
        ]))
        tooltips = " ".join(h["tooltip"] if isinstance(h["tooltip"], str)
                            else h["tooltip"]["value"] for h in self.profile_hints())
        self.assertIn("gemm.mlir.profile.csv:2", tooltips)
        self.assertIn("gemm.mlir.profile.csv:3", tooltips)
        # The op's hover shows its row too.
        hover = self.client.result("textDocument/hover", {
            "textDocument": {"uri": self.uri},
            "position": position_of(self.text, "%a_nxt = waveasm.buffer", 0, 14)},
            TIMEOUT)
        self.assertIn("512 hits", hover["contents"]["value"])

        # hints.profile = false hides them; the other hints stay.
        mark = self.client.mark()
        self.client.notify("workspace/didChangeConfiguration",
                           {"settings": {"waveasm": {"hints": {"profile": False}}}})
        self.client.wait_event("workspace/inlayHint/refresh", since=mark, timeout=TIMEOUT)
        hints = self.hints()
        self.assertFalse([h for h in hints if h["label"].startswith(STOPWATCH)])
        self.assertTrue([h for h in hints if h["label"].startswith("lat ")])

    def test_malformed_csv_is_reported_once(self):
        self.write("bad.csv", "I1,5,1,2,3\nI2,many,1,2,3\n")
        mark = self.client.mark()
        self.client.notify("workspace/didChangeConfiguration",
                           {"settings": {"waveasm": {"profile": "bad.csv"}}})
        self.client.wait_event("workspace/inlayHint/refresh", since=mark, timeout=TIMEOUT)
        self.assertFalse(self.profile_hints())
        self.assertFalse(self.profile_hints())
        messages = [m for m in self.client.events_of("window/showMessage", mark)
                    if "bad.csv" in m["message"]]
        self.assertEqual(len(messages), 1, messages)
        self.assertEqual(messages[0]["type"], 2)
        self.assertIn("bad.csv:2:", messages[0]["message"])
        # Fixed: the rows show, no further message.
        self.write("bad.csv", "I1,5,1,2,3\n")
        self.assertEqual(len(self.profile_hints()), 1)
        self.assertEqual(len([m for m in self.client.events_of("window/showMessage", mark)
                              if "bad.csv" in m["message"]]), 1)


class ProfilePrompt(unittest.TestCase):
    """`Ask LLM to schedule this loop` sends the rows in its prompt."""

    def test_llm_prompt_has_the_profiling_section(self):
        tmp = tempfile.mkdtemp(prefix="waveasm-profile-e2e-")
        self.addCleanup(shutil.rmtree, tmp, True)
        path = os.path.join(tmp, "gemm.mlir")
        shutil.copy(EXAMPLE, path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # I2 of the loop body is %a_nxt; I999 names nothing.
        with open(path + ".profile.csv", "w", encoding="utf-8") as f:
            f.write("I2,512,40,52.5,90\nI999,1,1,1,1\n")
        fake = FakeLLM({"replies": [{"text": "done"}]})
        self.addCleanup(fake.stop)
        env = dict(os.environ, no_proxy="127.0.0.1,localhost", NO_PROXY="127.0.0.1,localhost")
        # The Conductor cache of this test only: a hit would skip the LLM.
        cache = tempfile.TemporaryDirectory()
        self.addCleanup(cache.cleanup)
        env["XDG_CACHE_HOME"] = cache.name
        env[KEY_ENV] = KEY
        client = LspClient([LSP], env=env)
        self.addCleanup(client.close)
        client.initialize(EDITOR, {"llm": {"provider": "openai", "model": "fake-model",
                                           "baseUrl": fake.url(), "apiKeyEnv": KEY_ENV,
                                           "rounds": 1}})
        uri = "file://" + path
        client.open(uri, text)
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        pos = position_of(text, "%n00 = waveasm", 0, 2)
        response = client.request("workspace/executeCommand", {
            "command": "waveasm.scheduleLoop",
            "arguments": [{"uri": uri, "position": pos, "strategy": "llm"}]}, TIMEOUT)
        self.assertIn("result", response, response)
        prompt = fake.requests()[0]["body"]["messages"][-1]["content"]
        self.assertIn("--- Profiling", prompt)
        section = prompt[prompt.index("--- Profiling"):]
        self.assertRegex(section, r"\nI2 +buffer_load_dwordx4 +hits=512 +lat_min=40 ")
        self.assertNotIn("I999", section)


if __name__ == "__main__":
    unittest.main()
