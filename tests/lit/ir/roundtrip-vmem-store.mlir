// VMEM stores and buffer atomics round-trip (no soffset operand; offset forms as for loads).
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @vmem_store target = <#waveasm.gfx942> abi = <> {
waveasm.program @vmem_store target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[SRD:.*]] = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  // CHECK-NEXT: %[[PTR:.*]] = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  // CHECK-NEXT: %[[V:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[D4:.*]] = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
  // CHECK-NEXT: %[[C0:.*]] = waveasm.constant 0 : <0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %ptr = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %d4 = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>

  // CHECK-NEXT: waveasm.buffer_store_dword %[[V]], %[[SRD]], %[[V]] : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.buffer_store_dwordx4 %[[D4]], %[[SRD]], %[[C0]] offset : 64 : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.imm<0>{{$}}
  // CHECK-NEXT: waveasm.buffer_store_byte %[[V]], %[[SRD]], %[[V]] offset : 1 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.buffer_store_short %[[V]], %[[SRD]], %[[V]] offset : 4095 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.global_store_short %[[V]], %[[PTR]], %[[V]] offset : 2 : !waveasm.pvreg<0>, !waveasm.psreg<0, 2>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.global_store_dwordx3 %[[D4]], %[[PTR]], %[[V]] offset : 9000 : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 2>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.flat_store_dwordx4 %[[D4]], %[[PTR]], %[[V]] : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 2>, !waveasm.pvreg<0>{{$}}
  waveasm.buffer_store_dword %v, %srd, %v : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %d4, %srd, %c0 offset : 64 : !waveasm.vreg<4, 4>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.buffer_store_byte %v, %srd, %v offset:1 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_short %v, %srd, %v {instOffset = 4095} : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.global_store_short %v, %ptr, %v {instOffset = 2 : i64} : !waveasm.pvreg<0>, !waveasm.psreg<0, 2>, !waveasm.pvreg<0>
  waveasm.global_store_dwordx3 %d4, %ptr, %v offset : 9000 : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 2>, !waveasm.pvreg<0>
  waveasm.flat_store_dwordx4 %d4, %ptr, %v offset : 0 : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 2>, !waveasm.pvreg<0>

  // Atomics share the store format.
  // CHECK-NEXT: waveasm.buffer_atomic_add_f32 %[[V]], %[[SRD]], %[[V]] offset : 4 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.buffer_atomic_pk_add_bf16 %[[V]], %[[SRD]], %[[C0]] : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>{{$}}
  waveasm.buffer_atomic_add_f32 %v, %srd, %v offset : 4 : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_atomic_pk_add_bf16 %v, %srd, %c0 {instOffset = 0} : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
}
