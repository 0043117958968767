// waveasm-vgpr-compaction leaves a program unchanged when it must not touch
// it, and says why under --debug-only=waveasm-vgpr-compaction.
// RUN: waveasm-opt --waveasm-vgpr-compaction %s | FileCheck %s
// RUN: waveasm-opt --waveasm-vgpr-compaction --debug-only=waveasm-vgpr-compaction --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG

// Not allocated yet: unchanged.
// LOG: waveasm-vgpr-compaction: @virtual: left unchanged: it has virtual VGPRs (run --waveasm-linear-scan first)
// CHECK-LABEL: waveasm.program @virtual
// CHECK: -> !waveasm.pvreg<40>
waveasm.program @virtual target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<40>
  %b = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg
  waveasm.dce_protect %a : !waveasm.pvreg<40>
  waveasm.dce_protect %b : !waveasm.vreg
  waveasm.s_endpgm
}

// Raw text that names a VGPR could read any value: unchanged.
// LOG: waveasm-vgpr-compaction: @raw: left unchanged: raw text names VGPRs: "v_mov_b32 v1, v40"
// CHECK-LABEL: waveasm.program @raw
// CHECK: -> !waveasm.pvreg<40>
waveasm.program @raw target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<40>
  waveasm.raw "v_mov_b32 v1, v40"
  waveasm.dce_protect %a : !waveasm.pvreg<40>
  waveasm.s_endpgm
}

// A loop result in other registers than its block argument (the allocator
// never does that; the emitter would copy): unchanged.
// LOG: waveasm-vgpr-compaction: @result_apart: left unchanged: a loop result is not in its block argument's registers
// CHECK-LABEL: waveasm.program @result_apart
// CHECK: -> !waveasm.pvreg<40>
waveasm.program @result_apart target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<40>
  %r = waveasm.loop (%x = %a) : (!waveasm.pvreg<40>) -> !waveasm.pvreg<41> {
    %go = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%x) : !waveasm.pvreg<40>
  }
  waveasm.dce_protect %r : !waveasm.pvreg<41>
  waveasm.s_endpgm
}

// `_iterArgPhysRegs` naming another register than the iter_arg's type
// (upstream's emitter copies from it): unchanged.
// LOG: waveasm-vgpr-compaction: @iter_regs: left unchanged: _iterArgPhysRegs names a VGPR other than its iter_arg's
// CHECK-LABEL: waveasm.program @iter_regs
// CHECK: -> !waveasm.pvreg<40>
waveasm.program @iter_regs target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %s = waveasm.precolored.sreg 2 : !waveasm.psreg<2>
  %a = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.pvreg<40>
  %r = waveasm.loop (%x = %a) : (!waveasm.pvreg<40>) -> !waveasm.pvreg<40> {
    %go = waveasm.s_cmp_lt_u32 %s, %c1 : !waveasm.psreg<2>, !waveasm.imm<1> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%x) : !waveasm.pvreg<40> {_iterArgPhysRegs = array<i64: 42>}
  }
  waveasm.dce_protect %r : !waveasm.pvreg<40>
  waveasm.s_endpgm
}

// No VGPRs at all.
// LOG: waveasm-vgpr-compaction: @scalar: left unchanged: it has no VGPR values
waveasm.program @scalar target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  waveasm.s_endpgm
}
