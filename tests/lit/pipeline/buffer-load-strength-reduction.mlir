// --waveasm-buffer-load-strength-reduction (SPEC.md 18.3): buffer loads whose
// voffset is recomputed from the induction variable get a voffset computed
// once before the loop and an SGPR soffset iter_arg per (descriptor,
// stride, soffset) group, bumped before the compare. Programs that are not
// rewritten come back unchanged; the debug log says why.
// RUN: waveasm-opt --waveasm-buffer-load-strength-reduction %s | FileCheck %s
// RUN: waveasm-opt --waveasm-buffer-load-strength-reduction %s | waveasm-opt > /dev/null
// Equal by execution (the simulator exits 2: @step_not_constant never ends
// and is reported as not checked):
// RUN: waveasm-opt --waveasm-buffer-load-strength-reduction %s -o %t.mlir
// RUN: not waveasm-sim --compare %s %t.mlir | FileCheck %s --check-prefix=EXEC
// EXEC: @pipelined_kernel_counter_last: equal on 4 seeds
// EXEC: @pipelined_kernel_addend_before_barrier: equal on 4 seeds
// EXEC: @pipelined_kernel_scc_across_barrier: equal on 4 seeds
// EXEC: @pipelined_kernel_no_common_base: equal on 4 seeds
// Sharing the no-common-base kernel's first voffset (`offset : 4` on its
// second load) is caught:
// RUN: awk '/@pipelined_kernel_no_common_base/ { p = 1 } p && /buffer_load_dword/ { n++; if (n == 1) { match($0, /%%[0-9]+, %%arg/); v = substr($0, RSTART, RLENGTH - 6) } if (n == 2) { sub(/%%[0-9]+, %%arg/, v ", %%arg"); sub(/ : !waveasm.psreg/, " offset : 4 : !waveasm.psreg") } } { print }' %t.mlir > %t.shared.mlir
// RUN: not diff %t.mlir %t.shared.mlir > /dev/null
// RUN: not waveasm-sim --compare %s %t.shared.mlir | FileCheck %s --check-prefix=SHARED
// SHARED: @pipelined_kernel_no_common_base: different
// RUN: waveasm-opt --waveasm-buffer-load-strength-reduction --mlir-disable-threading --debug-only=waveasm-buffer-load-strength-reduction %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG

