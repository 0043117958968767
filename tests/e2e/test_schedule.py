#!/usr/bin/env python3
"""End-to-end tests of the Conductor in the language server: code actions,
waveasm.scheduleLoop (built-in and LLM) and waveasm.showMetrics.

Run: python3 tests/e2e/test_schedule.py [-v] [TestClass...]
The server is $WAVEASM_LSP (else build/bin/waveasm-lsp), waveasm-opt is
$WAVEASM_OPT (else build/bin/waveasm-opt). LLM tests talk to
tests/fake_llm/fake_llm_server.py on 127.0.0.1 only.
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

from lsp_client import LspClient, LspError, apply_edits, offset_of, position_of  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tests", "fake_llm"))
from fake_llm_process import FakeLLMProcess  # noqa: E402

LSP = os.environ.get("WAVEASM_LSP", os.path.join(ROOT, "build", "bin", "waveasm-lsp"))
OPT = os.environ.get("WAVEASM_OPT", os.path.join(ROOT, "build", "bin", "waveasm-opt"))
EXAMPLE = os.path.join(ROOT, "examples", "gemm_f16_double_buffer.mlir")
TIMEOUT = 60.0
KEY_ENV = "WAVEASM_E2E_SERVER_LLM_KEY"
KEY = "sk-server-e2e-SECRET-777"

EDITOR = {
    "window": {"workDoneProgress": True},
    "workspace": {"applyEdit": True,
                  "workspaceEdit": {"documentChanges": True},
                  "inlayHint": {"refreshSupport": True},
                  "codeLens": {"refreshSupport": True}},
    "textDocument": {"publishDiagnostics": {"versionSupport": True}},
}

TITLE = re.compile(r"^Move I\d+ (before|after) I\d+: [+-]?\d+ issue slots, VGPR [+-]\d+$")
BODY_START = "// (1) prefetch"
BODY_END = "waveasm.condition"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def edits_of(workspace_edit, uri, version=None):
    """The edits for `uri`; with documentChanges, checks the version."""
    edits = []
    for doc in workspace_edit.get("documentChanges", []):
        assert doc["textDocument"]["uri"] == uri
        if version is not None:
            assert doc["textDocument"]["version"] == version, doc["textDocument"]
        edits += doc["edits"]
    edits += workspace_edit.get("changes", {}).get(uri, [])
    return edits


def body_lines(text):
    start = text.index(BODY_START)
    end = text.index(BODY_END, start)
    return sorted(text[start:end].split("\n"))


def opt_ok(testcase, text):
    """waveasm-opt parses and verifies `text`."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        run = subprocess.run([OPT, path, "-o", os.devnull], capture_output=True, text=True,
                             timeout=60)
    finally:
        os.unlink(path)
    testcase.assertEqual(run.returncode, 0, run.stderr)


def FakeLLM(script):
    return FakeLLMProcess(script, KEY_ENV, KEY)


