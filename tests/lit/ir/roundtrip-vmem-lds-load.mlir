// Direct-to-LDS buffer loads round-trip together with s_mov_b32_m0 (voffset first, no result, discardable instOffset).
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @lds_direct target = <#waveasm.gfx942> abi = <> {
waveasm.program @lds_direct target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[SRD:.*]] = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  // CHECK-NEXT: %[[T:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[BASE:.*]] = waveasm.precolored.sreg 2 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[C0:.*]] = waveasm.constant 0 : <0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %t = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %base = waveasm.precolored.sreg 2 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>

  // CHECK-NEXT: waveasm.s_mov_b32_m0 %[[BASE]] : !waveasm.sreg{{$}}
  // CHECK-NEXT: waveasm.buffer_load_dword_lds %[[T]], %[[SRD]], %[[C0]] : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>{{$}}
  // CHECK-NEXT: waveasm.s_mov_b32_m0 %[[C0]] : !waveasm.imm<0>{{$}}
  // CHECK-NEXT: waveasm.buffer_load_dwordx4_lds %[[C0]], %[[SRD]], %[[BASE]] {instOffset = 16 : i64} : !waveasm.imm<0>, !waveasm.psreg<4, 4>, !waveasm.sreg{{$}}
  waveasm.s_mov_b32_m0 %base : !waveasm.sreg
  waveasm.buffer_load_dword_lds %t, %srd, %c0 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dwordx4_lds %c0, %srd, %base {instOffset = 16 : i64}
      : !waveasm.imm<0>, !waveasm.psreg<4, 4>, !waveasm.sreg
}
