// waveasm-memory-offset-opt (SPEC.md 19): constant addends of addresses
// move into `offset` (LDS, <= 65535) and `instOffset` (buffer, global,
// flat, <= 4095); larger constants stay as one v_add_u32 K, base. The old
// address ops stay for canonicalize to remove.
// RUN: waveasm-opt --split-input-file --waveasm-memory-offset-opt %s | FileCheck %s

// LDS reads and writes; the existing offset adds up; commuted operands; a
// constant held by v_mov_b32; sums wrap (x + 0xFFFFFFFF + 17 = x + 16).
// CHECK-LABEL: waveasm.program @lds
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK:       waveasm.ds_read_b32 %[[X]] {offset = 16 : i64}
// CHECK-NEXT:  waveasm.ds_read_b64 %[[X]] {offset = 24 : i64}
// CHECK:       waveasm.ds_write_b32 %{{.*}}, %[[X]] {offset = 96 : i64}
// CHECK:       waveasm.ds_read_b32 %[[X]] {offset = 32 : i64}
// CHECK:       waveasm.ds_read_b32 %[[X]] {offset = 16 : i64}
// CHECK-NEXT:  waveasm.ds_read_b32 %[[X]] {offset = 65535 : i64}
waveasm.program @lds target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %d = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %c32 = waveasm.constant 32 : !waveasm.imm<32>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %c17 = waveasm.constant 17 : !waveasm.imm<17>
  %cmax = waveasm.constant 4294967295 : !waveasm.imm<4294967295>
  %c65000 = waveasm.constant 65000 : !waveasm.imm<65000>
  %a16 = waveasm.v_add_u32 %x, %c16 : !waveasm.vreg, !waveasm.imm<16> -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %a16 : !waveasm.vreg -> !waveasm.vreg
  %r1 = waveasm.ds_read_b64 %a16 {offset = 8 : i64} : !waveasm.vreg -> !waveasm.vreg<2, 2>
  %a64 = waveasm.v_add_u32 %c64, %x : !waveasm.imm<64>, !waveasm.vreg -> !waveasm.vreg
  waveasm.ds_write_b32 %d, %a64 {offset = 32 : i64} : !waveasm.vreg, !waveasm.vreg
  %m32 = waveasm.v_mov_b32 %c32 : !waveasm.imm<32> -> !waveasm.vreg
  %a32 = waveasm.v_add_u32 %x, %m32 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  %r2 = waveasm.ds_read_b32 %a32 : !waveasm.vreg -> !waveasm.vreg
  %w1 = waveasm.v_add_u32 %x, %cmax : !waveasm.vreg, !waveasm.imm<4294967295> -> !waveasm.vreg
  %w2 = waveasm.v_add_u32 %w1, %c17 : !waveasm.vreg, !waveasm.imm<17> -> !waveasm.vreg
  %r3 = waveasm.ds_read_b32 %w2 : !waveasm.vreg -> !waveasm.vreg
  %r4 = waveasm.ds_read_b32 %a16 {offset = 65519 : i64} : !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %r0 : !waveasm.vreg
  waveasm.dce_protect %r1 : !waveasm.vreg<2, 2>
  waveasm.dce_protect %r2 : !waveasm.vreg
  waveasm.dce_protect %r3 : !waveasm.vreg
  waveasm.dce_protect %r4 : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Buffer, global and flat accesses: instOffset up to 4095.