// Two groups, (x, 512, 0) with two loads and (w, 256, 0) with one: each
// chain is evaluated before the loop at k = k0; the +256 of the second x
// load moves into its offset; one s_add_u32 per group before the s_cmp.
// CHECK-LABEL: waveasm.program @dot_rows
// CHECK: %[[K0:.*]] = waveasm.s_mov_b32
// CHECK: %[[ROW:.*]] = waveasm.v_mul_lo_u32 %[[K0]], %{{.*}} : !waveasm.sreg, !waveasm.imm<128> -> !waveasm.vreg
// CHECK: %[[ELEM:.*]] = waveasm.v_add_u32 %[[ROW]], %{{.*}}
// CHECK: %[[VOFF:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %[[ELEM]]
// CHECK: %[[WROW:.*]] = waveasm.v_mul_lo_u32 %[[K0]], %{{.*}} : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.vreg
// CHECK: %[[WELEM:.*]] = waveasm.v_add_u32 %[[WROW]], %{{.*}}
// CHECK: %[[WVOFF:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %[[WELEM]]
// CHECK-DAG: %[[S0:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0> -> !waveasm.sreg
// CHECK-DAG: %[[C512:.*]] = waveasm.constant 512
// CHECK-DAG: %[[S1:.*]] = waveasm.s_mov_b32 %{{.*}} : !waveasm.imm<0> -> !waveasm.sreg
// CHECK-DAG: %[[C256:.*]] = waveasm.constant 256
// CHECK: waveasm.loop (%{{[^ ]*}} = %[[K0]], %{{[^ ]*}} = %{{[^ ]*}}, %[[X:[^ ]*]] = %[[S0]], %[[W:[^ ]*]] = %[[S1]]) : (!waveasm.sreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg) {
// CHECK-NOT: waveasm.v_mul_lo_u32
// CHECK-NOT: waveasm.v_lshlrev_b32
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[VOFF]], %[[X]] :
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[VOFF]], %[[X]] offset : 256 :
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[WVOFF]], %[[W]] :
// CHECK-NOT: waveasm.v_add_u32 %{{.*}}, %{{.*}} : !waveasm.vreg, !waveasm.pvreg<0>
// CHECK: %[[XN:.*]], %{{.*}} = waveasm.s_add_u32 %[[X]], %[[C512]]
// CHECK-NEXT: %[[WN:.*]], %{{.*}} = waveasm.s_add_u32 %[[W]], %[[C256]]
// CHECK-NEXT: waveasm.s_cmp_lt_u32
// CHECK-NEXT: waveasm.condition %{{.*}} : !waveasm.scc iter_args(%{{.*}}, %{{.*}}, %[[XN]], %[[WN]]) : !waveasm.sreg, !waveasm.vreg, !waveasm.sreg, !waveasm.sreg
// LOG: loop at {{.*}}: group (stride 512, 2 load(s)) group (stride 256, 1 load(s))
waveasm.program @dot_rows target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid   = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_x = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_w = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0   = waveasm.constant 0 : !waveasm.imm<0>
  %c1   = waveasm.constant 1 : !waveasm.imm<1>
  %c2   = waveasm.constant 2 : !waveasm.imm<2>
  %c64  = waveasm.constant 64 : !waveasm.imm<64>
  %c128 = waveasm.constant 128 : !waveasm.imm<128>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %k0   = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %acc0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %k_end, %sum = waveasm.loop (%k = %k0, %acc = %acc0) : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %row  = waveasm.v_mul_lo_u32 %k, %c128 : !waveasm.sreg, !waveasm.imm<128> -> !waveasm.vreg
    %elem = waveasm.v_add_u32 %row, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %voff = waveasm.v_lshlrev_b32 %c2, %elem : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
    %voff_hi = waveasm.v_add_u32 %voff, %c256 : !waveasm.vreg, !waveasm.imm<256> -> !waveasm.vreg
    %wrow  = waveasm.v_mul_lo_u32 %k, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.vreg
    %welem = waveasm.v_add_u32 %wrow, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %wvoff = waveasm.v_lshlrev_b32 %c2, %welem : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
    %x_lo = waveasm.buffer_load_dword %srd_x, %voff, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %x_hi = waveasm.buffer_load_dword %srd_x, %voff_hi, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %w    = waveasm.buffer_load_dword %srd_w, %wvoff, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %prod = waveasm.v_mul_f32 %x_lo, %w : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %both = waveasm.v_fma_f32 %x_hi, %w, %prod : !waveasm.vreg, !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %acc_next = waveasm.v_add_f32 %acc, %both : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %k_next:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %k_next#0, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%k_next#0, %acc_next) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
}

// SGPR addends: both loads' voffsets are (chain + base) [+ 64]; the group's
// loads take the chain as voffset and soffset = group soffset + base,
// added once at the top of the body. The IV increment feeding the chain
// stays (the condition reads it). A physical SGPR original soffset is
// copied into the virtual SGPR init.
// CHECK-LABEL: waveasm.program @sgpr_addend
// CHECK: %[[SOFF0:.*]] = waveasm.precolored.sreg 9
// CHECK: %[[BASE:.*]] = waveasm.precolored.sreg 8
// CHECK: %[[KN0:.*]], %{{.*}} = waveasm.s_add_u32 %{{.*}}, %{{.*}} : !waveasm.sreg, !waveasm.imm<1>
// CHECK: %[[KV:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %[[KN0]]
// CHECK: %[[INIT:.*]] = waveasm.s_mov_b32 %[[SOFF0]] : !waveasm.psreg<9> -> !waveasm.sreg
// CHECK: waveasm.loop (%{{[^ ]*}} = %{{[^ ]*}}, %[[S:[^ ]*]] = %[[INIT]]) : (!waveasm.sreg, !waveasm.sreg) -> (!waveasm.sreg, !waveasm.sreg) {
// CHECK-NEXT: %[[SUM:.*]], %{{.*}} = waveasm.s_add_u32 %[[S]], %[[BASE]] : !waveasm.sreg, !waveasm.psreg<8>
// CHECK-NEXT: %{{.*}}, %{{.*}} = waveasm.s_add_u32 %{{.*}}, %{{.*}} : !waveasm.sreg, !waveasm.imm<1>
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[KV]], %[[SUM]] :
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[KV]], %[[SUM]] offset : 64 :
// CHECK-NEXT: waveasm.s_add_u32 %[[S]], %{{.*}} : !waveasm.sreg, !waveasm.imm<128>
// LOG: loop at {{.*}}: group (stride 128, 2 load(s))
waveasm.program @sgpr_addend target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd  = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %soff = waveasm.precolored.sreg 9 : !waveasm.psreg<9>
  %base = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %kv = waveasm.v_lshlrev_b32 %c7, %kn#0 : !waveasm.imm<7>, !waveasm.sreg -> !waveasm.vreg
    %v0 = waveasm.v_add_u32 %kv, %base : !waveasm.vreg, !waveasm.psreg<8> -> !waveasm.vreg
    %v1 = waveasm.v_add_u32 %v0, %c64 : !waveasm.vreg, !waveasm.imm<64> -> !waveasm.vreg
    %a = waveasm.buffer_load_dword %srd, %v0, %soff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.psreg<9> -> !waveasm.vreg
    %b = waveasm.buffer_load_dword %srd, %v1, %soff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.psreg<9> -> !waveasm.vreg
    %go = waveasm.s_cmp_lt_u32 %kn#0, %c64 : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// Direct-to-LDS loads: a constant part is never moved into an offset; the
