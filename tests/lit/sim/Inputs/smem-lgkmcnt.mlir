// Input of smem-lgkmcnt.test: a ds_read, then an s_load, then lgkmcnt(1)
// before the ds_read's result is stored.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<tid = 0, kernarg = 0> attributes {workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %ka = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.pvreg<1>
  %d = waveasm.ds_read_b32 %off : !waveasm.pvreg<1> -> !waveasm.pvreg<3>
  %k = waveasm.s_load_dword %ka, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.psreg<20>
  waveasm.s_waitcnt_lgkmcnt 1
  waveasm.buffer_store_dword %d, %out, %off offset : 1024 : !waveasm.pvreg<3>, !waveasm.psreg<4, 4>, !waveasm.pvreg<1>
  waveasm.s_waitcnt_lgkmcnt 0
  waveasm.s_endpgm
}
