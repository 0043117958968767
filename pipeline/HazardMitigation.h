//===- HazardMitigation.h - the hazard pass's walk, callable -----*- C++
//-*-===//
//
// `waveasm-hazard-mitigation` (HazardMitigation.cpp) as a function, with the
// choice of how loop bodies are walked to their fixed point, so a test can
// compare the walk the pass runs with the walk by definition.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_HAZARDMITIGATION_H
#define WAVEASM_PIPELINE_HAZARDMITIGATION_H

#include "ir/Dialect.h"

namespace waveasm {

class TargetModel;

/// How the walk iterates a loop body until the state at its head is stable.
enum class HazardLoopWalk {
  /// The pass's: a later walk of a body resumes the previous one where
  /// their states mean the same, and a walk that resumed ends the iteration
  /// (its end state is the previous walk's, already joined into the head).
  Resume,
  /// By definition: every walk of a body is whole, and the iteration ends
  /// when the head joined with the back edge's state equals the head.
  Full,
};

/// Puts `s_nop`s before the ops of `program` that would read or overwrite
/// a register too soon (the pass's rules, `model`'s wait states).
void mitigateHazards(ProgramOp program, const TargetModel &model,
                     HazardLoopWalk walk = HazardLoopWalk::Resume);

} // namespace waveasm

#endif // WAVEASM_PIPELINE_HAZARDMITIGATION_H
