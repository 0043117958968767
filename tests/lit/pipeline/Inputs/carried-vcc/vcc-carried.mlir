// waveasm-sim: --kernarg-dword=24:6
waveasm.program @vcc_carried
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2>
  attributes {vgprs = 64 : i64, sgprs = 48 : i64, num_kernel_args = 4 : i64,
              noalias_args = [0, 8, 16], workgroup_size = [64, 1, 1]} {
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c2    = waveasm.constant 2 : !waveasm.imm<2>
  %c8    = waveasm.constant 8 : !waveasm.imm<8>
  %c16   = waveasm.constant 16 : !waveasm.imm<16>
  %c24   = waveasm.constant 24 : !waveasm.imm<24>
  %c37   = waveasm.constant 37 : !waveasm.imm<37>
  %mask  = waveasm.constant 252 : !waveasm.imm<252>
  %x_ptr = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %y_ptr = waveasm.s_load_dwordx2 %kargs, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<2, 2>
  %trips = waveasm.s_load_dword %kargs, %c24 : !waveasm.psreg<0, 2>, !waveasm.imm<24> -> !waveasm.sreg
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %zv   = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %thr  = waveasm.v_mov_b32 %c37 : !waveasm.imm<37> -> !waveasm.vreg
  %lo0  = waveasm.v_mov_b32 %tid : !waveasm.pvreg<0> -> !waveasm.vreg
  %i0   = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  waveasm.v_cmp_gt_i32 %lo0, %zv : !waveasm.vreg, !waveasm.vreg
  %res:3 = waveasm.loop (%i = %i0, %lo = %lo0, %acc = %zv)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %sel = waveasm.v_cndmask_b32 %zv, %lo, %lo : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.v_cmp_gt_i32 %lo, %thr : !waveasm.vreg, !waveasm.vreg
    %c = waveasm.v_cndmask_b32 %zv, %lo, %lo : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %xv = waveasm.v_and_b32 %c, %mask : !waveasm.vreg, !waveasm.imm<252> -> !waveasm.vreg
    %w = waveasm.global_load_dword %x_ptr, %xv, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %s1 = waveasm.v_add_u32 %sel, %w : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %acc2 = waveasm.v_add_u32 %acc, %s1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %lo2 = waveasm.v_add_u32 %lo, %c16 : !waveasm.vreg, !waveasm.imm<16> -> !waveasm.vreg
    %in:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %in#0, %trips : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%in#0, %lo2, %acc2)
        : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  }
  waveasm.global_store_dword %res#2, %y_ptr, %voff : !waveasm.vreg, !waveasm.sreg<2, 2>, !waveasm.vreg
  waveasm.s_endpgm
}
