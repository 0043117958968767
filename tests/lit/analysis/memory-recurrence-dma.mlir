// The memory recurrence bound (analysis/LoopBounds.h) of a direct-to-LDS
// load in a workgroup of 4 waves whose LDS bases rotate through three
// buffers: the barrier after the DMA publishes the buffer of two
// iterations back (LdsRotation.h), so the wait before it leaves this
// iteration's DMA in flight (vmcnt(1)). The alias check does not follow
// the rotation and keeps the DMA as a may-write of the next iteration's
// ds_read, but no legal schedule waits for its latency there: the bound
// counts the ds_read's 20 and the DMA's issue slot, 21, below the model's
// steady state (66). It counted the DMA's 100 and the barrier, 121, above
// what the kernel takes.
// RUN: waveasm-opt --waveasm-insert-waitcnt %s | FileCheck %s --check-prefix=WAITS
// RUN: waveasm-opt --waveasm-insert-waitcnt %s | waveasm-opt --waveasm-metrics | FileCheck %s
// WAITS: waveasm.buffer_load_dword_lds
// WAITS-NEXT: waveasm.s_waitcnt_vmcnt 1
// WAITS-NEXT: waveasm.s_barrier
// CHECK:        "bound_kind": "memory recurrence",
// CHECK:        "est_cycles_per_iter": 66,
// CHECK:        "lower_bound_cycles": 21,
// CHECK:        "memory_recurrence_bound_cycles": 21,

waveasm.program @dma_gather_rot target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {workgroup_size = [256, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %c8192 = waveasm.constant 8192 : !waveasm.imm<8192>
  %lane = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c4096 : !waveasm.imm<4096> -> !waveasm.sreg
  %b2 = waveasm.s_mov_b32 %c8192 : !waveasm.imm<8192> -> !waveasm.sreg
  %r:4 = waveasm.loop (%i = %i0, %x = %b0, %y = %b1, %z = %b2) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    %a = waveasm.v_add_u32 %y, %lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %v = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
    waveasm.s_mov_b32_m0 %x : !waveasm.sreg
    waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0>
    waveasm.s_barrier
    %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %x2 = waveasm.s_mov_b32 %y : !waveasm.sreg -> !waveasm.sreg
    %y2 = waveasm.s_mov_b32 %z : !waveasm.sreg -> !waveasm.sreg
    %z2 = waveasm.s_mov_b32 %x : !waveasm.sreg -> !waveasm.sreg
    %more = waveasm.s_cmp_lt_u32 %i_n#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n#0, %x2, %y2, %z2) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}