// CHECK-LABEL: waveasm.program @vmem
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK:       waveasm.buffer_load_dword %{{.*}}, %[[X]], %{{.*}} offset : 256 :
// CHECK-NEXT:  waveasm.buffer_load_dwordx4 %{{.*}}, %[[X]], %{{.*}} offset : 4095 :
// CHECK-NEXT:  waveasm.buffer_store_dword %{{.*}}, %{{.*}}, %[[X]] offset : 320 :
// CHECK-NEXT:  waveasm.global_load_dword %{{.*}}, %[[X]], %{{.*}} offset : 256 :
// CHECK-NEXT:  waveasm.flat_store_dword %{{.*}}, %{{.*}}, %[[X]] offset : 256 :
// CHECK-NEXT:  waveasm.buffer_atomic_add_f32 %{{.*}}, %{{.*}}, %[[X]] offset : 256 :
waveasm.program @vmem target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %ptr = waveasm.precolored.sreg 12, 2 : !waveasm.psreg<12, 2>
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %d = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %a = waveasm.v_add_u32 %x, %c256 : !waveasm.vreg, !waveasm.imm<256> -> !waveasm.vreg
  %l0 = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %l1 = waveasm.buffer_load_dwordx4 %srd, %a, %c0 offset : 3839 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dword %d, %srd, %a offset : 64 : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  %g = waveasm.global_load_dword %ptr, %a, %c0 : !waveasm.psreg<12, 2>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.flat_store_dword %d, %ptr, %a : !waveasm.vreg, !waveasm.psreg<12, 2>, !waveasm.vreg
  waveasm.buffer_atomic_add_f32 %d, %srd, %a : !waveasm.vreg, !waveasm.psreg<8, 4>, !waveasm.vreg
  waveasm.dce_protect %l0 : !waveasm.vreg
  waveasm.dce_protect %l1 : !waveasm.vreg<4, 4>
  waveasm.dce_protect %g : !waveasm.vreg
  waveasm.s_endpgm
}

// -----

// Through shifts ((x + 4) << 2 = (x << 2) + 16), v_lshl_add_u32, and v_or_b32
// whose operands share no bit; the rebuilt base sits next to the op it
// replaces, before the loop, not in the loop body.
// CHECK-LABEL: waveasm.program @trees
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK-DAG:   %[[Y:.*]] = waveasm.precolored.vreg 2 :
// CHECK:       waveasm.v_add_u32 %[[X]]
// CHECK-NEXT:  waveasm.v_lshlrev_b32
// CHECK-NEXT:  %[[SHL:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %[[X]] : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  waveasm.v_lshl_add_u32
// CHECK-NEXT:  %[[LA:.*]] = waveasm.v_lshl_add_u32 %[[X]], %{{.*}}, %[[Y]] : !waveasm.vreg, !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
// CHECK-NEXT:  %[[HI:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %[[Y]] : !waveasm.imm<4>
// CHECK-NEXT:  waveasm.v_or_b32
// CHECK:       waveasm.loop
// CHECK-NEXT:  waveasm.ds_read_b32 %[[SHL]] {offset = 16 : i64}
// CHECK-NEXT:  waveasm.ds_read_b32 %[[LA]] {offset = 128 : i64}
// CHECK-NEXT:  waveasm.ds_read_b32 %[[HI]] {offset = 8 : i64}
waveasm.program @trees target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %y = waveasm.precolored.vreg 2 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %x4 = waveasm.v_add_u32 %x, %c4 : !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  %sh = waveasm.v_lshlrev_b32 %c2, %x4 : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
  %y16 = waveasm.v_lshl_add_u32 %x4, %c3, %y : !waveasm.vreg, !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
  %hi = waveasm.v_lshlrev_b32 %c4, %y : !waveasm.imm<4>, !waveasm.vreg -> !waveasm.vreg
  %or = waveasm.v_or_b32 %hi, %c8 : !waveasm.vreg, !waveasm.imm<8> -> !waveasm.vreg
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %r0 = waveasm.ds_read_b32 %sh : !waveasm.vreg -> !waveasm.vreg
    %r1 = waveasm.ds_read_b32 %y16 {offset = 96 : i64} : !waveasm.vreg -> !waveasm.vreg
    %r2 = waveasm.ds_read_b32 %or : !waveasm.vreg -> !waveasm.vreg
    waveasm.dce_protect %r0 : !waveasm.vreg
    waveasm.dce_protect %r1 : !waveasm.vreg
    waveasm.dce_protect %r2 : !waveasm.vreg
    %next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %next#0, %c16 : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%next#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// -----

