#!/usr/bin/env python3
"""Seed 001's results table on our own kernels: what the loop optimizations
take out of each loop body.

For every loop of every given kernel, the kernel is compiled twice: as
written ("before": `--waveasm-pipeline=optimize=false`, allocation, wait
counts and hazards only) and as the Wave compiler compiles it ("after": the
production order, `--waveasm-pipeline`), or after the given waveasm-opt
flags and then the backend passes (`--flags`, e.g. the three loop
optimizations alone). On each compiled program it counts, per loop
(the loop's whole body, nested loops included):

  * scale-pack VALU: v_bfe_u32 and v_lshl_or_b32 that compute no address
    (seed 001's "B-scale byte repacking");
  * buffer-load address VALU: VALU ops in the loop that the voffset of a
    buffer load in the loop depends on (through ops of the loop), per
    descriptor (SRD);
  * LDS address VALU: the same for ds_read/ds_write addresses;
  * soffset SALU: SALU ops in the loop that a buffer load's soffset depends
    on, following carried soffsets through the back edge (the bumps), per
    SRD, without the loop control (the ops the loop condition depends on);
  * body size: assembly lines between the loop's label and its back-edge
    branch in `--emit-assembly` output.

Prints a markdown table (one row per loop, "before -> after") and the
per-SRD breakdown, and writes bench/results/seed001.json.

Usage:
  bench/seed001_table.py [--waveasm-opt build/bin/waveasm-opt]
                         [--flags "<waveasm-opt passes for 'after'>"]
                         [--json bench/results/seed001.json | --no-json]
                         [kernel.mlir ...]     (default: examples/*.mlir)
"""

import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The backend passes alone (the IR as written), and the production order.
BACKEND = "--waveasm-pipeline=optimize=false"
PRODUCTION = "--waveasm-pipeline"

# Not instructions that compute anything.
NON_SALU = ("s_waitcnt", "s_nop", "s_barrier", "s_endpgm", "s_setprio",
            "s_sched_barrier", "s_cbranch", "s_branch")


# --------------------------------------------------------------------------
# A small reader of MLIR's generic op form (`--mlir-print-op-generic`).
# --------------------------------------------------------------------------

OP_RE = re.compile(
    r'^\s*(?:(?P<res>%[\w$.-]+)(?::(?P<n>\d+))?\s*=\s*)?'
    r'"(?P<dialect>\w+)\.(?P<name>[\w.]+)"\((?P<operands>[^)]*)\)')
BLOCK_RE = re.compile(r'^\s*\^bb\d+\((?P<args>.*)\):\s*$')
VALUE_RE = re.compile(r'%[\w$.-]+(?:#\d+)?')


class Op:
    __slots__ = ("name", "results", "operands", "loop", "line", "index",
                 "block_args", "attrs")

    def __init__(self, name, results, operands, loop, line):
        self.name = name
        self.results = results
        self.operands = operands
        self.loop = loop        # innermost enclosing Loop, or None
        self.line = line
        self.block_args = []    # for loops: the body's block arguments
        self.attrs = line


class Loop:
    def __init__(self, op, parent, depth, index):
        self.op = op
        self.parent = parent
        self.depth = depth
        self.index = index      # pre-order index within the program
        self.condition = None   # the waveasm.condition op

    def contains(self, loop):
        while loop is not None:
            if loop is self:
                return True
            loop = loop.parent
        return False


class Program:
    def __init__(self, name):
        self.name = name
        self.ops = []
        self.loops = []
        self.defs = {}          # value name -> defining Op (or None: arg)
        self.arg_loop = {}      # block argument name -> (Loop, position)

    def def_of(self, value):
        return self.defs.get(value)


