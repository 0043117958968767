//===- ProgramIndex.h - op and value numbering of one program ---*- C++ -*-===//
//
// Numbers the ops of one waveasm.program in flattened pre-order (SPEC.md
// 14.1: an op that owns regions comes before the ops of its regions) and
// every SSA value (op results and block arguments) densely, and records the
// structure the analyses walk: subtree ends, enclosing loops, operand value
// ids. Liveness and the cycle model index plain vectors with these numbers
// instead of hashing Values and Operations in their inner loops.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_PROGRAMINDEX_H
#define WAVEASM_ANALYSIS_PROGRAMINDEX_H

#include "ir/Dialect.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <vector>

namespace waveasm {

class ProgramIndex {
public:
  static constexpr unsigned kNone = ~0u;

  explicit ProgramIndex(ProgramOp program);

  ProgramOp getProgram() const { return program; }

  //===--- ops ------------------------------------------------------------===//

  /// Number of ops (program points); the program op itself is not numbered.
  unsigned getNumOps() const { return ops.size(); }
  mlir::Operation *getOp(unsigned idx) const { return ops[idx]; }
  llvm::ArrayRef<mlir::Operation *> getOps() const { return ops; }
  /// The number of `op`, or nullopt for ops outside the program.
  std::optional<unsigned> lookup(mlir::Operation *op) const;
  /// Last index inside the regions of op `idx` (`idx` for region-less ops).
  unsigned getSubtreeEnd(unsigned idx) const { return subtreeEnd[idx]; }
  /// Nearest enclosing waveasm.loop, or kNone.
  unsigned getParentLoop(unsigned idx) const { return parentLoop[idx]; }
  /// Indices of all waveasm.loop ops, in pre-order (outer before inner).
  llvm::ArrayRef<unsigned> getLoops() const { return loops; }
  /// Op indices [first, last] of region `regionNo` of op `idx`; first > last
  /// for an empty region.
  std::pair<unsigned, unsigned> getRegionRange(unsigned idx,
                                               unsigned regionNo) const;

  //===--- values ---------------------------------------------------------===//

  unsigned getNumValues() const { return values.size(); }
  mlir::Value getValue(unsigned id) const { return values[id]; }
  /// Id of `value`, or nullopt for values not defined inside the program.
  std::optional<unsigned> lookupValue(mlir::Value value) const;
  /// Ids of the operands of op `idx`.
  llvm::ArrayRef<unsigned> getOperandIds(unsigned idx) const {
    return llvm::ArrayRef(operandIds)
        .slice(operandBegin[idx], operandBegin[idx + 1] - operandBegin[idx]);
  }
  /// Id of result `i` of op `idx`.
  unsigned getResultId(unsigned idx, unsigned i) const {
    return firstResult[idx] + i;
  }
  unsigned getNumResults(unsigned idx) const {
    return ops[idx]->getNumResults();
  }
  /// Id of argument `i` of the first block of op `idx`'s first region.
  unsigned getBlockArgId(unsigned idx, unsigned i) const {
    return firstBlockArg[idx] + i;
  }
  /// The op defining the value: its defining op, or for a block argument
  /// the op owning the block.
  unsigned getDefOp(unsigned id) const { return valueInfo[id].defOp; }
  bool isBlockArg(unsigned id) const { return valueInfo[id].isBlockArg; }
  /// Register class of the value's type, nullopt for imm and scc.
  std::optional<RegClass> getRegClass(unsigned id) const {
    if (valueInfo[id].regClass < 0)
      return std::nullopt;
    return static_cast<RegClass>(valueInfo[id].regClass);
  }
  int64_t getRegSize(unsigned id) const { return valueInfo[id].size; }

  /// True if the value is defined inside loop `loopIdx` (block arguments of
  /// the loop count as inside; its results do not).
  bool isDefinedInside(unsigned id, unsigned loopIdx) const {
    unsigned def = valueInfo[id].defOp;
    unsigned end = subtreeEnd[loopIdx];
    if (valueInfo[id].isBlockArg)
      return loopIdx <= def && def <= end;
    return loopIdx < def && def <= end;
  }

  /// Calls `fn` with the id of every operand of the ops of loop `loopIdx`
  /// (the loop op included) that is defined outside the loop.
  void forEachUseFromOutside(unsigned loopIdx,
                             llvm::function_ref<void(unsigned)> fn) const;

private:
  struct ValueInfo {
    unsigned defOp;
    int8_t regClass; // -1: not a register
    bool isBlockArg;
    int32_t size;
  };

  void visit(mlir::Operation *op, unsigned loop);
  unsigned addValue(mlir::Value value, unsigned defOp, bool isBlockArg);

  ProgramOp program;
  std::vector<mlir::Operation *> ops;
  llvm::DenseMap<mlir::Operation *, unsigned> opNumbers;
  std::vector<unsigned> subtreeEnd;
  std::vector<unsigned> parentLoop;
  std::vector<unsigned> firstResult;
  std::vector<unsigned> firstBlockArg;
  std::vector<unsigned> operandBegin; // size getNumOps() + 1
  std::vector<unsigned> operandIds;
  std::vector<unsigned> loops;
  std::vector<mlir::Value> values;
  std::vector<ValueInfo> valueInfo;
};

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_PROGRAMINDEX_H
