#!/usr/bin/env python3
"""Issue 12's before/after table: input, reorder only, pipelined, lower bound,
llvm-mca, for every innermost loop of the examples.

For every example (examples/*.mlir and the shared spec's
examples/*.mlir, the invalid_* ones excepted) and each innermost loop:

  input        est_cycles_per_iter of the loop and est_cycles of the
               program as written (`waveasm-opt --waveasm-metrics`: the
               measuring backend, no cleanups)
  reorder      the same after the latency strategy (`waveasm-strategy
               --strategy latency`, the best built-in reorder of one
               iteration)
  pipe2..pipe5 after `--waveasm-pipeline-loops=num-stages=S,loop=I` (the
               steady-state loop's cycles per iteration; LDS ping/pong
               where the stages need it)
  padded       the same after `--waveasm-pad-lds-layout` (issue 12 item 4:
               LDS rows padded so the ds accesses stop conflicting on
               banks; analysis/LdsPadding.h): the padded program as is
               (pad_input) and pipelined with 2..5 stages and auto
               (pad_pipe2 .. pad_pipe_auto); only where the pass pads,
               else its remark
  straight     a pipelined variant without a kernel loop: a trip count the
               IR gives left the pass's steady state straight (fewer
               steady steps than a kernel iteration needs, or a kernel that
               would run at most twice and measured slower): "straight
               (program est_cycles) P/T", P/T the program's cycles over the
               T trips, labelled: an average over fill and drain, not a
               steady state, so it is not compared with the per-iteration
               bound (the program columns are); then "+1 trip N": the
               marginal cost of one more trip, the same variant (same
               options; auto: the pass's own choice there) on the program
               with the loop run T + 1 times (trip_variants.py: the
               compare's constant moved) less the program at T, the honest
               per-iteration figure of a program without a steady state
  pipe_auto    steady-state loop's cycles per input iteration: the kernel's
               figure over its `waveasm.pipeline_steps`, the unroll of
               modulo variable expansion; LDS ping/pong where the stages
               need it); auto: the pass's own stage count; `best` is the
               best of them
  with inner   for a loop that holds others (the pass pipelines innermost
               loops only): its figure in the best program of a loop nested
               in it, shown in the auto column ("with #1 pipe_auto")
  bound        the loop's lower bound as written (lower_bound_cycles and
               bound_kind: max of the resource bound, counted without
               waits, nops and same-class register copies, the
               recurrence bound of its loop-carried dependence cycles and
               the memory recurrence bound (a store the next iteration's
               load may read: kind "memory recurrence", JSON
               memory_recurrence_bound); LoopBounds.h), the first two, and
               how far the best schedule stays above a bound: for a loop
               whose trip count the IR gives, the best program against the
               program bound ("+11% program", the program column's
               figure: a T-trip program pays its loads' latency at least
               once and no schedule of it reaches T times the per-iteration
               bound), with the per-iteration comparison after it ("/iter
               +5%": the one to read for a long loop, whose program bound
               lets every load issue at once); else the best per-iteration
               figure (reorder or pipelined) against the loop's bound
  program      for a loop whose trip count the IR gives: the fewest
               est_cycles of any program above (input, reorder, pipelined,
               straight, padded, forced) with its waves, against the
               program's lower bound as written (the program's
               lower_bound_cycles and bound_kind, LoopBoundsProgram.h:
               every legal schedule of its ops, loops unrolled to their
               trip counts), and how far above it that program stays. A
               short loop cannot reach its per-iteration bound (its loads'
               latency is paid at least once); this is the figure to read
               for it
  latency      not a bound: latency_limited_cycles, what the global-load
               latency allows when the loads are prefetched as far ahead
               as the VGPR file holds at the program's occupancy
               (max_prefetch_distance); max(bound, latency) is what the
               table calls reachable at the current occupancy
  waves        occupancy as written -> of the best pipelined program
               (unified VGPR+AGPR file on gfx90a/942/950)
  fewer waves  where the pass refused a faster kernel for the waves it
               costs (WaveCost.h: fewer cycles per wave win) and its remark
               names the options that force it ("lds-buffers=6
               lds-spare=1 forces it"), that variant run again with them:
               the fastest one, its options and waves; it counts in `best`
               (fewer cycles an iteration at the occupancy shown)
  mca          llvm-mca cycles per iteration of the emitted loop body
               (mca_compare.py's helpers) for the input and for the best
               pipelined steady-state loop

Every per-iteration figure is the cycle model's steady state: iterations
simulated until their duration converges (at least max(3, d + 2) for a
prefetch distance d, CycleModel.h "Loops"), so a loop whose loads are read
d >= 2 iterations later is not credited with iterations that wait on
nothing. A loop the pass leaves alone reports its remark instead of
pipe2/pipe3.
Writes bench/results/pipeline_table.json and prints a markdown table.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import mca_compare  # noqa: E402
import strategy_gain  # noqa: E402
import trip_variants  # noqa: E402

REPO = mca_compare.REPO
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared", "waveasm", "examples"))


def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def programs(opt, path):
    rc, out, err = run([opt, "--waveasm-metrics", path])
    if rc != 0:
        return None
    return json.loads(out)["programs"]


def pipelined(opt, path, out, stages, loop, extra=""):
    """(changed, remark, forces): the pass's output in `out`; a loop it
    leaves alone (a remark, or nothing for a loop that is not innermost) is
    unchanged. `stages` None: the pass's own choice (stages from the load
    latency). `forces`: the options a remark names for a faster kernel the
    pass refused for the waves it costs ("...; lds-buffers=6 lds-spare=1
    forces it)"), else None."""
    options = ("num-stages=%d " % stages if stages else "") + "loop=%d" % loop + extra
    rc, _, err = run([opt, "--waveasm-pipeline-loops=" + options, path, "-o", out])
    remark = next((l.split("remark: ", 1)[1] for l in err.splitlines() if "remark: " in l), None)
    forces = re.search(r"; ((?:[a-z-]+=[a-z0-9-]+ ?)+) forces it\)", err)
    if rc != 0:
        return False, mca_compare.first_error(err), None
    _, same, _ = run([opt, path])
    with open(out) as f:
        changed = f.read() != same
    return changed, remark if not changed else None, forces.group(1).strip() if forces else None


