// An outer loop holding two inner loops: the rotation needs one kernel
// between the head and the tail, so it refuses with the reason.
waveasm.program @two_inner
  target = #waveasm.target<#waveasm.gfx942, 5>
  abi = #waveasm.abi<tid = 0, kernarg = 0>
  attributes {vgprs = 32 : i64, sgprs = 32 : i64, workgroup_size = [64, 1, 1]} {
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c4 = waveasm.constant 4 : !waveasm.imm<4>
  %n0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %r = waveasm.loop (%n = %n0) : (!waveasm.sreg) -> !waveasm.sreg {
    %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %a = waveasm.loop (%i = %i0) : (!waveasm.sreg) -> !waveasm.sreg {
      %i1:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %m = waveasm.s_cmp_lt_u32 %i1#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %m : !waveasm.scc iter_args(%i1#0) : !waveasm.sreg
    }
    %b = waveasm.loop (%j = %a) : (!waveasm.sreg) -> !waveasm.sreg {
      %j1:2 = waveasm.s_add_u32 %j, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
      %m = waveasm.s_cmp_lt_u32 %j1#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
      waveasm.condition %m : !waveasm.scc iter_args(%j1#0) : !waveasm.sreg
    }
    %n1:2 = waveasm.s_add_u32 %n, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %again = waveasm.s_cmp_lt_u32 %n1#0, %c4 : !waveasm.sreg, !waveasm.imm<4> -> !waveasm.scc
    waveasm.condition %again : !waveasm.scc iter_args(%n1#0) : !waveasm.sreg
  }
  waveasm.s_endpgm
}
