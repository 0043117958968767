// Control flow and synchronization: loops (init copies, back-edge copies with
// VGPR and SGPR swaps, AGPRs, _iterArgPhysRegs, result copies), if/else with
// results and an SGPR condition, labels inside regions, all branch forms,
// comments, raw text, s_waitcnt forms, s_nop splitting, s_sched_barrier.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

waveasm.program @cf target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %s9 = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %n = waveasm.precolored.sreg 10 : !waveasm.psreg<10>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c1000 = waveasm.constant 1000 : !waveasm.imm<1000>
  %x = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pvreg<20>
  %y = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<21>
  %acc = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.pareg<0, 2>
  // Init registers differ from the block arguments: copies before the label.
  // The body swaps two VGPRs and two SGPRs (double buffering), and the AGPR
  // pair is carried in place.
  %r:5 = waveasm.loop (%i = %s8 : !waveasm.psreg<8>, %p = %x : !waveasm.pvreg<20>, %q = %y : !waveasm.pvreg<21>, %sa = %s9 : !waveasm.psreg<9>, %a = %acc)
      : (!waveasm.psreg<12>, !waveasm.pvreg<22>, !waveasm.pvreg<23>, !waveasm.psreg<13>, !waveasm.pareg<0, 2>)
      -> (!waveasm.psreg<12>, !waveasm.pvreg<22>, !waveasm.pvreg<23>, !waveasm.psreg<24>, !waveasm.pareg<0, 2>) {
    %t = waveasm.v_add_u32 %p, %c1000 : !waveasm.pvreg<22>, !waveasm.imm<1000> -> !waveasm.pvreg<22>
    waveasm.label @L_inner
    %nx:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.psreg<12>, !waveasm.imm<1> -> !waveasm.psreg<12>, !waveasm.scc
    %cc = waveasm.s_cmp_lt_u32 %nx#0, %n : !waveasm.psreg<12>, !waveasm.psreg<10> -> !waveasm.scc
    waveasm.s_waitcnt lgkmcnt(0)
    waveasm.condition %cc : !waveasm.scc iter_args(%nx#0, %q, %t, %s8, %a) : !waveasm.psreg<12>, !waveasm.pvreg<23>, !waveasm.pvreg<22>, !waveasm.psreg<8>, !waveasm.pareg<0, 2>
  }
  // SGPR double buffer: the swap needs a free SGPR (above everything used).
  // The VGPR iter_arg is typed like its block argument, but upstream's
  // allocator recorded that it really lives in v41 (_iterArgPhysRegs).
  %sw:3 = waveasm.loop (%ra = %s8 : !waveasm.psreg<8>, %rb = %s9 : !waveasm.psreg<9>, %rv = %v0 : !waveasm.pvreg<0>)
      : (!waveasm.psreg<14>, !waveasm.psreg<15>, !waveasm.pvreg<40>) -> (!waveasm.psreg<14>, !waveasm.psreg<15>, !waveasm.pvreg<40>) {
    %w41 = waveasm.v_add_u32 %rv, %c1 : !waveasm.pvreg<40>, !waveasm.imm<1> -> !waveasm.pvreg<41>
    %k = waveasm.s_cmp_ne_u32 %ra, %n : !waveasm.psreg<14>, !waveasm.psreg<10> -> !waveasm.scc
    waveasm.condition %k : !waveasm.scc iter_args(%rb, %ra, %rv) : !waveasm.psreg<15>, !waveasm.psreg<14>, !waveasm.pvreg<40> {_iterArgPhysRegs = array<i64: 15, 14, 41>}
  }
  // Same literal after the loop: v15 is reloaded (the label joined paths).
  %u = waveasm.v_mul_lo_u32 %v0, %c1000 : !waveasm.pvreg<0>, !waveasm.imm<1000> -> !waveasm.pvreg<30>
  // if/else with results; an SGPR condition is tested with s_cmp_lg.
  %f = waveasm.if %s9 : !waveasm.psreg<9> -> !waveasm.pvreg<31> {
    %w = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<32>
    waveasm.yield %w : !waveasm.pvreg<32>
  } else {
    waveasm.comment "else branch"
    waveasm.yield %v0 : !waveasm.pvreg<0>
  }
  %cmp = waveasm.s_cmp_eq_u32 %s8, %c0 : !waveasm.psreg<8>, !waveasm.imm<0> -> !waveasm.scc
  waveasm.if %cmp {
    waveasm.raw "s_nop 1"
    waveasm.s_branch @L_inner
    waveasm.yield
  }
  waveasm.s_cbranch_vccnz @L_done
  waveasm.s_cbranch_execz @L_done
  waveasm.s_waitcnt
  waveasm.s_waitcnt vmcnt(3) lgkmcnt(1) expcnt(2)
  waveasm.s_waitcnt_vmcnt 7
  waveasm.s_waitcnt_lgkmcnt 0
  waveasm.s_waitcnt_expcnt 1
  waveasm.s_nop 20
  waveasm.s_setprio 3
  waveasm.s_sched_barrier 8
  waveasm.s_barrier
  waveasm.label @L_done
  waveasm.s_endpgm
}

