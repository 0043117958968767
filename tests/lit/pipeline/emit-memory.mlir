// Memory emission: SMEM, buffer loads/stores/atomics (offen/off, offset and
// soffset folding, v15 for out-of-range offsets), direct-to-LDS loads, global
// and flat (SADDR form, instOffset kept, scalar offsets added through v15),
// LDS reads/writes including ds_read2/ds_write2 offsets and byte/short forms.
// RUN: waveasm-opt --emit-assembly %s | FileCheck %s
// RUN: waveasm-opt --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

waveasm.program @mem target = #waveasm.target<#waveasm.gfx942, 5>
    abi = #waveasm.abi<tid = 0, kernarg = 0> attributes {lds_size = 4096 : i64} {
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %v1 = waveasm.precolored.vreg 1 : !waveasm.pvreg<1>
  %v2 = waveasm.precolored.vreg 2, 2 : !waveasm.pvreg<2, 2>
  %v4 = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
  %ka = waveasm.precolored.sreg 0, 2 : !waveasm.psreg<0, 2>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %s8 = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %gp = waveasm.precolored.sreg 10, 2 : !waveasm.psreg<10, 2>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c100 = waveasm.constant 100 : !waveasm.imm<100>
  %c4000 = waveasm.constant 4000 : !waveasm.imm<4000>
  %c8192 = waveasm.constant 8192 : !waveasm.imm<8192>
  // SMEM.
  %k = waveasm.s_load_dwordx8 %ka, %c64 : !waveasm.psreg<0, 2>, !waveasm.imm<64> -> !waveasm.psreg<12, 8>
  %k2 = waveasm.s_load_dword %ka, %s8 : !waveasm.psreg<0, 2>, !waveasm.psreg<8> -> !waveasm.psreg<20>
  // Buffer loads: offen + offset, soffset SGPR / inline / folded literal.
  %l1 = waveasm.buffer_load_dwordx4 %srd, %v0, %s8 offset : 16 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.psreg<8> -> !waveasm.pvreg<20, 4>
  %l2 = waveasm.buffer_load_sbyte %srd, %v0, %c4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<4> -> !waveasm.pvreg<24>
  %l3 = waveasm.buffer_load_sshort %srd, %v0, %c100 offset : 8 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<100> -> !waveasm.pvreg<25>
  // An immediate voffset: no VGPR address ("off"), or v15 when too large.
  %l4 = waveasm.buffer_load_dword %srd, %c64, %c0 offset : 16 : !waveasm.psreg<4, 4>, !waveasm.imm<64>, !waveasm.imm<0> -> !waveasm.pvreg<26>
  %l5 = waveasm.buffer_load_dword %srd, %c8192, %c0 : !waveasm.psreg<4, 4>, !waveasm.imm<8192>, !waveasm.imm<0> -> !waveasm.pvreg<27>
  // Offset beyond 12 bits: added into v15.
  %l6 = waveasm.buffer_load_dword %srd, %v0, %c4000 offset : 200 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<4000> -> !waveasm.pvreg<28>
  waveasm.buffer_store_dwordx2 %v2, %srd, %v0 offset : 32 : !waveasm.pvreg<2, 2>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_byte %v1, %srd, %v0 : !waveasm.pvreg<1>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.buffer_atomic_add_f32 %v1, %srd, %v0 offset : 4 : !waveasm.pvreg<1>, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  // Direct-to-LDS (M0 holds the LDS address).
  waveasm.s_mov_b32_m0 %s8 : !waveasm.psreg<8>
  waveasm.buffer_load_dword_lds %v0, %srd, %s8 {instOffset = 64 : i64} : !waveasm.pvreg<0>, !waveasm.psreg<4, 4>, !waveasm.psreg<8>
  waveasm.buffer_load_dword_lds %c0, %srd, %c0 : !waveasm.imm<0>, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  // Global: instOffset is kept; a scalar offset is added through v15.
  %g1 = waveasm.global_load_dwordx2 %gp, %v0, %c0 offset : 2048 : !waveasm.psreg<10, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<30, 2>
  %g2 = waveasm.global_load_ushort %gp, %v0, %s8 offset : 6 : !waveasm.psreg<10, 2>, !waveasm.pvreg<0>, !waveasm.psreg<8> -> !waveasm.pvreg<32>
  %g3 = waveasm.global_load_sbyte %gp, %v0, %c8192 : !waveasm.psreg<10, 2>, !waveasm.pvreg<0>, !waveasm.imm<8192> -> !waveasm.pvreg<33>
  waveasm.global_store_short %v1, %gp, %v0 offset : 2 : !waveasm.pvreg<1>, !waveasm.psreg<10, 2>, !waveasm.pvreg<0>
  // FLAT with an SGPR base is the global segment's SADDR form.
  %f1 = waveasm.flat_load_dwordx4 %gp, %v0, %c0 : !waveasm.psreg<10, 2>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.pvreg<36, 4>
  waveasm.flat_store_dword %v1, %gp, %v0 offset : 12 : !waveasm.pvreg<1>, !waveasm.psreg<10, 2>, !waveasm.pvreg<0>
  // LDS.
  %d1 = waveasm.ds_read_b64 %v0 {offset = 512 : i64} : !waveasm.pvreg<0> -> !waveasm.pvreg<40, 2>
  %d2 = waveasm.ds_read_i8 %v0 {offset = 3 : i64} : !waveasm.pvreg<0> -> !waveasm.pvreg<42>
  %d3 = waveasm.ds_read_i16 %v0 {offset = 70000 : i64} : !waveasm.pvreg<0> -> !waveasm.pvreg<43>
  %d4 = waveasm.ds_read2_b32 %v0 {offset = 64 : i64} : !waveasm.pvreg<0> -> !waveasm.pvreg<44, 2>
  %d5 = waveasm.ds_read2_b64 %v0 {offset0 = 1 : i64, offset1 = 9 : i64} : !waveasm.pvreg<0> -> !waveasm.pvreg<48, 4>
  %d6 = waveasm.ds_read2_b32 %v0 {offset = 6 : i64} : !waveasm.pvreg<0> -> !waveasm.pvreg<52, 2>
  %d7 = waveasm.ds_read_b32 %c64 : !waveasm.imm<64> -> !waveasm.pvreg<54>
  waveasm.ds_write_b128 %v4, %v0 {offset = 1024 : i64} : !waveasm.pvreg<4, 4>, !waveasm.pvreg<0>
  waveasm.ds_write2_b32 %v2, %v0 {offset = 8 : i64} : !waveasm.pvreg<2, 2>, !waveasm.pvreg<0>
  waveasm.ds_write2_b64 %v4, %v0 {offset0 = 2 : i64, offset1 = 3 : i64} : !waveasm.pvreg<4, 4>, !waveasm.pvreg<0>
  waveasm.ds_write_b8 %v1, %v0 : !waveasm.pvreg<1>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// CHECK-LABEL: {{^}}mem:
// CHECK-NEXT: s_load_dwordx8 s[12:19], s[0:1], 64
// CHECK-NEXT: s_load_dword s20, s[0:1], s8
// CHECK-NEXT: buffer_load_dwordx4 v[20:23], v0, s[4:7], s8 offen offset:16
// CHECK-NEXT: buffer_load_sbyte v24, v0, s[4:7], 4 offen
// CHECK-NEXT: buffer_load_sshort v25, v0, s[4:7], 0 offen offset:108
// CHECK-NEXT: buffer_load_dword v26, off, s[4:7], 0 offset:80
// CHECK-NEXT: v_mov_b32 v15, 8192
// CHECK-NEXT: buffer_load_dword v27, v15, s[4:7], 0 offen
// CHECK-NEXT: v_add_u32 v15, 4200, v0
// CHECK-NEXT: buffer_load_dword v28, v15, s[4:7], 0 offen
// CHECK-NEXT: buffer_store_dwordx2 v[2:3], v0, s[4:7], 0 offen offset:32
// CHECK-NEXT: buffer_store_byte v1, v0, s[4:7], 0 offen
// CHECK-NEXT: buffer_atomic_add_f32 v1, v0, s[4:7], 0 offen offset:4
// CHECK-NEXT: s_mov_b32 m0, s8
// CHECK-NEXT: buffer_load_dword v0, s[4:7], s8 offen offset:64 lds
// CHECK-NEXT: buffer_load_dword off, s[4:7], 0 lds
// CHECK-NEXT: global_load_dwordx2 v[30:31], v0, s[10:11] offset:2048
// CHECK-NEXT: v_add_u32 v15, s8, v0
// CHECK-NEXT: global_load_ushort v32, v15, s[10:11] offset:6
// CHECK-NEXT: v_add_u32 v15, 8192, v0
// CHECK-NEXT: global_load_sbyte v33, v15, s[10:11]
// CHECK-NEXT: global_store_short v0, v1, s[10:11] offset:2
// CHECK-NEXT: global_load_dwordx4 v[36:39], v0, s[10:11]
// CHECK-NEXT: global_store_dword v0, v1, s[10:11] offset:12
// CHECK-NEXT: ds_read_b64 v[40:41], v0 offset:512
// CHECK-NEXT: ds_read_i8 v42, v0 offset:3
// CHECK-NEXT: v_add_u32 v15, 70000, v0
// CHECK-NEXT: ds_read_i16 v43, v15
// CHECK-NEXT: ds_read2_b32 v[44:45], v0 offset0:16 offset1:17
// CHECK-NEXT: ds_read2_b64 v[48:51], v0 offset0:1 offset1:9
// CHECK-NEXT: v_add_u32 v15, 6, v0
// CHECK-NEXT: ds_read2_b32 v[52:53], v15 offset0:0 offset1:1
// CHECK-NEXT: v_mov_b32 v15, 64
// CHECK-NEXT: ds_read_b32 v54, v15
// CHECK-NEXT: ds_write_b128 v0, v[4:7] offset:1024
// CHECK-NEXT: ds_write2_b32 v0, v2, v3 offset0:2 offset1:3
// CHECK-NEXT: ds_write2_b64 v0, v[4:5], v[6:7] offset0:2 offset1:3
// CHECK-NEXT: ds_write_b8 v0, v1
// CHECK-NEXT: s_endpgm
