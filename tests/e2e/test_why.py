#!/usr/bin/env python3
"""End-to-end tests of the "why" requests: waveasm/pipelineSnapshots,
waveasm/liveAt, the peak hover, waveasm.showLivePeak and the liveThrough
lint, over stdio as an editor drives them.

Run: python3 tests/e2e/test_why.py [-v] [TestClass...]
$WAVEASM_LSP and $WAVEASM_OPT name the binaries (else build/bin/). The
snapshots are checked against waveasm-opt's own --mlir-print-ir-after-all
of the same pipeline: same passes, same order, same text.
"""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from lsp_client import position_of  # noqa: E402
from test_lsp import BROKEN, EXAMPLE, TIMEOUT, ServerTest, at, doc, read  # noqa: E402

OPT = os.environ.get("WAVEASM_OPT", os.path.join(ROOT, "build", "bin", "waveasm-opt"))

HEADER = ("waveasm.program @live target = #waveasm.target<#waveasm.gfx942> "
          "abi = #waveasm.abi<tid = 0> {\n")

# %keep is defined before the loop and used only after it: live through the
# whole body without a use there (the liveThrough lint). USED_IN_LOOP is the
# same kernel with %keep read inside the loop (no lint).
LOOP = HEADER + """  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %keep = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x0 = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end, %x_end = waveasm.loop (%i = %i0, %x = %x0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %a = waveasm.v_add_u32 %x, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %b = waveasm.v_add_u32 %a, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %c = waveasm.v_add_u32 %b, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %x_n = waveasm.v_add_u32 %c, %b : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n#0, %x_n) : !waveasm.sreg, !waveasm.vreg
  }
  %r = waveasm.v_add_u32 %keep, %x_end : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}
"""
USED_IN_LOOP = LOOP.replace(
    "%c = waveasm.v_add_u32 %b, %a : !waveasm.vreg, !waveasm.vreg",
    "%c = waveasm.v_add_u32 %b, %keep : !waveasm.vreg, !waveasm.vreg")
assert USED_IN_LOOP != LOOP


def overflow_kernel(n=260):
    """n VGPRs live at once: allocation (max 256) fails."""
    lines = [HEADER.rstrip("\n"), "  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>"]
    prev, prev_type = "%tid", "!waveasm.pvreg<0>"
    for i in range(1, n + 1):
        lines.append("  %%v%d = waveasm.v_add_u32 %s, %%tid : %s, !waveasm.pvreg<0> -> !waveasm.vreg"
                     % (i, prev, prev_type))
        prev, prev_type = "%%v%d" % i, "!waveasm.vreg"
    acc = "%%v%d" % n
    for i in range(n - 1, 0, -1):
        lines.append("  %%s%d = waveasm.v_add_u32 %s, %%v%d : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg"
                     % (i, acc, i))
        acc = "%%s%d" % i
    lines += ["  %p = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>",
              "  waveasm.global_store_dword %s, %%p, %%tid : !waveasm.vreg, "
              "!waveasm.psreg<0, 2>, !waveasm.pvreg<0>" % acc,
              "  waveasm.s_endpgm", "}", ""]
    return "\n".join(lines)


def dedent_module(text):
    """A module dump's programs as printed alone: `module {` and `}` dropped,
    two spaces of indentation removed."""
    lines = text.strip("\n").split("\n")
    if lines and lines[0].startswith("module"):
        lines = [l[2:] if l.startswith("  ") else l for l in lines[1:-1]]
    return "\n".join(lines).strip("\n")


def print_ir_after_all(path):
    """waveasm-opt's --waveasm-pipeline dumps: [(pass flag, program text)],
    the first entry the input as waveasm-opt prints it."""
    out = subprocess.run([OPT, path], check=True, capture_output=True, text=True).stdout
    dumps = [("input", dedent_module(out))]
    proc = subprocess.run(
        [OPT, path, "--waveasm-pipeline", "--mlir-print-ir-after-all",
         "--mlir-disable-threading", "-o", os.devnull],
        check=True, capture_output=True, text=True)
    parts = re.split(r"^// -----// IR Dump After \S+ \((\S+)\) //----- //\n",
                     proc.stderr, flags=re.M)
    for flag, body in zip(parts[1::2], parts[2::2]):
        dumps.append((flag, dedent_module(body)))
    return dumps


