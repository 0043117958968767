// Constructs the allocator cannot handle are diagnosed, not crashed on:
// upstream's messages for multi-word and AGPR inserts, and packs whose
// registers cannot be assigned one class or do not fit.
// RUN: waveasm-opt --waveasm-linear-scan --split-input-file --verify-diagnostics %s

waveasm.program @multi_word_insert target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %q = waveasm.buffer_load_dwordx4 %srd, %tid, %c0 : !waveasm.psreg<0, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %p = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  // expected-error@+1 {{'waveasm.insert' op multi-word insert is not yet supported}}
  %r = waveasm.insert %p into %q[2] : !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %r, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

waveasm.program @agpr_insert target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %acc = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.areg<4, 4>
  %one = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.areg
  // expected-error@+1 {{'waveasm.insert' op insert with AGPR operands is not yet supported}}
  %r = waveasm.insert %one into %acc[1] : !waveasm.areg, !waveasm.areg<4, 4> -> !waveasm.areg<4, 4>
  %v = waveasm.v_accvgpr_read_b32 %r : !waveasm.areg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.ds_write_b128 %v, %c0 : !waveasm.vreg<4, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
}

// -----

waveasm.program @mixed_pack target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %s = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  // expected-error@+1 {{'waveasm.pack' op cannot determine the register class of operand #0 in the pack: it is '!waveasm.sreg' but the packed registers are '!waveasm.vreg<2, 2>'}}
  %p = waveasm.pack %s, %v : (!waveasm.sreg, !waveasm.vreg) -> !waveasm.vreg<2, 2>
  waveasm.ds_write_b64 %p, %tid : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

waveasm.program @overfull_pack target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %a = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %b = waveasm.ds_read_b64 %tid : !waveasm.pvreg<0> -> !waveasm.vreg<2, 2>
  // expected-error@+1 {{'waveasm.pack' op operands cover 3 registers but the result '!waveasm.vreg<2, 2>' has only 2}}
  %p = waveasm.pack %a, %b : (!waveasm.vreg, !waveasm.vreg<2, 2>) -> !waveasm.vreg<2, 2>
  waveasm.ds_write_b64 %p, %tid : !waveasm.vreg<2, 2>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}
