// After register allocation the loop optimizations leave loops alone (they
// would create virtual registers), and say so.
// RUN: waveasm-opt --waveasm-linear-scan %s | waveasm-opt --waveasm-scale-pack-elimination --debug-only=waveasm-scale-pack-elimination 2>&1 | FileCheck %s --check-prefixes=SCALE,ALL
// RUN: waveasm-opt --waveasm-linear-scan %s | waveasm-opt --waveasm-buffer-load-strength-reduction --debug-only=waveasm-buffer-load-strength-reduction 2>&1 | FileCheck %s --check-prefixes=SR,ALL
// RUN: waveasm-opt --waveasm-linear-scan %s | waveasm-opt --waveasm-loop-address-promotion --debug-only=waveasm-loop-address-promotion 2>&1 | FileCheck %s --check-prefixes=LAP,ALL
// SCALE: waveasm-scale-pack-elimination: loop at {{.*}} not rewritten: it is register-allocated
// SR: waveasm-buffer-load-strength-reduction: loop at {{.*}} not rewritten: it is register-allocated
// LAP: waveasm-loop-address-promotion: loop at {{.*}} not rewritten: it is register-allocated
// ALL: waveasm.program @allocated
// ALL-NOT: !waveasm.vreg
// ALL-NOT: !waveasm.sreg
waveasm.program @allocated target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c4096 = waveasm.constant 4096 : !waveasm.imm<4096>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c4096 : !waveasm.imm<4096> -> !waveasm.sreg
  %r:3 = waveasm.loop (%k = %k0, %rd = %k0, %wr = %b1) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg) {
    %kv = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %a = waveasm.v_add_u32 %rd, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %y = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0, %wr, %rd) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}
