// Lifetime holes (pipeline/LifetimeHoles.h): a loop-carried value is dead
// between its last read in the body and the definition of the value the
// yield carries into its registers, and the linear scan lends that gap to
// values living inside it where the envelope allocation does not fit the
// files (here max-vgprs=4: both programs need 5 VGPRs with envelopes, the
// allocation before gaps were lent) or loses a wave. At the default limit
// the envelope allocation is kept (the same occupancy, and a value in a gap
// may cost a nop its reader's hazard would not). Equal by execution.
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=4 %s | FileCheck %s --check-prefix=LENT
// RUN: waveasm-opt --waveasm-linear-scan %s | FileCheck %s --check-prefix=KEPT
// RUN: waveasm-opt --waveasm-linear-scan=max-vgprs=4 --waveasm-insert-waitcnt --waveasm-hazard-mitigation %s -o %t.mlir
// RUN: waveasm-sim --compare %s %t.mlir | FileCheck %s --check-prefix=EQ
// EQ: @gap_reused: equal on
// EQ: @read_after_new_value: equal on

// %a's gap, from its read by %x to the load of %an, holds %y; %inv, defined
// before the loop and last read at the top of the body, is live across the
// back edge: no gap of its own, and %y never takes it.
// LENT-LABEL: waveasm.program @gap_reused
// LENT: %[[INV:.*]] = waveasm.v_add_u32 %{{.*}} -> !waveasm.pvreg<1>
// LENT: waveasm.loop (%{{.*}} = %{{.*}}, %[[A:.*]] = %{{.*}}) : (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<2>)
// LENT: waveasm.v_add_u32 %[[A]], %[[INV]] : !waveasm.pvreg<2>, !waveasm.pvreg<1> -> !waveasm.pvreg<3>
// LENT: %[[Y:.*]] = waveasm.v_add_u32 %{{.*}} : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<2>
// LENT: waveasm.v_add_u32 %[[Y]], %{{.*}} : !waveasm.pvreg<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<3>
// LENT: waveasm.buffer_load_dword {{.*}} -> !waveasm.pvreg<2>
// LENT: waveasm.condition {{.*}} {_iterArgPhysRegs = array<i64: {{[0-9]+}}, 2>}
// KEPT-LABEL: waveasm.program @gap_reused
// KEPT: waveasm.loop ({{.*}} : (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<2>)
// KEPT: waveasm.v_add_u32 %{{.*}} : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<3>

waveasm.program @gap_reused target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %inv = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
  %a0 = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %a = %a0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.v_add_u32 %a, %inv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %x, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    %y = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
    %z = waveasm.v_add_u32 %y, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %z, %srd, %y : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %an = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %an) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// %a is read after %an, its next value, is loaded: they cannot share, and
// %an reaches %a's registers through a copy before the condition. %a's gap
// runs from its read by %x to that copy only: %y takes it, %an does not.
// LENT-LABEL: waveasm.program @read_after_new_value
// LENT: waveasm.loop (%{{.*}} = %{{.*}}, %[[A:.*]] = %{{.*}}) : (!waveasm.psreg<{{[0-9]+}}>, !waveasm.pvreg<1>)
// LENT: %[[AN:.*]] = waveasm.buffer_load_dword {{.*}} -> !waveasm.pvreg<2>
// LENT: waveasm.v_add_u32 %[[A]], %{{.*}} : !waveasm.pvreg<1>, !waveasm.pvreg<0> -> !waveasm.pvreg<3>
// LENT: waveasm.v_add_u32 %{{.*}} : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.pvreg<1>
// LENT: %[[COPY:.*]] = waveasm.v_mov_b32 %[[AN]] : !waveasm.pvreg<2> -> !waveasm.pvreg<1>
// LENT-NEXT: waveasm.condition %{{.*}} iter_args(%{{.*}}, %[[COPY]])
waveasm.program @read_after_new_value target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%k = %k0, %a = %a0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %an = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %x = waveasm.v_add_u32 %a, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %x, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
    %y = waveasm.v_add_u32 %tid, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
    %z = waveasm.v_add_u32 %y, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %z, %srd, %y : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %an) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
