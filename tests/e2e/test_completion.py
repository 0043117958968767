#!/usr/bin/env python3
"""End-to-end tests of completion and signature help: a new instruction is
typed into a loop body one character at a time (a ranged didChange per
keystroke, as an editor sends it), and after every keystroke the completion
list and the signature are checked against what the instruction needs there.

Run: python3 tests/e2e/test_completion.py [-v]
The server binary is $WAVEASM_LSP, else build/bin/waveasm-lsp.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from lsp_client import LspClient, LspError, utf16_len  # noqa: E402
import time  # noqa: E402

from test_lsp import EXAMPLE, LSP, TIMEOUT, generated, read  # noqa: E402

URI = "file:///tmp/waveasm-e2e/completion.mlir"
SNIPPETS = {
    "textDocument": {
        "publishDiagnostics": {"versionSupport": True},
        "completion": {"completionItem": {"snippetSupport": True}},
    },
}
# The instruction typed after the last fragment read of the example's loop.
TYPED = ("    %sum = waveasm.v_add_u32 %a_addr, %b_addr"
         " : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg")


def labels(result):
    return [item["label"] for item in result["items"]]


class Typing(unittest.TestCase):
    def setUp(self):
        self.client = LspClient([LSP])
        self.addCleanup(self.client.close)
        init = self.client.initialize(SNIPPETS)
        caps = init["capabilities"]
        self.assertTrue(caps["completionProvider"]["resolveProvider"])
        self.assertIn(".", caps["completionProvider"]["triggerCharacters"])
        self.assertIn(",", caps["signatureHelpProvider"]["triggerCharacters"])
        self.text = read(EXAMPLE)
        self.client.open(URI, self.text)
        self.client.wait_diagnostics(URI, 1, timeout=TIMEOUT)
        lines = self.text.split("\n")
        self.line = max(i for i, l in enumerate(lines)
                        if "%b11 = waveasm.ds_read_b64" in l) + 1
        self.version = 1
        # A new empty line below the last fragment read.
        self.change({"line": self.line, "character": 0}, "\n")

    def change(self, at, text):
        self.version += 1
        self.client.change(URI, self.version,
                           [{"range": {"start": at, "end": at}, "text": text}])

    def ask(self, method, column):
        return self.client.result(method, {
            "textDocument": {"uri": URI},
            "position": {"line": self.line, "character": column}}, TIMEOUT)

    def test_typing_an_instruction(self):
        seen = set()
        for i, char in enumerate(TYPED):
            self.change({"line": self.line, "character": utf16_len(TYPED[:i])}, char)
            typed = TYPED[: i + 1]
            column = utf16_len(typed)
            result = self.ask("textDocument/completion", column)
            names = labels(result)
            signature = self.ask("textDocument/signatureHelp", column)
            active = signature and signature.get("activeParameter")
            if typed.endswith("= waveasm."):
                # Op names valid in a loop body, on gfx942.
                self.assertIn("waveasm.v_add_u32", names)
                self.assertIn("waveasm.condition", names)
                self.assertNotIn("waveasm.yield", names)
                self.assertNotIn("waveasm.program", names)
                self.assertNotIn("waveasm.v_mfma_f32_16x16x32_f16", names)
                seen.add("op")
            elif typed.endswith("waveasm.v_add_u3"):
                item = next(it for it in result["items"]
                            if it["label"] == "waveasm.v_add_u32")
                self.assertEqual(item["insertTextFormat"], 2)
                start = item["textEdit"]["range"]["start"]["character"]
                self.assertEqual(start, TYPED.index("waveasm."))
                resolved = self.client.result("completionItem/resolve", item)
                self.assertIn("VALU source operand",
                              resolved["documentation"]["value"])
                seen.add("resolve")
            elif typed.endswith("v_add_u32 "):
                # Values in scope for a VALU source: the loop's own values
                # and block arguments, not SCC halves, not the loop results.
                self.assertIn("%a_addr", names)
                self.assertIn("%k", names)
                self.assertNotIn("%acc00", names)
                self.assertNotIn("%k_next#1", names)
                self.assertEqual(active, 0)
                seen.add("values")
            elif typed.endswith("%a_addr, %b"):
                self.assertIn("%b_addr", names)
                self.assertTrue(all("b" in n for n in names), names)
                self.assertEqual(active, 1)
                seen.add("filtered")
            elif typed.endswith("%b_addr : "):
                self.assertEqual(names[0], "!waveasm.vreg")
                self.assertTrue(result["items"][0].get("preselect"))
                self.assertNotIn("!waveasm.areg", names)
                self.assertEqual(active, 0)
                seen.add("types")
            elif typed.endswith("-> "):
                self.assertIn("!waveasm.vreg", names)
                self.assertEqual(active, 2)
                label = signature["signatures"][0]["label"]
                start, end = signature["signatures"][0]["parameters"][2]["label"]
                self.assertEqual(label[start:end], "dst: any VGPR")
                seen.add("result")
        self.assertEqual(seen, {"op", "resolve", "values", "filtered", "types",
                                "result"})
        # The typed instruction parses and verifies.
        params = self.client.wait_diagnostics(URI, self.version, timeout=TIMEOUT)
        self.assertEqual([d for d in params["diagnostics"] if d.get("severity") == 1], [])

    def test_plain_text_clients_get_names(self):
        client = LspClient([LSP])
        self.addCleanup(client.close)
        client.initialize({})
        client.open(URI, self.text)
        line = self.text.split("\n").index("  waveasm.s_barrier")
        column = len("  waveasm.s_bar")
        client.change(URI, 2, [{"range": {"start": {"line": line, "character": column},
                                          "end": {"line": line, "character": len("  waveasm.s_barrier")}},
                                "text": ""}])
        result = client.result("textDocument/completion", {
            "textDocument": {"uri": URI},
            "position": {"line": line, "character": column}}, TIMEOUT)
        item = next(it for it in result["items"] if it["label"] == "waveasm.s_barrier")
        self.assertEqual(item["textEdit"]["newText"], "waveasm.s_barrier")
        self.assertEqual(item["insertTextFormat"], 1)

    def test_errors(self):
        with self.assertRaises(LspError):
            self.client.result("textDocument/completion", {
                "textDocument": {"uri": "file:///not/open.mlir"},
                "position": {"line": 0, "character": 0}}, TIMEOUT)
        # Past the end of the text and inside a comment: empty answers.
        result = self.client.result("textDocument/completion", {
            "textDocument": {"uri": URI},
            "position": {"line": 100000, "character": 3}}, TIMEOUT)
        self.assertEqual(result["items"], [])
        self.assertIsNone(self.client.result("textDocument/signatureHelp", {
            "textDocument": {"uri": URI},
            "position": {"line": 0, "character": 5}}, TIMEOUT))
        self.assertEqual(self.client.result("textDocument/completion", {
            "textDocument": {"uri": URI},
            "position": {"line": 0, "character": 20}}, TIMEOUT)["items"], [])
        # The server is still there.
        self.assertIn("waveasm.v_add_u32", str(self.ask("textDocument/completion", 0)))


class ParseOffTheLoop(unittest.TestCase):
    """The full parse of a large file runs on the parse thread: a completion
    sent while it runs is answered before that parse lands (its
    diagnostics are published after the answer), and a request that needs
    the parse of the current text (hover) waits for it rather than
    answering from the text before the edit."""

    def test_completion_is_answered_while_the_file_parses(self):
        client = LspClient([LSP])
        self.addCleanup(client.close)
        # No debounce: the parse of v2 starts as soon as the edit arrives.
        client.initialize({"textDocument": {
            "publishDiagnostics": {"versionSupport": True}}},
            {"debounce": {"minMs": 0, "maxMs": 0}})
        text = generated(20000)
        client.open(URI, text)
        client.wait_diagnostics(URI, 1, timeout=TIMEOUT)
        # The metrics wait for v1's pipeline: the server is idle after this.
        client.result("waveasm/metrics", {"textDocument": {"uri": URI}}, TIMEOUT)
        lines = text.split("\n")
        line = next(i for i, l in enumerate(lines) if "waveasm.v_add_u32" in l)
        # A comment line: the incremental model declines a change of the
        # line count, so v2's diagnostics come from the full parse of the
        # whole (valid) text, over 100 ms at 20,000 instructions.
        start = {"line": line, "character": 0}
        client.change(URI, 2, [{"range": {"start": start, "end": start},
                                "text": "  // a note\n"}])
        time.sleep(0.02)  # the parse is running now (it takes 100+ ms)
        request = client.request_async("textDocument/completion", {
            "textDocument": {"uri": URI},
            "position": {"line": line + 1,
                         "character": lines[line].index("waveasm.") + len("waveasm.")}})
        answer, answered = client.wait_response(request, TIMEOUT, with_time=True)
        self.assertIn("waveasm.v_add_u32",
                      [item["label"] for item in answer["result"]["items"]])
        published = client.wait_event(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == URI and p.get("version") == 2,
            timeout=TIMEOUT, with_time=True)
        self.assertLess(answered, published[1],
                        "the completion waited for the full parse")

    def test_hover_is_answered_while_typing_goes_on(self):
        # A request waits for the parse of the text it was sent against,
        # not for every edit typed after it: typing for 3 s into a 20k
        # file (each keystroke a new line, so each needs a full parse)
        # must not hold a hover until the typing stops.
        client = LspClient([LSP])
        self.addCleanup(client.close)
        client.initialize({})
        text = generated(20000)
        client.open(URI, text)
        client.result("waveasm/metrics", {"textDocument": {"uri": URI}}, TIMEOUT)
        lines = text.split("\n")
        line = next(i for i, l in enumerate(lines) if "waveasm.v_add_u32" in l)
        column = lines[line].index("waveasm.") + 2
        at = {"line": 0, "character": 0}
        client.change(URI, 2, [{"range": {"start": at, "end": at},
                                "text": "// typing\n"}])
        request = client.request_async("textDocument/hover", {
            "textDocument": {"uri": URI},
            "position": {"line": line + 1, "character": column}})
        end = time.monotonic() + 3.0
        version = 2
        while time.monotonic() < end:
            version += 1
            client.change(URI, version, [{"range": {"start": at, "end": at},
                                          "text": "// typing\n"}])
            time.sleep(0.05)
        typing_ended = time.monotonic()
        answer, answered = client.wait_response(request, TIMEOUT, with_time=True)
        self.assertIn("v_add_u32", answer["result"]["contents"]["value"])
        self.assertLess(answered, typing_ended,
                        "the hover waited until the typing stopped")

    def test_hover_waits_for_the_parse_of_the_current_text(self):
        client = LspClient([LSP])
        self.addCleanup(client.close)
        client.initialize({})
        text = read(EXAMPLE)
        client.open(URI, text)
        lines = text.split("\n")
        line = next(i for i, l in enumerate(lines) if "waveasm.s_barrier" in l)
        # Renamed by v2 and hovered at once: the answer must describe v2.
        column = lines[line].index("s_barrier")
        client.change(URI, 2, [{
            "range": {"start": {"line": line, "character": column},
                      "end": {"line": line, "character": column + len("s_barrier")}},
            "text": "s_nop 0"}])
        hover = client.result("textDocument/hover", {
            "textDocument": {"uri": URI},
            "position": {"line": line, "character": column + 1}}, TIMEOUT)
        self.assertIn("s_nop", hover["contents"]["value"])
        self.assertNotIn("s_barrier", hover["contents"]["value"])


if __name__ == "__main__":
    unittest.main()
