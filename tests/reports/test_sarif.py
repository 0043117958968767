#!/usr/bin/env python3
"""`waveasm-lsp check --format sarif` as code scanning reads it.

The report of a broken file and the examples is validated with Microsoft's
SARIF multitool (errors and warnings fail the test), and its content is
checked: URIs relative to %SRCROOT% (--sarif-root), rule metadata for every
rule, the tool's version, results that point at the right lines.

Environment: WAVEASM_LSP (the server binary), SARIF_MULTITOOL (the
validator's binary), WAVEASM_SRC (the source tree).
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

LSP = os.environ["WAVEASM_LSP"]
MULTITOOL = os.environ["SARIF_MULTITOOL"]
SRC = os.environ["WAVEASM_SRC"]
EXAMPLES = sorted(os.path.join("examples", name)
                  for name in os.listdir(os.path.join(SRC, "examples"))
                  if name.endswith(".mlir"))

BROKEN = """waveasm.program @broken target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %x = waveasm.v_add_u32 %v, %undefined : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
}
"""

# Validator rules we do not follow, and why: SARIF2005 asks for an
# informationUri (a web page about the tool), which this project does not
# have.
ACCEPTED = {"SARIF2005"}


def check_sarif(cwd, *args):
    proc = subprocess.run([LSP, "check", "--format", "sarif"] + list(args),
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def validate(path):
    """The validator's findings at error and warning level, as
    (ruleId, message) pairs."""
    out = path + ".validation.sarif"
    proc = subprocess.run([MULTITOOL, "validate", path, "--output", out,
                           "--level", "Error;Warning"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or not os.path.exists(out):
        raise AssertionError("the SARIF multitool failed (%d): %s%s" %
                             (proc.returncode, proc.stdout, proc.stderr))
    with open(out) as f:
        log = json.load(f)
    found = []
    for run in log["runs"]:
        for result in run.get("results", []):
            text = result["message"].get("text") or json.dumps(result["message"])
            found.append((result["ruleId"], text))
    return found


class Sarif(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # A copy of the tree's layout: the source root with a broken file in
        # a directory whose name needs escaping.
        cls.root = tempfile.mkdtemp(prefix="sarif-root-")
        shutil.copytree(os.path.join(SRC, "examples"),
                        os.path.join(cls.root, "examples"))
        os.makedirs(os.path.join(cls.root, "kernels wip"))
        cls.broken = os.path.join("kernels wip", "broken.mlir")
        with open(os.path.join(cls.root, cls.broken), "w") as f:
            f.write(BROKEN)
        code, out, err = check_sarif(cls.root, cls.broken, *EXAMPLES)
        assert code == 1, (code, err)
        cls.report_path = os.path.join(cls.root, "report.sarif")
        with open(cls.report_path, "w") as f:
            f.write(out)
        cls.report = json.loads(out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def test_validator_accepts_the_report(self):
        problems = [p for p in validate(self.report_path) if p[0] not in ACCEPTED]
        self.assertEqual(problems, [])

    def test_validator_bites(self):
        # The same report with a result pointing at a rule index that does
        # not exist and a region starting at line 0 must be rejected.
        broken = json.loads(json.dumps(self.report))
        broken["runs"][0]["results"][0]["ruleIndex"] = 999
        broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
            "region"]["startLine"] = 0
        path = os.path.join(self.root, "invalid.sarif")
        with open(path, "w") as f:
            json.dump(broken, f)
        self.assertTrue([p for p in validate(path) if p[0] not in ACCEPTED])

    def test_uris_are_relative_to_the_root(self):
        run = self.report["runs"][0]
        base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        self.assertEqual(base, "file://" + self.root.replace(" ", "%20") + "/")
        uris = [a["location"]["uri"] for a in run["artifacts"]]
        self.assertEqual(uris[0], "kernels%20wip/broken.mlir")
        self.assertEqual(uris[1:], EXAMPLES)
        for artifact in run["artifacts"]:
            self.assertEqual(artifact["location"]["uriBaseId"], "%SRCROOT%")
        for result in run["results"]:
            location = result["locations"][0]["physicalLocation"]["artifactLocation"]
            self.assertEqual(location["uriBaseId"], "%SRCROOT%")
            self.assertEqual(uris[location["index"]], location["uri"])

    def test_sarif_root_option(self):
        # From another directory, --sarif-root names the base; a file outside
        # it keeps its absolute URI.
        outside = tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False)
        outside.write(BROKEN)
        outside.close()
        self.addCleanup(os.unlink, outside.name)
        code, out, err = check_sarif("/", "--sarif-root", self.root,
                                     os.path.join(self.root, EXAMPLES[0]),
                                     outside.name)
        self.assertEqual(code, 1, err)
        run = json.loads(out)["runs"][0]
        self.assertEqual(run["artifacts"][0]["location"]["uri"], EXAMPLES[0])
        self.assertEqual(run["artifacts"][1]["location"]["uri"],
                         "file://" + outside.name)
        self.assertNotIn("uriBaseId", run["artifacts"][1]["location"])
        code, _, err = check_sarif(self.root, "--sarif-root", "/nonexistent",
                                   EXAMPLES[0])
        self.assertEqual(code, 2)
        self.assertIn("--sarif-root '/nonexistent' is not a directory", err)

    def test_rules_and_tool(self):
        driver = self.report["runs"][0]["tool"]["driver"]
        self.assertEqual(driver["name"], "waveasm-lsp")
        version = subprocess.run([LSP, "--version"], capture_output=True,
                                 text=True, timeout=30).stdout.split()[1]
        self.assertEqual(driver["version"], version)
        ids = [rule["id"] for rule in driver["rules"]]
        # Every kind of diagnostic the tool has, not only those reported.
        for rule in ("verifier", "pipeline", "stall", "pressure", "hazard",
                     "waitcnt", "optimization", "liveThrough", "max-vgpr"):
            self.assertIn(rule, ids)
        for rule in driver["rules"]:
            self.assertRegex(rule["name"], r"^[A-Z][A-Za-z]+$")
            self.assertTrue(rule["shortDescription"]["text"].endswith("."))
            self.assertGreater(len(rule["help"]["text"]), 40)
            self.assertIn(rule["defaultConfiguration"]["level"],
                          ("error", "warning", "note", "none"))
        levels = {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]}
        self.assertEqual(levels["verifier"], "error")
        self.assertEqual(levels["pressure"], "warning")

    def test_results(self):
        run = self.report["runs"][0]
        rules = run["tool"]["driver"]["rules"]
        first = run["results"][0]
        self.assertEqual((first["ruleId"], first["level"]), ("verifier", "error"))
        region = first["locations"][0]["physicalLocation"]["region"]
        self.assertEqual((region["startLine"], region["startColumn"]), (4, 30))
        self.assertIn("undeclared SSA value", first["message"]["text"])
        for result in run["results"]:
            self.assertEqual(rules[result["ruleIndex"]]["id"], result["ruleId"])
        # The examples' lints are there too (not only the broken file's error).
        self.assertGreater(len({r["ruleId"] for r in run["results"]}), 1)


if __name__ == "__main__":
    unittest.main()
