#!/usr/bin/env python3
"""End-to-end test of issue 12 item 5 in the editor: on an example GEMM
loop's header line the server offers "Pipeline this loop (2 stages): ..."
(measured, checked by execution); the client applies the edit with
didChange, the new text parses, the loop is pipelined (a prologue before
the steady-state loop), and the server's metrics for the new version show
the est_cycles the title promised. The loop lens shows the LDS figures.

Run: python3 tests/e2e/test_pipelining.py [-v]
The server is $WAVEASM_LSP, else build/bin/waveasm-lsp.
"""

import os
import re
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from lsp_client import LspClient, apply_edits, position_of  # noqa: E402

LSP = os.environ.get("WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp"))
TIMEOUT = 120.0

EDITOR = {
    "workspace": {"workspaceEdit": {"documentChanges": True},
                  "codeLens": {"refreshSupport": True}},
    "textDocument": {"publishDiagnostics": {"versionSupport": True}},
}


def read(path):
    with open(path) as f:
        return f.read()


class Pipelining(unittest.TestCase):
    def start(self):
        client = LspClient([LSP])
        self.addCleanup(client.close)
        client.initialize(EDITOR)
        return client

    def apply_action(self, client, uri, text, action, version):
        """Applies `action`'s edit of `text` (document `version`) as the
        editor does, as the next version, and waits until that version is
        published without errors; returns the new text."""
        changes = action["edit"]["documentChanges"]
        self.assertEqual(changes[0]["textDocument"], {"uri": uri, "version": version})
        self.assertEqual(len(changes), 1)
        edited = apply_edits(text, changes[0]["edits"])
        mark = client.mark()
        client.change(uri, version + 1, [{"text": edited}])
        published = client.wait_diagnostics(uri, version + 1, since=mark, timeout=TIMEOUT)
        self.assertFalse([d for d in published["diagnostics"] if d["severity"] == 1],
                         published["diagnostics"])
        return edited

    def lenses(self, client, uri):
        # Lenses come with the background compile: ask until they are there.
        deadline = time.time() + TIMEOUT
        while True:
            lenses = client.result("textDocument/codeLens", {"textDocument": {"uri": uri}},
                                   TIMEOUT)
            titles = [l["command"]["title"] for l in lenses]
            if titles or time.time() > deadline:
                return titles
            time.sleep(0.2)

    def test_pipeline_this_loop(self):
        client = self.start()
        text = read(os.path.join(ROOT, "examples", "gemm_bf16_splitk_agpr.mlir"))
        uri = "file:///tmp/waveasm-e2e/splitk.mlir"
        client.open(uri, text, 1)
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        titles = self.lenses(client, uri)
        self.assertTrue(titles)
        before = client.result("waveasm/metrics", {"textDocument": {"uri": uri}}, TIMEOUT)
        self.assertEqual(before["version"], 1)

        # Inside the loop body (not its header line): no pipelining action.
        inside = position_of(text, "waveasm.v_mfma", 0, 2)
        actions = client.result("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": inside, "end": inside},
            "context": {"diagnostics": []}}, TIMEOUT)
        self.assertFalse([a for a in actions if a["title"].startswith("Pipeline this loop")])

        pos = position_of(text, "waveasm.loop", 0, 2)
        actions = client.result("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
            "context": {"diagnostics": []}}, TIMEOUT)
        pipeline = [a for a in actions if a["title"].startswith("Pipeline this loop (2 stages): ")]
        self.assertEqual(len(pipeline), 1, [a["title"] for a in actions])
        action = pipeline[0]
        # "... -N cycles/iter, +M VGPR[, LDS xK] (est_cycles A -> B)"
        m = re.search(r"([+-]?\d+) cycles/iter, ([+-]?\d+) VGPR.*\(est_cycles (\d+) -> (\d+)\)",
                      action["title"])
        self.assertTrue(m, action["title"])
        promised_before, promised_after = int(m.group(3)), int(m.group(4))
        self.assertLess(promised_after, promised_before)
        self.assertNotIn("not checked by execution", action["title"])

        pipelined = self.apply_action(client, uri, text, action, 1)
        self.assertNotEqual(pipelined, text)
        # The stage annotations are not left in the text (they would ask for
        # pipelining again).
        self.assertNotIn("waveasm.stage", pipelined)
        after = client.result("waveasm/metrics", {"textDocument": {"uri": uri}}, TIMEOUT)
        self.assertEqual(after["version"], 2)
        self.assertEqual(after["programs"][0]["est_cycles"], promised_after)
        self.assertLess(after["programs"][0]["est_cycles"],
                        before["programs"][0]["est_cycles"])

    def test_declare_kernel_arguments_apart(self):
        # The dequant loop without its noalias_args: the lens says why it
        # cannot be pipelined and what to declare; the action on its header
        # declares it (a small edit of the attribute dictionary), and the
        # new version's lens no longer says the loop cannot be pipelined.
        client = self.start()
        text = "\n".join(l for l in read(os.path.join(ROOT, "examples", "dequant_i8_to_f16.mlir"))
                         .split("\n") if "noalias_args = " not in l)
        uri = "file:///tmp/waveasm-e2e/dequant.mlir"
        client.open(uri, text, 1)
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        titles = self.lenses(client, uri)
        self.assertTrue([t for t in titles if "cannot pipeline" in t and
                         "declare noalias_args = [0, 8] on waveasm.program" in t], titles)
        pos = position_of(text, "= waveasm.loop", 0, 2)
        ask = {"textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
               "context": {"diagnostics": []}}
        actions = client.result("textDocument/codeAction", ask, TIMEOUT)
        self.assertFalse([a for a in actions if a["title"].startswith("Pipeline this loop")])
        declare = [a for a in actions if a["title"].startswith("Declare the kernel arguments")]
        self.assertEqual(len(declare), 1, [a["title"] for a in actions])
        changes = declare[0]["edit"]["documentChanges"]
        self.assertEqual(len(changes[0]["edits"]), 1)
        declared = self.apply_action(client, uri, text, declare[0], 1)
        # Only the declaration changed.
        self.assertEqual(declared.replace("noalias_args = [0, 8, 16], ", ""), text)
        actions = client.result("textDocument/codeAction", ask, TIMEOUT)
        self.assertFalse([a for a in actions if a["title"].startswith("Declare the kernel")])
        deadline = time.time() + TIMEOUT
        while True:
            titles = self.lenses(client, uri)
            if not [t for t in titles if "cannot pipeline" in t] or time.time() > deadline:
                break
            time.sleep(0.2)
        self.assertTrue(titles)
        self.assertFalse([t for t in titles if "cannot pipeline" in t], titles)
        # Declared, the loop is offered pipelining: its trip count is a
        # kernel argument, so the action compares cycles per iteration as
        # written (the program's est_cycles count one iteration) and says so.
        offered = [a for a in actions if a["title"].startswith("Pipeline this loop")]
        self.assertTrue(offered, [a["title"] for a in actions])
        for action in offered:
            self.assertTrue(action["title"].endswith(
                " (per iteration: the trip count is not known)"), action["title"])
            self.assertRegex(action["title"], r"\): -\d+ cycles/iter, ")
        pipelined = self.apply_action(client, uri, declared, offered[0], 2)
        self.assertIn("waveasm.pipeline_steps", pipelined)

    def test_pipeline_actions_are_kept_per_version(self):
        # The actions cost compiles and simulations; the editor asks again on
        # every cursor move. The same question about the same text and
        # settings is answered from the cache; a new version or new settings
        # compute again.
        with tempfile.TemporaryFile(mode="w+") as log:
            client = LspClient([LSP, "--log=verbose"], stderr=log)
            self.addCleanup(client.close)
            client.initialize(EDITOR)
            text = read(os.path.join(ROOT, "examples", "gemm_bf16_splitk_agpr.mlir"))
            uri = "file:///tmp/waveasm-e2e/splitk-cache.mlir"
            client.open(uri, text, 1)
            client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
            pos = position_of(text, "waveasm.loop", 0, 2)

            def ask():
                actions = client.result("textDocument/codeAction", {
                    "textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
                    "context": {"diagnostics": []}}, TIMEOUT)
                return [a for a in actions if a["title"].startswith("Pipeline this loop")]

            def cached():
                log.seek(0)
                return log.read().count("pipelining actions for splitk-cache.mlir")

            first = ask()
            self.assertTrue(first)
            self.assertEqual(cached(), 0)
            self.assertEqual(ask(), first)
            self.assertEqual(cached(), 1, "the second answer comes from the cache")
            # A new version: computed again, for that version's text.
            mark = client.mark()
            client.change(uri, 2, [{"text": text + "// edited\n"}])
            client.wait_diagnostics(uri, 2, since=mark, timeout=TIMEOUT)
            second = ask()
            self.assertEqual(cached(), 1)
            self.assertEqual([a["title"] for a in second], [a["title"] for a in first])
            self.assertEqual(second[0]["edit"]["documentChanges"][0]["textDocument"]["version"], 2)
            # New settings: computed again.
            client.notify("workspace/didChangeConfiguration",
                          {"settings": {"waveasm": {"checkByExecution": True}}})
            self.assertTrue(ask())
            self.assertEqual(cached(), 1)
            self.assertTrue(ask())
            self.assertEqual(cached(), 2)


if __name__ == "__main__":
    unittest.main()