def parse_generic(text):
    """Programs of a module printed in generic form."""
    programs = []
    program = None
    # Stack of open regions: (kind, Loop or None).
    stack = []
    pending_loop = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("}, {"):
            continue  # the next region of the same op (waveasm.if)
        if stripped.startswith("})"):
            kind, _ = stack.pop()
            if kind == "program":
                program = None
            continue
        m = OP_RE.match(line)
        if m and m.group("dialect") != "waveasm":
            if stripped.endswith("({"):
                stack.append(("region", None))  # builtin.module
            continue
        if m:
            name = m.group("name")
            if name == "program":
                sym = re.search(r'sym_name = "([^"]+)"', line)
                program = Program(sym.group(1) if sym else "?")
                programs.append(program)
                stack.append(("program", None))
                continue
            if program is None:
                continue
            res = m.group("res")
            n = int(m.group("n") or 1)
            if res is None:
                results = []
            elif n == 1:
                results = [res]
            else:
                results = ["%s#%d" % (res, i) for i in range(n)]
            operands = VALUE_RE.findall(m.group("operands"))
            loop = current_loop(stack)
            op = Op(name, results, operands, loop, line)
            op.index = len(program.ops)
            program.ops.append(op)
            for r in results:
                program.defs[r] = op
            if n == 1 and res is not None:
                program.defs[res + "#0"] = op
            if name == "condition" and loop is not None:
                loop.condition = op
            if stripped.endswith("({"):
                if name == "loop":
                    new = Loop(op, loop, depth_of(stack), len(program.loops))
                    program.loops.append(new)
                    stack.append(("loop", new))
                    pending_loop = new
                else:
                    stack.append(("region", None))
            continue
        b = BLOCK_RE.match(line)
        if b and program is not None:
            args = re.findall(r'(%[\w$.-]+)\s*:', b.group("args"))
            if pending_loop is not None:
                pending_loop.op.block_args = args
                for pos, a in enumerate(args):
                    program.arg_loop[a] = (pending_loop, pos)
                    program.defs[a] = None
                pending_loop = None
            else:
                for a in args:
                    program.defs[a] = None
    return programs


def current_loop(stack):
    for kind, loop in reversed(stack):
        if kind == "loop":
            return loop
    return None


def depth_of(stack):
    return sum(1 for kind, _ in stack if kind == "loop")


# --------------------------------------------------------------------------
# Metrics of one loop.
# --------------------------------------------------------------------------

def is_valu(op):
    return op.name.startswith("v_") and not op.name.startswith("v_mfma")


def is_salu(op):
    return op.name.startswith("s_") and not op.name.startswith(NON_SALU) \
        and not op.name.startswith(("s_load", "s_buffer_load"))


def is_memory(op):
    return op.name.startswith(("buffer_", "global_", "flat_", "ds_",
                               "s_load", "s_buffer_load"))


def buffer_load_operands(op):
    """(voffset, srd, soffset) operand positions, or None."""
    if not op.name.startswith("buffer_load"):
        return None
    if op.name.endswith("_lds"):
        return (0, 1, 2)
    return (1, 0, 2)


def in_loop(program, loop, value):
    op = program.def_of(value)
    return op is not None and loop.contains(op.loop)


def chain_ops(program, loop, roots, follow_carried=False):
    """Ops of `loop` the values `roots` depend on (through ops of the loop,
    never through memory ops). With `follow_carried`, a block argument of a
    loop inside `loop` continues with the value yielded for it."""
    seen = set()
    stack = list(roots)
    visited_values = set()
    while stack:
        v = stack.pop()
        if v in visited_values:
            continue
        visited_values.add(v)
        op = program.def_of(v)
        if op is None:
            if follow_carried and v in program.arg_loop:
                owner, pos = program.arg_loop[v]
                if loop.contains(owner) and owner.condition is not None:
                    yielded = owner.condition.operands[1:]
                    if pos < len(yielded):
                        stack.append(yielded[pos])
            continue
        if not loop.contains(op.loop) or op.index in seen:
            continue
        if is_memory(op):
            continue
        seen.add(op.index)
        stack.extend(op.operands)
    return {program.ops[i] for i in seen}


def srd_label(program, value):
    op = program.def_of(value)
    if op is not None and op.name == "precolored.sreg":
        index = re.search(r'index = (\d+)', op.line)
        size = re.search(r'size = (\d+)', op.line)
        if index:
            first = int(index.group(1))
            count = int(size.group(1)) if size else 1
            return "s[%d:%d]" % (first, first + count - 1)
    return value


