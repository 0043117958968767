// waveasm-peephole: BufferLoadLDSSoffset (SPEC.md 18.4). The scalar shift of
// the IV in a direct-to-LDS voffset moves to the soffset as s_lshl_b32, in
// cases 1, 2 and 3 (seed 001: the shift hidden in a v_lshl_add_u32), with
// the lshl+add fusion keeping cases 1 and 2 visible.
// RUN: waveasm-opt --split-input-file --waveasm-peephole %s | FileCheck %s

// Case 1: voffset = row + (iv << 7). The fusion must not turn the add into
// v_lshl_add_u32 iv, 7, row first.
// CHECK-LABEL: waveasm.program @case1
// CHECK:       %[[ROW:.*]] = waveasm.precolored.vreg 1 :
// CHECK:       waveasm.loop (%[[IV:arg[0-9]+]] = %{{.*}})
// CHECK-NOT:   waveasm.v_lshl_add_u32
// CHECK-NOT:   waveasm.v_lshlrev_b32
// CHECK:       %[[SOFF:.*]], %{{.*}} = waveasm.s_lshl_b32 %[[IV]], %{{.*}} : !waveasm.sreg, !waveasm.imm<7> -> !waveasm.sreg, !waveasm.scc
// CHECK-NEXT:  waveasm.buffer_load_dword_lds %[[ROW]], %{{.*}}, %[[SOFF]] : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.sreg
// CHECK:       waveasm.s_cmp_lt_u32
waveasm.program @case1 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %row = waveasm.precolored.vreg 1 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%iv = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %shift = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %voff = waveasm.v_add_u32 %shift, %row : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %voff, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %next:2 = waveasm.s_add_u32 %iv, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// Case 2: voffset = row + (thread + (iv << 7)) -> voffset = thread + row.
// CHECK-LABEL: waveasm.program @case2
// CHECK-DAG:   %[[ROW:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[THREAD:.*]] = waveasm.precolored.vreg 2 :
// CHECK:       waveasm.loop (%[[IV:arg[0-9]+]] = %{{.*}})
// CHECK-NOT:   waveasm.v_lshl_add_u32
// CHECK:       %[[SOFF:.*]], %{{.*}} = waveasm.s_lshl_b32 %[[IV]], %{{.*}} : !waveasm.sreg, !waveasm.imm<7>
// CHECK-NEXT:  %[[V:.*]] = waveasm.v_add_u32 %[[THREAD]], %[[ROW]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.buffer_load_dwordx4_lds %[[V]], %{{.*}}, %[[SOFF]]
waveasm.program @case2 target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %row = waveasm.precolored.vreg 1 : !waveasm.vreg
  %thread = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%iv = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %shift = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %inner = waveasm.v_add_u32 %thread, %shift : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %voff = waveasm.v_add_u32 %row, %inner : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dwordx4_lds %voff, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %next:2 = waveasm.s_add_u32 %iv, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// Case 3, seed 001's shape: the VGPR shift v4 << 13 fuses with the scalar
// shift (the fusion's guard covers only SGPR-based shifts), which hides it
// inside v_lshl_add_u32; case 3 takes it back out. Also written directly in
// the fused form.
// CHECK-LABEL: waveasm.program @case3
// CHECK-DAG:   %[[BASE:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[V4:.*]] = waveasm.precolored.vreg 4 :
// CHECK-DAG:   %[[C13:.*]] = waveasm.constant 13 :
// CHECK:       waveasm.loop (%[[IV:arg[0-9]+]] = %{{.*}})
// CHECK:       %[[SOFF:.*]], %{{.*}} = waveasm.s_lshl_b32 %[[IV]], %{{.*}} : !waveasm.sreg, !waveasm.imm<7>
// CHECK-NEXT:  %[[Z:.*]] = waveasm.constant 0 :
// CHECK-NEXT:  %[[SH:.*]] = waveasm.v_lshl_add_u32 %[[V4]], %[[C13]], %[[Z]] : !waveasm.vreg, !waveasm.imm<13>, !waveasm.imm<0> -> !waveasm.vreg
// CHECK-NEXT:  %[[V:.*]] = waveasm.v_add_u32 %[[SH]], %[[BASE]] : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.buffer_load_dwordx4_lds %[[V]], %{{.*}}, %[[SOFF]]
// CHECK:       %[[SOFF2:.*]], %{{.*}} = waveasm.s_lshl_b32 %[[IV]], %{{.*}} : !waveasm.sreg, !waveasm.imm<6>
// CHECK-NEXT:  %[[Z2:.*]] = waveasm.constant 0 :
// CHECK-NEXT:  %[[SH2:.*]] = waveasm.v_lshl_add_u32 %[[V4]], %[[C13]], %[[Z2]]
// CHECK-NEXT:  %[[W:.*]] = waveasm.v_add_u32 %[[SH2]], %[[BASE]]
// CHECK-NEXT:  waveasm.buffer_load_dword_lds %[[W]], %{{.*}}, %[[SOFF2]]
// CHECK-NOT:   waveasm.v_lshlrev_b32
waveasm.program @case3 target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %base = waveasm.precolored.vreg 1 : !waveasm.vreg
  %v4 = waveasm.precolored.vreg 4 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c13 = waveasm.constant 13 : !waveasm.imm<13>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%iv = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %shift_iv = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %vshift = waveasm.v_lshlrev_b32 %c13, %v4 : !waveasm.imm<13>, !waveasm.vreg -> !waveasm.vreg
    %inner = waveasm.v_add_u32 %vshift, %shift_iv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %voff = waveasm.v_add_u32 %base, %inner : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dwordx4_lds %voff, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %shift6 = waveasm.v_lshlrev_b32 %c6, %iv : !waveasm.imm<6>, !waveasm.sreg -> !waveasm.vreg
    %fused = waveasm.v_lshl_add_u32 %v4, %c13, %shift6 : !waveasm.vreg, !waveasm.imm<13>, !waveasm.vreg -> !waveasm.vreg
    %voff2 = waveasm.v_add_u32 %fused, %base : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %voff2, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %next:2 = waveasm.s_add_u32 %iv, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// The VGPR shift is the whole voffset but for the scalar shift: upstream's
