// MFMA verifier: accumulator and result register counts must match the shape.
// RUN: waveasm-opt %s --split-input-file --verify-diagnostics

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %acc = waveasm.precolored.vreg 16, 16 : !waveasm.vreg<16, 4>
  // expected-error@+1 {{'waveasm.v_mfma_f32_16x16x16_f16' op accumulator size mismatch: expected 4 registers but got 16 for waveasm.v_mfma_f32_16x16x16_f16}}
  %d = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<16, 4> -> !waveasm.vreg<16, 4>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 2, 2 : !waveasm.vreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.v_mfma_f32_16x16x16_f16' op result size mismatch: expected 4 registers but got 16 for waveasm.v_mfma_f32_16x16x16_f16}}
  %d = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %c0
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
}

// -----

// An AGPR accumulator of the wrong width.
waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 0 : !waveasm.vreg
  %acc = waveasm.precolored.areg 0, 4 : !waveasm.pareg<0, 4>
  // expected-error@+1 {{'waveasm.v_mfma_i32_32x32x8_i8' op accumulator size mismatch: expected 16 registers but got 4 for waveasm.v_mfma_i32_32x32x8_i8}}
  %d = waveasm.v_mfma_i32_32x32x8_i8 %a, %a, %acc
      : !waveasm.vreg, !waveasm.vreg, !waveasm.pareg<0, 4> -> !waveasm.areg<16, 4>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 0, 2 : !waveasm.vreg<2, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.v_mfma_f64_16x16x4_f64' op result size mismatch: expected 8 registers but got 4 for waveasm.v_mfma_f64_16x16x4_f64}}
  %d = waveasm.v_mfma_f64_16x16x4_f64 %a, %a, %c0
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
}

// -----

waveasm.program @k target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.vreg 0 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+1 {{'waveasm.v_mfma_i32_32x32x4_i8' op result size mismatch: expected 32 registers but got 16 for waveasm.v_mfma_i32_32x32x4_i8}}
  %d = waveasm.v_mfma_i32_32x32x4_i8 %a, %a, %c0
      : !waveasm.vreg, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<16, 4>
}

// -----

// Scaled MFMA: same rule.
waveasm.program @k target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %b = waveasm.precolored.vreg 8, 8 : !waveasm.vreg<8, 4>
  %s = waveasm.precolored.vreg 0 : !waveasm.vreg
  %acc = waveasm.precolored.vreg 16, 4 : !waveasm.vreg<4, 4>
  // expected-error@+1 {{'waveasm.v_mfma_scale_f32_32x32x64_f8f6f4' op accumulator size mismatch: expected 16 registers but got 4 for waveasm.v_mfma_scale_f32_32x32x64_f8f6f4}}
  %d = waveasm.v_mfma_scale_f32_32x32x64_f8f6f4 %b, %b, %acc, %s, %s {cbsz = 4 : i32, blgp = 4 : i32}
      : !waveasm.vreg<8, 4>, !waveasm.vreg<8, 4>, !waveasm.vreg<4, 4>, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg<16, 4>
}