class ScheduleTest(unittest.TestCase):
    def start(self, options=None, capabilities=None, key=KEY):
        env = dict(os.environ, no_proxy="127.0.0.1,localhost", NO_PROXY="127.0.0.1,localhost")
        env.pop(KEY_ENV, None)
        if key is not None:
            env[KEY_ENV] = key
        # The Conductor cache of this test only (never the user's).
        if not hasattr(self, "cache_home"):
            cache = tempfile.TemporaryDirectory()
            self.addCleanup(cache.cleanup)
            self.cache_home = cache.name
        env["XDG_CACHE_HOME"] = self.cache_home
        self.stderr = tempfile.TemporaryFile()
        self.addCleanup(self.stderr.close)
        client = LspClient([LSP, "--log=verbose"], stderr=self.stderr, env=env)
        self.addCleanup(client.close)
        client.initialize(EDITOR if capabilities is None else capabilities, options)
        self.text = read(EXAMPLE)
        self.uri = "file:///tmp/waveasm-e2e/schedule.mlir"
        client.open(self.uri, self.text, 1)
        client.wait_diagnostics(self.uri, 1, timeout=TIMEOUT)
        return client

    def server_log(self):
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def code_actions(self, client, pos):
        return client.result("textDocument/codeAction", {
            "textDocument": {"uri": self.uri},
            "range": {"start": pos, "end": pos},
            "context": {"diagnostics": []}}, TIMEOUT)

    def schedule_async(self, client, pos, strategy):
        return client.request_async("workspace/executeCommand", {
            "command": "waveasm.scheduleLoop",
            "arguments": [{"uri": self.uri, "position": pos, "strategy": strategy}]})

    def assertBetter(self, before, after):
        """The server's order for schedules: occupancy, then est_cycles (of
        the loop), then peak VGPRs. The example's loop is bound by its memory
        chain, so a schedule mostly keeps its cycles and frees VGPRs."""
        key = lambda m: (-m["occupancy"], m["est_cycles_per_iter"], m["peak_vgpr"])
        self.assertLessEqual(after["est_cycles_per_iter"], before["est_cycles_per_iter"])
        self.assertLess(key(after), key(before), (before, after))

    def improving_move(self, client):
        """A measured single-move code action in the loop body."""
        start = self.text.index(BODY_START)
        for line_no, line in enumerate(self.text.split("\n")):
            if offset_of(self.text, {"line": line_no, "character": 0}) < start:
                continue
            if BODY_END in line:
                break
            if not re.match(r"\s*(%|waveasm\.)", line):
                continue
            pos = {"line": line_no, "character": len(line) - len(line.lstrip()) + 1}
            moves = [a for a in self.code_actions(client, pos)
                     if "edit" in a and a["title"].startswith("Move ")]
            if moves:
                return pos, moves
        self.fail("no single-move code action in the loop body")


