// One wave loads a dword per lane into LDS at M0 = 0 (direct-to-LDS, an
// async copy), waits for it (vmcnt) and reads its own bytes back. No other
// wave and no barrier: only the issuing wave's own wait orders its read
// after the DMA.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> attributes {workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.s_nop 4
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<1>
  waveasm.buffer_load_dword_lds %off, %out, %c0 : !waveasm.pvreg<1>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_waitcnt_vmcnt 0
  %own = waveasm.ds_read_b32 %off : !waveasm.pvreg<1> -> !waveasm.pvreg<3>
  waveasm.s_waitcnt_lgkmcnt 0
  waveasm.buffer_store_dword %own, %out, %off offset : 1024 : !waveasm.pvreg<3>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  waveasm.s_endpgm
}
