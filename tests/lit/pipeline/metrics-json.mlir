// --waveasm-metrics prints the compile-and-measure metrics as JSON with the
// documented key names instead of IR, one entry per program and per loop.
// RUN: waveasm-opt --waveasm-metrics %s | FileCheck %s
// RUN: waveasm-opt --waveasm-metrics %s -o %t.json && FileCheck %s < %t.json
// RUN: not waveasm-opt --waveasm-metrics --emit-assembly %s 2>&1 | FileCheck %s --check-prefix=EXCLUSIVE

// CHECK:      "programs": [
// CHECK:        "est_cycles": {{[1-9][0-9]*}},
// CHECK:        "loops": [
// CHECK:            "est_cycles_per_iter": {{[1-9][0-9]*}},
// CHECK:            "lower_bound_cycles": {{[1-9][0-9]*}}
// CHECK:        "name": "first",
// CHECK-NEXT:   "nops_inserted": 0,
// CHECK-NEXT:   "occupancy": {{[1-8]}},
// CHECK-NEXT:   "occupancy_limit": {
// CHECK-NEXT:     "limited_by": "{{VGPR|SGPR|LDS|workgroup size|target maximum}}",
// CHECK-NEXT:     "next_wave": {
// CHECK:          "summary": "{{[1-8]}} waves
// CHECK:          "waves": {
// CHECK-NEXT:       "lds": {{[1-8]}},
// CHECK-NEXT:       "sgpr": {{[1-8]}},
// CHECK-NEXT:       "vgpr": {{[1-8]}},
// CHECK-NEXT:       "workgroup": {{[1-8]}}
// CHECK:        "peak_agpr": 0,
// CHECK-NEXT:   "peak_sgpr": {{[0-9]+}},
// CHECK-NEXT:   "peak_vgpr": {{[0-9]+}},
// CHECK-NEXT:   "total_instructions": {{[0-9]+}},
// CHECK-NEXT:   "waitcnts_inserted": {{[1-9][0-9]*}}
// CHECK:        "name": "second",
// EXCLUSIVE: --emit-assembly and --waveasm-metrics are exclusive

waveasm.program @first target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%i = %i0, %acc = %acc0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.buffer_load_dword %srd, %tid, %i : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %s = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %n, %carry = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n, %s) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#1, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

waveasm.program @second target = #waveasm.target<#waveasm.gfx950, 5> abi = #waveasm.abi<> {
  waveasm.s_endpgm
}
