// SSA-level errors reported by the generic parser/verifier: binding counts, undefined names, type conflicts, dominance.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c = waveasm.constant 4 : !waveasm.imm<4>
  // expected-error@+1 {{operation defines 2 results but was provided 1 to bind}}
  %sum = waveasm.s_add_u32 %s, %c : !waveasm.psreg<2>, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
  %a, %b = waveasm.v_mov_b32 %v : !waveasm.vreg -> !waveasm.vreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{use of undeclared SSA value name}}
  %x = waveasm.v_add_u32 %v, %never_defined : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  // expected-note@+1 {{prior use here}}
  %v = waveasm.precolored.vreg 3, 2 : !waveasm.vreg<2>
  // expected-error@+1 {{use of value '%v' expects different type than prior uses: '!waveasm.vreg' vs '!waveasm.vreg<2>'}}
  %s = waveasm.v_lshlrev_b32 %c2, %v : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // expected-error@+1 {{operand #1 does not dominate this use}}
  %sum = waveasm.v_add_u32 %v, %late : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
  // expected-note@+1 {{operand defined here (op in the same block)}}
  %late = waveasm.v_mov_b32 %v : !waveasm.pvreg<0> -> !waveasm.vreg
}

// -----

// A value defined in a loop body is not visible after the loop.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  waveasm.loop : () -> () {
    %inner = waveasm.v_mov_b32 %s : !waveasm.sreg -> !waveasm.vreg
    waveasm.condition %s : !waveasm.sreg
  }
  // expected-error@+1 {{use of undeclared SSA value name}}
  %use = waveasm.v_add_u32 %inner, %inner : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
}

// -----

// Programs are isolated from above: using a value of the enclosing module is
// rejected by the verifier (the outer op is unregistered, hence the flag).
%outer = "test.outer"() : () -> !waveasm.imm<0>
// expected-note@+1 {{required by region isolation constraints}}
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.v_mov_b32' op using value defined outside the region}}
  %v = waveasm.v_mov_b32 %outer : !waveasm.imm<0> -> !waveasm.vreg
}
