// Hazards across structured control flow: the last instructions of a loop
// body precede the first of the next iteration (the back edge counts no wait
// states), and if branches join.
// RUN: waveasm-opt --split-input-file --waveasm-hazard-mitigation %s | FileCheck %s

// The transcendental result at the end of the body is read at the top of
// the next iteration through the block argument. On entry the block argument
// comes from a plain v_mov: only the back edge makes the nop necessary.
// CHECK-LABEL: waveasm.program @back_edge_trans
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_add_f32 %arg0
// CHECK:      waveasm.v_exp_f32
// CHECK-NEXT: waveasm.condition
waveasm.program @back_edge_trans target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %x0 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %m = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %r = waveasm.loop (%x = %x0) : (!waveasm.vreg) -> !waveasm.vreg {
    %u = waveasm.v_add_f32 %x, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %e = waveasm.v_exp_f32 %u : !waveasm.vreg -> !waveasm.vreg
    waveasm.condition %s : !waveasm.psreg<9> iter_args(%e) : !waveasm.vreg
  }
  waveasm.s_endpgm
}

// -----

// An MFMA accumulator chain around the back edge needs nothing; a VALU read
// of the accumulator at the top of the body needs the full 8 wait states
// (4 passes) minus the one instruction (s_cmp) after the MFMA.
// CHECK-LABEL: waveasm.program @back_edge_mfma
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.extract %arg0[0]
// CHECK-NEXT: waveasm.s_nop 6
// CHECK-NEXT: waveasm.v_add_f32
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %arg0
// CHECK-NEXT: waveasm.s_cmp_lt_u32
// CHECK-NEXT: waveasm.condition
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.v_mfma_f32_16x16x16_f16 %{{.*}}, %{{.*}}, %arg0
// CHECK-NEXT: waveasm.condition
waveasm.program @back_edge_mfma target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z2 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r = waveasm.loop (%acc = %z) : (!waveasm.vreg<4, 4>) -> !waveasm.vreg<4, 4> {
    %e = waveasm.extract %acc[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %f = waveasm.v_add_f32 %e, %e : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %n = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %acc : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %more = waveasm.s_cmp_lt_u32 %s, %c0 : !waveasm.psreg<9>, !waveasm.imm<0> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%n) : !waveasm.vreg<4, 4>
  }
  %r2 = waveasm.loop (%acc = %z2) : (!waveasm.vreg<4, 4>) -> !waveasm.vreg<4, 4> {
    %n = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %acc : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    waveasm.condition %s : !waveasm.psreg<9> iter_args(%n) : !waveasm.vreg<4, 4>
  }
  waveasm.s_endpgm
}

// -----

// The same after allocation: the register written last in the body is read
// first in the next iteration.
// CHECK-LABEL: waveasm.program @back_edge_physical
// CHECK:      waveasm.loop
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_readfirstlane_b32 %arg0
waveasm.program @back_edge_physical target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %x0 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<5>
  %m = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.pvreg<6>
  %r = waveasm.loop (%x = %x0) : (!waveasm.pvreg<5>) -> !waveasm.pvreg<5> {
    %t = waveasm.v_readfirstlane_b32 %x : !waveasm.pvreg<5> -> !waveasm.psreg<10>
    %n = waveasm.v_add_u32 %t, %v0 : !waveasm.psreg<10>, !waveasm.pvreg<0> -> !waveasm.pvreg<5>
    waveasm.condition %s : !waveasm.psreg<9> iter_args(%n) : !waveasm.pvreg<5>
  }
  waveasm.s_endpgm
}

// -----

// A hazard from either branch of an if reaches the join.
// CHECK-LABEL: waveasm.program @if_join
// CHECK:      waveasm.yield
// CHECK:      waveasm.yield
// CHECK-NEXT: }
// CHECK-NEXT: waveasm.s_nop 0
// CHECK-NEXT: waveasm.v_mul_f32
waveasm.program @if_join target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %cc = waveasm.s_cmp_eq_u32 %s, %c0 : !waveasm.psreg<9>, !waveasm.imm<0> -> !waveasm.scc
  %r = waveasm.if %cc : !waveasm.scc -> !waveasm.vreg {
    %e = waveasm.v_exp_f32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
    waveasm.yield %e : !waveasm.vreg
  } else {
    %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
    waveasm.yield %z : !waveasm.vreg
  }
  %m = waveasm.v_mul_f32 %r, %r : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}