// CHECK-LABEL: {{^}}cf:
// CHECK-NEXT: v_mov_b32 v20, 0
// CHECK-NEXT: v_mov_b32 v21, 1
// CHECK-NEXT: v_accvgpr_write_b32 a0, 0
// CHECK-NEXT: v_accvgpr_write_b32 a1, 0
// CHECK-NEXT: s_mov_b32 s12, s8
// CHECK-NEXT: v_mov_b32 v22, v20
// CHECK-NEXT: v_mov_b32 v23, v21
// CHECK-NEXT: s_mov_b32 s13, s9
// CHECK-NEXT: {{^}}L_loop_0:
// CHECK-NEXT: v_add_u32 v22, 1000, v22
// CHECK-NEXT: {{^}}L_inner:
// CHECK-NEXT: s_add_u32 s12, s12, 1
// CHECK-NEXT: s_cmp_lt_u32 s12, s10
// CHECK-NEXT: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: s_mov_b32 s13, s8
// CHECK-NEXT: v_mov_b32 v15, v22
// CHECK-NEXT: v_mov_b32 v22, v23
// CHECK-NEXT: v_mov_b32 v23, v15
// CHECK-NEXT: s_cbranch_scc1 L_loop_0
// CHECK-NEXT: s_mov_b32 s24, s13
// CHECK-NEXT: s_mov_b32 s14, s8
// CHECK-NEXT: s_mov_b32 s15, s9
// CHECK-NEXT: v_mov_b32 v40, v0
// CHECK-NEXT: {{^}}L_loop_1:
// CHECK-NEXT: v_add_u32 v41, v40, 1
// CHECK-NEXT: s_cmp_lg_u32 s14, s10
// CHECK-NEXT: v_mov_b32 v40, v41
// CHECK-NEXT: s_mov_b32 s25, s14
// CHECK-NEXT: s_mov_b32 s14, s15
// CHECK-NEXT: s_mov_b32 s15, s25
// CHECK-NEXT: s_cbranch_scc1 L_loop_1
// CHECK-NEXT: v_mov_b32 v15, 1000
// CHECK-NEXT: v_mul_lo_u32 v30, v0, v15
// CHECK-NEXT: s_cmp_lg_u32 s9, 0
// CHECK-NEXT: s_cbranch_scc0 L_if_else_2
// CHECK-NEXT: v_mov_b32 v32, 1
// CHECK-NEXT: v_mov_b32 v31, v32
// CHECK-NEXT: s_branch L_if_end_2
// CHECK-NEXT: {{^}}L_if_else_2:
// CHECK-NEXT: ; else branch
// CHECK-NEXT: v_mov_b32 v31, v0
// CHECK-NEXT: {{^}}L_if_end_2:
// CHECK-NEXT: s_cmp_eq_u32 s8, 0
// CHECK-NEXT: s_cbranch_scc0 L_if_end_3
// CHECK-NEXT: s_nop 1
// CHECK-NEXT: s_branch L_inner
// CHECK-NEXT: {{^}}L_if_end_3:
// CHECK-NEXT: s_cbranch_vccnz L_done
// CHECK-NEXT: s_cbranch_execz L_done
// CHECK-NEXT: s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
// CHECK-NEXT: s_waitcnt vmcnt(3) expcnt(2) lgkmcnt(1)
// CHECK-NEXT: s_waitcnt vmcnt(7)
// CHECK-NEXT: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: s_waitcnt expcnt(1)
// CHECK-NEXT: s_nop 15
// CHECK-NEXT: s_nop 4
// CHECK-NEXT: s_setprio 3
// CHECK-NEXT: ; sched_barrier mask(0x00000008)
// CHECK-NEXT: s_barrier
// CHECK-NEXT: {{^}}L_done:
// CHECK-NEXT: s_endpgm
