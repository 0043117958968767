#!/usr/bin/env python3
"""Cycle model vs llvm-mca: cycles per loop iteration, and schedule rankings.

For every loop of every example kernel (examples/*.mlir, and
../shared/waveasm/examples/*.mlir when present) this prints our
`est_cycles_per_iter` next to llvm-mca's estimate for the same emitted loop
body:

  ours   `waveasm-opt --loop-invariant-code-motion --canonicalize
          --waveasm-metrics FILE`: the metrics of the reference pipeline's
          schedule, i.e. exactly the code the assembly below comes from
          (compile-and-measure after the reference pipeline's cleanups).  The
          Conductor's own number (`waveasm-opt --waveasm-metrics FILE`, no
          cleanups) is recorded as `est_cycles_per_iter_conductor`; the two
          differ only if LICM/canonicalize change the loop.
  mca    the instructions between `L_loop_N:` and its back edge
          `s_cbranch_scc1 L_loop_N` (the branch included; labels, comments and
          directives dropped) in `waveasm-opt --waveasm-pipeline
          --emit-assembly FILE`, fed to `llvm-mca -mtriple=amdgcn-amd-amdhsa
          -mcpu=gfx942` (gfx950 kernels: also -mcpu=gfx950, the primary
          column).  We use the *marginal* cycles per iteration,
          (TotalCycles(2N) - TotalCycles(N)) / N with N = --iterations
          (default 100): llvm-mca's steady state, without the pipeline fill
          and the final drain (which, e.g., waits out s_barrier's modelled
          500-cycle latency once).  "Total Cycles / iterations" and the
          block reciprocal throughput (resource bound, comparable to our
          lower_bound_cycles) are recorded too.

Loop N in the assembly is the N-th loop in program pre-order, the order of
the metrics' "loops" list.  Loops containing another loop or an `if` are
flagged: llvm-mca runs the straight line (an inner loop once, both arms of
an if), the cycle model costs inner loops trip-count times and the slower
arm.

Ranking: each bench/mca_variants/*.mlir is the same GEMM K loop in a
different order (reads clustered / pipelined / interleaved with the MFMAs,
global loads early / late).  Both judges rank the variants by cycles per
iteration; the script prints both orderings and Kendall's tau-b.

What llvm-mca sees (AMDGPU scheduling model + AMDGPUCustomBehaviour): an
in-order, dispatch-width-1 machine with per-instruction latency and
resource cycles from the LLVM scheduling model (e.g. VMEM loads 80 cycles,
LDS 5, SMEM 5, s_barrier 500, MFMA by pass count); register dependencies on
the physical registers (so allocation's reuse is visible); `s_waitcnt`
modelled by the custom behaviour: it blocks until few enough in-flight
instructions of each counter remain, with their modelled latencies.  What it
does not see: control flow (the body is a straight line repeated), real
memory latency and bandwidth (fixed latencies, no cache, no LDS bank
conflicts, no contention), other waves (no occupancy, a barrier never waits
for anybody, it only has a long latency), the MFMA-specific dependency rules
(SrcC forwarding, the hazard wait states the s_nops provide are just
s_nops), instruction issue arbitration between waves, and s_setprio.
The JSON records every llvm-mca latency / reciprocal throughput it used
("mca_instruction_info"), to compare with analysis/TargetModel.cpp.

Writes bench/results/mca_compare.json.  Exit status 2 when a valid example
fails to compile or llvm-mca fails on a gfx942 body; never because of a
difference in numbers.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep bench/ free of __pycache__
sys.path.insert(0, HERE)
import procbench  # noqa: E402  (stdlib-only sibling module)

REPO = procbench.REPO
DEFAULT_MCA = "/usr/lib/llvm-22/bin/llvm-mca"
REFERENCE_CLEANUPS = ["--loop-invariant-code-motion", "--canonicalize"]


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line:
            return line.strip()[:400]
    return stderr.strip()[:400]


# ---------------------------------------------------------------- the model
def metrics(opt, path, cleanups):
    rc, out, err = run([opt] + (REFERENCE_CLEANUPS if cleanups else []) +
                       ["--waveasm-metrics", path])
    if rc != 0:
        return None, first_error(err)
    return json.loads(out)["programs"], None


# ------------------------------------------------------------ the assembly
LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):\s*(?:;.*)?$")
LOOP_LABEL = re.compile(r"^L_loop_(\d+)$")


def instruction_lines(lines):
    """Instructions only: labels, comments, directives and blanks dropped."""
    out = []
    for line in lines:
        s = line.split(";", 1)[0].strip()
        if not s or s.startswith(".") or LABEL.match(s):
            continue
        out.append(s)
    return out


def split_programs(asm):
    """{program symbol: [lines]}: the lines from each `.type X,@function`
    symbol's label to the next section, metadata or function."""
    functions = set(re.findall(r"^\s*\.type\s+([^,\s]+)\s*,\s*@function", asm, re.M))
    progs, cur = {}, None
    for line in asm.splitlines():
        s = line.strip()
        m = LABEL.match(s)
        if m and m.group(1) in functions:
            cur = m.group(1)
            progs[cur] = []
            continue
        if s.startswith((".section", ".amdgpu_metadata", ".end_amdgpu_metadata")):
            cur = None
        if cur is not None:
            progs[cur].append(line)
    return progs


