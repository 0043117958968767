//===- IssueRules.h - what an op costs the issue stage ----------*- C++ -*-===//
//
// The few rules the cycle model and the loop bounds share: which ops take an
// issue slot, how many cycles they hold it, and which operands they read.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_ISSUERULES_H
#define WAVEASM_ANALYSIS_ISSUERULES_H

#include "ir/Dialect.h"
#include "ir/InstFacts.h"

namespace waveasm {

/// True if `op` becomes an instruction the wave issues. Non-emitting ops,
/// comments, labels and arith pseudo-ops (no unit) do not; neither does
/// waveasm.loop, which only emits a label.
bool takesIssueSlot(mlir::Operation *op);
/// Same, with the op's instruction facts already at hand.
bool takesIssueSlot(mlir::Operation *op, const InstFacts &facts);

/// Cycles `op` holds the issue stage: `s_nop N` N+1, other issued ops 1,
/// the rest 0.
int64_t getIssueCycles(mlir::Operation *op);
/// Same, knowing whether the op takes an issue slot.
int64_t getIssueCycles(mlir::Operation *op, bool takesSlot);

/// Operands the op reads when it issues. waveasm.condition and waveasm.if
/// read only their condition: iter_args and yields hand values on.
unsigned getNumReadOperands(mlir::Operation *op);

/// The s_waitcnt thresholds an op waits for (s_endpgm and a bare s_waitcnt
/// wait for everything); nullopt for a counter it does not wait on.
struct WaitThresholds {
  std::optional<unsigned> vmcnt;
  std::optional<unsigned> lgkmcnt;
};
WaitThresholds getWaitThresholds(mlir::Operation *op);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_ISSUERULES_H
