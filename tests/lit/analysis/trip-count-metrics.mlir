// The loop trip count in the metrics (analysis/TripCount.h), after the
// production pipeline: the allocator cannot tie k + 1 to k while k + 3
// still reads k, so the counter's yield is its copy; the count is still
// inferred. A bound in a register is not: the body counts once.
// RUN: waveasm-opt --waveasm-metrics %s | FileCheck %s
// RUN: waveasm-opt --waveasm-metrics %examples/mxfp4_rotating4_direct_to_lds.mlir | FileCheck %s --check-prefix=ROT4

// Keys are sorted: a program's loops come before its name.
// CHECK:        "trip_count": 32,
// CHECK-NEXT:   "trip_count_source": "inferred"
// CHECK:        "name": "offset_counter",
// CHECK:        "trip_count": 8,
// CHECK-NEXT:   "trip_count_source": "inferred"
// CHECK:        "name": "second_counter",
// CHECK:        "trip_count": 1,
// CHECK-NEXT:   "trip_count_source": "default"
// CHECK:        "name": "register_bound",

// The four-buffer mxfp4 loop requests step k + 3 and runs while k + 1 < 32.
// ROT4:         "est_cycles": {{[1-9][0-9][0-9][0-9]+}},
// ROT4:         "trip_count": 32,
// ROT4-NEXT:    "trip_count_source": "inferred"

waveasm.program @offset_counter target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c32 = waveasm.constant 32 : !waveasm.imm<32>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%i = %i0, %acc = %acc0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %ahead:2 = waveasm.s_add_u32 %i, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.sreg, !waveasm.scc
    %x = waveasm.buffer_load_dword %srd, %tid, %ahead#0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %s = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %n#0, %c32 : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0, %s) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// k addresses the loads; n counts 8 down to 0 and decides the exit.
waveasm.program @second_counter target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %n0 = waveasm.s_mov_b32 %c8 : !waveasm.imm<8> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:3 = waveasm.loop (%k = %k0, %n = %n0, %acc = %acc0) : (!waveasm.sreg, !waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.buffer_load_dword %srd, %tid, %k : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %s = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.sreg, !waveasm.scc
    %nn:2 = waveasm.s_sub_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_gt_u32 %nn#0, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %nn#0, %s) : !waveasm.sreg, !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#2, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

waveasm.program @register_bound target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %bound = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%i = %i0, %acc = %acc0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.buffer_load_dword %srd, %tid, %i : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %s = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %bound : !waveasm.sreg, !waveasm.psreg<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0, %s) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