def extract_loops(lines):
    """Loop bodies in label (= emission = pre-order) order."""
    loops = []
    for i, line in enumerate(lines):
        m = LABEL.match(line.strip())
        if not m or not LOOP_LABEL.match(m.group(1)):
            continue
        label = m.group(1)
        back = re.compile(r"^\s*s_cbranch_\w+\s+%s\s*(?:;.*)?$" % re.escape(label))
        for j in range(i + 1, len(lines)):
            if back.match(lines[j]):
                break
        else:
            loops.append({"label": label, "error": "no back edge found"})
            continue
        inner = lines[i + 1:j + 1]
        labels = [LABEL.match(l.strip()).group(1) for l in inner if LABEL.match(l.strip())]
        loops.append({
            "label": label,
            "body": instruction_lines(inner),
            "contains_loop": any(LOOP_LABEL.match(l) for l in labels),
            "contains_if": any(l.startswith("L_if_") for l in labels),
        })
    return loops


# ----------------------------------------------------------------- llvm-mca
def mca_run(mca, mcpu, text, iterations, info=False):
    argv = [mca, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + mcpu,
            "-iterations=%d" % iterations]
    if not info:
        argv.append("-instruction-info=0")
    r = subprocess.run(argv, input=text, capture_output=True, text=True)
    if r.returncode != 0:
        return None, first_error(r.stderr)
    return r.stdout, None


def mca_numbers(mca, mcpu, body, iterations, info_table):
    text = "\n".join(body) + "\n"
    out1, err = mca_run(mca, mcpu, text, iterations, info=True)
    if err:
        return {"error": err}
    out2, err = mca_run(mca, mcpu, text, 2 * iterations)
    if err:
        return {"error": err}

    def field(out, name):
        m = re.search(r"^%s:\s+([\d.]+)" % re.escape(name), out, re.M)
        return float(m.group(1)) if m else None

    c1, c2 = field(out1, "Total Cycles"), field(out2, "Total Cycles")
    collect_info(out1, mcpu, info_table)
    return {"cycles_per_iter": (c2 - c1) / iterations,
            "total_cycles_over_iterations": round(c1 / iterations, 2),
            "block_rthroughput": field(out1, "Block RThroughput"),
            "instructions": len(body)}


