//===- Passes.td - WaveASM backend passes ------------------*- tablegen -*-===//
//
// Flags and options keep upstream's names (SPEC.md 13) so one command line
// runs on both tools.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_PASSES_TD
#define WAVEASM_PIPELINE_PASSES_TD

include "mlir/Pass/PassBase.td"

def WaveASMLinearScan : Pass<"waveasm-linear-scan", "::waveasm::ProgramOp"> {
  let summary = "Linear-scan register allocation of virtual registers";
  let description = [{
    Assigns physical VGPR/SGPR/AGPR ranges to every virtual register value
    (SPEC.md 14): precolored values are respected, tuples are aligned, MFMA
    results are tied to their accumulators and loop-carried values to their
    block arguments. There is no spilling: when a class runs out, the pass
    reports the op where pressure peaks, the limit and the live values.
  }];
  let options = [
    Option<"maxVGPRs", "max-vgprs", "int64_t", "256", "VGPRs available">,
    Option<"maxSGPRs", "max-sgprs", "int64_t", "102", "SGPRs available">,
    Option<"maxAGPRs", "max-agprs", "int64_t", "256", "AGPRs available">,
    Option<"bidirectionalThreshold", "bidirectional-threshold", "int64_t",
           "75", "Allocate long multi-register VGPR ranges from the top when "
           "they span more than this percentage of the program (0 disables)">,
  ];
}

def WaveASMInsertWaitcnt
    : Pass<"waveasm-insert-waitcnt", "::waveasm::ProgramOp"> {
  let summary = "Insert s_waitcnt before uses of outstanding memory results";
  let options = [
    Option<"ticketedWaitcnt", "ticketed-waitcnt", "bool", "true",
           "Wait only as strictly as needed (ticketing); false waits for 0">,
    Option<"insertAfterLoads", "insert-after-loads", "bool", "false",
           "Wait for each load right after issuing it">,
    Option<"ticketedByWorkgroup", "ticketed-by-workgroup", "bool", "false",
           "Decide ticketed-waitcnt per program as the Wave compiler does: "
           "ticketed only when the workgroup has at least 2 waves in both M "
           "(x) and N (y)">,
  ];
}

def WaveASMHazardMitigation
    : Pass<"waveasm-hazard-mitigation", "::waveasm::ProgramOp"> {
  let summary = "Insert s_nop for the target's software hazards";
  let options = [
    Option<"target", "target", "std::string", "\"gfx942\"",
           "Target (gfx942, gfx950, gfx1250) when the program has none">,
    ListOption<"modelOverrides", "model-override", "std::string",
               "Target-model numbers to override, e.g. "
               "hazard.trans_to_valu=2 (see analysis/TargetModel.h)">,
  ];
}

//===----------------------------------------------------------------------===//
// Optimizations (pipeline/opt/, one file per pass): SPEC.md 6, 18 and 19.
// Each group below is kept in its own section.
//===----------------------------------------------------------------------===//

//--- peephole family: scoped CSE, peephole, m0 redundancy, memory offsets

def WaveASMScopedCSE : Pass<"waveasm-scoped-cse", "::waveasm::ProgramOp"> {
  let summary = "Common-subexpression elimination with one scope per region";
  let description = [{
    SPEC.md 19: an op equal to one earlier in its block or an enclosing
    region (same name, operands in either order for commutative ops,
    attributes, result types) is replaced by it. Ops marked `no_cse`,
    precolored values, memory, control and special-register ops are never
    merged; nor are ops whose implicit registers (VCC, SCC, EXEC) could
    differ between the two (opt/ScopedCSE.cpp).
  }];
}

def WaveASMPeephole : Pass<"waveasm-peephole", "::waveasm::ProgramOp"> {
  let summary = "Instruction-combining peepholes and the direct-to-LDS "
                "soffset rewrite";
  let description = [{
    SPEC.md 18.2, 18.4, 18.5, applied until none matches: lshl+or and
    lshl+add fusion, redundant moves, multiplications by powers of two,
    add/mul constant folding, shift pairs, additions of negations, zero MFMA
    accumulators, constant moves folded into their users, the BFE pack
    identity, and the scalar shift of a direct-to-LDS voffset moved to its
    soffset.
  }];
}

