// --waveasm-pipeline is the Wave compiler's production order (SPEC.md 13):
// the base passes, loop address promotion with its fall-back, SCC
// spill/reload and verifier, allocation, VGPR compaction, waits with the
// ticketed rule, hazards (arith legalization first: see README).
// optimize=false keeps the short pipeline: the IR as written.
// RUN: waveasm-opt --waveasm-pipeline --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: waveasm-opt --waveasm-pipeline=optimize=false --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: waveasm-opt --waveasm-pipeline="max-vgprs=128 max-sgprs=80 max-agprs=64" --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITS
// Both assemble.
// RUN: waveasm-opt --waveasm-pipeline --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=null
// RUN: waveasm-opt --waveasm-pipeline=optimize=false --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=null

// FULL:      builtin.module(
// FULL-NEXT:   waveasm.program(
// FULL-NEXT:     waveasm-arith-legalization,
// FULL-NEXT:     waveasm-scoped-cse,
// FULL-NEXT:     waveasm-peephole,
// FULL-NEXT:     waveasm-scale-pack-elimination
// FULL-NEXT:   ),
// FULL-NEXT:   loop-invariant-code-motion,
// FULL-NEXT:   waveasm.program(
// FULL-NEXT:     waveasm-m0-redundancy-elim,
// FULL-NEXT:     waveasm-buffer-load-strength-reduction,
// FULL-NEXT:     waveasm-memory-offset-opt
// FULL-NEXT:   ),
// FULL-NEXT:   canonicalize
// FULL-NEXT:   waveasm.program(
// FULL-NEXT:     waveasm-scoped-cse,
// FULL-NEXT:     waveasm-loop-address-promotion{vgpr-limit=256},
// FULL-NEXT:     waveasm-scc-spill-reload,
// FULL-NEXT:     waveasm-scc-verifier,
// FULL-NEXT:     waveasm-linear-scan
// FULL-NEXT:     waveasm-vgpr-compaction,
// FULL-NEXT:     waveasm-insert-waitcnt
// FULL-NEXT:     waveasm-hazard-mitigation

// SHORT:      builtin.module(
// SHORT-NEXT:   loop-invariant-code-motion,
// SHORT-NEXT:   canonicalize
// SHORT-NEXT:   waveasm.program(
// SHORT-NEXT:     waveasm-linear-scan
// SHORT-NEXT:     waveasm-insert-waitcnt
// SHORT-NEXT:     waveasm-hazard-mitigation
// SHORT-NOT: waveasm-peephole
// SHORT-NOT: waveasm-vgpr-compaction

// LIMITS: waveasm-linear-scan{bidirectional-threshold=75 max-agprs=64 max-sgprs=80 max-vgprs=128}

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %a = waveasm.v_lshlrev_b32 %c4, %v0 : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %a : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