// second load keeps its whole precomputed voffset (base + 256).
// CHECK-LABEL: waveasm.program @lds_loads
// CHECK: %[[KV:.*]] = waveasm.v_lshlrev_b32
// CHECK: %[[HI:.*]] = waveasm.v_add_u32 %[[KV]], %{{.*}} : !waveasm.vreg, !waveasm.imm<256>
// CHECK: waveasm.loop (%{{[^ ]*}} = %{{[^ ]*}}, %[[S:[^ ]*]] = %{{[^ ]*}})
// CHECK: waveasm.buffer_load_dword_lds %[[KV]], %{{.*}}, %[[S]] :
// CHECK: waveasm.buffer_load_dword_lds %[[HI]], %{{.*}}, %[[S]] :
// CHECK: waveasm.s_add_u32 %[[S]], %{{.*}} : !waveasm.sreg, !waveasm.imm<32>
// LOG: loop at {{.*}}: group (stride 32, 2 load(s))
waveasm.program @lds_loads target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %m = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c5 = waveasm.constant 5 : !waveasm.imm<5>
  %c256 = waveasm.constant 256 : !waveasm.imm<256>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %kv = waveasm.v_lshlrev_b32 %c5, %k : !waveasm.imm<5>, !waveasm.sreg -> !waveasm.vreg
    %hi = waveasm.v_add_u32 %kv, %c256 : !waveasm.vreg, !waveasm.imm<256> -> !waveasm.vreg
    waveasm.s_mov_b32_m0 %m : !waveasm.psreg<8>
    waveasm.buffer_load_dword_lds %kv, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0>
    waveasm.buffer_load_dword_lds %hi, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// SPEC.md 21 item 16: two groups (different descriptors) whose loads share
// one voffset value. Upstream erased the second group's pre-loop clone in
// its local CSE while still using it (invalid IR). Here both loads use the
// one pre-loop value and the output verifies (second RUN line).
// CHECK-LABEL: waveasm.program @shared_voffset_two_groups
// CHECK: %[[V:.*]] = waveasm.v_add_u32
// CHECK-NOT: waveasm.v_add_u32
// CHECK: waveasm.loop (%{{[^ ]*}} = %{{[^ ]*}}, %[[SX:[^ ]*]] = %{{[^ ]*}}, %[[SW:[^ ]*]] = %{{[^ ]*}}) : (!waveasm.sreg, !waveasm.sreg, !waveasm.sreg)
// CHECK: waveasm.buffer_load_dwordx4 %{{.*}}, %[[V]], %[[SX]] :
// CHECK: waveasm.buffer_load_dwordx4 %{{.*}}, %[[V]], %[[SW]] :
// LOG: loop at {{.*}}: group (stride 64, 1 load(s)) group (stride 64, 1 load(s))
waveasm.program @shared_voffset_two_groups target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_x = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_w = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %kv = waveasm.v_lshlrev_b32 %c6, %k : !waveasm.imm<6>, !waveasm.sreg -> !waveasm.vreg
    %v = waveasm.v_add_u32 %kv, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %x = waveasm.buffer_load_dwordx4 %srd_x, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %w = waveasm.buffer_load_dwordx4 %srd_w, %v, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// The same with the expression written out twice (two structurally