def WaveASMM0RedundancyElim
    : Pass<"waveasm-m0-redundancy-elim", "::waveasm::ProgramOp"> {
  let summary = "Erase s_mov_b32_m0 that writes the value M0 already holds";
}

def WaveASMMemoryOffsetOpt
    : Pass<"waveasm-memory-offset-opt", "::waveasm::ProgramOp"> {
  let summary = "Fold constant address addends into memory offset fields";
  let description = [{
    SPEC.md 19: constant addends of a memory op's address (through
    v_add_u32, disjoint v_or_b32, shifts, v_lshl_add_u32) move into
    `offset` (LDS, up to 65535) or `instOffset` (buffer/global/flat, up to
    4095); a larger constant stays as one `v_add_u32 K, base`.
  }];
}

//--- end of the peephole family

//--- loop optimizations: scale packs, buffer-load strength reduction,
//--- loop address promotion

def WaveASMScalePackElimination
    : Pass<"waveasm-scale-pack-elimination", "::waveasm::ProgramOp"> {
  let summary = "Carry byte-split scale dwords through loops as one dword";
  let description = [{
    SPEC.md 18.1: a `v_lshl_or_b32` chain (shifts 8, 16, 24) that repacks
    four byte iter_args, whose inits and yielded values are
    `v_bfe_u32(X, 0/8/16/24, 8)` groups, becomes one dword iter_arg; the
    chain and the in-loop byte extracts disappear. Inner loops first.
  }];
}

def WaveASMBufferLoadStrengthReduction
    : Pass<"waveasm-buffer-load-strength-reduction", "::waveasm::ProgramOp"> {
  let summary = "Hoist induction-derived buffer-load voffsets; bump soffset";
  let description = [{
    SPEC.md 18.3: a buffer load whose voffset is recomputed from the
    induction variable with address arithmetic gets a voffset computed once
    before the loop and an SGPR soffset iter_arg per (descriptor, stride,
    soffset) group, bumped by the stride with one `s_add_u32` per
    iteration. Then, over the whole program, a load with a zero soffset and
    voffset `v_add_u32(vgpr, sgpr)` takes the SGPR as soffset.
  }];
}

def WaveASMLoopAddressPromotion
    : Pass<"waveasm-loop-address-promotion", "::waveasm::ProgramOp"> {
  let summary = "Carry LDS read addresses of rotating buffers as iter_args";
  let description = [{
    SPEC.md 18.7: a `v_add_u32(invariant, rotating SGPR block argument)`
    feeding `ds_read*` becomes N VGPR iter_args (one per buffer of the
    rotation), computed before the loop and rotated on the back edge, so the
    body does no VALU LDS-address arithmetic (at the cost of N live VGPRs).
    With `vgpr-limit`, the production driver's fall-back: a program that
    would then need more VGPRs (after a trial allocation and compaction) is
    left unpromoted.
  }];
  let options = [
    Option<"vgprLimit", "vgpr-limit", "int64_t", "0",
           "Leave a program unpromoted when promotion makes it need more "
           "VGPRs than this (0: always promote, upstream's pass)">,
  ];
}

