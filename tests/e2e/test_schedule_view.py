#!/usr/bin/env python3
"""End-to-end test of waveasm/schedule over stdio: the view of the loop or
program at a position, its SVG and text pictures, and the errors.

Run: python3 tests/e2e/test_schedule_view.py [-v]
$WAVEASM_LSP names the server (else build/bin/).
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from lsp_client import position_of  # noqa: E402
from test_lsp import BROKEN, EXAMPLE, ServerTest, doc, read  # noqa: E402


class ScheduleView(ServerTest):
    def test_loop_program_and_pictures(self):
        client = self.start()
        text = read(EXAMPLE)
        uri = self.open(client, text)
        # Asked right after the open: answered once the pipeline lands.
        first = client.result("waveasm/schedule", dict(doc(uri), render="svg"))
        self.assertEqual(first["kind"], "loop")
        self.assertEqual(first["version"], 1)
        rows = first["rows"]
        self.assertGreater(len(rows), 10)
        # Rows are in issue order; each names a line of the document.
        self.assertEqual([r["issue"] for r in rows], sorted(r["issue"] for r in rows))
        lines = text.split("\n")
        for row in rows:
            line, character = row["at"]
            self.assertEqual(row["line"], line + 1)
            if not row.get("inserted"):
                self.assertIn(row["mnemonic"], lines[line][character:])
        self.assertTrue(any(r["stall"] > 0 and r["stallReason"] for r in rows))
        peak = first["peak"]["vgpr"]
        self.assertEqual(rows[peak["row"]]["pressure"][0], peak["regs"])
        self.assertEqual(max(r["pressure"][0] for r in rows), peak["regs"])
        self.assertEqual(first["svg"].count(" data-op="), len(rows))
        self.assertIn(".wsv", first["css"])
        self.assertNotIn("text", first)

        # On the program's header: the program, each loop as one row.
        program = client.result("waveasm/schedule", {
            "textDocument": {"uri": uri},
            "position": position_of(text, "waveasm.program"), "render": "text"})
        self.assertEqual(program["kind"], "program")
        self.assertTrue(any(r.get("loop") for r in program["rows"]))
        self.assertIn("line  instruction", program["text"])
        self.assertNotIn("svg", program)

    def test_errors(self):
        client = self.start()
        uri = self.open(client, BROKEN, name="broken.mlir")
        self.assertError(client.request("waveasm/schedule", doc(uri)), -32803)
        good = self.open(client, read(EXAMPLE))
        self.assertError(client.request("waveasm/schedule", dict(doc(good), render="png")), -32602)
        self.assertError(client.request("waveasm/schedule", doc("file:///nowhere.mlir")), -32602)


if __name__ == "__main__":
    unittest.main()