// fusion would make voffset = v_lshl_add_u32(v4, 13, iv << 7), a shape no
// case matches. Here the fusion waits and case 1 applies.
// CHECK-LABEL: waveasm.program @vgpr_shift_plus_scalar_shift
// CHECK-DAG:   %[[V4:.*]] = waveasm.precolored.vreg 4 :
// CHECK:       waveasm.loop (%[[IV:arg[0-9]+]] = %{{.*}})
// CHECK-NEXT:  %[[VSH:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %[[V4]] : !waveasm.imm<13>
// CHECK-NEXT:  %[[SOFF:.*]], %{{.*}} = waveasm.s_lshl_b32 %[[IV]]
// CHECK-NEXT:  waveasm.buffer_load_dwordx4_lds %[[VSH]], %{{.*}}, %[[SOFF]]
waveasm.program @vgpr_shift_plus_scalar_shift target = #waveasm.target<#waveasm.gfx950> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %v4 = waveasm.precolored.vreg 4 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c13 = waveasm.constant 13 : !waveasm.imm<13>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%iv = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %vshift = waveasm.v_lshlrev_b32 %c13, %v4 : !waveasm.imm<13>, !waveasm.vreg -> !waveasm.vreg
    %shift_iv = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %voff = waveasm.v_add_u32 %vshift, %shift_iv : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dwordx4_lds %voff, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %next:2 = waveasm.s_add_u32 %iv, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// Near misses: soffset not 0 (nothing to keep the shift for: it fuses); the
// shift has another use; a VGPR shift (not scalar: it fuses); the rest of
// the voffset would be an SGPR or an immediate (emitted in the instruction
// offset, which also moves the LDS destination); SCC live at the load (the
// s_cmp feeding the condition sits before it): the soffset rewrite is
// refused and the fusion still waits.
// CHECK-LABEL: waveasm.program @near_misses
// CHECK-NOT:   waveasm.s_lshl_b32
// CHECK:       waveasm.v_lshl_add_u32 %{{.*}} : !waveasm.sreg, !waveasm.imm<7>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.buffer_load_dword_lds {{.*}}, !waveasm.imm<4>
// CHECK-NEXT:  waveasm.v_lshlrev_b32
// CHECK-NEXT:  waveasm.v_add_u32
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.dce_protect
// CHECK-NEXT:  waveasm.v_lshl_add_u32 %{{.*}} : !waveasm.vreg, !waveasm.imm<7>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.v_lshlrev_b32
// CHECK-NEXT:  waveasm.v_add_u32 %{{.*}} : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.v_lshlrev_b32
// CHECK-NEXT:  waveasm.v_add_u32 %{{.*}} : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.s_add_u32
// CHECK-NEXT:  waveasm.s_cmp_lt_u32
// CHECK-NEXT:  waveasm.v_lshlrev_b32
// CHECK-NEXT:  waveasm.v_add_u32
// CHECK-NEXT:  waveasm.buffer_load_dword_lds
// CHECK-NEXT:  waveasm.condition
waveasm.program @near_misses target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %row = waveasm.precolored.vreg 1 : !waveasm.vreg
  %vrow = waveasm.precolored.vreg 2 : !waveasm.vreg
  %srow = waveasm.precolored.sreg 3 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%iv = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %s1 = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %v1 = waveasm.v_add_u32 %row, %s1 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %v1, %srd, %c4 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<4>
    %s2 = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %v2 = waveasm.v_add_u32 %row, %s2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %v2, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    waveasm.dce_protect %s2 : !waveasm.vreg
    %s3 = waveasm.v_lshlrev_b32 %c7, %vrow : !waveasm.imm<7>, !waveasm.vreg -> !waveasm.vreg
    %v3 = waveasm.v_add_u32 %row, %s3 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %v3, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %s4 = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %v4 = waveasm.v_add_u32 %srow, %s4 : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %v4, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %s6 = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %v6 = waveasm.v_add_u32 %c4, %s6 : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %v6, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    %next:2 = waveasm.s_add_u32 %iv, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    %s5 = waveasm.v_lshlrev_b32 %c7, %iv : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %v5 = waveasm.v_add_u32 %row, %s5 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    waveasm.buffer_load_dword_lds %v5, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
