// The register-file overflow check (SPEC.md 17.7). The IR verifier already
// rejects VGPR/AGPR indices past 255, so it is skipped here to reach the
// emitter's own check.
// RUN: waveasm-opt --mlir-very-unsafe-disable-verifier-on-parsing --emit-assembly --split-input-file --verify-diagnostics %s

// expected-error @below {{kernel 'vgprs' exceeds hardware register limit: VGPRs: 301 used, 256 limit}}
// expected-note @below {{Register spilling is not supported}}
waveasm.program @vgprs target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %v = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<300>
  waveasm.s_endpgm
}

// -----

// expected-error @below {{kernel 'both' exceeds hardware register limit: VGPRs: 260 used, 256 limit; AGPRs: 264 used, 256 limit; VGPRs+AGPRs: 524 used, 512 limit}}
// expected-note @below {{Register spilling is not supported}}
waveasm.program @both target = #waveasm.target<#waveasm.gfx950, 5> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %v = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<258, 2>
  %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pareg<260, 4>
  waveasm.s_endpgm
}