def loop_ops(program, loop):
    return [op for op in program.ops
            if op.loop is not None and loop.contains(op.loop)]


def measure_loop(program, loop):
    ops = loop_ops(program, loop)
    control = set()
    if loop.condition is not None and loop.condition.operands:
        control = chain_ops(program, loop, loop.condition.operands[:1])
    address_valu = {}
    soffset_salu = {}
    all_address = set()
    for op in ops:
        positions = buffer_load_operands(op)
        if positions is None:
            continue
        voff, srd, soff = positions
        label = srd_label(program, op.operands[srd])
        chain = {o for o in chain_ops(program, loop, [op.operands[voff]])
                 if is_valu(o)}
        address_valu.setdefault(label, set()).update(chain)
        all_address |= chain
        salu = {o for o in chain_ops(program, loop, [op.operands[soff]],
                                     follow_carried=True)
                if is_salu(o) and o not in control}
        soffset_salu.setdefault(label, set()).update(salu)
    lds_valu = set()
    for op in ops:
        if op.name.startswith("ds_read") or op.name.startswith("ds_write"):
            address = op.operands[0] if op.name.startswith("ds_read") \
                else op.operands[1]
            lds_valu |= {o for o in chain_ops(program, loop, [address])
                         if is_valu(o)}
    scale_pack = [op for op in ops
                  if op.name in ("v_bfe_u32", "v_lshl_or_b32")
                  and op not in all_address and op not in lds_valu]
    return {
        "scale_pack_valu": len(scale_pack),
        "buffer_load_address_valu": len(all_address),
        "buffer_load_address_valu_per_srd":
            {k: len(v) for k, v in sorted(address_valu.items())},
        "lds_address_valu": len(lds_valu),
        "soffset_salu": len(set().union(*soffset_salu.values()))
        if soffset_salu else 0,
        "soffset_salu_per_srd":
            {k: len(v) for k, v in sorted(soffset_salu.items())},
        "body_ops": len(ops),
    }


# --------------------------------------------------------------------------
# Assembly: body lines per loop.
# --------------------------------------------------------------------------

LABEL_RE = re.compile(r'^([.\w$]+):\s*(?:;.*)?$')
BRANCH_RE = re.compile(r'^\s*s_cbranch_scc1\s+([.\w$]+)')


def asm_loop_lines(asm):
    """Per kernel (in order): the instruction lines of each loop body, in
    the order of the loop labels (pre-order of the loops)."""
    lines = asm.splitlines()
    labels = {}
    for i, line in enumerate(lines):
        m = LABEL_RE.match(line.strip())
        if m:
            labels[m.group(1)] = i
    loops = []
    for i, line in enumerate(lines):
        m = BRANCH_RE.match(line)
        if m and m.group(1) in labels and labels[m.group(1)] < i:
            start = labels[m.group(1)]
            body = [l for l in lines[start + 1:i]
                    if l.strip() and not l.strip().startswith((";", "//"))
                    and not LABEL_RE.match(l.strip())]
            loops.append((start, len(body)))
    loops.sort()
    return [n for _, n in loops]


# --------------------------------------------------------------------------
# Driver.
# --------------------------------------------------------------------------

def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write("command failed: %s\n%s" % (" ".join(cmd),
                                                     proc.stderr))
        sys.exit(1)
    return proc.stdout


def compile_variant(opt, path, flags, pipeline, tmpdir):
    src = path
    if flags:
        src = os.path.join(tmpdir, "after.mlir")
        run([opt] + flags + [path, "-o", src])
    ir = run([opt, pipeline, "--mlir-print-op-generic", src])
    asm = run([opt, pipeline, "--emit-assembly", src])
    return parse_generic(ir), asm_loop_lines(asm)


