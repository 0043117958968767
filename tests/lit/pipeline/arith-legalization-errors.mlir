// waveasm-arith-legalization diagnostics: widths other than 32/64 bits,
// operands narrower or wider than the operation, and a VALU computation
// whose declared result is an SGPR. Every bad op of a program is reported
// and the pass changes nothing.
// RUN: waveasm-opt --waveasm-arith-legalization --split-input-file --verify-diagnostics %s
// The valid op next to a bad one is left as it was.
// RUN: not waveasm-opt --waveasm-arith-legalization --mlir-print-ir-after-failure --split-input-file %s 2>&1 | FileCheck %s
// CHECK: IR Dump After WaveASMArithLegalization Failed
// CHECK: waveasm.program @wide
// CHECK: waveasm.arith.add
// CHECK: waveasm.arith.and
// CHECK: waveasm.arith.or

waveasm.program @wide target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 3 : !waveasm.psreg<4, 3>
  // expected-error @+1 {{'waveasm.arith.add' op the result is 96-bit; only 32- and 64-bit values can be legalized}}
  %r = waveasm.arith.add %p, %p : (!waveasm.psreg<4, 3>, !waveasm.psreg<4, 3>) -> !waveasm.sreg<3>
  // A valid op: not lowered while the program has errors.
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %ok = waveasm.arith.and %s, %s : (!waveasm.psreg<8>, !waveasm.psreg<8>) -> !waveasm.sreg
  // Reported too, in the same run.
  // expected-error @+1 {{'waveasm.arith.or' op the result is 128-bit; only 32- and 64-bit values can be legalized}}
  %o = waveasm.arith.or %p, %p : (!waveasm.psreg<4, 3>, !waveasm.psreg<4, 3>) -> !waveasm.sreg<4>
  waveasm.s_endpgm
}

// -----

waveasm.program @mixed target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.psreg<4, 2>
  %s = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  // expected-error @+1 {{'waveasm.arith.mul' op operand #1 is 32-bit but the operation is 64-bit}}
  %r = waveasm.arith.mul %p, %s : (!waveasm.psreg<4, 2>, !waveasm.psreg<6>) -> !waveasm.sreg<2, 2>
  waveasm.s_endpgm
}

// -----

waveasm.program @cmp_result target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  // expected-error @+1 {{'waveasm.arith.cmp' op the result (0 or 1) is 64-bit; only 32-bit values can be legalized}}
  %r = waveasm.arith.cmp eq, %s, %s : (!waveasm.psreg<6>, !waveasm.psreg<6>) -> !waveasm.sreg<2, 2>
  waveasm.s_endpgm
}

// -----

waveasm.program @cmp_width target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0, 4 : !waveasm.pvreg<0, 4>
  // expected-error @+1 {{'waveasm.arith.cmp' op the comparison is 128-bit; only 32- and 64-bit values can be legalized}}
  %r = waveasm.arith.cmp ult, %v, %v : (!waveasm.pvreg<0, 4>, !waveasm.pvreg<0, 4>) -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

waveasm.program @cmp_operands target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0, 2 : !waveasm.pvreg<0, 2>
  %w = waveasm.precolored.vreg 2 : !waveasm.pvreg<2>
  // expected-error @+1 {{'waveasm.arith.cmp' op operand #1 is 32-bit but the operation is 64-bit}}
  %r = waveasm.arith.cmp ult, %v, %w : (!waveasm.pvreg<0, 2>, !waveasm.pvreg<2>) -> !waveasm.vreg
  waveasm.s_endpgm
}

// -----

waveasm.program @select_cond target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.psreg<4, 2>
  %s = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  // expected-error @+1 {{'waveasm.arith.select' op the condition is 64-bit; only 32-bit values can be legalized}}
  %r = waveasm.arith.select %p, %s, %s : (!waveasm.psreg<6>, !waveasm.psreg<6>, !waveasm.psreg<4, 2>) -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

waveasm.program @select_values target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.psreg<4, 2>
  %s = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  // The false value is operand #0 (SPEC.md 6: declaration order).
  // expected-error @+1 {{'waveasm.arith.select' op operand #0 is 64-bit but the operation is 32-bit}}
  %r = waveasm.arith.select %s, %s, %p : (!waveasm.psreg<4, 2>, !waveasm.psreg<6>, !waveasm.psreg<6>) -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

waveasm.program @trunc_wide target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.psreg<4, 2>
  // expected-error @+1 {{'waveasm.arith.trunc' op the result is 64-bit; only 32-bit values can be legalized}}
  %r = waveasm.arith.trunc %p : (!waveasm.psreg<4, 2>) -> !waveasm.sreg<2, 2>
  waveasm.s_endpgm
}

// -----

waveasm.program @trunc_source target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  // expected-error @+1 {{'waveasm.arith.trunc' op the source is 128-bit; only 32- and 64-bit values can be legalized}}
  %r = waveasm.arith.trunc %p : (!waveasm.psreg<4, 4>) -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

waveasm.program @sext_narrowing target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.psreg<4, 2>
  // expected-error @+1 {{'waveasm.arith.sext' op operand #0 is 64-bit but the result is 32-bit}}
  %r = waveasm.arith.sext %p : (!waveasm.psreg<4, 2>) -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

waveasm.program @zext_wide target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  // expected-error @+1 {{'waveasm.arith.zext' op the result is 96-bit; only 32- and 64-bit values can be legalized}}
  %r = waveasm.arith.zext %s : (!waveasm.psreg<6>) -> !waveasm.sreg<3>
  waveasm.s_endpgm
}

// -----

waveasm.program @readfirstlane_width target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0, 2 : !waveasm.pvreg<0, 2>
  // expected-error @+1 {{'waveasm.arith.readfirstlane' op operand #0 is 64-bit but the operation is 32-bit}}
  %r = waveasm.arith.readfirstlane %v : (!waveasm.pvreg<0, 2>) -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

waveasm.program @vgpr_into_sgpr target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  // expected-error @+1 {{'waveasm.arith.add' op reads the vector register operand #0 ('!waveasm.pvreg<0>'), so it runs on the VALU and produces a VGPR, but its result is '!waveasm.sreg'; move a uniform value to an SGPR with waveasm.arith.readfirstlane}}
  %r = waveasm.arith.add %v, %s : (!waveasm.pvreg<0>, !waveasm.psreg<6>) -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

waveasm.program @vgpr_cond_into_sgpr target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  // A VGPR condition selects per lane.
  // expected-error @+1 {{'waveasm.arith.select' op reads the vector register operand #2 ('!waveasm.pvreg<0>'), so it runs on the VALU and produces a VGPR, but its result is '!waveasm.sreg'}}
  %r = waveasm.arith.select %v, %s, %s : (!waveasm.psreg<6>, !waveasm.psreg<6>, !waveasm.pvreg<0>) -> !waveasm.sreg
  waveasm.s_endpgm
}