// identical chains): the clones of the second are CSE'd into the first's
// through the replacement map; both loads use one pre-loop value.
// CHECK-LABEL: waveasm.program @identical_chains_two_groups
// CHECK: %[[KV:.*]] = waveasm.v_lshlrev_b32
// CHECK-NEXT: %[[V:.*]] = waveasm.v_add_u32 %[[KV]]
// CHECK-NOT: waveasm.v_lshlrev_b32
// CHECK-NOT: waveasm.v_add_u32
// CHECK: waveasm.loop
// CHECK: waveasm.buffer_load_dwordx4 %{{.*}}, %[[V]], %{{.*}} :
// CHECK: waveasm.buffer_load_dwordx4 %{{.*}}, %[[V]], %{{.*}} :
waveasm.program @identical_chains_two_groups target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd_x = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %srd_w = waveasm.precolored.sreg 8, 4 : !waveasm.psreg<8, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c6 = waveasm.constant 6 : !waveasm.imm<6>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %kv = waveasm.v_lshlrev_b32 %c6, %k : !waveasm.imm<6>, !waveasm.sreg -> !waveasm.vreg
    %v = waveasm.v_add_u32 %kv, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %x = waveasm.buffer_load_dwordx4 %srd_x, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %kv2 = waveasm.v_lshlrev_b32 %c6, %k : !waveasm.imm<6>, !waveasm.sreg -> !waveasm.vreg
    %v2 = waveasm.v_add_u32 %kv2, %tid : !waveasm.vreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %w = waveasm.buffer_load_dwordx4 %srd_w, %v2, %c0 : !waveasm.psreg<8, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg<4, 4>
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// A chain value with another user in the body (a store) stays in the body
// for that user; the load is rewritten.
// CHECK-LABEL: waveasm.program @chain_value_kept
// CHECK: waveasm.loop
// CHECK: %[[KV:.*]] = waveasm.v_lshlrev_b32
// CHECK: waveasm.buffer_load_dword %{{.*}}, %{{.*}}, %{{.*}} : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg
// CHECK: waveasm.buffer_store_dword %{{.*}}, %{{.*}}, %[[KV]]
waveasm.program @chain_value_kept target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %kv = waveasm.v_lshlrev_b32 %c4, %k : !waveasm.imm<4>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    waveasm.buffer_store_dword %x, %srd, %kv : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// Nested loops: the inner loop is rewritten first (its chain cloned into
// the outer body), then the outer loop's own load (voffset from the outer
// IV, stride 4096) -- its clone lands before the outer loop.
// CHECK-LABEL: waveasm.program @nested
// CHECK: %[[OV:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %{{.*}} : !waveasm.imm<12>, !waveasm.sreg -> !waveasm.vreg
// CHECK: waveasm.loop (%{{[^ ]*}} = %{{[^ ]*}}, %[[OS:[^ ]*]] = %{{[^ ]*}}) : (!waveasm.sreg, !waveasm.sreg)
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[OV]], %[[OS]] :
// CHECK: %[[IV:.*]] = waveasm.v_lshlrev_b32 %{{.*}}, %{{.*}} : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
// CHECK: waveasm.loop (%{{[^ ]*}} = %{{[^ ]*}}, %[[IS:[^ ]*]] = %{{[^ ]*}}) : (!waveasm.sreg, !waveasm.sreg)
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[IV]], %[[IS]] :
// CHECK: waveasm.s_add_u32 %[[IS]], %{{.*}} : !waveasm.sreg, !waveasm.imm<4>
// CHECK: waveasm.s_add_u32 %[[OS]], %{{.*}} : !waveasm.sreg, !waveasm.imm<4096>
// LOG: loop at {{.*}}: group (stride 4, 1 load(s))
// LOG: loop at {{.*}}: group (stride 4096, 1 load(s))
waveasm.program @nested target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c12 = waveasm.constant 12 : !waveasm.imm<12>
  %n = waveasm.constant 8 : !waveasm.imm<8>
  %j0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %o = waveasm.loop (%j = %j0) : (!waveasm.sreg) -> !waveasm.sreg {
    %jv = waveasm.v_lshlrev_b32 %c12, %j : !waveasm.imm<12>, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %jv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %i = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
      %kv = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
      %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
      %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
      waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
    }
    %jn:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %again = waveasm.s_cmp_lt_u32 %jn#0, %n : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %again : !waveasm.scc iter_args(%jn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// The final peephole, outside loops: constant-0 soffset and voffset
