// The dequant loop (examples/dequant_i8_to_f16.mlir) with its counter's
// start and bound read from kernel arguments [36] and [40]: the counter
// rises by 1 below a bound of 0xFFFFFFFF (s_cmp_lt_u32), starting 10 below
// it. A pipelined kernel that tested only its furthest step's compare would
// see that counter wrap past the bound, compare below it again and never
// stop (pipeline-loops-rising-exit.test).
// waveasm-sim: --kernarg-dword=24:65536 --kernarg-dword=28:63 --kernarg-dword=32:65536 --kernarg-dword=36:4294967285 --kernarg-dword=40:4294967295
waveasm.program @dequant_i8_to_f16
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2>
  attributes {vgprs = 32 : i64, sgprs = 48 : i64, num_kernel_args = 7 : i64,
              noalias_args = [0, 8, 16],
              workgroup_size = [256, 1, 1]} {

  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %wg_x  = waveasm.precolored.sreg 2 : !waveasm.psreg<2>

  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c2    = waveasm.constant 2 : !waveasm.imm<2>
  %c3    = waveasm.constant 3 : !waveasm.imm<3>
  %c8    = waveasm.constant 8 : !waveasm.imm<8>
  %c10   = waveasm.constant 10 : !waveasm.imm<10>
  %c16   = waveasm.constant 16 : !waveasm.imm<16>
  %c24   = waveasm.constant 24 : !waveasm.imm<24>
  %c32   = waveasm.constant 32 : !waveasm.imm<32>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %c2048 = waveasm.constant 2048 : !waveasm.imm<2048>
  %dfmt  = waveasm.constant 131072 : !waveasm.imm<131072>

  %x_ptr  = waveasm.s_load_dwordx2 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<2, 2>
  %y_ptr  = waveasm.s_load_dwordx2 %kargs, %c8 : !waveasm.psreg<0, 2>, !waveasm.imm<8> -> !waveasm.sreg<2, 2>
  %sc_ptr = waveasm.s_load_dwordx2 %kargs, %c16 : !waveasm.psreg<0, 2>, !waveasm.imm<16> -> !waveasm.sreg<2, 2>
  %dims   = waveasm.s_load_dwordx2 %kargs, %c24 : !waveasm.psreg<0, 2>, !waveasm.imm<24> -> !waveasm.sreg<2, 2>
  %chunk  = waveasm.extract %dims[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %cmask  = waveasm.extract %dims[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %ntot   = waveasm.s_load_dword %kargs, %c32 : !waveasm.psreg<0, 2>, !waveasm.imm<32> -> !waveasm.sreg

  // Element base and trip count: min(chunk, max(n - base, 0)) / 1024.
  %base   = waveasm.s_mul_i32 %wg_x, %chunk : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %rem:2  = waveasm.s_sub_u32 %ntot, %base : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %inb    = waveasm.s_cmp_lt_u32 %base, %ntot : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
  %rem0   = waveasm.s_cselect_b32 %inb, %rem#0, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg
  %mine:2 = waveasm.s_min_u32 %rem0, %chunk : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %trips:2 = waveasm.s_lshr_b32 %mine#0, %c10 : !waveasm.sreg, !waveasm.imm<10> -> !waveasm.sreg, !waveasm.scc

  // x + base and y + 2 * base as 64-bit SGPR pairs.
  %x_lo = waveasm.extract %x_ptr[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %x_hi = waveasm.extract %x_ptr[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %xb_lo:2 = waveasm.s_add_u32 %x_lo, %base : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %xb_hi:2 = waveasm.s_addc_u32 %xb_lo#1, %x_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
  %xp0 = waveasm.pack %xb_lo#0, %xb_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
  %ybase:2 = waveasm.s_lshl_b32 %base, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %y_lo = waveasm.extract %y_ptr[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %y_hi = waveasm.extract %y_ptr[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %yb_lo:2 = waveasm.s_add_u32 %y_lo, %ybase#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %yb_hi:2 = waveasm.s_addc_u32 %yb_lo#1, %y_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
  %yp0 = waveasm.pack %yb_lo#0, %yb_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>

  // Scale descriptor: num_records = C * 4 bytes.
  %sc_lo = waveasm.extract %sc_ptr[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %sc_hi = waveasm.extract %sc_ptr[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %nch:2 = waveasm.s_add_u32 %cmask, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %nrec:2 = waveasm.s_lshl_b32 %nch#0, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
  %fmt  = waveasm.s_mov_b32 %dfmt : !waveasm.imm<131072> -> !waveasm.sreg
  %srd_sc = waveasm.pack %sc_lo, %sc_hi, %nrec#0, %fmt
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>

  // Per-lane byte offsets: 4 int8 in, 4 f16 out.
  %x_voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %y_voff = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %c36 = waveasm.constant 36 : !waveasm.imm<36>
  %c40 = waveasm.constant 40 : !waveasm.imm<40>
  %i0 = waveasm.s_load_dword %kargs, %c36 : !waveasm.psreg<0, 2>, !waveasm.imm<36> -> !waveasm.sreg
  %bound = waveasm.s_load_dword %kargs, %c40 : !waveasm.psreg<0, 2>, !waveasm.imm<40> -> !waveasm.sreg

  %any = waveasm.s_cmp_ne_u32 %trips#0, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc
  waveasm.if %any : !waveasm.scc {
    %res:4 = waveasm.loop (%i = %i0, %xp = %xp0, %yp = %yp0, %e = %base)
        : (!waveasm.sreg, !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.sreg)
       -> (!waveasm.sreg, !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.sreg) {
      %w = waveasm.global_load_dword %xp, %x_voff, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
      // Channel of the lane's first element: (e + 4 * tid) & (C - 1).
      %idx = waveasm.v_lshl_add_u32 %tid, %c2, %e : !waveasm.pvreg<0>, !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
      %ch  = waveasm.v_and_b32 %idx, %cmask : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
      %ch_off = waveasm.v_lshlrev_b32 %c2, %ch : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
      %sc = waveasm.buffer_load_dwordx4 %srd_sc, %ch_off, %c0
          : !waveasm.sreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>

      // Sign-extend the four bytes and convert.
      %b0 = waveasm.v_bfe_i32 %w, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
      %b1 = waveasm.v_bfe_i32 %w, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
      %b2 = waveasm.v_bfe_i32 %w, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
      %b3 = waveasm.v_ashrrev_i32 %c24, %w : !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
      %f0 = waveasm.v_cvt_f32_i32 %b0 : !waveasm.vreg -> !waveasm.vreg
      %f1 = waveasm.v_cvt_f32_i32 %b1 : !waveasm.vreg -> !waveasm.vreg
      %f2 = waveasm.v_cvt_f32_i32 %b2 : !waveasm.vreg -> !waveasm.vreg
      %f3 = waveasm.v_cvt_f32_i32 %b3 : !waveasm.vreg -> !waveasm.vreg

      // Scale and pack to f16.
      %s0 = waveasm.extract %sc[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
      %s1 = waveasm.extract %sc[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
      %s2 = waveasm.extract %sc[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
      %s3 = waveasm.extract %sc[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
      %y0 = waveasm.v_mul_f32 %f0, %s0 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %y1 = waveasm.v_mul_f32 %f1, %s1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %y2 = waveasm.v_mul_f32 %f2, %s2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %y3 = waveasm.v_mul_f32 %f3, %s3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %h01 = waveasm.v_cvt_pkrtz_f16_f32 %y0, %y1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %h23 = waveasm.v_cvt_pkrtz_f16_f32 %y2, %y3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %out = waveasm.pack %h01, %h23 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
      waveasm.global_store_dwordx2 %out, %yp, %y_voff : !waveasm.vreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.vreg

      // Next 1024 elements: bump both pointers and the element base.
      %xp_lo = waveasm.extract %xp[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
      %xp_hi = waveasm.extract %xp[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
      %xn_lo:2 = waveasm.s_add_u32 %xp_lo, %c1024 : !waveasm.sreg, !waveasm.imm<1024> -> !waveasm.sreg, !waveasm.scc
      %xn_hi:2 = waveasm.s_addc_u32 %xn_lo#1, %xp_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
      %xp_n = waveasm.pack %xn_lo#0, %xn_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
      %yp_lo = waveasm.extract %yp[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
      %yp_hi = waveasm.extract %yp[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
      %yn_lo:2 = waveasm.s_add_u32 %yp_lo, %c2048 : !waveasm.sreg, !waveasm.imm<2048> -> !waveasm.sreg, !waveasm.scc
      %yn_hi:2 = waveasm.s_addc_u32 %yn_lo#1, %yp_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
      %yp_n = waveasm.pack %yn_lo#0, %yn_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
      %e_n:2 = waveasm.s_add_u32 %e, %c1024 : !waveasm.sreg, !waveasm.imm<1024> -> !waveasm.sreg, !waveasm.scc
      %i_n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %i_n#0, %bound : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%i_n#0, %xp_n, %yp_n, %e_n#0)
          : !waveasm.sreg, !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.sreg
    }
    waveasm.yield
  }
  waveasm.s_endpgm
}
