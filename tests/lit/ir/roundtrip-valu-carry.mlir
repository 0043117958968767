// VALU carry ops round-trip; their two results print as `%dst, %carry`.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @valu_carry target = <#waveasm.gfx942> abi = <> {
waveasm.program @valu_carry target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[X:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[Y:.*]] = waveasm.precolored.vreg 1 : !waveasm.vreg{{$}}
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 0 : <0>
  %x = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %y = waveasm.precolored.vreg 1 : !waveasm.vreg
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c = waveasm.constant 0 : !waveasm.imm<0>

  // Bound as `%lo, %cy`, `%r:2` and `%r2:2`: the printer always uses the
  // declared result names.
  // CHECK-NEXT: %dst, %carry = waveasm.v_add_co_u32 %[[X]], %[[Y]] : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2>
  // CHECK-NEXT: %dst_0, %carry_1 = waveasm.v_addc_co_u32 %[[S]], %[[C]] : !waveasm.psreg<2>, !waveasm.imm<0> -> !waveasm.vreg, !waveasm.sreg<2, 2>
  // CHECK-NEXT: %dst_2, %carry_3 = waveasm.v_sub_co_u32 %dst, %dst_0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.pvreg<4>, !waveasm.psreg<106, 2>
  // CHECK-NEXT: %dst_4, %carry_5 = waveasm.v_subb_co_u32 %[[C]], %dst_2 : !waveasm.imm<0>, !waveasm.pvreg<4> -> !waveasm.vreg, !waveasm.sreg<2>
  // CHECK-NEXT: waveasm.dce_protect %carry : !waveasm.sreg<2>
  // CHECK-NEXT: waveasm.dce_protect %dst_4 : !waveasm.vreg{{$}}
  %lo, %cy = waveasm.v_add_co_u32 %x, %y
      : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2>
  %hi:2 = waveasm.v_addc_co_u32 %s, %c
      : !waveasm.psreg<2>, !waveasm.imm<0> -> !waveasm.vreg, !waveasm.sreg<2, 2>
  %d:2 = waveasm.v_sub_co_u32 %lo, %hi#0
      : !waveasm.vreg, !waveasm.vreg -> !waveasm.pvreg<4>, !waveasm.psreg<106, 2>
  %e:2 = waveasm.v_subb_co_u32 %c, %d#0
      : !waveasm.imm<0>, !waveasm.pvreg<4> -> !waveasm.vreg, !waveasm.sreg<2>
  waveasm.dce_protect %cy : !waveasm.sreg<2>
  waveasm.dce_protect %e#0 : !waveasm.vreg
}
