#!/usr/bin/env python3
"""The VS Code extension's snippets make WaveASM that verifies: each body,
its placeholders filled with their defaults (a choice's first option), is
put into a program (loops and ifs after a prelude defining the values their
defaults name) and checked by `waveasm-lsp check`, which must report no
error.

Run: python3 tests/editors/test_snippets.py WAVEASM_LSP
"""

import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SNIPPETS = os.path.join(ROOT, "vscode-extension", "snippets", "waveasm.json")

# Values the loop and if snippets' defaults name.
PRELUDE = """  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %one = waveasm.constant 1 : !waveasm.imm<1>
  %init = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %n = waveasm.s_mov_b32 %one : !waveasm.imm<1> -> !waveasm.sreg
  %cond = waveasm.s_cmp_lt_u32 %init, %n : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.v_mov_b32 %one : !waveasm.imm<1> -> !waveasm.vreg
"""


def instantiate(body):
    text = "\n".join(body)
    # ${1|a,b|} -> a; ${1:default} -> default (innermost first); $0 -> "".
    text = re.sub(r"\$\{\d+\|([^,|]*)[^}]*\}", r"\1", text)
    while re.search(r"\$\{\d+:([^${}]*)\}", text):
        text = re.sub(r"\$\{\d+:([^${}]*)\}", r"\1", text)
    return re.sub(r"\$\{?\d+\}?", "", text).replace("\t", "  ")


def main():
    lsp = sys.argv[1]
    snippets = json.load(open(SNIPPETS))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, snippet in snippets.items():
            text = instantiate(snippet["body"])
            if not text.startswith("waveasm.program"):
                text = ("waveasm.program @k target = #waveasm.target<#waveasm.gfx942> "
                        "abi = #waveasm.abi<> {\n" + PRELUDE +
                        "\n".join("  " + l for l in text.split("\n")) +
                        "\n  waveasm.s_endpgm\n}\n")
            path = os.path.join(tmp, re.sub(r"\W", "_", name) + ".mlir")
            with open(path, "w") as f:
                f.write(text)
            run = subprocess.run([lsp, "check", "--fail-on", "error", path],
                                 capture_output=True, text=True)
            errors = re.search(r"(\d+) error\(s\)", run.stdout)
            ok = run.returncode == 0 and errors and errors.group(1) == "0"
            print("%s: snippet %r" % ("ok" if ok else "FAIL", name))
            if not ok:
                failures += 1
                print(text)
                print(run.stdout, run.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
