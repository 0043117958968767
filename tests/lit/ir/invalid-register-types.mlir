// Register type parameter verifiers: count < 1, alignment < 1, negative physical index.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{register count must be at least 1, got 0}}
  %v = waveasm.precolored.vreg 0 : !waveasm.vreg<0>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{register count must be at least 1, got -2}}
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg<-2, 2>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{register alignment must be at least 1, got 0}}
  %a = waveasm.precolored.areg 0 : !waveasm.areg<2, 0>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{physical register index must be non-negative, got -1}}
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<-1>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{physical register index must be non-negative, got -4}}
  %s = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<-4, 2>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{register count must be at least 1, got 0}}
  %a = waveasm.precolored.areg 0 : !waveasm.pareg<3, 0>
}

// -----

// Also checked for types that only appear in an attribute.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // expected-error@+1 {{register count must be at least 1, got 0}}
  waveasm.s_endpgm {t = !waveasm.sreg<0>}
}
