// An insert into a precolored tuple writes the one register in place
// (SPEC.md 14.4 step 8): a v_mov_b32 / s_mov_b32 into the slot, typed with
// the physical slot, then dce_protect; the result is the tuple's registers.
// The tuple is copied first only where writing it would destroy a value
// still needed: the tuple is read again later, another value names the same
// registers, or its op sits in a loop (each iteration names the ABI
// contents again).
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan %s | FileCheck %s
// RUN: waveasm-opt --split-input-file --waveasm-linear-scan --debug-only=waveasm-linear-scan --mlir-disable-threading %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG
// The whole pipeline's assembly assembles.
// RUN: waveasm-opt --split-input-file --waveasm-pipeline --emit-assembly %s | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null

// CHECK-LABEL: waveasm.program @vgpr_in_place
// CHECK:      %[[V:.*]] = waveasm.v_add_u32 {{.*}} -> !waveasm.pvreg<1>
// CHECK-NEXT: %[[MV:.*]] = waveasm.v_mov_b32 %[[V]] : !waveasm.pvreg<1> -> !waveasm.pvreg<6>
// CHECK-NEXT: waveasm.dce_protect %[[MV]] : !waveasm.pvreg<6>
// CHECK-NEXT: %[[Q2:.*]] = waveasm.insert %[[V]] into %{{.*}}[2] : !waveasm.pvreg<1>, !waveasm.pvreg<4, 4> -> !waveasm.pvreg<4, 4>
// A chain of inserts stays in place too.
// CHECK-NEXT: %[[MV2:.*]] = waveasm.v_mov_b32 %[[V]] : !waveasm.pvreg<1> -> !waveasm.pvreg<4>
// CHECK-NEXT: waveasm.dce_protect %[[MV2]] : !waveasm.pvreg<4>
// CHECK-NEXT: %[[Q3:.*]] = waveasm.insert %[[V]] into %[[Q2]][0] : !waveasm.pvreg<1>, !waveasm.pvreg<4, 4> -> !waveasm.pvreg<4, 4>
// CHECK-NEXT: waveasm.buffer_store_dwordx4 %[[Q3]]
waveasm.program @vgpr_in_place target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %q = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
  %v = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %q2 = waveasm.insert %v into %q[2] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %q3 = waveasm.insert %v into %q2[0] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %q3, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// An SGPR tuple (a buffer descriptor from the ABI): s_mov_b32 into s6.
// CHECK-LABEL: waveasm.program @sgpr_in_place
// CHECK:      %[[N:.*]] = waveasm.s_mov_b32 {{.*}} -> !waveasm.psreg<0>
// CHECK-NEXT: %[[MV:.*]] = waveasm.s_mov_b32 %[[N]] : !waveasm.psreg<0> -> !waveasm.psreg<6>
// CHECK-NEXT: waveasm.dce_protect %[[MV]] : !waveasm.psreg<6>
// CHECK-NEXT: %[[SRD:.*]] = waveasm.insert %[[N]] into %{{.*}}[2] : !waveasm.psreg<0>, !waveasm.psreg<4, 4> -> !waveasm.psreg<4, 4>
// CHECK-NEXT: waveasm.buffer_load_dword %[[SRD]]
waveasm.program @sgpr_in_place target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.sreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c64 = waveasm.constant 64 : !waveasm.imm<64>
  %n = waveasm.s_mov_b32 %c64 : !waveasm.imm<64> -> !waveasm.sreg
  %srd2 = waveasm.insert %n into %srd[2] : !waveasm.sreg, !waveasm.sreg<4, 4> -> !waveasm.sreg<4, 4>
  %v = waveasm.buffer_load_dword %srd2, %tid, %c0 : !waveasm.sreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  waveasm.buffer_store_dword %v, %srd2, %tid : !waveasm.vreg, !waveasm.sreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// Still read after the insert: the insert works on a copy of the tuple.
// The three copies, with their reason, under --debug-only:
// LOG-COUNT-3: insert at {{.*}} works on a copy of its precolored tuple
// LOG-NOT: insert at
// CHECK-LABEL: waveasm.program @still_read
// CHECK:      %[[Q:.*]] = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
// CHECK:      %[[C:.*]] = waveasm.v_mov_b32 %[[Q]] : !waveasm.pvreg<4, 4> -> !waveasm.pvreg<[[R:[0-9]+]], 4>
// CHECK:      waveasm.insert %{{.*}} into %[[C]][1] : !waveasm.pvreg<{{[0-9]+}}>, !waveasm.pvreg<[[R]], 4> -> !waveasm.pvreg<[[R]], 4>
// CHECK:      waveasm.buffer_store_dwordx4 %[[Q]]
waveasm.program @still_read target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %q = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
  %v = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %q2 = waveasm.insert %v into %q[1] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %q2, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dwordx4 %q, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// v5 is also named by another precolored value, read after the insert:
// writing v5 in place would change it, so the tuple is copied.
// CHECK-LABEL: waveasm.program @shared_register
// CHECK:      %[[Q:.*]] = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
// CHECK:      %[[C:.*]] = waveasm.v_mov_b32 %[[Q]] : !waveasm.pvreg<4, 4> -> !waveasm.pvreg<[[R:[0-9]+]], 4>
// CHECK:      waveasm.insert %{{.*}} into %[[C]][1]
waveasm.program @shared_register target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %q = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
  %v5 = waveasm.precolored.vreg 5 : !waveasm.vreg
  %v = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
  %q2 = waveasm.insert %v into %q[1] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  waveasm.buffer_store_dwordx4 %q2, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.buffer_store_dword %v5, %srd, %tid : !waveasm.vreg, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
}

// -----

// The precolored op inside a loop names the ABI contents on every
// iteration: the insert in the same iteration works on a copy.
// CHECK-LABEL: waveasm.program @in_loop
// CHECK:      waveasm.loop
// CHECK:      %[[Q:.*]] = waveasm.precolored.vreg 4, 4 : !waveasm.pvreg<4, 4>
// CHECK:      %[[C:.*]] = waveasm.v_mov_b32 %[[Q]] : !waveasm.pvreg<4, 4> -> !waveasm.pvreg<[[R:[0-9]+]], 4>
// CHECK:      waveasm.insert %{{.*}} into %[[C]][3]
waveasm.program @in_loop target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 0, 4 : !waveasm.psreg<0, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> (!waveasm.sreg) {
    %q = waveasm.precolored.vreg 4, 4 : !waveasm.vreg<4, 4>
    %v = waveasm.v_add_u32 %tid, %tid : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
    %q2 = waveasm.insert %v into %q[3] : !waveasm.vreg, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
    waveasm.buffer_store_dwordx4 %q2, %srd, %tid : !waveasm.vreg<4, 4>, !waveasm.psreg<0, 4>, !waveasm.pvreg<0>
    %n:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %go = waveasm.s_cmp_lt_u32 %n#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %go : !waveasm.scc iter_args(%n#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
