// VALU ternary ops round-trip.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @valu_ternary target = <#waveasm.gfx942> abi = <> {
waveasm.program @valu_ternary target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[W:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[D:.*]] = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 5 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[C8:.*]] = waveasm.constant 8 : <8>
  // CHECK-NEXT: %[[C16:.*]] = waveasm.constant 16 : <16>
  %w = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %d = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %s = waveasm.precolored.sreg 5 : !waveasm.sreg
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>

  // CHECK-NEXT: %[[B:.*]] = waveasm.v_bfe_u32 %[[W]], %[[C16]], %[[C8]] : !waveasm.pvreg<0>, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_bfe_i32 %[[B]], %[[S]], %[[C8]] : !waveasm.vreg, !waveasm.sreg, !waveasm.imm<8> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_fma_f32 %[[B]], %[[B]], %[[B]] : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_fma_f64 %[[D]], %[[D]], %[[D]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.v_mad_u32_u24 %[[B]], %[[S]], %[[C8]] : !waveasm.vreg, !waveasm.sreg, !waveasm.imm<8> -> !waveasm.pvreg<3>
  // CHECK-NEXT: %{{.*}} = waveasm.v_add3_u32 %[[W]], %[[B]], %[[C8]] : !waveasm.pvreg<0>, !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_med3_i32 %[[B]], %[[C8]], %[[C16]] : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<16> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_bfi_b32 %[[B]], %[[W]], %[[B]] : !waveasm.vreg, !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_alignbit_b32 %[[B]], %[[B]], %[[C8]] : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_lshl_or_b32 %[[B]], %[[C8]], %[[W]] : !waveasm.vreg, !waveasm.imm<8>, !waveasm.pvreg<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_lshl_add_u32 %[[B]], %[[C16]], %[[S]] : !waveasm.vreg, !waveasm.imm<16>, !waveasm.sreg -> !waveasm.vreg{{$}}
  %b = waveasm.v_bfe_u32 %w, %c16, %c8 : !waveasm.pvreg<0>, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %bi = waveasm.v_bfe_i32 %b, %s, %c8 : !waveasm.vreg, !waveasm.sreg, !waveasm.imm<8> -> !waveasm.vreg
  %f = waveasm.v_fma_f32 %b, %b, %b : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %f64 = waveasm.v_fma_f64 %d, %d, %d : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2> -> !waveasm.vreg<2, 2>
  %mad = waveasm.v_mad_u32_u24 %b, %s, %c8 : !waveasm.vreg, !waveasm.sreg, !waveasm.imm<8> -> !waveasm.pvreg<3>
  %add3 = waveasm.v_add3_u32 %w, %b, %c8 : !waveasm.pvreg<0>, !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg
  %med = waveasm.v_med3_i32 %b, %c8, %c16 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<16> -> !waveasm.vreg
  %bfi = waveasm.v_bfi_b32 %b, %w, %b : !waveasm.vreg, !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
  %al = waveasm.v_alignbit_b32 %b, %b, %c8 : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg
  %lo = waveasm.v_lshl_or_b32 %b, %c8, %w : !waveasm.vreg, !waveasm.imm<8>, !waveasm.pvreg<0> -> !waveasm.vreg
  %la = waveasm.v_lshl_add_u32 %b, %c16, %s : !waveasm.vreg, !waveasm.imm<16>, !waveasm.sreg -> !waveasm.vreg
}