// Constants that do not fit stay as one v_add_u32 K, base (an address that
// already has that form is left alone); negative constants likewise.
// CHECK-LABEL: waveasm.program @too_large
// CHECK-DAG:   %[[X:.*]] = waveasm.precolored.vreg 1 :
// CHECK:       %[[K:.*]] = waveasm.constant 4200 :
// CHECK-NEXT:  %[[SUM:.*]] = waveasm.v_add_u32 %[[K]], %[[X]] : !waveasm.imm<4200>, !waveasm.vreg -> !waveasm.vreg
// CHECK:       %[[BIG:.*]] = waveasm.v_add_u32 %[[X]], %{{.*}} : !waveasm.vreg, !waveasm.imm<5000>
// CHECK:       %[[NEG:.*]] = waveasm.v_add_u32 %[[X]], %{{.*}} : !waveasm.vreg, !waveasm.imm<-16>
// CHECK:       waveasm.buffer_load_dword %{{.*}}, %[[SUM]], %{{.*}} :
// CHECK-NEXT:  waveasm.buffer_load_dword %{{.*}}, %[[SUM]], %{{.*}} :
// CHECK-NEXT:  waveasm.buffer_load_dword %{{.*}}, %[[BIG]], %{{.*}} :
// CHECK-NEXT:  waveasm.ds_read_b32 %[[NEG]] :
// CHECK-NEXT:  waveasm.ds_read_b32 %{{.*}} {offset = 65000 : i64}
waveasm.program @too_large target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %x = waveasm.precolored.vreg 1 : !waveasm.vreg
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c200 = waveasm.constant 200 : !waveasm.imm<200>
  %c4000 = waveasm.constant 4000 : !waveasm.imm<4000>
  %c5000 = waveasm.constant 5000 : !waveasm.imm<5000>
  %c1000 = waveasm.constant 1000 : !waveasm.imm<1000>
  %cm16 = waveasm.constant -16 : !waveasm.imm<-16>
  %a = waveasm.v_add_u32 %x, %c4000 : !waveasm.vreg, !waveasm.imm<4000> -> !waveasm.vreg
  %b = waveasm.v_add_u32 %a, %c200 : !waveasm.vreg, !waveasm.imm<200> -> !waveasm.vreg
  %c = waveasm.v_add_u32 %c200, %a : !waveasm.imm<200>, !waveasm.vreg -> !waveasm.vreg
  %big = waveasm.v_add_u32 %x, %c5000 : !waveasm.vreg, !waveasm.imm<5000> -> !waveasm.vreg
  %neg = waveasm.v_add_u32 %x, %cm16 : !waveasm.vreg, !waveasm.imm<-16> -> !waveasm.vreg
  %lds = waveasm.v_add_u32 %x, %c1000 : !waveasm.vreg, !waveasm.imm<1000> -> !waveasm.vreg
  %l0 = waveasm.buffer_load_dword %srd, %b, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %l1 = waveasm.buffer_load_dword %srd, %c, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %l2 = waveasm.buffer_load_dword %srd, %big, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  %r0 = waveasm.ds_read_b32 %neg : !waveasm.vreg -> !waveasm.vreg
  %r1 = waveasm.ds_read_b32 %lds {offset = 65000 : i64} : !waveasm.vreg -> !waveasm.vreg
  waveasm.dce_protect %l0 : !waveasm.vreg
  waveasm.dce_protect %l1 : !waveasm.vreg
  waveasm.dce_protect %l2 : !waveasm.vreg
  waveasm.dce_protect %r0 : !waveasm.vreg
  waveasm.dce_protect %r1 : !waveasm.vreg
  waveasm.s_endpgm
}
