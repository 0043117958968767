// The pass options: ticketed-waitcnt=false waits for 0 wherever a wait is
// needed; insert-after-loads=true waits for each load right after it.
// RUN: waveasm-opt --waveasm-insert-waitcnt %s | FileCheck %s --check-prefix=TICKET
// RUN: waveasm-opt --waveasm-insert-waitcnt=ticketed-waitcnt=false %s | FileCheck %s --check-prefix=ZERO
// RUN: waveasm-opt --waveasm-insert-waitcnt=insert-after-loads=true %s | FileCheck %s --check-prefix=AFTER

// TICKET:      %[[A:.*]] = waveasm.buffer_load_dword
// TICKET-NEXT: %[[B:.*]] = waveasm.buffer_load_dword
// TICKET-NEXT: %[[C:.*]] = waveasm.ds_read_b32
// TICKET-NEXT: waveasm.s_waitcnt_vmcnt 1
// TICKET-NEXT: waveasm.v_mov_b32 %[[A]]
// TICKET-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// TICKET-NEXT: waveasm.v_mov_b32 %[[C]]
// TICKET-NEXT: waveasm.s_waitcnt_vmcnt 0
// TICKET-NEXT: waveasm.v_mov_b32 %[[B]]

// ZERO:      %[[A:.*]] = waveasm.buffer_load_dword
// ZERO-NEXT: %[[B:.*]] = waveasm.buffer_load_dword
// ZERO-NEXT: %[[C:.*]] = waveasm.ds_read_b32
// ZERO-NEXT: waveasm.s_waitcnt_vmcnt 0
// ZERO-NEXT: waveasm.v_mov_b32 %[[A]]
// ZERO-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// ZERO-NEXT: waveasm.v_mov_b32 %[[C]]
// ZERO-NEXT: waveasm.v_mov_b32 %[[B]]

// AFTER:      %[[A:.*]] = waveasm.buffer_load_dword
// AFTER-NEXT: waveasm.s_waitcnt_vmcnt 0
// AFTER-NEXT: %[[B:.*]] = waveasm.buffer_load_dword
// AFTER-NEXT: waveasm.s_waitcnt_vmcnt 0
// AFTER-NEXT: %[[C:.*]] = waveasm.ds_read_b32
// AFTER-NEXT: waveasm.s_waitcnt_lgkmcnt 0
// AFTER-NEXT: waveasm.v_mov_b32 %[[A]]
// AFTER-NEXT: waveasm.v_mov_b32 %[[C]]
// AFTER-NEXT: waveasm.v_mov_b32 %[[B]]
waveasm.program @modes target = #waveasm.target<#waveasm.gfx942> abi = #waveasm.abi<> {
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %v0 = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %a = waveasm.buffer_load_dword %srd, %v0, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %b = waveasm.buffer_load_dword %srd, %v0, %c0 offset : 4 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %c = waveasm.ds_read_b32 %v0 : !waveasm.pvreg<0> -> !waveasm.vreg
  %ma = waveasm.v_mov_b32 %a : !waveasm.vreg -> !waveasm.vreg
  %mc = waveasm.v_mov_b32 %c : !waveasm.vreg -> !waveasm.vreg
  %mb = waveasm.v_mov_b32 %b : !waveasm.vreg -> !waveasm.vreg
  waveasm.s_endpgm
}