def collect_info(out, mcpu, table):
    """Per mnemonic: the latency and reciprocal throughput llvm-mca used."""
    sec = out.split("Instruction Info:", 1)
    if len(sec) < 2:
        return
    for line in sec[1].splitlines():
        m = re.match(r"^\s*(\d+)\s+(\d+)\s+([\d.]+)\s+(?:[*U ]+\s+)?([a-z_]\w*)", line)
        if m:
            key = "%s %s" % (mcpu, m.group(4))
            table[key] = {"latency": int(m.group(2)), "rthroughput": float(m.group(3))}
        elif line.startswith("Resources:"):
            break


# ------------------------------------------------------- per-opcode models
ENCODING_SUFFIX = re.compile(r"_(e32|e64|sdwa|dpp)$")
MFMA_BLOCKS = re.compile(r"_(2b|4b|16b)_")


def op_name(mnemonic):
    """The WaveASM op of an assembly mnemonic: encoding suffixes and the
    emitter's MFMA block markers (`_4b_`) dropped."""
    return MFMA_BLOCKS.sub("_", ENCODING_SUFFIX.sub("", mnemonic))


def why_different(name, unit, ours, mca):
    """Why our number differs from LLVM's, per kind of difference (both in
    issue slots)."""
    if unit == "MFMA":
        if ours["occupancy"] != mca["rthroughput"]:
            return "pass count differs"
        return ("result latency: ours = the hazard wait states + 1 "
                "(SCHEDULING-FACTS.md), LLVM's = passes + a fixed write latency")
    if unit == "VMEM":
        return ("memory latency: ours = the upstream model's global latency (100), "
                "LLVM's SISchedule WriteVMEM = 80; neither models caches")
    if unit == "LDS":
        return ("LDS latency: ours = the upstream model's 20, LLVM's WriteLDS = 5 "
                "(best case, no bank conflicts)")
    if unit == "SMEM":
        return "scalar load: ours = 16 (a scalar-cache hit, ~64 clocks), LLVM's = 5"
    if name == "s_barrier":
        return ("LLVM charges a barrier 500 (a guess in SISchedule.td); a single "
                "wave never waits at one, so ours is 1 issue slot")
    if unit == "branch":
        return "LLVM's WriteBranch = 8 (taken-branch refetch); ours issues the branch in 1 slot"
    if name.startswith("v_cvt"):
        return ("LLVM's WriteFloatCvt = 4 (quarter rate); ours treats conversions "
                "as full-rate VALU (no CDNA3 source says otherwise)")
    return "other"


def compare_opcodes(model, info):
    """[{mcpu, mnemonic, op, unit, ours_latency, mca_latency, ours_occupancy,
    mca_rthroughput, why}] for every opcode llvm-mca costed, differences
    first."""
    rows = []
    for key, mca in sorted(info.items()):
        mcpu, mnemonic = key.split(" ", 1)
        name = op_name(mnemonic)
        ours = model.get(mcpu, {}).get(name)
        if ours is None:
            continue
        same = (ours["latency"] == mca["latency"] and
                ours["occupancy"] == mca["rthroughput"])
        rows.append({"mcpu": mcpu, "mnemonic": mnemonic, "op": name,
                     "unit": ours["unit"], "ours_latency": ours["latency"],
                     "mca_latency": mca["latency"],
                     "ours_occupancy": ours["occupancy"],
                     "mca_rthroughput": mca["rthroughput"],
                     "same": same,
                     "why": None if same else why_different(name, ours["unit"], ours, mca)})
    rows.sort(key=lambda r: (r["same"], r["mcpu"], r["unit"], r["op"]))
    return rows


# ------------------------------------------------------------------ ranking
def pair_counts(xs, ys):
    """(concordant, discordant, tied in xs only, tied in ys only, tied in both)."""
    n = len(xs)
    c = d = tx = ty = tb = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                tb += 1
            elif dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                c += 1
            else:
                d += 1
    return c, d, tx, ty, tb


def kendall_tau_b(xs, ys):
    n = len(xs)
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                conc += 1
            else:
                disc += 1
    denom = ((conc + disc + tx) * (conc + disc + ty)) ** 0.5
    return (conc - disc) / denom if denom else None