def padded(opt, path, out):
    """(True, remark) when the pass padded the LDS into `out`, else
    (False, remark)."""
    rc, _, err = run([opt, "--waveasm-pad-lds-layout", path, "-o", out])
    remark = next((l.split("remark: ", 1)[1] for l in err.splitlines() if "remark: " in l), None)
    if rc != 0:
        return False, mca_compare.first_error(err)
    return bool(remark and remark.startswith(("LDS layout padded", "LDS layout swizzled"))), remark


PIPE_KEYS = ("pipe2", "pipe3", "pipe4", "pipe5", "pipe_auto")
PAD_KEYS = ("pad_input",) + tuple("pad_" + k for k in PIPE_KEYS)
# A pipelined variant run again with the options its remark names for a
# kernel refused for its occupancy: fewer cycles an iteration, fewer waves.
FORCED_KEYS = tuple(k + "_forced" for k in PIPE_KEYS + PAD_KEYS[1:])


def loop_entry(progs, name, li):
    p = next((p for p in progs if p["name"] == name), None)
    if p is None or li >= len(p["loops"]):
        return None, None
    return p["loops"][li]["est_cycles_per_iter"], p["est_cycles"]


def occupancy_of(progs, name):
    p = next((p for p in progs if p["name"] == name), None) if progs else None
    return (p["occupancy"], p["peak_vgpr"], p["peak_agpr"]) if p else None


def mca_of(opt, mca, path, target, name, li, iterations):
    try:
        bodies = strategy_gain.loop_bodies(opt, path, target).get(name, [])
    except RuntimeError:
        return None
    body = bodies[li].get("body") if li < len(bodies) else None
    c = strategy_gain.mca_cycles(mca, target, body, iterations)
    return round(c, 1) if c is not None else None


