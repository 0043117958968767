// Everything the emitter refuses, with its diagnostic.
// RUN: waveasm-opt --emit-assembly --split-input-file --verify-diagnostics %s

waveasm.program @virtual_operand target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %v = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<20>
  // The value is reported where it is read.
  %x = waveasm.v_add_u32 %v, %c1 : !waveasm.pvreg<20>, !waveasm.imm<1> -> !waveasm.vreg
  // expected-error @below {{'waveasm.v_add_u32' op operand #0 is not allocated: run --waveasm-linear-scan first}}
  %y = waveasm.v_add_u32 %x, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.pvreg<21>
  waveasm.s_endpgm
}

// -----

waveasm.program @virtual_result target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // expected-error @below {{'waveasm.s_mov_b32' op result #0 is not allocated: run --waveasm-linear-scan first}}
  %s = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  waveasm.s_endpgm
}

// -----

waveasm.program @virtual_iter_arg target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  // expected-error @below {{'waveasm.loop' op region iter_arg #0 is not allocated: run --waveasm-linear-scan first}}
  %r = waveasm.loop (%i = %s : !waveasm.psreg<8>) : (!waveasm.sreg) -> !waveasm.psreg<8> {
    %c = waveasm.s_cmp_eq_u32 %s, %s : !waveasm.psreg<8>, !waveasm.psreg<8> -> !waveasm.scc
    waveasm.condition %c : !waveasm.scc iter_args(%s) : !waveasm.psreg<8>
  }
  waveasm.s_endpgm
}

// -----

waveasm.program @arith target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %a = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  // expected-error @below {{waveasm.arith.add must be legalized before assembly emission}}
  %b = waveasm.arith.add %a, %a : (!waveasm.psreg<8>, !waveasm.psreg<8>) -> !waveasm.psreg<9>
  waveasm.s_endpgm
}

// -----

// s102-s105 pass the IR verifier but are not addressable with the default
// target id; the SGPR file overflows.
// expected-error @below {{kernel 'sgpr_overflow' exceeds hardware register limit: SGPRs: 105 used, 102 limit}}
// expected-note @below {{Register spilling is not supported; reduce register pressure (e.g., smaller tile sizes, fewer unrolled iterations).}}
waveasm.program @sgpr_overflow target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %s = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.psreg<104>
  waveasm.s_endpgm
}

// -----

waveasm.program @scratch_in_use target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 15 : !waveasm.pvreg<15>
  %c = waveasm.constant 100000 : !waveasm.imm<100000>
  // expected-error @below {{'waveasm.v_mul_lo_u32' op needs the scratch VGPR v15 to emit this instruction, but the program uses v15 (the register allocator reserves it for the emitter)}}
  %x = waveasm.v_mul_lo_u32 %v, %c : !waveasm.pvreg<15>, !waveasm.imm<100000> -> !waveasm.pvreg<15>
  waveasm.s_endpgm
}

// -----

waveasm.program @no_v_mad target = #waveasm.target<#waveasm.gfx950, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  // expected-error @below {{v_mad_f32 does not exist on gfx950 (CDNA removed it); use v_fma_f32, or v_mul_f32 + v_add_f32}}
  %x = waveasm.v_mad_f32 %v, %v, %v : !waveasm.pvreg<20>, !waveasm.pvreg<20>, !waveasm.pvreg<20> -> !waveasm.pvreg<21>
  waveasm.s_endpgm
}

// -----

waveasm.program @no_i8_k16 target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error @below {{v_mfma_i32_16x16x16_i8 does not exist on gfx942 (CDNA3 replaced it by v_mfma_i32_16x16x32_i8, which has twice the K depth)}}
  %x = waveasm.v_mfma_i32_16x16x16_i8 %v, %v, %c0 : !waveasm.pvreg<20>, !waveasm.pvreg<20>, !waveasm.imm<0> -> !waveasm.pareg<0, 4>
  waveasm.s_endpgm
}

// -----

waveasm.program @no_i8_k8 target = #waveasm.target<#waveasm.gfx950, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error @below {{v_mfma_i32_32x32x8_i8 does not exist on gfx950 (CDNA3 replaced it by v_mfma_i32_32x32x16_i8, which has twice the K depth)}}
  %x = waveasm.v_mfma_i32_32x32x8_i8 %v, %v, %c0 : !waveasm.pvreg<20>, !waveasm.pvreg<20>, !waveasm.imm<0> -> !waveasm.pareg<0, 16>
  waveasm.s_endpgm
}

// -----

