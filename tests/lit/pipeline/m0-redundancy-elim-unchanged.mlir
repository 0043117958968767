// waveasm-m0-redundancy-elim leaves a program without a redundant M0 write
// byte-identical.
// RUN: waveasm-opt %s -o %t.before
// RUN: waveasm-opt --waveasm-m0-redundancy-elim %s -o %t.after
// RUN: diff %t.before %t.after
waveasm.program @alternating target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %v = waveasm.precolored.vreg 1 : !waveasm.vreg
  %a = waveasm.precolored.sreg 4 : !waveasm.sreg
  %b = waveasm.precolored.sreg 5 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %b : !waveasm.sreg
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
}