// v_add_u32(vgpr, sgpr) used only as buffer-load voffsets.
// CHECK-LABEL: waveasm.program @peephole
// CHECK: %[[TID:.*]] = waveasm.precolored.vreg 0
// CHECK: %[[S:.*]] = waveasm.precolored.sreg 8
// CHECK-NOT: waveasm.v_add_u32
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[TID]], %[[S]] :
// CHECK: waveasm.buffer_load_dwordx4_lds %[[TID]], %{{.*}}, %[[S]] :
waveasm.program @peephole target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %v = waveasm.v_add_u32 %s, %tid : !waveasm.psreg<8>, !waveasm.pvreg<0> -> !waveasm.vreg
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_load_dwordx4_lds %v, %srd, %c0 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  waveasm.s_endpgm
}

// Not when the add has another user (a store), nor with a non-zero soffset.
// CHECK-LABEL: waveasm.program @peephole_not_applicable
// CHECK: %[[V:.*]] = waveasm.v_add_u32
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[V]], %{{.*}} : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0>
// CHECK: %[[W:.*]] = waveasm.v_add_u32
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[W]], %{{.*}} : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<4>
waveasm.program @peephole_not_applicable target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %v = waveasm.v_add_u32 %tid, %s : !waveasm.pvreg<0>, !waveasm.psreg<8> -> !waveasm.vreg
  %x = waveasm.buffer_load_dword %srd, %v, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %x, %srd, %v : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  %w = waveasm.v_add_u32 %tid, %s : !waveasm.pvreg<0>, !waveasm.psreg<8> -> !waveasm.vreg
  %y = waveasm.buffer_load_dword %srd, %w, %c4 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<4> -> !waveasm.vreg
  waveasm.s_endpgm
}

//===----------------------------------------------------------------------===//
// Rejections: loops left unchanged (no soffset iter_arg added).
//===----------------------------------------------------------------------===//

// The induction variable is not block argument 0.
// CHECK-LABEL: waveasm.program @iv_not_iter_arg_0
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (!waveasm.vreg, !waveasm.sreg) -> (!waveasm.vreg, !waveasm.sreg)
// LOG: loop at {{.*}} not rewritten: iter_arg 0 is not an s_add_u32 of block argument 0 in the body
waveasm.program @iv_not_iter_arg_0 target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%a = %a0, %k = %k0) : (!waveasm.vreg, !waveasm.sreg) -> (!waveasm.vreg, !waveasm.sreg) {
    %kv = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%x, %kn#0) : !waveasm.vreg, !waveasm.sreg
  }
  waveasm.s_endpgm
}

// A pipelined kernel (waveasm.counted_waits, waveasm.pipeline_steps = 2,
// PipelineLoops.cpp): the
// counter is the last iter_arg, stepped twice, and each step's address reads
// its own partial sum. The counter is found, both loads move by 2 * 4 bytes
// per kernel iteration, one group, one bump of 8; no VALU address math is
// left in the body; the second step's hoisted voffset is the first's plus 4
// (AffineAddress.h), so it shares the first's VGPR with `offset : 4`.
// Without the attributes (@iv_not_iter_arg_0 above) the loop is left alone.
// CHECK-LABEL: waveasm.program @pipelined_kernel_counter_last
// CHECK: waveasm.loop
// CHECK-NOT: waveasm.v_lshlrev_b32
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[BASE:[0-9]+]], %[[SOFF:arg[0-9]+]] :
// CHECK-NOT: waveasm.v_lshlrev_b32
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[BASE]], %[[SOFF]] offset : 4 :
// CHECK: waveasm.s_add_u32 %[[SOFF]], %{{.*}} : !waveasm.sreg, !waveasm.imm<8>
// CHECK: waveasm.condition
// CHECK: waveasm.pipeline_steps = 2
// LOG: loop at {{.*}}: group (stride 8, 2 load(s))
waveasm.program @pipelined_kernel_counter_last target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%a = %a0, %k = %k0) : (!waveasm.vreg, !waveasm.sreg) -> (!waveasm.vreg, !waveasm.sreg) {
    %kv = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %kv1 = waveasm.v_lshlrev_b32 %c2, %k1#0 : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %kv1, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %s = waveasm.v_add_f32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %k2:2 = waveasm.s_add_u32 %k1#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %k2#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%s, %k2#0) : !waveasm.vreg, !waveasm.sreg
  } {waveasm.counted_waits, waveasm.pipeline_steps = 2 : i64}
  %out = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %r#0, %srd, %out : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// A kernel whose step 1 reads 4096 bytes past step 0 (beyond the 12-bit
