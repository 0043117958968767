// extract/insert verifiers: index sign, register file, width and range; insert result type.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.vreg 0, 4 : !waveasm.vreg<4>
  // expected-error@+1 {{'waveasm.extract' op index must be non-negative, got -1}}
  %e = waveasm.extract %q[-1] : !waveasm.vreg<4> -> !waveasm.vreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.vreg 0, 4 : !waveasm.vreg<4>
  // expected-error@+1 {{'waveasm.extract' op result register class must match source register class: source '!waveasm.vreg<4>', result '!waveasm.areg'}}
  %e = waveasm.extract %q[0] : !waveasm.vreg<4> -> !waveasm.areg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  // expected-error@+1 {{'waveasm.extract' op result register class must match source register class: source '!waveasm.psreg<0, 2>', result '!waveasm.pvreg<1>'}}
  %e = waveasm.extract %q[1] : !waveasm.psreg<0, 2> -> !waveasm.pvreg<1>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.vreg 0, 4 : !waveasm.vreg<4>
  // expected-error@+1 {{'waveasm.extract' op result width (8) exceeds source width (4)}}
  %e = waveasm.extract %q[0] : !waveasm.vreg<4> -> !waveasm.vreg<8>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.vreg 8, 4 : !waveasm.vreg<4, 4>
  // expected-error@+1 {{'waveasm.extract' op extract range [3, 5) exceeds source width 4}}
  %e = waveasm.extract %q[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.sreg 0, 4 : !waveasm.sreg<4, 4>
  %w = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.insert' op index must be non-negative, got -2}}
  %e = waveasm.insert %w into %q[-2] : !waveasm.sreg, !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.sreg 0, 4 : !waveasm.sreg<4, 4>
  %w = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.insert' op result type '!waveasm.sreg' must match source type '!waveasm.sreg<4, 4>'}}
  %e = waveasm.insert %w into %q[0] : !waveasm.sreg, !waveasm.sreg<4, 4> -> !waveasm.sreg
}

// -----

// Exact type equality: same size but a different alignment is rejected.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.sreg 0, 4 : !waveasm.sreg<4, 4>
  %w = waveasm.precolored.sreg 0 : !waveasm.sreg
  // expected-error@+1 {{'waveasm.insert' op result type '!waveasm.sreg<4>' must match source type '!waveasm.sreg<4, 4>'}}
  %e = waveasm.insert %w into %q[0] : !waveasm.sreg, !waveasm.sreg<4, 4> -> !waveasm.sreg<4>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.sreg 0, 4 : !waveasm.sreg<4, 4>
  %w = waveasm.precolored.vreg 0 : !waveasm.vreg
  // expected-error@+1 {{'waveasm.insert' op inserted value register class must match source register class: source '!waveasm.sreg<4, 4>', value '!waveasm.vreg'}}
  %e = waveasm.insert %w into %q[0] : !waveasm.vreg, !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.sreg 0, 4 : !waveasm.sreg<4, 4>
  %w = waveasm.precolored.sreg 0, 8 : !waveasm.sreg<8>
  // expected-error@+1 {{'waveasm.insert' op inserted value width (8) exceeds source width (4)}}
  %e = waveasm.insert %w into %q[0] : !waveasm.sreg<8>, !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %q = waveasm.precolored.sreg 0, 4 : !waveasm.sreg<4, 4>
  %w = waveasm.precolored.sreg 0, 2 : !waveasm.sreg<2>
  // expected-error@+1 {{'waveasm.insert' op insert range [3, 5) exceeds source width 4}}
  %e = waveasm.insert %w into %q[3] : !waveasm.sreg<2>, !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>
}
