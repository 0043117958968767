// The `target` option only stands in for a program without a target (every
// program has one, so the program's target decides), but an invalid value is
// an error with upstream's message.
// RUN: not waveasm-opt --waveasm-hazard-mitigation=target=gfx90a %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: waveasm-opt --waveasm-hazard-mitigation=target=gfx950 %s | FileCheck %s
// RUN: waveasm-opt --waveasm-hazard-mitigation=target=gfx1250 %s | FileCheck %s

// BAD: error: Invalid target architecture: 'gfx90a'. Supported targets: gfx942, gfx950, gfx1250

// The gfx942 program gets gfx942's MFMA read latency (8 wait states for 4
// passes; gfx1250, which has no MFMA hazard rule, would give none) whatever
// the option says.
// CHECK-LABEL: waveasm.program @mfma
// CHECK:      waveasm.v_mfma_f32_16x16x16_f16
// CHECK-NEXT: waveasm.s_nop 7
// CHECK-NEXT: waveasm.v_mov_b32
waveasm.program @mfma target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %ab = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %ab, %ab, %c0 : !waveasm.pvreg<2, 2>, !waveasm.pvreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %m = waveasm.v_mov_b32 %d : !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.s_endpgm
}
