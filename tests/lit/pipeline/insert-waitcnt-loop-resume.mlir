// The wait walk iterates a loop body until the state at its head is
// stable. A later walk resumes the previous one where their states mean the
// same (checked at the body's 32nd top-level op, then the 64th, 128th, ...):
// here the second walk starts from the back edge's state (the prefetch of
// the previous iteration in flight), the ds_writes wait for it and the
// barrier for the LDS writes, so by the 32nd op nothing of the head is left
// and the rest of the body would be walked exactly as before. The waits are
// the ones full walks put, also after the loop, which reads the end state.
// RUN: waveasm-opt --waveasm-insert-waitcnt %s | FileCheck %s
// RUN: waveasm-opt --waveasm-insert-waitcnt --debug-only=waveasm-insert-waitcnt %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK

// CHECK-LABEL: waveasm.program @long_prefetch
// CHECK:           waveasm.loop
// CHECK-NEXT:      waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT:      waveasm.ds_write_b128 %arg1
// CHECK-NEXT:      waveasm.s_waitcnt_vmcnt 0
// CHECK-NEXT:      waveasm.ds_write_b128 %arg2
// CHECK-NEXT:      waveasm.s_waitcnt_lgkmcnt 0
// CHECK-NEXT:      waveasm.s_barrier
// CHECK-COUNT-40:  waveasm.v_add_u32
// CHECK-NEXT:      waveasm.s_add_u32
// CHECK-NEXT:      waveasm.buffer_load_dwordx4
// CHECK-NEXT:      waveasm.buffer_load_dwordx4
// CHECK-NEXT:      waveasm.s_cmp_lt_u32
// CHECK-NEXT:      waveasm.condition
// CHECK:           waveasm.s_waitcnt_vmcnt 1
// CHECK-NEXT:      waveasm.v_mov_b32 %{{.*}}#1
// WALK:     waveasm-insert-waitcnt: loop body resumes the previous walk at op 41
// WALK-NOT: resumes
waveasm.program @long_prefetch target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b0 = waveasm.buffer_load_dwordx4 %srd, %v0, %c0 offset : 16 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r:3 = waveasm.loop (%k = %k0, %a = %a0, %b = %b0)
      : (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) -> (!waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
    waveasm.ds_write_b128 %a, %v0 : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
    waveasm.ds_write_b128 %b, %v0 {offset = 1024 : i64} : !waveasm.vreg<4, 4>, !waveasm.pvreg<0>
    waveasm.s_barrier
    %u0 = waveasm.v_add_u32 %v0, %v0 : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
    %u1 = waveasm.v_add_u32 %u0, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u2 = waveasm.v_add_u32 %u1, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u3 = waveasm.v_add_u32 %u2, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u4 = waveasm.v_add_u32 %u3, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u5 = waveasm.v_add_u32 %u4, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u6 = waveasm.v_add_u32 %u5, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u7 = waveasm.v_add_u32 %u6, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u8 = waveasm.v_add_u32 %u7, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u9 = waveasm.v_add_u32 %u8, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u10 = waveasm.v_add_u32 %u9, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u11 = waveasm.v_add_u32 %u10, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u12 = waveasm.v_add_u32 %u11, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u13 = waveasm.v_add_u32 %u12, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u14 = waveasm.v_add_u32 %u13, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u15 = waveasm.v_add_u32 %u14, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u16 = waveasm.v_add_u32 %u15, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u17 = waveasm.v_add_u32 %u16, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u18 = waveasm.v_add_u32 %u17, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u19 = waveasm.v_add_u32 %u18, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u20 = waveasm.v_add_u32 %u19, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u21 = waveasm.v_add_u32 %u20, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u22 = waveasm.v_add_u32 %u21, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u23 = waveasm.v_add_u32 %u22, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u24 = waveasm.v_add_u32 %u23, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u25 = waveasm.v_add_u32 %u24, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u26 = waveasm.v_add_u32 %u25, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u27 = waveasm.v_add_u32 %u26, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u28 = waveasm.v_add_u32 %u27, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u29 = waveasm.v_add_u32 %u28, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u30 = waveasm.v_add_u32 %u29, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u31 = waveasm.v_add_u32 %u30, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u32 = waveasm.v_add_u32 %u31, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u33 = waveasm.v_add_u32 %u32, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u34 = waveasm.v_add_u32 %u33, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u35 = waveasm.v_add_u32 %u34, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u36 = waveasm.v_add_u32 %u35, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u37 = waveasm.v_add_u32 %u36, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u38 = waveasm.v_add_u32 %u37, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %u39 = waveasm.v_add_u32 %u38, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %an = waveasm.buffer_load_dwordx4 %srd, %v0, %kn#0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %bn = waveasm.buffer_load_dwordx4 %srd, %v0, %kn#0 offset : 16 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg<4, 4>
    %more = waveasm.s_cmp_lt_u32 %kn#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%kn#0, %an, %bn) : !waveasm.sreg, !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }
  %x = waveasm.v_mov_b32 %r#1 : !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.s_endpgm
}