// offset field): its loads take the group's soffset plus an SGPR addend of
// 4096, summed by an s_add_u32 in the body. That add goes before the
// barrier ahead of step 1's load (upstream: at the top of the body, where
// it delays step 0's load; SPEC.md 18.3 step 4); in the second program an
// SCC value is live across that barrier, and the add stays at the top.
// CHECK-LABEL: waveasm.program @pipelined_kernel_addend_before_barrier
// CHECK: %[[C4096:[0-9]+]] = waveasm.constant 4096
// CHECK: waveasm.loop
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[BASE:[0-9]+]], %[[SOFF:arg[0-9]+]] :
// CHECK: %[[SUM:[a-z_0-9]+]], %{{.*}} = waveasm.s_add_u32 %[[SOFF]], %[[C4096]]
// CHECK-NEXT: waveasm.s_barrier
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[BASE]], %[[SUM]] :
// CHECK: waveasm.pipeline_steps = 2
// CHECK-LABEL: waveasm.program @pipelined_kernel_scc_across_barrier
// CHECK: %[[C4096:[0-9]+]] = waveasm.constant 4096
// CHECK: waveasm.loop
// CHECK-NEXT: %[[SUM:[a-z_0-9]+]], %{{.*}} = waveasm.s_add_u32 %[[SOFF:arg[0-9]+]], %[[C4096]]
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[BASE:[0-9]+]], %[[SOFF]] :
// CHECK: waveasm.s_barrier
// CHECK-NEXT: waveasm.s_cselect_b32
// CHECK-NEXT: waveasm.buffer_load_dword %{{.*}}, %[[BASE]], %[[SUM]] :
waveasm.program @pipelined_kernel_addend_before_barrier target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c12 = waveasm.constant 12 : !waveasm.imm<12>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%a = %a0, %k = %k0) : (!waveasm.vreg, !waveasm.sreg) -> (!waveasm.vreg, !waveasm.sreg) {
    %kv = waveasm.v_lshlrev_b32 %c12, %k : !waveasm.imm<12>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    waveasm.s_barrier
    %kv1 = waveasm.v_lshlrev_b32 %c12, %k1#0 : !waveasm.imm<12>, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %kv1, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %xy = waveasm.v_add_f32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s = waveasm.v_add_f32 %a, %xy : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %k2:2 = waveasm.s_add_u32 %k1#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %k2#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%s, %k2#0) : !waveasm.vreg, !waveasm.sreg
  } {waveasm.counted_waits, waveasm.pipeline_steps = 2 : i64}
  %out = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %r#0, %srd, %out : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

waveasm.program @pipelined_kernel_scc_across_barrier target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c12 = waveasm.constant 12 : !waveasm.imm<12>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%a = %a0, %k = %k0) : (!waveasm.vreg, !waveasm.sreg) -> (!waveasm.vreg, !waveasm.sreg) {
    %kv = waveasm.v_lshlrev_b32 %c12, %k : !waveasm.imm<12>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    waveasm.s_barrier
    %sel = waveasm.s_cselect_b32 %k1#1, %c1, %c0 : !waveasm.scc, !waveasm.imm<1>, !waveasm.imm<0> -> !waveasm.sreg
    %kv1 = waveasm.v_lshlrev_b32 %c12, %k1#0 : !waveasm.imm<12>, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %kv1, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %xy = waveasm.v_add_f32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %xys = waveasm.v_add_u32 %sel, %xy : !waveasm.sreg, !waveasm.vreg -> !waveasm.vreg
    %s = waveasm.v_add_f32 %a, %xys : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %k2:2 = waveasm.s_add_u32 %k1#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %k2#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%s, %k2#0) : !waveasm.vreg, !waveasm.sreg
  } {waveasm.counted_waits, waveasm.pipeline_steps = 2 : i64}
  %out = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %r#0, %srd, %out : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// A kernel whose steps' addresses differ by no constant: (k >> 1) << 2 and
