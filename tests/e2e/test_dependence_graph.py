#!/usr/bin/env python3
"""End-to-end test of waveasm/dependenceGraph over stdio: the graph of the
loop at a position (nodes on the document's ops, edges forward in the body,
carried edges, the critical path as a chain of the heaviest edges), its SVG,
an edit seen at once, and the errors.

Run: python3 tests/e2e/test_dependence_graph.py [-v]
$WAVEASM_LSP names the server (else build/bin/).
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from lsp_client import position_of  # noqa: E402
from test_lsp import BROKEN, EXAMPLE, ServerTest, doc, read  # noqa: E402


# The loop's barrier (the prologue has one too).
LOOP_BARRIER = "waveasm.s_barrier\n\n    // (6)"


class DependenceGraph(ServerTest):
    def test_loop_graph(self):
        client = self.start()
        text = read(EXAMPLE)
        uri = self.open(client, text)
        at = position_of(text, "%p00 = waveasm.v_mfma")
        graph = client.result("waveasm/dependenceGraph", {
            "textDocument": {"uri": uri}, "position": at, "render": "svg"})
        self.assertEqual(graph["version"], 1)
        self.assertIn("loop at line 105", graph["title"])
        self.assertEqual(graph["target"], "gfx942")
        nodes, edges = graph["nodes"], graph["edges"]
        lines = text.split("\n")
        body = [i for i, l in enumerate(lines[111:165], 111)
                if "= waveasm." in l or l.strip().startswith("waveasm.")]
        self.assertEqual(len(nodes), len(body))
        for node in nodes:
            line, character = node["at"]
            self.assertEqual(node["line"], line + 1)
            self.assertTrue(lines[line][character:].startswith(
                "waveasm." + node["mnemonic"]), node)
        by_line = {n["line"]: n["id"] for n in nodes}

        def node_at(needle):
            return by_line[position_of(text, needle)["line"] + 1]

        # Body edges go forward; the critical path is a chain of edges whose
        # latencies plus the last op's add up to its length.
        for e in edges:
            if not e.get("carried"):
                self.assertLess(e["from"], e["to"])
        path = graph["criticalPath"]
        weights = {(e["from"], e["to"]): e["latency"] for e in edges
                   if not e.get("carried")}
        last = nodes[path[-1]]
        self.assertEqual(sum(weights[(a, b)] for a, b in zip(path, path[1:]))
                         + max(last["latency"], 1), graph["criticalLength"])
        self.assertEqual(sorted(n["id"] for n in nodes if n.get("critical")),
                         sorted(path))
        self.assertEqual(max(n["height"] for n in nodes), graph["criticalLength"])

        # The data edge from a global load to its LDS store, with the load's
        # latency; the barrier orders the LDS writes before the loop test.
        load = node_at("%a_nxt = waveasm.buffer_load_dwordx4")
        store = node_at("waveasm.ds_write_b128 %a_nxt")
        self.assertIn({"from": load, "to": store, "kind": "data",
                       "latency": 100}, [{k: e[k] for k in
                                          ("from", "to", "kind", "latency")}
                                         for e in edges])
        barrier = node_at(LOOP_BARRIER)
        self.assertTrue(any(e["to"] == barrier and e["kind"] == "barrier"
                            for e in edges))
        # Carried: the second k-substep's MFMAs feed the first ones' SrcC.
        carried = {(e["from"], e["to"]) for e in edges if e.get("carried")}
        self.assertIn((node_at("%n00 = waveasm.v_mfma"),
                       node_at("%p00 = waveasm.v_mfma")), carried)
        # The picture: one clickable box per node.
        self.assertEqual(graph["svg"].count(" data-op="), len(nodes))
        self.assertIn(".wdg", graph["css"])

        # An edit is seen at once (no pipeline to wait for): the barrier
        # removed, its node goes.
        barrier_line = position_of(text, LOOP_BARRIER)["line"]
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {
                "start": {"line": barrier_line, "character": 0},
                "end": {"line": barrier_line + 1, "character": 0}},
                "text": ""}]})
        edited = client.result("waveasm/dependenceGraph", {
            "textDocument": {"uri": uri}, "position": at})
        self.assertEqual(edited["version"], 2)
        self.assertEqual(len(edited["nodes"]), len(nodes) - 1)
        self.assertNotIn("svg", edited)
        self.assertFalse(any(n["mnemonic"] == "s_barrier"
                             for n in edited["nodes"]))

    def test_errors(self):
        client = self.start()
        uri = self.open(client, BROKEN, name="broken.mlir")
        self.assertError(client.request("waveasm/dependenceGraph", doc(uri)), -32803)
        no_loop = self.open(client, "waveasm.program @k target = "
                            "#waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {\n"
                            "  waveasm.s_endpgm\n}\n", name="noloop.mlir")
        self.assertError(client.request("waveasm/dependenceGraph", doc(no_loop)), -32803)
        good = self.open(client, read(EXAMPLE))
        self.assertError(client.request("waveasm/dependenceGraph",
                                        dict(doc(good), render="text")), -32602)
        self.assertError(client.request("waveasm/dependenceGraph",
                                        doc("file:///nowhere.mlir")), -32602)


if __name__ == "__main__":
    unittest.main()
