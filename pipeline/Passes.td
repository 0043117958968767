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
  }];
}

//--- end of the loop optimizations

//--- legalization and SCC: arith legalization, SCC spill/reload, SCC
//--- verifier, VGPR compaction

//--- end of legalization and SCC

#endif // WAVEASM_PIPELINE_PASSES_TD
