// waveasm-memory-offset-opt leaves addresses it cannot improve
// byte-identical: no constant addend; a direct-to-LDS load (its instruction
// offset also moves the LDS destination); ds_read2 (element offsets); an
// SGPR base; or-ing bits that may overlap; two SGPRs that would share a
// VGPR op; an allocated address; a constant that does not fit and already
// is `v_add_u32 K, base`.
// RUN: waveasm-opt %s -o %t.before
// RUN: waveasm-opt --waveasm-memory-offset-opt %s -o %t.after
// RUN: diff %t.before %t.after
// RUN: waveasm-opt --waveasm-memory-offset-opt --debug-only=waveasm-memory-offset-opt %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: 'waveasm.ds_read_b32' at {{.*}}: no constant addend
// CHECK: 'waveasm.ds_read_b32' at {{.*}}: without the constant the address is an SGPR
// CHECK: 'waveasm.ds_read_b32' at {{.*}}: no constant addend
// CHECK: 'waveasm.ds_read_b32' at {{.*}}: no constant addend
// CHECK: 'waveasm.buffer_load_dword' at {{.*}}: the address is not a virtual VGPR
// CHECK: 'waveasm.buffer_load_dword' at {{.*}}: the constant does not fit the offset field and the address is already `v_add_u32 K, base`
// CHECK: @unchanged: 0 offsets folded, 0 v_add_u32 K, base, 0 address ops rebuilt
waveasm.program @unchanged target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %p = waveasm.precolored.vreg 3 : !waveasm.pvreg<3>
  %s = waveasm.precolored.sreg 4 : !waveasm.sreg
  %t = waveasm.precolored.sreg 5 : !waveasm.sreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c8192 = waveasm.constant 8192 : !waveasm.imm<8192>
  %xy = waveasm.v_add_u32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %xy : !waveasm.vreg -> !waveasm.vreg
  %a16 = waveasm.v_add_u32 %x, %c16 : !waveasm.vreg, !waveasm.imm<16> -> !waveasm.vreg
  waveasm.buffer_load_dword_lds %a16, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.imm<0>
  %r1 = waveasm.ds_read2_b32 %a16 : !waveasm.vreg -> !waveasm.vreg<2, 2>
  %s16 = waveasm.v_add_u32 %s, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.vreg
  %r2 = waveasm.ds_read_b32 %s16 : !waveasm.vreg -> !waveasm.vreg
  %or = waveasm.v_or_b32 %x, %c8 : !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg
  %r3 = waveasm.ds_read_b32 %or : !waveasm.vreg -> !waveasm.vreg
  %st = waveasm.v_add_u32 %s16, %t : !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
  %r4 = waveasm.ds_read_b32 %st : !waveasm.vreg -> !waveasm.vreg
  %l0 = waveasm.buffer_load_dword %srd, %p, %c0 : !waveasm.psreg<8, 4>, !waveasm.pvreg<3>, !waveasm.imm<0> -> !waveasm.vreg
  %big = waveasm.v_add_u32 %c8192, %x : !waveasm.imm<8192>, !waveasm.vreg -> !waveasm.vreg
  %l1 = waveasm.buffer_load_dword %srd, %big, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.dce_protect %r0 : !waveasm.vreg
  waveasm.dce_protect %r1 : !waveasm.vreg<2, 2>
  waveasm.dce_protect %r2 : !waveasm.vreg
  waveasm.dce_protect %r3 : !waveasm.vreg
  waveasm.dce_protect %r4 : !waveasm.vreg
  waveasm.dce_protect %l0 : !waveasm.vreg
  waveasm.dce_protect %l1 : !waveasm.vreg
  waveasm.s_endpgm
}
