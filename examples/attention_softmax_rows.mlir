// attention_softmax_rows.mlir -- row softmax of attention scores, P = softmax(scale * S),
// two-pass online softmax with one row per lane (gfx942, wave64).
//
// Kernel arguments (s[0:1]): [0] S (f32 scores, row major, ld = ncols),
// [8] P (f16 probabilities, same shape), [16] LSE (f32, one per row),
// [24] ncols (multiple of 4, >= 4), [28] flags (bit 0: multiply by `scale`,
// bit 1: also write the row log-sum-exp), [32] scale (f32 bits, e.g. 1/sqrt(d)).
// Workgroup w handles rows 64*w .. 64*w + 63; lane t owns row 64*w + t and walks
// it 4 columns (one buffer_load_dwordx4) per iteration.
//   pass 1: running max m and running sum s of exp2(t - m) with the rescale
//           s = s * exp2(m_old - m_new) + sum(exp2(t_i - m_new)), t = x * mul,
//           mul = scale * log2(e) (or log2(e)) chosen by a waveasm.if with a
//           result whose condition is the SCC of s_and_b32 (flag test);
//   between: inv = v_rcp_f32(s), forced to 0 for an all -inf row
//           (v_cmp_gt_f32 + v_cndmask_b32 through VCC);
//   pass 2: p_i = exp2(fma(x_i, mul, -m)) * inv, packed to f16 with v_cvt_pkrtz_f16_f32
//           and stored with global_store_dwordx2;
//   epilogue: a result-less waveasm.if writes lse = (m + log2 s) * ln 2.
// Transcendentals (v_exp_f32, v_rcp_f32, v_log_f32) feed plain VALU ops, which
// is the trans -> non-trans hazard upstream's hazard mitigation pads with s_nop.
// S, P and LSE never overlap: `noalias_args` says so, which lets pass 2's next
// load run ahead of this iteration's store (--waveasm-pipeline-loops).
waveasm.program @attention_softmax_rows
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0, wg_id_x = 2>
  attributes {vgprs = 48 : i64, sgprs = 40 : i64, num_kernel_args = 5 : i64,
              noalias_args = [0, 8, 16],
              workgroup_size = [64, 1, 1]} {

  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %kargs = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %wg_x  = waveasm.precolored.sreg 2 : !waveasm.psreg<2>

  %c0     = waveasm.constant 0 : !waveasm.imm<0>
  %c1     = waveasm.constant 1 : !waveasm.imm<1>
  %c2     = waveasm.constant 2 : !waveasm.imm<2>
  %c3     = waveasm.constant 3 : !waveasm.imm<3>
  %c4     = waveasm.constant 4 : !waveasm.imm<4>
  %c6     = waveasm.constant 6 : !waveasm.imm<6>
  %c16    = waveasm.constant 16 : !waveasm.imm<16>
  %c24    = waveasm.constant 24 : !waveasm.imm<24>
  %c32    = waveasm.constant 32 : !waveasm.imm<32>
  %nrec   = waveasm.constant -1 : !waveasm.imm<-1>
  %dfmt   = waveasm.constant 131072 : !waveasm.imm<131072>
  %log2e  = waveasm.constant 1069066811 : !waveasm.imm<1069066811>    // 0x3FB8AA3B = 1.442695f
  %ln2    = waveasm.constant 1060205080 : !waveasm.imm<1060205080>    // 0x3F317218 = 0.693147f
  %neginf = waveasm.constant -8388608 : !waveasm.imm<-8388608>        // 0xFF800000 = -inf

  // Kernel arguments.
  %sp    = waveasm.s_load_dwordx4 %kargs, %c0 : !waveasm.psreg<0, 2>, !waveasm.imm<0> -> !waveasm.sreg<4, 4>
  %lse_p = waveasm.s_load_dwordx2 %kargs, %c16 : !waveasm.psreg<0, 2>, !waveasm.imm<16> -> !waveasm.sreg<2, 2>
  %prm   = waveasm.s_load_dwordx2 %kargs, %c24 : !waveasm.psreg<0, 2>, !waveasm.imm<24> -> !waveasm.sreg<2, 2>
  %scale = waveasm.s_load_dword %kargs, %c32 : !waveasm.psreg<0, 2>, !waveasm.imm<32> -> !waveasm.sreg
  %s_lo  = waveasm.extract %sp[0] : !waveasm.sreg<4, 4> -> !waveasm.sreg
  %s_hi  = waveasm.extract %sp[1] : !waveasm.sreg<4, 4> -> !waveasm.sreg
  %p_ptr = waveasm.extract %sp[2] : !waveasm.sreg<4, 4> -> !waveasm.sreg<2, 2>
  %ncols = waveasm.extract %prm[0] : !waveasm.sreg<2, 2> -> !waveasm.sreg
  %flags = waveasm.extract %prm[1] : !waveasm.sreg<2, 2> -> !waveasm.sreg

  // Buffer descriptor for S (unbounded), row geometry.
  %s_num = waveasm.s_mov_b32 %nrec : !waveasm.imm<-1> -> !waveasm.sreg
  %s_fmt = waveasm.s_mov_b32 %dfmt : !waveasm.imm<131072> -> !waveasm.sreg
  %srd_s = waveasm.pack %s_lo, %s_hi, %s_num, %s_fmt
      : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> !waveasm.sreg<4, 4>
  %nchunks:2 = waveasm.s_lshr_b32 %ncols, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
  %ld_s:2  = waveasm.s_lshl_b32 %ncols, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
  %row0:2  = waveasm.s_lshl_b32 %wg_x, %c6 : !waveasm.psreg<2>, !waveasm.imm<6> -> !waveasm.sreg, !waveasm.scc
  %row   = waveasm.v_add_u32 %row0#0, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
  %s_row = waveasm.v_mul_lo_u32 %row, %ld_s#0 : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg    // row * ncols * 4
  %p_row = waveasm.v_lshrrev_b32 %c1, %s_row : !waveasm.imm<1>, !waveasm.vreg -> !waveasm.vreg   // row * ncols * 2

  // mul = flags & 1 ? scale * log2(e) : log2(e)   (SCC of s_and_b32 = result != 0)
  %f_scale:2 = waveasm.s_and_b32 %flags, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %mul = waveasm.if %f_scale#1 : !waveasm.scc -> !waveasm.vreg {
    %ms = waveasm.v_mul_f32 %scale, %log2e : !waveasm.sreg, !waveasm.imm<1069066811> -> !waveasm.vreg
    waveasm.yield %ms : !waveasm.vreg
  } else {
    %mu = waveasm.v_mov_b32 %log2e : !waveasm.imm<1069066811> -> !waveasm.vreg
    waveasm.yield %mu : !waveasm.vreg
  }

  // Pass 1: online max / sum over the row.
  %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %m0 = waveasm.v_mov_b32 %neginf : !waveasm.imm<-8388608> -> !waveasm.vreg
  %l0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %j_end, %m, %l = waveasm.loop (%j = %j0, %m_run = %m0, %l_run = %l0)
      : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %soff:2 = waveasm.s_lshl_b32 %j, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
    %x = waveasm.buffer_load_dwordx4 %srd_s, %s_row, %soff#0
        : !waveasm.sreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %x0 = waveasm.extract %x[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %x1 = waveasm.extract %x[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %x2 = waveasm.extract %x[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %x3 = waveasm.extract %x[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %t0 = waveasm.v_mul_f32 %x0, %mul : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t1 = waveasm.v_mul_f32 %x1, %mul : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t2 = waveasm.v_mul_f32 %x2, %mul : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %t3 = waveasm.v_mul_f32 %x3, %mul : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %mx01 = waveasm.v_max_f32 %t0, %t1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %mx23 = waveasm.v_max_f32 %t2, %t3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %mx   = waveasm.v_max_f32 %mx01, %mx23 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %m_new = waveasm.v_max_f32 %m_run, %mx : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %dm   = waveasm.v_sub_f32 %m_run, %m_new : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %corr = waveasm.v_exp_f32 %dm : !waveasm.vreg -> !waveasm.vreg
    %d0 = waveasm.v_sub_f32 %t0, %m_new : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %d1 = waveasm.v_sub_f32 %t1, %m_new : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %d2 = waveasm.v_sub_f32 %t2, %m_new : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %d3 = waveasm.v_sub_f32 %t3, %m_new : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %e0 = waveasm.v_exp_f32 %d0 : !waveasm.vreg -> !waveasm.vreg
    %e1 = waveasm.v_exp_f32 %d1 : !waveasm.vreg -> !waveasm.vreg
    %e2 = waveasm.v_exp_f32 %d2 : !waveasm.vreg -> !waveasm.vreg
    %e3 = waveasm.v_exp_f32 %d3 : !waveasm.vreg -> !waveasm.vreg
    %l1 = waveasm.v_fma_f32 %l_run, %corr, %e0 : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %e12 = waveasm.v_add_f32 %e1, %e2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %l2 = waveasm.v_add_f32 %l1, %e3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %l_new = waveasm.v_add_f32 %l2, %e12 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %j_next:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %j_next#0, %nchunks#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%j_next#0, %m_new, %l_new)
        : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  }

  // inv = l > 0 ? 1 / l : 0   (VCC from the compare, consumed by v_cndmask_b32)
  %inv_raw = waveasm.v_rcp_f32 %l : !waveasm.vreg -> !waveasm.vreg
  %zero = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.v_cmp_gt_f32 %l, %c0 : !waveasm.vreg, !waveasm.imm<0>
  %inv = waveasm.v_cndmask_b32 %zero, %inv_raw, %l : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %neg_m = waveasm.v_sub_f32 %c0, %m : !waveasm.imm<0>, !waveasm.vreg -> !waveasm.vreg     // 0.0 - m

  // Pass 2: normalize, convert to f16, store 8 bytes per lane per step.
  %jj_end = waveasm.loop (%jj = %j0) : (!waveasm.sreg) -> !waveasm.sreg {
    %soff2:2 = waveasm.s_lshl_b32 %jj, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg, !waveasm.scc
    %y = waveasm.buffer_load_dwordx4 %srd_s, %s_row, %soff2#0
        : !waveasm.sreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %y0 = waveasm.extract %y[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %y1 = waveasm.extract %y[1] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %y2 = waveasm.extract %y[2] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %y3 = waveasm.extract %y[3] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %u0 = waveasm.v_fma_f32 %y0, %mul, %neg_m : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %u1 = waveasm.v_fma_f32 %y1, %mul, %neg_m : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %u2 = waveasm.v_fma_f32 %y2, %mul, %neg_m : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %u3 = waveasm.v_fma_f32 %y3, %mul, %neg_m : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %q0 = waveasm.v_exp_f32 %u0 : !waveasm.vreg -> !waveasm.vreg
    %q1 = waveasm.v_exp_f32 %u1 : !waveasm.vreg -> !waveasm.vreg
    %q2 = waveasm.v_exp_f32 %u2 : !waveasm.vreg -> !waveasm.vreg
    %q3 = waveasm.v_exp_f32 %u3 : !waveasm.vreg -> !waveasm.vreg
    %p0 = waveasm.v_mul_f32 %q0, %inv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %p1 = waveasm.v_mul_f32 %q1, %inv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %p2 = waveasm.v_mul_f32 %q2, %inv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %p3 = waveasm.v_mul_f32 %q3, %inv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %h01 = waveasm.v_cvt_pkrtz_f16_f32 %p0, %p1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %h23 = waveasm.v_cvt_pkrtz_f16_f32 %p2, %p3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %h = waveasm.pack %h01, %h23 : (!waveasm.vreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
    %col_b:2 = waveasm.s_lshl_b32 %jj, %c3 : !waveasm.sreg, !waveasm.imm<3> -> !waveasm.sreg, !waveasm.scc
    %p_off = waveasm.v_add_u32 %col_b#0, %p_row : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.global_store_dwordx2 %h, %p_ptr, %p_off : !waveasm.vreg<2, 2>, !waveasm.sreg<2, 2>, !waveasm.vreg
    %jj_next:2 = waveasm.s_add_u32 %jj, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more2 = waveasm.s_cmp_lt_u32 %jj_next#0, %nchunks#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.scc
    waveasm.condition %more2 : !waveasm.scc iter_args(%jj_next#0) : !waveasm.sreg
  }

  // Optional log-sum-exp output (natural log units of scale * S).
  %f_lse:2 = waveasm.s_and_b32 %flags, %c2 : !waveasm.sreg, !waveasm.imm<2> -> !waveasm.sreg, !waveasm.scc
  %want = waveasm.s_cmp_ne_u32 %f_lse#0, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.scc
  waveasm.if %want : !waveasm.scc {
    %lg   = waveasm.v_log_f32 %l : !waveasm.vreg -> !waveasm.vreg
    %lse2 = waveasm.v_add_f32 %m, %lg : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %lse  = waveasm.v_mul_f32 %lse2, %ln2 : !waveasm.vreg, !waveasm.imm<1060205080> -> !waveasm.vreg
    %lse_off = waveasm.v_lshlrev_b32 %c2, %row : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
    waveasm.global_store_dword %lse, %lse_p, %lse_off : !waveasm.vreg, !waveasm.sreg<2, 2>, !waveasm.vreg
    waveasm.yield
  }
  waveasm.s_endpgm
}
// Simulated with ncols = 64 (16 iterations of each pass) and both flags set:
// waveasm-sim: --kernarg-dword=24:64 --kernarg-dword=28:3