def order(names, values):
    """'a < b = c' (best first)."""
    pairs = sorted(zip(values, names))
    out = pairs[0][1]
    for (v0, _), (v1, n1) in zip(pairs, pairs[1:]):
        out += (" = " if v0 == v1 else " < ") + n1
    return out


# --------------------------------------------------------------- per file
def target_of(path):
    try:
        text = open(path).read()
    except OSError:
        return None
    m = re.search(r"#waveasm\.(gfx\d+)", text)
    return m.group(1) if m else None


def analyse(opt, mca, path, iterations, info_table, mcpus_for):
    rec = {"file": os.path.relpath(path, REPO) if path.startswith(REPO) else path}
    target = target_of(path)
    rec["target"] = target
    rc, _, err = run([opt, path, "-o", os.devnull])
    if rc != 0:
        rec["skipped"] = "does not verify: " + first_error(err)
        return rec
    if target not in ("gfx942", "gfx950"):
        rec["skipped"] = "target %s has no llvm-mca comparison" % target
        return rec
    progs, err = metrics(opt, path, cleanups=True)
    if err:
        rec["error"] = "metrics: " + err
        return rec
    conductor, err = metrics(opt, path, cleanups=False)
    rc, asm, err_asm = run([opt, "--waveasm-pipeline", "--emit-assembly", path])
    if rc != 0:
        rec["error"] = "--waveasm-pipeline --emit-assembly: " + first_error(err_asm)
        return rec
    asm_progs = split_programs(asm)
    rec["programs"] = []
    for pi, prog in enumerate(progs):
        lines = asm_progs.get(prog["name"], [])
        bodies = extract_loops(lines)
        cond = conductor[pi]["loops"] if conductor and pi < len(conductor) else []
        p = {"name": prog["name"], "loops": []}
        if len(bodies) != len(prog["loops"]):
            p["error"] = "%d loops in the metrics, %d in the assembly" % (
                len(prog["loops"]), len(bodies))
        for li, lm in enumerate(prog["loops"]):
            L = {"index": li,
                 "est_cycles_per_iter": lm["est_cycles_per_iter"],
                 "lower_bound_cycles": lm["lower_bound_cycles"],
                 "busiest_unit": lm["busiest_unit"],
                 "critical_path": lm["critical_path"]}
            if li < len(cond):
                L["est_cycles_per_iter_conductor"] = cond[li]["est_cycles_per_iter"]
            if li < len(bodies):
                b = bodies[li]
                L["label"] = b["label"]
                if "error" in b:
                    L["error"] = b["error"]
                else:
                    L["contains_loop"] = b["contains_loop"]
                    L["contains_if"] = b["contains_if"]
                    L["mca"] = {}
                    for mcpu in mcpus_for(target):
                        L["mca"][mcpu] = mca_numbers(mca, mcpu, b["body"], iterations,
                                                     info_table)
                    L["mcpu"] = target
            p["loops"].append(L)
        rec["programs"].append(p)
    return rec


def loops_of(rec):
    for p in rec.get("programs", []):
        for L in p["loops"]:
            yield p, L


