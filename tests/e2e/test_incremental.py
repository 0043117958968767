#!/usr/bin/env python3
"""End-to-end tests of diagnostics while typing: an edit inside one op is
re-parsed incrementally (server/IncrementalParse.h) and must publish exactly
what a full parse would, with exact ranges.

Run: python3 tests/e2e/test_incremental.py [-v]
The server binary is $WAVEASM_LSP, else build/bin/waveasm-lsp.
"""

import os
import re
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from lsp_client import LspClient, position_of  # noqa: E402
# Constants only: importing test classes would run them here too.
from test_lsp import EDITOR, EXAMPLE, LSP, TIMEOUT, read  # noqa: E402

URI = "file:///tmp/waveasm-e2e/typing.mlir"


def parse_diagnostics(params):
    """Parse and verifier diagnostics of a publish (lints carry a code)."""
    return [d for d in params["diagnostics"] if not d.get("code")]


def shifted(position, characters):
    return dict(position, character=position["character"] + characters)


class Incremental(unittest.TestCase):
    def start(self):
        """A server logging at info level into a file read at the end."""
        log = tempfile.TemporaryFile(mode="w+")
        self.addCleanup(log.close)
        client = LspClient([LSP, "--log=info"], stderr=log)
        self.addCleanup(client.close)
        client.initialize(EDITOR)
        return client, log

    def server_log(self, client, log):
        client.close()  # the server has written everything
        log.seek(0)
        return log.read()

    def wait_log(self, log, pattern, timeout=TIMEOUT):
        """The server's log so far, once a line matches `pattern`."""
        deadline = time.monotonic() + timeout
        while True:
            log.seek(0)
            lines = log.read()
            if re.search(pattern, lines, re.MULTILINE):
                return lines
            if time.monotonic() > deadline:
                self.fail("no log line matches %r:\n%s" % (pattern, lines))
            time.sleep(0.02)

    def assertNoLoggedErrors(self, lines):
        # The server logs an error when a full parse disagrees with the
        # incremental diagnostics it published for the same version.
        errors = [line for line in lines.splitlines() if line.startswith("E[")]
        self.assertEqual(errors, [], lines)

    def assertLoggedIncremental(self, lines, version):
        pattern = re.compile(r"\bv%d\b" % version)
        found = [line for line in lines.splitlines()
                 if pattern.search(line) and re.search("incremental", line)]
        self.assertTrue(found, "no log line says v%d was parsed incrementally:\n%s"
                        % (version, lines))

    def test_one_op_edits_break_and_fix(self):
        client, log = self.start()
        text1 = read(EXAMPLE)
        client.open(URI, text1, 1)
        self.assertEqual(client.wait_diagnostics(URI, 1, timeout=TIMEOUT)["diagnostics"], [])

        # v2: another op of the same syntax on one line (still valid).
        start = position_of(text1, "waveasm.v_and_b32 %tid, %c3", 0, len("waveasm."))
        client.change(URI, 2, [{"range": {"start": start,
                                          "end": shifted(start, len("v_and_b32"))},
                                "text": "v_or_b32"}])
        text2 = text1.replace("waveasm.v_and_b32 %tid, %c3", "waveasm.v_or_b32 %tid, %c3", 1)
        v2 = client.wait_diagnostics(URI, 2, timeout=TIMEOUT)
        self.assertEqual(v2["diagnostics"], [])

        # v3: an instruction offset out of range on the first line of a
        # two-line buffer load (a verifier error on that op).
        head = "%a_t0 = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %c0"
        insert_at = position_of(text2, head, 0, len(head))
        inserted = " offset : 5000"
        client.change(URI, 3, [{"range": {"start": insert_at, "end": insert_at},
                                "text": inserted}])
        text3 = text2.replace(head, head + inserted, 1)
        v3 = client.wait_diagnostics(URI, 3, timeout=TIMEOUT)
        self.assertEqual(len(v3["diagnostics"]), 1, v3)
        diag = v3["diagnostics"][0]
        self.assertEqual(diag["severity"], 1)
        self.assertEqual(diag["message"],
                         "'waveasm.buffer_load_dwordx4' op instruction offset 5000 is "
                         "out of valid range [0, 4095]")
        name = position_of(text3, "waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %c0 offset")
        self.assertEqual(name["line"], insert_at["line"])
        self.assertEqual(diag["range"], {"start": name,
                                         "end": shifted(name, len("waveasm.buffer_load_dwordx4"))})
        self.assertNotIn("relatedInformation", diag)
        # The full parse of v3 follows (debounced): it must agree, so the
        # server publishes nothing more for v3 and logs no error.
        lines = self.wait_log(log, r"^I\[.*\bparsed typing\.mlir v3 in ")
        self.assertNoLoggedErrors(lines)
        time.sleep(0.1)
        v3_publishes = [p for p in client.events_of("textDocument/publishDiagnostics")
                        if p["uri"] == URI and p.get("version") == 3]
        self.assertEqual(v3_publishes, [v3])

        # v4: the fix; the text is v2's again.
        mark = client.mark()
        client.change(URI, 4, [{"range": {"start": insert_at,
                                          "end": shifted(insert_at, len(inserted))},
                                "text": ""}])
        v4 = client.wait_diagnostics(URI, 4, timeout=TIMEOUT)
        self.assertEqual(v4["diagnostics"], [])
        # The pipeline then runs on v4 (it verified): its publishes add
        # lints only.
        client.wait_event("workspace/inlayHint/refresh", since=mark, timeout=TIMEOUT)
        for params in client.events_of("textDocument/publishDiagnostics", since=mark):
            if params["uri"] == URI and params.get("version") == 4:
                self.assertEqual(parse_diagnostics(params), [], params)

        lines = self.server_log(client, log)
        for version in (2, 3, 4):
            self.assertLoggedIncremental(lines, version)
        self.assertNoLoggedErrors(lines)

    def test_declined_edit_still_publishes_the_full_parse(self):
        # A blank line changes the line count: the model declines and the
        # full parse answers, with the error on the right (moved) line.
        client, log = self.start()
        text1 = read(EXAMPLE)
        client.open(URI, text1, 1)
        client.wait_diagnostics(URI, 1, timeout=TIMEOUT)
        head = "%a_t0 = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %c0"
        at = position_of(text1, head, 0, len(head))
        start_of_line = dict(at, character=0)
        # Two changes in one notification, the second in the text the
        # first produced: a line break, then an out-of-range offset on the
        # (moved) buffer load.
        moved = dict(at, line=at["line"] + 1)
        client.change(URI, 2, [{"range": {"start": start_of_line, "end": start_of_line},
                                "text": "\n"},
                               {"range": {"start": moved, "end": moved},
                                "text": " offset : 9999"}])
        text2 = text1.replace(head, head + " offset : 9999", 1)
        lines2 = text2.split("\n")
        lines2.insert(at["line"], "")
        text2 = "\n".join(lines2)
        v2 = client.wait_diagnostics(URI, 2, timeout=TIMEOUT)
        self.assertEqual(len(v2["diagnostics"]), 1, v2)
        name = position_of(text2, "waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %c0 offset")
        self.assertEqual(name["line"], at["line"] + 1)
        self.assertEqual(v2["diagnostics"][0]["range"]["start"], name)
        # The edit after it (one op, same line count) is incremental
        # again: the model was rebuilt from the full parse.
        insert_start = position_of(text2, " offset : 9999")
        insert_end = shifted(insert_start, len(" offset : 9999"))
        client.change(URI, 3, [{"range": {"start": insert_start, "end": insert_end},
                                "text": ""}])
        self.assertEqual(client.wait_diagnostics(URI, 3, timeout=TIMEOUT)["diagnostics"], [])
        lines = self.server_log(client, log)
        self.assertLoggedIncremental(lines, 3)
        self.assertNoLoggedErrors(lines)


if __name__ == "__main__":
    unittest.main()
