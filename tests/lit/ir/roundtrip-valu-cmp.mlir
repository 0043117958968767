// VALU compares round-trip: no SSA result (VCC is implicit), f32/i32/u32/i64/u64 variants.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @valu_cmp target = <#waveasm.gfx942> abi = <> {
waveasm.program @valu_cmp target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[T:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[Q:.*]] = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  // CHECK-NEXT: %[[L:.*]] = waveasm.precolored.sreg 4 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 1 : <1>
  %t = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %q = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %l = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c = waveasm.constant 1 : !waveasm.imm<1>

  // CHECK-NEXT: waveasm.v_cmp_gt_i32 %[[T]], %[[L]] : !waveasm.pvreg<0>, !waveasm.sreg{{$}}
  // CHECK-NEXT: waveasm.v_cmp_eq_u32 %[[C]], %[[T]] : !waveasm.imm<1>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.v_cmp_lt_f32 %[[T]], %[[T]] : !waveasm.pvreg<0>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.v_cmp_o_f32 %[[T]], %[[T]] : !waveasm.pvreg<0>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.v_cmp_u_f32 %[[T]], %[[C]] : !waveasm.pvreg<0>, !waveasm.imm<1>{{$}}
  // CHECK-NEXT: waveasm.v_cmp_ne_i64 %[[Q]], %[[Q]] : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>{{$}}
  // CHECK-NEXT: waveasm.v_cmp_ge_u64 %[[Q]], %[[C]] : !waveasm.vreg<2, 2>, !waveasm.imm<1>{{$}}
  // CHECK-NEXT: waveasm.v_cmp_le_u32 %[[T]], %[[L]] {tag} : !waveasm.pvreg<0>, !waveasm.sreg{{$}}
  waveasm.v_cmp_gt_i32 %t, %l : !waveasm.pvreg<0>, !waveasm.sreg
  waveasm.v_cmp_eq_u32 %c, %t : !waveasm.imm<1>, !waveasm.pvreg<0>
  waveasm.v_cmp_lt_f32 %t, %t : !waveasm.pvreg<0>, !waveasm.pvreg<0>
  waveasm.v_cmp_o_f32 %t, %t : !waveasm.pvreg<0>, !waveasm.pvreg<0>
  waveasm.v_cmp_u_f32 %t, %c : !waveasm.pvreg<0>, !waveasm.imm<1>
  waveasm.v_cmp_ne_i64 %q, %q : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>
  waveasm.v_cmp_ge_u64 %q, %c : !waveasm.vreg<2, 2>, !waveasm.imm<1>
  waveasm.v_cmp_le_u32 %t, %l {tag} : !waveasm.pvreg<0>, !waveasm.sreg
}