def primary(L):
    m = L.get("mca", {}).get(L.get("mcpu"), {})
    return m.get("cycles_per_iter") if "error" not in m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--waveasm-opt", dest="tool", help="path to waveasm-opt "
                    "(default $WAVEASM_OPT, else build/bin/waveasm-opt)")
    ap.add_argument("--llvm-mca", default=os.environ.get("LLVM_MCA"),
                    help="path to llvm-mca (default $LLVM_MCA, else %s)" % DEFAULT_MCA)
    ap.add_argument("--iterations", type=int, default=100,
                    help="llvm-mca iterations N (cycles/iter = (C(2N)-C(N))/N; default 100)")
    ap.add_argument("--examples", nargs="*", metavar="FILE",
                    help="kernels to compare (default examples/*.mlir and "
                         "../shared/waveasm/examples/*.mlir)")
    ap.add_argument("--variants", nargs="*", metavar="FILE",
                    help="ranking variants (default bench/mca_variants/*.mlir)")
    ap.add_argument("--target-model", help="path to waveasm-target-model (the "
                    "per-opcode comparison; default build/bin/waveasm-target-model)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "mca_compare.json"),
                    help="JSON output (default bench/results/mca_compare.json)")
    args = ap.parse_args()

    opt = procbench.find_tool(args.tool)
    mca = args.llvm_mca or DEFAULT_MCA
    mca = shutil.which(mca) or shutil.which("llvm-mca-22") or mca
    if not (os.path.isfile(mca) and os.access(mca, os.X_OK)):
        sys.exit("llvm-mca not found: %s" % mca)

    if args.examples is not None:
        examples = args.examples
    else:
        examples = sorted(glob.glob(os.path.join(REPO, "examples", "*.mlir")))
        examples += sorted(glob.glob(os.path.join(REPO, "..", "shared", "waveasm",
                                                  "examples", "*.mlir")))
    examples = [os.path.abspath(p) for p in examples]
    variants = args.variants if args.variants is not None else sorted(
        glob.glob(os.path.join(HERE, "mca_variants", "*.mlir")))
    variants = [os.path.abspath(p) for p in variants]

    def mcpus_for(target):
        return ["gfx942"] if target == "gfx942" else ["gfx950", "gfx942"]

    info = {}
    files = [analyse(opt, mca, p, args.iterations, info, mcpus_for) for p in examples]
    vars_ = [analyse(opt, mca, p, args.iterations, info, mcpus_for) for p in variants]

    failed = False
    hdr = "%-40s %-4s %6s %6s %-13s %7s %8s %7s  %s" % (
        "kernel / loop", "mcpu", "instrs", "ours", "ours bound", "mca", "mca/ours", "mca RT",
        "notes")
    print("waveasm-opt: %s\nllvm-mca:    %s (cycles/iter = marginal over %d -> %d "
          "iterations)" % (opt, mca, args.iterations, 2 * args.iterations))
    print(hdr)
    print("-" * len(hdr))
    ratios = []
    for i, rec in enumerate(files + vars_):
        if i == len(files) and vars_:
            print("-- ranking variants (bench/mca_variants) --")
        name = os.path.basename(rec["file"])
        if "skipped" in rec:
            print("%-40s skipped: %s" % (name, rec["skipped"][:70]))
            continue
        if "error" in rec:
            failed = True
            print("%-40s ERROR: %s" % (name, rec["error"][:160]))
            continue
        if not any(True for _ in loops_of(rec)):
            print("%-40s no loops" % name)
        for p, L in loops_of(rec):
            label = "%s %s" % (name[:-5] if name.endswith(".mlir") else name,
                               L.get("label", "loop %d" % L["index"]))
            if "error" in L or "error" in p:
                failed = True
                print("%-40s ERROR: %s" % (label, L.get("error") or p.get("error")))
                continue
            for mcpu, m in L["mca"].items():
                notes = []
                if L.get("contains_loop"):
                    notes.append("inner loop")
                if L.get("contains_if"):
                    notes.append("if")
                c = L.get("est_cycles_per_iter_conductor")
                if c is not None and c != L["est_cycles_per_iter"]:
                    notes.append("conductor est %d" % c)
                if mcpu != L["mcpu"]:
                    notes.append("secondary mcpu")
                if "error" in m:
                    if mcpu == L["mcpu"]:
                        failed = True
                        print("%-40s %-4s mca error: %s" % (label, mcpu[3:], m["error"][:90]))
                    else:
                        print("%-40s %-4s not assemblable for %s: %s" % (
                            label, mcpu[3:], mcpu, m["error"].split("error: ")[-1][:60]))
                    continue
                ours = L["est_cycles_per_iter"]
                ratio = m["cycles_per_iter"] / ours if ours else None
                if mcpu == L["mcpu"] and ratio and i < len(files):
                    ratios.append(ratio)
                print("%-40s %-4s %6d %6d %-13s %7.1f %8s %7.1f  %s" % (
                    label, mcpu[3:], m["instructions"], ours,
                    "%d %s" % (L["lower_bound_cycles"], L["busiest_unit"]),
                    m["cycles_per_iter"], "%.2f" % ratio if ratio else "-",
                    m["block_rthroughput"], ", ".join(notes)))
                label = ""

    # Ranking of the variants.
    ranking = None
    names, ours_v, mca_v = [], [], []
    for rec in vars_:
        ls = list(loops_of(rec))
        if "error" in rec or "skipped" in rec or len(ls) != 1 or primary(ls[0][1]) is None:
            continue
        names.append(os.path.basename(rec["file"])[:-5])
        ours_v.append(ls[0][1]["est_cycles_per_iter"])
        mca_v.append(primary(ls[0][1]))
    if len(names) >= 2:
        tau = kendall_tau_b(ours_v, mca_v)
        c, d, tx, ty, tb = pair_counts(ours_v, mca_v)
        ranking = {"variants": names, "ours": ours_v, "mca": mca_v,
                   "pairs": {"concordant": c, "discordant": d, "tied_ours_only": tx,
                             "tied_mca_only": ty, "tied_both": tb},
                   "order_ours": order(names, ours_v), "order_mca": order(names, mca_v),
                   "kendall_tau_b": tau,
                   "same_order": order(names, ours_v) == order(names, mca_v)}
        print("\nranking of bench/mca_variants (fewest cycles/iter first):")
        print("  ours: %s" % ranking["order_ours"])
        print("  mca:  %s" % ranking["order_mca"])
        print("  Kendall tau-b = %s (%s); pairs: %d concordant, %d discordant, "
              "%d tied by ours only, %d tied by mca only, %d tied by both" % (
                  "%.2f" % tau if tau is not None else "undefined",
                  "same order" if ranking["same_order"] else "orders differ",
                  c, d, tx, ty, tb))
    elif vars_:
        print("\nranking: fewer than two variants measured")
    if ratios:
        ratios.sort()
        print("mca/ours over the %d example loops: median %.2f, range %.2f-%.2f" % (
            len(ratios), ratios[len(ratios) // 2], ratios[0], ratios[-1]))

    dump = args.target_model or os.path.join(os.path.dirname(opt), "waveasm-target-model")
    opcodes = []
    if os.access(dump, os.X_OK):
        opcodes = compare_opcodes(json.loads(subprocess.check_output([dump])), info)
        print("\nper opcode, issue slots (ours vs llvm-mca; latency, unit occupancy "
              "vs reciprocal throughput):")
        for r in opcodes:
            print("  %-6s %-34s %-6s lat %4d vs %4d  occ %3d vs %5.1f  %s" % (
                r["mcpu"], r["mnemonic"], r["unit"], r["ours_latency"], r["mca_latency"],
                r["ours_occupancy"], r["mca_rthroughput"], r["why"] or "same"))
    else:
        print("\nno per-opcode comparison: %s not found" % dump)

    out = {
        "benchmark": "mca_compare",
        "description": "est_cycles_per_iter (waveasm-opt --waveasm-metrics after the "
                       "reference cleanups) vs llvm-mca on the emitted loop body of "
                       "waveasm-opt --waveasm-pipeline --emit-assembly",
        "date": procbench.now_utc(),
        "tool": opt,
        "llvm_mca": mca,
        "mca_metric": "marginal cycles per iteration: (TotalCycles(2N) - TotalCycles(N)) / N",
        "iterations": args.iterations,
        "host": procbench.host_info(procbench.loadavg()),
        "examples": files,
        "variants": vars_,
        "ranking": ranking,
        "mca_instruction_info": dict(sorted(info.items())),
        "per_opcode": opcodes,
    }
    procbench.write_json(args.out, out)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