class CodeActions(ScheduleTest):
    def test_apply_loop_optimizations(self):
        # Seed 001's kernel: the production pipeline takes the scale
        # repacking and the address arithmetic out of its loop; the action
        # writes that IR, which re-parses, and the loop shows what changed.
        client = self.start()
        text = read(os.path.join(ROOT, "examples", "mxfp4_preshuffle_gemm_loop.mlir"))
        uri = "file:///tmp/waveasm-e2e/seed001.mlir"
        client.open(uri, text, 1)
        client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        # Lenses come with the background pipeline's result (the editor is
        # told to refresh them): ask until they are there.
        deadline = time.time() + TIMEOUT
        while True:
            lenses = client.result("textDocument/codeLens", {"textDocument": {"uri": uri}},
                                   TIMEOUT)
            titles = [l["command"]["title"] for l in lenses]
            if titles or time.time() > deadline:
                break
            time.sleep(0.2)
        self.assertTrue(any(t.startswith("optimizations: ") and "scale packs -14 VALU" in t
                            for t in titles), titles)
        pos = position_of(text, "waveasm.loop", 0, 2)
        actions = client.result("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
            "context": {"diagnostics": []}}, TIMEOUT)
        apply = [a for a in actions if a["title"].startswith("Apply loop optimizations: ")]
        self.assertEqual(len(apply), 1, [a["title"] for a in actions])
        self.assertRegex(apply[0]["title"], r"est_cycles \d+ -> \d+, peak VGPR \d+ -> \d+")
        optimized = apply_edits(text, edits_of(apply[0]["edit"], uri, 1))
        self.assertNotEqual(optimized, text)
        self.assertNotIn("waveasm.v_lshl_or_b32",
                         optimized[optimized.index("waveasm.loop"):])
        opt_ok(self, optimized)

    def test_capabilities(self):
        client = LspClient([LSP])
        self.addCleanup(client.close)
        caps = client.initialize(EDITOR)["capabilities"]
        self.assertIn("refactor.rewrite", caps["codeActionProvider"]["codeActionKinds"])
        commands = caps["executeCommandProvider"]["commands"]
        self.assertIn("waveasm.scheduleLoop", commands)
        self.assertIn("waveasm.showMetrics", commands)

    def test_single_moves_and_schedule_actions(self):
        client = self.start()
        pos, moves = self.improving_move(client)
        actions = self.code_actions(client, pos)
        titles = [a["title"] for a in actions]
        self.assertIn("Schedule this loop (built-in)", titles)
        self.assertIn("Ask LLM to schedule this loop", titles)
        builtin = next(a for a in actions if a["title"] == "Schedule this loop (built-in)")
        self.assertEqual(builtin["command"]["command"], "waveasm.scheduleLoop")
        self.assertEqual(builtin["command"]["arguments"][0]["strategy"], "builtin")
        self.assertLessEqual(len(moves), 3)
        for action in moves:
            self.assertRegex(action["title"], TITLE)
            self.assertEqual(action["kind"], "refactor.rewrite")
            moved = apply_edits(self.text, edits_of(action["edit"], self.uri, 1))
            self.assertNotEqual(moved, self.text)
            # Same ops (same lines, names, comments) in another order; the
            # text outside the loop body untouched; it re-parses and verifies.
            self.assertEqual(body_lines(moved), body_lines(self.text))
            self.assertEqual(moved[:moved.index(BODY_START)],
                             self.text[:self.text.index(BODY_START)])
            opt_ok(self, moved)
        # Applying one: the server re-parses it cleanly.
        moved = apply_edits(self.text, edits_of(moves[0]["edit"], self.uri, 1))
        mark = client.mark()
        client.change(self.uri, 2, [{"text": moved}])
        diags = client.wait_diagnostics(self.uri, 2, since=mark, timeout=TIMEOUT)
        self.assertEqual([d for d in diags["diagnostics"] if d["severity"] == 1], [])

    def test_only_filter_and_outside_programs(self):
        client = self.start()
        none = client.result("textDocument/codeAction", {
            "textDocument": {"uri": self.uri},
            "range": {"start": {"line": 40, "character": 4}, "end": {"line": 40, "character": 4}},
            "context": {"diagnostics": [], "only": ["quickfix"]}}, TIMEOUT)
        self.assertEqual(none, [])
        self.assertEqual(self.code_actions(client, {"line": 0, "character": 0}), [])

    def test_stale_code_actions_are_dropped(self):
        client = self.start()
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        request = client.request_async("textDocument/codeAction", {
            "textDocument": {"uri": self.uri}, "range": {"start": pos, "end": pos},
            "context": {"diagnostics": []}})
        # An edit right behind the request: its edits would name old lines.
        client.change(self.uri, 2, [{"range": {"start": {"line": 0, "character": 0},
                                               "end": {"line": 0, "character": 0}},
                                     "text": "// edited\n"}])
        response = client.wait_response(request, TIMEOUT)
        if "error" in response:
            self.assertEqual(response["error"]["code"], -32801)  # ContentModified
        else:
            # Answered before the edit arrived: then about version 1 only.
            for action in response["result"]:
                for doc in action.get("edit", {}).get("documentChanges", []):
                    self.assertEqual(doc["textDocument"]["version"], 1)

    def test_show_metrics_command(self):
        client = self.start()
        result = client.result("workspace/executeCommand", {
            "command": "waveasm.showMetrics", "arguments": [{"uri": self.uri}]}, TIMEOUT)
        self.assertEqual(result["version"], 1)
        self.assertIn("est_cycles_per_iter", result["programs"][0]["loops"][0])
        bad = client.request("workspace/executeCommand", {
            "command": "waveasm.nope", "arguments": []}, TIMEOUT)
        self.assertEqual(bad["error"]["code"], -32602)


