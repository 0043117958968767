//===- PressureScheduler.h - order ops to shorten live ranges ---*- C++ -*-===//
//
// The built-in pressure strategy: a top-down list scheduler over the
// DependenceGraph that places, among the ops whose predecessors are placed,
// the one that frees the most registers (VGPR first, then AGPR): ops that
// end live ranges go first, ops that only start them (loads, address math
// for later users) wait until nothing else is left, which moves each def
// toward its first use. Ties go to the op that unblocks a user soonest
// (fewest unplaced predecessors among its users), then to input order.
//
// `schedulePressureOrder` keeps the result only when it measures (compile-
// and-measure) with fewer peak VGPRs, or as many and a smaller live-range
// area, and never more AGPRs; otherwise it returns the input order. It
// never raises peak VGPRs.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_PRESSURESCHEDULER_H
#define WAVEASM_CONDUCTOR_STRATEGIES_PRESSURESCHEDULER_H

#include "conductor/strategies/ListScheduler.h"

namespace waveasm::conductor {

/// The order (graph indices) the pressure scheduler picks.
std::vector<unsigned> pressureScheduleOrder(const DependenceGraph &graph,
                                            const TargetModel &target);

/// The measured pressure strategy on `block`.
StrategyResult schedulePressureOrder(mlir::Block &block,
                                     const TargetModel &target,
                                     const CompileOptions &options = {});

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_PRESSURESCHEDULER_H
