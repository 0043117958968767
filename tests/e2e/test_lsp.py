#!/usr/bin/env python3
"""End-to-end tests of waveasm-lsp, driven as an editor would drive it.

Run: python3 tests/e2e/test_lsp.py [-v] [TestClass...]
The server binary is $WAVEASM_LSP, else build/bin/waveasm-lsp. Every wait
has a timeout, so a hung server fails the test instead of hanging CI.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from lsp_client import LspClient, LspError, position_of, utf16_len  # noqa: E402

LSP = os.environ.get("WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp"))
GEN = os.path.join(ROOT, "bench", "gen_waveasm.py")
EXAMPLE = os.path.join(ROOT, "examples", "gemm_f16_double_buffer.mlir")
TIMEOUT = 30.0

# Editor-like capabilities: progress and refreshes supported.
EDITOR = {
    "window": {"workDoneProgress": True},
    "workspace": {"inlayHint": {"refreshSupport": True},
                  "codeLens": {"refreshSupport": True}},
    "textDocument": {"publishDiagnostics": {"versionSupport": True},
                     "hover": {"contentFormat": ["markdown", "plaintext"]}},
}

BROKEN = """waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %acc = waveasm.precolored.vreg 16, 16 : !waveasm.vreg<16, 4>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
  waveasm.s_endpgm
}
"""
BROKEN_MESSAGE = ("'waveasm.v_mfma_f32_16x16x16_f16' op accumulator size mismatch: "
                  "expected 4 registers but got 16 for waveasm.v_mfma_f32_16x16x16_f16")

SMALL = """// é and 😀 before the program: UTF-16 columns differ from bytes here.
waveasm.program @small target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %x = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}
"""


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


_generated = {}


def generated(n):
    """A generated n-instruction kernel (cached per test run)."""
    if n not in _generated:
        fd, path = tempfile.mkstemp(suffix=".mlir", prefix="lsp-e2e-%d-" % n)
        os.close(fd)
        subprocess.check_call([sys.executable, GEN, "-n", str(n), "-o", path])
        _generated[n] = read(path)
        os.unlink(path)
    return _generated[n]


def doc(uri):
    return {"textDocument": {"uri": uri}}


def at(uri, position):
    return {"textDocument": {"uri": uri}, "position": position}


class ServerTest(unittest.TestCase):
    """Starts a fresh server per test; always cleaned up."""

    def start(self, capabilities=None, options=None, initialize=True, log=None):
        command = [LSP] + (["--log=" + log] if log else [])
        client = LspClient(command)
        self.addCleanup(client.close)
        if initialize:
            client.initialize(EDITOR if capabilities is None else capabilities, options)
        return client

    def open(self, client, text, name="test.mlir", version=1):
        uri = "file:///tmp/waveasm-e2e/" + name
        client.open(uri, text, version)
        return uri

    def assertError(self, response, code):
        self.assertIn("error", response, response)
        self.assertEqual(response["error"]["code"], code, response)
        self.assertTrue(response["error"]["message"])


class Lifecycle(ServerTest):
    def test_requests_before_initialize(self):
        client = self.start(initialize=False)
        self.assertError(client.request("textDocument/hover",
                                        at("file:///x", {"line": 0, "character": 0})), -32002)
        # Notifications before initialize are dropped, not answered.
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": "file:///x", "languageId": "mlir", "version": 1, "text": BROKEN}})
        client.initialize(EDITOR)
        self.assertError(client.request("textDocument/hover",
                                        at("file:///x", {"line": 0, "character": 0})), -32602)
        self.assertEqual(client.events_of("textDocument/publishDiagnostics"), [])

    def test_initialize_capabilities(self):
        client = self.start(initialize=False)
        result = client.initialize(EDITOR)
        caps = result["capabilities"]
        self.assertEqual(caps["textDocumentSync"]["change"], 2)  # incremental
        self.assertTrue(caps["textDocumentSync"]["openClose"])
        for provider in ("hoverProvider", "definitionProvider", "referencesProvider",
                         "documentHighlightProvider", "documentSymbolProvider",
                         "foldingRangeProvider"):
            self.assertTrue(caps[provider], provider)
        self.assertTrue(caps["renameProvider"]["prepareProvider"])
        legend = caps["semanticTokensProvider"]["legend"]
        self.assertIn("valu", legend["tokenTypes"])
        self.assertTrue(caps["semanticTokensProvider"]["full"])
        self.assertIn("inlayHintProvider", caps)
        self.assertIn("codeLensProvider", caps)
        self.assertEqual(caps["executeCommandProvider"]["commands"],
                         ["waveasm.scheduleLoop", "waveasm.showMetrics",
                          "waveasm.showLivePeak"])
        self.assertEqual(caps["codeActionProvider"]["codeActionKinds"],
                         ["quickfix", "refactor.rewrite"])
        self.assertEqual(result["serverInfo"]["name"], "waveasm-lsp")
        self.check_version(result["serverInfo"]["version"])
        # A second initialize is refused.
        self.assertError(client.request("initialize", {"capabilities": {}}), -32600)

    def check_version(self, server_version):
        """serverInfo's version is --version's, the project version the
        extension is built with, and the revision of this checkout."""
        line = subprocess.run([LSP, "--version"], capture_output=True,
                              text=True, timeout=30).stdout.strip()
        match = re.fullmatch(r"waveasm-lsp (\d+\.\d+\.\d+) \(git ([0-9a-f]+(-dirty)?|unknown)\)", line)
        self.assertTrue(match, line)
        self.assertEqual(server_version, "%s (git %s)" % match.group(1, 2))
        with open(os.path.join(ROOT, "vscode-extension", "package.json")) as f:
            self.assertEqual(json.load(f)["version"], match.group(1))
        if os.path.isdir(os.path.join(ROOT, ".git")):
            head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"],
                                  capture_output=True, text=True).stdout.strip()
            self.assertTrue(head.startswith(match.group(2).split("-")[0]),
                            (head, line))

    def test_shutdown_then_exit_is_0(self):
        client = self.start()
        self.assertIsNone(client.result("shutdown"))
        # After shutdown, requests are invalid.
        self.assertError(client.request("textDocument/hover",
                                        at("file:///x", {"line": 0, "character": 0})), -32600)
        client.notify("exit")
        self.assertEqual(client.wait_exit(TIMEOUT), 0)

    def test_exit_without_shutdown_is_1(self):
        client = self.start()
        client.notify("exit")
        self.assertEqual(client.wait_exit(TIMEOUT), 1)

    def test_end_of_input_without_exit_is_1(self):
        client = self.start()
        client.proc.stdin.close()
        self.assertEqual(client.wait_exit(TIMEOUT), 1)

    def test_settings_problems_are_shown(self):
        client = self.start(options={"lints": {"stall": "loud"}, "target": "gfx000"})
        messages = [client.wait_event("window/showMessage", timeout=TIMEOUT)]
        self.assertIn("lints.stall", json.dumps(client.events_of("window/showMessage")))
        self.assertEqual(messages[0]["type"], 2)


class MalformedInput(ServerTest):
    def assert_alive(self, client):
        uri = self.open(client, SMALL, "alive-%d.mlir" % client.next_id())
        client.wait_diagnostics(uri, timeout=TIMEOUT)
        symbols = client.result("textDocument/documentSymbol", doc(uri), TIMEOUT)
        self.assertEqual(symbols[0]["name"], "@small")

    def error_with_null_id(self, client, since=0):
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            with client._lock:
                got = client.responses.get("null")
                if got:
                    return got.pop(0)[0]
            time.sleep(0.01)
        self.fail("no error response with a null id")

    def test_garbage_json(self):
        client = self.start()
        client.send_raw(LspClient.frame(b'{"jsonrpc": "2.0", "id": 5, "method": '))
        self.assertError(self.error_with_null_id(client), -32700)
        self.assert_alive(client)

    def test_deeply_nested_json(self):
        # 100,000 levels used to overflow the stack in the JSON parser: the
        # message is refused before parsing, with its id unknown (-32700).
        client = self.start()
        depth = 100000
        body = (b'{"jsonrpc": "2.0", "id": 6, "method": "textDocument/hover", "params": '
                + b"[" * depth + b"]" * depth + b"}")
        client.send_raw(LspClient.frame(body))
        error = self.error_with_null_id(client)
        self.assertError(error, -32700)
        self.assertIn("nested deeper than", error["error"]["message"])
        # Just under the limit is parsed and judged on its shape instead.
        shallow = [[[1]]]
        self.assertError(client.request("textDocument/hover", shallow), -32602)
        self.assert_alive(client)

    def test_invalid_request(self):
        client = self.start()
        client.send({"jsonrpc": "2.0", "id": 77})
        self.assertError(client.wait_response(77, TIMEOUT), -32600)
        client.send([1, 2, 3])
        self.assertError(self.error_with_null_id(client), -32600)
        client.send({"jsonrpc": "1.0", "id": 78, "method": "textDocument/hover"})
        self.assertError(client.wait_response(78, TIMEOUT), -32600)
        self.assert_alive(client)

    def test_unknown_method_and_notifications(self):
        client = self.start()
        self.assertError(client.request("waveasm/noSuchThing", {}), -32601)
        self.assertError(client.request("$/noSuchThing", {}), -32601)
        answered = len(client.responses)
        client.notify("waveasm/noSuchNotification", {})
        client.notify("$/setTrace", {"value": "verbose"})
        self.assert_alive(client)
        # Only the documentSymbol request of assert_alive was answered.
        self.assertEqual(len(client.responses), answered + 1)
        self.assertNotIn("null", client.responses)

    def test_invalid_params(self):
        client = self.start()
        self.assertError(client.request("textDocument/hover", {"textDocument": 3}), -32602)
        self.assert_alive(client)

    def test_bad_content_length_headers(self):
        client = self.start()
        body = b'{"jsonrpc":"2.0","id":900,"method":"shutdown"}'
        for header in (b"Content-Length: abc\r\n\r\n", b"Content-Length: -5\r\n\r\n",
                       b"Content-Length: 99999999999999999\r\n\r\n"):
            client.send_raw(header + body)
            self.assertError(self.error_with_null_id(client), -32700)
        # None of those bodies was taken for a shutdown.
        self.assert_alive(client)

    def test_content_length_too_long_or_short(self):
        client = self.start()
        body = b'{"jsonrpc":"2.0","id":901,"method":"textDocument/documentSymbol",' \
               b'"params":{"textDocument":{"uri":"file:///none"}}}'
        # Too long: the next message must not be swallowed or waited for.
        client.send_raw(b"Content-Length: %d\r\n\r\n" % (len(body) + 50) + body)
        client.send(json.loads(body.replace(b"901", b"902")))
        self.assertError(client.wait_response(901, TIMEOUT), -32602)
        self.assertError(client.wait_response(902, TIMEOUT), -32602)
        # Too short: a parse error, then the stream recovers.
        client.send_raw(b"Content-Length: 10\r\n\r\n" + body)
        self.assertError(self.error_with_null_id(client), -32700)
        self.assert_alive(client)

    def test_split_and_batched_writes(self):
        client = self.start()
        uri = self.open(client, SMALL)
        client.wait_diagnostics(uri, timeout=TIMEOUT)
        one = LspClient.frame({"jsonrpc": "2.0", "id": 801,
                               "method": "textDocument/foldingRange", "params": doc(uri)})
        two = LspClient.frame({"jsonrpc": "2.0", "id": 802,
                               "method": "textDocument/documentSymbol", "params": doc(uri)})
        # One message in three writes with pauses (partial reads)...
        client.send_chunks([one[:7], one[7:30], one[30:]])
        self.assertIn("result", client.wait_response(801, TIMEOUT))
        # ...and two messages in one write.
        client.send_raw(one.replace(b"801", b"803") + two)
        self.assertIn("result", client.wait_response(803, TIMEOUT))
        self.assertIn("result", client.wait_response(802, TIMEOUT))
        # Content-Type headers and bare LF line ends are accepted.
        body = json.dumps({"jsonrpc": "2.0", "id": 804,
                           "method": "textDocument/foldingRange", "params": doc(uri)}).encode()
        client.send_raw(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
                        b"Content-Length: %d\n\n" % len(body) + body)
        self.assertIn("result", client.wait_response(804, TIMEOUT))


class Documents(ServerTest):
    def test_clean_file_has_no_errors(self):
        client = self.start()
        text = read(EXAMPLE)
        uri = self.open(client, text)
        first = client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        self.assertEqual(first["diagnostics"], [])
        # After the pipeline: lints only, never errors or warnings here.
        client.wait_event("workspace/inlayHint/refresh", timeout=TIMEOUT)
        last = client.events_of("textDocument/publishDiagnostics")[-1]
        self.assertEqual(last["version"], 1)
        self.assertEqual([d for d in last["diagnostics"] if d["severity"] <= 2], [])
        for d in last["diagnostics"]:
            self.assertIn(d["code"], ("stall", "pressure", "hazard", "waitcnt", "optimization",
                                         "liveThrough", "bankConflict"))

    def test_broken_file_exact_diagnostic(self):
        client = self.start()
        uri = self.open(client, BROKEN)
        params = client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        self.assertEqual(len(params["diagnostics"]), 1, params)
        diag = params["diagnostics"][0]
        self.assertEqual(diag["message"], BROKEN_MESSAGE)
        self.assertEqual(diag["severity"], 1)
        self.assertEqual(diag["range"], {"start": {"line": 3, "character": 7},
                                         "end": {"line": 3, "character": 38}})
        self.assertEqual(diag["source"], "waveasm")

    def test_incremental_edit_breaks_then_fixes(self):
        client = self.start()
        uri = self.open(client, SMALL)
        self.assertEqual(client.wait_diagnostics(uri, 1, timeout=TIMEOUT)["diagnostics"], [])
        # Version 2: the add's result becomes an SGPR (a verifier error).
        start = position_of(SMALL, "-> !waveasm.vreg\n  waveasm.s_endpgm", 0, len("-> !waveasm."))
        end = dict(start, character=start["character"] + len("vreg"))
        client.change(uri, 2, [{"range": {"start": start, "end": end}, "text": "sreg"}])
        broken = client.wait_diagnostics(uri, 2, timeout=TIMEOUT)
        errors = [d for d in broken["diagnostics"] if d["severity"] == 1]
        self.assertEqual(len(errors), 1, broken)
        self.assertEqual(errors[0]["range"]["start"]["line"], 5)
        self.assertIn("v_add_u32", errors[0]["message"])
        # Version 3: fix it back.
        end = dict(start, character=start["character"] + len("sreg"))
        client.change(uri, 3, [{"range": {"start": start, "end": end}, "text": "vreg"}])
        fixed = client.wait_diagnostics(uri, 3, timeout=TIMEOUT)
        self.assertEqual([d for d in fixed["diagnostics"] if d["severity"] == 1], [])

    def test_utf16_positions_after_non_ascii(self):
        client = self.start()
        uri = self.open(client, SMALL)
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        # Insert a line break and a broken op right after the emoji on line
        # 0: the column is in UTF-16 units (the emoji counts two). A wrong
        # conversion would split the emoji or land elsewhere in the comment.
        line0 = SMALL.split("\n")[0]
        column = utf16_len(line0[: line0.index("😀") + 1])
        pos = {"line": 0, "character": column}
        client.change(uri, 2, [{"range": {"start": pos, "end": pos},
                                "text": "\nwaveasm.bogus_op"}])
        params = client.wait_diagnostics(uri, 2, timeout=TIMEOUT)
        self.assertEqual(len(params["diagnostics"]), 1, params)
        diag = params["diagnostics"][0]
        self.assertEqual(diag["range"]["start"], {"line": 1, "character": 0})
        self.assertIn("waveasm.bogus_op", diag["message"])
        # Delete it again with a multi-line range; the text is clean again.
        end = {"line": 1, "character": len("waveasm.bogus_op")}
        client.change(uri, 3, [{"range": {"start": pos, "end": end}, "text": ""}])
        self.assertEqual(client.wait_diagnostics(uri, 3, timeout=TIMEOUT)["diagnostics"], [])

    def test_full_text_change_and_close(self):
        client = self.start()
        uri = self.open(client, SMALL)
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        client.change(uri, 2, [{"text": BROKEN}])
        params = client.wait_diagnostics(uri, 2, timeout=TIMEOUT)
        self.assertEqual(params["diagnostics"][0]["message"], BROKEN_MESSAGE)
        mark = client.mark()
        client.notify("textDocument/didClose", doc(uri))
        cleared = client.wait_diagnostics(uri, since=mark, timeout=TIMEOUT)
        self.assertEqual(cleared["diagnostics"], [])
        self.assertError(client.request("textDocument/documentSymbol", doc(uri)), -32602)

    def test_reopen_without_close(self):
        client = self.start()
        text = generated(4000)
        uri = self.open(client, text, "reopen.mlir")
        # Reopened while its pipeline runs: the old run's result must not
        # land on the new text.
        client.open(uri, BROKEN, version=7)
        params = client.wait_diagnostics(uri, 7, timeout=TIMEOUT)
        self.assertEqual(params["diagnostics"][0]["message"], BROKEN_MESSAGE)
        time.sleep(0.5)
        versions = [p["version"] for p in client.events_of("textDocument/publishDiagnostics")
                    if p["uri"] == uri]
        self.assertEqual(versions[-1], 7)
        self.assertError(client.request("waveasm/metrics", doc(uri)), -32803)

    def test_bad_edit_is_refused_without_crash(self):
        client = self.start()
        uri = self.open(client, SMALL)
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        client.change(uri, 2, [{"range": {"start": {"line": 3, "character": 0},
                                          "end": {"line": 1, "character": 0}}, "text": "x"}])
        client.wait_event("window/showMessage", timeout=TIMEOUT)
        # Out-of-range positions clamp: appending past the end works.
        client.change(uri, 3, [{"range": {"start": {"line": 999, "character": 5},
                                          "end": {"line": 999, "character": 5}},
                                "text": "// trailing comment\n"}])
        params = client.wait_diagnostics(uri, 3, timeout=TIMEOUT)
        self.assertEqual(params["diagnostics"], [])


class Features(ServerTest):
    def setUp(self):
        self.client = self.start()
        self.text = read(EXAMPLE)
        self.uri = self.open(self.client, self.text)
        self.client.wait_diagnostics(self.uri, 1, timeout=TIMEOUT)
        self.client.wait_event("workspace/inlayHint/refresh", timeout=TIMEOUT)

    def test_inlay_hints(self):
        lines = self.text.count("\n")
        hints = self.client.result("textDocument/inlayHint", {
            "textDocument": {"uri": self.uri},
            "range": {"start": {"line": 0, "character": 0},
                      "end": {"line": lines, "character": 0}}}, TIMEOUT)
        self.assertGreater(len(hints), 10)
        labels = " ".join(h["label"] for h in hints)
        self.assertRegex(labels, r"lat \d+")
        self.assertRegex(labels, r"\bI\d+\b")
        for hint in hints:
            self.assertIn("line", hint["position"])
        # Only the requested range.
        one = self.client.result("textDocument/inlayHint", {
            "textDocument": {"uri": self.uri},
            "range": {"start": {"line": 40, "character": 0},
                      "end": {"line": 41, "character": 0}}}, TIMEOUT)
        self.assertTrue(all(40 <= h["position"]["line"] <= 41 for h in one))

    def test_hover_on_op(self):
        pos = position_of(self.text, "waveasm.v_mfma", 0, 10)
        hover = self.client.result("textDocument/hover", at(self.uri, pos), TIMEOUT)
        self.assertEqual(hover["contents"]["kind"], "markdown")
        self.assertIn("v_mfma", hover["contents"]["value"])
        self.assertIn("MFMA", hover["contents"]["value"])

    def test_definition_references_highlight(self):
        use = position_of(self.text, "%tid", 1, 1)
        definition = position_of(self.text, "%tid", 0)
        locations = self.client.result("textDocument/definition", at(self.uri, use), TIMEOUT)
        self.assertEqual(len(locations), 1)
        self.assertEqual(locations[0]["uri"], self.uri)
        self.assertEqual(locations[0]["range"]["start"], definition)
        refs = self.client.result("textDocument/references", {
            "textDocument": {"uri": self.uri}, "position": use,
            "context": {"includeDeclaration": True}}, TIMEOUT)
        self.assertEqual(len(refs), self.text.count("%tid") - self.text.count("%tid_"))
        highlights = self.client.result("textDocument/documentHighlight",
                                        at(self.uri, use), TIMEOUT)
        self.assertEqual(len(highlights), len(refs))

    def test_rename(self):
        use = position_of(self.text, "%tid", 1, 1)
        prepared = self.client.result("textDocument/prepareRename", at(self.uri, use), TIMEOUT)
        self.assertEqual(prepared["placeholder"], "%tid")
        edit = self.client.result("textDocument/rename", {
            "textDocument": {"uri": self.uri}, "position": use, "newName": "%lane_id"}, TIMEOUT)
        edits = edit["changes"][self.uri]
        self.assertEqual(len(edits), self.text.count("%tid") - self.text.count("%tid_"))
        self.assertTrue(all(e["newText"] == "%lane_id" for e in edits))
        bad = self.client.request("textDocument/rename", {
            "textDocument": {"uri": self.uri}, "position": use, "newName": "not a name"})
        self.assertError(bad, -32803)

    def test_symbols_folding_semantic_tokens(self):
        symbols = self.client.result("textDocument/documentSymbol", doc(self.uri), TIMEOUT)
        self.assertEqual(symbols[0]["name"], "@gemm_f16_double_buffer")
        self.assertTrue(symbols[0]["children"])
        folds = self.client.result("textDocument/foldingRange", doc(self.uri), TIMEOUT)
        self.assertTrue(any(f["endLine"] > f["startLine"] for f in folds))
        tokens = self.client.result("textDocument/semanticTokens/full", doc(self.uri), TIMEOUT)
        self.assertEqual(len(tokens["data"]) % 5, 0)
        self.assertGreater(len(tokens["data"]), 100)

    def test_code_lens(self):
        lenses = self.client.result("textDocument/codeLens", doc(self.uri), TIMEOUT)
        titles = " ".join(l["command"]["title"] for l in lenses)
        self.assertIn("slots", titles)
        self.assertIn("occupancy", titles)

    def test_metrics(self):
        result = self.client.result("waveasm/metrics", doc(self.uri), TIMEOUT)
        self.assertEqual(result["version"], 1)
        self.assertEqual(result["programs"][0]["name"], "gemm_f16_double_buffer")
        for key in ("peak_vgpr", "est_cycles", "occupancy", "waitcnts_inserted", "loops"):
            self.assertIn(key, result["programs"][0])

    def test_assembly(self):
        response = self.client.request("waveasm/assembly", doc(self.uri), TIMEOUT)
        self.assertNotIn("error", response)
        result = response["result"]
        self.assertEqual(result["version"], 1)
        self.assertIn("v_mfma", result["text"])
        self.assertIn(".amdhsa_kernel gemm_f16_double_buffer", result["text"])
        self.assertTrue(result["map"])
        asm_lines = result["text"].split("\n")
        for entry in result["map"]:
            self.assertLess(entry["line"], len(asm_lines))
            self.assertIn("start", entry["range"])

    def test_metrics_and_assembly_on_broken_text(self):
        self.client.change(self.uri, 2, [{"text": BROKEN}])
        self.client.wait_diagnostics(self.uri, 2, timeout=TIMEOUT)
        self.assertError(self.client.request("waveasm/metrics", doc(self.uri)), -32803)
        self.assertError(self.client.request("waveasm/assembly", doc(self.uri)), -32803)

    def test_settings_change_relints(self):
        mark = self.client.mark()
        self.client.notify("workspace/didChangeConfiguration", {"settings": {"waveasm": {
            "lints": {"stall": "off", "pressure": "off", "hazard": "off", "waitcnt": "off",
                      "optimization": "off", "liveThrough": "off", "bankConflict": "off"}}}})
        self.client.wait_event("workspace/inlayHint/refresh", since=mark, timeout=TIMEOUT)
        last = self.client.events_of("textDocument/publishDiagnostics", mark)[-1]
        self.assertEqual(last["diagnostics"], [])


class Background(ServerTest):
    """The pipeline runs in the background: requests are served meanwhile,
    results are versioned, stale ones dropped, progress reported."""

    def test_requests_served_while_pipeline_runs(self):
        client = self.start(options={"progressDelayMs": 0})
        text = generated(10000)
        uri = self.open(client, text, "big.mlir")
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        symbols, answered = client.wait_response(
            client.request_async("textDocument/foldingRange", doc(uri)), TIMEOUT,
            with_time=True)
        self.assertIn("result", symbols)
        _, refreshed = client.wait_event("workspace/inlayHint/refresh", timeout=TIMEOUT,
                                         with_time=True)
        self.assertLess(answered, refreshed)
        # Progress: create, begin, end, in that order.
        create = client.wait_event("window/workDoneProgress/create", timeout=TIMEOUT)
        kinds = [p["value"]["kind"] for p in client.events_of("$/progress")
                 if p["token"] == create["token"]]
        deadline = time.monotonic() + TIMEOUT
        while kinds[-1:] != ["end"] and time.monotonic() < deadline:
            time.sleep(0.02)
            kinds = [p["value"]["kind"] for p in client.events_of("$/progress")
                     if p["token"] == create["token"]]
        self.assertEqual(kinds, ["begin", "end"])

    def test_versions_and_stale_results(self):
        client = self.start()
        text = generated(4000)
        uri = self.open(client, text, "big.mlir")
        # Edits in quick succession: each publish carries its version, and
        # versions never go back (a stale pipeline result is dropped).
        lines = text.split("\n")
        target = next(i for i in range(len(lines) // 2, len(lines))
                      if "waveasm.v_xor_b32" in lines[i])
        column = lines[target].index("v_xor_b32") + 2
        for version, new in ((2, "and"), (3, "xor"), (4, "and")):
            client.change(uri, version, [{"range": {
                "start": {"line": target, "character": column},
                "end": {"line": target, "character": column + 3}}, "text": new}])
        client.wait_diagnostics(uri, 4, timeout=TIMEOUT)
        client.wait_event("workspace/inlayHint/refresh", timeout=TIMEOUT)
        time.sleep(0.3)
        versions = [p["version"] for p in client.events_of("textDocument/publishDiagnostics")]
        self.assertEqual(versions, sorted(versions), versions)
        self.assertEqual(versions[-1], 4)
        metrics = client.result("waveasm/metrics", doc(uri), TIMEOUT)
        self.assertEqual(metrics["version"], 4)

    def test_cancel_request(self):
        client = self.start()
        text = generated(4000)
        uri = self.open(client, text, "big.mlir")
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        # An edit, the request and its cancellation in one write: the
        # request is queued behind background work (the edit's pipeline; an
        # earlier version's finished result cannot answer it) when the
        # cancellation is read.
        change = {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": text + "\n"}]}}
        request = {"jsonrpc": "2.0", "id": 4242, "method": "waveasm/assembly",
                   "params": doc(uri)}
        cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 4242}}
        client.send_raw(LspClient.frame(change) + LspClient.frame(request) +
                        LspClient.frame(cancel))
        self.assertError(client.wait_response(4242, TIMEOUT), -32800)
        # A metrics request waiting for the pipeline, cancelled by a string id.
        client.change(uri, 3, [{"text": text + "\n\n"}])
        request = {"jsonrpc": "2.0", "id": "m1", "method": "waveasm/metrics",
                   "params": doc(uri)}
        cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "m1"}}
        client.send_raw(LspClient.frame(request) + LspClient.frame(cancel))
        self.assertError(client.wait_response("m1", TIMEOUT), -32800)
        # Exactly one answer per request, and the server still works.
        time.sleep(0.5)
        self.assertEqual(client.responses.get(json.dumps(4242)), [])
        self.assertEqual(client.responses.get(json.dumps("m1")), [])
        self.assertEqual(client.result("waveasm/metrics", doc(uri), TIMEOUT)["version"], 3)

    def test_assembly_reuses_the_pipeline_result(self):
        # Once the background pipeline has compiled this text, waveasm/assembly
        # answers from its result instead of compiling again; the answer is
        # the one a compile on request gives.
        with tempfile.TemporaryFile(mode="w+") as log:
            client = LspClient([LSP, "--log=info"], stderr=log)
            self.addCleanup(client.close)
            client.initialize(EDITOR)
            text = generated(500)
            uri = self.open(client, text, "asm.mlir")
            early = client.result("waveasm/assembly", doc(uri), TIMEOUT)
            client.wait_event("workspace/inlayHint/refresh", timeout=TIMEOUT)
            reused = client.result("waveasm/assembly", doc(uri), TIMEOUT)
            client.close()
            log.seek(0)
            lines = log.read()
        self.assertEqual(reused, early)
        self.assertIn("asm.mlir v1 from the background pipeline", lines)

    def test_client_without_refresh_waits_for_pipeline(self):
        client = self.start(capabilities={})
        text = generated(2000)
        uri = self.open(client, text, "big.mlir")
        hints = client.result("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 100, "character": 0},
                      "end": {"line": 120, "character": 0}}}, TIMEOUT)
        # With the pipeline's results: latencies, not only tags.
        self.assertTrue(any(h["label"].startswith("lat") for h in hints), hints[:3])
        self.assertEqual(client.server_requests, [])


class Check(unittest.TestCase):
    def run_check(self, *args):
        proc = subprocess.run([LSP, "check"] + list(args), capture_output=True,
                              text=True, timeout=120)
        return proc.returncode, proc.stdout, proc.stderr

    def broken_file(self):
        fd, path = tempfile.mkstemp(suffix=".mlir", prefix="lsp-check-")
        with os.fdopen(fd, "w") as f:
            f.write(BROKEN)
        self.addCleanup(os.unlink, path)
        return path

    def test_clean_text(self):
        code, out, err = self.run_check(EXAMPLE)
        self.assertEqual(code, 0, err)
        self.assertIn("0 error(s)", out)
        # The metrics and instruction tables.
        self.assertIn(": metrics", out)
        self.assertIn(": instructions", out)
        self.assertRegex(out, r"v_mfma_f32_16x16x16_f16\s+MFMA")

    def test_broken_text(self):
        path = self.broken_file()
        code, out, _ = self.run_check(path)
        self.assertEqual(code, 1)
        self.assertIn("%s:4:8: error: %s" % (path, BROKEN_MESSAGE), out)
        self.assertRegex(out, r"(?m)^\S+:\d+:\d+: (error|warning|info|hint): .+")

    def test_json(self):
        path = self.broken_file()
        code, out, _ = self.run_check("--format", "json", path, EXAMPLE)
        self.assertEqual(code, 1)
        report = json.loads(out)
        first = report["files"][0]["diagnostics"][0]
        self.assertEqual((first["line"], first["column"], first["severity"]), (4, 8, "error"))
        self.assertEqual(first["message"], BROKEN_MESSAGE)
        self.assertEqual(report["files"][1]["metrics"]["programs"][0]["name"],
                         "gemm_f16_double_buffer")
        self.assertEqual(report["summary"]["errors"], 1)

    def test_sarif(self):
        path = self.broken_file()
        code, out, _ = self.run_check("--format=sarif", path, EXAMPLE)
        self.assertEqual(code, 1)
        sarif = json.loads(out)
        self.assertEqual(sarif["version"], "2.1.0")
        self.assertIn("sarif", sarif["$schema"])
        run = sarif["runs"][0]
        driver = run["tool"]["driver"]
        self.assertEqual(driver["name"], "waveasm-lsp")
        rule_ids = [r["id"] for r in driver["rules"]]
        self.assertIn("verifier", rule_ids)
        self.assertTrue(run["results"])
        for result in run["results"]:
            self.assertIn(result["ruleId"], rule_ids)
            self.assertEqual(rule_ids[result["ruleIndex"]], result["ruleId"])
            self.assertIn(result["level"], ("error", "warning", "note"))
            self.assertTrue(result["message"]["text"])
            location = result["locations"][0]["physicalLocation"]
            self.assertTrue(location["artifactLocation"]["uri"].startswith("file://"))
            self.assertGreaterEqual(location["region"]["startLine"], 1)
            self.assertGreaterEqual(location["region"]["startColumn"], 1)
        first = run["results"][0]
        self.assertEqual((first["ruleId"], first["level"]), ("verifier", "error"))
        self.assertEqual(first["locations"][0]["physicalLocation"]["region"]["startLine"], 4)

    def test_thresholds(self):
        code, out, _ = self.run_check("--max-vgpr", "8", EXAMPLE)
        self.assertEqual(code, 1)
        self.assertIn("[max-vgpr]", out)
        code, _, _ = self.run_check("--max-vgpr", "512", EXAMPLE)
        self.assertEqual(code, 0)
        # The example has info-level lints only: failing on warnings still
        # passes, and a warning-level lint makes it fail.
        code, _, _ = self.run_check("--fail-on", "warning", EXAMPLE)
        self.assertEqual(code, 0)
        fd, settings = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump({"lints": {"waitcnt": "warning"}}, f)
        self.addCleanup(os.unlink, settings)
        code, out, _ = self.run_check("--fail-on", "warning", "--settings", settings, EXAMPLE)
        self.assertEqual(code, 1, out)
        self.assertIn("warning:", out)

    def test_usage_and_io_errors(self):
        self.assertEqual(self.run_check("/nonexistent/file.mlir")[0], 2)
        self.assertEqual(self.run_check("--bogus", EXAMPLE)[0], 2)
        self.assertEqual(self.run_check("--format", "xml", EXAMPLE)[0], 2)
        self.assertEqual(self.run_check("--fail-on", "never", EXAMPLE)[0], 2)
        self.assertEqual(self.run_check()[0], 2)
        code, out, _ = self.run_check("--help")
        self.assertEqual(code, 0)
        self.assertIn("usage", out)
        proc = subprocess.run([LSP, "--log=loud"], capture_output=True, timeout=30)
        self.assertEqual(proc.returncode, 2)


if __name__ == "__main__":
    unittest.main()