class ScheduleBuiltin(ScheduleTest):
    def test_schedule_loop_applies_a_better_schedule(self):
        client = self.start()
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        mark = client.mark()
        request = self.schedule_async(client, pos, "builtin")
        apply = client.wait_event("workspace/applyEdit", since=mark, timeout=TIMEOUT)
        result = client.wait_response(request, TIMEOUT)["result"]
        self.assertTrue(result["applied"], result)
        self.assertRegex(apply["label"], r"est_cycles/iter \d+ -> \d+, peak VGPR \d+ -> \d+")
        self.assertIn(result["summary"], apply["label"])
        self.assertBetter(result["before"], result["after"])
        after = result["after"]["est_cycles_per_iter"]
        self.assertGreater(len(result["moves"]), 0)
        self.assertNotIn("changeAnnotations", apply["edit"])
        scheduled = apply_edits(self.text, edits_of(apply["edit"], self.uri, 1))
        self.assertEqual(body_lines(scheduled), body_lines(self.text))
        opt_ok(self, scheduled)
        # The editor applies it; the server measures what it promised.
        client.change(self.uri, 2, [{"text": scheduled}])
        metrics = client.result("waveasm/metrics", {"textDocument": {"uri": self.uri}}, TIMEOUT)
        self.assertEqual(metrics["version"], 2)
        self.assertEqual(metrics["programs"][0]["loops"][0]["est_cycles_per_iter"], after)

    def test_refused_edit_and_client_without_apply_edit(self):
        client = self.start()
        client.apply_edit_result = {"applied": False, "failureReason": "user said no"}
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        result = client.result("workspace/executeCommand", {
            "command": "waveasm.scheduleLoop",
            "arguments": [{"uri": self.uri, "position": pos, "strategy": "builtin"}]}, TIMEOUT)
        self.assertFalse(result["applied"])
        self.assertIn("user said no", result["error"])

        plain = self.start(capabilities={})
        result = plain.result("workspace/executeCommand", {
            "command": "waveasm.scheduleLoop",
            "arguments": [{"uri": self.uri, "position": pos, "strategy": "builtin"}]}, TIMEOUT)
        self.assertFalse(result["applied"])
        self.assertEqual(plain.events_of("workspace/applyEdit"), [])
        # The edit comes back in the answer, unversioned.
        scheduled = apply_edits(self.text, result["edit"]["changes"][self.uri])
        self.assertEqual(body_lines(scheduled), body_lines(self.text))

    def test_bad_arguments(self):
        client = self.start()
        for args in ([], [{"uri": self.uri}],
                     [{"uri": self.uri, "position": {"line": 120, "character": 4},
                       "strategy": "magic"}]):
            response = client.request("workspace/executeCommand", {
                "command": "waveasm.scheduleLoop", "arguments": args}, TIMEOUT)
            self.assertEqual(response["error"]["code"], -32602, response)
        response = client.request("workspace/executeCommand", {
            "command": "waveasm.scheduleLoop",
            "arguments": [{"uri": "file:///not/open.mlir",
                           "position": {"line": 1, "character": 1}, "strategy": "builtin"}]},
            TIMEOUT)
        self.assertIn("error", response)


