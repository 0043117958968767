// LDS reads (optional {offset = N : i64}) and writes (discardable offset) round-trip.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @lds target = <#waveasm.gfx942> abi = <> {
waveasm.program @lds target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[A:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[D4:.*]] = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
  // CHECK-NEXT: %[[C0:.*]] = waveasm.constant 0 : <0>
  %addr = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %d4 = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>

  // CHECK-NEXT: %[[R0:.*]] = waveasm.ds_read_b32 %[[A]] : !waveasm.pvreg<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %[[R1:.*]] = waveasm.ds_read_b64 %[[A]] {offset = 512 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.ds_read_b128 %[[R0]] : !waveasm.vreg -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.ds_read2_b32 %[[A]] {offset = 8 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2>
  // CHECK-NEXT: %{{.*}} = waveasm.ds_read2_b64 %[[C0]] {offset = 0 : i64} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // CHECK-NEXT: %{{.*}} = waveasm.ds_read_u8 %[[A]] {offset = 3 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.ds_read_i16 %[[A]] : !waveasm.pvreg<0> -> !waveasm.pvreg<12>
  %r0 = waveasm.ds_read_b32 %addr : !waveasm.pvreg<0> -> !waveasm.vreg
  %r1 = waveasm.ds_read_b64 %addr {offset = 512 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  %r2 = waveasm.ds_read_b128 %r0 : !waveasm.vreg -> !waveasm.vreg<4, 4>
  %r3 = waveasm.ds_read2_b32 %addr {offset = 8 : i64} : !waveasm.pvreg<0> -> !waveasm.vreg<2>
  %r4 = waveasm.ds_read2_b64 %c0 {offset = 0 : i64} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r5 = waveasm.ds_read_u8 %addr {offset = 3} : !waveasm.pvreg<0> -> !waveasm.vreg
  %r6 = waveasm.ds_read_i16 %addr : !waveasm.pvreg<0> -> !waveasm.pvreg<12>

  // CHECK-NEXT: waveasm.ds_write_b32 %[[R0]], %[[A]] : !waveasm.vreg, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.ds_write_b64 %[[R1]], %[[A]] {offset = 256 : i64} : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.ds_write_b128 %[[D4]], %[[A]] {offset = 1024 : i64} : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.ds_write2_b32 %[[R1]], %[[A]] : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>{{$}}
  // CHECK-NEXT: waveasm.ds_write_b8 %[[A]], %[[C0]] {offset = 7 : i64} : !waveasm.pvreg<0>, !waveasm.imm<0>{{$}}
  // CHECK-NEXT: waveasm.ds_write_b16 %[[A]], %[[A]] : !waveasm.pvreg<0>, !waveasm.pvreg<0>{{$}}
  waveasm.ds_write_b32 %r0, %addr : !waveasm.vreg, !waveasm.pvreg<0>
  waveasm.ds_write_b64 %r1, %addr {offset = 256 : i64} : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>
  waveasm.ds_write_b128 %d4, %addr {offset = 1024 : i64} : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
  waveasm.ds_write2_b32 %r1, %addr : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>
  waveasm.ds_write_b8 %addr, %c0 {offset = 7} : !waveasm.pvreg<0>, !waveasm.imm<0>
  waveasm.ds_write_b16 %addr, %addr : !waveasm.pvreg<0>, !waveasm.pvreg<0>
}
