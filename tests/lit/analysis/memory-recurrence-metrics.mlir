// The memory recurrence bound (analysis/LoopBounds.h) in the metrics, on
// hand-computed loops of gfx942 (issue slots: buffer load 100, ds_read and
// ds_write 20, VALU 1, a store's and a barrier's slot 1). A store that may
// write what the next iteration's load reads keeps that load behind it in
// every legal schedule: load -> ... -> store -> next load is a cycle of one
// iteration. Each loop also counts 16 with s_add, s_cmp and its condition.
// The model's steady state (est_cycles_per_iter) stays at or above each.
// RUN: waveasm-opt --waveasm-metrics %s | FileCheck %s

// x[lane] = x[lane] + 1: the load 100, the v_add 1, the store's slot 1; the
// resource bound is 6 slots.
// CHECK:        "bound_kind": "memory recurrence",
// CHECK:        "est_cycles_per_iter": 106,
// CHECK:        "lower_bound_cycles": 102,
// CHECK:        "memory_recurrence_bound_cycles": 102,
// CHECK-NEXT:   "prefetch_distance": 0,
// CHECK-NEXT:   "recurrence_bound_cycles": 1,
// CHECK-NEXT:   "resource_bound_cycles": 6,
// CHECK:        "name": "same_bytes",

// The store 1 KiB above the load through the same invariant base: lanes 4
// bytes apart span 252 bytes, the alias analysis separates the two in
// every iteration, and no cycle runs through memory.
// CHECK:        "bound_kind": "issue",
// CHECK:        "lower_bound_cycles": 6,
// CHECK:        "memory_recurrence_bound_cycles": 0,
// CHECK:        "name": "apart",

// The same 1 KiB apart through a base that moves 1 KiB an iteration: the
// store of iteration i writes what the load of i + 1 reads. The alias
// analysis's answer holds across iterations only for invariant bases.
// CHECK:        "bound_kind": "memory recurrence",
// CHECK:        "est_cycles_per_iter": 108,
// CHECK:        "lower_bound_cycles": 102,
// CHECK:        "memory_recurrence_bound_cycles": 102,
// CHECK:        "name": "apart_moving",

// LDS in a workgroup of four waves: another wave's write reaches the next
// iteration's read through the barrier, once complete (the wait pass puts
// lgkmcnt(0) before the barrier): ds_read 20, v_add 1, ds_write 20, the
// barrier 1.
// CHECK:        "bound_kind": "memory recurrence",
// CHECK:        "est_cycles_per_iter": 47,
// CHECK:        "lower_bound_cycles": 42,
// CHECK:        "memory_recurrence_bound_cycles": 42,
// CHECK:        "name": "lds_four_waves",

// One wave: its LDS ops run in order, the read right after the write's
// issue (the barrier orders nothing): ds_read 20, v_add 1, ds_write 1.
// CHECK:        "bound_kind": "memory recurrence",
// CHECK:        "est_cycles_per_iter": 27,
// CHECK:        "lower_bound_cycles": 22,
// CHECK:        "memory_recurrence_bound_cycles": 22,
// CHECK:        "name": "lds_one_wave",

waveasm.program @same_bytes target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {workgroup_size = [64, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c10 = waveasm.constant 10 : !waveasm.imm<10>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %lane = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    %v = waveasm.buffer_load_dword %srd, %lane, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %w = waveasm.v_add_u32 %v, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    waveasm.buffer_store_dword %w, %srd, %lane : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

waveasm.program @apart target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {workgroup_size = [64, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c10 = waveasm.constant 10 : !waveasm.imm<10>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %lane = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    %v = waveasm.buffer_load_dword %srd, %lane, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %w = waveasm.v_add_u32 %v, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    waveasm.buffer_store_dword %w, %srd, %lane offset : 1024 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

waveasm.program @apart_moving target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {workgroup_size = [64, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c10 = waveasm.constant 10 : !waveasm.imm<10>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %lane = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    %step = waveasm.v_lshlrev_b32 %c10, %i : !waveasm.imm<10>, !waveasm.sreg -> !waveasm.vreg
    %addr = waveasm.v_add_u32 %step, %lane : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %v = waveasm.buffer_load_dword %srd, %addr, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %w = waveasm.v_add_u32 %v, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    waveasm.buffer_store_dword %w, %srd, %addr offset : 1024 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

waveasm.program @lds_four_waves target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {workgroup_size = [256, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c10 = waveasm.constant 10 : !waveasm.imm<10>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %lane = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    %v = waveasm.ds_read_b32 %lane : !waveasm.vreg -> !waveasm.vreg
    %w = waveasm.v_add_u32 %v, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    waveasm.ds_write_b32 %w, %lane : !waveasm.vreg, !waveasm.vreg
    waveasm.s_barrier
    %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

waveasm.program @lds_one_wave target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {workgroup_size = [64, 1, 1]} {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c10 = waveasm.constant 10 : !waveasm.imm<10>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %lane = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %i_end = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    %v = waveasm.ds_read_b32 %lane : !waveasm.vreg -> !waveasm.vreg
    %w = waveasm.v_add_u32 %v, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    waveasm.ds_write_b32 %w, %lane : !waveasm.vreg, !waveasm.vreg
    waveasm.s_barrier
    %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i_n#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i_n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
