// Buffer load/store verifier: 4-SGPR resource descriptor and instOffset in [0, 4095].
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %ptr = waveasm.precolored.sreg 2, 2 : !waveasm.psreg<2, 2>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %z = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.buffer_load_dword' op buffer load requires 4-SGPR SRD but got 2 SGPRs}}
  %v = waveasm.buffer_load_dword %ptr, %off, %z
      : !waveasm.psreg<2, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %ptr = waveasm.precolored.sreg 2, 2 : !waveasm.sreg<2, 2>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %val = waveasm.precolored.vreg 1 : !waveasm.pvreg<1>
  // expected-error@+1 {{'waveasm.buffer_store_dword' op buffer store requires 4-SGPR SRD but got 2 SGPRs}}
  waveasm.buffer_store_dword %val, %ptr, %off
      : !waveasm.pvreg<1>, !waveasm.sreg<2, 2>, !waveasm.pvreg<0>
}

// -----

// Atomics follow the store rule.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4 : !waveasm.sreg
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // expected-error@+1 {{'waveasm.buffer_atomic_add_f32' op buffer store requires 4-SGPR SRD but got 1 SGPRs}}
  waveasm.buffer_atomic_add_f32 %off, %srd, %off
      : !waveasm.pvreg<0>, !waveasm.sreg, !waveasm.pvreg<0>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %z = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.buffer_load_dword' op instruction offset 5000 is out of valid range [0, 4095]}}
  %v = waveasm.buffer_load_dword %srd, %off, %z offset : 5000
      : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %z = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.buffer_load_dwordx4' op instruction offset -1 is out of valid range [0, 4095]}}
  %v = waveasm.buffer_load_dwordx4 %srd, %off, %z offset : -1
      : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
}

// -----

// The attribute-dictionary spelling is checked the same way.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %z = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.buffer_load_ubyte' op instruction offset 4096 is out of valid range [0, 4095]}}
  %v = waveasm.buffer_load_ubyte %srd, %off, %z {instOffset = 4096}
      : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // expected-error@+1 {{'waveasm.buffer_store_dword' op instruction offset 5000 is out of valid range [0, 4095]}}
  waveasm.buffer_store_dword %off, %srd, %off offset : 5000
      : !waveasm.pvreg<0>, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %off = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  // expected-error@+1 {{'waveasm.buffer_store_short' op instruction offset -1 is out of valid range [0, 4095]}}
  waveasm.buffer_store_short %off, %srd, %off offset:-1
      : !waveasm.pvreg<0>, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
}