def snapshot_texts(snapshots):
    """Each snapshot's text, unchanged ones carrying the previous text."""
    texts, last = [], None
    for s in snapshots:
        if "text" in s:
            last = s["text"]
        texts.append(last)
    return texts


class PipelineSnapshots(ServerTest):
    def setUp(self):
        self.client = self.start()

    def snapshots(self, uri):
        return self.client.result("waveasm/pipelineSnapshots", doc(uri), TIMEOUT)

    def check_against_opt(self, text, name):
        path = os.path.join(self.tmp(), name)
        with open(path, "w") as f:
            f.write(text)
        dumps = print_ir_after_all(path)
        uri = self.open(self.client, text, name)
        result = self.snapshots(uri)
        self.assertFalse(result["stale"])
        snapshots = result["snapshots"]
        # One snapshot per pass of the pipeline, plus the input.
        self.assertEqual(len(snapshots), len(dumps))
        self.assertEqual([s["pass"] for s in snapshots], [d[0] for d in dumps])
        texts = snapshot_texts(snapshots)
        for i, (s, (flag, dump)) in enumerate(zip(snapshots, dumps)):
            self.assertEqual(texts[i].strip("\n"), dump, "snapshot %d (%s)" % (i, flag))
            if i:
                # changed exactly where the program's text differs.
                self.assertEqual(s["changed"], dump != dumps[i - 1][1], flag)
                self.assertEqual("text" in s, s["changed"], flag)
            for key in ("instructions", "peak_vgpr", "peak_sgpr", "peak_agpr", "est_cycles"):
                self.assertIsInstance(s["metrics"][key], int)
        return uri, snapshots

    def tmp(self):
        import tempfile
        d = tempfile.mkdtemp(prefix="why-e2e-")
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", d]))
        return d

    def test_example_matches_print_ir_after_all(self):
        uri, snapshots = self.check_against_opt(read(EXAMPLE), "gemm.mlir")
        self.assertTrue(snapshots[0]["changed"])
        self.assertEqual(snapshots[0]["pass"], "input")
        # Both kinds occur on the GEMM example: passes that change nothing
        # (no text sent) and passes that do.
        changed = [s["changed"] for s in snapshots[1:]]
        self.assertIn(True, changed)
        self.assertIn(False, changed)
        # The last snapshot is what the background compile measures.
        metrics = self.client.result("waveasm/metrics", doc(uri), TIMEOUT)["programs"][0]
        last = snapshots[-1]["metrics"]
        for key in ("peak_vgpr", "peak_sgpr", "peak_agpr", "est_cycles"):
            self.assertEqual(last[key], metrics[key], key)
        self.assertEqual(last["instructions"], metrics["total_instructions"])
        # Allocation rewrote every register: physical types from there on.
        alloc = [s["pass"] for s in snapshots].index("waveasm-linear-scan")
        self.assertIn("!waveasm.pvreg", snapshot_texts(snapshots)[alloc])
        self.assertNotIn("!waveasm.vreg", snapshot_texts(snapshots)[alloc])

    def test_texts_on_demand(self):
        uri = self.open(self.client, read(EXAMPLE), "demand.mlir")
        full = self.snapshots(uri)
        self.assertFalse(full["textOnDemand"])
        texts = snapshot_texts(full["snapshots"])
        # Over the text budget the list carries no text; each is fetched by
        # index (an unchanged snapshot gives the text in effect).
        light = self.client.result("waveasm/pipelineSnapshots",
                                   dict(doc(uri), maxTextBytes=1000), TIMEOUT)
        self.assertTrue(light["textOnDemand"])
        self.assertEqual(len(light["snapshots"]), len(full["snapshots"]))
        self.assertFalse(any("text" in s for s in light["snapshots"]))
        self.assertEqual([s["changed"] for s in light["snapshots"]],
                         [s["changed"] for s in full["snapshots"]])
        for i in range(len(texts)):
            one = self.client.result("waveasm/pipelineSnapshots", dict(doc(uri), index=i), TIMEOUT)
            self.assertEqual((one["index"], one["pass"]), (i, full["snapshots"][i]["pass"]))
            self.assertEqual(one["text"], texts[i])
        self.assertError(self.client.request("waveasm/pipelineSnapshots",
                                             dict(doc(uri), index=len(texts))), -32602)

    def test_hand_written_loop_matches_print_ir_after_all(self):
        self.check_against_opt(LOOP, "loop.mlir")

    def test_stale_after_parse_error(self):
        uri = self.open(self.client, LOOP, "stale.mlir")
        good = self.snapshots(uri)
        self.assertFalse(good["stale"])
        self.client.change(uri, 2, [{"text": LOOP.replace("waveasm.s_endpgm", "waveasm.s_endpgm(")}])
        self.client.wait_diagnostics(uri, 2, timeout=TIMEOUT)
        stale = self.snapshots(uri)
        self.assertTrue(stale["stale"])
        self.assertIn("version 2 has errors", stale["message"])
        self.assertEqual(stale["version"], 1)
        self.assertEqual(stale["documentVersion"], 2)
        self.assertEqual(stale["snapshots"], good["snapshots"])
        # A fixed text is fresh again.
        self.client.change(uri, 3, [{"text": LOOP}])
        fresh = self.snapshots(uri)
        self.assertFalse(fresh["stale"])
        self.assertEqual(fresh["version"], 3)

    def test_never_good_is_empty_with_a_word(self):
        uri = self.open(self.client, BROKEN, "broken.mlir")
        result = self.snapshots(uri)
        self.assertTrue(result["stale"])
        self.assertEqual(result["snapshots"], [])
        self.assertIn("accumulator size mismatch", result["message"])

    def test_failing_pass_shows_its_diagnostic(self):
        uri = self.open(self.client, overflow_kernel(), "overflow.mlir")
        snapshots = self.snapshots(uri)["snapshots"]
        failed = [s for s in snapshots if s.get("failed")]
        self.assertEqual(len(failed), 1)
        self.assertIs(snapshots[-1], failed[0] if snapshots[-1].get("failed") else None)
        self.assertEqual(failed[0]["pass"], "waveasm-linear-scan")
        self.assertFalse(failed[0]["changed"])
        messages = " ".join(d["message"] for d in failed[0]["diagnostics"])
        self.assertIn("VGPR", messages)
        for d in failed[0]["diagnostics"]:
            self.assertIn("start", d["range"])
        # The passes before it ran and are listed.
        self.assertGreater(len(snapshots), 2)
        self.assertFalse(any(s.get("failed") for s in snapshots[:-1]))


