#!/usr/bin/env python3
"""Generates syntaxes/waveasm.tmLanguage.json (WaveASM MLIR) and
syntaxes/waveasm-asm.tmLanguage.json (the emitted AMDGCN assembly) from one
table of instruction families, so both colour an instruction the same way.
Run from vscode-extension/: python3 scripts/gen-grammars.py"""

import json

# (scope suffix, mnemonic regex). Order matters: first match wins.
FAMILIES = [
    # Issue/order control: waits, barriers, nops, branches, end of program.
    ("control", r"s_(?:waitcnt\w*|barrier\w*|nop|sleep|setprio|endpgm\w*|branch|cbranch_\w+|sethalt|trap|wakeup)"),
    ("mfma", r"v_(?:mfma|smfmac)\w*"),
    ("vmem", r"(?:buffer|global|flat|scratch|tbuffer)_\w+"),
    ("lds", r"ds_\w+"),
    ("smem", r"s_(?:load|buffer_load|store|buffer_store|dcache|memtime|memrealtime|scratch_load|scratch_store)\w*"),
    ("salu", r"s_\w+"),
    ("valu", r"v_\w+"),
]

STRUCTURAL = r"program|loop|if|else|condition|yield"
BUILTIN_OPS = r"constant|precolored\.(?:vreg|sreg|areg)|pack|extract|insert|raw|label|comment"


def ir_grammar():
    patterns = [
        {"include": "#comment"},
        {"include": "#string"},
        {
            "comment": "structured control flow",
            "match": r"\b(waveasm)(\.)(" + STRUCTURAL + r")\b",
            "captures": {
                "1": {"name": "keyword.control.namespace.waveasm"},
                "2": {"name": "punctuation.accessor.waveasm"},
                "3": {"name": "keyword.control.waveasm"},
            },
        },
    ]
    for unit, regex in FAMILIES:
        patterns.append({
            "comment": f"{unit} instructions",
            "match": r"\b(waveasm)(\.)(" + regex + r")\b",
            "captures": {
                "1": {"name": "entity.name.namespace.waveasm"},
                "2": {"name": "punctuation.accessor.waveasm"},
                "3": {"name": f"keyword.other.instruction.{unit}.waveasm"},
            },
        })
    patterns += [
        {
            "comment": "pseudo ops (constants, precolored registers, pack/extract)",
            "match": r"\b(waveasm)(\.)(" + BUILTIN_OPS + r")\b",
            "captures": {
                "1": {"name": "entity.name.namespace.waveasm"},
                "2": {"name": "punctuation.accessor.waveasm"},
                "3": {"name": "support.function.builtin.waveasm"},
            },
        },
        {
            "comment": "other dialects' ops (arith.*, func.*) and generic op names",
            "match": r"\b([a-z_][a-z0-9_]*)(\.)([a-z_][a-z0-9_.]*)\b(?=\s)",
            "captures": {
                "1": {"name": "entity.name.namespace.waveasm"},
                "2": {"name": "punctuation.accessor.waveasm"},
                "3": {"name": "support.function.waveasm"},
            },
        },
        {"include": "#register-type"},
        {
            "comment": "attributes: #waveasm.gfx942, #waveasm.target<...>",
            "match": r"#[A-Za-z_][\w.$]*",
            "name": "constant.other.attribute.waveasm",
        },
        {
            "comment": "other types: !waveasm.scc, !foo.bar",
            "match": r"![A-Za-z_][\w.$]*",
            "name": "storage.type.waveasm",
        },
        {"match": r"\b(?:[iuf](?:1|4|6|8|16|32|64|80|128)|bf16|tf32|index|none)\b",
         "name": "storage.type.builtin.waveasm"},
        {
            "comment": "SSA values: %name, %0, %a#1, %b:2",
            "match": r"%[A-Za-z_$.\-0-9]+(?:#\d+)?(?::\d+)?",
            "name": "variable.other.ssa.waveasm",
        },
        {"match": r"\^[A-Za-z_$.\-0-9]+", "name": "entity.name.label.block.waveasm"},
        {"match": r"@[A-Za-z_$.\-0-9]+|@\"[^\"]*\"", "name": "entity.name.function.symbol.waveasm"},
        {
            "comment": "attribute names: key = value",
            "match": r"\b([A-Za-z_][\w]*)\s*(=)(?!=)",
            "captures": {
                "1": {"name": "entity.other.attribute-name.waveasm"},
                "2": {"name": "keyword.operator.assignment.waveasm"},
            },
        },
        {"match": r"\b(?:true|false|unit)\b", "name": "constant.language.waveasm"},
        {"include": "#number"},
        {"match": r"->", "name": "keyword.operator.arrow.waveasm"},
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "WaveASM",
        "scopeName": "source.waveasm",
        "fileTypes": ["waveasm.mlir"],
        "patterns": patterns,
        "repository": {
            "comment": {"match": r"//.*$", "name": "comment.line.double-slash.waveasm"},
            "string": {
                "begin": "\"", "end": "\"", "name": "string.quoted.double.waveasm",
                "patterns": [{"match": r"\\.", "name": "constant.character.escape.waveasm"}],
            },
            "number": {
                "match": r"(?<![\w%#@$])-?(?:0x[0-9A-Fa-f]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\b",
                "name": "constant.numeric.waveasm",
            },
            "register-type": {
                "comment": "register types: virtual vreg/sreg/areg, physical pvreg/psreg/pareg, imm",
                "match": r"(!)(waveasm)(\.)(?:(p?vreg)|(p?sreg)|(p?areg)|(imm)|(scc))\b",
                "captures": {
                    "1": {"name": "punctuation.definition.type.waveasm"},
                    "2": {"name": "storage.type.namespace.waveasm"},
                    "3": {"name": "punctuation.accessor.waveasm"},
                    "4": {"name": "storage.type.register.vgpr.waveasm"},
                    "5": {"name": "storage.type.register.sgpr.waveasm"},
                    "6": {"name": "storage.type.register.agpr.waveasm"},
                    "7": {"name": "storage.type.immediate.waveasm"},
                    "8": {"name": "storage.type.register.scc.waveasm"},
                },
            },
        },
    }


