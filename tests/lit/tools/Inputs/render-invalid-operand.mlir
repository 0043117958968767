// An SGPR where the VALU op takes a VGPR or an immediate: the verifier's
// error when the file is parsed, before any pass runs.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 0 : !waveasm.sreg
  %f = waveasm.v_cvt_f32_u32 %s : !waveasm.sreg -> !waveasm.vreg
}