waveasm.program @gfx950_mfma_on_gfx942 target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20, 4 : !waveasm.pvreg<20, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error @below {{v_mfma_f32_16x16x32_f16 does not exist on gfx942 (gfx950 only)}}
  %x = waveasm.v_mfma_f32_16x16x32_f16 %v, %v, %c0 : !waveasm.pvreg<20, 4>, !waveasm.pvreg<20, 4>, !waveasm.imm<0> -> !waveasm.pareg<0, 4>
  waveasm.s_endpgm
}

// -----

waveasm.program @scaled_on_gfx942 target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20, 4 : !waveasm.pvreg<20, 4>
  %s = waveasm.precolored.vreg 24 : !waveasm.pvreg<24>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error @below {{v_mfma_scale_f32_16x16x128_f8f6f4 does not exist on gfx942 (gfx950 only)}}
  %x = waveasm.v_mfma_scale_f32_16x16x128_f8f6f4 %v, %v, %c0, %s, %s : !waveasm.pvreg<20, 4>, !waveasm.pvreg<20, 4>, !waveasm.imm<0>, !waveasm.pvreg<24>, !waveasm.pvreg<24> -> !waveasm.pareg<0, 4>
  waveasm.s_endpgm
}

// -----

waveasm.program @lds_x4_on_gfx942 target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error @below {{buffer_load_dwordx4 ... lds does not exist on gfx942 (gfx950 only; use buffer_load_dword ... lds)}}
  waveasm.buffer_load_dwordx4_lds %v, %srd, %c0 : !waveasm.pvreg<20>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
}

// -----

waveasm.program @bf16_atomic_on_gfx942 target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  // expected-error @below {{buffer_atomic_pk_add_bf16 does not exist on gfx942 (gfx950 only)}}
  waveasm.buffer_atomic_pk_add_bf16 %v, %srd, %v : !waveasm.pvreg<20>, !waveasm.psreg<4, 4>, !waveasm.pvreg<20>
  waveasm.s_endpgm
}

// -----

waveasm.program @bf16_cvt_on_gfx942 target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  // expected-error @below {{v_cvt_bf16_f32 needs v_cvt_pk_bf16_f32, which gfx942 does not have (gfx950 only)}}
  %x = waveasm.v_cvt_bf16_f32 %v : !waveasm.pvreg<20> -> !waveasm.pvreg<21>
  waveasm.s_endpgm
}

// -----

waveasm.program @bf16_pk_cvt_on_gfx942 target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  // expected-error @below {{v_cvt_pk_bf16_f32 does not exist on gfx942 (gfx950 only)}}
  %y = waveasm.v_cvt_pk_bf16_f32 %v, %v : !waveasm.pvreg<20>, !waveasm.pvreg<20> -> !waveasm.pvreg<21>
  waveasm.s_endpgm
}

// -----

// expected-error @below {{assembly emission for gfx1250 is not supported: the emitter produces GFX9 (CDNA3/CDNA4) assembly}}
waveasm.program @gfx1250 target = #waveasm.target<#waveasm.gfx1250, 5> abi = #waveasm.abi<> {
  waveasm.s_endpgm
}

// -----

waveasm.program @scc_clobbered target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %r = waveasm.loop (%i = %s) : (!waveasm.psreg<8>) -> !waveasm.psreg<8> {
    %c = waveasm.s_cmp_lt_u32 %i, %c1 : !waveasm.psreg<8>, !waveasm.imm<1> -> !waveasm.scc
    // expected-note @below {{SCC is overwritten here}}
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.psreg<8>, !waveasm.imm<1> -> !waveasm.psreg<8>, !waveasm.scc
    // expected-error @below {{'waveasm.condition' op reads SCC written by 'waveasm.s_cmp_lt_u32', but 'waveasm.s_add_u32' overwrites SCC in between; keep the SCC producer next to its consumer}}
    waveasm.condition %c : !waveasm.scc iter_args(%n#0) : !waveasm.psreg<8>
  }
  waveasm.s_endpgm
}

// -----

waveasm.program @undefined_label target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  // expected-error @below {{'waveasm.s_cbranch_vccz' op branch target @L_nowhere is not a label of this program}}
  waveasm.s_cbranch_vccz @L_nowhere
  waveasm.s_endpgm
}

// -----

waveasm.program @duplicate_label target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  waveasm.label @L_twice
  // expected-error @below {{'waveasm.label' op label @L_twice is defined more than once in this program}}
  waveasm.label @L_twice
  waveasm.s_endpgm
}

// -----