def analyse(tools, path, label, budget, iterations):
    opt, tool, mca = tools
    target = mca_compare.target_of(path) or "gfx942"
    rows = []
    progs = programs(opt, path)
    if progs is None:
        return [{"kernel": label, "error": "metrics failed"}]
    with tempfile.TemporaryDirectory() as tmp:
        pad_path = os.path.join(tmp, "padded.mlir")
        is_padded, pad_remark = padded(opt, path, pad_path)
        progs_pad = programs(opt, pad_path) if is_padded else None
        reo = os.path.join(tmp, "reorder.mlir")
        try:
            strategy_gain.schedule(tool, "latency", path, reo, budget)
            progs_reo = programs(opt, reo)
        except RuntimeError:
            progs_reo = None
        for prog in progs:
            name = prog["name"]
            for li in range(len(prog["loops"])):
                L = prog["loops"][li]
                row = {"kernel": label, "program": name, "loop": li, "target": target,
                       "input": [L["est_cycles_per_iter"], prog["est_cycles"]],
                       "bound": L["lower_bound_cycles"],
                       "bound_kind": L.get("bound_kind"),
                       "resource_bound": L.get("resource_bound_cycles"),
                       "busiest_unit": L.get("busiest_unit"),
                       "recurrence_bound": L.get("recurrence_bound_cycles"),
                       "memory_recurrence_bound": L.get("memory_recurrence_bound_cycles"),
                       "latency_limited": L.get("latency_limited_cycles"),
                       "prefetch_distance": L.get("prefetch_distance"),
                       "max_prefetch_distance": L.get("max_prefetch_distance"),
                       "steady_iterations": L.get("steady_iterations"),
                       "trip_count": L.get("trip_count"),
                       "trip_count_source": L.get("trip_count_source"),
                       "program_bound": prog.get("lower_bound_cycles"),
                       "program_bound_kind": prog.get("bound_kind"),
                       "occupancy": occupancy_of(progs, name)}
                row["reorder"] = list(loop_entry(progs_reo, name, li)) if progs_reo else None
                row["padding"] = pad_remark
                best = None
                if progs_pad:
                    e = loop_entry(progs_pad, name, li)
                    row["pad_input"] = {"est_cycles_per_iter": e[0], "est_cycles": e[1],
                                        "steps": 1, "occupancy": occupancy_of(progs_pad, name)}
                    if e[0] is not None:
                        best = ("pad_input", e[0], pad_path, progs_pad)
                variants = [(s, path, "") for s in (2, 3, 4, 5, None)]
                if progs_pad:
                    variants += [(s, pad_path, "pad_") for s in (2, 3, 4, 5, None)]
                variants = [(s, src, prefix, "") for s, src, prefix in variants]
                # The source with the loop run one trip more, made once
                # per source for the straight variants' marginal cost.
                one_more = {}
                while variants:
                    s, src, prefix, extra = variants.pop(0)
                    key = prefix + ("pipe%d" % s if s else "pipe_auto") + ("_forced" if extra else "")
                    out = os.path.join(tmp, "%s_%d_%s.mlir" % (name, li, key))
                    ok, remark, forces = pipelined(opt, src, out, s, li, extra)
                    if forces and not extra:
                        variants.append((s, src, prefix, " " + forces))
                    if not ok:
                        row[key] = {"remark": remark}
                        continue
                    p = programs(opt, out)
                    e = loop_entry(p, name, li) if p else (None, None)
                    text = open(out).read()
                    # A known trip count whose steady state the pass ran
                    # straight (no kernel loop left): the program's figure
                    # only, there is no steady state to divide.
                    straight = e[0] is None and "waveasm.counted_waits" in text
                    if straight:
                        sp = next((q for q in p if q["name"] == name), None) if p else None
                        e = (None, sp["est_cycles"] if sp else None)
                    lds = re.search(r"lds_size = (\d+)", text)
                    # One kernel iteration runs `steps` input iterations
                    # (modulo variable expansion): figures per input
                    # iteration are the kernel's divided by it.
                    steps = max([1] + [int(x) for x in
                                       re.findall(r"waveasm.pipeline_steps = (\d+)", text)])
                    per = round(e[0] / steps, 1) if e[0] is not None else None
                    kb = None
                    if p:
                        kprog = next((q for q in p if q["name"] == name), None)
                        if kprog and li < len(kprog["loops"]):
                            kb = round(kprog["loops"][li]["lower_bound_cycles"] / steps, 1)
                    trips = row["trip_count"] if row["trip_count_source"] in (
                        "inferred", "attribute") else None
                    row[key] = {"est_cycles_per_iter": per, "est_cycles": e[1],
                                "per_trip": round(e[1] / trips, 1)
                                if straight and trips and e[1] is not None else None,
                                "options": extra.strip() or None,
                                "kernel_est_cycles_per_iter": e[0], "steps": steps,
                                "kernel_bound_per_iter": kb,
                                "occupancy": occupancy_of(p, name),
                                "straight": straight,
                                "lds_size": int(lds.group(1)) if lds else None}
                    if straight and trips and e[1] is not None:
                        if src not in one_more:
                            text1 = trip_variants.with_trip_count(opt, src, name, li, trips + 1)
                            one_more[src] = None
                            if text1 is not None:
                                one_more[src] = os.path.join(tmp, "%s_%d_%strips%d.mlir" % (
                                    name, li, prefix, trips + 1))
                                with open(one_more[src], "w") as f:
                                    f.write(text1)
                        if one_more[src]:
                            out1 = out[:-len(".mlir")] + "_plus1.mlir"
                            ok1, _, _ = pipelined(opt, one_more[src], out1, s, li, extra)
                            p1 = programs(opt, out1) if ok1 else None
                            q1 = next((q for q in p1 if q["name"] == name), None) if p1 else None
                            if q1:
                                row[key]["plus_one_trip"] = q1["est_cycles"] - e[1]
                                row[key]["plus_one_trip_occupancy"] = q1["occupancy"]
                    if per is not None and (best is None or per < best[1]):
                        best = (key, per, out, p)
                row["best"] = best[0] if best else None
                mca_best = None
                if best:
                    # Per input iteration, like the model's figure.
                    c = mca_of(opt, mca, best[2], target, name, li, iterations)
                    mca_best = round(c / row[best[0]]["steps"], 1) if c is not None else None
                row["mca"] = [mca_of(opt, mca, path, target, name, li, iterations), mca_best]
                # The best program's metrics, for the loops that hold this one.
                row["best_programs"] = best[3] if best else None
                rows.append(row)
        for row in rows:
            with_inner(row, rows)
    for row in rows:
        row.pop("best_programs", None)
    return rows


