// waveasm-sim: --kernarg-dword=24:16
// Stage 0 bumps a 64-bit per-lane sum (v_add_co_u32 + v_addc_co_u32 through VCC);
// the last stage selects on a compare (v_cmp + v_cndmask through VCC) and stores.
waveasm.program @vcc_merge
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2>
  attributes {vgprs = 64 : i64, sgprs = 48 : i64, num_kernel_args = 4 : i64,
              noalias_args = [0, 8, 16], lds_size = 4096 : i64, workgroup_size = [256, 1, 1]} {
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c2    = waveasm.constant 2 : !waveasm.imm<2>
  %c3    = waveasm.constant 3 : !waveasm.imm<3>
  %c8    = waveasm.constant 8 : !waveasm.imm<8>
  %c16   = waveasm.constant 16 : !waveasm.imm<16>
  %c24   = waveasm.constant 24 : !waveasm.imm<24>
  %c256  = waveasm.constant 256 : !waveasm.imm<256>
  %big   = waveasm.constant -1610612480 : !waveasm.imm<-1610612480>
  %mask  = waveasm.constant 4092 : !waveasm.imm<4092>
  %x_ptr = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %y_ptr = waveasm.s_load_dwordx2 %kargs, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<2, 2>
  %z_ptr = waveasm.s_load_dwordx2 %kargs, %c16 : !waveasm.psreg<0, 2>, !waveasm.imm<16> -> !waveasm.sreg<2, 2>
  %trips = waveasm.s_load_dword %kargs, %c24 : !waveasm.psreg<0, 2>, !waveasm.imm<24> -> !waveasm.sreg
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %zoff = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %tx = waveasm.v_xor_b32 %c16, %voff : !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
  %roff = waveasm.v_and_b32 %tx, %mask : !waveasm.vreg, !waveasm.imm<4092> -> !waveasm.vreg
  %kv   = waveasm.v_mov_b32 %big : !waveasm.imm<-1610612480> -> !waveasm.vreg
  %zv   = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %lo0  = waveasm.v_mov_b32 %voff : !waveasm.vreg -> !waveasm.vreg
  %hi0  = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %i0   = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %xo0  = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %res:5 = waveasm.loop (%i = %i0, %xo = %xo0, %lo = %lo0, %hi = %hi0, %wsel = %zv)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg) {
    %xv = waveasm.v_and_b32 %lo, %mask : !waveasm.vreg, !waveasm.imm<4092> -> !waveasm.vreg
    %w = waveasm.global_load_dword %x_ptr, %xv, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %nlo:2 = waveasm.v_add_co_u32 %lo, %kv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2>
    %nhi:2 = waveasm.v_addc_co_u32 %hi, %zv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg, !waveasm.sreg<2>
    waveasm.ds_write_b32 %w, %voff : !waveasm.vreg, !waveasm.vreg
    waveasm.s_barrier
    %r = waveasm.ds_read_b32 %roff : !waveasm.vreg -> !waveasm.vreg
    waveasm.s_barrier
    waveasm.v_cmp_gt_i32 %r, %zv : !waveasm.vreg, !waveasm.vreg
    %sel = waveasm.v_cndmask_b32 %zv, %r, %r : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %acc = waveasm.v_add_u32 %wsel, %sel : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.global_store_dword %sel, %y_ptr, %xv : !waveasm.vreg, !waveasm.sreg<2, 2>, !waveasm.vreg
    %xn:2 = waveasm.s_add_u32 %xo, %c256 : !waveasm.sreg, !waveasm.imm<256> -> !waveasm.sreg, !waveasm.scc
    %in:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %in#0, %trips : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%in#0, %xn#0, %nlo#0, %nhi#0, %acc)
        : !waveasm.sreg, !waveasm.sreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg
  }
  %pair = waveasm.pack %res#2, %res#3 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.global_store_dwordx2 %pair, %z_ptr, %zoff : !waveasm.vreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.vreg
  waveasm.global_store_dword %res#4, %z_ptr, %voff : !waveasm.vreg, !waveasm.sreg<2, 2>, !waveasm.vreg
  waveasm.s_endpgm
}
