// SALU emission: literals (32/64-bit, one distinct literal per instruction),
// s_cmp_ne -> s_cmp_lg, the SCC carry chain, special registers (M0, EXEC, VCC).
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

waveasm.program @salu target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %s9 = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %s10 = waveasm.precolored.sreg 10, 2 : !waveasm.psreg<10, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %cm1 = waveasm.constant -1 : !waveasm.imm<-1>
  %c1000 = waveasm.constant 1000 : !waveasm.imm<1000>
  %c2000 = waveasm.constant 2000 : !waveasm.imm<2000>
  %cu32 = waveasm.constant 4294967295 : !waveasm.imm<4294967295>
  %cbig = waveasm.constant 0x500000007 : !waveasm.imm<21474836487>
  %a = waveasm.s_mov_b32 %c1000 : !waveasm.imm<1000> -> !waveasm.psreg<20>
  %a2 = waveasm.s_mov_b32 %cu32 : !waveasm.imm<4294967295> -> !waveasm.psreg<20>
  %b = waveasm.s_mov_b64 %cm1 : !waveasm.imm<-1> -> !waveasm.psreg<22, 2>
  %b2 = waveasm.s_mov_b64 %cbig : !waveasm.imm<21474836487> -> !waveasm.psreg<22, 2>
  %d:2 = waveasm.s_and_b32 %s8, %c1000 : !waveasm.psreg<8>, !waveasm.imm<1000> -> !waveasm.psreg<21>, !waveasm.scc
  %e:2 = waveasm.s_lshl_b64 %s10, %c7 : !waveasm.psreg<10, 2>, !waveasm.imm<7> -> !waveasm.psreg<24, 2>, !waveasm.scc
  %f:2 = waveasm.s_bcnt1_i32_b64 %s10 : !waveasm.psreg<10, 2> -> !waveasm.psreg<26>, !waveasm.scc
  %g = waveasm.s_mul_i32 %s8, %s9 : !waveasm.psreg<8>, !waveasm.psreg<9> -> !waveasm.psreg<27>
  // 64-bit add through SCC.
  %lo:2 = waveasm.s_add_u32 %s8, %c1000 : !waveasm.psreg<8>, !waveasm.imm<1000> -> !waveasm.psreg<28>, !waveasm.scc
  %hi:2 = waveasm.s_addc_u32 %lo#1, %s9, %c0 : !waveasm.scc, !waveasm.psreg<9>, !waveasm.imm<0> -> !waveasm.psreg<29>, !waveasm.scc
  // s_cmp_ne_* is spelled s_cmp_lg_*.
  %n1 = waveasm.s_cmp_ne_u32 %s8, %c1000 : !waveasm.psreg<8>, !waveasm.imm<1000> -> !waveasm.scc
  %n2 = waveasm.s_cmp_ne_u64 %s10, %c0 : !waveasm.psreg<10, 2>, !waveasm.imm<0> -> !waveasm.scc
  %n3 = waveasm.s_cmp_ne_i32 %s8, %s9 : !waveasm.psreg<8>, !waveasm.psreg<9> -> !waveasm.scc
  // Two different literals: one goes through the destination.
  %sel = waveasm.s_cselect_b32 %n3, %c1000, %c2000 : !waveasm.scc, !waveasm.imm<1000>, !waveasm.imm<2000> -> !waveasm.psreg<30>
  %sel2 = waveasm.s_cselect_b32 %n3, %s8, %c2000 : !waveasm.scc, !waveasm.psreg<8>, !waveasm.imm<2000> -> !waveasm.psreg<31>
  // Special registers.
  waveasm.s_mov_b32_m0 %c1000 : !waveasm.imm<1000>
  waveasm.s_mov_b32_m0 %s8 : !waveasm.psreg<8>
  %saved = waveasm.s_and_saveexec_b64 -> !waveasm.psreg<32, 2>
  waveasm.s_mov_b64_exec %saved : !waveasm.psreg<32, 2>
  // VCC as an SGPR pair.
  %vcc = waveasm.s_mov_b64 %s10 : !waveasm.psreg<10, 2> -> !waveasm.psreg<106, 2>
  waveasm.s_endpgm
}

// CHECK-LABEL: {{^}}salu:
// CHECK-NEXT: s_mov_b32 s20, 1000
// CHECK-NEXT: s_mov_b32 s20, 4294967295
// CHECK-NEXT: s_mov_b64 s[22:23], -1
// CHECK-NEXT: s_mov_b32 s22, 7
// CHECK-NEXT: s_mov_b32 s23, 5
// CHECK-NEXT: s_and_b32 s21, s8, 1000
// CHECK-NEXT: s_lshl_b64 s[24:25], s[10:11], 7
// CHECK-NEXT: s_bcnt1_i32_b64 s26, s[10:11]
// CHECK-NEXT: s_mul_i32 s27, s8, s9
// CHECK-NEXT: s_add_u32 s28, s8, 1000
// CHECK-NEXT: s_addc_u32 s29, s9, 0
// CHECK-NEXT: s_cmp_lg_u32 s8, 1000
// CHECK-NEXT: s_cmp_lg_u64 s[10:11], 0
// CHECK-NEXT: s_cmp_lg_i32 s8, s9
// CHECK-NEXT: s_mov_b32 s30, 1000
// CHECK-NEXT: s_cselect_b32 s30, s30, 2000
// CHECK-NEXT: s_cselect_b32 s31, s8, 2000
// CHECK-NEXT: s_mov_b32 m0, 1000
// CHECK-NEXT: s_mov_b32 m0, s8
// CHECK-NEXT: s_and_saveexec_b64 s[32:33], vcc
// CHECK-NEXT: s_mov_b64 exec, s[32:33]
// CHECK-NEXT: s_mov_b64 vcc, s[10:11]
// CHECK-NEXT: s_endpgm