def with_inner(row, rows):
    """A loop the pass leaves alone without a remark holds other loops (it
    is not innermost): its figure is the one it has once a loop nested in
    it is pipelined. The best output of each later loop of the program is
    measured at this loop's number, which pipelining a later loop leaves
    unchanged (pre-order: what the pass adds follows the loop it
    pipelines); a later loop outside this one leaves its figure as it was."""
    def left_alone_silently(key):
        p = row.get(key) or {}
        return p.get("remark") is None and p.get("est_cycles_per_iter") is None
    if not all(left_alone_silently(k) for k in PIPE_KEYS):
        return
    best = None
    for inner in rows:
        if inner.get("program") != row.get("program") or inner["loop"] <= row["loop"] \
                or not inner.get("best_programs") or not inner["best"].startswith(("pipe", "pad_")):
            continue
        e = loop_entry(inner["best_programs"], row["program"], row["loop"])
        if e[0] is not None and e[0] < row["input"][0] and (best is None or e[0] < best["est_cycles_per_iter"]):
            best = {"est_cycles_per_iter": e[0], "est_cycles": e[1], "inner_loop": inner["loop"],
                    "inner_schedule": inner["best"],
                    "occupancy": occupancy_of(inner["best_programs"], row["program"])}
    row["with_inner_pipelined"] = best


def fmt(v):
    return "-" if v is None else str(v)


def best_of(r):
    """The best per-iteration figure of any built-in schedule: input,
    reorder or pipelined."""
    cands = [r["input"][0]]
    if r.get("reorder") and r["reorder"][0] is not None:
        cands.append(r["reorder"][0])
    for key in PIPE_KEYS + PAD_KEYS + FORCED_KEYS + ("with_inner_pipelined",):
        p = r.get(key) or {}
        if p.get("est_cycles_per_iter") is not None:
            cands.append(p["est_cycles_per_iter"])
    return min(cands)


