// Inputs/descriptor-versioning/ntiles8.mlir with C's descriptor defined
// inside the outer loop, just before the C stores: the run-time check runs
// before the loop, where that value does not exist yet.
waveasm.program @gemm_f16_triple_buffer_ntiles
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {vgprs = 128 : i64, sgprs = 48 : i64, lds_size = 6144 : i64,
              workgroup_size = [64, 1, 1]} {

  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_a = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_b = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>

  %c0    = waveasm.constant 0 : !waveasm.imm<0>
  %c1    = waveasm.constant 1 : !waveasm.imm<1>
  %c2    = waveasm.constant 2 : !waveasm.imm<2>
  %c3    = waveasm.constant 3 : !waveasm.imm<3>
  %c4    = waveasm.constant 4 : !waveasm.imm<4>
  %c6    = waveasm.constant 6 : !waveasm.imm<6>
  %c12   = waveasm.constant 12 : !waveasm.imm<12>
  %c13   = waveasm.constant 13 : !waveasm.imm<13>
  %c2048 = waveasm.constant 2048 : !waveasm.imm<2048>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %ntiles = waveasm.constant 8 : !waveasm.imm<8>
  %ksteps = waveasm.constant 16 : !waveasm.imm<16>

  // Lane offsets: 16 B per lane in global memory and in an LDS tile, 8 B
  // per lane for the fragment reads.
  %g_lane = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %lds_wr = waveasm.v_lshlrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %lds_rd = waveasm.v_lshlrev_b32 %c3, %tid : !waveasm.imm<3>, !waveasm.pvreg<0> -> !waveasm.vreg
  %buf0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %buf1 = waveasm.s_mov_b32 %c2048 : !waveasm.imm<2048> -> !waveasm.sreg
  %buf2 = waveasm.s_mov_b32 %c4096 : !waveasm.imm<4096> -> !waveasm.sreg
  %a_first = waveasm.buffer_load_dwordx4 %srd_a, %g_lane, %c0
      : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %n0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg

  %n_end = waveasm.loop (%n = %n0) : (!waveasm.sreg) -> !waveasm.sreg {
    // This N tile's first B tile: 4 KiB per N tile (outer IV chain).
    %n_off = waveasm.v_lshlrev_b32 %c12, %n : !waveasm.imm<12>, !waveasm.sreg -> !waveasm.vreg
    %b_v0  = waveasm.v_add_u32 %n_off, %g_lane : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %b_first = waveasm.buffer_load_dwordx4 %srd_b, %b_v0, %c0
        : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    // The K loop reaches this N tile through the scalar offset.
    %b_soff:2 = waveasm.s_lshl_b32 %n, %c12 : !waveasm.sreg, !waveasm.imm<12> -> !waveasm.sreg, !waveasm.scc
    %z0 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %z1 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg

    %r:8 = waveasm.loop (%k = %k0, %rd = %buf0, %wr = %buf1, %nx = %buf2,
                         %a_cur = %a_first, %b_cur = %b_first,
                         %acc0 = %z0, %acc1 = %z1)
        : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg,
           !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>)
       -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg,
           !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
      // Stage the prefetched tiles into the write buffer.
      %w_addr = waveasm.v_add_u32 %wr, %lds_wr : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
      waveasm.ds_write_b128 %a_cur, %w_addr : !waveasm.vreg<4, 4>, !waveasm.vreg
      waveasm.ds_write_b128 %b_cur, %w_addr {offset = 1024 : i64} : !waveasm.vreg<4, 4>, !waveasm.vreg
      waveasm.s_barrier

      // Prefetch K step k+1: one voffset expression per descriptor.
      %k_next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %a_k  = waveasm.v_lshlrev_b32 %c6, %k_next#0 : !waveasm.imm<6>, !waveasm.sreg -> !waveasm.vreg
      %a_v  = waveasm.v_add_u32 %a_k, %g_lane : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %a_nxt = waveasm.buffer_load_dwordx4 %srd_a, %a_v, %c0
          : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
      %b_k  = waveasm.v_lshlrev_b32 %c6, %k_next#0 : !waveasm.imm<6>, !waveasm.sreg -> !waveasm.vreg
      %b_v  = waveasm.v_add_u32 %b_k, %g_lane : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %b_nxt = waveasm.buffer_load_dwordx4 %srd_b, %b_v, %b_soff#0
          : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>

      // Fragments of step k from the read buffer.
      %r_addr = waveasm.v_add_u32 %rd, %lds_rd : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
      %fa0 = waveasm.ds_read_b64 %r_addr : !waveasm.vreg -> !waveasm.vreg<2, 2>
      %fa1 = waveasm.ds_read_b64 %r_addr {offset = 512 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
      %fb0 = waveasm.ds_read_b64 %r_addr {offset = 1024 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
      %fb1 = waveasm.ds_read_b64 %r_addr {offset = 1536 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
      %m0 = waveasm.v_mfma_f32_16x16x16_f16 %fa0, %fb0, %acc0
          : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
      %m1 = waveasm.v_mfma_f32_16x16x16_f16 %fa1, %fb1, %acc1
          : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>

      %more = waveasm.s_cmp_lt_u32 %k_next#0, %ksteps : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc
          iter_args(%k_next#0, %wr, %nx, %rd, %a_nxt, %b_nxt, %m0, %m1)
          : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg,
            !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
    }

    // This N tile of C: 8 KiB per N tile, 16 B per lane per accumulator.
    %srd_c = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
    %c_n  = waveasm.v_lshlrev_b32 %c13, %n : !waveasm.imm<13>, !waveasm.sreg -> !waveasm.vreg
    %c_v  = waveasm.v_add_u32 %c_n, %g_lane : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dwordx4 %r#6, %srd_c, %c_v : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
    waveasm.buffer_store_dwordx4 %r#7, %srd_c, %c_v offset : 1024 : !waveasm.vreg<4, 4>, !waveasm.psreg<12, 4>, !waveasm.vreg
    // The LDS buffers are reused by the next N tile.
    waveasm.s_barrier

    %n_next:2 = waveasm.s_add_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %again = waveasm.s_cmp_lt_u32 %n_next#0, %ntiles : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %again : !waveasm.scc iter_args(%n_next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
