// mxfp4_preshuffle_gemm_loop.mlir -- MXFP4 GEMM K loop on gfx950 (wave64) as
// the Wave compiler emits it before its loop optimizations: the three shapes
// of seed 001 (the preshuffled-B GEMM), for waveasm-scale-pack-elimination,
// waveasm-buffer-load-strength-reduction and waveasm-loop-address-promotion.
//
// A workgroup of 4 waves (2x2) computes a 64x64 f32 block; each wave a 2x2
// grid of 16x16 tiles with v_mfma_scale_f32_16x16x128_f8f6f4 (FP4 A and B:
// cbsz = blgp = 4; 128 FP4 of K = 64 bytes per row per K step).
//   * A (row-major, 2048 B rows) goes global -> LDS with buffer_load_dwordx4
//     ... lds, one 1 KiB slice per wave (M0 = write buffer + wave slice).
//     Its voffset is recomputed from the induction variable every
//     iteration:   v_add_u32(row, v_lshl_add_u32(chunk, 4,
//                            v_lshlrev_b32(6, k_next)))
//     -- the scalar shift of the IV hidden inside the v_lshl_add_u32 the
//     lshl+add fusion made (seed 001's "A-data LDS prefetch voffset").
//   * The LDS buffers rotate through two SGPR iter_args (read <-> write swap
//     every step); the fragment reads address v_add_u32(read buffer,
//     fragment offset) (the rotation waveasm-loop-address-promotion turns
//     into two VGPR iter_args).
//   * B is preshuffled (one 4 KiB block per K step) and register-prefetched
//     with buffer_load_dwordx4, one per N-subtile; its voffset is the affine
//     chain k_next*128 (FP4 elements) >> 1 (bytes) << 6 (preshuffle) + lane
//     offset + the workgroup's N block (an SGPR), recomputed every
//     iteration ("B-data buffer_load addresses").
//   * B scales: one E8M0 dword (4 K blocks) per N-subtile per step, also
//     from an IV chain (512 B per step), split into four bytes with
//     v_bfe_u32 and carried as 8 byte iter_args, repacked at the top of the
//     next iteration by two v_lshl_or_b32 chains (shifts 8, 16, 24) into the
//     MFMA b_scale operands: 6 v_lshl_or_b32 + 8 v_bfe_u32 per iteration
//     ("B-scale byte repacking").
//   * A scales: one dword per lane per step, carried whole, scalar soffset.
// Expected (bench/seed001_table.py): scale-packing VALU 14 -> 0,
// buffer-load address VALU -> 0, one s_add_u32 soffset bump per SRD group
// (A data, B data, B scales), plus one s_add_u32 for B's SGPR block base.
// The last iteration's prefetch reads one step past K (buffer loads past the
// descriptor's range return 0) and is never used.
// gfx950 preloads kernel arguments: with 2 kernel arguments the workgroup
// ids follow 2 + 2*2 user SGPRs (s6, s7); the prologue has built the SRDs.
// The scale buffer holds E8M0 bytes: the simulator draws them near 127
// (2^-7..2^7) so the scaled MFMAs stay finite.
// waveasm-sim: --byte-range=3:120-134 --byte-range=4:120-134
waveasm.program @mxfp4_preshuffle_gemm_loop
  target = #waveasm.target<#waveasm.gfx950, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 6, wg_id_y = 7>
  attributes {vgprs = 128 : i64, sgprs = 48 : i64, lds_size = 16384 : i64,
              workgroup_size = [256, 1, 1]} {

  %tid    = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %wg_x   = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  %wg_y   = waveasm.precolored.sreg 7 : !waveasm.psreg<7>
  %srd_a  = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_b  = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %srd_as = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>
  %srd_bs = waveasm.precolored.sreg 20, 4 : !waveasm.psreg<20, 4>
  %srd_c  = waveasm.precolored.sreg 24, 4 : !waveasm.psreg<24, 4>

  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c2    = waveasm.constant 2 : !waveasm.imm<2>
  %c3    = waveasm.constant 3 : !waveasm.imm<3>
  %c4    = waveasm.constant 4 : !waveasm.imm<4>
  %c5    = waveasm.constant 5 : !waveasm.imm<5>
  %c6    = waveasm.constant 6 : !waveasm.imm<6>
  %c7    = waveasm.constant 7 : !waveasm.imm<7>
  %c8    = waveasm.constant 8 : !waveasm.imm<8>
  %c9    = waveasm.constant 9 : !waveasm.imm<9>
  %c10   = waveasm.constant 10 : !waveasm.imm<10>
  %c11   = waveasm.constant 11 : !waveasm.imm<11>
  %c12   = waveasm.constant 12 : !waveasm.imm<12>
  %c15   = waveasm.constant 15 : !waveasm.imm<15>
  %c16   = waveasm.constant 16 : !waveasm.imm<16>
  %c17   = waveasm.constant 17 : !waveasm.imm<17>
  %c24   = waveasm.constant 24 : !waveasm.imm<24>
  %c63   = waveasm.constant 63 : !waveasm.imm<63>
  %c128  = waveasm.constant 128 : !waveasm.imm<128>
  %c256  = waveasm.constant 256 : !waveasm.imm<256>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %c8192 = waveasm.constant 8192 : !waveasm.imm<8192>
  %ksteps = waveasm.constant 32 : !waveasm.imm<32>

  // Workgroup blocks: A rows (64 x 2048 B), B's preshuffled N block (the
  // whole K extent of 64 columns: 32 steps x 4 KiB = 128 KiB), C.
  %a_blk:2 = waveasm.s_lshl_b32 %wg_y, %c17 : !waveasm.psreg<7>, !waveasm.imm<17> -> !waveasm.sreg, !waveasm.scc
  %b_blk:2 = waveasm.s_lshl_b32 %wg_x, %c17 : !waveasm.psreg<6>, !waveasm.imm<17> -> !waveasm.sreg, !waveasm.scc
  %blk_r:2 = waveasm.s_lshl_b32 %wg_y, %c4 : !waveasm.psreg<7>, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
  %blk:2   = waveasm.s_add_u32 %blk_r#0, %wg_x : !waveasm.sreg, !waveasm.psreg<6> -> !waveasm.sreg, !waveasm.scc
  %c_blk:2 = waveasm.s_lshl_b32 %blk#0, %c12 : !waveasm.sreg, !waveasm.imm<12> -> !waveasm.sreg, !waveasm.scc

  // Wave index: this wave's 1 KiB slice of an LDS tile.
  %wave_v = waveasm.v_lshrrev_b32 %c6, %tid : !waveasm.imm<6>, !waveasm.pvreg<0> -> !waveasm.vreg
  %wave_s = waveasm.v_readfirstlane_b32 %wave_v : !waveasm.vreg -> !waveasm.sreg
  %w_lds:2 = waveasm.s_lshl_b32 %wave_s, %c10 : !waveasm.sreg, !waveasm.imm<10> -> !waveasm.sreg, !waveasm.scc

  // A: lane loads 16 B (chunk t%4) of row t/4 (2048 B rows) of the block.
  %a_rowi  = waveasm.v_lshrrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a_chunk = waveasm.v_and_b32 %tid, %c3 : !waveasm.pvreg<0>, !waveasm.imm<3> -> !waveasm.vreg
  %a_row   = waveasm.v_lshl_add_u32 %a_rowi, %c11, %a_blk#0 : !waveasm.vreg, !waveasm.imm<11>, !waveasm.sreg -> !waveasm.vreg
  // A scales: one dword per lane per step (256 lanes x 4 B per step).
  %as_voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg

  // A fragments in LDS: row (wave row * 32 + lane%16) * 64 B + (lane/16) * 16 B.
  %l16   = waveasm.v_and_b32 %tid, %c15 : !waveasm.pvreg<0>, !waveasm.imm<15> -> !waveasm.vreg
  %quad  = waveasm.v_bfe_u32 %tid, %c4, %c2 : !waveasm.pvreg<0>, !waveasm.imm<4>, !waveasm.imm<2> -> !waveasm.vreg
  %wm    = waveasm.v_bfe_u32 %tid, %c7, %c1 : !waveasm.pvreg<0>, !waveasm.imm<7>, !waveasm.imm<1> -> !waveasm.vreg
  %quadb = waveasm.v_lshlrev_b32 %c4, %quad : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %a_r   = waveasm.v_lshl_add_u32 %wm, %c5, %l16 : !waveasm.vreg, !waveasm.imm<5>, !waveasm.vreg -> !waveasm.vreg
  %a_frag_off = waveasm.v_lshl_add_u32 %a_r, %c6, %quadb : !waveasm.vreg, !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg

  // Prologue: K step 0. A into LDS buffer 0, B fragments and scales into
  // VGPRs, the B-scale dwords split into bytes for the loop.
  waveasm.s_mov_b32_m0 %w_lds#0 : !waveasm.sreg
  %a_voff0 = waveasm.v_lshl_add_u32 %a_chunk, %c4, %a_row : !waveasm.vreg, !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_load_dwordx4_lds %a_voff0, %srd_a, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  %bl0    = waveasm.v_and_b32 %tid, %c63 : !waveasm.pvreg<0>, !waveasm.imm<63> -> !waveasm.vreg
  %bn0    = waveasm.v_bfe_u32 %tid, %c6, %c1 : !waveasm.pvreg<0>, !waveasm.imm<6>, !waveasm.imm<1> -> !waveasm.vreg
  %blo0   = waveasm.v_lshlrev_b32 %c4, %bl0 : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %bw0    = waveasm.v_lshl_or_b32 %bn0, %c11, %blo0 : !waveasm.vreg, !waveasm.imm<11>, !waveasm.vreg -> !waveasm.vreg
  %b_v00  = waveasm.v_add_u32 %bw0, %b_blk#0 : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  %b_first0 = waveasm.buffer_load_dwordx4 %srd_b, %b_v00, %c0
      : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b_first1 = waveasm.buffer_load_dwordx4 %srd_b, %b_v00, %c0 offset : 1024
      : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %s_v00  = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %bs_first0 = waveasm.buffer_load_dword %srd_bs, %s_v00, %c0
      : !waveasm.psreg<20, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %bs_first1 = waveasm.buffer_load_dword %srd_bs, %s_v00, %c0 offset : 256
      : !waveasm.psreg<20, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %sa_first = waveasm.buffer_load_dword %srd_as, %as_voff, %c0
      : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %x00 = waveasm.v_bfe_u32 %bs_first0, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x01 = waveasm.v_bfe_u32 %bs_first0, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x02 = waveasm.v_bfe_u32 %bs_first0, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x03 = waveasm.v_bfe_u32 %bs_first0, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %x10 = waveasm.v_bfe_u32 %bs_first1, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
  %x11 = waveasm.v_bfe_u32 %bs_first1, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
  %x12 = waveasm.v_bfe_u32 %bs_first1, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
  %x13 = waveasm.v_bfe_u32 %bs_first1, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
  %k0    = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %lds_0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %lds_1 = waveasm.s_mov_b32 %c8192 : !waveasm.imm<8192> -> !waveasm.sreg
  %z00 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z01 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z10 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z11 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.s_barrier

  %res:18 = waveasm.loop (
      %k = %k0, %rd = %lds_0, %wr = %lds_1, %sa = %sa_first,
      %bf0 = %b_first0, %bf1 = %b_first1,
      %y00 = %x00, %y01 = %x01, %y02 = %x02, %y03 = %x03,
      %y10 = %x10, %y11 = %x11, %y12 = %x12, %y13 = %x13,
      %q00 = %z00, %q01 = %z01, %q10 = %z10, %q11 = %z11)
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
         !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>)
     -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
         !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {

    // B-scale dwords of this step, re-assembled from the carried bytes.
    %p0a = waveasm.v_lshl_or_b32 %y01, %c8, %y00 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p0b = waveasm.v_lshl_or_b32 %y02, %c16, %p0a : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %bsc0 = waveasm.v_lshl_or_b32 %y03, %c24, %p0b : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg
    %p1a = waveasm.v_lshl_or_b32 %y11, %c8, %y10 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.vreg -> !waveasm.vreg
    %p1b = waveasm.v_lshl_or_b32 %y12, %c16, %p1a : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
    %bsc1 = waveasm.v_lshl_or_b32 %y13, %c24, %p1b : !waveasm.vreg, !waveasm.imm<24>, !waveasm.vreg -> !waveasm.vreg

    // Prefetch K step k+1. A: direct to LDS (write buffer), voffset from
    // the IV with the scalar shift inside the fused v_lshl_add_u32.
    %k_next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %a_k    = waveasm.v_lshlrev_b32 %c6, %k_next#0 : !waveasm.imm<6>, !waveasm.sreg -> !waveasm.vreg
    %a_kc   = waveasm.v_lshl_add_u32 %a_chunk, %c4, %a_k : !waveasm.vreg, !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
    %a_voff = waveasm.v_add_u32 %a_row, %a_kc : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %m0_a:2 = waveasm.s_add_u32 %wr, %w_lds#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
    waveasm.s_mov_b32_m0 %m0_a#0 : !waveasm.sreg
    waveasm.buffer_load_dwordx4_lds %a_voff, %srd_a, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>

    // B: preshuffled block of step k+1 (4 KiB per step), lane offset, the
    // workgroup's N block; N-subtile 1 at +1 KiB.
    %bl     = waveasm.v_and_b32 %tid, %c63 : !waveasm.pvreg<0>, !waveasm.imm<63> -> !waveasm.vreg
    %bn     = waveasm.v_bfe_u32 %tid, %c6, %c1 : !waveasm.pvreg<0>, !waveasm.imm<6>, !waveasm.imm<1> -> !waveasm.vreg
    %blo    = waveasm.v_lshlrev_b32 %c4, %bl : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
    %bw     = waveasm.v_lshl_or_b32 %bn, %c11, %blo : !waveasm.vreg, !waveasm.imm<11>, !waveasm.vreg -> !waveasm.vreg
    %kel    = waveasm.v_mul_lo_u32 %k_next#0, %c128 : !waveasm.sreg, !waveasm.imm<128> -> !waveasm.vreg
    %kby    = waveasm.v_lshrrev_b32 %c1, %kel : !waveasm.imm<1>, !waveasm.vreg -> !waveasm.vreg
    %kblk   = waveasm.v_lshlrev_b32 %c6, %kby : !waveasm.imm<6>, !waveasm.vreg -> !waveasm.vreg
    %koff   = waveasm.v_add_u32 %kblk, %bw : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %b_v0   = waveasm.v_add_u32 %koff, %b_blk#0 : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %b_v1   = waveasm.v_add_u32 %b_v0, %c1024 : !waveasm.vreg, !waveasm.imm<1024> -> !waveasm.vreg
    %b_nxt0 = waveasm.buffer_load_dwordx4 %srd_b, %b_v0, %c0
        : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %b_nxt1 = waveasm.buffer_load_dwordx4 %srd_b, %b_v1, %c0
        : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>

    // B scales of step k+1 (512 B per step), N-subtile 1 at +256 B.
    %sk     = waveasm.v_lshlrev_b32 %c9, %k_next#0 : !waveasm.imm<9>, !waveasm.sreg -> !waveasm.vreg
    %s_v0   = waveasm.v_lshl_add_u32 %tid, %c2, %sk : !waveasm.pvreg<0>, !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
    %s_v1   = waveasm.v_add_u32 %s_v0, %c256 : !waveasm.vreg, !waveasm.imm<256> -> !waveasm.vreg
    %bs_nxt0 = waveasm.buffer_load_dword %srd_bs, %s_v0, %c0
        : !waveasm.psreg<20, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %bs_nxt1 = waveasm.buffer_load_dword %srd_bs, %s_v1, %c0
        : !waveasm.psreg<20, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg

    // A scales of step k+1: scalar soffset.
    %as_soff:2 = waveasm.s_lshl_b32 %k_next#0, %c10 : !waveasm.sreg, !waveasm.imm<10> -> !waveasm.sreg, !waveasm.scc
    %sa_nxt = waveasm.buffer_load_dword %srd_as, %as_voff, %as_soff#0
        : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg

    // A fragments of step k from the read buffer.
    %a_addr = waveasm.v_add_u32 %rd, %a_frag_off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %fa0 = waveasm.ds_read_b128 %a_addr : !waveasm.vreg -> !waveasm.vreg<4, 4>
    %fa1 = waveasm.ds_read_b128 %a_addr {offset = 1024 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>

    %n00 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa0, %bf0, %q00, %sa, %bsc0
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 0 : i32, op_sel_b = 0 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
    %n01 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa0, %bf1, %q01, %sa, %bsc1
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 0 : i32, op_sel_b = 0 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
    %n10 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa1, %bf0, %q10, %sa, %bsc0
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 1 : i32, op_sel_b = 0 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>
    %n11 = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %fa1, %bf1, %q11, %sa, %bsc1
        {cbsz = 4 : i32, blgp = 4 : i32, op_sel_a = 1 : i32, op_sel_b = 0 : i32}
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<4, 4>

    // Bytes of the next B-scale dwords for the back edge.
    %nb00 = waveasm.v_bfe_u32 %bs_nxt0, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %nb01 = waveasm.v_bfe_u32 %bs_nxt0, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %nb02 = waveasm.v_bfe_u32 %bs_nxt0, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %nb03 = waveasm.v_bfe_u32 %bs_nxt0, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg
    %nb10 = waveasm.v_bfe_u32 %bs_nxt1, %c0, %c8 : !waveasm.vreg, !waveasm.imm<0>, !waveasm.imm<8> -> !waveasm.vreg
    %nb11 = waveasm.v_bfe_u32 %bs_nxt1, %c8, %c8 : !waveasm.vreg, !waveasm.imm<8>, !waveasm.imm<8> -> !waveasm.vreg
    %nb12 = waveasm.v_bfe_u32 %bs_nxt1, %c16, %c8 : !waveasm.vreg, !waveasm.imm<16>, !waveasm.imm<8> -> !waveasm.vreg
    %nb13 = waveasm.v_bfe_u32 %bs_nxt1, %c24, %c8 : !waveasm.vreg, !waveasm.imm<24>, !waveasm.imm<8> -> !waveasm.vreg

    // Step k+1 has landed in LDS and every wave is done with buffer %rd.
    waveasm.s_barrier
    %more = waveasm.s_cmp_lt_u32 %k_next#0, %ksteps : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%k_next#0, %wr, %rd, %sa_nxt, %b_nxt0, %b_nxt1,
                  %nb00, %nb01, %nb02, %nb03, %nb10, %nb11, %nb12, %nb13,
                  %n00, %n01, %n10, %n11)
        : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg,
          !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
          !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
          !waveasm.vreg, !waveasm.vreg, !waveasm.vreg, !waveasm.vreg,
          !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }

  // Epilogue: the four f32 16x16 tiles of this wave, 16 B per lane each.
  %lane   = waveasm.v_and_b32 %tid, %c63 : !waveasm.pvreg<0>, !waveasm.imm<63> -> !waveasm.vreg
  %lane_b = waveasm.v_lshlrev_b32 %c4, %lane : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %c_w    = waveasm.v_lshl_add_u32 %wave_v, %c12, %lane_b : !waveasm.vreg, !waveasm.imm<12>, !waveasm.vreg -> !waveasm.vreg
  %c_voff = waveasm.v_add_u32 %c_blk#0, %c_w : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dwordx4 %res#14, %srd_c, %c_voff : !waveasm.vreg<4, 4>, !waveasm.psreg<24, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %res#15, %srd_c, %c_voff offset : 1024 : !waveasm.vreg<4, 4>, !waveasm.psreg<24, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %res#16, %srd_c, %c_voff offset : 2048 : !waveasm.vreg<4, 4>, !waveasm.psreg<24, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %res#17, %srd_c, %c_voff offset : 3072 : !waveasm.vreg<4, 4>, !waveasm.psreg<24, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