def best_program(r):
    """(est_cycles, key, waves) of the program of fewest est_cycles among
    every variant of the row (its loop's choice; occupancy aside). A loop
    that holds a pipelined one and is not pipelined itself (its figures
    come from `with_inner_pipelined`) counts that program too: without it
    the nested GEMM's outer row compared the input program (3601) while its
    per-iteration figure was the pipelined one's (934)."""
    cands = [(r["input"][1], "input", (r.get("occupancy") or [None])[0])]
    if r.get("reorder") and r["reorder"][1] is not None:
        cands.append((r["reorder"][1], "reorder", (r.get("occupancy") or [None])[0]))
    for key in PIPE_KEYS + PAD_KEYS + FORCED_KEYS:
        p = r.get(key) or {}
        if p.get("est_cycles") is not None and "remark" not in p:
            cands.append((p["est_cycles"], key, (p.get("occupancy") or [None])[0]))
    inner = r.get("with_inner_pipelined")
    if inner and inner.get("est_cycles") is not None:
        cands.append((inner["est_cycles"],
                      "with #%d %s" % (inner["inner_loop"], inner["inner_schedule"]),
                      (inner.get("occupancy") or [None])[0]))
    return min(cands, key=lambda c: c[0])


def counted(r):
    """A loop whose trip count the IR gives, with a program bound: its
    figures to compare with a bound are programs'."""
    return r.get("trip_count_source") in ("inferred", "attribute") and bool(r.get("program_bound"))


def plus_one(p):
    """A straight variant's marginal cost of one more trip, labelled."""
    if p.get("plus_one_trip") is None:
        return ""
    return ", +1 trip %s" % p["plus_one_trip"]


def program_vs_bound(r):
    """The program column: only for a loop whose trip count the IR gives."""
    if not counted(r):
        return "-"
    cycles, key, waves = best_program(r)
    return "%s %s (%s) vs %s %s: %+.0f%%" % (
        cycles, key.replace("_forced", " forced"), fmt(waves), r["program_bound"],
        r.get("program_bound_kind") or "", 100.0 * (cycles - r["program_bound"]) / r["program_bound"])


