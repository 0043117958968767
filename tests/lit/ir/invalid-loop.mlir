// waveasm.loop verifier: body shape, terminator, init/iter_arg/result counts and type compatibility.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.loop' op expects a non-empty block}}
  waveasm.loop : () -> () {
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op loop body must end with waveasm.condition, found 'waveasm.s_nop'}}
  waveasm.loop : () -> () {
    %cc = waveasm.s_cmp_lt_u32 %s, %s : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.s_nop 0
  }
}

// -----

// Two blocks can only be written in the generic form.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op expects a single block in its body}}
  "waveasm.loop"() ({
    "waveasm.s_nop"() <{count = 0 : i32}> : () -> ()
  ^bb1:
    "waveasm.condition"(%s) : (!waveasm.sreg) -> ()
  }) : () -> ()
}

// -----

// Inits and block arguments can only disagree in count in the generic form.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op different number of inits (1) and region iter_args (0)}}
  "waveasm.loop"(%s) ({
    "waveasm.condition"(%s) : (!waveasm.sreg) -> ()
  }) : (!waveasm.sreg) -> ()
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op different number of inits (0) and region iter_args (2)}}
  "waveasm.loop"() ({
  ^bb0(%a: !waveasm.sreg, %b: !waveasm.sreg):
    "waveasm.condition"(%s, %a, %b) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> ()
  }) : () -> ()
}

// -----

// Yielded value of another register class.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{'waveasm.loop' op condition iter_arg types must be compatible with loop arg types}}
  %r = waveasm.loop (%i = %s) : (!waveasm.sreg) -> !waveasm.sreg {
    waveasm.condition %s : !waveasm.sreg iter_args(%v) : !waveasm.vreg
  }
}

// -----

// Too few yielded values (reported with the same message).
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op condition iter_arg types must be compatible with loop arg types}}
  %r = waveasm.loop (%i = %s) : (!waveasm.sreg) -> !waveasm.sreg {
    waveasm.condition %s : !waveasm.sreg
  }
}

// -----

// Same family, different size.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %p = waveasm.precolored.sreg 0, 2 : !waveasm.sreg<2>
  // expected-error@+1 {{'waveasm.loop' op condition iter_arg types must be compatible with loop arg types}}
  %r = waveasm.loop (%i = %s) : (!waveasm.sreg) -> !waveasm.sreg {
    waveasm.condition %s : !waveasm.sreg iter_args(%p) : !waveasm.sreg<2>
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op result types must be compatible with iter arg types}}
  %r = waveasm.loop (%i = %s) : (!waveasm.sreg) -> !waveasm.vreg {
    waveasm.condition %i : !waveasm.sreg iter_args(%i) : !waveasm.sreg
  }
}

// -----

// A loop with iter args must return them all.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op result types must be compatible with iter arg types}}
  waveasm.loop (%i = %s) : (!waveasm.sreg) -> () {
    waveasm.condition %i : !waveasm.sreg iter_args(%i) : !waveasm.sreg
  }
}

// -----

// Virtual block argument and yielded value must have identical types
// (vreg<4> has alignment 1, vreg<4, 4> alignment 4).
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4>
  // expected-error@+1 {{'waveasm.loop' op 1-th region iter_arg and 1-th yielded value have different type: '!waveasm.vreg<4>' != '!waveasm.vreg<4, 4>'}}
  %r:2 = waveasm.loop (%i = %i0, %acc = %z)
      : (!waveasm.sreg, !waveasm.vreg<4>) -> (!waveasm.sreg, !waveasm.vreg<4>) {
    %n = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    waveasm.condition %i : !waveasm.sreg iter_args(%i, %n) : !waveasm.sreg, !waveasm.vreg<4, 4>
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0, 2 : !waveasm.sreg<2, 2>
  // expected-error@+1 {{'waveasm.loop' op 0-th init and 0-th region iter_arg have different type: '!waveasm.sreg<2, 2>' != '!waveasm.sreg<2>'}}
  %r = waveasm.loop (%i = %s : !waveasm.sreg<2, 2>) : (!waveasm.sreg<2>) -> !waveasm.sreg<2> {
    waveasm.condition %i : !waveasm.sreg<2> iter_args(%i) : !waveasm.sreg<2>
  }
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{'waveasm.loop' op init types must be compatible with iter arg types: 0-th init has type '!waveasm.vreg' but its region iter_arg has type '!waveasm.sreg'}}
  %r = waveasm.loop (%i = %v : !waveasm.vreg) : (!waveasm.sreg) -> !waveasm.sreg {
    waveasm.condition %i : !waveasm.sreg iter_args(%i) : !waveasm.sreg
  }
}

// -----

// A condition that is not the last op is reported by the Terminator trait,
// not as a missing condition.
waveasm.program @condition_not_last target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.sreg
  waveasm.loop : () -> () {
    // expected-error@+1 {{'waveasm.condition' op must be the last operation in the parent block}}
    waveasm.condition %s : !waveasm.sreg
    waveasm.s_nop 0
  }
  waveasm.s_endpgm
}
