// SMEM (s_load_dword*) loads round-trip.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @smem target = <#waveasm.gfx942> abi = <> {
waveasm.program @smem target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[K:.*]] = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  // CHECK-NEXT: %[[C8:.*]] = waveasm.constant 8 : <8>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>

  // CHECK-NEXT: %{{.*}} = waveasm.s_load_dword %[[K]], %[[C8]] : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[P:.*]] = waveasm.s_load_dwordx2 %[[K]], %[[S]] : !waveasm.psreg<0, 2>, !waveasm.psreg<2> -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.s_load_dwordx4 %[[P]], %[[C8]] : !waveasm.sreg<2, 2>, !waveasm.imm<8> -> !waveasm.sreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.s_load_dwordx8 %[[K]], %[[C8]] {tag} : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<8, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.s_load_dwordx16 %[[K]], %[[C8]] : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.psreg<16, 16>
  %d1 = waveasm.s_load_dword %kargs, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg
  %d2 = waveasm.s_load_dwordx2 %kargs, %s : !waveasm.psreg<0, 2>, !waveasm.psreg<2> -> !waveasm.sreg<2, 2>
  %d4 = waveasm.s_load_dwordx4 %d2, %c8 : !waveasm.sreg<2, 2>, !waveasm.imm<8> -> !waveasm.sreg<4, 4>
  %d8 = waveasm.s_load_dwordx8 %kargs, %c8 {tag} : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<8, 4>
  %d16 = waveasm.s_load_dwordx16 %kargs, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.psreg<16, 16>
}
