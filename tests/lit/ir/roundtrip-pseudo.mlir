// Pseudo ops round-trip: constant, precolored.*, pack, extract, insert, dce_protect, comment, raw, label.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @pseudo target = <#waveasm.gfx942> abi = <> {
waveasm.program @pseudo target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // The constant's result type prints in stripped form; both forms parse.
  // CHECK:      %[[C42:.*]] = waveasm.constant 42 : <42>
  // CHECK-NEXT: %[[CN:.*]] = waveasm.constant -7 : <-7>
  // CHECK-NEXT: %[[CS:.*]] = waveasm.constant 3 : <3>
  // CHECK-NEXT: %[[CU:.*]] = waveasm.constant 1 {no_cse} : <1>
  %c42 = waveasm.constant 42 : !waveasm.imm<42>
  %cn = waveasm.constant -7 : !waveasm.imm<-7>
  %cs = waveasm.constant 3 : <3>
  %cu = waveasm.constant 1 {no_cse} : !waveasm.imm<1>

  // precolored.*: size 1 (explicit or implicit) is elided, other sizes kept;
  // results may be virtual or physical registers.
  // CHECK-NEXT: %[[V0:.*]] = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // CHECK-NEXT: %[[V1:.*]] = waveasm.precolored.vreg 4 : !waveasm.vreg{{$}}
  // CHECK-NEXT: %[[V2:.*]] = waveasm.precolored.vreg 4, 2 : !waveasm.vreg<2>
  // CHECK-NEXT: %[[V3:.*]] = waveasm.precolored.vreg 8, 4 {alignment = 4 : i64} : !waveasm.vreg<4, 4>
  // CHECK-NEXT: %[[S0:.*]] = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  // CHECK-NEXT: %[[S1:.*]] = waveasm.precolored.sreg 2 : !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[A0:.*]] = waveasm.precolored.areg 8, 4 : !waveasm.areg<4>
  // CHECK-NEXT: %[[A1:.*]] = waveasm.precolored.areg 0 : !waveasm.pareg<0>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %v1 = waveasm.precolored.vreg 4, 1 : !waveasm.vreg
  %v2 = waveasm.precolored.vreg 4, 2 : !waveasm.vreg<2>
  %v3 = waveasm.precolored.vreg 8 {size = 4, alignment = 4} : !waveasm.vreg<4, 4>
  %s0 = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %s1 = waveasm.precolored.sreg 2 : !waveasm.sreg
  %a0 = waveasm.precolored.areg 8, 4 : !waveasm.areg<4>
  %a1 = waveasm.precolored.areg 0 : !waveasm.pareg<0>

  // CHECK-NEXT: %[[LO:.*]] = waveasm.extract %[[S0]][0] : !waveasm.psreg<0, 2> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[HI:.*]] = waveasm.extract %[[S0]][1] : !waveasm.psreg<0, 2> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %[[SRD:.*]] = waveasm.pack %[[LO]], %[[HI]], %[[S1]], %[[S1]] : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  // CHECK-NEXT: %[[VP:.*]] = waveasm.pack %[[V1]], %[[V0]] : (!waveasm.vreg, !waveasm.pvreg<0>) -> !waveasm.vreg<2, 2>
  // CHECK-NEXT: %[[AX:.*]] = waveasm.extract %[[A0]][2] : !waveasm.areg<4> -> !waveasm.areg<2>
  // CHECK-NEXT: %[[INS:.*]] = waveasm.insert %[[S1]] into %[[SRD]][3] : !waveasm.sreg, !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>
  // CHECK-NEXT: %[[VI:.*]] = waveasm.insert %[[V2]] into %[[V3]][2] : !waveasm.vreg<2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %lo = waveasm.extract %s0[0] : !waveasm.psreg<0, 2> -> !waveasm.sreg
  %hi = waveasm.extract %s0[1] : !waveasm.psreg<0, 2> -> !waveasm.sreg
  %srd = waveasm.pack %lo, %hi, %s1, %s1
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  %vp = waveasm.pack %v1, %v0 : (!waveasm.vreg, !waveasm.pvreg<0>) -> !waveasm.vreg<2, 2>
  %ax = waveasm.extract %a0[2] : !waveasm.areg<4> -> !waveasm.areg<2>
  %ins = waveasm.insert %s1 into %srd[3] : !waveasm.sreg, !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>
  %vi = waveasm.insert %v2 into %v3[2] : !waveasm.vreg<2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>

  // CHECK-NEXT: waveasm.dce_protect %[[INS]] : !waveasm.sreg<4, 4>
  // CHECK-NEXT: waveasm.dce_protect %[[A1]] : !waveasm.pareg<0>
  waveasm.dce_protect %ins : !waveasm.sreg<4, 4>
  waveasm.dce_protect %a1 : !waveasm.pareg<0>

  // CHECK-NEXT: waveasm.comment "build buffer descriptors"
  // CHECK-NEXT: waveasm.raw "s_nop 7"
  // CHECK-NEXT: waveasm.raw "v_mov_b32 v1, 0x3f800000 ; literal"
  // CHECK-NEXT: waveasm.label @L_top
  // CHECK-NEXT: waveasm.label @L_end {marker}
  waveasm.comment "build buffer descriptors"
  waveasm.raw "s_nop 7"
  waveasm.raw "v_mov_b32 v1, 0x3f800000 ; literal"
  waveasm.label @L_top
  waveasm.label @L_end {marker}
}
