// lds-rotating.mlir -- the K loop of lds-pingpong.mlir (4 waves, 256 lanes)
// with its LDS tile rotated by hand over three buffers and one barrier per
// iteration: iteration k writes tile k into buffer k mod 3 (base %b0), a
// barrier publishes it, the fragments are read back from the same buffer,
// and the next write to that buffer (iteration k+3) comes two barriers
// later. The write address is computed in the loop, so the stage rules keep
// every LDS access and the barrier in one stage (no ping/pong copies).
waveasm.program @lds_rotating
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2, wg_id_y = 3>
  attributes {vgprs = 128 : i64, sgprs = 48 : i64, lds_size = 24576 : i64,
              workgroup_size = [256, 1, 1]} {

  // ABI registers: v0 = flat thread id, s2/s3 = workgroup ids, SRDs from the prologue.
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %wg_x  = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %wg_y  = waveasm.precolored.sreg 3 : !waveasm.psreg<3>
  %srd_a = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_b = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %srd_c = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>

  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c2    = waveasm.constant 2 : !waveasm.imm<2>
  %c3    = waveasm.constant 3 : !waveasm.imm<3>
  %c4    = waveasm.constant 4 : !waveasm.imm<4>
  %c5    = waveasm.constant 5 : !waveasm.imm<5>
  %c6    = waveasm.constant 6 : !waveasm.imm<6>
  %c7    = waveasm.constant 7 : !waveasm.imm<7>
  %c11   = waveasm.constant 11 : !waveasm.imm<11>
  %c12   = waveasm.constant 12 : !waveasm.imm<12>
  %c14   = waveasm.constant 14 : !waveasm.imm<14>
  %c15   = waveasm.constant 15 : !waveasm.imm<15>
  %c17   = waveasm.constant 17 : !waveasm.imm<17>
  %c63   = waveasm.constant 63 : !waveasm.imm<63>
  %c8192 = waveasm.constant 8192 : !waveasm.imm<8192>
  %ktiles = waveasm.constant 32 : !waveasm.imm<32>

  // Global offsets: thread t loads 16 B of row t/4, column chunk t%4 of a tile.
  %a_blk:2 = waveasm.s_lshl_b32 %wg_y, %c17
      : !waveasm.psreg<3>, !waveasm.imm<17> -> !waveasm.sreg, !waveasm.scc   // 64 rows * 2048 B
  %b_blk:2 = waveasm.s_lshl_b32 %wg_x, %c17
      : !waveasm.psreg<2>, !waveasm.imm<17> -> !waveasm.sreg, !waveasm.scc
  %row    = waveasm.v_lshrrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %chunk  = waveasm.v_and_b32 %tid, %c3 : !waveasm.pvreg<0>, !waveasm.imm<3> -> !waveasm.vreg
  %chunkb = waveasm.v_lshlrev_b32 %c4, %chunk : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %g_lane = waveasm.v_lshl_add_u32 %row, %c11, %chunkb
      : !waveasm.vreg, !waveasm.imm<11>, !waveasm.vreg -> !waveasm.vreg    // row*2048 + chunk*16
  %a_voff = waveasm.v_add_u32 %a_blk#0, %g_lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %b_voff = waveasm.v_add_u32 %b_blk#0, %g_lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  // LDS write offset: row*64 + chunk*16 = t*16.
  %lds_wr_lane = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg

  // Fragment offsets: lane%16 selects the row, lane/16 the 4-element k group.
  %l16  = waveasm.v_and_b32 %tid, %c15 : !waveasm.pvreg<0>, !waveasm.imm<15> -> !waveasm.vreg
  %quad = waveasm.v_bfe_u32 %tid, %c4, %c2
      : !waveasm.pvreg<0>, !waveasm.imm<4>, !waveasm.imm<2> -> !waveasm.vreg    // (t >> 4) & 3
  %wm   = waveasm.v_bfe_u32 %tid, %c7, %c1
      : !waveasm.pvreg<0>, !waveasm.imm<7>, !waveasm.imm<1> -> !waveasm.vreg    // wave row
  %wn   = waveasm.v_bfe_u32 %tid, %c6, %c1
      : !waveasm.pvreg<0>, !waveasm.imm<6>, !waveasm.imm<1> -> !waveasm.vreg    // wave column
  %a_r  = waveasm.v_lshl_add_u32 %wm, %c5, %l16 : !waveasm.vreg, !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %a_rb = waveasm.v_lshlrev_b32 %c6, %a_r : !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
  %a_frag_off = waveasm.v_lshl_add_u32 %quad, %c3, %a_rb : !waveasm.vreg, !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
  %b_r  = waveasm.v_lshl_add_u32 %wn, %c5, %l16 : !waveasm.vreg, !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %b_rb = waveasm.v_lshlrev_b32 %c6, %b_r : !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
  %b_frag_off = waveasm.v_lshl_add_u32 %quad, %c3, %b_rb : !waveasm.vreg, !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg

  // Prologue: tile 0 -> LDS buffer 0, zero accumulators.
  %a_t0 = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %c0
      : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b_t0 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff, %c0
      : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %k0   = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %c16384 = waveasm.constant 16384 : !waveasm.imm<16384>
  %base0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %base1 = waveasm.s_mov_b32 %c8192 : !waveasm.imm<8192> -> !waveasm.sreg
  %base2 = waveasm.s_mov_b32 %c16384 : !waveasm.imm<16384> -> !waveasm.sreg
  %z00 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z01 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z10 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z11 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>

  %k_end, %a_last, %b_last, %acc00, %acc01, %acc10, %acc11, %e0, %e1, %e2 = waveasm.loop (
      %k = %k0, %a_cur = %a_t0, %b_cur = %b_t0,
      %r00 = %z00, %r01 = %z01, %r10 = %z10, %r11 = %z11,
      %b0 = %base0, %b1 = %base1, %b2 = %base2)
      : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.sreg, !waveasm.sreg, !waveasm.sreg)
     -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {

    // (1) the current tile into LDS, published by a barrier.
    %wr = waveasm.v_add_u32 %b0, %lds_wr_lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.ds_write_b128 %a_cur, %wr : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.ds_write_b128 %b_cur, %wr {offset = 4096 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.s_barrier

    // (2) fetch tile k+1 (32 f16 = 64 bytes per K step).
    %k_next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %soff:2 = waveasm.s_lshl_b32 %k_next#0, %c6 : !waveasm.sreg, !waveasm.imm<6> -> !waveasm.sreg, !waveasm.scc
    %a_nxt = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %soff#0
        : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %b_nxt = waveasm.buffer_load_dwordx4 %srd_b, %b_voff, %soff#0
        : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>

    // (3) fragments written by other waves, from the same buffer.
    %a_rd = waveasm.v_add_u32 %b0, %a_frag_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %b_rd = waveasm.v_add_u32 %b0, %b_frag_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %a00 = waveasm.ds_read_b64 %a_rd : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %a01 = waveasm.ds_read_b64 %a_rd {offset = 32 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %a10 = waveasm.ds_read_b64 %a_rd {offset = 1024 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %a11 = waveasm.ds_read_b64 %a_rd {offset = 1056 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %b00 = waveasm.ds_read_b64 %b_rd {offset = 4096 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %b01 = waveasm.ds_read_b64 %b_rd {offset = 4128 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %b10 = waveasm.ds_read_b64 %b_rd {offset = 5120 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %b11 = waveasm.ds_read_b64 %b_rd {offset = 5152 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>

    // (4) 2x2 accumulators x 2 k-substeps (aMK / bNK: subtile M or N, k-substep K).
    %p00 = waveasm.v_mfma_f32_16x16x16_f16 %a00, %b00, %r00
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %p01 = waveasm.v_mfma_f32_16x16x16_f16 %a00, %b10, %r01
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %p10 = waveasm.v_mfma_f32_16x16x16_f16 %a10, %b00, %r10
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %p11 = waveasm.v_mfma_f32_16x16x16_f16 %a10, %b10, %r11
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n00 = waveasm.v_mfma_f32_16x16x16_f16 %a01, %b01, %p00
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n01 = waveasm.v_mfma_f32_16x16x16_f16 %a01, %b11, %p01
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n10 = waveasm.v_mfma_f32_16x16x16_f16 %a11, %b01, %p10
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n11 = waveasm.v_mfma_f32_16x16x16_f16 %a11, %b11, %p11
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>

    // (5) no second barrier: the next write to this buffer is two
    // iterations (two barriers) away.
    // (6) loop test.
    %more = waveasm.s_cmp_lt_u32 %k_next#0, %ktiles : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%k_next#0, %a_nxt, %b_nxt, %n00, %n01, %n10, %n11, %b1, %b2, %b0)
        : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
          !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
          !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }

  // Epilogue: block (wg_y*16 + wg_x) owns 16 KiB of C; wave w writes 4 KiB at w*4096.
  %blk_row:2 = waveasm.s_lshl_b32 %wg_y, %c4 : !waveasm.psreg<3>, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  %blk_id:2  = waveasm.s_add_u32 %blk_row#0, %wg_x : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.sreg, !waveasm.scc
  %c_blk:2   = waveasm.s_lshl_b32 %blk_id#0, %c14 : !waveasm.sreg, !waveasm.imm<14> -> !waveasm.sreg, !waveasm.scc
  %wave  = waveasm.v_lshrrev_b32 %c6, %tid : !waveasm.imm<6>, !waveasm.pvreg<0> -> !waveasm.vreg
  %lane  = waveasm.v_and_b32 %tid, %c63 : !waveasm.pvreg<0>, !waveasm.imm<63> -> !waveasm.vreg
  %lane_b = waveasm.v_lshlrev_b32 %c4, %lane : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %c_wave = waveasm.v_lshl_add_u32 %wave, %c12, %lane_b : !waveasm.vreg, !waveasm.imm<12>, !waveasm.vreg -> !waveasm.vreg
  %c_voff = waveasm.v_add_u32 %c_blk#0, %c_wave : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc00, %srd_c, %c_voff
      : !waveasm.vreg<4, 4>, !waveasm.psreg<16, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc01, %srd_c, %c_voff offset : 1024
      : !waveasm.vreg<4, 4>, !waveasm.psreg<16, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc10, %srd_c, %c_voff offset : 2048
      : !waveasm.vreg<4, 4>, !waveasm.psreg<16, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc11, %srd_c, %c_voff offset : 3072
      : !waveasm.vreg<4, 4>, !waveasm.psreg<16, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