class LiveValues(ServerTest):
    def setUp(self):
        self.client = self.start()

    def live_at(self, uri, text, needle):
        return self.client.result("waveasm/liveAt", at(uri, position_of(text, needle)), TIMEOUT)

    def test_live_after_ops_of_the_loop(self):
        uri = self.open(self.client, LOOP, "live.mlir")
        # Before the loop, after %x0: %tid (used in the loop), %keep (used
        # after it) and %x0 itself (the loop's init); %i0 is not defined yet.
        before = self.live_at(uri, LOOP, "waveasm.v_add_u32 %tid, %tid")
        self.assertEqual(before["op"]["name"], "v_add_u32")
        self.assertEqual([v["name"] for v in before["values"]], ["%tid", "%keep", "%x0"])
        self.assertEqual(before["liveRegisters"], {"vgpr": 3, "sgpr": 0, "agpr": 0})
        tid, keep, x0 = before["values"]
        self.assertEqual(tid["register"], "v0")
        self.assertNotIn("register", keep)
        self.assertEqual((keep["class"], keep["width"]), ("VGPR", 1))
        line_of = lambda needle: position_of(LOOP, needle)["line"]
        self.assertEqual(keep["definition"]["start"]["line"], line_of("%keep ="))
        self.assertEqual(keep["lastUse"]["start"]["line"], line_of("%r ="))
        self.assertEqual(x0["lastUse"]["start"]["line"], line_of("%i_end, %x_end"))
        self.assertGreater(keep["length"], x0["length"])

        # In the body, after %b: the block arguments %i and %x (live to the
        # back edge), %tid (used in the loop, defined outside), %keep, and
        # %a and %b (read by %c); %i0 and %x0 died at the loop.
        inside = self.live_at(uri, LOOP, "waveasm.v_add_u32 %a, %a")
        self.assertEqual(sorted(v["name"] for v in inside["values"]),
                         sorted(["%tid", "%keep", "%i", "%x", "%a", "%b"]))
        by_name = {v["name"]: v for v in inside["values"]}
        self.assertEqual(by_name["%i"]["class"], "SGPR")
        self.assertEqual(by_name["%a"]["lastUse"]["start"]["line"], line_of("%c ="))
        self.assertEqual(inside["liveRegisters"], {"vgpr": 5, "sgpr": 1, "agpr": 0})

        # After the last use of everything: nothing is live.
        end = self.live_at(uri, LOOP, "%r = waveasm.v_add_u32")
        self.assertEqual(end["values"], [])

    def test_outside_ops_and_broken_text(self):
        uri = self.open(self.client, LOOP, "outside.mlir")
        result = self.client.result("waveasm/liveAt", at(uri, {"line": 0, "character": 0}), TIMEOUT)
        self.assertIsNone(result["op"])
        self.assertEqual(result["values"], [])
        broken = self.open(self.client, BROKEN, "broken.mlir")
        self.assertError(self.client.request("waveasm/liveAt", at(broken, {"line": 3, "character": 4})),
                         -32803)

    def test_peak_hover_and_command(self):
        uri = self.open(self.client, LOOP, "peak.mlir")
        self.client.wait_diagnostics(uri, 1, timeout=TIMEOUT)
        peak = self.client.result("workspace/executeCommand", {
            "command": "waveasm.showLivePeak", "arguments": [{"uri": uri}]}, TIMEOUT)
        self.assertEqual(peak["uri"], uri)
        # The VGPR peak of LOOP is %c: %tid, %keep, %x, its operands %a
        # and %b and its result (a read and a result never share).
        self.assertEqual(peak["peak"], 6)
        line = peak["op"]["range"]["start"]["line"]
        self.assertEqual(line, position_of(LOOP, "%c =")["line"])
        # The command's answer is waveasm/liveAt's at that op.
        self.assertEqual(sorted(v["name"] for v in peak["values"]),
                         sorted(["%tid", "%keep", "%i", "%x", "%b", "%c"]))
        hover = self.client.result("textDocument/hover",
                                   at(uri, peak["op"]["range"]["start"]), TIMEOUT)
        value = hover["contents"]["value"]
        self.assertIn("VGPR pressure peak", value)
        section = value[value.index("VGPR pressure peak"):]
        self.assertIn("6 VGPRs", section)
        # The five longest-lived VGPR blocks, longest first: %tid (the whole
        # program), %keep (to %r), the loop-carried %x, then %a and %b.
        names = re.findall(r"^- `(%\w+)` x1, live across (\d+) ops", section, re.M)
        self.assertEqual([n for n, _ in names], ["%tid", "%keep", "%x", "%a", "%b"])
        lengths = [int(n) for _, n in names]
        self.assertEqual(lengths, sorted(lengths, reverse=True))
        self.assertIn("... 1 more", section)
        # Elsewhere the hover has no peak section.
        other = self.client.result("textDocument/hover",
                                   at(uri, position_of(LOOP, "waveasm.s_mov_b32")), TIMEOUT)
        self.assertNotIn("VGPR pressure peak", other["contents"]["value"] if other else "")
        self.assertGreaterEqual(line, 1)

    def test_live_through_lint(self):
        uri = self.open(self.client, LOOP, "lint.mlir")
        diags = self.lints(uri)
        self.assertEqual(len(diags), 1, diags)
        d = diags[0]
        self.assertEqual(d["severity"], 3)  # information
        self.assertEqual(d["range"]["start"]["line"], position_of(LOOP, "%keep =")["line"])
        self.assertIn("%keep", d["message"])
        self.assertIn("without being used in it", d["message"])
        self.assertEqual(d["relatedInformation"][0]["location"]["range"]["start"]["line"],
                         position_of(LOOP, "%i_end, %x_end")["line"])

        used = self.open(self.client, USED_IN_LOOP, "used.mlir")
        self.assertEqual(self.lints(used), [])

    def lints(self, uri):
        # waveasm/metrics answers once the background pipeline has landed,
        # after its diagnostics (lints included) were published.
        self.client.result("waveasm/metrics", doc(uri), TIMEOUT)
        last = [p for p in self.client.events_of("textDocument/publishDiagnostics")
                if p["uri"] == uri][-1]
        return [d for d in last["diagnostics"] if d.get("code") == "liveThrough"]

if __name__ == "__main__":
    unittest.main()
