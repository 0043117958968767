// Type and attribute printing rules: elided defaults, kept vreg<1, N> alignment, imm literals, target/abi forms.
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// Hand-written target with the default code object version, abi keys out of
// declared order with a default-valued key: both print stripped, defaults
// dropped, keys in declared order.
// CHECK-LABEL: waveasm.program @types target = <#waveasm.gfx942> abi = <tid = 1, wg_id_x = 2> {
waveasm.program @types target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<kernarg = 0, wg_id_x = 2, tid = 1> {
  // Virtual registers: size/alignment 1 elided, but a non-default alignment
  // is kept even when the size is 1 (upstream would print !waveasm.vreg).
  // CHECK:      waveasm.precolored.vreg 0 : !waveasm.vreg{{$}}
  // CHECK-NEXT: waveasm.precolored.vreg 0, 4 : !waveasm.vreg<4>{{$}}
  // CHECK-NEXT: waveasm.precolored.vreg 0, 4 : !waveasm.vreg<4, 4>{{$}}
  // CHECK-NEXT: waveasm.precolored.vreg 0 : !waveasm.vreg<1, 2>{{$}}
  // CHECK-NEXT: waveasm.precolored.sreg 0 : !waveasm.sreg{{$}}
  // CHECK-NEXT: waveasm.precolored.sreg 0, 2 : !waveasm.sreg<2, 2>{{$}}
  // CHECK-NEXT: waveasm.precolored.areg 0 : !waveasm.areg<1, 4>{{$}}
  // CHECK-NEXT: waveasm.precolored.areg 0, 16 : !waveasm.areg<16>{{$}}
  %v1 = waveasm.precolored.vreg 0 : !waveasm.vreg<1>
  %v4 = waveasm.precolored.vreg 0, 4 : !waveasm.vreg<4, 1>
  %v44 = waveasm.precolored.vreg 0, 4 : !waveasm.vreg<4, 4>
  %v12 = waveasm.precolored.vreg 0 : !waveasm.vreg<1, 2>
  %s1 = waveasm.precolored.sreg 0 : !waveasm.sreg<1, 1>
  %s2 = waveasm.precolored.sreg 0, 2 : !waveasm.sreg<0x2, 2>
  %a14 = waveasm.precolored.areg 0 : !waveasm.areg<1, 4>
  %a16 = waveasm.precolored.areg 0, 16 : !waveasm.areg<16, 1>

  // Physical registers: size 1 elided.
  // CHECK-NEXT: waveasm.precolored.vreg 5 : !waveasm.pvreg<5>{{$}}
  // CHECK-NEXT: waveasm.precolored.vreg 8, 4 : !waveasm.pvreg<8, 4>{{$}}
  // CHECK-NEXT: waveasm.precolored.sreg 0 : !waveasm.psreg<0>{{$}}
  // CHECK-NEXT: waveasm.precolored.areg 4, 4 : !waveasm.pareg<4, 4>{{$}}
  %p5 = waveasm.precolored.vreg 5 : !waveasm.pvreg<5, 1>
  %p8 = waveasm.precolored.vreg 8, 4 : !waveasm.pvreg<8, 4>
  %ps = waveasm.precolored.sreg 0 : !waveasm.psreg<0, 1>
  %pa = waveasm.precolored.areg 4, 4 : !waveasm.pareg<0x4, 4>

  // Immediates: hex and negative literals print in decimal, both in the
  // stripped constant form and as full operand types.
  // CHECK-NEXT: %[[C16:.*]] = waveasm.constant 16 : <16>
  // CHECK-NEXT: %[[CM1:.*]] = waveasm.constant -1 : <-1>
  // CHECK-NEXT: waveasm.v_mov_b32 %[[C16]] : !waveasm.imm<16> -> !waveasm.vreg{{$}}
  // CHECK-NEXT: waveasm.v_mov_b32 %[[CM1]] : !waveasm.imm<-1> -> !waveasm.vreg{{$}}
  %c16 = waveasm.constant 0x10 : !waveasm.imm<0x10>
  %cm1 = waveasm.constant -1 : !waveasm.imm<-1>
  %m16 = waveasm.v_mov_b32 %c16 : !waveasm.imm<0x10> -> !waveasm.vreg
  %mm1 = waveasm.v_mov_b32 %cm1 : !waveasm.imm<-1> -> !waveasm.vreg

  // Types and attributes used as plain attribute values print fully qualified.
  // CHECK-NEXT: waveasm.s_endpgm {abi_all = #waveasm.abi<tid = 3, kernarg = 4, wg_id_x = 5, wg_id_y = 6, wg_id_z = 7>, abi_default = #waveasm.abi<>, imm_max = !waveasm.imm<9223372036854775807>, imm_min = !waveasm.imm<-9223372036854775808>, kind = #waveasm.gfx950, scc = !waveasm.scc, tgt = #waveasm.target<#waveasm.gfx942>, tgt_v4 = #waveasm.target<#waveasm.gfx1250, 4>}
  waveasm.s_endpgm {
    tgt = #waveasm.target<#waveasm.gfx942, 5>,
    tgt_v4 = #waveasm.target<#waveasm.gfx1250, 4>,
    kind = #waveasm.gfx950,
    abi_default = #waveasm.abi<tid = 0, kernarg = 0>,
    abi_all = #waveasm.abi<wg_id_z = 7, wg_id_y = 6, wg_id_x = 5, kernarg = 4, tid = 3>,
    scc = !waveasm.scc,
    imm_max = !waveasm.imm<9223372036854775807>,
    imm_min = !waveasm.imm<-9223372036854775808>}
}

// The printed (stripped) target form parses back; gfx950.
// CHECK-LABEL: waveasm.program @gfx950 target = <#waveasm.gfx950> abi = <> {
waveasm.program @gfx950 target = <#waveasm.gfx950> abi = <> {
}

// gfx1250 with a non-default code object version (kept) and an abi whose
// keys are all at their defaults (printed as `<>`).
// CHECK-LABEL: waveasm.program @gfx1250 target = <#waveasm.gfx1250, 4> abi = <> {
waveasm.program @gfx1250 target = #waveasm.target<#waveasm.gfx1250, 4>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
}

// Stripped forms on input, non-default code object version 4 on gfx942,
// `#waveasm.abi<>` written explicitly.
// CHECK-LABEL: waveasm.program @cov4 target = <#waveasm.gfx942, 4> abi = <kernarg = 2, wg_id_z = 7> {
waveasm.program @cov4 target = <#waveasm.gfx942, 4> abi = <wg_id_z = 7, kernarg = 2> {
}

// CHECK-LABEL: waveasm.program @abi_empty target = <#waveasm.gfx942> abi = <> {
waveasm.program @abi_empty target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
}
