// The 32x32x8 GEMM example with a small accumulate loop (a count from a
// kernel argument) before its K loop: pipelined with stages forced, the
// first loop fits and the second does not (pipeline-loops-register-file.test).
// gemm_f16_32x32x8_global.mlir -- f16 GEMM K loop on v_mfma_f32_32x32x8_f16
// with 16-register accumulators and ds_read_b128 fragments (gfx942, wave64).
//
// C (f32) = A[M x K] (f16, row major) * B[N x K]^T (f16, row major).  One
// s_load_dwordx8 from s[0:1] fetches the kernel arguments: A, B, C pointers,
// K (elements, multiple of 32, >= 32) and the number of 64-wide C block columns.
// A workgroup (4 waves, 2x2) computes a 128x64 block; each wave a 64x32 tile =
// two 32x32 accumulators (!waveasm.vreg<16, 4>).  One LDS buffer (A 128x32 f16
// at +0, B 64x32 at +8192), two barriers per K step as in upstream gemm_loop:
// write the tile loaded last iteration, barrier, prefetch the next tile with
// global_load_dwordx4 through 64-bit SGPR pointers advanced by 64 bytes
// (s_add_u32 + s_addc_u32 carry chain), six ds_read_b128, eight MFMAs, barrier.
// A ds_read_b128 gives a lane 8 f16 of row lane%32 at k = kk*16 + (lane/32)*8;
// its halves (extract [0] / [2]) feed two 32x32x8 steps (A and B share this K
// permutation).  Two alternating chains of 4 dependent MFMAs.  C is written in
// MFMA fragment order (64 B per lane per accumulator) with buffer stores.
waveasm.program @gemm_f16_32x32x8_global
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2, wg_id_y = 3>
  attributes {vgprs = 160 : i64, sgprs = 48 : i64, lds_size = 12288 : i64,
              num_kernel_args = 4 : i64, workgroup_size = [256, 1, 1]} {

  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %wg_x  = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %wg_y  = waveasm.precolored.sreg 3 : !waveasm.psreg<3>

  %c0  = waveasm.constant 0 : !waveasm.imm<0>
  %c1  = waveasm.constant 1 : !waveasm.imm<1>
  %c2  = waveasm.constant 2 : !waveasm.imm<2>
  %c3  = waveasm.constant 3 : !waveasm.imm<3>
  %c4  = waveasm.constant 4 : !waveasm.imm<4>
  %c5  = waveasm.constant 5 : !waveasm.imm<5>
  %c6  = waveasm.constant 6 : !waveasm.imm<6>
  %c7  = waveasm.constant 7 : !waveasm.imm<7>
  %c13 = waveasm.constant 13 : !waveasm.imm<13>
  %c15 = waveasm.constant 15 : !waveasm.imm<15>
  %c31 = waveasm.constant 31 : !waveasm.imm<31>
  %c63 = waveasm.constant 63 : !waveasm.imm<63>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %cm1 = waveasm.constant -1 : !waveasm.imm<-1>
  %c_dfmt = waveasm.constant 131072 : !waveasm.imm<131072>
  %args = waveasm.s_load_dwordx8 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<8, 4>
  %a_lo = waveasm.extract %args[0] : !waveasm.sreg<8, 4> -> !waveasm.sreg
  %a_hi = waveasm.extract %args[1] : !waveasm.sreg<8, 4> -> !waveasm.sreg
  %b_lo = waveasm.extract %args[2] : !waveasm.sreg<8, 4> -> !waveasm.sreg
  %b_hi = waveasm.extract %args[3] : !waveasm.sreg<8, 4> -> !waveasm.sreg
  %c_lo = waveasm.extract %args[4] : !waveasm.sreg<8, 4> -> !waveasm.sreg
  %c_hi = waveasm.extract %args[5] : !waveasm.sreg<8, 4> -> !waveasm.sreg
  %kdim = waveasm.extract %args[6] : !waveasm.sreg<8, 4> -> !waveasm.sreg
  %nblk = waveasm.extract %args[7] : !waveasm.sreg<8, 4> -> !waveasm.sreg

  // Scalar geometry: row stride, K tiles, block base pointers (64-bit adds).
  %ldab:2   = waveasm.s_lshl_b32 %kdim, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %ktiles:2 = waveasm.s_lshr_b32 %kdim, %c5 : !waveasm.sreg, !waveasm.imm<5> -> !waveasm.sreg, !waveasm.scc
  %rows64:2 = waveasm.s_lshl_b32 %ldab#0, %c6 : !waveasm.sreg, !waveasm.imm<6> -> !waveasm.sreg, !waveasm.scc
  %a_boff:2 = waveasm.s_lshl_b32 %rows64#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %a_blk  = waveasm.s_mul_i32 %wg_y, %a_boff#0 : !waveasm.psreg<3>, !waveasm.sreg -> !waveasm.sreg
  %b_blk  = waveasm.s_mul_i32 %wg_x, %rows64#0 : !waveasm.psreg<2>, !waveasm.sreg -> !waveasm.sreg
  %a0_lo:2 = waveasm.s_add_u32 %a_lo, %a_blk : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %a0_hi:2 = waveasm.s_addc_u32 %a0_lo#1, %a_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
  %a_ptr0 = waveasm.pack %a0_lo#0, %a0_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
  %b0_lo:2 = waveasm.s_add_u32 %b_lo, %b_blk : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %b0_hi:2 = waveasm.s_addc_u32 %b0_lo#1, %b_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
  %b_ptr0 = waveasm.pack %b0_lo#0, %b0_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>

  // Per-lane global offsets: row t/4 (and t/4 + 64 for A), 16-byte chunk t%4.
  %row    = waveasm.v_lshrrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %chunk  = waveasm.v_and_b32 %tid, %c3 : !waveasm.pvreg<0>, !waveasm.imm<3> -> !waveasm.vreg
  %row_b  = waveasm.v_mul_lo_u32 %row, %ldab#0 : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  %g_off  = waveasm.v_lshl_add_u32 %chunk, %c4, %row_b : !waveasm.vreg, !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %g_off2 = waveasm.v_add_u32 %rows64#0, %g_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %lds_wr = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg

  // Fragment offsets: row (lane%32) * 64 B + (lane/32) * 16 B, per-wave row base.
  %l32  = waveasm.v_and_b32 %tid, %c31 : !waveasm.pvreg<0>, !waveasm.imm<31> -> !waveasm.vreg
  %half = waveasm.v_bfe_u32 %tid, %c5, %c1 : !waveasm.pvreg<0>, !waveasm.imm<5>, !waveasm.imm<1> -> !waveasm.vreg
  %wm   = waveasm.v_bfe_u32 %tid, %c7, %c1 : !waveasm.pvreg<0>, !waveasm.imm<7>, !waveasm.imm<1> -> !waveasm.vreg
  %wn   = waveasm.v_bfe_u32 %tid, %c6, %c1 : !waveasm.pvreg<0>, !waveasm.imm<6>, !waveasm.imm<1> -> !waveasm.vreg
  %a_r  = waveasm.v_lshl_add_u32 %wm, %c6, %l32 : !waveasm.vreg, !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
  %a_h  = waveasm.v_lshlrev_b32 %c4, %half : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %a_frag = waveasm.v_lshl_add_u32 %a_r, %c6, %a_h : !waveasm.vreg, !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
  %b_r  = waveasm.v_lshl_add_u32 %wn, %c5, %l32 : !waveasm.vreg, !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %b_frag = waveasm.v_lshl_add_u32 %b_r, %c6, %a_h : !waveasm.vreg, !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg

  %s0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %pre:2 = waveasm.loop (%j = %j0, %s = %s0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %x = waveasm.global_load_dword %a_ptr0, %g_off, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %s2 = waveasm.v_add_u32 %s, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %j1:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %m = waveasm.s_cmp_lt_u32 %j1#0, %ktiles#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.condition %m : !waveasm.scc iter_args(%j1#0, %s2) : !waveasm.sreg, !waveasm.vreg
  }
  // Prologue: K tile 0 into registers, zero accumulators.
  %k0   = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0_t = waveasm.global_load_dwordx4 %a_ptr0, %g_off, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %a1_t = waveasm.global_load_dwordx4 %a_ptr0, %g_off2, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b_t  = waveasm.global_load_dwordx4 %b_ptr0, %g_off, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z0 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<16, 4>
  %z1 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<16, 4>

  %res:8 = waveasm.loop (%k = %k0, %ap = %a_ptr0, %bp = %b_ptr0,
                         %a0c = %a0_t, %a1c = %a1_t, %bc = %b_t, %acc0 = %z0, %acc1 = %z1)
      : (!waveasm.sreg, !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<16, 4>, !waveasm.vreg<16, 4>)
     -> (!waveasm.sreg, !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<16, 4>, !waveasm.vreg<16, 4>) {
    // Stage the current tile.
    waveasm.ds_write_b128 %a0c, %lds_wr : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.ds_write_b128 %a1c, %lds_wr {offset = 4096 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.ds_write_b128 %bc, %lds_wr {offset = 8192 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.s_barrier

    // Advance both 64-bit pointers by one K tile (64 bytes) and prefetch.
    %ap_lo = waveasm.extract %ap[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %ap_hi = waveasm.extract %ap[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %an_lo:2 = waveasm.s_add_u32 %ap_lo, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.sreg, !waveasm.scc
    %an_hi:2 = waveasm.s_addc_u32 %an_lo#1, %ap_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
    %ap_n = waveasm.pack %an_lo#0, %an_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
    %bp_lo = waveasm.extract %bp[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %bp_hi = waveasm.extract %bp[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg
    %bn_lo:2 = waveasm.s_add_u32 %bp_lo, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.sreg, !waveasm.scc
    %bn_hi:2 = waveasm.s_addc_u32 %bn_lo#1, %bp_hi, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
    %bp_n = waveasm.pack %bn_lo#0, %bn_hi#0 : (!waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<2, 2>
    %a0n = waveasm.global_load_dwordx4 %ap_n, %g_off, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %a1n = waveasm.global_load_dwordx4 %ap_n, %g_off2, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %bn  = waveasm.global_load_dwordx4 %bp_n, %g_off, %c0 : !waveasm.sreg<2, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>

    // Six 128-bit fragment reads: A (subtile mi, k half kk) and B (kk).
    %fa00 = waveasm.ds_read_b128 %a_frag : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fa01 = waveasm.ds_read_b128 %a_frag {offset = 32 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fa10 = waveasm.ds_read_b128 %a_frag {offset = 2048 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fa11 = waveasm.ds_read_b128 %a_frag {offset = 2080 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fb0  = waveasm.ds_read_b128 %b_frag {offset = 8192 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fb1  = waveasm.ds_read_b128 %b_frag {offset = 8224 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>

    // MFMA operands: low / high 2-VGPR halves of each fragment.
    %a00l = waveasm.extract %fa00[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %a00h = waveasm.extract %fa00[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %a10l = waveasm.extract %fa10[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %a10h = waveasm.extract %fa10[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %b0l  = waveasm.extract %fb0[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %b0h  = waveasm.extract %fb0[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %m0 = waveasm.v_mfma_f32_32x32x8_f16 %a00l, %b0l, %acc0
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %m1 = waveasm.v_mfma_f32_32x32x8_f16 %a10l, %b0l, %acc1
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %m2 = waveasm.v_mfma_f32_32x32x8_f16 %a00h, %b0h, %m0
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %m3 = waveasm.v_mfma_f32_32x32x8_f16 %a10h, %b0h, %m1
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %a01l = waveasm.extract %fa01[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %a01h = waveasm.extract %fa01[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %a11l = waveasm.extract %fa11[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %a11h = waveasm.extract %fa11[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %b1l  = waveasm.extract %fb1[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %b1h  = waveasm.extract %fb1[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg<2, 2>
    %m4 = waveasm.v_mfma_f32_32x32x8_f16 %a01l, %b1l, %m2
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %m5 = waveasm.v_mfma_f32_32x32x8_f16 %a11l, %b1l, %m3
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %m6 = waveasm.v_mfma_f32_32x32x8_f16 %a01h, %b1h, %m4
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    %m7 = waveasm.v_mfma_f32_32x32x8_f16 %a11h, %b1h, %m5
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
    waveasm.s_barrier

    %k_next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %k_next#0, %ktiles#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%k_next#0, %ap_n, %bp_n, %a0n, %a1n, %bn, %m6, %m7)
        : !waveasm.sreg, !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.vreg<4, 4>,
          !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<16, 4>, !waveasm.vreg<16, 4>
  }

  // Epilogue: block (wg_y * nblk + wg_x) owns 32 KiB of C, wave w 8 KiB at w*8192.
  %blk_r  = waveasm.s_mul_i32 %wg_y, %nblk : !waveasm.psreg<3>, !waveasm.sreg -> !waveasm.sreg
  %blk:2  = waveasm.s_add_u32 %blk_r, %wg_x : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.sreg, !waveasm.scc
  %c_blk:2 = waveasm.s_lshl_b32 %blk#0, %c15 : !waveasm.sreg, !waveasm.imm<15> -> !waveasm.sreg, !waveasm.scc
  %wave   = waveasm.v_lshrrev_b32 %c6, %tid : !waveasm.imm<6>, !waveasm.pvreg<0> -> !waveasm.vreg
  %lane   = waveasm.v_and_b32 %tid, %c63 : !waveasm.pvreg<0>, !waveasm.imm<63> -> !waveasm.vreg
  %lane_b = waveasm.v_lshlrev_b32 %c4, %lane : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %w_off  = waveasm.v_lshl_add_u32 %wave, %c13, %lane_b : !waveasm.vreg, !waveasm.imm<13>, !waveasm.vreg -> !waveasm.vreg
  %c_num  = waveasm.s_mov_b32 %cm1 : !waveasm.imm<-1> -> !waveasm.sreg         // unbounded
  %c_fmt  = waveasm.s_mov_b32 %c_dfmt : !waveasm.imm<131072> -> !waveasm.sreg
  %srd_c  = waveasm.pack %c_lo, %c_hi, %c_num, %c_fmt
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  %c_off  = waveasm.v_add_u32 %c_blk#0, %w_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %c_off1 = waveasm.v_add_u32 %c_off, %c4096 : !waveasm.vreg, !waveasm.imm<4096> -> !waveasm.vreg  // 12-bit offset limit
  %o0 = waveasm.extract %res#6[0] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  %o1 = waveasm.extract %res#6[4] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  %o2 = waveasm.extract %res#6[8] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  %o3 = waveasm.extract %res#6[12] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  %o4 = waveasm.extract %res#7[0] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  %o5 = waveasm.extract %res#7[4] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  %o6 = waveasm.extract %res#7[8] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  %o7 = waveasm.extract %res#7[12] : !waveasm.vreg<16, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %o0, %srd_c, %c_off : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %o1, %srd_c, %c_off offset : 1024 : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %o2, %srd_c, %c_off offset : 2048 : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %o3, %srd_c, %c_off offset : 3072 : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %o4, %srd_c, %c_off1 : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %o5, %srd_c, %c_off1 offset : 1024 : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %o6, %srd_c, %c_off1 offset : 2048 : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %o7, %srd_c, %c_off1 offset : 3072 : !waveasm.vreg<4, 4>, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %pre#1, %srd_c, %c_off offset : 4000 : !waveasm.vreg, !waveasm.sreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
