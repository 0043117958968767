// Special-register ops round-trip: s_and_saveexec_b64, s_mov_b64_exec (and s_mov_b32_m0).
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @special target = <#waveasm.gfx942> abi = <> {
waveasm.program @special target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[V:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: waveasm.v_cmp_gt_u32 %[[V]], %[[V]] : !waveasm.pvreg<0>, !waveasm.pvreg<0>
  // CHECK-NEXT: %[[SAVED:.*]] = waveasm.s_and_saveexec_b64 -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: %[[SAVED2:.*]] = waveasm.s_and_saveexec_b64 {tag} -> !waveasm.psreg<20, 2>
  // CHECK-NEXT: waveasm.s_mov_b64_exec %[[SAVED2]] : !waveasm.psreg<20, 2>
  // CHECK-NEXT: waveasm.s_mov_b64_exec %[[SAVED]] : !waveasm.sreg<2, 2>
  // CHECK-NEXT: waveasm.s_mov_b32_m0 %[[SAVED]] : !waveasm.sreg<2, 2>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  waveasm.v_cmp_gt_u32 %v, %v : !waveasm.pvreg<0>, !waveasm.pvreg<0>
  %saved = waveasm.s_and_saveexec_b64 -> !waveasm.sreg<2, 2>
  %saved2 = waveasm.s_and_saveexec_b64 {tag} -> !waveasm.psreg<20, 2>
  waveasm.s_mov_b64_exec %saved2 : !waveasm.psreg<20, 2>
  waveasm.s_mov_b64_exec %saved : !waveasm.sreg<2, 2>
  waveasm.s_mov_b32_m0 %saved : !waveasm.sreg<2, 2>
}
