// VMEM loads (buffer/global/flat) round-trip: `offset : N` printed with spaces, `offset:N` and `{instOffset = N}` accepted, offset 0 elided.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @vmem_load target = <#waveasm.gfx942> abi = <> {
waveasm.program @vmem_load target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[SRD:.*]] = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  // CHECK-NEXT: %[[PTR:.*]] = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  // CHECK-NEXT: %[[V:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  // CHECK-NEXT: %[[C0:.*]] = waveasm.constant 0 : <0>
  // CHECK-NEXT: %[[VSRD:.*]] = waveasm.precolored.sreg 8, 4 : !waveasm.sreg<4, 4>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %ptr = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %vsrd = waveasm.precolored.sreg 8, 4 : !waveasm.sreg<4, 4>

  // Buffer loads.
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_dword %[[SRD]], %[[V]], %[[S]] : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.psreg<2> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_dwordx4 %[[SRD]], %[[V]], %[[C0]] offset : 16 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_dwordx2 %[[SRD]], %[[V]], %[[C0]] offset : 32 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_ubyte %[[SRD]], %[[V]], %[[C0]] offset : 48 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_sshort %[[SRD]], %[[V]], %[[C0]] offset : 64 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_dword %[[SRD]], %[[V]], %[[C0]] : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_dword %[[SRD]], %[[V]], %[[C0]] : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.buffer_load_dwordx3 %[[VSRD]], %[[C0]], %[[C0]] offset : 4095 : !waveasm.sreg<4, 4>, !waveasm.imm<0>, !waveasm.imm<0> -> !waveasm.vreg<3>
  %b0 = waveasm.buffer_load_dword %srd, %v, %s
      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.psreg<2> -> !waveasm.vreg
  %b1 = waveasm.buffer_load_dwordx4 %srd, %v, %c0 offset : 16
      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b2 = waveasm.buffer_load_dwordx2 %srd, %v, %c0 offset:32
      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %b3 = waveasm.buffer_load_ubyte %srd, %v, %c0 {instOffset = 48}
      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b4 = waveasm.buffer_load_sshort %srd, %v, %c0 {instOffset = 64 : i64}
      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b5 = waveasm.buffer_load_dword %srd, %v, %c0 offset : 0
      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b6 = waveasm.buffer_load_dword %srd, %v, %c0 {instOffset = 0 : i64}
      : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b7 = waveasm.buffer_load_dwordx3 %vsrd, %c0, %c0 offset : 4095
      : !waveasm.sreg<4, 4>, !waveasm.imm<0>, !waveasm.imm<0> -> !waveasm.vreg<3>

  // Global and flat loads (pointer pair; offsets are not range-checked).
  // CHECK-NEXT: %{{.*}} = waveasm.global_load_dword %[[PTR]], %[[V]], %[[C0]] : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.global_load_dwordx4 %[[PTR]], %[[V]], %[[S]] offset : 8000 : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.psreg<2> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.global_load_ushort %[[PTR]], %[[V]], %[[C0]] offset : 12 {tag} : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.flat_load_dword %[[PTR]], %[[C0]], %[[S]] : !waveasm.psreg<0, 2>, !waveasm.imm<0>, !waveasm.psreg<2> -> !waveasm.pvreg<9>
  // CHECK-NEXT: %{{.*}} = waveasm.flat_load_dwordx2 %[[PTR]], %[[V]], %[[C0]] offset : 8 : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %g0 = waveasm.global_load_dword %ptr, %v, %c0
      : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %g1 = waveasm.global_load_dwordx4 %ptr, %v, %s offset : 8000
      : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.psreg<2> -> !waveasm.vreg<4, 4>
  %g2 = waveasm.global_load_ushort %ptr, %v, %c0 {instOffset = 12, tag}
      : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %f0 = waveasm.flat_load_dword %ptr, %c0, %s
      : !waveasm.psreg<0, 2>, !waveasm.imm<0>, !waveasm.psreg<2> -> !waveasm.pvreg<9>
  %f1 = waveasm.flat_load_dwordx2 %ptr, %v, %c0 offset : 8
      : !waveasm.psreg<0, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
}
