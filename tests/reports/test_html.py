#!/usr/bin/env python3
"""`waveasm-lsp check --format html` as a CI artifact is opened: offline.

The page must be self-contained (no URL, nothing loaded, no script), hold
one schedule picture per program and loop of each example (the loops as
`check --format json` counts them), one row per issued instruction across
a file's pictures (as many as the text report's instruction table), a
dependence graph per loop with a box per op of its body, a section per
pass of the pipeline (changed ones with a well-formed diff, unchanged ones
folded), and the findings, a broken file's included.

Environment: WAVEASM_LSP (the server binary), WAVEASM_SRC (the source tree).
"""
import html.parser
import json
import os
import re
import subprocess
import tempfile
import unittest

LSP = os.environ["WAVEASM_LSP"]
SRC = os.environ["WAVEASM_SRC"]
EXAMPLES = sorted(os.path.join(SRC, "examples", name)
                  for name in os.listdir(os.path.join(SRC, "examples"))
                  if name.endswith(".mlir"))

BROKEN = """waveasm.program @broken target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %x = waveasm.v_add_u32 %nope, %nope : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}
"""


def check(*args):
    proc = subprocess.run([LSP, "check", "--fail-on", "none"] + list(args),
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError("check %s failed (%d): %s" %
                             (" ".join(args), proc.returncode, proc.stderr))
    return proc.stdout


class Page(html.parser.HTMLParser):
    """Per <section> (one per file): its title, SVG count, rows (g.r that
    are not a nested loop's summary), and every attribute seen."""

    def __init__(self):
        super().__init__()
        self.sections = []
        self.attributes = []
        self.tags = set()
        self.in_h2 = False
        self.row_open = None
        self.in_graph = False
        self.in_pass_name = False
        self.in_diff = False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes.extend(attrs)
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append({"title": "", "svgs": 0, "rows": 0,
                                  "loops": 0, "stalls": 0, "peaks": 0,
                                  "text": "", "graphs": [], "passes": []})
        elif tag == "h2":
            self.in_h2 = True
        elif tag == "svg" and attrs.get("class") == "wdg":
            self.sections[-1]["graphs"].append({"nodes": [], "critical": 0,
                                                "carried": 0})
            self.in_graph = True
        elif tag == "svg":
            self.sections[-1]["svgs"] += 1
            self.in_graph = False
        elif tag == "g" and self.in_graph and \
                attrs.get("class", "").split()[:1] == ["n"]:
            graph = self.sections[-1]["graphs"][-1]
            graph["nodes"].append(attrs.get("data-op"))
            graph["critical"] += "crit" in attrs["class"].split()
        elif tag == "g" and self.in_graph and \
                "cr" in attrs.get("class", "").split():
            self.sections[-1]["graphs"][-1]["carried"] += 1
        elif tag == "details":
            self.sections[-1]["passes"].append({
                "class": attrs.get("class", "").split(), "open": "open" in attrs,
                "name": "", "diff": None})
        elif tag == "b" and self.sections and self.sections[-1]["passes"] \
                and not self.sections[-1]["passes"][-1]["name"]:
            self.in_pass_name = True
        elif tag == "pre" and "diff" in attrs.get("class", ""):
            self.sections[-1]["passes"][-1]["diff"] = ""
            self.in_diff = True
        elif tag == "g" and attrs.get("class", "").split()[:1] == ["r"]:
            self.sections[-1]["rows"] += 1
        elif tag == "rect" and attrs.get("class") == "lp":
            self.sections[-1]["loops"] += 1
        elif tag == "rect" and attrs.get("class") == "st":
            self.sections[-1]["stalls"] += 1
        elif tag == "g" and "pk" in attrs.get("class", "").split():
            self.sections[-1]["peaks"] += 1

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        elif tag == "svg":
            self.in_graph = False
        elif tag == "b":
            self.in_pass_name = False
        elif tag == "pre":
            self.in_diff = False

    def handle_data(self, data):
        if self.sections:
            self.sections[-1]["text"] += data
            if self.in_h2:
                self.sections[-1]["title"] += data
            if self.in_pass_name:
                self.sections[-1]["passes"][-1]["name"] += data
            if self.in_diff:
                self.sections[-1]["passes"][-1]["diff"] += data


def instruction_rows(text_report):
    """Rows of the text report's instruction table, per file."""
    rows = {}
    current = None
    for line in text_report.splitlines():
        m = re.match(r"^(.*): (metrics|instructions)$", line)
        if m:
            current = m.group(1) if m.group(2) == "instructions" else None
            if current:
                rows[current] = -1  # the header line
            continue
        if current and line.strip() and not line.startswith("(") \
                and set(line.strip()) != {"-"}:
            rows[current] += 1
        elif current and line.startswith("("):
            current = None
    return rows


class HtmlReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.broken = os.path.join(cls.tmp.name, "broken<&>.mlir")
        with open(cls.broken, "w") as f:
            f.write(BROKEN)
        cls.files = EXAMPLES + [cls.broken]
        cls.page = check("--format", "html", *cls.files)
        cls.parsed = Page()
        cls.parsed.feed(cls.page)
        cls.json = json.loads(check("--format", "json", *cls.files))
        cls.text = check(*cls.files)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_self_contained(self):
        self.assertTrue(self.page.startswith("<!DOCTYPE html>"))
        self.assertNotIn("http", self.page.lower(), "the page names no URL")
        self.assertNotIn("url(", self.page)
        self.assertNotIn("@import", self.page)
        for tag in ("script", "link", "img", "iframe", "object", "embed"):
            self.assertNotIn(tag, self.parsed.tags, tag)
        for name, _ in self.parsed.attributes:
            self.assertNotIn(name, ("src", "href", "srcset"), name)
            self.assertFalse(name.startswith("on"), name)

    def test_one_picture_per_program_and_loop(self):
        sections = self.parsed.sections
        self.assertEqual(len(sections), len(self.files))
        for section, report in zip(sections, self.json["files"]):
            self.assertEqual(section["title"], report["path"])
            programs = report["metrics"]["programs"]
            expected = sum(1 + len(p["loops"]) for p in programs)
            self.assertEqual(section["svgs"], expected, report["path"])
            if programs:
                # Every picture marks its VGPR peak.
                self.assertGreaterEqual(section["peaks"], expected)
                # A program's picture shows each of its loops as one row.
                self.assertEqual(section["loops"],
                                 sum(len(p["loops"]) for p in programs))

    def test_rows_are_the_instructions(self):
        tables = instruction_rows(self.text)
        stalls = 0
        for section, report in zip(self.parsed.sections, self.json["files"]):
            if not report["metrics"]["programs"]:
                continue
            self.assertIn(report["path"], tables)
            self.assertEqual(section["rows"] - section["loops"],
                             tables[report["path"]], report["path"])
            stalls += section["stalls"]
        self.assertGreater(stalls, 0, "stall bars")

    def test_a_graph_per_loop(self):
        for section, report in zip(self.parsed.sections, self.json["files"]):
            loops = sum(len(p["loops"]) for p in report["metrics"]["programs"])
            self.assertEqual(len(section["graphs"]), loops, report["path"])
        # The GEMM example's one loop: a box per op of its body, each on the
        # op's name in the file; a critical path; the carried accumulators.
        index = self.files.index(os.path.join(SRC, "examples",
                                              "gemm_f16_double_buffer.mlir"))
        with open(self.files[index]) as f:
            lines = f.read().split("\n")
        graph = self.parsed.sections[index]["graphs"][0]
        body = [i for i in range(111, 165)
                if lines[i].lstrip().startswith(("%", "waveasm."))
                and "waveasm." in lines[i]]
        self.assertEqual(len(graph["nodes"]), len(body))
        for at in graph["nodes"]:
            line, character = map(int, at.split(":"))
            self.assertIn(line, body)
            self.assertTrue(lines[line][character:].startswith("waveasm."))
        self.assertGreaterEqual(graph["critical"], 2)
        self.assertGreaterEqual(graph["carried"], 4)

    def test_a_section_per_pass_with_its_diff(self):
        counts = set()
        for section, report in zip(self.parsed.sections, self.json["files"]):
            passes = section["passes"]
            if not report["metrics"]["programs"]:
                self.assertEqual(passes, [], "no passes without a program")
                continue
            counts.add(len(passes))
            names = [p["name"] for p in passes]
            self.assertIn("waveasm-linear-scan", names)
            for p in passes:
                changed = "changed" in p["class"]
                self.assertEqual(p["open"], changed, p["name"])
                if not changed:
                    self.assertIn("same", p["class"], p["name"])
                    self.assertIsNone(p["diff"], p["name"])
                    continue
                # Hunks: the header's counts are the lines that follow.
                hunks = re.split(r"^(@@ -\d+,\d+ \+\d+,\d+ @@)$",
                                 p["diff"].rstrip("\n"), flags=re.M)[1:]
                self.assertTrue(hunks, p["name"])
                for header, body in zip(hunks[::2], hunks[1::2]):
                    m = re.match(r"@@ -\d+,(\d+) \+\d+,(\d+) @@", header)
                    rows = body.strip("\n").split("\n")
                    self.assertEqual(sum(r[:1] in " -" for r in rows),
                                     int(m.group(1)), (p["name"], header))
                    self.assertEqual(sum(r[:1] in " +" for r in rows),
                                     int(m.group(2)), (p["name"], header))
                    self.assertTrue(any(r[:1] in "-+" for r in rows))
            # Allocation changes every program: physical registers appear.
            alloc = passes[names.index("waveasm-linear-scan")]
            self.assertIn("changed", alloc["class"], report["path"])
            self.assertRegex(alloc["diff"], r"(?m)^\+.*!waveasm\.p[vsa]reg<")
        # One pipeline: every file lists the same passes.
        self.assertEqual(len(counts), 1, counts)
        self.assertGreaterEqual(counts.pop(), 15)

    def test_findings_of_every_file(self):
        broken = self.parsed.sections[-1]
        self.assertEqual(broken["title"], self.broken, "escaped and read back")
        self.assertEqual(broken["svgs"], 0)
        for report, section in zip(self.json["files"], self.parsed.sections):
            for diag in report["diagnostics"]:
                self.assertIn(diag["message"], section["text"])
        self.assertIn("use of undeclared SSA value", broken["text"])


if __name__ == "__main__":
    unittest.main()
