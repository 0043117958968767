// A buffer-load address built on a rotating loop-carried base (a double
// buffer's read offset, swapped with the write offset every iteration) is
// not affine in the induction variable: strength reduction must leave it
// alone. Upstream counts every block argument but the induction variable
// as invariant and hoists the address with the base's first value; the
// simulator shows the loads then read the wrong bytes.
// RUN: waveasm-opt --waveasm-buffer-load-strength-reduction --debug-only=waveasm-buffer-load-strength-reduction %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=LOG
// RUN: waveasm-sim --compare --seeds 2 %s %t.mlir | FileCheck %s --check-prefix=SIM
// RUN: waveasm-opt --waveasm-pipeline %s -o %t.full.mlir
// RUN: waveasm-sim --compare --seeds 2 %s %t.full.mlir | FileCheck %s --check-prefix=SIM
// LOG: depends on a loop-carried value other than the induction variable
// SIM: @rotating: equal on 2 seeds
waveasm.program @rotating target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %out = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %b1 = waveasm.s_mov_b32 %c256 : !waveasm.imm<256> -> !waveasm.sreg
  %off = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:4 = waveasm.loop (%k = %k0, %rd = %b0, %wr = %b1, %acc = %acc0) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg) {
    %ks = waveasm.s_mul_i32 %k, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.sreg
    %base:2 = waveasm.s_add_u32 %ks, %rd : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
    %vo = waveasm.v_add_u32 %base#0, %off : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %vo, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %acc2 = waveasm.v_add_u32 %acc, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %wr, %rd, %acc2) : !waveasm.sreg, !waveasm.sreg, !waveasm.sreg, !waveasm.vreg
  }
  waveasm.buffer_store_dword %r#3, %out, %off : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.s_endpgm
}