def markdown(rows):
    out = ["| kernel / loop | input /iter (program) | reorder /iter (program) | "
           "pipelined 2 st | pipelined 3 st | pipelined 4 st | pipelined 5 st | pipelined auto | "
           "best vs input | lower bound (kind) | "
           "resource | recurrence | best vs bound | "
           "program: best (waves) vs program bound (kind) | latency limit (d max) | "
           "waves in -> pipelined | mca input | mca pipelined | padded LDS (best padded) | "
           "fewer waves (options a remark names) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            out.append("| %s | error: %s |||||||||||||||||||" % (r["kernel"], r["error"]))
            continue
        def pipe(key):
            p = r.get(key)
            if not p:
                return "-"
            if "remark" in p:
                inner = r.get("with_inner_pipelined") if key == "pipe_auto" else None
                if inner:
                    return "%s (%s) with #%d %s" % (inner["est_cycles_per_iter"], inner["est_cycles"],
                                                   inner["inner_loop"], inner["inner_schedule"])
                return "not pipelined"
            if p.get("straight"):
                return "straight (%s) %s P/T%s" % (fmt(p["est_cycles"]), fmt(p.get("per_trip")),
                                                   plus_one(p))
            steps = " x%d" % p["steps"] if p.get("steps", 1) > 1 else ""
            return "%s (%s)%s" % (fmt(p["est_cycles_per_iter"]), fmt(p["est_cycles"]), steps)
        best = r.get("best")
        gain = "-"
        inner = r.get("with_inner_pipelined")
        if best or inner:
            b = r[best]["est_cycles_per_iter"] if best else inner["est_cycles_per_iter"]
            gain = "%+.1f%%" % (100.0 * (b - r["input"][0]) / r["input"][0]) if r["input"][0] else "-"
        reo = r.get("reorder")
        above = "%+.0f%%" % (100.0 * (best_of(r) - r["bound"]) / r["bound"]) if r["bound"] else "-"
        # A loop the pass runs straight has no steady state: its per-iteration
        # figure cannot reach a per-iteration bound, so it reads against the
        # program bound first. Loops with a kernel keep the per-iteration
        # comparison (the program column is beside it).
        if counted(r) and (r.get("pipe_auto") or {}).get("straight"):
            cycles, _, _ = best_program(r)
            above = "%+.0f%% program (/iter %s)" % (
                100.0 * (cycles - r["program_bound"]) / r["program_bound"], above)
        lat = "-"
        if r.get("latency_limited"):
            lat = "%d (%d)" % (r["latency_limited"], r.get("max_prefetch_distance") or 0)
        waves = "-"
        if r.get("occupancy"):
            waves = str(r["occupancy"][0])
            if best and (r[best] or {}).get("occupancy"):
                waves += " -> %d" % r[best]["occupancy"][0]
        padding = "-"
        m = re.match(r"LDS layout padded: rows of (\d+) B padded by (\d+) B",
                     r.get("padding") or "")
        swizzled = (r.get("padding") or "").startswith("LDS layout swizzled")
        if m or swizzled:
            keys = [k for k in PAD_KEYS
                    if (r.get(k) or {}).get("est_cycles_per_iter") is not None]
            k = min(keys, key=lambda k: r[k]["est_cycles_per_iter"]) if keys else None
            padding = "%s+%s B" % (m.group(1), m.group(2)) if m else "swizzled"
            if (r.get("pad_input") or {}).get("est_cycles_per_iter") is not None:
                padding += ": as written %s (%s)" % (r["pad_input"]["est_cycles_per_iter"],
                                                     r["pad_input"]["est_cycles"])
            if k:
                padding += ", best %s (%s)%s" % (r[k]["est_cycles_per_iter"],
                                                 k.replace("pad_", ""),
                                                 ", used" if best in PAD_KEYS else "")
        forced = "-"
        keys = [k for k in FORCED_KEYS if (r.get(k) or {}).get("est_cycles_per_iter") is not None]
        flat = [k for k in FORCED_KEYS if (r.get(k) or {}).get("straight")]
        if not keys and flat:
            k = min(flat, key=lambda k: r[k]["est_cycles"])
            f = r[k]
            forced = "straight (%s)%s %s, %s: %s waves" % (
                f["est_cycles"], plus_one(f), k.replace("_forced", ""), f["options"],
                f["occupancy"][0] if f.get("occupancy") else "-")
        if keys:
            k = min(keys, key=lambda k: r[k]["est_cycles_per_iter"])
            f = r[k]
            forced = "%s (%s) %s, %s: %s waves%s" % (
                f["est_cycles_per_iter"], f["est_cycles"], k.replace("_forced", ""),
                f["options"], f["occupancy"][0] if f.get("occupancy") else "-",
                ", used" if best == k else "")
        out.append("| %s #%d | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s %s | %s %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            os.path.basename(r["kernel"]), r["loop"], r["input"][0], r["input"][1],
            "%s (%s)" % (fmt(reo[0]), fmt(reo[1])) if reo else "-",
            pipe("pipe2"), pipe("pipe3"), pipe("pipe4"), pipe("pipe5"), pipe("pipe_auto"), gain, r["bound"], r.get("bound_kind") or "",
            fmt(r.get("resource_bound")), r.get("busiest_unit") or "",
            fmt(r.get("recurrence_bound")), above, program_vs_bound(r), lat, waves,
            fmt(r["mca"][0]), fmt(r["mca"][1]), padding, forced))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--waveasm-opt", default=os.path.join(REPO, "build", "bin", "waveasm-opt"))
    ap.add_argument("--waveasm-strategy",
                    default=os.path.join(REPO, "build", "bin", "waveasm-strategy"))
    ap.add_argument("--llvm-mca", default=os.environ.get("LLVM_MCA", mca_compare.DEFAULT_MCA))
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--budget", type=int, default=100,
                    help="compile-and-measure runs of the reorder search per loop")
    ap.add_argument("--kernels", nargs="*", metavar="FILE")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "pipeline_table.json"))
    args = ap.parse_args()
    kernels = args.kernels if args.kernels is not None else (
        sorted(glob.glob(os.path.join(REPO, "examples", "*.mlir"))) +
        sorted(p for p in glob.glob(os.path.join(SHARED, "*.mlir"))
               if not os.path.basename(p).startswith("invalid_")))
    tools = (args.waveasm_opt, args.waveasm_strategy, args.llvm_mca)
    rows = []
    for path in kernels:
        label = os.path.relpath(path, REPO) if path.startswith(REPO) else \
            "shared/" + os.path.basename(path)
        rows.extend(analyse(tools, path, label, args.budget, args.iterations))
    table = markdown(rows)
    print(table)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"rows": rows, "markdown": table}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