waveasm.program @misaligned target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error @below {{'waveasm.buffer_load_dwordx2' op register tuple v[21:22] must start at an even register on gfx942}}
  %x = waveasm.buffer_load_dwordx2 %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<20>, !waveasm.imm<0> -> !waveasm.pvreg<21, 2>
  waveasm.s_endpgm
}

// -----

waveasm.program @misaligned_srd target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %srd = waveasm.precolored.sreg 2, 4 : !waveasm.psreg<2, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error @below {{'waveasm.buffer_load_dword' op SGPR tuple s[2:5] must start at a multiple of 4}}
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<2, 4>, !waveasm.pvreg<20>, !waveasm.imm<0> -> !waveasm.pvreg<21>
  waveasm.s_endpgm
}

// -----

waveasm.program @waitcnt_range target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  // expected-error @below {{'waveasm.s_waitcnt' op lgkmcnt(16) is outside 0..15 on gfx942}}
  waveasm.s_waitcnt lgkmcnt(16)
  waveasm.s_endpgm
}

// -----

waveasm.program @literal_64bit target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20, 2 : !waveasm.pvreg<20, 2>
  %c = waveasm.constant 1000 : !waveasm.imm<1000>
  // expected-error @below {{'waveasm.v_add_f64' op immediate 1000 is not an inline constant (-16..64); the 64-bit source #1 of v_add_f64 cannot take a literal}}
  %x = waveasm.v_add_f64 %v, %c : !waveasm.pvreg<20, 2>, !waveasm.imm<1000> -> !waveasm.pvreg<22, 2>
  waveasm.s_endpgm
}

// -----

waveasm.program @literal_too_wide target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %c = waveasm.constant 0x100000000 : !waveasm.imm<4294967296>
  // expected-error @below {{'waveasm.s_mov_b32' op immediate 4294967296 cannot be encoded as a 32-bit operand}}
  %x = waveasm.s_mov_b32 %c : !waveasm.imm<4294967296> -> !waveasm.psreg<8>
  waveasm.s_endpgm
}

// -----

waveasm.program @writelane_two_sgprs target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %s9 = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  // expected-error @below {{'waveasm.v_writelane_b32' op v_writelane_b32 reads two different SGPRs; the constant bus allows one}}
  %x = waveasm.v_writelane_b32 %s8, %s9, %v : !waveasm.psreg<8>, !waveasm.psreg<9>, !waveasm.pvreg<20> -> !waveasm.pvreg<20>
  waveasm.s_endpgm
}

// -----

waveasm.program @broadcast_acc target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20, 2 : !waveasm.pvreg<20, 2>
  %a = waveasm.precolored.areg 0 : !waveasm.pareg<0>
  // expected-error @below {{a 1-register accumulator (upstream's broadcast placeholder) has no assembly form; use an immediate 0 or a full accumulator}}
  %x = waveasm.v_mfma_f32_16x16x16_f16 %v, %v, %a : !waveasm.pvreg<20, 2>, !waveasm.pvreg<20, 2>, !waveasm.pareg<0> -> !waveasm.pareg<0, 4>
  waveasm.s_endpgm
}

// -----

waveasm.program @narrow_operand target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  %v = waveasm.precolored.vreg 20 : !waveasm.pvreg<20>
  // expected-error @below {{'waveasm.v_add_f64' op operand #0 must cover 2 registers, but v20 has 1}}
  %x = waveasm.v_add_f64 %v, %v : !waveasm.pvreg<20>, !waveasm.pvreg<20> -> !waveasm.pvreg<22, 2>
  waveasm.s_endpgm
}

// -----

// expected-error @below {{'waveasm.program' op abi places workgroup id x in s2, but the kernel descriptor puts it in s6 (after 6 user SGPRs)}}
waveasm.program @abi_mismatch target = #waveasm.target<#waveasm.gfx950, 5> abi = #waveasm.abi<wg_id_x = 2> {
  waveasm.s_endpgm
}

// -----

waveasm.program @setprio target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  // expected-error @below {{'waveasm.s_setprio' op s_setprio takes a priority 0..3, got 5}}
  waveasm.s_setprio 5
  waveasm.s_endpgm
}

// -----

waveasm.program @first target = #waveasm.target<#waveasm.gfx942, 5> abi = #waveasm.abi<> {
  waveasm.s_endpgm
}
// expected-error @below {{'waveasm.program' op targets gfx950, but the first program of the module targets gfx942; one assembly file has one target}}
waveasm.program @second target = #waveasm.target<#waveasm.gfx950, 5> abi = #waveasm.abi<> {
  waveasm.s_endpgm
}
