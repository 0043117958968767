// waveasm-m0-redundancy-elim (SPEC.md 19): an s_mov_b32_m0 of the value M0
// already holds is erased; ops with regions, labels and raw text forget
// M0, nested blocks start knowing nothing.
// RUN: waveasm-opt --split-input-file --waveasm-m0-redundancy-elim %s | FileCheck %s

// CHECK-LABEL: waveasm.program @straight_line
// CHECK:       waveasm.s_mov_b32_m0 %[[A:[^ ]+]] :
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.s_mov_b32_m0 %[[B:[^ ]+]] :
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.s_mov_b32_m0 %[[A]] :
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.s_mov_b32_m0 %[[C:[^ ]+]] : !waveasm.imm<0>
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.s_endpgm
waveasm.program @straight_line target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %v = waveasm.precolored.vreg 1 : !waveasm.vreg
  %a = waveasm.precolored.sreg 4 : !waveasm.sreg
  %b = waveasm.precolored.sreg 5 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %b : !waveasm.sreg
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_mov_b32_m0 %c0 : !waveasm.imm<0>
  waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
}

// -----

// A loop: the write after it stays (reset at ops with regions), the first
// write of the body stays (the body starts knowing nothing), the repeated
// one in the body goes. Same for the branches of an if.
// CHECK-LABEL: waveasm.program @regions
// CHECK:       waveasm.s_mov_b32_m0 %[[A:[^ ]+]] :
// CHECK:       waveasm.loop
// CHECK-NEXT:  waveasm.s_mov_b32_m0 %[[A]] :
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NOT:   waveasm.s_mov_b32_m0
// CHECK:       waveasm.condition
// CHECK:       waveasm.s_mov_b32_m0 %[[A]] :
// CHECK:       waveasm.if
// CHECK-NEXT:  waveasm.s_mov_b32_m0 %[[A]] :
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.yield
// CHECK-NEXT:  } else {
// CHECK-NEXT:  waveasm.s_mov_b32_m0 %[[A]] :
// CHECK-NEXT:  waveasm.yield
// CHECK:       waveasm.s_mov_b32_m0 %[[A]] :
// CHECK-NEXT:  waveasm.s_endpgm
waveasm.program @regions target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %v = waveasm.precolored.vreg 1 : !waveasm.vreg
  %a = waveasm.precolored.sreg 4 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    waveasm.s_mov_b32_m0 %a : !waveasm.sreg
    waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    waveasm.s_mov_b32_m0 %a : !waveasm.sreg
    waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  %cond = waveasm.s_cmp_eq_u32 %r, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
  waveasm.if %cond {
    waveasm.s_mov_b32_m0 %a : !waveasm.sreg
    waveasm.buffer_load_dword_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    waveasm.yield
  } else {
    waveasm.s_mov_b32_m0 %a : !waveasm.sreg
    waveasm.yield
  }
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.s_endpgm
}

// -----

// A label (a branch may arrive with another M0) and raw text (which may
// write M0) forget M0. Upstream would erase both repeated writes.
// CHECK-LABEL: waveasm.program @opaque
// CHECK-COUNT-3: waveasm.s_mov_b32_m0
// CHECK-NOT:   waveasm.s_mov_b32_m0
waveasm.program @opaque target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %a = waveasm.precolored.sreg 4 : !waveasm.sreg
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.label @again
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.raw "s_mov_b32 m0, 0"
  waveasm.s_mov_b32_m0 %a : !waveasm.sreg
  waveasm.s_endpgm
}
