// No spilling: when a register class runs out, the error points at the op
// where pressure peaks (not at the value that happened to fail first), says
// how many registers the kernel needs, and lists what is live there.
// RUN: waveasm-opt --waveasm-linear-scan="max-vgprs=10" --split-input-file --verify-diagnostics %s
// With the default 256 VGPRs only the SGPR and AGPR programs fail.
// RUN: not waveasm-opt --waveasm-linear-scan %s --split-input-file 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-NOT: error: Failed to allocate VGPR
// DEFAULT: error: Failed to allocate SGPR
// DEFAULT-NOT: error: Failed to allocate VGPR
// DEFAULT: error: Failed to allocate AGPR
// DEFAULT-NOT: error: Failed to allocate VGPR

// The first value that cannot be placed is %b (4-aligned quads: v[4:7] for
// %a, v[8:11] is beyond v9), but the pressure is highest at %d:
// v0 + 4 + 4 + 4 + 1 = 14.
waveasm.program @peak_after_first_failure target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %b = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %c = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  // expected-error@+3 {{Failed to allocate VGPR: kernel requires 14 but only 10 are available}}
  // expected-note@+2 {{VGPRs live here: 14 = 1 reserved (precolored values) + 13 in 4 values: %3 : !waveasm.vreg<4, 4> (4 regs), %4 : !waveasm.vreg<4, 4> (4 regs), %5 : !waveasm.vreg<4, 4> (4 regs), %6 : !waveasm.vreg (1 reg)}}
  // expected-note@+1 {{Register spilling is not supported; reduce register pressure (e.g., smaller tile sizes, fewer unrolled iterations).}}
  %d = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  waveasm.buffer_store_dwordx4 %a, %srd, %d : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %b, %srd, %d : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.buffer_store_dwordx4 %c, %srd, %d : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Loop-carried accumulators are live across the whole body; the peak is at
// the fragment read inside the loop. Block arguments are listed by name.
waveasm.program @loop_peak target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %z0 = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %z1 = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %r:2 = waveasm.loop (%a0 = %z0, %a1 = %z1) : (!waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) -> (!waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>) {
    // expected-error@+3 {{Failed to allocate VGPR: kernel requires 11 but only 10 are available}}
    // expected-note@+2 {{VGPRs live here: 11 = 1 reserved (precolored values) + 10 in 3 values: %arg0 : !waveasm.vreg<4, 4> (4 regs), %arg1 : !waveasm.vreg<4, 4> (4 regs), %8 : !waveasm.vreg<2, 2> (2 regs)}}
    // expected-note@+1 {{Register spilling is not supported}}
    %f = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
    %n0 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %a0 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %n1 = waveasm.v_mfma_f32_16x16x16_f16 %f, %f, %a1 : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    %go = waveasm.s_cmp_lt_u32 %s, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n0, %n1) : !waveasm.vreg<4, 4>, !waveasm.vreg<4, 4>
  }
  waveasm.buffer_store_dwordx4 %r#0, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %r#1, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// Enough registers in total (v0 + 8 = 9 of 10) but no 8-aligned range of 8
// is free: the note says so.
waveasm.program @fragmented target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+4 {{Failed to allocate VGPR: kernel requires 9 but only 10 are available}}
  // expected-note@+3 {{VGPRs live here: 9 = 1 reserved (precolored values) + 8 in 1 values: %3 : !waveasm.vreg<8, 8> (8 regs)}}
  // expected-note@+2 {{no 8-aligned range of 8 free VGPRs was left}}
  // expected-note@+1 {{Register spilling is not supported}}
  %w = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<8, 8>
  %lo = waveasm.extract %w[0] : !waveasm.vreg<8, 8> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %lo, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// SGPRs: scalar_sgpr_base/count keep all 102 allocatable SGPRs reserved.
waveasm.program @sgprs target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<>
    attributes {scalar_sgpr_base = 0 : i64, scalar_sgpr_count = 102 : i64} {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  // expected-error@+3 {{Failed to allocate SGPR: kernel requires 103 but only 102 are available}}
  // expected-note@+2 {{SGPRs live here: 103 = 102 reserved (precolored values, scalar_sgpr_base/count) + 1 in 1 values: %1 : !waveasm.sreg (1 reg)}}
  // expected-note@+1 {{Register spilling is not supported}}
  %s = waveasm.s_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.sreg
  waveasm.s_mov_b32_m0 %s : !waveasm.sreg
  waveasm.s_endpgm
}

// -----

// AGPRs: gfx1250 has none.
waveasm.program @agprs target = #waveasm.target<#waveasm.gfx1250> abi = #waveasm.abi<> {
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // expected-error@+3 {{Failed to allocate AGPR: kernel requires 4 but only 0 are available}}
  // expected-note@+2 {{AGPRs live here: 4 = 0 reserved (precolored values) + 4 in 1 values: %1 : !waveasm.areg<4, 4> (4 regs)}}
  // expected-note@+1 {{Register spilling is not supported}}
  %z = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.areg<4, 4>
  %v = waveasm.v_accvgpr_read_b32 %z : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %v, %c0 : !waveasm.vreg<4, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
}
