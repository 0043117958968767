//===- CycleSimulator.h - the cycle model's simulation ----------*- C++ -*-===//
//
// The simulation behind CycleModel (the rules are in CycleModel.h); only
// CycleModel.cpp and the tests include this header. The simulator walks the
// ops of a region in order, keeping per value when it is ready (and, for
// load results, which counter slot produced it) and a small machine state:
// clock, MFMA pipe, outstanding memory ops per counter and what the waits so
// far guarantee. The machine state is small, so ifs and loops copy it
// instead of undoing.
//
// Repeated iterations.  The steady-state search (CycleModel.h, "Loops")
// simulates iteration after iteration until two durations agree. When an
// iteration starts in the state the previous one started in, shifted by the
// previous one's duration (every time later by it, every counter slot later
// by the slots it issued), it runs as the previous one did, shifted, and so
// does every later one: the search stops there with the figures it would
// have reached (repeatsShifted says when two states are such a pair).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_CYCLESIMULATOR_H
#define WAVEASM_ANALYSIS_CYCLESIMULATOR_H

#include "analysis/CycleModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <tuple>

namespace waveasm {

class CycleSimulator {
public:
  struct Options {
    /// Stop a steady-state search at an iteration that repeats the
    /// previous one (above). Off only to check that it changes nothing.
    bool skipRepeatedIterations = true;
  };
  struct Stats {
    unsigned bodyPasses = 0;        // loop bodies simulated, any mode
    unsigned skippedIterations = 0; // steady iterations not simulated
  };

  CycleSimulator(CycleModel &model, Options options);

  void run();
  const Stats &getStats() const { return stats; }

  /// Simulates `model`'s program again, replacing its timings, loops and
  /// uncovered dependencies (tests compare the figures with and without
  /// the skipping of repeated iterations).
  static Stats rerun(CycleModel &model, Options options);

private:
  static constexpr unsigned kNone = ProgramIndex::kNone;

  enum class LoadKind : uint8_t { None, VM, LDS, SMEM, Flat };

  /// What a reader of a value needs to know.
  struct ValueState {
    int64_t readyAt = 0;
    unsigned loadOp = kNone; // the load that produced the data
    uint32_t seq = 0;        // in-order slot: vmcnt or LDS
    uint32_t oooSeq = 0;     // out-of-order lgkmcnt slot: SMEM, FLAT
    LoadKind load = LoadKind::None;
    bool fromMFMA = false;
    int64_t chainReadyAt = 0; // fromMFMA: when an accumulator chain reads it
  };

  struct MemEntry {
    int64_t issue;
    int64_t complete;
  };

  /// Everything but the per-value states; cheap to copy.
  struct MachineState {
    int64_t clock = 0;
    int64_t mfmaFree = 0;
    int64_t valuFree = 0; // first slot a VALU op may issue after an MFMA
    int64_t ldsFree = 0;  // first slot the LDS pipe takes another access
    // Outstanding ops per queue, in issue order.
    llvm::SmallVector<MemEntry, 16> vm, lds, ooo;
    int64_t lastVMComplete = 0, lastLDSComplete = 0;
    // Slots issued so far and slots below which completion is guaranteed.
    uint32_t vmIssued = 0, vmCovered = 0;
    uint32_t ldsIssued = 0, ldsCovered = 0;
    uint32_t oooIssued = 0, oooCovered = 0;
  };

  /// The state a steady iteration starts from: the machine and the loop's
  /// block arguments (the body's other values are written before they are
  /// read, and the values from outside stay as analyzeLoop set them).
  struct IterationStart {
    MachineState machine;
    llvm::SmallVector<ValueState> args;
  };

  /// A value a body op may read as it reads a value from outside the loop
  /// (analyzeLoop sets those so): ready at 0, no load, no MFMA.
  static bool isAsFromOutside(const ValueState &v) {
    return v.readyAt == 0 && v.load == LoadKind::None && !v.fromMFMA;
  }

  enum class Mode { Quiet, Program, Steady };

  void simulateRange(std::pair<unsigned, unsigned> range);
  void simulateOp(unsigned idx);
  void simulateLoop(unsigned idx);
  void simulateIf(unsigned idx);
  void transfer(unsigned idx);
  OpTiming issue(unsigned idx);
  void record(unsigned idx, OpTiming timing);
  void noteUncovered(unsigned user, unsigned valueId, unsigned load,
                     int64_t stall);
  bool isCovered(const ValueState &v) const;
  static bool coveredIn(const ValueState &v, const MachineState &m);
  int64_t waitVM(int64_t t, unsigned n);
  int64_t waitLGKM(int64_t t, unsigned n);
  void shiftLoop(int64_t loopStart, int64_t delta);
  void bindBlockArgs(unsigned loopIdx, llvm::ArrayRef<ValueState> inits);
  llvm::SmallVector<ValueState> getIterArgStates(unsigned loopIdx);
  void analyzeLoop(unsigned loopIdx);
  /// Whether an iteration starting at `next` runs as the one that started
  /// at `prev`, shifted (file comment).
  static bool repeatsShifted(const IterationStart &prev,
                             const IterationStart &next);

  CycleModel &model;
  const ProgramIndex &index;
  llvm::ArrayRef<OpFacts> facts;
  Options options;
  Stats stats;
  std::vector<ValueState> values;
  MachineState state;
  Mode mode = Mode::Quiet;
  unsigned steadyLoop = kNone;
  int64_t iterationStart = 0;
  /// Set when the current steady iteration made a value that a shift of
  /// its start would not shift (repeatsShifted's rules do not cover it).
  bool unshiftedValue = false;
  // (user, value, load) -> position in model.uncovered.
  llvm::DenseMap<std::tuple<unsigned, unsigned, unsigned>, unsigned>
      uncoveredSlot;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_CYCLESIMULATOR_H