def WaveASMAssignLoopStages
    : Pass<"waveasm-assign-loop-stages", "::waveasm::ProgramOp"> {
  let summary = "Annotate loop bodies with software-pipelining stages";
  let description = [{
    Seed 003's ScheduleLoops (analysis/LoopStages.h): every op of an
    innermost loop body gets `waveasm.stage` and `waveasm.cluster`, the loop
    `waveasm.num_stages`; loads early, MFMAs late, within the dependence
    rules (SSA, iterations, loop control, memory through MemoryAlias,
    barriers, implicit registers). A loop that cannot be pipelined gets a
    remark naming the dependence and no attribute. The IR is otherwise
    unchanged.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", "2", "Stages (>= 2)">,
    Option<"loopIndex", "loop", "int64_t", "-1",
           "Only the loop with this index in program pre-order (-1: all)">,
  ];
}

def WaveASMPadLdsLayout
    : Pass<"waveasm-pad-lds-layout", "::waveasm::ProgramOp"> {
  let summary = "Pad the LDS row stride so ds accesses stop conflicting "
                "on banks";
  let description = [{
    Issue 12 item 4 (analysis/LdsPadding.h): the LDS is laid out as rows of
    `stride` bytes, each followed by `pad` bytes; every LDS access of the
    program is rewritten to the padded address (its lane term, its SGPR
    base and its `offset`), and `lds_size` grows by the padding. Without
    options the stride and pad with the fewest bank-conflict slots are
    chosen. A program with an access the analysis cannot map (an address
    that is not a known function of the thread id, a direct-to-LDS load, a
    two-address op), nothing to gain, or a padded size over the target's
    LDS (the remark gives the bytes over) is left unchanged with a remark.
  }];
  let options = [
    Option<"stride", "stride", "int64_t", "0",
           "Row stride in bytes, a power of two (0: chosen)">,
    Option<"pad", "pad", "int64_t", "0",
           "Bytes after each row (0: chosen with the stride)">,
  ];
}

def WaveASMDeepenLdsRotation
    : Pass<"waveasm-deepen-lds-rotation", "::waveasm::ProgramOp"> {
  let summary = "Make a direct-to-LDS rotation deeper (3 to 8 buffers)";
  let description = [{
    pipeline/opt/LdsDeepening.h: a loop that double-buffers its
    direct-to-LDS loads by hand (bases swapped through iter_args or toggled
    with s_xor_b32) gets N buffers with the loads issued N-1 steps ahead
    (a loop rotating R > 2 bases by hand keeps its R buffers and gets N - R
    more, its loads as many steps further ahead):
    the prologue issues the extra steps, the loop carries N rotating bases
    and runs N-2 iterations less, the epilogue runs those without loads;
    a trip count the IR does not give is guarded (the original loop below
    N-1 iterations). With `spare=1` one buffer stays spare: the loads run
    N-2 steps ahead and write the buffer read two steps earlier, so a
    barrier need not wait for the reads of the step before it.
    A loop it cannot rewrite (or that does not fit the target's LDS: the
    remark names the bytes over) gets a remark and no change.
    waveasm-pipeline-loops runs it first where it makes the program faster.
  }];
  let options = [
    Option<"buffers", "buffers", "int", "0",
           "LDS buffers: 3 to 8, more than the loop rotates (0: two more, "
           "else one when two do not fit or the trip count is too short)">,
    Option<"spare", "spare", "int", "0",
           "Buffers kept spare (0 or 1): the loads run buffers - 1 - spare "
           "steps ahead">,
    Option<"loopIndex", "loop", "int64_t", "-1",
           "Only the loop with this index in program pre-order (-1: all)">,
  ];
}

def WaveASMSwizzleDmaLds
    : Pass<"waveasm-swizzle-dma-lds", "::waveasm::ProgramOp"> {
  let summary = "Swizzle LDS tiles written by direct-to-LDS loads";
  let description = [{
    pipeline/opt/SwizzleDmaLds.h: every LDS byte address A is stored at
    A ^ ((A >> 4) & 0x30), so ds_read_b128 columns of 64-byte rows that a
    `buffer_load_dwordx4 ... lds` wrote stop conflicting on banks: the ds
    addresses are swizzled and each 16-byte DMA load's voffset is
    recomputed on the permuted thread id. A remark says what changed or
    why nothing did.
  }];
}

def WaveASMLoadsAfterReads
    : Pass<"waveasm-loads-after-reads", "::waveasm::ProgramOp"> {
  let summary = "Issue a loop's direct-to-LDS loads after its LDS reads";
  let description = [{
    pipeline/opt/LoadsAfterReads.h: the direct-to-LDS loads of a loop body
    (with their M0 writes and the SALU ops only they read) move after the
    body's LDS reads, right before the s_barrier that follows them, when
    analysis/LdsRotation.h proves the reads touch other bytes and nothing
    they pass forbids it (a barrier or wait, an SCC reader, M0 or EXEC, a
    global store): the reads start the iteration and the loads issue while
    the reads drain. A loop it cannot reorder gets a remark and no change.
    waveasm-pipeline-loops applies it where the pipelined program gets
    faster (`loads-after-reads`).
  }];
  let options = [
    Option<"loopIndex", "loop", "int64_t", "-1",
           "Only the loop with this index in program pre-order (-1: all)">,
  ];
}

def WaveASMPipelineLoops
    : Pass<"waveasm-pipeline-loops", "::waveasm::ProgramOp"> {
  let summary = "Software-pipeline waveasm.loop from its stage annotations";
  let description = [{
    Seed 003's Pipeline: prologue, steady-state loop and epilogue from the
    `waveasm.stage` annotations (hand-edited ones are checked by the same
    rules; loops without them are staged as waveasm-assign-loop-stages
    would). Values crossing stages travel through rotated iter_args.
    Known trip counts below the stage count are left alone; unknown ones
    are guarded by a `waveasm.if` that runs the original loop when too
    short. LDS written in an earlier stage than it is read gets one
    rotating copy per stage in flight (ping/pong). A loop that cannot be
    pipelined gets a remark and no change. With only-if-profitable, a
    pipelined loop is kept only when the program's est_cycles drops.
    The steady state is unrolled so that every value live across its back
    edge has its own registers (no rotation copies of loads in flight),
    and issues the prefetch first, then the later stages.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", "0",
           "Stages (0: the annotations, else 2 to 5 compiled: the fewest "
           "est_cycles of the program when the IR gives the trip count, else "
           "per input iteration; a stage more only for a gain above 1% and "
           "while the estimated occupancy holds)">,
    Option<"loopIndex", "loop", "int64_t", "-1",
           "Only the loop with this index in program pre-order (-1: all)">,
    Option<"onlyIfProfitable", "only-if-profitable", "bool", "false",
           "Keep a pipelined loop only when the program's est_cycles "
           "(compile-and-measure) goes down; a remark gives both figures">,
    Option<"unroll", "unroll", "int", "0",
           "Steady-state steps per kernel iteration (modulo variable "
           "expansion): 0 = auto, as many as the carried values need for "
           "their own registers unless that lowers the estimated occupancy, "
           "or, with a trip count the IR gives, the steady state straight "
           "(no kernel) when it has fewer steps than that or its kernel "
           "would run at most twice and straight measures faster per wave; "
           "N = exactly N">,
    Option<"stepOrder", "order", "std::string", "\"late-first\"",
           "Issue order of a step: late-first (the prefetch loads, then the "
           "latest stages first), reads-first (late-first with each stage's "
           "LDS reads ahead of its direct-to-LDS loads) or body; not given: "
           "late-first, and an LDS deepening with a spare buffer is also "
           "measured reads-first, the faster program kept">,
    Option<"ldsBuffers", "lds-buffers", "int", "0",
           "LDS buffers of a loop rotating its direct-to-LDS bases by hand "
           "(waveasm-deepen-lds-rotation first): 0 = the counts LDS allows, "
           "kept when the pipelined program gets faster (WaveCost.h); "
           "2 = never; 3 to 8 = that many whenever possible">,
    Option<"ldsSpare", "lds-spare", "int", "0",
           "With lds-buffers 4 to 8: buffers kept spare (0 or 1), so the "
           "barrier between two steps need not wait for the earlier step's "
           "LDS reads">,
    Option<"overlapOuter", "overlap-outer", "bool", "true",
           "Rotate a loop holding a pipelined kernel so one iteration's "
           "epilogue and tail overlap the next one's head and prologue "
           "(pipeline/opt/OuterOverlap.h); kept when the program's "
           "est_cycles drops">,
    Option<"versionDescriptors", "version-descriptors", "std::string",
           "\"auto\"",
           "An outer loop whose loads stay behind its stores only because "
           "their buffer descriptors are precolored: a run-time check that "
           "the descriptors' ranges are apart and a copy of the loop whose "
           "loads may pass the stores (pipeline/opt/DescriptorVersioning.h): "
           "auto = where the likely copy's est_cycles, the check's included, "
           "drop, never, always (where the check can be built)">,
    Option<"pairLdsReads", "pair-lds-reads", "std::string", "\"auto\"",
           "A pipelined loop's ds_read_b64 of one address 8..2040 bytes apart "
           "read as one ds_read2_b64 (pipeline/opt/PairLdsReads.h): auto = "
           "where the pipelined program's est_cycles drop, never, always">,
    Option<"loadsAfterReads", "loads-after-reads", "std::string", "\"auto\"",
           "A loop not deepened: its direct-to-LDS loads issued after its LDS "
           "reads (waveasm-loads-after-reads first): auto = where the "
           "pipelined program's est_cycles drop, never, always (where legal)">,
  ];
}

//--- end of the loop optimizations

//--- legalization and SCC: arith legalization, SCC spill/reload, SCC
//--- verifier, VGPR compaction

def WaveASMArithLegalization
    : Pass<"waveasm-arith-legalization", "::waveasm::ProgramOp"> {
  let summary = "Lower waveasm.arith.* pseudo ops to machine instructions";
  let description = [{
    SPEC.md 6: an op with a vector-register operand becomes VALU code with a
    VGPR result, an op on SGPRs and immediates SALU code; a VALU op reads at
    most one SGPR (extra ones are copied with v_mov_b32); 64-bit operations
    are split into 32-bit halves; compare results are 0/1 registers.
    Widths other than 32 and 64 bits are errors.
  }];
}

def WaveASMSCCSpillReload
    : Pass<"waveasm-scc-spill-reload", "::waveasm::ProgramOp"> {
  let summary = "Save SCC values that are overwritten before their use";
  let description = [{
    SPEC.md 19: an SCC value read after another SCC writer (or in a region
    the overwritten value reaches) is saved with `s_cselect_b32 1, 0` right
    after its producer and re-created with `s_cmp_ne_u32 saved, 0` right
    before each such reader. Runs before register allocation.
  }];
}

def WaveASMSCCVerifier : Pass<"waveasm-scc-verifier", "::waveasm::ProgramOp"> {
  let summary = "Report SCC values overwritten before their use";
}

def WaveASMVGPRCompaction
    : Pass<"waveasm-vgpr-compaction", "::waveasm::ProgramOp"> {
  let summary = "Reassign allocated VGPR ranges into the lowest free slots";
  let description = [{
    SPEC.md 19, after register allocation: every VGPR range (values that must
    share registers move together: loop-carried values, if results, MFMA
    accumulators, pack/extract/insert aliases) is placed again,
    shortest lifetime first, at the lowest free aligned base; precolored
    registers and the scratch v15 stay. The program is left unchanged when
    that would not lower its VGPR peak. SGPRs and AGPRs are not touched.
  }];
}

//--- end of legalization and SCC

//--- memory: LDS planning and redundant loads (seed 004)

def WaveASMLdsPlan : Pass<"waveasm-lds-plan", "::mlir::ModuleOp"> {
  let summary = "Plan LDS buffers in an arena; report peak, fragmentation, "
                "out of memory";
  let description = [{
    Per program, the LDS buffers its accesses touch (analysis/LdsBuffers.h),
    their lifetimes and an arena plan that reuses the bytes of buffers whose
    lifetimes do not overlap (analysis/LdsPlan.h), printed as JSON on
    stdout (`{"programs": [...]}`). A plan larger than the target's LDS is
    an error at the op where the most bytes are live, naming those buffers
    and the bytes missing; nothing changes. With `apply`, buffers move to
    their planned offsets (the `offset` of their ds ops) when that shrinks
    the LDS the program uses; buffers that cannot move stay.
  }];
  let options = [
    Option<"apply", "apply", "bool", "false",
           "Move buffers to their planned offsets when the arena shrinks">,
    Option<"alignment", "alignment", "int64_t", "128",
           "Least alignment of a moved buffer in bytes (128 keeps banks)">,
    Option<"json", "json", "bool", "true", "Print the plan as JSON on stdout">,
  ];
}

def WaveASMRedundantLoadElim
    : Pass<"waveasm-redundant-load-elim", "::waveasm::ProgramOp"> {
  let summary = "Reuse the result of an identical earlier load";
  let description = [{
    Seed 004: a load (global, scalar or LDS) equal to an earlier one in its
    block (same op, operands, attributes and types) with no write that may
    alias it (analysis/MemoryAlias.h), no barrier and no EXEC change in
    between is replaced by the earlier result (analysis/RedundantLoads.h).
    Programs with explicit waits are left alone: removing a load would
    change what their counts mean.
  }];
}

//--- end of memory

#endif // WAVEASM_PIPELINE_PASSES_TD
