# mxfp4_gemm_direct_to_lds.mlir with a K-step count the compiler cannot
# see: (a buffer word & 0) + TRIPS, as pipeline-loops/sum-dynamic.mlir.
s/%ksteps = waveasm.constant 32 : !waveasm.imm<32>/%ctrips = waveasm.constant TRIPS : !waveasm.imm<TRIPS>\
  %kword = waveasm.buffer_load_dword %srd_s, %tid, %c0 : !waveasm.psreg<16, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg\
  %kwords = waveasm.v_readfirstlane_b32 %kword : !waveasm.vreg -> !waveasm.sreg\
  %kmask:2 = waveasm.s_and_b32 %kwords, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc\
  %ksteps:2 = waveasm.s_add_u32 %kmask#0, %ctrips : !waveasm.sreg, !waveasm.imm<TRIPS> -> !waveasm.sreg, !waveasm.scc/
s/%more = waveasm.s_cmp_lt_u32 %k_next#0, %ksteps : !waveasm.sreg, !waveasm.imm<32>/%more = waveasm.s_cmp_lt_u32 %k_next#0, %ksteps#0 : !waveasm.sreg, !waveasm.sreg/
