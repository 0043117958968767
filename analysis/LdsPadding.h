//===- LdsPadding.h - padded LDS rows that remove bank conflicts -*- C++
//-*-===//
//
// Issue 12 item 4: a layout of the LDS with padded rows. The LDS address
// space is cut into rows of `stride` bytes (a power of two) and every row
// gets `pad` bytes after it: byte a moves to
//   map(a) = a + floor(a / stride) * pad.
// A fragment read down a column of a row-major tile (lane l at row l) then
// no longer hits the same banks in every lane. The map is applied to every
// LDS access of the program, so writers and readers stay consistent by
// construction, whatever buffer or rotating base they use.
//
// When the map is exact.  An access of w bytes at address a keeps its bytes
// contiguous iff a mod stride + w <= stride (no lane's bytes cross a row).
// An address is rewritten term by term: a ds op's address value A, its
// constant `offset` O and, when A = v_add_u32(U, L) with U an SGPR (a
// rotating buffer base), U and L separately. map(x + y) = map(x) + map(y)
// holds when x mod stride + y mod stride < stride, so the planner requires,
// for every thread of the workgroup, L mod stride + O mod stride + w <=
// stride and every value U takes to be a multiple of the stride
// (LdsBuffers.h's value sets). Anything the analysis cannot evaluate (an
// address loaded from memory, a direct-to-LDS load's M0 + lane * 4, which
// writes a whole wave's row, a two-address op) refuses the whole program:
// one access left in the old layout would read other bytes.
//
// The choice.  Every power-of-two stride up to the LDS used and every pad
// that is a multiple of the widest access (so alignment is kept), at most a
// quarter of the stride and below the banks' 4-byte span (a pad of banks x 4
// bytes maps to the same banks), scored by the bank-conflict issue slots of
// every ds access (LdsBankConflicts.h's cost; an access inside k loops
// counts 16^k times), then by the LDS bytes; the padded size must fit the
// target's LDS.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LDSPADDING_H
#define WAVEASM_ANALYSIS_LDSPADDING_H

#include "analysis/LdsBankConflicts.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace waveasm {

/// Rows of `stride` bytes, each followed by `pad` bytes.
struct LdsPadding {
  int64_t stride = 0, pad = 0;
  int64_t map(int64_t address) const {
    return address + (address / stride) * pad;
  }
};

/// LDS bytes a program of `bytes` needs once padded.
inline int64_t paddedLdsBytes(int64_t bytes, LdsPadding padding) {
  return bytes > 0 ? padding.map(bytes - 1) + 1 : 0;
}

/// The pad choice shared by every padding of a stride (this planner and
/// LdsBankConflicts::suggestPadding, the quick fix's): the multiples of
/// `step` from `step` to `maxPad` (at least one step), each scored by
/// `cost` (nullopt: stop trying larger ones); the smallest pad with the
/// lowest cost below `costNow`, stopping early at `floor`. Returns (pad,
/// cost).
std::optional<std::pair<int64_t, int64_t>>
pickLdsPad(int64_t step, int64_t maxPad, int64_t costNow, int64_t floor,
           llvm::function_ref<std::optional<int64_t>(int64_t pad)> cost);

/// One LDS access as the choice sees it (no IR).
struct LdsPaddingAccess {
  /// Per thread of the workgroup: the address without `offset` and
  /// without the wave-uniform term.
  std::vector<uint32_t> threads;
  int64_t offset = 0;
  unsigned bytesPerLane = 4;
  /// 0 without a wave-uniform term; else the largest power of two that
  /// divides every value the term takes.
  int64_t uniformAlignment = 0;
  /// How much its conflict counts (16 per enclosing loop).
  int64_t weight = 1;
  /// A ds_read/ds_write whose banks are costed (other LDS ops are only
  /// rewritten).
  bool costed = true;
};

struct LdsPaddingProblem {
  std::vector<LdsPaddingAccess> accesses;
  unsigned waveSize = 64;
  LdsBankModel model;
  int64_t ldsBytes = 0; // the program's LDS as written
  int64_t capacity = 0; // the target's LDS per workgroup
};

struct LdsPaddingChoice {
  LdsPadding padding;
  int64_t slotsBefore = 0, slotsAfter = 0; // weighted conflict slots
  int64_t ldsBytesAfter = 0;
};

/// Why `stride` cannot hold the accesses as rows ("" when it can): a
/// lane's bytes that would cross a row, a wave-uniform term not a multiple
/// of it, an offset that would leave the 16-bit field.
std::string checkLdsRows(const LdsPaddingProblem &problem, LdsPadding padding);

/// Weighted conflict slots of the accesses, padded (or as written).
int64_t ldsConflictSlots(const LdsPaddingProblem &problem,
                         std::optional<LdsPadding> padding = std::nullopt);

/// The padding with the fewest conflict slots (header: "The choice"), or
/// nullopt with `why` (nothing to gain, no stride holds the accesses, or
/// the best one's bytes over the target's LDS).
std::optional<LdsPaddingChoice>
chooseLdsPadding(const LdsPaddingProblem &problem, std::string &why);

/// A requested padding checked (rows, capacity), or nullopt with `why`.
std::optional<LdsPaddingChoice>
checkLdsPadding(const LdsPaddingProblem &problem, LdsPadding padding,
                std::string &why);

/// LdsBankConflicts.h's address evaluation of any value, for every thread
/// of the workgroup (defined in LdsBankConflicts.cpp, beside the
/// evaluator it wraps).
class LdsThreadEvaluator {
public:
  LdsThreadEvaluator(ProgramOp program, const TargetModel &target);
  ~LdsThreadEvaluator();
  /// Every thread's value (workgroup order); `perWave` when it includes a
  /// wave-uniform SGPR term the rules cannot compute (the values are then
  /// those with that term 0). Nullopt with `why` when unknown.
  std::optional<std::vector<uint32_t>>
  evaluate(mlir::Value value, bool &perWave, std::string &why);
  unsigned getWaveSize() const { return waveSize; }

private:
  std::unique_ptr<LdsBankConflicts::Evaluator> evaluator;
  unsigned waveSize = 64, numThreads = 64;
};

/// One LDS access of a program and the terms of its address (header:
/// "When the map is exact").
struct LdsPaddingSite {
  mlir::Operation *op = nullptr;
  unsigned addressOperand = 0;
  mlir::Value address; // the op's address operand
  mlir::Value uniform; // its SGPR term, or null
  mlir::Value lanes;   // the rest (the address itself without `uniform`)
  int64_t offset = 0;
};

struct LdsPaddingPlan {
  std::vector<LdsPaddingSite> sites; // parallel to problem.accesses
  LdsPaddingProblem problem;
  std::optional<LdsPaddingChoice> choice;
  /// Why nothing is padded, and where (may be null).
  std::string refusal;
  mlir::Operation *refusedAt = nullptr;
  bool ok() const { return choice.has_value(); }
};

/// The padding of `program`'s LDS: `requested`, or the best one.
LdsPaddingPlan planLdsPadding(ProgramOp program, const TargetModel &target,
                              std::optional<LdsPadding> requested = {});

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LDSPADDING_H
