// Parse errors: unknown op/type/attribute mnemonics, malformed register types, loop/if custom-syntax errors.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{custom op 'waveasm.v_bogus_op' is unknown}}
  waveasm.v_bogus_op
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{unknown  type `vrog` in dialect `waveasm`}}
  %v = waveasm.precolored.vreg 0 : !waveasm.vrog
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{unknown attribute `foo` in dialect `waveasm`}}
  waveasm.s_endpgm {a = #waveasm.foo}
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{expected '<'}}
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{expected '<'}}
  %c = waveasm.constant 0 : !waveasm.imm
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{expected integer value}}
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg<>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{expected '>'}}
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg<2, 2, 2>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{custom op 'waveasm.loop' expected as many input types as operands (expected 1 got 2)}}
  %r = waveasm.loop (%i = %s) : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg {
    waveasm.condition %i : !waveasm.sreg iter_args(%i) : !waveasm.sreg
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{custom op 'waveasm.loop' expected as many input types as operands (expected 0 got 1)}}
  waveasm.loop : (!waveasm.sreg) -> () {
    waveasm.condition %s : !waveasm.sreg
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{cannot name an operation with no results}}
  %r = waveasm.loop () : () -> () {
    waveasm.condition %s : !waveasm.sreg
  }
}

// -----

// The loop's function type is mandatory.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{expected ':'}}
  waveasm.loop {
    waveasm.condition %s : !waveasm.sreg
  }
}

// -----

// Without `: TYPE` the if condition is assumed to be !waveasm.scc.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-note@+1 {{prior use here}}
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{use of value '%s' expects different type than prior uses: '!waveasm.scc' vs '!waveasm.sreg'}}
  waveasm.if %s {
    waveasm.yield
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  waveasm.if %s : !waveasm.sreg {
    waveasm.yield
  // expected-error@+1 {{expected '{' to begin a region}}
  } else
}
