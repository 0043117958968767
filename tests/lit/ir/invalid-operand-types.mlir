// Operand/result types outside their type group are rejected with MLIR's "must be <group>" message.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

// VALU unary source: VGPR or immediate (no SGPR).
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.v_cvt_f32_u32' op operand #0 must be VGPR or immediate, but got '!waveasm.sreg'}}
  %f = waveasm.v_cvt_f32_u32 %s : !waveasm.sreg -> !waveasm.vreg
}

// -----

// SALU src0 must be an SGPR, an immediate is rejected.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.s_add_u32' op operand #0 must be any SGPR, but got '!waveasm.imm<0>'}}
  %r:2 = waveasm.s_add_u32 %c, %c : !waveasm.imm<0>, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
}

// -----

// SALU src1: SGPR or immediate.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // expected-error@+1 {{'waveasm.s_cmp_eq_u32' op operand #1 must be SGPR or immediate, but got '!waveasm.pvreg<0>'}}
  %c = waveasm.s_cmp_eq_u32 %s, %v : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.scc
}

// -----

// VALU binary sources exclude AGPRs.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  %a = waveasm.precolored.areg 0 : !waveasm.areg
  // expected-error@+1 {{'waveasm.v_add_u32' op operand #1 must be VALU source operand, but got '!waveasm.areg'}}
  %r = waveasm.v_add_u32 %v, %a : !waveasm.vreg, !waveasm.areg -> !waveasm.vreg
}

// -----

// VALU result: any VGPR.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{'waveasm.v_add_u32' op result #0 must be any VGPR, but got '!waveasm.sreg'}}
  %r = waveasm.v_add_u32 %v, %v : !waveasm.vreg, !waveasm.vreg -> !waveasm.sreg
}

// -----

// v_mov_b32 result: any vector register.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.v_mov_b32' op result #0 must be any vector register, but got '!waveasm.psreg<3>'}}
  %r = waveasm.v_mov_b32 %c : !waveasm.imm<0> -> !waveasm.psreg<3>
}

// -----

// MFMA accumulator source excludes SGPRs.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 0, 2 : !waveasm.vreg<2, 2>
  %s = waveasm.precolored.sreg 0, 4 : !waveasm.sreg<4, 4>
  // expected-error@+1 {{'waveasm.v_mfma_f32_16x16x16_f16' op operand #2 must be MFMA accumulator source, but got '!waveasm.sreg<4, 4>'}}
  %d = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %s : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.sreg<4, 4> -> !waveasm.vreg<4, 4>
}

// -----

// v_accvgpr_read_b32 source: any AGPR.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{'waveasm.v_accvgpr_read_b32' op operand #0 must be any AGPR, but got '!waveasm.vreg'}}
  %r = waveasm.v_accvgpr_read_b32 %v : !waveasm.vreg -> !waveasm.vreg
}

// -----

// VMEM store data: any VGPR.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  %a = waveasm.precolored.areg 0 : !waveasm.areg
  // expected-error@+1 {{'waveasm.global_store_dword' op operand #0 must be any VGPR, but got '!waveasm.areg'}}
  waveasm.global_store_dword %a, %p, %v : !waveasm.areg, !waveasm.psreg<0, 2>, !waveasm.vreg
}

// -----

// s_cselect_b32 needs an SCC flag as its first operand.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.s_cselect_b32' op operand #0 must be SCC flag, but got '!waveasm.sreg'}}
  %r = waveasm.s_cselect_b32 %s, %s, %s : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg
}

// -----

// Loop condition: SCC or SGPR.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  waveasm.loop : () -> () {
    // expected-error@+1 {{'waveasm.condition' op operand #0 must be SCC or SGPR, but got '!waveasm.vreg'}}
    waveasm.condition %v : !waveasm.vreg
  }
}

// -----

// Loop-carried values must be registers (no SCC).
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %c = waveasm.s_cmp_eq_u32 %s, %s : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
  // expected-error@+1 {{'waveasm.loop' op operand #0 must be variadic of any register, but got '!waveasm.scc'}}
  %r = waveasm.loop (%i = %c) : (!waveasm.scc) -> !waveasm.scc {
    waveasm.condition %i : !waveasm.scc iter_args(%i) : !waveasm.scc
  }
}

// -----

// arith.select condition must be a register, not an immediate.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %c = waveasm.constant 1 : !waveasm.imm<1>
  // expected-error@+1 {{'waveasm.arith.select' op operand #2 must be any register, but got '!waveasm.imm<1>'}}
  %r = waveasm.arith.select %c, %s, %s : (!waveasm.sreg, !waveasm.sreg, !waveasm.imm<1>) -> !waveasm.sreg
}

// -----

// arith.* operands: any operand (no SCC).
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %c = waveasm.s_cmp_eq_u32 %s, %s : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
  // expected-error@+1 {{'waveasm.arith.zext' op operand #0 must be any operand, but got '!waveasm.scc'}}
  %r = waveasm.arith.zext %c : (!waveasm.scc) -> !waveasm.sreg<2, 2>
}

// -----

// precolored.areg result: any AGPR.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.precolored.areg' op result #0 must be any AGPR, but got '!waveasm.vreg'}}
  %a = waveasm.precolored.areg 0 : !waveasm.vreg
}

// -----

// Variadic load results: wrong type.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{'waveasm.ds_read_b64' op result #0 must be variadic of any VGPR, but got '!waveasm.scc'}}
  %r = waveasm.ds_read_b64 %v : !waveasm.vreg -> !waveasm.scc
}

// -----

// Variadic SMEM results: an SGPR is required.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %c = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.s_load_dwordx2' op result #0 must be variadic of any SGPR, but got '!waveasm.vreg<2, 2>'}}
  %r = waveasm.s_load_dwordx2 %p, %c : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
}
