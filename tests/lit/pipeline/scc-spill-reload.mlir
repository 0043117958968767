// waveasm-scc-spill-reload: an SCC value read after another SCC writer is
// saved right after its producer (s_cselect_b32 1, 0) and re-created right
// before each such reader (s_cmp_ne_u32 saved, 0); readers with nothing in
// between keep the original value.
// RUN: waveasm-opt --waveasm-scc-spill-reload %s | FileCheck %s
// Afterwards no hazard is left, the IR verifies, and it assembles with the
// passes that follow in the production order (SPEC.md 13; loop-invariant
// code motion runs before: it would hoist a loop-invariant reload).
// RUN: waveasm-opt --waveasm-scc-spill-reload --waveasm-scc-verifier %s | waveasm-opt > /dev/null
// RUN: waveasm-opt --waveasm-scc-spill-reload --waveasm-linear-scan --waveasm-insert-waitcnt --waveasm-hazard-mitigation --emit-assembly %s -o %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null %t.s
// RUN: waveasm-opt --waveasm-scc-spill-reload --debug-only=waveasm-scc-spill-reload --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG
// LOG: waveasm-scc-spill-reload: @straight: saved 1 SCC value(s), 2 reload(s) in 1 round(s)
// LOG: waveasm-scc-spill-reload: @interleaved: saved 2 SCC value(s), 2 reload(s) in 2 round(s)
// LOG: waveasm-scc-spill-reload: @loops: saved 2 SCC value(s), 2 reload(s) in 1 round(s)
// LOG: waveasm-scc-spill-reload: @untouched: no SCC value is overwritten before a reader; nothing to do
// Without the pass (the short pipeline) the emitter refuses the input.
// RUN: not waveasm-opt --waveasm-pipeline=optimize=false --emit-assembly %s 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: 'waveasm.s_cselect_b32' op reads SCC written by 'waveasm.s_cmp_lt_u32'

// CHECK-LABEL: waveasm.program @straight
waveasm.program @straight target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // CHECK:      %[[SCC:.*]] = waveasm.s_cmp_lt_u32
  // CHECK-NEXT: %[[ONE:.*]] = waveasm.constant 1 : <1>
  // CHECK-NEXT: %[[ZERO:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: %[[SAVED:.*]] = waveasm.s_cselect_b32 %[[SCC]], %[[ONE]], %[[ZERO]] : !waveasm.scc, !waveasm.imm<1>, !waveasm.imm<0> -> !waveasm.sreg
  %scc = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  // The reader right after the producer keeps the original value.
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[SCC]], %{{.*}}, %{{.*}} : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1>
  %r0 = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  // CHECK-NEXT: waveasm.s_add_u32
  %a:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  // CHECK-NEXT: %[[AGAIN:.*]] = waveasm.s_cmp_ne_u32 %[[SAVED]], %[[ZERO]] : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[AGAIN]], %{{.*}}, %{{.*}}
  %r1 = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  // A second reader gets its own reload.
  // CHECK-NEXT: waveasm.s_lshl_b32
  // CHECK-NEXT: %[[AGAIN2:.*]] = waveasm.s_cmp_ne_u32 %[[SAVED]], %[[ZERO]]
  // CHECK-NEXT: waveasm.s_addc_u32 %[[AGAIN2]]
  %l:2 = waveasm.s_lshl_b32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %h:2 = waveasm.s_addc_u32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  waveasm.dce_protect %r0 : !waveasm.sreg
  waveasm.dce_protect %r1 : !waveasm.sreg
  waveasm.dce_protect %h#0 : !waveasm.sreg
  waveasm.s_endpgm
}

// Interleaved pairs: the reload for %x sits between %y's producer and its
// reader, so %y needs one too (a second round).
// CHECK-LABEL: waveasm.program @interleaved
waveasm.program @interleaved target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // CHECK:      %[[X:.*]] = waveasm.s_cmp_lt_u32
  // CHECK:      %[[XS:.*]] = waveasm.s_cselect_b32 %[[X]]
  // CHECK:      %[[Y:.*]] = waveasm.s_cmp_eq_u32
  // CHECK:      %[[YS:.*]] = waveasm.s_cselect_b32 %[[Y]]
  // CHECK-NEXT: %[[X2:.*]] = waveasm.s_cmp_ne_u32 %[[XS]]
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[X2]]
  // CHECK-NEXT: %[[Y2:.*]] = waveasm.s_cmp_ne_u32 %[[YS]]
  // CHECK-NEXT: waveasm.s_cselect_b32 %[[Y2]]
  %x = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  %y = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  %rx = waveasm.s_cselect_b32 %x, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  %ry = waveasm.s_cselect_b32 %y, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  waveasm.dce_protect %rx : !waveasm.sreg
  waveasm.dce_protect %ry : !waveasm.sreg
  waveasm.s_endpgm
}

// Readers in other blocks: inside a loop (reached again after the body's own
// compare) and a loop condition separated from its compare.
// CHECK-LABEL: waveasm.program @loops
waveasm.program @loops target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  // CHECK:      %[[OUT:.*]] = waveasm.s_cmp_eq_u32
  // CHECK:      %[[OUTS:.*]] = waveasm.s_cselect_b32 %[[OUT]]
  %out = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  // CHECK: waveasm.loop
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    // CHECK-NEXT: %[[IN:.*]] = waveasm.s_cmp_ne_u32 %[[OUTS]]
    // CHECK-NEXT: waveasm.s_cselect_b32 %[[IN]]
    %v = waveasm.s_cselect_b32 %out, %i, %c1 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg
    // CHECK-NEXT: %[[GO:.*]] = waveasm.s_cmp_lt_u32
    // CHECK-NEXT: waveasm.constant 1
    // CHECK-NEXT: waveasm.constant 0
    // CHECK-NEXT: %[[GOS:.*]] = waveasm.s_cselect_b32 %[[GO]]
    // CHECK-NEXT: waveasm.s_add_u32
    // CHECK-NEXT: %[[GO2:.*]] = waveasm.s_cmp_ne_u32 %[[GOS]]
    // CHECK-NEXT: waveasm.condition %[[GO2]] : !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %v, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    %n:2 = waveasm.s_add_u32 %v, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0) : !waveasm.sreg
  }
  waveasm.dce_protect %r : !waveasm.sreg
  waveasm.s_endpgm
}

// Nothing to do: the IR is unchanged.
// CHECK-LABEL: waveasm.program @untouched
waveasm.program @untouched target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // CHECK-NEXT: waveasm.precolored.sreg
  // CHECK-NEXT: waveasm.constant 1
  // CHECK-NEXT: waveasm.s_cmp_lt_u32
  // CHECK-NEXT: waveasm.s_mov_b32
  // CHECK-NEXT: waveasm.s_cselect_b32
  // CHECK-NEXT: waveasm.dce_protect
  %scc = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  %m = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  %r = waveasm.s_cselect_b32 %scc, %m, %c1 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg
  waveasm.dce_protect %r : !waveasm.sreg
  waveasm.s_endpgm
}
