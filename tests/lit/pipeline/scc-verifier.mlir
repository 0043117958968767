// waveasm-scc-verifier: an SCC value read after another SCC writer. The
// writers come from InstInfoOpInterface (implicit SCC definitions); an `if`
// or `condition` on an SGPR is tested with an s_cmp, an op with regions
// writes SCC when a nested op does; a reader inside a loop the producer is
// outside of is reached again after the whole loop body.
// RUN: waveasm-opt --waveasm-scc-verifier --split-input-file --verify-diagnostics %s

waveasm.program @one target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // expected-note @+1 {{SCC defined here}}
  %scc = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  // expected-note @+1 {{SCC clobbered here by 'waveasm.s_add_u32'}}
  %a:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  // expected-error @+1 {{SCC hazard: 1 SCC-clobbering op(s) between SCC producer 'waveasm.s_cmp_lt_u32' and consumer 'waveasm.s_cselect_b32'}}
  %r = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

// Two writers; the ops that leave SCC alone (moves, VALU, waits, s_mul_i32)
// are not counted.
waveasm.program @two target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // expected-note @+1 {{SCC defined here}}
  %a:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %m = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  %x = waveasm.v_add_u32 %v, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
  // expected-note @+1 {{SCC clobbered here by 'waveasm.s_lshl_b32'}}
  %l:2 = waveasm.s_lshl_b32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_waitcnt lgkmcnt(0)
  %p = waveasm.s_mul_i32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  // expected-note @+1 {{SCC clobbered here by 'waveasm.s_cmp_eq_u32'}}
  %e = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  // expected-error @+1 {{SCC hazard: 2 SCC-clobbering op(s) between SCC producer 'waveasm.s_add_u32' and consumer 'waveasm.s_addc_u32'}}
  %h:2 = waveasm.s_addc_u32 %a#1, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_endpgm
}

// -----

// Nothing in between: no error (a reader that also writes SCC is fine).
waveasm.program @clean target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %a:2 = waveasm.s_add_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %m = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  %x = waveasm.v_add_u32 %v, %c1 : !waveasm.pvreg<0>, !waveasm.imm<1> -> !waveasm.vreg
  %h:2 = waveasm.s_addc_u32 %a#1, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %r = waveasm.s_cselect_b32 %h#1, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  %go = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  waveasm.if %go {
    waveasm.yield
  }
  waveasm.s_endpgm
}

// -----

// The loop condition: an SCC writer between the compare and the terminator.
waveasm.program @latch target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
    // expected-note @+1 {{SCC defined here}}
    %go = waveasm.s_cmp_lt_u32 %i, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    // expected-note @+1 {{SCC clobbered here by 'waveasm.s_add_u32'}}
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    // expected-error @+1 {{SCC hazard: 1 SCC-clobbering op(s) between SCC producer 'waveasm.s_cmp_lt_u32' and consumer 'waveasm.condition'}}
    waveasm.condition %go : !waveasm.scc iter_args(%n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// A loop between producer and reader writes SCC (its own compare).
waveasm.program @across_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // expected-note @+1 {{SCC defined here}}
  %scc = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  // expected-note @+1 {{SCC clobbered here by 'waveasm.loop'}}
  waveasm.loop () : () -> () {
    %go = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc
  }
  // expected-error @+1 {{SCC hazard: 1 SCC-clobbering op(s) between SCC producer 'waveasm.s_cmp_eq_u32' and consumer 'waveasm.s_cselect_b32'}}
  %r = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

// Upstream checks same-block pairs only; a reader inside a loop body reads
// SCC again after the body's own compare (from the second iteration on).
waveasm.program @into_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // expected-note @+1 {{SCC defined here}}
  %scc = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  waveasm.loop () : () -> () {
    // expected-error @+1 {{SCC hazard: 1 SCC-clobbering op(s) between SCC producer 'waveasm.s_cmp_eq_u32' and consumer 'waveasm.s_cselect_b32'}}
    %r = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
    // expected-note @+1 {{SCC clobbered here by 'waveasm.s_cmp_lt_u32'}}
    %go = waveasm.s_cmp_lt_u32 %r, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc
  }
  waveasm.s_endpgm
}

// -----

// An `if` on an SGPR is tested with an s_cmp before its region runs.
waveasm.program @sgpr_if target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // expected-note @+1 {{SCC defined here}}
  %scc = waveasm.s_cmp_eq_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
  // expected-note @+1 {{SCC clobbered here by 'waveasm.if'}}
  %x = waveasm.if %s : !waveasm.psreg<2> -> !waveasm.sreg {
    // expected-error @+1 {{SCC hazard: 1 SCC-clobbering op(s) between SCC producer 'waveasm.s_cmp_eq_u32' and consumer 'waveasm.s_cselect_b32'}}
    %r = waveasm.s_cselect_b32 %scc, %s, %c1 : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.sreg
    waveasm.yield %r : !waveasm.sreg
  } else {
    waveasm.yield %s : !waveasm.psreg<2>
  }
  waveasm.s_endpgm
}
