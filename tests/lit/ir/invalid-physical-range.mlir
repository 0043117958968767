// Physical registers must exist on the program's target (VGPR/SGPR/AGPR limits, gfx1250 has no AGPRs).
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.precolored.vreg' op physical register v300 is out of range for gfx942: valid VGPRs are v0-v255}}
  %v = waveasm.precolored.vreg 300 : !waveasm.pvreg<300>
}

// -----

// A range crossing the end of the file.
waveasm.program @k target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %c = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.v_mov_b32' op physical register v[250:257] is out of range for gfx950: valid VGPRs are v0-v255}}
  %v = waveasm.v_mov_b32 %c : !waveasm.imm<0> -> !waveasm.pvreg<250, 8>
}

// -----

// SGPRs: s0-s105 plus the VCC pair s106-s107.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.precolored.sreg' op physical register s[110:111] is out of range for gfx942: valid SGPRs are s0-s107}}
  %s = waveasm.precolored.sreg 110, 2 : !waveasm.psreg<110, 2>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.precolored.sreg' op physical register s108 is out of range for gfx942: valid SGPRs are s0-s107}}
  %s = waveasm.precolored.sreg 108 : !waveasm.psreg<108>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.precolored.areg' op physical register a[252:259] is out of range for gfx942: valid AGPRs are a0-a255}}
  %a = waveasm.precolored.areg 252, 8 : !waveasm.pareg<252, 8>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx1250> abi = #waveasm.abi<> {
  // expected-error@+1 {{'waveasm.precolored.areg' op physical register a0 is out of range for gfx1250: gfx1250 has no AGPRs}}
  %a = waveasm.precolored.areg 0 : !waveasm.pareg<0>
}

// -----

// Block arguments are checked too (reported on the op owning the region).
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.loop' op physical register v256 is out of range for gfx942: valid VGPRs are v0-v255}}
  %r = waveasm.loop (%i = %v : !waveasm.vreg) : (!waveasm.pvreg<256>) -> !waveasm.vreg {
    waveasm.condition %s : !waveasm.sreg iter_args(%i) : !waveasm.pvreg<256>
  }
}

// -----

// Nested ops are checked as well.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %c = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.if %s : !waveasm.sreg {
    // expected-error@+1 {{'waveasm.s_mov_b32' op physical register s200 is out of range for gfx942: valid SGPRs are s0-s107}}
    %t = waveasm.s_mov_b32 %c : !waveasm.imm<0> -> !waveasm.psreg<200>
    waveasm.yield
  }
}
