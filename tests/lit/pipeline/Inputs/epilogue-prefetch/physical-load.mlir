// gemm_loop.mlir -- GEMM main loop with global->LDS staging (gfx942, wave64).
//
// One wave computes a 32x32 f32 tile as a 2x2 grid of 16x16 accumulators with
// v_mfma_f32_16x16x16_f16 (A/B fragments: 4 x f16 = 2 VGPRs, accumulator:
// 4 VGPRs, result tied to the accumulator).  Per iteration of the K loop:
//   1. write the tiles fetched in the previous iteration (loop-carried
//      !waveasm.vreg<4, 4> values) to LDS with ds_write_b128,
//   2. s_barrier,
//   3. prefetch the next K slice from global memory (buffer_load_dwordx4,
//      scalar soffset = next_k * 1024 bytes),
//   4. four ds_read_b64 fragment reads, clustered together,
//   5. four MFMAs, clustered together (a scheduler can interleave 4 and 5 to
//      hide LDS latency behind MFMA issue),
//   6. s_barrier before LDS is overwritten by the next iteration,
//   7. induction update; s_cmp_lt_u32 is the LAST SCC writer before the
//      waveasm.condition terminator (required by the emitter's s_cbranch_scc1).
// Accumulator zero-inits carry the `no_cse` unit attribute so ScopedCSE keeps
// four distinct registers.  No waits are written here.  Upstream's
// waveasm-insert-waitcnt adds vmcnt/lgkmcnt waits before the ds_write_b128 and
// MFMA uses and drains outstanding *loads* before each s_barrier, but it gives
// stores no ticket, so it does NOT add the lgkmcnt(0) that the ds_write_b128
// stores need before the first s_barrier (see SPEC.md section 15) -- a useful
// case for a wait-count lint.
waveasm.program @gemm_32x32_f16
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {vgprs = 128 : i64, sgprs = 48 : i64, lds_size = 4096 : i64,
              workgroup_size = [64, 1, 1]} {

  // ABI / prologue-provided registers: v0 = lane id, three buffer SRDs.
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_b = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>

  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c3    = waveasm.constant 3 : !waveasm.imm<3>
  %c4    = waveasm.constant 4 : !waveasm.imm<4>
  %c1024 = waveasm.constant 1024 : !waveasm.imm<1024>
  %kmax  = waveasm.constant 32 : !waveasm.imm<32>

  // Loop-invariant addresses.
  %g_off   = waveasm.v_lshlrev_b32 %c4, %tid
      : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg      // tid * 16 (global)
  %lds_wr  = waveasm.v_lshlrev_b32 %c4, %tid
      : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg      // tid * 16 (LDS write)
  %lds_rd  = waveasm.v_lshlrev_b32 %c3, %tid
      : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg      // tid * 8  (LDS read)

  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %p = waveasm.v_mov_b32 %c7 : !waveasm.imm<7> -> !waveasm.pvreg<100>
  // Prologue: fetch K slice 0 and zero the accumulators.
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a_first = waveasm.buffer_load_dwordx4 %srd_a, %g_off, %c0
      : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b_first = waveasm.buffer_load_dwordx4 %srd_b, %g_off, %c0
      : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z00 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z01 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z10 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z11 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>

  %k_end, %a_last, %b_last, %acc00, %acc01, %acc10, %acc11 = waveasm.loop (
      %k = %k0, %a_cur = %a_first, %b_cur = %b_first,
      %c00 = %z00, %c01 = %z01, %c10 = %z10, %c11 = %z11)
      : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>)
     -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {

    // (1) stage the current K slice into LDS: A at [0, 1024), B at [1024, 2048).
    waveasm.ds_write_b128 %a_cur, %lds_wr : !waveasm.vreg<4, 4>, !waveasm.vreg
    waveasm.ds_write_b128 %b_cur, %lds_wr {offset = 1024 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg

    // (2) make the tile visible to every wave of the workgroup.
    waveasm.s_barrier

    // (3) prefetch the next K slice (consumed by the next iteration).
    %k_next:2 = waveasm.s_add_u32 %k, %c1
        : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %k_soff = waveasm.s_mul_i32 %k_next#0, %c1024
        : !waveasm.sreg, !waveasm.imm<1024> -> !waveasm.sreg
    %a_next = waveasm.buffer_load_dwordx4 %srd_a, %g_off, %k_soff
        : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %b_next = waveasm.buffer_load_dwordx4 %srd_b, %g_off, %k_soff
        : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>

    // (4) fragment reads: two A fragments, two B fragments (clustered).
    %a0 = waveasm.ds_read_b64 %lds_rd : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %a1 = waveasm.ds_read_b64 %lds_rd {offset = 512 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %b0 = waveasm.ds_read_b64 %lds_rd {offset = 1024 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
    %b1 = waveasm.ds_read_b64 %lds_rd {offset = 1536 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>

    // (5) 2x2 MFMA grid (clustered).
    waveasm.s_setprio 1
    %n00 = waveasm.v_mfma_f32_16x16x16_f16 %a0, %b0, %c00
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n01 = waveasm.v_mfma_f32_16x16x16_f16 %a0, %b1, %c01
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n10 = waveasm.v_mfma_f32_16x16x16_f16 %a1, %b0, %c10
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n11 = waveasm.v_mfma_f32_16x16x16_f16 %a1, %b1, %c11
        : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    waveasm.s_setprio 0

    // (6) nobody may overwrite LDS until every wave has read its fragments.
    waveasm.s_barrier

    // (7) loop test: the s_cmp must be the last SCC writer before the terminator.
    %more = waveasm.s_cmp_lt_u32 %k_next#0, %kmax
        : !waveasm.sreg, !waveasm.imm<32> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%k_next#0, %a_next, %b_next, %n00, %n01, %n10, %n11)
        : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
          !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }

  %u = waveasm.v_add_u32 %p, %p : !waveasm.pvreg<100>, !waveasm.pvreg<100> -> !waveasm.vreg
  %v = waveasm.buffer_load_dword %srd_a, %g_off, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.pvreg<100>
  waveasm.s_waitcnt vmcnt(0)
  waveasm.buffer_store_dword %u, %srd_b, %g_off : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.buffer_store_dword %v, %srd_b, %g_off offset : 4 : !waveasm.pvreg<100>, !waveasm.psreg<8, 4>, !waveasm.vreg
  // Epilogue: write the four 16x16 f32 tiles (16 bytes per lane each).
  waveasm.buffer_store_dwordx4 %acc00, %srd_c, %g_off
      : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc01, %srd_c, %g_off offset : 1024
      : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc10, %srd_c, %g_off offset : 2048
      : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %acc11, %srd_c, %g_off offset : 3072
      : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
