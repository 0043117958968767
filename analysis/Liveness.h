//===- Liveness.h - live ranges and register pressure -----------*- C++ -*-===//
//
// Liveness over the structured IR of one waveasm.program, on the program
// points of SPEC.md 14.1 (flattened pre-order op numbers, see ProgramIndex).
//
// Every value of a register type is tracked, virtual and physical alike
// (precolored and allocated values occupy registers too); imm and scc values
// are not registers. A live range is the closed interval [start, end] of
// program points:
//  - start: the defining op; a loop's block arguments start at the loop op;
//    the results of a loop or an if start at the last op of its regions
//    (the condition / the last yield), where their value is produced;
//  - end: the last use, or start when unused;
//  - a value defined outside a loop and used anywhere inside it (any depth)
//    is live across the whole loop including the back edge: its end is
//    extended to the loop's terminator, for every enclosing loop that does
//    not contain the definition;
//  - loop block arguments are extended to the terminator (their register
//    receives the next iteration's value there); values yielded by
//    waveasm.condition / waveasm.yield are used there.
//
// Pressure. Register pressure at point p counts the registers occupied
// while p issues: every range with start <= p <= end, by register width
// (a read at p and a result defined at p never share a register, as in the
// upstream allocator, SPEC.md 14.4). Values the allocator places in one
// register block count once, over the union of their ranges (SPEC.md 14.3's
// "envelope"): a loop block argument with its result, its condition iter_arg
// (unless it is another block argument of the loop -- the swap pattern -- or
// is defined before a later use of the block argument) and its init (if the
// init dies at the loop); an if result with yielded values that die at their
// yield; a tied operand (MFMA accumulator) that dies at the op with its
// result; pack inputs used once with the pack; insert and extract results
// with their source. Without this the carried accumulators of a GEMM loop
// would be counted twice.
//
// Cost: ranges are computed in one pass over the operands, pressure with
// prefix sums over range starts and ends (O(ops + values)); live-in,
// live-out and live-value lists are computed on request for one op.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LIVENESS_H
#define WAVEASM_ANALYSIS_LIVENESS_H

#include "analysis/ProgramIndex.h"

#include "llvm/ADT/SmallVector.h"

#include <array>

namespace waveasm {

/// Registers per class: VGPR, SGPR, AGPR (indexed by RegClass).
struct RegCounts {
  std::array<int32_t, 3> regs = {0, 0, 0};

  int32_t &operator[](RegClass cls) { return regs[static_cast<unsigned>(cls)]; }
  int32_t operator[](RegClass cls) const {
    return regs[static_cast<unsigned>(cls)];
  }
  int32_t vgprs() const { return regs[0]; }
  int32_t sgprs() const { return regs[1]; }
  int32_t agprs() const { return regs[2]; }
  bool operator==(const RegCounts &other) const { return regs == other.regs; }
};

/// Closed interval of program points.
struct LiveRange {
  unsigned start = 0;
  unsigned end = 0;
  bool covers(unsigned point) const { return start <= point && point <= end; }
};

/// A maximum of register pressure.
struct PressurePeak {
  int32_t regs = 0;
  /// First op where the maximum is reached (null for an empty program).
  mlir::Operation *op = nullptr;
  unsigned index = 0;
};

/// One register block live at a point, for "free N registers" messages.
struct LiveValue {
  mlir::Value value; // the member of the block's tied group live here
  RegClass regClass;
  int64_t size;    // registers of the block
  LiveRange range; // the union of the group's ranges
};

class Liveness {
public:
  explicit Liveness(const ProgramIndex &index);

  const ProgramIndex &getIndex() const { return index; }

  /// True if the value is tracked (has a register type).
  bool isTracked(mlir::Value value) const;
  /// Range of a tracked value (nullopt otherwise).
  std::optional<LiveRange> getRange(mlir::Value value) const;
  LiveRange getRangeById(unsigned id) const { return ranges[id]; }

  /// Registers occupied while op `idx` issues (start <= idx <= end).
  const RegCounts &getPressure(unsigned idx) const { return pressure[idx]; }
  /// Registers live after op `idx` (start <= idx < end): values still
  /// needed later, dead definitions excluded.
  const RegCounts &getLiveAfter(unsigned idx) const { return liveAfter[idx]; }
  /// Same, by op; zero counts for ops outside the program.
  RegCounts getPressure(mlir::Operation *op) const;
  RegCounts getLiveAfter(mlir::Operation *op) const;

  /// Maximum of `getPressure` over the program for one class.
  const PressurePeak &getPeak(RegClass cls) const {
    return peaks[static_cast<unsigned>(cls)];
  }

  /// Values live into op `idx`: defined before it, used at or after it.
  llvm::SmallVector<mlir::Value> getLiveIn(unsigned idx) const;
  /// Values live out of op `idx`: defined at or before it, used after it.
  llvm::SmallVector<mlir::Value> getLiveOut(unsigned idx) const;
  /// The register blocks occupied at op `idx`, one per tied group; their
  /// sizes add up to `getPressure(idx)`. Sorted by class, then size
  /// (largest first), then start.
  llvm::SmallVector<LiveValue> getLiveValuesAt(unsigned idx) const;

  /// Same, by op; empty for ops outside the program.
  llvm::SmallVector<mlir::Value> getLiveIn(mlir::Operation *op) const;
  llvm::SmallVector<mlir::Value> getLiveOut(mlir::Operation *op) const;
  llvm::SmallVector<LiveValue> getLiveValuesAt(mlir::Operation *op) const;

  /// The tied group (register block) a tracked value belongs to.
  unsigned getGroup(unsigned id) const { return groupOf[id]; }

private:
  void computeRanges();
  void computeGroups();
  void computePressure();
  unsigned find(unsigned id);

  const ProgramIndex &index;
  std::vector<LiveRange> ranges;     // by value id (unused for non-registers)
  std::vector<unsigned> lastRealUse; // end before block-argument extension
  std::vector<unsigned> groupOf;     // by value id: group root
  // Groups: root id -> envelope and size.
  std::vector<unsigned> groupRoots;
  std::vector<LiveRange> groupRange; // by value id, valid for roots
  std::vector<int32_t> groupSize;    // by value id, valid for roots
  std::vector<RegCounts> pressure;
  std::vector<RegCounts> liveAfter;
  std::array<PressurePeak, 3> peaks;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LIVENESS_H
