//===- SchedulingModel.h - per-op numbers the list schedulers use -*- C++
//-*-===//
//
// What the latency and pressure schedulers know about the ops of one block,
// gathered once: result latencies and MFMA pipe occupancy from the
// TargetModel, data-edge latencies (MFMA accumulator chains get the
// forwarding penalty, as in the cycle model), and the registers each op
// defines and reads among the values defined in the block, so a scheduler
// can track live registers as it places ops.
//
// Register accounting follows analysis/Liveness.h at the granularity a
// scheduler needs: a value defined in the block is live from its def to its
// last user in the block; values from outside the block are live across the
// whole block (a constant, ignored); a tied accumulator that dies at its
// MFMA shares the result's registers.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STRATEGIES_SCHEDULINGMODEL_H
#define WAVEASM_CONDUCTOR_STRATEGIES_SCHEDULINGMODEL_H

#include "conductor/strategies/DependenceGraph.h"

#include "analysis/TargetModel.h"

#include <array>

namespace waveasm::conductor {

/// Register classes a scheduler tracks: VGPR and AGPR.
constexpr unsigned kNumTrackedClasses = 2;
using RegVector = std::array<int64_t, kNumTrackedClasses>;

struct SchedValue {
  unsigned cls;                // 0 VGPR, 1 AGPR
  int64_t size;                // registers
  unsigned def;                // defining op (graph index)
  std::vector<unsigned> users; // distinct user ops in the block, ascending
};

struct SchedOp {
  int64_t latency = 0;       // result latency (0 for free ops)
  int64_t issueCycles = 1;   // 0 for free ops
  int64_t mfmaOccupancy = 0; // cycles the MFMA pipe is busy, 0 if no MFMA
  bool isGlobalLoad = false;
  bool isLDSRead = false;
  /// Defines registers nobody reads (e.g. a load kept for its side effect
  /// on the counters): after allocation its register is free at once, so
  /// any later def may reuse it and must wait for the op (WAW); best last.
  bool deadResults = false;
  std::vector<unsigned> defs;  // SchedValue ids defined here
  std::vector<unsigned> reads; // SchedValue ids read here (distinct)
  int tiedValue = -1;          // SchedValue id of the tied accumulator read
};

class SchedulingModel {
public:
  SchedulingModel(const DependenceGraph &graph, const TargetModel &target);

  const DependenceGraph &getGraph() const { return graph; }
  const SchedOp &op(unsigned i) const { return ops[i]; }
  const SchedValue &value(unsigned v) const { return values[v]; }
  unsigned getNumValues() const { return values.size(); }
  /// Cycles after the issue of `from` at which `to` may issue.
  int64_t edgeLatency(unsigned from, unsigned to) const;
  /// Longest latency-weighted path from op i to the end of the block.
  int64_t height(unsigned i) const { return heights[i]; }

  /// Live-register simulation of an order: per class, the maximum over ops
  /// of the registers occupied while the op issues, and the sum over ops
  /// of the registers live after it (the area the pressure strategy cuts).
  struct PressureProfile {
    RegVector peak = {0, 0};
    RegVector area = {0, 0};
  };
  PressureProfile simulatePressure(llvm::ArrayRef<unsigned> order) const;

private:
  const DependenceGraph &graph;
  std::vector<SchedOp> ops;
  std::vector<SchedValue> values;
  llvm::DenseMap<uint64_t, int64_t> dataLatency; // (from, to) -> cycles
  std::vector<int64_t> heights;
};

/// Incremental live-register state for list schedulers.
class LiveTracker {
public:
  explicit LiveTracker(const SchedulingModel &model);
  /// Registers occupied while op i issues if placed now.
  RegVector peakIfPlaced(unsigned i) const;
  /// Change of the live registers after placing op i.
  RegVector deltaIfPlaced(unsigned i) const;
  void place(unsigned i);
  const RegVector &live() const { return liveNow; }

private:
  const SchedulingModel &model;
  std::vector<unsigned> remainingUsers; // by value id
  std::vector<bool> defined;
  RegVector liveNow = {0, 0};
};

} // namespace waveasm::conductor

#endif // WAVEASM_CONDUCTOR_STRATEGIES_SCHEDULINGMODEL_H
