// Input of insert-waitcnt-fold-inner-loop.test: a counted-wait outer loop
// (as a rotated outer loop is, pipeline/opt/OuterOverlap.h) whose body is
// an inner loop issuing loads, the uses of an older load and of the inner
// loop's newest load, the next iteration's load, then 32 MFMAs (128 issue
// slots). The second wait must not fold into the first (FoldWaits.h):
// walking back from the first across the inner loop, the rule would find
// the previous iteration's load, 128 slots back and landed, where the
// newest ticket is the inner loop's last load, a few slots back.
waveasm.program @inner target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<tid = 0, kernarg = 0>
    attributes {vgprs = 64 : i64, sgprs = 32 : i64, workgroup_size = [64, 1, 1]} {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %trips = waveasm.constant 4 : !waveasm.imm<4>
  %voff = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %fa = waveasm.v_mov_b32 %c1 {no_cse} : !waveasm.imm<1> -> !waveasm.vreg<2, 2>
  %fb = waveasm.v_mov_b32 %c1 {no_cse} : !waveasm.imm<1> -> !waveasm.vreg<2, 2>
  %n0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %a0 = waveasm.buffer_load_dword %srd, %voff, %c4096 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<4096> -> !waveasm.vreg
  %r:3 = waveasm.loop (%n = %n0, %acc = %z, %a = %a0) : (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.vreg) {
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %in:2 = waveasm.loop (%k = %k0, %v = %z) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
      %soff = waveasm.s_mul_i32 %k, %c256 : !waveasm.sreg, !waveasm.imm<256> -> !waveasm.sreg
      %l = waveasm.buffer_load_dword %srd, %voff, %soff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %more = waveasm.s_cmp_lt_u32 %kn#0, %trips : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %l) : !waveasm.sreg, !waveasm.vreg
    } {waveasm.counted_waits}
    %x = waveasm.v_add_u32 %a, %acc : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %y = waveasm.v_add_u32 %in#1, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %an = waveasm.buffer_load_dword %srd, %voff, %c4096 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<4096> -> !waveasm.vreg
    %m0 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %m1 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m2 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m1 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m3 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m2 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m4 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m3 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m5 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m4 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m6 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m5 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m7 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m6 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m8 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m7 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m9 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m8 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m10 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m9 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m11 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m10 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m12 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m11 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m13 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m12 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m14 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m13 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m15 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m14 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m16 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m15 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m17 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m16 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m18 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m17 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m19 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m18 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m20 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m19 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m21 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m20 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m22 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m21 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m23 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m22 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m24 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m23 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m25 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m24 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m26 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m25 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m27 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m26 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m28 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m27 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m29 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m28 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m30 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m29 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m31 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m30 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %m32 = waveasm.v_mfma_f32_16x16x16_f16 %fa, %fb, %m31 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %e = waveasm.extract %m32[0] : !waveasm.vreg<4, 4> -> !waveasm.vreg
    %s = waveasm.v_add_u32 %e, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %nn:2 = waveasm.s_add_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %again = waveasm.s_cmp_lt_u32 %nn#0, %trips : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %again : !waveasm.scc iter_args(%nn#0, %s, %an) : !waveasm.sreg, !waveasm.vreg, !waveasm.vreg
  } {waveasm.counted_waits}
  waveasm.buffer_store_dword %r#1, %out, %voff : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
