#!/usr/bin/env python3
"""End-to-end tests of the quick fixes: a document with a diagnostic is
opened, the client asks textDocument/codeAction with context.only =
["quickfix"] and the diagnostic it shows, applies the returned edit with
didChange, and the diagnostic must be gone from what the server publishes
for the new version.

Run: python3 tests/e2e/test_quickfix.py [-v]
The server is $WAVEASM_LSP, else build/bin/waveasm-lsp.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from lsp_client import LspClient, apply_edits  # noqa: E402

LSP = os.environ.get("WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp"))
TIMEOUT = 60.0

EDITOR = {
    "workspace": {"workspaceEdit": {"documentChanges": True}},
    "textDocument": {"publishDiagnostics": {"versionSupport": True}},
}


def program(body, target="gfx942"):
    return ("waveasm.program @k target = #waveasm.target<#waveasm.%s> "
            "abi = #waveasm.abi<> {\n%s\n}\n" % (target, body))


REGS = """  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
"""

# The accumulator of a 16x16x16 MFMA written 16 registers wide: a verifier
# error, fixed by narrowing the precolored accumulator and the result.
MFMA = program(REGS + """  %acc = waveasm.precolored.vreg 16, 16 : !waveasm.vreg<16, 4>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %acc
      : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
  waveasm.buffer_store_dwordx4 %d, %srd, %v : !waveasm.vreg<16, 4>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm""")

# v_mad_f32 on gfx950: the emitter's error after the background compile.
MAD = program(REGS + """  %x = waveasm.v_mad_f32 %v, %v, %v : !waveasm.pvreg<0>, !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %v : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm""", "gfx950")

# An add nothing reads: the `unused` lint.
UNUSED = program(REGS + """  %x = waveasm.v_add_u32 %v, %v : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %dead = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %v : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm""")


class QuickFixes(unittest.TestCase):
    def start(self):
        client = LspClient([LSP])
        self.addCleanup(client.close)
        result = client.initialize(EDITOR)
        self.assertIn("quickfix", result["capabilities"]["codeActionProvider"]["codeActionKinds"])
        return client

    def wait_for(self, client, uri, version, predicate, since=0):
        """The first diagnostics of `version` with one satisfying `predicate`."""
        params = client.wait_event(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri and p.get("version") == version
            and any(predicate(d) for d in p["diagnostics"]),
            since, TIMEOUT)
        return [d for d in params["diagnostics"] if predicate(d)][0]

    def ask(self, client, uri, diag, only=("quickfix",)):
        return client.result("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diag["range"],
            "context": {"diagnostics": [diag], "only": list(only)}}, TIMEOUT)

    def fix_and_check(self, text, predicate, name, preferred=True):
        """Opens `text`, fixes the diagnostic `predicate` selects with the
        server's one quick fix, and checks that version 2 no longer has it
        (nor any error). Returns the action."""
        client = self.start()
        uri = "file:///tmp/waveasm-e2e/" + name
        client.open(uri, text, 1)
        diag = self.wait_for(client, uri, 1, predicate)
        actions = self.ask(client, uri, diag)
        self.assertEqual(len(actions), 1, actions)
        action = actions[0]
        self.assertEqual(action["kind"], "quickfix")
        self.assertEqual(action["diagnostics"], [diag])
        self.assertEqual(action.get("isPreferred", False), preferred)
        changes = action["edit"]["documentChanges"]
        self.assertEqual(changes[0]["textDocument"], {"uri": uri, "version": 1})
        fixed = apply_edits(text, changes[0]["edits"])
        mark = client.mark()
        client.change(uri, 2, [{"text": fixed}])
        client.wait_diagnostics(uri, 2, since=mark, timeout=TIMEOUT)
        # The parse's diagnostics come first, the pipeline's and the lints
        # after the background compile, which a metrics request waits for.
        client.result("waveasm/metrics", {"textDocument": {"uri": uri}}, TIMEOUT)
        published = [p for p in client.events_of("textDocument/publishDiagnostics", mark)
                     if p["uri"] == uri and p.get("version") == 2]
        self.assertTrue(published)
        last = published[-1]["diagnostics"]
        self.assertFalse([d for d in last if predicate(d)], last)
        self.assertFalse([d for d in last if d["severity"] == 1], last)
        return action

    def test_mfma_accumulator_width(self):
        action = self.fix_and_check(
            MFMA, lambda d: "accumulator size mismatch" in d["message"], "mfma.mlir")
        self.assertEqual(action["title"],
                         "Make %acc and %d 4 registers (!waveasm.vreg<4, 4>)")

    def test_mad_on_gfx950_is_not_preferred(self):
        action = self.fix_and_check(
            MAD, lambda d: "v_mad_f32 does not exist" in d["message"], "mad.mlir",
            preferred=False)
        self.assertIn("v_fma_f32", action["title"])

    def test_unused_result(self):
        action = self.fix_and_check(
            UNUSED, lambda d: d.get("code") == "unused", "unused.mlir")
        self.assertIn("Remove `v_add_u32`", action["title"])

    def test_only_refactors_and_broken_text(self):
        client = self.start()
        uri = "file:///tmp/waveasm-e2e/only.mlir"
        client.open(uri, MFMA, 1)
        diag = self.wait_for(client, uri, 1, lambda d: "mismatch" in d["message"])
        # Refactors only: no quick fix (and the text does not verify, so no
        # move either).
        self.assertEqual(self.ask(client, uri, diag, only=("refactor",)), [])
        # No context: the fixes of the diagnostics the range touches.
        actions = client.result("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diag["range"],
            "context": {"diagnostics": []}}, TIMEOUT)
        self.assertEqual([a["kind"] for a in actions], ["quickfix"])
        # A text that does not parse, a diagnostic that is not its own, a
        # malformed one: answers, no crash.
        client.change(uri, 2, [{"text": "waveasm.program @k target = #waveasm.target<"}])
        client.wait_diagnostics(uri, 2, timeout=TIMEOUT)
        self.assertEqual(self.ask(client, uri, diag), [])
        self.assertEqual(client.result("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diag["range"],
            "context": {"diagnostics": [{"message": 3}, {"range": None}],
                        "only": ["quickfix"]}}, TIMEOUT), [])
        self.assertEqual(client.result("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}},
            TIMEOUT), None)


if __name__ == "__main__":
    unittest.main()
