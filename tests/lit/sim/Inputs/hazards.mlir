// The hazards the hazard pass guards with s_nop: an MFMA result read by
// VALU (8 wait states after a 16x16x16 f16 on gfx942), a transcendental
// result read by a plain VALU op (1), a VALU result read by
// v_readfirstlane (1), the SGPR that wrote read by a buffer load as its
// soffset (5), and VCC a v_cmp wrote read by v_cndmask (2).
waveasm.program @hazards target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %abuf = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %mask = waveasm.constant 1006582783 : !waveasm.imm<1006582783>
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %aoff = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.buffer_load_dwordx2 %abuf, %aoff, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %a0 = waveasm.extract %a[0] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %a1 = waveasm.extract %a[1] : !waveasm.vreg<2, 2> -> !waveasm.vreg
  %am0 = waveasm.v_and_b32 %a0, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
  %am1 = waveasm.v_and_b32 %a1, %mask : !waveasm.vreg, !waveasm.imm<1006582783> -> !waveasm.vreg
  %am = waveasm.pack %am0, %am1 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %am, %am, %c0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %d0 = waveasm.extract %d[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %sum = waveasm.v_add_f32 %d0, %am0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %e = waveasm.v_exp_f32 %am1 : !waveasm.vreg -> !waveasm.vreg
  %esum = waveasm.v_add_f32 %e, %sum : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %esum, %out, %off : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %lane = waveasm.v_and_b32 %a0, %c64 : !waveasm.vreg, !waveasm.imm<64> -> !waveasm.vreg
  %s = waveasm.v_readfirstlane_b32 %lane : !waveasm.vreg -> !waveasm.sreg
  %y = waveasm.buffer_load_dword %abuf, %off, %s : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %out, %off offset : 256 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.v_cmp_gt_f32 %am0, %am1 : !waveasm.vreg, !waveasm.vreg
  %pick = waveasm.v_cndmask_b32 %am0, %am1, %am0 : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %pick, %out, %off offset : 512 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
