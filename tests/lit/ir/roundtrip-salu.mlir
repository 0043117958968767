// SALU families round-trip: unary, unary+SCC, binary, binary+SCC, carry, carry-in, compare, s_cselect_b32 (2-result ops print `%dst, %scc`).
// RUN: waveasm-opt %s | FileCheck %s
// RUN: waveasm-opt %s | waveasm-opt | FileCheck %s

// CHECK-LABEL: waveasm.program @salu target = <#waveasm.gfx942> abi = <> {
waveasm.program @salu target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  // CHECK:      %[[S:.*]] = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  // CHECK-NEXT: %[[P:.*]] = waveasm.precolored.sreg 4, 2 : !waveasm.sreg<2, 2>
  // CHECK-NEXT: %[[C:.*]] = waveasm.constant 255 : <255>
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %p = waveasm.precolored.sreg 4, 2 : !waveasm.sreg<2, 2>
  %c = waveasm.constant 255 : !waveasm.imm<255>

  // Unary (no SCC): source SGPR or immediate.
  // CHECK-NEXT: %[[M:.*]] = waveasm.s_mov_b32 %[[C]] : !waveasm.imm<255> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.s_mov_b64 %[[P]] : !waveasm.sreg<2, 2> -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.s_sext_i32_i8 %[[S]] : !waveasm.psreg<2> -> !waveasm.psreg<9>
  // CHECK-NEXT: %{{.*}} = waveasm.s_sext_i32_i16 %[[M]] : !waveasm.sreg -> !waveasm.sreg{{$}}
  %m = waveasm.s_mov_b32 %c : !waveasm.imm<255> -> !waveasm.sreg
  %m64 = waveasm.s_mov_b64 %p : !waveasm.sreg<2, 2> -> !waveasm.sreg<2, 2>
  %x8 = waveasm.s_sext_i32_i8 %s : !waveasm.psreg<2> -> !waveasm.psreg<9>
  %x16 = waveasm.s_sext_i32_i16 %m : !waveasm.sreg -> !waveasm.sreg

  // Unary + SCC.
  // CHECK-NEXT: %dst, %scc = waveasm.s_not_b32 %[[S]] : !waveasm.psreg<2> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_0, %scc_1 = waveasm.s_bcnt1_i32_b64 %[[P]] : !waveasm.sreg<2, 2> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_2, %scc_3 = waveasm.s_abs_i32 %[[C]] : !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc{{$}}
  %n:2 = waveasm.s_not_b32 %s : !waveasm.psreg<2> -> !waveasm.sreg, !waveasm.scc
  %bc, %bcs = waveasm.s_bcnt1_i32_b64 %p : !waveasm.sreg<2, 2> -> !waveasm.sreg, !waveasm.scc
  %abs:2 = waveasm.s_abs_i32 %c : !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc

  // Binary (no SCC): src0 SGPR, src1 SGPR or immediate.
  // CHECK-NEXT: %{{.*}} = waveasm.s_mul_i32 %[[S]], %[[C]] : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.s_mul_hi_u32 %[[M]], %[[S]] : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.s_bfm_b64 %[[M]], %[[C]] : !waveasm.sreg, !waveasm.imm<255> -> !waveasm.sreg<2, 2>
  // CHECK-NEXT: %{{.*}} = waveasm.s_pack_ll_b32_b16 %[[M]], %[[M]] : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg{{$}}
  %mul = waveasm.s_mul_i32 %s, %c : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg
  %mulhi = waveasm.s_mul_hi_u32 %m, %s : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.sreg
  %bfm = waveasm.s_bfm_b64 %m, %c : !waveasm.sreg, !waveasm.imm<255> -> !waveasm.sreg<2, 2>
  %pk = waveasm.s_pack_ll_b32_b16 %m, %m : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg

  // Binary + SCC.
  // CHECK-NEXT: %dst_4, %scc_5 = waveasm.s_and_b32 %[[M]], %[[C]] : !waveasm.sreg, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_6, %scc_7 = waveasm.s_xnor_b64 %[[P]], %[[P]] : !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2> -> !waveasm.sreg<2, 2>, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_8, %scc_9 = waveasm.s_lshl_b32 %[[S]], %[[C]] : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_10, %scc_11 = waveasm.s_max_u32 %[[M]], %[[S]] : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_12, %scc_13 = waveasm.s_bfe_u64 %[[P]], %[[C]] : !waveasm.sreg<2, 2>, !waveasm.imm<255> -> !waveasm.sreg<2, 2>, !waveasm.scc{{$}}
  %and:2 = waveasm.s_and_b32 %m, %c : !waveasm.sreg, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc
  %xnor:2 = waveasm.s_xnor_b64 %p, %p : !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2> -> !waveasm.sreg<2, 2>, !waveasm.scc
  %shl:2 = waveasm.s_lshl_b32 %s, %c : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc
  %max:2 = waveasm.s_max_u32 %m, %s : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.sreg, !waveasm.scc
  %bfe:2 = waveasm.s_bfe_u64 %p, %c : !waveasm.sreg<2, 2>, !waveasm.imm<255> -> !waveasm.sreg<2, 2>, !waveasm.scc

  // Carry ops and the carry-in s_addc_u32 (reads the SCC of s_add_u32).
  // CHECK-NEXT: %dst_14, %scc_15 = waveasm.s_add_u32 %[[S]], %[[C]] : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_16, %scc_17 = waveasm.s_addc_u32 %scc_15, %[[S]], %[[C]] : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_18, %scc_19 = waveasm.s_sub_i32 %dst_14, %dst_16 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_20, %scc_21 = waveasm.s_add_i32 %[[M]], %[[C]] : !waveasm.sreg, !waveasm.imm<255> -> !waveasm.psreg<3>, !waveasm.scc{{$}}
  // CHECK-NEXT: %dst_22, %scc_23 = waveasm.s_sub_u32 %[[M]], %[[M]] : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc{{$}}
  %lo:2 = waveasm.s_add_u32 %s, %c : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc
  %hi:2 = waveasm.s_addc_u32 %lo#1, %s, %c
      : !waveasm.scc, !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.sreg, !waveasm.scc
  %sub:2 = waveasm.s_sub_i32 %lo#0, %hi#0 : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc
  %addi:2 = waveasm.s_add_i32 %m, %c : !waveasm.sreg, !waveasm.imm<255> -> !waveasm.psreg<3>, !waveasm.scc
  %subu:2 = waveasm.s_sub_u32 %m, %m : !waveasm.sreg, !waveasm.sreg -> !waveasm.sreg, !waveasm.scc

  // Compares (single SCC result) and s_cselect_b32.
  // CHECK-NEXT: %[[EQ:.*]] = waveasm.s_cmp_eq_u64 %[[P]], %[[P]] : !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2> -> !waveasm.scc{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.s_cmp_ge_i32 %[[S]], %[[C]] : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.scc{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.s_cmp_lt_u32 %[[M]], %[[S]] : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.scc{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.s_cselect_b32 %[[EQ]], %[[C]], %[[S]] : !waveasm.scc, !waveasm.imm<255>, !waveasm.psreg<2> -> !waveasm.sreg{{$}}
  // CHECK-NEXT: %{{.*}} = waveasm.s_cselect_b32 %scc_17, %[[M]], %[[C]] : !waveasm.scc, !waveasm.sreg, !waveasm.imm<255> -> !waveasm.psreg<4>
  %eq = waveasm.s_cmp_eq_u64 %p, %p : !waveasm.sreg<2, 2>, !waveasm.sreg<2, 2> -> !waveasm.scc
  %ge = waveasm.s_cmp_ge_i32 %s, %c : !waveasm.psreg<2>, !waveasm.imm<255> -> !waveasm.scc
  %lt = waveasm.s_cmp_lt_u32 %m, %s : !waveasm.sreg, !waveasm.psreg<2> -> !waveasm.scc
  %sel = waveasm.s_cselect_b32 %eq, %c, %s : !waveasm.scc, !waveasm.imm<255>, !waveasm.psreg<2> -> !waveasm.sreg
  %sel2 = waveasm.s_cselect_b32 %hi#1, %m, %c : !waveasm.scc, !waveasm.sreg, !waveasm.imm<255> -> !waveasm.psreg<4>
}
