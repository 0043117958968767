// An SGPR where the VALU op takes a VGPR or an immediate, and its result is
// stored, so no pass erases the op: run with the parser's verification
// turned off, the invalid op reaches the end of the pipeline.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %f = waveasm.v_cvt_f32_u32 %s : !waveasm.sreg -> !waveasm.vreg
  waveasm.buffer_store_dword %f, %srd, %v : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
