// 64 lanes read b32 down a column of 128-byte rows (32-way conflict), in a
// program that declares all 64 KiB of gfx942's LDS: rows of 256 B padded by
// 4 B would remove the conflict but need 66556 bytes.
waveasm.program @full target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0> attributes {lds_size = 65536 : i64} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %a = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %out, %tid : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