def asm_grammar():
    patterns = [
        {"match": r"(?://|;).*$", "name": "comment.line.waveasm-asm"},
        {"match": r"^\s*\.[A-Za-z_][\w.]*", "name": "keyword.directive.waveasm-asm"},
        {"match": r"^\s*[A-Za-z_.$][\w.$]*:", "name": "entity.name.label.waveasm-asm"},
    ]
    for unit, regex in FAMILIES:
        scope = "keyword.control.waveasm-asm" if unit == "control" else f"keyword.other.instruction.{unit}.waveasm-asm"
        patterns.append({"match": r"^\s*(" + regex + r")\b", "captures": {"1": {"name": scope}}})
    patterns += [
        {"match": r"\b[vsa]\[\d+:\d+\]|\b[vsa]\d+\b", "name": "variable.language.register.waveasm-asm"},
        {"match": r"\b(?:vcc|vcc_lo|vcc_hi|exec|exec_lo|exec_hi|m0|scc|off)\b",
         "name": "variable.language.register.special.waveasm-asm"},
        {"match": r"\b(?:offset|offen|idxen|glc|slc|nt|sc0|sc1|lgkmcnt|vmcnt|expcnt|cbsz|abid|blgp|op_sel|op_sel_hi)\b",
         "name": "support.other.modifier.waveasm-asm"},
        {"match": r"-?(?:0x[0-9A-Fa-f]+|\d+(?:\.\d+)?)\b", "name": "constant.numeric.waveasm-asm"},
        {"begin": "\"", "end": "\"", "name": "string.quoted.double.waveasm-asm"},
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "WaveASM assembly",
        "scopeName": "source.waveasm-asm",
        "patterns": patterns,
    }


for path, grammar in [("syntaxes/waveasm.tmLanguage.json", ir_grammar()),
                      ("syntaxes/waveasm-asm.tmLanguage.json", asm_grammar())]:
    with open(path, "w") as f:
        json.dump(grammar, f, indent=2)
        f.write("\n")
