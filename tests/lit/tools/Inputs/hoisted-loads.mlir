// 24 loads hoisted to the top of the loop body, then a reduction chain that
// reads them one by one: every load is live until its add, so the peak
// VGPR count is about 24; the spectral strategy (co-access: each load
// next to its add) brings it down (tests/lit/tools/spectral-strategy.test).
waveasm.program @hoisted target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %kend = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %l0 = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l1 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 128 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l2 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 256 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l3 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 384 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l4 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 512 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l5 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 640 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l6 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 768 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l7 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 896 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l8 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1024 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l9 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1152 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l10 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1280 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l11 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1408 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l12 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1536 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l13 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1664 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l14 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1792 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l15 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 1920 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l16 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2048 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l17 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2176 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l18 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2304 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l19 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2432 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l20 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2560 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l21 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2688 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l22 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2816 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %l23 = waveasm.buffer_load_dword %srd, %tid, %c0 offset : 2944 : !waveasm.psreg<8, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
    %s1 = waveasm.v_add_u32 %l0, %l1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s2 = waveasm.v_add_u32 %s1, %l2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s3 = waveasm.v_add_u32 %s2, %l3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s4 = waveasm.v_add_u32 %s3, %l4 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s5 = waveasm.v_add_u32 %s4, %l5 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s6 = waveasm.v_add_u32 %s5, %l6 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s7 = waveasm.v_add_u32 %s6, %l7 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s8 = waveasm.v_add_u32 %s7, %l8 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s9 = waveasm.v_add_u32 %s8, %l9 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s10 = waveasm.v_add_u32 %s9, %l10 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s11 = waveasm.v_add_u32 %s10, %l11 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s12 = waveasm.v_add_u32 %s11, %l12 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s13 = waveasm.v_add_u32 %s12, %l13 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s14 = waveasm.v_add_u32 %s13, %l14 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s15 = waveasm.v_add_u32 %s14, %l15 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s16 = waveasm.v_add_u32 %s15, %l16 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s17 = waveasm.v_add_u32 %s16, %l17 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s18 = waveasm.v_add_u32 %s17, %l18 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s19 = waveasm.v_add_u32 %s18, %l19 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s20 = waveasm.v_add_u32 %s19, %l20 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s21 = waveasm.v_add_u32 %s20, %l21 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s22 = waveasm.v_add_u32 %s21, %l22 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s23 = waveasm.v_add_u32 %s22, %l23 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_store_dword %s23, %srd, %tid offset : 3072 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.pvreg<0>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
