// waveasm-scoped-cse leaves a program without equal ops byte-identical
// (near misses only), and says why it kept the one duplicate it may not
// merge.
// RUN: waveasm-opt %s -o %t.before
// RUN: waveasm-opt --waveasm-scoped-cse %s -o %t.after
// RUN: diff %t.before %t.after
// RUN: waveasm-opt --waveasm-scoped-cse --debug-only=waveasm-scoped-cse %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: kept at {{.*}}: its SCC result is used
// CHECK: @near_misses: 0 ops replaced
waveasm.program @near_misses target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %k = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %a = waveasm.v_sub_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %b = waveasm.v_sub_u32 %y, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %z1 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z2 = waveasm.v_mov_b32 %c0 {no_cse} : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %q1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %q2:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
  %h:2 = waveasm.s_addc_u32 %q2#1, %k, %c0 : !waveasm.scc, !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
  waveasm.dce_protect %a : !waveasm.vreg
  waveasm.dce_protect %b : !waveasm.vreg
  waveasm.dce_protect %z1 : !waveasm.vreg<4, 4>
  waveasm.dce_protect %z2 : !waveasm.vreg<4, 4>
  waveasm.dce_protect %q1#0 : !waveasm.sreg
  waveasm.dce_protect %h#0 : !waveasm.sreg
  waveasm.s_endpgm
}
