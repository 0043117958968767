// The second read's address is the first read's data: not a function of
// the thread id, so no layout can be proven consistent for it.
waveasm.program @data target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0> attributes {lds_size = 8192 : i64} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %a = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
  %y = waveasm.ds_read_b32 %x : !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %out, %tid : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
