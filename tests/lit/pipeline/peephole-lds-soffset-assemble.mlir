// The soffset rewrite through to the assembler: after waveasm-peephole and
// the reference pipeline (LICM hoists what is left of the voffset), the
// loop body computes the scalar shift on the SALU and the direct-to-LDS
// load takes it as soffset; llvm-mc accepts the file.
// RUN: waveasm-opt --waveasm-peephole --waveasm-pipeline --emit-assembly %s -o %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.o
// RUN: FileCheck %s < %t.s
// CHECK:      v_lshl_add_u32 [[SH:v[0-9]+]], v4, 13, 0
// CHECK-NEXT: v_add_u32 [[VOFF:v[0-9]+]], [[SH]], v1
// CHECK-NEXT: L_loop_0:
// CHECK-NEXT: s_mov_b32 m0, s2
// CHECK-NEXT: s_lshl_b32 [[SOFF:s[0-9]+]], [[IV:s[0-9]+]], 7
// CHECK-NEXT: buffer_load_dword [[VOFF]], s[8:11], [[SOFF]] offen lds
// CHECK-NEXT: s_add_u32 [[IV]], [[IV]], 1
// CHECK-NEXT: s_cmp_lt_u32 [[IV]], 16
// CHECK-NEXT: s_cbranch_scc1 L_loop_0
waveasm.program @lds_soffset target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %m0 = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %base = waveasm.precolored.vreg 1 : !waveasm.pvreg<1>
  %v4 = waveasm.precolored.vreg 4 : !waveasm.pvreg<4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c13 = waveasm.constant 13 : !waveasm.imm<13>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%iv = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %shift_iv = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %vshift = waveasm.v_lshlrev_b32 %c13, %v4 : !waveasm.imm<13>, !waveasm.pvreg<4> -> !waveasm.vreg
    %inner = waveasm.v_add_u32 %vshift, %shift_iv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %voff = waveasm.v_add_u32 %base, %inner : !waveasm.pvreg<1>, !waveasm.vreg -> !waveasm.vreg
    waveasm.s_mov_b32_m0 %m0 : !waveasm.psreg<2>
    waveasm.buffer_load_dword_lds %voff, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %next:2 = waveasm.s_add_u32 %iv, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
