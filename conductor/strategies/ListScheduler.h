//===- ListScheduler.h - latency-aware list scheduling ----------*- C++ -*-===//
//
// The built-in latency strategy: a cycle-driven top-down list scheduler over
// the DependenceGraph of one block (walls are barriers in the graph, so the
// segments between them are scheduled independently and in place).
//  - An op is a candidate once all its predecessors are placed; its
//    earliest issue cycle is the latest of the clock, its operands' ready
//    cycles (producer issue + latency, MFMA accumulator chains with the
//    forwarding penalty) and, for MFMAs, the cycle the MFMA pipe frees up.
//  - Among candidates that can issue now the one with the longest
//    latency-weighted path to the end of the block goes first (critical
//    path); global loads win ties (issued early, their ~100 cycles are
//    hidden); if none can issue now, the one that can issue soonest. While
//    the MFMA pipe is busy an MFMA cannot issue, so LDS reads and address
//    arithmetic fill the gap: LDS reads interleave with MFMAs.
//  - With `maxPendingLDSReads`, LDS reads beyond that many unconsumed ones
//    wait while anything else can go.
//  - With `deferDeadResults`, ops whose results nobody reads go last.
//  - With `capPressure`, a candidate that would push the block's live VGPRs
//    or AGPRs above the input order's peak waits while another candidate
//    fits.
// Free ops (constants, pack/extract) are then anchored before their first
// user.
//
// `scheduleListLatencyOrder` runs the variants, measures each with
// compile-and-measure and keeps the fastest that does not raise peak VGPRs
// or AGPRs (or the input order when none beats it), then refines that order
// with measured single moves (LocalSearch.h) within a budget.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_LISTSCHEDULER_H
#define WAVEASM_CONDUCTOR_STRATEGIES_LISTSCHEDULER_H

#include "conductor/strategies/DependenceGraph.h"
#include "conductor/strategies/LocalSearch.h"
#include "conductor/strategies/ScheduleEvaluator.h"

#include "analysis/TargetModel.h"

namespace waveasm::conductor {

struct ListScheduleOptions {
  /// Keep the block's live VGPRs/AGPRs within the input order's peak.
  bool capPressure = true;
  /// Registers below the input's in-block peak the cap allows (a tighter
  /// cap keeps the greedy out of corners where everything exceeds it).
  int64_t capSlack = 0;
  /// Break priority ties by input position before preferring loads.
  bool sourceOrderTies = false;
  /// Extra priority (cycles) of global loads.
  int64_t globalLoadBoost = 0;
  /// At most this many LDS reads whose results are still waiting for a
  /// user may be in flight before another LDS read is placed while
  /// something else can go (0: no limit): forces ds_read/MFMA interleaving
  /// and keeps fragment registers short-lived.
  unsigned maxPendingLDSReads = 0;
  /// Place ops whose results nobody reads after everything else that can
  /// go (their registers are reused at once after allocation).
  bool deferDeadResults = true;
};

/// The order (graph indices) the list scheduler picks.
std::vector<unsigned> listScheduleOrder(const DependenceGraph &graph,
                                        const TargetModel &target,
                                        const ListScheduleOptions &options);

/// The variants the measured strategy tries, in order.
std::vector<ListScheduleOptions> listScheduleVariants();

struct StrategyResult {
  std::vector<mlir::Operation *> order; // the block's ops, new order
  std::optional<BlockMeasure> before, after;
  bool improved = false;
  std::string variant; // which variant won
  /// Every distinct order measured: variant name and its measure (nullopt
  /// when the backend failed on it), for reports.
  std::vector<std::pair<std::string, std::optional<BlockMeasure>>> tried;
};

/// The measured latency strategy on `block`.
StrategyResult scheduleListLatencyOrder(mlir::Block &block,
                                        const TargetModel &target,
                                        const CompileOptions &options = {},
                                        const LocalSearchOptions &refine = {});

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_LISTSCHEDULER_H
