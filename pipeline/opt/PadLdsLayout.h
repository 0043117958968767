//===- PadLdsLayout.h - rewrite LDS accesses to padded rows -----*- C++ -*-===//
//
// `waveasm-pad-lds-layout`'s rewrite (analysis/LdsPadding.h's layout), for
// the pass and any caller that pads a clone (padLdsLayout).
// Each address term is mapped once, right after its definition:
//   lane term L:   q = v_lshrrev_b32 log2(stride), L
//                  L' = v_mad_u32_u24 q, pad, L
//   SGPR base U:   t = s_lshr_b32 U, log2(stride); t' = s_mul_i32 t, pad
//                  U' = s_add_u32 U, t'
//   U + L:         v_add_u32 U', L' (after the original add)
// and the `offset` of each op becomes map(offset); `lds_size` grows.
// Loop-invariant lane terms are thus mapped outside the loop. An SGPR base
// that rotates through a loop's iter_args from s_mov_b32 constants and is
// read only as a site's base (the hand-written ping/pong) gets its inits
// mapped instead, so the loop body gains only the adds; any other SGPR base
// costs the three SALU ops per definition.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_PADLDSLAYOUT_H
#define WAVEASM_PIPELINE_OPT_PADLDSLAYOUT_H

#include "analysis/LdsPadding.h"

namespace waveasm {

/// Rewrites every site of `plan` (which must be ok()) to the padded layout.
void applyLdsPadding(ProgramOp program, const LdsPaddingPlan &plan);

/// The plan the rewrite would apply (requested padding or the best one):
/// planLdsPadding's, refused also for register-allocated IR. What callers
/// that only validate (the Conductor's `pad lds S P`) ask.
LdsPaddingPlan planLdsLayoutRewrite(ProgramOp program,
                                    std::optional<LdsPadding> requested);

/// Plans (planLdsLayoutRewrite) and applies; false with `why`
/// (the program unchanged) when refused. `applied` receives the choice.
bool padLdsLayout(ProgramOp program, std::optional<LdsPadding> requested,
                  std::string &why, LdsPaddingChoice *applied = nullptr);

/// "rows of 64 B padded by 8 B: conflict slots 512 -> 0, LDS 16384 ->
/// 18432 bytes".
std::string describeLdsPadding(const LdsPaddingChoice &choice,
                               int64_t ldsBytesBefore);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_PADLDSLAYOUT_H