// ((k + 1) >> 1) << 2 are 0 or 4 bytes apart depending on k's parity (the
// shift right is not linear), so each load keeps its own hoisted voffset.
// (k starts at 0: sharing the first voffset with `offset : 4` reads the
// wrong bytes, which the execution compare below catches.)
// CHECK-LABEL: waveasm.program @pipelined_kernel_no_common_base
// CHECK: %[[V0:[0-9]+]] = waveasm.v_lshlrev_b32
// CHECK: %[[V1:[0-9]+]] = waveasm.v_lshlrev_b32
// CHECK: waveasm.loop
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[V0]], %[[S:arg[0-9]+]] :
// CHECK: waveasm.buffer_load_dword %{{.*}}, %[[V1]], %[[S]] :
// CHECK: waveasm.pipeline_steps = 2
waveasm.program @pipelined_kernel_no_common_base target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %a0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %r:2 = waveasm.loop (%a = %a0, %k = %k0) : (!waveasm.vreg, !waveasm.sreg) -> (!waveasm.vreg, !waveasm.sreg) {
    %h = waveasm.v_lshrrev_b32 %c1, %k : !waveasm.imm<1>, !waveasm.sreg -> !waveasm.vreg
    %kv = waveasm.v_lshlrev_b32 %c2, %h : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %k1:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %h1 = waveasm.v_lshrrev_b32 %c1, %k1#0 : !waveasm.imm<1>, !waveasm.sreg -> !waveasm.vreg
    %kv1 = waveasm.v_lshlrev_b32 %c2, %h1 : !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %kv1, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %xy = waveasm.v_add_f32 %x, %y : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %s = waveasm.v_add_f32 %a, %xy : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %k2:2 = waveasm.s_add_u32 %k1#0, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %k2#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%s, %k2#0) : !waveasm.vreg, !waveasm.sreg
  } {waveasm.counted_waits, waveasm.pipeline_steps = 2 : i64}
  %out = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %r#0, %srd, %out : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
}

// The step is an SGPR, not a constant.
// CHECK-LABEL: waveasm.program @step_not_constant
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}) : (!waveasm.sreg) -> !waveasm.sreg
// LOG: loop at {{.*}} not rewritten: the induction variable's step is not a constant
waveasm.program @step_not_constant target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %step = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %kv = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %step : !waveasm.sreg, !waveasm.psreg<8> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// The loop condition is an SGPR defined before the loop.
// CHECK-LABEL: waveasm.program @condition_not_in_body
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}) : (!waveasm.sreg) -> !waveasm.sreg
// LOG: loop at {{.*}} not rewritten: the loop condition is not computed in the body
waveasm.program @condition_not_in_body target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %flag = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %kv = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    waveasm.condition %flag : !waveasm.psreg<8> iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// An SCC value computed before the loop is read inside it: the new
// s_add_u32s would clobber it.
// CHECK-LABEL: waveasm.program @scc_live_into_loop
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}) : (!waveasm.sreg) -> !waveasm.sreg
// LOG: loop at {{.*}} not rewritten: an SCC value defined before the loop is read in it
waveasm.program @scc_live_into_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %s = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %n = waveasm.constant 16 : !waveasm.imm<16>
  %flag = waveasm.s_cmp_eq_u32 %s, %c0 : !waveasm.psreg<8>, !waveasm.imm<0> -> !waveasm.scc
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    %sel = waveasm.s_cselect_b32 %flag, %c1, %c2 : !waveasm.scc, !waveasm.imm<1>, !waveasm.imm<2> -> !waveasm.sreg
    %kv = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %x = waveasm.buffer_load_dword %srd, %kv, %sel : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    %y = waveasm.buffer_load_dword %srd, %kv, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<16> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}

