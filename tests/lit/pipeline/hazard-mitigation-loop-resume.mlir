// The hazard walk iterates a loop body until the state at its head is
// stable. Its second walk resumes the first where their states agree: more
// than the largest wait (21 wait states) into the body the records the head
// brought are all too old to matter, so the rest of the body would be walked
// exactly as before, and the first walk's end state, moved to the second
// walk's clock, stands for it. The nops are the ones full walks put: the
// back edge's (the transcendental result read at the top), the one in the
// resumed part (a VALU result read by v_readfirstlane) and the one after the
// loop, which reads the end state (the loop result is the transcendental
// result of the body's last instruction).
// RUN: waveasm-opt --waveasm-hazard-mitigation %s | FileCheck %s
// RUN: waveasm-opt --waveasm-hazard-mitigation --debug-only=waveasm-hazard-mitigation %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK

// CHECK-LABEL: waveasm.program @long_body
// CHECK:           waveasm.loop
// CHECK-NEXT:      waveasm.s_nop 0
// CHECK-NEXT:      waveasm.v_add_f32 %arg0
// CHECK-COUNT-31:  waveasm.v_add_u32
// CHECK-NEXT:      waveasm.s_nop 0
// CHECK-NEXT:      waveasm.v_readfirstlane_b32
// CHECK-NEXT:      waveasm.v_exp_f32
// CHECK-NEXT:      waveasm.condition
// CHECK:           waveasm.s_nop 0
// CHECK-NEXT:      waveasm.v_add_f32
// CHECK-NEXT:      waveasm.s_endpgm
// WALK:     waveasm-hazard-mitigation: loop body resumes the previous walk at op 26
// WALK-NOT: resumes
waveasm.program @long_body target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %s = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %x0 = waveasm.v_mov_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %r = waveasm.loop (%x = %x0) : (!waveasm.vreg) -> !waveasm.vreg {
    %a0 = waveasm.v_add_f32 %x, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a1 = waveasm.v_add_u32 %a0, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a2 = waveasm.v_add_u32 %a1, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a3 = waveasm.v_add_u32 %a2, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a4 = waveasm.v_add_u32 %a3, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a5 = waveasm.v_add_u32 %a4, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a6 = waveasm.v_add_u32 %a5, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a7 = waveasm.v_add_u32 %a6, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a8 = waveasm.v_add_u32 %a7, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a9 = waveasm.v_add_u32 %a8, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a10 = waveasm.v_add_u32 %a9, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a11 = waveasm.v_add_u32 %a10, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a12 = waveasm.v_add_u32 %a11, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a13 = waveasm.v_add_u32 %a12, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a14 = waveasm.v_add_u32 %a13, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a15 = waveasm.v_add_u32 %a14, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a16 = waveasm.v_add_u32 %a15, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a17 = waveasm.v_add_u32 %a16, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a18 = waveasm.v_add_u32 %a17, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a19 = waveasm.v_add_u32 %a18, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a20 = waveasm.v_add_u32 %a19, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a21 = waveasm.v_add_u32 %a20, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a22 = waveasm.v_add_u32 %a21, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a23 = waveasm.v_add_u32 %a22, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a24 = waveasm.v_add_u32 %a23, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a25 = waveasm.v_add_u32 %a24, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a26 = waveasm.v_add_u32 %a25, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a27 = waveasm.v_add_u32 %a26, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a28 = waveasm.v_add_u32 %a27, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a29 = waveasm.v_add_u32 %a28, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a30 = waveasm.v_add_u32 %a29, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %a31 = waveasm.v_add_u32 %a30, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %f = waveasm.v_readfirstlane_b32 %a31 : !waveasm.vreg -> !waveasm.sreg
    %e = waveasm.v_exp_f32 %a31 : !waveasm.vreg -> !waveasm.vreg
    waveasm.condition %s : !waveasm.psreg<9> iter_args(%e) : !waveasm.vreg
  }
  %after = waveasm.v_add_f32 %r, %v0 : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.s_endpgm
}
