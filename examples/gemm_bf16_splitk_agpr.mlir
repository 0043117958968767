// gemm_bf16_splitk_agpr.mlir -- split-K bf16 GEMM with register-prefetched
// fragments, AGPR accumulators and atomic f32 output (gfx950, wave64).
//
// C[M x 4096] (f32, row major) += A[M x K] * B[4096 x K]^T, A and B bf16 row
// major with K = 4096 (8192 bytes per row).  The grid is 3-D: wg_id_x picks a
// 32-column block of C, wg_id_y a 16-row block, wg_id_z one of four 1024-wide
// K splits.  One wave per workgroup computes its 16x32 partial tile with
// v_mfma_f32_16x16x32_bf16 (gfx950: A/B fragments of 8 bf16 = 4 VGPRs, one
// buffer_load_dwordx4 each, read straight from global memory in MFMA layout:
// lane l reads row l%16, k = (l/16)*8 .. +8).  No LDS is used.
// Per K step (64 elements = 128 bytes) the six fragments of the *next* step
// are loaded at the top of the body and carried as iter_args (register double
// buffering); the four MFMAs consume the fragments loaded one iteration earlier
// (the last iteration's prefetch, past the split, is never used).
// The two accumulators live in AGPRs (!waveasm.areg<4, 4>, zero-initialised by
// v_mov_b32, which the emitter turns into v_accvgpr_write_b32).
// Epilogue: extract each AGPR, v_accvgpr_read_b32 it to a VGPR and add it
// into C with buffer_atomic_add_f32 (the K splits race on the same tile).
// Accumulator element i of lane l is C[m0 + (l/16)*4 + i][n0 + l%16].
// gfx950 with 2 preloaded kernel-argument pointers: workgroup ids in s6-s8.
waveasm.program @gemm_bf16_splitk_agpr
  target = #waveasm.target<#waveasm.gfx950, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 6, wg_id_y = 7, wg_id_z = 8>
  attributes {vgprs = 64 : i64, sgprs = 32 : i64, workgroup_size = [64, 1, 1]} {

  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %wg_x  = waveasm.precolored.sreg 6 : !waveasm.psreg<6>
  %wg_y  = waveasm.precolored.sreg 7 : !waveasm.psreg<7>
  %wg_z  = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %srd_a = waveasm.precolored.sreg 12, 4 : !waveasm.psreg<12, 4>
  %srd_b = waveasm.precolored.sreg 16, 4 : !waveasm.psreg<16, 4>
  %srd_c = waveasm.precolored.sreg 20, 4 : !waveasm.psreg<20, 4>

  %c0   = waveasm.constant 0 : !waveasm.imm<0>
  %c1   = waveasm.constant 1 : !waveasm.imm<1>
  %c2   = waveasm.constant 2 : !waveasm.imm<2>
  %c4   = waveasm.constant 4 : !waveasm.imm<4>
  %c7   = waveasm.constant 7 : !waveasm.imm<7>
  %c11  = waveasm.constant 11 : !waveasm.imm<11>
  %c13  = waveasm.constant 13 : !waveasm.imm<13>
  %c15  = waveasm.constant 15 : !waveasm.imm<15>
  %c16  = waveasm.constant 16 : !waveasm.imm<16>
  %c17  = waveasm.constant 17 : !waveasm.imm<17>
  %c18  = waveasm.constant 18 : !waveasm.imm<18>
  %row16k = waveasm.constant 16384 : !waveasm.imm<16384>
  %row32k = waveasm.constant 32768 : !waveasm.imm<32768>
  %row48k = waveasm.constant 49152 : !waveasm.imm<49152>
  %b_n1   = waveasm.constant 131072 : !waveasm.imm<131072>   // 16 rows of B
  %ksteps = waveasm.constant 16 : !waveasm.imm<16>

  // Scalar block offsets: A rows (16 * 8192 B), B rows (32 * 8192 B), K split.
  %a_blk:2 = waveasm.s_lshl_b32 %wg_y, %c17 : !waveasm.psreg<7>, !waveasm.imm<17> -> !waveasm.sreg, !waveasm.scc
  %b_blk:2 = waveasm.s_lshl_b32 %wg_x, %c18 : !waveasm.psreg<6>, !waveasm.imm<18> -> !waveasm.sreg, !waveasm.scc
  %kbase:2 = waveasm.s_lshl_b32 %wg_z, %c11 : !waveasm.psreg<8>, !waveasm.imm<11> -> !waveasm.sreg, !waveasm.scc

  // Fragment offsets: row l%16 (8192 B apart), 16-byte k group l/16.
  %l16   = waveasm.v_and_b32 %tid, %c15 : !waveasm.pvreg<0>, !waveasm.imm<15> -> !waveasm.vreg
  %quad  = waveasm.v_lshrrev_b32 %c4, %tid : !waveasm.imm<4>, !waveasm.pvreg<0> -> !waveasm.vreg
  %quadb = waveasm.v_lshlrev_b32 %c4, %quad : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %lane_ab = waveasm.v_lshl_add_u32 %l16, %c13, %quadb : !waveasm.vreg, !waveasm.imm<13>, !waveasm.vreg -> !waveasm.vreg
  %a_voff  = waveasm.v_add_u32 %a_blk#0, %lane_ab : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %b_voff0 = waveasm.v_add_u32 %b_blk#0, %lane_ab : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %b_voff1 = waveasm.v_add_u32 %b_voff0, %b_n1 : !waveasm.vreg, !waveasm.imm<131072> -> !waveasm.vreg

  // Prologue: fragments of K step 0 (k substep 1 is 64 bytes further).
  %a0  = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %kbase#0
      : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
  %a1  = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %kbase#0 offset : 64
      : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
  %b00 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff0, %kbase#0
      : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
  %b01 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff0, %kbase#0 offset : 64
      : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
  %b10 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff1, %kbase#0
      : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
  %b11 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff1, %kbase#0 offset : 64
      : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
  %k0  = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %za0 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.areg<4, 4>
  %za1 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.areg<4, 4>

  %res:9 = waveasm.loop (%k = %k0, %fa0 = %a0, %fa1 = %a1, %fb00 = %b00, %fb01 = %b01,
                         %fb10 = %b10, %fb11 = %b11, %acc0 = %za0, %acc1 = %za1)
      : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.areg<4, 4>, !waveasm.areg<4, 4>)
     -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
         !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.areg<4, 4>, !waveasm.areg<4, 4>) {
    // Next step's fragments: soffset = split base + (k+1) * 128 bytes.
    %k_next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %kb:2   = waveasm.s_lshl_b32 %k_next#0, %c7 : !waveasm.sreg, !waveasm.imm<7> -> !waveasm.sreg, !waveasm.scc
    %soff:2 = waveasm.s_add_u32 %kbase#0, %kb#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
    %na0  = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %soff#0
        : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %na1  = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %soff#0 offset : 64
        : !waveasm.psreg<12, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %nb00 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff0, %soff#0
        : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %nb01 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff0, %soff#0 offset : 64
        : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %nb10 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff1, %soff#0
        : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %nb11 = waveasm.buffer_load_dwordx4 %srd_b, %b_voff1, %soff#0 offset : 64
        : !waveasm.psreg<16, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>

    // This step: two k substeps x two 16-column subtiles, AGPR accumulators.
    %p0 = waveasm.v_mfma_f32_16x16x32_bf16 %fa0, %fb00, %acc0
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
    %p1 = waveasm.v_mfma_f32_16x16x32_bf16 %fa0, %fb10, %acc1
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
    %q0 = waveasm.v_mfma_f32_16x16x32_bf16 %fa1, %fb01, %p0
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
    %q1 = waveasm.v_mfma_f32_16x16x32_bf16 %fa1, %fb11, %p1
        : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>

    %more = waveasm.s_cmp_lt_u32 %k_next#0, %ksteps : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc
        iter_args(%k_next#0, %na0, %na1, %nb00, %nb01, %nb10, %nb11, %q0, %q1)
        : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>,
          !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>, !waveasm.areg<4, 4>, !waveasm.areg<4, 4>
  }

  // Epilogue: C offset = (m0 + quad*4 + i) * 16384 + (n0 + l16) * 4 (+64 for subtile 1).
  %c_r:2 = waveasm.s_lshl_b32 %wg_y, %c18 : !waveasm.psreg<7>, !waveasm.imm<18> -> !waveasm.sreg, !waveasm.scc
  %c_c:2 = waveasm.s_lshl_b32 %wg_x, %c7 : !waveasm.psreg<6>, !waveasm.imm<7> -> !waveasm.sreg, !waveasm.scc
  %c_blk:2 = waveasm.s_add_u32 %c_r#0, %c_c#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %col_b = waveasm.v_lshlrev_b32 %c2, %l16 : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
  %lane_c = waveasm.v_lshl_add_u32 %quad, %c16, %col_b : !waveasm.vreg, !waveasm.imm<16>, !waveasm.vreg -> !waveasm.vreg
  %cv0 = waveasm.v_add_u32 %c_blk#0, %lane_c : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
  %cv1 = waveasm.v_add_u32 %cv0, %row16k : !waveasm.vreg, !waveasm.imm<16384> -> !waveasm.vreg
  %cv2 = waveasm.v_add_u32 %cv0, %row32k : !waveasm.vreg, !waveasm.imm<32768> -> !waveasm.vreg
  %cv3 = waveasm.v_add_u32 %cv0, %row48k : !waveasm.vreg, !waveasm.imm<49152> -> !waveasm.vreg
  %g00 = waveasm.extract %res#7[0] : !waveasm.areg<4, 4> -> !waveasm.areg
  %g01 = waveasm.extract %res#7[1] : !waveasm.areg<4, 4> -> !waveasm.areg
  %g02 = waveasm.extract %res#7[2] : !waveasm.areg<4, 4> -> !waveasm.areg
  %g03 = waveasm.extract %res#7[3] : !waveasm.areg<4, 4> -> !waveasm.areg
  %v00 = waveasm.v_accvgpr_read_b32 %g00 : !waveasm.areg -> !waveasm.vreg
  %v01 = waveasm.v_accvgpr_read_b32 %g01 : !waveasm.areg -> !waveasm.vreg
  %v02 = waveasm.v_accvgpr_read_b32 %g02 : !waveasm.areg -> !waveasm.vreg
  %v03 = waveasm.v_accvgpr_read_b32 %g03 : !waveasm.areg -> !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v00, %srd_c, %cv0 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v01, %srd_c, %cv1 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v02, %srd_c, %cv2 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v03, %srd_c, %cv3 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  %g10 = waveasm.extract %res#8[0] : !waveasm.areg<4, 4> -> !waveasm.areg
  %g11 = waveasm.extract %res#8[1] : !waveasm.areg<4, 4> -> !waveasm.areg
  %g12 = waveasm.extract %res#8[2] : !waveasm.areg<4, 4> -> !waveasm.areg
  %g13 = waveasm.extract %res#8[3] : !waveasm.areg<4, 4> -> !waveasm.areg
  %v10 = waveasm.v_accvgpr_read_b32 %g10 : !waveasm.areg -> !waveasm.vreg
  %v11 = waveasm.v_accvgpr_read_b32 %g11 : !waveasm.areg -> !waveasm.vreg
  %v12 = waveasm.v_accvgpr_read_b32 %g12 : !waveasm.areg -> !waveasm.vreg
  %v13 = waveasm.v_accvgpr_read_b32 %g13 : !waveasm.areg -> !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v10, %srd_c, %cv0 offset : 64 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v11, %srd_c, %cv1 offset : 64 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v12, %srd_c, %cv2 offset : 64 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %v13, %srd_c, %cv3 offset : 64 : !waveasm.vreg, !waveasm.psreg<20, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