// One loop, one rejected load per reason; none is rewritten.
// CHECK-LABEL: waveasm.program @load_rejections
// CHECK: waveasm.loop (%{{.*}} = %{{.*}}) : (!waveasm.sreg) -> !waveasm.sreg
// LOG: load at {{.*}} not rewritten: shift of an induction-dependent value by a non-constant amount ('waveasm.v_lshlrev_b32' at
// LOG: load at {{.*}} not rewritten: stride 0
// LOG: load at {{.*}} not rewritten: stride x trip count exceeds 2^31 - 1
// LOG: load at {{.*}} not rewritten: the stride does not fit 32 bits ('waveasm.v_mul_lo_u32' at
// LOG: load at {{.*}} not rewritten: bitwise op of an induction-dependent value ('waveasm.v_and_b32' at
// LOG: load at {{.*}} not rewritten: product of two induction-dependent values
// LOG: load at {{.*}} not rewritten: product of an induction-dependent value and a non-constant
// LOG: load at {{.*}} not rewritten: shift right of a stride that it does not divide exactly
// LOG: load at {{.*}} not rewritten: computed by an op that is not address arithmetic ('waveasm.buffer_load_dword' at
// LOG: load at {{.*}} not rewritten: the soffset is computed in the loop
// LOG: load at {{.*}} not rewritten: the or-operand of v_lshl_or_b32 depends on the induction variable
// LOG: load at {{.*}} not rewritten: the shift amount depends on the induction variable
// LOG: load at {{.*}} not rewritten: the voffset does not depend on the induction variable
// LOG: load at {{.*}} not rewritten: shift amount outside [0, 31]
waveasm.program @load_rejections target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %sv = waveasm.precolored.sreg 8 : !waveasm.psreg<8>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c3 = waveasm.constant 3 : !waveasm.imm<3>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %c26 = waveasm.constant 26 : !waveasm.imm<26>
  %c40 = waveasm.constant 40 : !waveasm.imm<40>
  %c255 = waveasm.constant 255 : !waveasm.imm<255>
  %big = waveasm.constant 4294967296 : !waveasm.imm<4294967296>
  %n = waveasm.constant 64 : !waveasm.imm<64>
  %k0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%k = %k0) : (!waveasm.sreg) -> !waveasm.sreg {
    // non-constant shift amount
    %a = waveasm.v_lshlrev_b32 %tid, %k : !waveasm.pvreg<0>, !waveasm.sreg -> !waveasm.vreg
    %la = waveasm.buffer_load_dword %srd, %a, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // stride 0: k*4 - (k << 2)
    %b1 = waveasm.v_mul_lo_u32 %k, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.vreg
    %b2 = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %b = waveasm.v_sub_u32 %b1, %b2 : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %lb = waveasm.buffer_load_dword %srd, %b, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // 2^26 per step x 64 steps > 2^31 - 1
    %c = waveasm.v_lshlrev_b32 %c26, %k : !waveasm.imm<26>, !waveasm.sreg -> !waveasm.vreg
    %lc = waveasm.buffer_load_dword %srd, %c, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // 2^32 per step
    %d = waveasm.v_mul_lo_u32 %k, %big : !waveasm.sreg, !waveasm.imm<4294967296> -> !waveasm.vreg
    %ld = waveasm.buffer_load_dword %srd, %d, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // masking the induction variable
    %e = waveasm.v_and_b32 %k, %c255 : !waveasm.sreg, !waveasm.imm<255> -> !waveasm.vreg
    %le = waveasm.buffer_load_dword %srd, %e, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // k * k
    %f = waveasm.v_mul_lo_u32 %k, %k : !waveasm.sreg, !waveasm.sreg -> !waveasm.vreg
    %lf = waveasm.buffer_load_dword %srd, %f, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // k * sgpr
    %g = waveasm.v_mul_lo_u32 %k, %sv : !waveasm.sreg, !waveasm.psreg<8> -> !waveasm.vreg
    %lg = waveasm.buffer_load_dword %srd, %g, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // (k * 4) >> 3
    %h1 = waveasm.v_lshlrev_b32 %c2, %k : !waveasm.imm<2>, !waveasm.sreg -> !waveasm.vreg
    %h = waveasm.v_lshrrev_b32 %c3, %h1 : !waveasm.imm<3>, !waveasm.vreg -> !waveasm.vreg
    %lh = waveasm.buffer_load_dword %srd, %h, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // a loaded value in the chain
    %i = waveasm.v_add_u32 %b2, %la : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
    %li = waveasm.buffer_load_dword %srd, %i, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // soffset computed in the loop
    %soff = waveasm.s_mul_i32 %k, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.sreg
    %lj = waveasm.buffer_load_dword %srd, %b2, %soff : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.sreg -> !waveasm.vreg
    // (tid << 2) | (k << 2)
    %m = waveasm.v_lshl_or_b32 %tid, %c2, %b2 : !waveasm.pvreg<0>, !waveasm.imm<2>, !waveasm.vreg -> !waveasm.vreg
    %lm = waveasm.buffer_load_dword %srd, %m, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // tid << k
    %o = waveasm.v_lshlrev_b32 %k, %tid : !waveasm.sreg, !waveasm.pvreg<0> -> !waveasm.vreg
    %lo = waveasm.buffer_load_dword %srd, %o, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // computed in the body, but from loop invariants only
    %p = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
    %lp = waveasm.buffer_load_dword %srd, %p, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    // shift by 40
    %q = waveasm.v_lshl_add_u32 %k, %c40, %tid : !waveasm.sreg, !waveasm.imm<40>, !waveasm.pvreg<0> -> !waveasm.vreg
    %lq = waveasm.buffer_load_dword %srd, %q, %c0 : !waveasm.psreg<4, 4>, !waveasm.vreg, !waveasm.imm<0> -> !waveasm.vreg
    %kn:2 = waveasm.s_add_u32 %k, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %kn#0, %n : !waveasm.sreg, !waveasm.imm<64> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%kn#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