class ScheduleLLM(ScheduleTest):
    def setUp(self):
        self.fakes = []

    def tearDown(self):
        for fake in self.fakes:
            fake.stop()

    def fake(self, script):
        fake = FakeLLM(script)
        self.fakes.append(fake)
        return fake

    def options(self, fake, rounds=2):
        return {"llm": {"provider": "openai", "model": "fake-model", "baseUrl": fake.url(),
                        "apiKeyEnv": KEY_ENV, "rounds": rounds}}

    def progress_of(self, client, since):
        return [p for p in client.events_of("$/progress", since)
                if p["token"].startswith("waveasm/schedule/")]

    def test_llm_schedule_with_progress_ends_in_an_edit(self):
        # The fake model answers with a move the server measures as better.
        probe = self.start()
        pos, moves = self.improving_move(probe)
        command = moves[0]["title"].split(":")[0].replace("Move", "move", 1)
        fake = self.fake({"replies": [{"text": "Sure:\n```\n%s\n```" % command},
                                      {"text": "done"}]})
        # An editor that can ask the user to accept annotated edits.
        caps = json.loads(json.dumps(EDITOR))
        caps["workspace"]["workspaceEdit"]["changeAnnotationSupport"] = {}
        client = self.start(self.options(fake), capabilities=caps)
        mark = client.mark()
        request = self.schedule_async(client, pos, "llm")
        apply = client.wait_event("workspace/applyEdit", since=mark, timeout=TIMEOUT)
        result = client.wait_response(request, TIMEOUT)["result"]
        self.assertTrue(result["applied"], result)
        self.assertEqual(result["moves"], [command])
        self.assertRegex(apply["label"], r"^Ask LLM to schedule: est_cycles/iter \d+ -> \d+")
        self.assertBetter(result["before"], result["after"])
        scheduled = apply_edits(self.text, edits_of(apply["edit"], self.uri, 1))
        self.assertEqual(scheduled, apply_edits(self.text, edits_of(moves[0]["edit"], self.uri)))
        # The user accepts it seeing the metric diff and the moves.
        annotation = apply["edit"]["changeAnnotations"]["waveasm.schedule"]
        self.assertTrue(annotation["needsConfirmation"])
        self.assertIn(result["summary"], annotation["label"])
        self.assertEqual(annotation["description"], command)
        for edit in edits_of(apply["edit"], self.uri):
            self.assertEqual(edit["annotationId"], "waveasm.schedule")
        opt_ok(self, scheduled)
        # $/progress: begin (cancellable), a report per round, end.
        progress = self.progress_of(client, mark)
        kinds = [p["value"]["kind"] for p in progress]
        self.assertEqual(kinds[0], "begin", kinds)
        self.assertTrue(progress[0]["value"]["cancellable"])
        self.assertIn("report", kinds)
        self.assertEqual(kinds[-1], "end")
        # The model got the tagged loop body, the key in the header only.
        requests = fake.requests()
        self.assertEqual(len(requests), 2)
        self.assertTrue(all(r["auth_ok"] for r in requests))
        prompt = requests[0]["body"]["messages"][-1]["content"]
        self.assertIn('loc("I0")', prompt)
        self.assertNotIn(KEY, self.server_log())

    def test_cache_hit_replays_with_no_llm_call(self):
        probe = self.start()
        pos, moves = self.improving_move(probe)
        command = moves[0]["title"].split(":")[0].replace("Move", "move", 1)
        first = self.fake({"replies": [{"text": command}, {"text": "done"}]})
        client = self.start(self.options(first))
        mark = client.mark()
        result = client.wait_response(self.schedule_async(client, pos, "llm"),
                                      TIMEOUT)["result"]
        applied = client.wait_event("workspace/applyEdit", since=mark, timeout=TIMEOUT)
        self.assertTrue(result["applied"], result)
        self.assertEqual(len(first.requests()), 2)
        # A new server, the same text: the cached moves are replayed.
        second = self.fake({"replies": [{"text": "done"}]})
        client = self.start(self.options(second))
        mark = client.mark()
        again = client.wait_response(self.schedule_async(client, pos, "llm"),
                                     TIMEOUT)["result"]
        replayed = client.wait_event("workspace/applyEdit", since=mark, timeout=TIMEOUT)
        self.assertTrue(again["applied"], again)
        self.assertEqual(again["moves"], [command])
        self.assertEqual(again["after"], result["after"])
        self.assertEqual(second.requests(), [])
        self.assertIn("cache hit from openai:fake-model", self.server_log())
        self.assertIn("(cached from openai:fake-model)", replayed["label"])
        self.assertEqual(edits_of(replayed["edit"], self.uri), edits_of(applied["edit"], self.uri))
        # llm.cacheSameSource bypasses another model's entry: the new model
        # is asked.
        third = self.fake({"replies": [{"text": "done"}]})
        options = self.options(third)
        options["llm"]["model"] = "other-model"
        options["llm"]["cacheSameSource"] = True
        client = self.start(options)
        client.wait_response(self.schedule_async(client, pos, "llm"), TIMEOUT)
        self.assertEqual(len(third.requests()), 1)
        self.assertIn("cache entry found by openai:fake-model bypassed", self.server_log())

    def test_no_better_schedule_is_cached(self):
        first = self.fake({"replies": [{"text": "done"}]})
        client = self.start(self.options(first))
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        result = client.wait_response(self.schedule_async(client, pos, "llm"),
                                      TIMEOUT)["result"]
        self.assertFalse(result["applied"], result)
        self.assertEqual(len(first.requests()), 1)
        second = self.fake({"replies": [{"text": "done"}]})
        client = self.start(self.options(second))
        again = client.wait_response(self.schedule_async(client, pos, "llm"),
                                     TIMEOUT)["result"]
        self.assertFalse(again["applied"], again)
        self.assertEqual(second.requests(), [])
        self.assertIn("no better schedule was found before, no LLM call", self.server_log())

    def test_cancel_leaves_the_document_untouched(self):
        fake = self.fake({"default": {"hang": True}})
        client = self.start(self.options(fake))
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        mark = client.mark()
        request = self.schedule_async(client, pos, "llm")
        client.wait_event("$/progress", lambda p: p["value"]["kind"] == "begin",
                          since=mark, timeout=TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        while not fake.requests() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(len(fake.requests()), 1)
        client.notify("$/cancelRequest", {"id": request})
        response = client.wait_response(request, TIMEOUT)
        self.assertEqual(response["error"]["code"], -32800)  # RequestCancelled
        client.wait_event("$/progress", lambda p: p["value"]["kind"] == "end",
                          since=mark, timeout=TIMEOUT)
        time.sleep(0.3)
        self.assertEqual(client.events_of("workspace/applyEdit", mark), [])
        # Still served, and the server did not edit anything.
        metrics = client.result("waveasm/metrics", {"textDocument": {"uri": self.uri}}, TIMEOUT)
        self.assertEqual(metrics["version"], 1)

    def test_progress_cancel_button(self):
        fake = self.fake({"default": {"hang": True}})
        client = self.start(self.options(fake))
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        mark = client.mark()
        request = self.schedule_async(client, pos, "llm")
        begin = client.wait_event("$/progress", lambda p: p["value"]["kind"] == "begin",
                                  since=mark, timeout=TIMEOUT)
        client.notify("window/workDoneProgress/cancel", {"token": begin["token"]})
        response = client.wait_response(request, TIMEOUT)
        self.assertEqual(response["error"]["code"], -32800)
        self.assertEqual(client.events_of("workspace/applyEdit", mark), [])

    def test_401_shows_a_message_and_no_edit(self):
        fake = self.fake({"default": {"status": 401}})
        client = self.start(self.options(fake), key="sk-wrong-key-123")
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        mark = client.mark()
        result = client.wait_response(self.schedule_async(client, pos, "llm"),
                                      TIMEOUT)["result"]
        self.assertFalse(result["applied"])
        self.assertIn("401", result["error"])
        message = client.wait_event("window/showMessage", lambda p: p["type"] == 1,
                                    since=mark, timeout=TIMEOUT)
        self.assertIn("401", message["message"])
        self.assertIn(KEY_ENV, message["message"])
        self.assertNotIn("sk-wrong-key-123", message["message"])
        self.assertNotIn("sk-wrong-key-123", self.server_log())
        self.assertEqual(client.events_of("workspace/applyEdit", mark), [])
        self.assertEqual(len(fake.requests()), 1)  # no retry on 401

    def test_timeout_shows_a_message_and_no_edit(self):
        fake = self.fake({"default": {"hang": True}})
        options = self.options(fake)
        options["llm"].update({"timeoutMs": 300, "maxRetries": 0})
        client = self.start(options)
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        mark = client.mark()
        result = client.wait_response(self.schedule_async(client, pos, "llm"),
                                      TIMEOUT)["result"]
        self.assertFalse(result["applied"])
        self.assertIn("timed out", result["error"])
        message = client.wait_event("window/showMessage", lambda p: p["type"] == 1,
                                    since=mark, timeout=TIMEOUT)
        self.assertIn("timed out after 300 ms", message["message"])
        self.assertEqual(client.events_of("workspace/applyEdit", mark), [])
        client.wait_event("$/progress", lambda p: p["value"]["kind"] == "end",
                          since=mark, timeout=TIMEOUT)

    def test_no_provider_configured(self):
        client = self.start()
        pos = position_of(self.text, "%n00 = waveasm", 0, 2)
        mark = client.mark()
        response = client.wait_response(self.schedule_async(client, pos, "llm"), TIMEOUT)
        self.assertIn("error", response)
        message = client.wait_event("window/showMessage", since=mark, timeout=TIMEOUT)
        self.assertIn("llm.provider", message["message"])

    def test_stale_version_gets_no_edit(self):
        probe = self.start()
        pos, moves = self.improving_move(probe)
        command = moves[0]["title"].split(":")[0].replace("Move", "move", 1)
        fake = self.fake({"default": {"text": command + "\ndone", "delay": 1.0}})
        client = self.start(self.options(fake, rounds=1))
        mark = client.mark()
        request = self.schedule_async(client, pos, "llm")
        deadline = time.monotonic() + TIMEOUT
        while not fake.requests() and time.monotonic() < deadline:
            time.sleep(0.05)
        # The user types while the model thinks.
        client.change(self.uri, 2, [{"range": {"start": {"line": 0, "character": 0},
                                               "end": {"line": 0, "character": 0}},
                                     "text": "// typing\n"}])
        result = client.wait_response(request, TIMEOUT)["result"]
        self.assertFalse(result["applied"])
        self.assertIn("stale", result["error"])
        self.assertEqual(client.events_of("workspace/applyEdit", mark), [])
        message = client.wait_event("window/showMessage", lambda p: p["type"] == 2,
                                    since=mark, timeout=TIMEOUT)
        self.assertIn("changed", message["message"])


if __name__ == "__main__":
    unittest.main()
