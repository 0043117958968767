// Individually defined VALU ops round-trip: cndmask, readfirstlane, readlane, writelane, accvgpr read/write.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @valu_misc target = <#waveasm.gfx942> abi = <> {
waveasm.program @valu_misc target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[V:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[W:.*]] = waveasm.precolored.vreg 1 : !waveasm.vreg{{$}}
  // CHECK-NEXT: %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 4 : <4>
  // CHECK-NEXT: %[[A:.*]] = waveasm.precolored.areg 0 : !waveasm.pareg<0>
  // CHECK-NEXT: %[[VA:.*]] = waveasm.precolored.areg 1 : !waveasm.areg{{$}}
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %w = waveasm.precolored.vreg 1 : !waveasm.vreg
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c = waveasm.constant 4 : !waveasm.imm<4>
  %a = waveasm.precolored.areg 0 : !waveasm.pareg<0>
  %va = waveasm.precolored.areg 1 : !waveasm.areg

  // CHECK-NEXT: %{{.*}} = waveasm.v_cndmask_b32 %[[V]], %[[C]], %[[S]] : !waveasm.pvreg<0>, !waveasm.imm<4>, !waveasm.psreg<2> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_cndmask_b32 %[[W]], %[[V]], %[[W]] : !waveasm.vreg, !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.pvreg<5>
  %cm = waveasm.v_cndmask_b32 %v, %c, %s : !waveasm.pvreg<0>, !waveasm.imm<4>, !waveasm.psreg<2> -> !waveasm.vreg
  %cm2 = waveasm.v_cndmask_b32 %w, %v, %w : !waveasm.vreg, !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.pvreg<5>

  // CHECK-NEXT: %{{.*}} = waveasm.v_readfirstlane_b32 %[[V]] : !waveasm.pvreg<0> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_readfirstlane_b32 %[[W]] : !waveasm.vreg -> !waveasm.psreg<7>
  %rf = waveasm.v_readfirstlane_b32 %v : !waveasm.pvreg<0> -> !waveasm.sreg
  %rf2 = waveasm.v_readfirstlane_b32 %w : !waveasm.vreg -> !waveasm.psreg<7>

  // CHECK-NEXT: %{{.*}} = waveasm.v_readlane_b32 %[[V]], %[[C]] : !waveasm.pvreg<0>, !waveasm.imm<4> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_readlane_b32 %[[W]], %[[S]] : !waveasm.vreg, !waveasm.psreg<2> -> !waveasm.sreg{{$}}
  %rl = waveasm.v_readlane_b32 %v, %c : !waveasm.pvreg<0>, !waveasm.imm<4> -> !waveasm.sreg
  %rl2 = waveasm.v_readlane_b32 %w, %s : !waveasm.vreg, !waveasm.psreg<2> -> !waveasm.sreg

  // CHECK-NEXT: %{{.*}} = waveasm.v_writelane_b32 %[[S]], %[[C]], %[[W]] : !waveasm.psreg<2>, !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg{{$}}
  %wl = waveasm.v_writelane_b32 %s, %c, %w : !waveasm.psreg<2>, !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg

  // CHECK-NEXT: %{{.*}} = waveasm.v_accvgpr_read_b32 %[[A]] : !waveasm.pareg<0> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.v_accvgpr_read_b32 %[[VA]] : !waveasm.areg -> !waveasm.pvreg<3>
  // CHECK-NEXT: waveasm.v_accvgpr_write_b32 %[[V]], %[[A]] : !waveasm.pvreg<0>, !waveasm.pareg<0>{{$}}
  // CHECK-NEXT: waveasm.v_accvgpr_write_b32 %[[W]], %[[VA]] : !waveasm.vreg, !waveasm.areg{{$}}
  %ar = waveasm.v_accvgpr_read_b32 %a : !waveasm.pareg<0> -> !waveasm.vreg
  %ar2 = waveasm.v_accvgpr_read_b32 %va : !waveasm.areg -> !waveasm.pvreg<3>
  waveasm.v_accvgpr_write_b32 %v, %a : !waveasm.pvreg<0>, !waveasm.pareg<0>
  waveasm.v_accvgpr_write_b32 %w, %va : !waveasm.vreg, !waveasm.areg
}
