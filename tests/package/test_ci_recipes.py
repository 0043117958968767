#!/usr/bin/env python3
"""The README's CI recipes, run here with the package this build makes.

- `.pre-commit-hooks.yaml` through the real pre-commit (`pre-commit
  try-repo` on this checkout) in a scratch repository: a broken kernel fails
  the commit with file:line:col, other MLIR is skipped.
- `docs/ci/github-actions.yml`: the install step names the package cpack
  builds and apt accepts it (`apt-get install --simulate`); the check step's
  commands run verbatim and write the SARIF file the upload step uploads.
- `docs/ci/gitlab-ci.yml`: the same for GitLab's code quality report.

Environment: WAVEASM_BUILD (the build tree, with build/package/*.deb from
the package-deb test), WAVEASM_SRC (this checkout).
"""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import yaml

BUILD = os.environ["WAVEASM_BUILD"]
SRC = os.environ["WAVEASM_SRC"]
EXAMPLE = os.path.join(SRC, "examples", "gemm_f16_double_buffer.mlir")
BROKEN = """waveasm.program @broken target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %x = waveasm.v_add_u32 %v, %undefined : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
}
"""
OTHER_MLIR = "func.func @f() {\n  return\n}\n"


def run(cmd, cwd, env, shell=False):
    return subprocess.run(cmd, cwd=cwd, env=env, shell=shell, capture_output=True,
                          text=True, timeout=300,
                          executable="/bin/bash" if shell else None)


class Recipes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        debs = glob.glob(os.path.join(BUILD, "package", "waveasm-conductor_*_amd64.deb"))
        assert len(debs) == 1, "expected one package from the package-deb test: %s" % debs
        cls.deb = debs[0]
        cls.tmp = tempfile.mkdtemp(prefix="ci-recipes-")
        root = os.path.join(cls.tmp, "root")
        subprocess.run(["dpkg-deb", "-x", cls.deb, root], check=True)
        cls.env = dict(os.environ)
        cls.env["PATH"] = os.path.join(root, "usr", "bin") + os.pathsep + os.environ["PATH"]
        cls.env["PRE_COMMIT_HOME"] = os.path.join(cls.tmp, "pre-commit-home")
        for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            cls.env.pop(key, None)
        # A user's repository: a good kernel, a broken one, other MLIR.
        cls.repo = os.path.join(cls.tmp, "repo")
        os.makedirs(os.path.join(cls.repo, "kernels"))
        os.makedirs(os.path.join(cls.repo, "other"))
        shutil.copy(EXAMPLE, os.path.join(cls.repo, "kernels", "good.mlir"))
        with open(os.path.join(cls.repo, "kernels", "bad.mlir"), "w") as f:
            f.write(BROKEN)
        with open(os.path.join(cls.repo, "other", "func.mlir"), "w") as f:
            f.write(OTHER_MLIR)
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
        for cmd in (["git", "init", "-q"], ["git", "add", "."],
                    git + ["commit", "-qm", "kernels"]):
            subprocess.run(cmd, cwd=cls.repo, env=cls.env, check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def load(self, name):
        with open(os.path.join(SRC, "docs", "ci", name)) as f:
            return yaml.safe_load(f)

    def check_install_line(self, line):
        """The install command names the package this build makes, and apt
        resolves its dependencies on this Debian (simulated, nothing
        installed)."""
        name = os.path.basename(self.deb)
        self.assertIn("./tools/" + name, line)
        proc = run(["apt-get", "install", "--simulate", "-y", self.deb], self.tmp, self.env)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("Inst waveasm-conductor", proc.stdout)

    def test_pre_commit_hook(self):
        if not shutil.which("pre-commit"):
            self.fail("pre-commit is not installed (scripts/install-deps.sh installs it)")
        if not os.path.isdir(os.path.join(SRC, ".git")):
            self.skipTest("the source tree is not a git checkout: pre-commit try-repo needs one")
        with open(os.path.join(SRC, ".pre-commit-hooks.yaml")) as f:
            hooks = yaml.safe_load(f)
        self.assertEqual([h["id"] for h in hooks], ["waveasm-check"])
        files = ["kernels/good.mlir", "kernels/bad.mlir", "other/func.mlir"]
        proc = run(["pre-commit", "try-repo", SRC, "waveasm-check", "--files"] + files,
                   self.repo, self.env)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("kernels/bad.mlir:4:30: error: use of undeclared SSA value name",
                      proc.stdout)
        self.assertIn("2 file(s): 1 error(s)", proc.stdout)  # func.mlir skipped
        proc = run(["pre-commit", "try-repo", SRC, "waveasm-check", "--files",
                    "kernels/good.mlir", "other/func.mlir"], self.repo, self.env)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_github_actions(self):
        workflow = self.load("github-actions.yml")
        steps = workflow["jobs"]["check"]["steps"]
        install = [s for s in steps if "apt-get install" in s.get("run", "")]
        self.assertEqual(len(install), 1)
        self.check_install_line(install[0]["run"])
        check = [s for s in steps if "waveasm-lsp check" in s.get("run", "")]
        self.assertEqual(len(check), 1)
        proc = run("set -e\n" + check[0]["run"], self.repo, self.env, shell=True)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        upload = [s for s in steps if "upload-sarif" in s.get("uses", "")]
        self.assertEqual(len(upload), 1)
        with open(os.path.join(self.repo, upload[0]["with"]["sarif_file"])) as f:
            sarif = json.load(f)
        run0 = sarif["runs"][0]
        uris = [a["location"]["uri"] for a in run0["artifacts"]]
        self.assertEqual(sorted(uris), ["kernels/bad.mlir", "kernels/good.mlir"])
        self.assertTrue(any(r["ruleId"] == "verifier" for r in run0["results"]))

    def test_gitlab_code_quality(self):
        job = self.load("gitlab-ci.yml")["waveasm-check"]
        script = job["script"]
        self.check_install_line(script[0])
        proc = run("set -e\n" + "\n".join(script[1:]), self.repo, self.env, shell=True)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        report_name = job["artifacts"]["reports"]["codequality"]
        with open(os.path.join(self.repo, report_name)) as f:
            issues = json.load(f)
        bad = [i for i in issues if i["location"]["path"] == "kernels/bad.mlir"]
        self.assertEqual(len(bad), 1, issues)
        self.assertEqual((bad[0]["check_name"], bad[0]["severity"]), ("verifier", "critical"))
        self.assertEqual(bad[0]["location"]["lines"]["begin"], 4)
        for issue in issues:
            self.assertEqual(issue["type"], "issue")
            self.assertTrue(issue["description"])
            self.assertIn(issue["severity"], ("info", "minor", "major", "critical", "blocker"))
        fingerprints = [i["fingerprint"] for i in issues]
        self.assertEqual(len(fingerprints), len(set(fingerprints)))
        self.assertFalse(any(i["location"]["path"].startswith("other/") for i in issues))


if __name__ == "__main__":
    unittest.main()