def measure_file(opt, path, flags, tmpdir):
    results = []
    variants = {}
    # --flags: those passes, then the backend; else the production order.
    after = (flags, BACKEND) if flags else ([], PRODUCTION)
    for key, (f, pipeline) in (("before", ([], BACKEND)), ("after", after)):
        programs, asm_lines = compile_variant(opt, path, f, pipeline, tmpdir)
        flat = []
        for program in programs:
            for loop in program.loops:
                flat.append((program, loop))
        if len(asm_lines) != len(flat):
            sys.stderr.write("%s: %d loops in the IR, %d in the assembly\n"
                             % (path, len(flat), len(asm_lines)))
            sys.exit(1)
        variants[key] = [(p, l, measure_loop(p, l), n)
                         for (p, l), n in zip(flat, asm_lines)]
    if len(variants["before"]) != len(variants["after"]):
        sys.stderr.write("%s: the flags changed the number of loops\n" % path)
        sys.exit(1)
    for b, a in zip(variants["before"], variants["after"]):
        program, loop, mb, nb = b
        _, _, ma, na = a
        mb["body_asm_lines"] = nb
        ma["body_asm_lines"] = na
        results.append({
            "file": os.path.relpath(path, ROOT) if path.startswith(ROOT)
            else path,
            "program": program.name,
            "loop": loop.index,
            "depth": loop.depth,
            "before": mb,
            "after": ma,
        })
    return results


COLUMNS = [
    ("scale_pack_valu", "scale-pack VALU"),
    ("buffer_load_address_valu", "buffer-load address VALU"),
    ("lds_address_valu", "LDS address VALU"),
    ("soffset_salu", "soffset SALU"),
    ("body_asm_lines", "body asm lines"),
]


def format_tables(rows, flags):
    out = []
    out.append("Before: `waveasm-opt %s`; after: `waveasm-opt %s`." % (
        BACKEND, " ".join(flags) + " " + BACKEND if flags else PRODUCTION))
    out.append("")
    out.append("| loop | " + " | ".join(title for _, title in COLUMNS)
               + " |")
    out.append("|---|" + "---|" * len(COLUMNS))
    for r in rows:
        name = "%s @%s loop %d%s" % (os.path.basename(r["file"]),
                                     r["program"], r["loop"],
                                     " (nested)" if r["depth"] else "")
        cells = ["%d -> %d" % (r["before"][k], r["after"][k])
                 for k, _ in COLUMNS]
        out.append("| %s | %s |" % (name, " | ".join(cells)))
    out.append("")
    out.append("Per descriptor (before -> after): buffer-load address VALU"
               " / soffset SALU")
    out.append("")
    out.append("| loop | SRD | address VALU | soffset SALU |")
    out.append("|---|---|---|---|")
    for r in rows:
        srds = sorted(set(r["before"]["buffer_load_address_valu_per_srd"])
                      | set(r["after"]["buffer_load_address_valu_per_srd"]))
        for srd in srds:
            def get(which, key):
                return r[which][key].get(srd, 0)
            out.append("| %s @%s loop %d | %s | %d -> %d | %d -> %d |" % (
                os.path.basename(r["file"]), r["program"], r["loop"], srd,
                get("before", "buffer_load_address_valu_per_srd"),
                get("after", "buffer_load_address_valu_per_srd"),
                get("before", "soffset_salu_per_srd"),
                get("after", "soffset_salu_per_srd")))
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernels", nargs="*",
                        help="kernels (default: examples/*.mlir)")
    parser.add_argument("--waveasm-opt", default=os.environ.get(
        "WAVEASM_OPT", os.path.join(ROOT, "build", "bin", "waveasm-opt")))
    parser.add_argument("--flags", default="",
                        help="waveasm-opt passes of the 'after' variant, "
                        "then the backend passes (default: none, the "
                        "production order %s)" % PRODUCTION)
    parser.add_argument("--json",
                        default=os.path.join(ROOT, "bench", "results",
                                             "seed001.json"))
    parser.add_argument("--no-json", action="store_true")
    args = parser.parse_args()

    kernels = args.kernels or sorted(
        glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    flags = shlex.split(args.flags)
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir:
        for path in kernels:
            rows.extend(measure_file(args.waveasm_opt, path, flags, tmpdir))
    print(format_tables(rows, flags))
    if not args.no_json:
        os.makedirs(os.path.dirname(args.json), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"before": BACKEND,
                       "after": " ".join(flags) + " " + BACKEND if flags
                       else PRODUCTION, "loops": rows}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
