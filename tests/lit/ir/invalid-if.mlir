// waveasm.if verifier: region shape, yield terminators, then/else and result type compatibility, else required with results.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op expects a non-empty block}}
  waveasm.if %s : !waveasm.sreg {
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op then region must end with waveasm.yield, found 'waveasm.s_nop'}}
  waveasm.if %s : !waveasm.sreg {
    waveasm.s_nop 0
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op else region must end with waveasm.yield, found 'waveasm.s_barrier'}}
  waveasm.if %s : !waveasm.sreg {
    waveasm.yield
  } else {
    waveasm.s_barrier
  }
}

// -----

// Generic form: region arguments.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op expects no arguments in its then region}}
  "waveasm.if"(%s) ({
  ^bb0(%x: !waveasm.sreg):
    "waveasm.yield"() : () -> ()
  }, {}) : (!waveasm.sreg) -> ()
}

// -----

// Generic form: several blocks.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op expects a single block in its else region}}
  "waveasm.if"(%s) ({
    "waveasm.yield"() : () -> ()
  }, {
    "waveasm.yield"() : () -> ()
  ^bb1:
    "waveasm.yield"() : () -> ()
  }) : (!waveasm.sreg) -> ()
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{'waveasm.if' op then and else must yield compatible types}}
  waveasm.if %s : !waveasm.sreg {
    waveasm.yield %s : !waveasm.sreg
  } else {
    waveasm.yield %v : !waveasm.vreg
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op then and else must yield compatible types}}
  %r = waveasm.if %s : !waveasm.sreg -> !waveasm.sreg {
    waveasm.yield %s : !waveasm.sreg
  } else {
    waveasm.yield
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %n = waveasm.precolored.sreg 4 : !waveasm.sreg
  %small = waveasm.s_cmp_lt_u32 %n, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.scc
  // expected-error@+1 {{'waveasm.if' op if operation with results must have an else region}}
  %v = waveasm.if %small : !waveasm.scc -> !waveasm.vreg {
    %one = waveasm.v_mov_b32 %c3 : !waveasm.imm<3> -> !waveasm.vreg
    waveasm.yield %one : !waveasm.vreg
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op result types must be compatible with yield types}}
  %r = waveasm.if %s : !waveasm.sreg -> !waveasm.vreg {
    waveasm.yield %s : !waveasm.sreg
  } else {
    waveasm.yield %s : !waveasm.sreg
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op result types must be compatible with yield types}}
  %r = waveasm.if %s : !waveasm.sreg -> !waveasm.sreg {
    waveasm.yield
  } else {
    waveasm.yield
  }
}

// -----

// An explicitly empty else region is an error, not a dropped else.
waveasm.program @empty_else target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.if' op expects a non-empty block}}
  waveasm.if %s : !waveasm.sreg {
    waveasm.yield
  } else {
  }
  waveasm.s_endpgm
}

// -----

// A yield that is not the last op of an if region.
waveasm.program @yield_not_last target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.sreg
  waveasm.if %s : !waveasm.sreg {
    // expected-error@+1 {{'waveasm.yield' op must be the last operation in the parent block}}
    waveasm.yield
    waveasm.s_nop 0
  }
  waveasm.s_endpgm
}
