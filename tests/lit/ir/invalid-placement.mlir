// Op placement errors: ops outside a program, condition outside a loop, yield in a wrong parent, terminator not last.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

// An instruction directly in the (implicit) builtin module; its operand comes
// from a builtin op, which may live there.
%a = builtin.unrealized_conversion_cast to !waveasm.vreg
// expected-error@+1 {{'waveasm.v_add_u32' op must be nested inside a waveasm.program}}
%v = waveasm.v_add_u32 %a, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg

// -----

// A pseudo op outside a program.
// expected-error@+1 {{'waveasm.constant' op must be nested inside a waveasm.program}}
%c = waveasm.constant 0 : !waveasm.imm<0>

// -----

module {
  // expected-error@+1 {{'waveasm.s_endpgm' op must be nested inside a waveasm.program}}
  waveasm.s_endpgm
}

// -----

// Structured control flow needs a program too.
module {
  // expected-error@+1 {{'waveasm.loop' op must be nested inside a waveasm.program}}
  "waveasm.loop"() ({
    %s = "waveasm.constant"() <{value = 0 : i64}> : () -> !waveasm.imm<0>
    %t = "waveasm.s_mov_b32"(%s) : (!waveasm.imm<0>) -> !waveasm.sreg
    "waveasm.condition"(%t) : (!waveasm.sreg) -> ()
  }) : () -> ()
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c = waveasm.constant 4 : !waveasm.imm<4>
  %lt = waveasm.s_cmp_lt_u32 %s, %c : !waveasm.psreg<2>, !waveasm.imm<4> -> !waveasm.scc
  // expected-error@+1 {{'waveasm.condition' op expects parent op 'waveasm.loop'}}
  waveasm.condition %lt : !waveasm.scc
}

// -----

// Inside an if region the if's own verifier reports the misplaced condition.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op then region must end with waveasm.yield, found 'waveasm.condition'}}
  waveasm.if %s : !waveasm.sreg {
    waveasm.condition %s : !waveasm.sreg
  }
}

// -----

module {
  // expected-error@+1 {{'waveasm.yield' op expects parent op to be one of 'waveasm.if, waveasm.program'}}
  waveasm.yield
}

// -----

// A yield may end a program body but, like any terminator, not sit mid-block.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.yield' op must be the last operation in the parent block}}
  waveasm.yield
  waveasm.s_endpgm
}
