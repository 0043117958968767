// rotation4-distance2.mlir -- a variant of examples/mxfp4_rotating4_direct_to_lds.mlir
// (review of wt-deepen, 2026-11-28): its four buffers rotate by hand as
// there, but the loads write the tile of step k+2 through b2 (two steps
// ahead, not three) and the one barrier sits between the loads and the
// reads. A buffer is rewritten two barriers after its last reads, so the
// input has no race; a deepening that rewrote it one step after its reads
// without a spare would (tests/lit/pipeline/deepen-lds-rotation-gap.test).
// The original's comment follows.
// mxfp4_rotating4_direct_to_lds.mlir -- mxfp4_gemm_direct_to_lds.mlir with
// four LDS buffers instead of two: the same MXFP4 GEMM K loop on gfx950
// (wave64, 4 waves, direct-to-LDS loads, v_mfma_scale_f32_16x16x128_f8f6f4;
// see that file for the data layout), the same C.
//
// With two buffers the tile of step k+1 is requested in iteration k and
// published by that iteration's barrier: every iteration waits for its own
// direct-to-LDS loads (100 slots of latency). Here the tile of step k+3 is
// requested in iteration k, into the buffer step k-1 used; the barrier of
// iteration k publishes step k+1's tile (requested two iterations ago), so
// the wait before it (insert-waitcnt's rule (b) with LdsRotation.h) leaves
// the younger loads in flight. The four bases rotate by hand as SGPR
// iter_args (b0 read, b3 written; (b0, b1, b2, b3) -> (b1, b2, b3, b0)).
// The scale dwords travel the same way (buffer_load_dword ... lds, 1 KiB
// per step after the tiles): a VGPR prefetch carried through iter_args
// would be copied at the latch, which waits for the load. One buffer:
// A tile [0, 4 KiB), B tile [4, 8 KiB), scales [8, 9 KiB); 4 x 9 KiB.
// (The last three iterations' prefetches read past the K range, unused.)
// waveasm-sim: --byte-range=3:120-134
waveasm.program @mxfp4_rotating4_direct_to_lds
  target = #waveasm.target<#waveasm.gfx950, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 6, wg_id_y = 7>
  attributes {vgprs = 64 : i64, sgprs = 40 : i64, lds_size = 36864 : i64,
              workgroup_size = [256, 1, 1]} {

  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %wg_x  = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  %wg_y  = waveasm.precolored.sreg 7 : !waveasm.psreg<7>
  %srd_a = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_b = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %srd_s = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>
  %srd_c = waveasm.precolored.sreg 20, 4 : !waveasm.psreg<20, 4>

  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c2    = waveasm.constant 2 : !waveasm.imm<2>
  %c3    = waveasm.constant 3 : !waveasm.imm<3>
  %c4    = waveasm.constant 4 : !waveasm.imm<4>
  %c5    = waveasm.constant 5 : !waveasm.imm<5>
  %c6    = waveasm.constant 6 : !waveasm.imm<6>
  %c7    = waveasm.constant 7 : !waveasm.imm<7>
  %c10   = waveasm.constant 10 : !waveasm.imm<10>
  %c11   = waveasm.constant 11 : !waveasm.imm<11>
  %c13   = waveasm.constant 13 : !waveasm.imm<13>
  %c15   = waveasm.constant 15 : !waveasm.imm<15>
  %c17   = waveasm.constant 17 : !waveasm.imm<17>
  %c63   = waveasm.constant 63 : !waveasm.imm<63>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %c8192 = waveasm.constant 8192 : !waveasm.imm<8192>
  %ksteps = waveasm.constant 32 : !waveasm.imm<32>

  // Scalar geometry: block offsets of A and B, block id (16 block columns).
  %a_blk:2 = waveasm.s_lshl_b32 %wg_y, %c17 : !waveasm.psreg<7>, !waveasm.imm<17> -> !waveasm.sreg, !waveasm.scc
  %b_blk:2 = waveasm.s_lshl_b32 %wg_x, %c17 : !waveasm.psreg<6>, !waveasm.imm<17> -> !waveasm.sreg, !waveasm.scc
  %blk_r:2 = waveasm.s_lshl_b32 %wg_y, %c4 : !waveasm.psreg<7>, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  %blk:2   = waveasm.s_add_u32 %blk_r#0, %wg_x : !waveasm.sreg, !waveasm.psreg<6> -> !waveasm.sreg, !waveasm.scc
  %s_blk:2 = waveasm.s_lshl_b32 %blk#0, %c15 : !waveasm.sreg, !waveasm.imm<15> -> !waveasm.sreg, !waveasm.scc
  %c_blk:2 = waveasm.s_lshl_b32 %blk#0, %c13 : !waveasm.sreg, !waveasm.imm<13> -> !waveasm.sreg, !waveasm.scc

  // Wave index as a scalar: this wave's 1 KiB LDS slice within a tile.
  %wave_v = waveasm.v_lshrrev_b32 %c6, %tid : !waveasm.imm<6>, !waveasm.pvreg<0> -> !waveasm.vreg
  %wave_s = waveasm.v_readfirstlane_b32 %wave_v : !waveasm.vreg -> !waveasm.sreg
  %w_lds:2 = waveasm.s_lshl_b32 %wave_s, %c10 : !waveasm.sreg, !waveasm.imm<10> -> !waveasm.sreg, !waveasm.scc

  // Global offsets: lane loads 16 B of row t/4, chunk t%4; scales: t*4 + block.
  %row    = waveasm.v_lshrrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %chunk  = waveasm.v_and_b32 %tid, %c3 : !waveasm.pvreg<0>, !waveasm.imm<3> -> !waveasm.vreg
  %chunkb = waveasm.v_lshlrev_b32 %c4, %chunk : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %g_lane = waveasm.v_lshl_add_u32 %row, %c11, %chunkb : !waveasm.vreg, !waveasm.imm<11>, !waveasm.vreg -> !waveasm.vreg
  %a_voff = waveasm.v_add_u32 %a_blk#0, %g_lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %b_voff = waveasm.v_add_u32 %b_blk#0, %g_lane : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %s_voff = waveasm.v_lshl_add_u32 %tid, %c2, %s_blk#0 : !waveasm.pvreg<0>, !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg

  // Fragment offsets: row (wave row * 32 + lane%16) * 64 B + (lane/16) * 16 B.
  %l16  = waveasm.v_and_b32 %tid, %c15 : !waveasm.pvreg<0>, !waveasm.imm<15> -> !waveasm.vreg
  %quad = waveasm.v_bfe_u32 %tid, %c4, %c2 : !waveasm.pvreg<0>, !waveasm.imm<4>, !waveasm.imm<2> -> !waveasm.vreg
  %wm   = waveasm.v_bfe_u32 %tid, %c7, %c1 : !waveasm.pvreg<0>, !waveasm.imm<7>, !waveasm.imm<1> -> !waveasm.vreg
  %wn   = waveasm.v_bfe_u32 %tid, %c6, %c1 : !waveasm.pvreg<0>, !waveasm.imm<6>, !waveasm.imm<1> -> !waveasm.vreg
  %quadb = waveasm.v_lshlrev_b32 %c4, %quad : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %a_r  = waveasm.v_lshl_add_u32 %wm, %c5, %l16 : !waveasm.vreg, !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %a_frag_off = waveasm.v_lshl_add_u32 %a_r, %c6, %quadb : !waveasm.vreg, !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
  %b_r  = waveasm.v_lshl_add_u32 %wn, %c5, %l16 : !waveasm.vreg, !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %b_frag_off = waveasm.v_lshl_add_u32 %b_r, %c6, %quadb : !waveasm.vreg, !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg

  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c128 = waveasm.constant 128 : !waveasm.imm<128>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %c2048 = waveasm.constant 2048 : !waveasm.imm<2048>
  %c9216 = waveasm.constant 9216 : !waveasm.imm<9216>
  %c13312 = waveasm.constant 13312 : !waveasm.imm<13312>
  %c17408 = waveasm.constant 17408 : !waveasm.imm<17408>
  %c18432 = waveasm.constant 18432 : !waveasm.imm<18432>
  %c22528 = waveasm.constant 22528 : !waveasm.imm<22528>
  %c26624 = waveasm.constant 26624 : !waveasm.imm<26624>
  %c27648 = waveasm.constant 27648 : !waveasm.imm<27648>
  // Scale slice of this wave (256 B) and each lane's scale dword in LDS.
  %w_sc:2 = waveasm.s_lshl_b32 %wave_s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.sreg, !waveasm.scc
  %sc_off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg

  // Prologue: K steps 0, 1, 2 into LDS buffers 0, 1, 2.
  // K step 0.
  waveasm.s_mov_b32_m0 %w_lds#0 : !waveasm.sreg
  waveasm.buffer_load_dwordx4_lds %a_voff, %srd_a, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  %m0_b0:2 = waveasm.s_add_u32 %w_lds#0, %c4096 : !waveasm.sreg, !waveasm.imm<4096> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_mov_b32_m0 %m0_b0#0 : !waveasm.sreg
  waveasm.buffer_load_dwordx4_lds %b_voff, %srd_b, %c0 : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.imm<0>
  %m0_s0:2 = waveasm.s_add_u32 %w_sc#0, %c8192 : !waveasm.sreg, !waveasm.imm<8192> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_mov_b32_m0 %m0_s0#0 : !waveasm.sreg
  waveasm.buffer_load_dword_lds %s_voff, %srd_s, %c0 : !waveasm.vreg, !waveasm.psreg<16, 4>, !waveasm.imm<0>
  // K step 1.
  %so1 = waveasm.s_mov_b32 %c64 : !waveasm.imm<64> -> !waveasm.sreg
  %sso1 = waveasm.s_mov_b32 %c1024 : !waveasm.imm<1024> -> !waveasm.sreg
  %m0_a1:2 = waveasm.s_add_u32 %w_lds#0, %c9216 : !waveasm.sreg, !waveasm.imm<9216> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_mov_b32_m0 %m0_a1#0 : !waveasm.sreg
  waveasm.buffer_load_dwordx4_lds %a_voff, %srd_a, %so1 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.sreg
  %m0_b1:2 = waveasm.s_add_u32 %w_lds#0, %c13312 : !waveasm.sreg, !waveasm.imm<13312> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_mov_b32_m0 %m0_b1#0 : !waveasm.sreg
  waveasm.buffer_load_dwordx4_lds %b_voff, %srd_b, %so1 : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.sreg
  %m0_s1:2 = waveasm.s_add_u32 %w_sc#0, %c17408 : !waveasm.sreg, !waveasm.imm<17408> -> !waveasm.sreg, !waveasm.scc
  waveasm.s_mov_b32_m0 %m0_s1#0 : !waveasm.sreg
  waveasm.buffer_load_dword_lds %s_voff, %srd_s, %sso1 : !waveasm.vreg, !waveasm.psreg<16, 4>, !waveasm.sreg
  // K step 2.
  %k0   = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %buf0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %buf1 = waveasm.s_mov_b32 %c9216 : !waveasm.imm<9216> -> !waveasm.sreg
  %buf2 = waveasm.s_mov_b32 %c18432 : !waveasm.imm<18432> -> !waveasm.sreg
  %buf3 = waveasm.s_mov_b32 %c27648 : !waveasm.imm<27648> -> !waveasm.sreg
  %z00 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z01 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z10 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z11 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.s_barrier

  %res:9 = waveasm.loop (%k = %k0, %b0 = %buf0, %b1 = %buf1, %b2 = %buf2,
                         %b3 = %buf3,
                         %q00 = %z00, %q01 = %z01, %q10 = %z10, %q11 = %z11)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg,
         !waveasm.sreg,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg,
         !waveasm.sreg,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
    // Request K step k+3 into buffer b3 (64 B per row, 1 KiB of scales).
    %k_next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %k_pre:2 = waveasm.s_add_u32 %k, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
    %soff:2 = waveasm.s_lshl_b32 %k_pre#0, %c6 : !waveasm.sreg, !waveasm.imm<6> -> !waveasm.sreg, !waveasm.scc
    %m0_a:2 = waveasm.s_add_u32 %b2, %w_lds#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
    waveasm.s_mov_b32_m0 %m0_a#0 : !waveasm.sreg
    waveasm.buffer_load_dwordx4_lds %a_voff, %srd_a, %soff#0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.sreg
    %m0_b:2 = waveasm.s_add_u32 %m0_a#0, %c4096 : !waveasm.sreg, !waveasm.imm<4096> -> !waveasm.sreg, !waveasm.scc
    waveasm.s_mov_b32_m0 %m0_b#0 : !waveasm.sreg
    waveasm.buffer_load_dwordx4_lds %b_voff, %srd_b, %soff#0 : !waveasm.vreg, !waveasm.psreg<12, 4>, !waveasm.sreg
    %s_soff:2 = waveasm.s_lshl_b32 %k_pre#0, %c10 : !waveasm.sreg, !waveasm.imm<10> -> !waveasm.sreg, !waveasm.scc
    %m0_sw:2 = waveasm.s_add_u32 %b2, %w_sc#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
    %m0_s:2 = waveasm.s_add_u32 %m0_sw#0, %c8192 : !waveasm.sreg, !waveasm.imm<8192> -> !waveasm.sreg, !waveasm.scc
    waveasm.s_mov_b32_m0 %m0_s#0 : !waveasm.sreg
    waveasm.buffer_load_dword_lds %s_voff, %srd_s, %s_soff#0 : !waveasm.vreg, !waveasm.psreg<16, 4>, !waveasm.sreg

    // Fragments and scales of step k from buffer b0.
    waveasm.s_barrier
    %a_addr = waveasm.v_add_u32 %b0, %a_frag_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %b_addr = waveasm.v_add_u32 %b0, %b_frag_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %s_addr = waveasm.v_add_u32 %b0, %sc_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %sc = waveasm.ds_read_b32 %s_addr {offset = 8192 : i64} : !waveasm.vreg -> !waveasm.vreg
    %fa0 = waveasm.ds_read_b128 %a_addr : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fa1 = waveasm.ds_read_b128 %a_addr {offset = 1024 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fb0 = waveasm.ds_read_b128 %b_addr {offset = 4096 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fb1 = waveasm.ds_read_b128 %b_addr {offset = 5120 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>

    %n00 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa0, %fb0, %q00, %sc, %sc
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 0 : i32, op_sel_b = 2 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
    %n01 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa0, %fb1, %q01, %sc, %sc
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 0 : i32, op_sel_b = 3 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
    %n10 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa1, %fb0, %q10, %sc, %sc
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 1 : i32, op_sel_b = 2 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
    %n11 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa1, %fb1, %q11, %sc, %sc
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 1 : i32, op_sel_b = 3 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>

    // Step k+1 (requested two iterations ago) is in LDS and every wave is
    // done reading buffer b0, which the next iteration's loads overwrite.
    %more = waveasm.s_cmp_lt_u32 %k_next#0, %ksteps : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%k_next#0, %b1, %b2, %b3, %b0, %n00, %n01, %n10, %n11)
        : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg,
          !waveasm.sreg,
          !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }

  // Epilogue: f32 -> bf16 (two values per VGPR); block = 8 KiB, wave w at w*2048.
  %lane   = waveasm.v_and_b32 %tid, %c63 : !waveasm.pvreg<0>, !waveasm.imm<63> -> !waveasm.vreg
  %lane_b = waveasm.v_lshlrev_b32 %c3, %lane : !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
  %c_w    = waveasm.v_lshl_add_u32 %wave_v, %c11, %lane_b : !waveasm.vreg, !waveasm.imm<11>, !waveasm.vreg -> !waveasm.vreg
  %c_voff = waveasm.v_add_u32 %c_blk#0, %c_w : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %e00 = waveasm.extract %res#5[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e01 = waveasm.extract %res#5[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e02 = waveasm.extract %res#5[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e03 = waveasm.extract %res#5[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %h00 = waveasm.v_cvt_pk_bf16_f32 %e00, %e01 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %h01 = waveasm.v_cvt_pk_bf16_f32 %e02, %e03 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %o0 = waveasm.pack %h00, %h01 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.buffer_store_dwordx2 %o0, %srd_c, %c_voff : !waveasm.vreg<2, 2>, !waveasm.psreg<20, 4>, !waveasm.vreg
  %e10 = waveasm.extract %res#6[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e11 = waveasm.extract %res#6[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e12 = waveasm.extract %res#6[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e13 = waveasm.extract %res#6[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %h10 = waveasm.v_cvt_pk_bf16_f32 %e10, %e11 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %h11 = waveasm.v_cvt_pk_bf16_f32 %e12, %e13 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %o1 = waveasm.pack %h10, %h11 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.buffer_store_dwordx2 %o1, %srd_c, %c_voff offset : 512 : !waveasm.vreg<2, 2>, !waveasm.psreg<20, 4>, !waveasm.vreg
  %e20 = waveasm.extract %res#7[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e21 = waveasm.extract %res#7[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e22 = waveasm.extract %res#7[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e23 = waveasm.extract %res#7[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %h20 = waveasm.v_cvt_pk_bf16_f32 %e20, %e21 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %h21 = waveasm.v_cvt_pk_bf16_f32 %e22, %e23 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %o2 = waveasm.pack %h20, %h21 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.buffer_store_dwordx2 %o2, %srd_c, %c_voff offset : 1024 : !waveasm.vreg<2, 2>, !waveasm.psreg<20, 4>, !waveasm.vreg
  %e30 = waveasm.extract %res#8[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e31 = waveasm.extract %res#8[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e32 = waveasm.extract %res#8[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %e33 = waveasm.extract %res#8[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
  %h30 = waveasm.v_cvt_pk_bf16_f32 %e30, %e31 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %h31 = waveasm.v_cvt_pk_bf16_f32 %e32, %e33 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %o3 = waveasm.pack %h30, %h31 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.buffer_store_dwordx2 %o3, %srd_c, %c_voff offset : 1536 : !waveasm.vreg<2, 2>, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
