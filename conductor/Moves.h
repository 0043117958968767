//===- Moves.h - validate and apply move commands on a block ----*- C++ -*-===//
//
// The design's executor for one command at a time: resolve the tags, check
// the invariants before touching the IR (pinned ops stay, every def still
// dominates every use, the moved op's operands still dominate it, both ops
// in the scheduled block), then move with Operation::moveBefore and report
// the structurally valid but suspicious effects as warnings (memory reads
// moved across writes, writes across writes, moves across a barrier,
// implicit registers, address computations moved away from their memory op).
//
// Snapshots are the block's op order: moves never create or change ops, so
// restoring an order is a sequence of moves.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_MOVES_H
#define WAVEASM_CONDUCTOR_MOVES_H

#include "conductor/Commands.h"
#include "conductor/Tags.h"

#include "mlir/IR/Value.h"

#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

enum class Severity { Info, Warn, Critical };
llvm::StringRef stringifySeverity(Severity severity); // "info", "warn", ...

struct MoveWarning {
  Severity severity = Severity::Info;
  std::string command; // "move I8 after I12"
  std::string message; // "moved LDS read (I8) after LDS write (I12), ..."
  /// "warn: move I8 after I12 — moved LDS read (I8) after ...".
  std::string text() const;
};

/// Why a command was refused. For dominance failures `value` is the value
/// whose def would no longer dominate a use; its printed name is only known
/// once the IR is back in the state the prompt showed, so `describe` takes
/// the name.
struct MoveFailure {
  enum Kind {
    UnknownTag,
    SameOp,
    Pinned,
    RegionBoundary,
    AfterTerminator,
    Dominance
  } kind = UnknownTag;
  std::string detail;  // everything but dominance: the whole reason
  mlir::Value value;   // Dominance: the value
  std::string defTag;  // Dominance: its def's tag
  std::string userTag; // Dominance: the user's tag (or its ancestor's)

  /// "would break dominance of %2 (defined by I6, used by I7)" given "%2".
  std::string describe(llvm::StringRef valueName) const;
};

/// Checks `command` (not Done) against the current order of `region`'s block
/// without changing it. Success returns nullopt.
std::optional<MoveFailure> validateMove(const TaggedRegion &region,
                                        const MoveCommand &command);

/// Validates and, if valid, applies `command`, appending its warnings.
std::optional<MoveFailure> applyMove(const TaggedRegion &region,
                                     const MoveCommand &command,
                                     std::vector<MoveWarning> &warnings);

/// The block's op order.
std::vector<mlir::Operation *> snapshotOrder(mlir::Block &block);
/// Moves the ops of `block` back into `order` (the same ops).
void restoreOrder(mlir::Block &block, llvm::ArrayRef<mlir::Operation *> order);

/// Moves every pseudo op of the block that emits nothing (constant, pack,
/// extract, insert) to just before its earliest user in the block; returns
/// how many moved and, in `record`, the moves as commands (replayable).
/// Never breaks dominance: a pseudo op only moves down, and its operands are
/// defined above its old position.
unsigned anchorPseudoOps(mlir::Block &block,
                         std::vector<MoveCommand> *record = nullptr);

/// The printed name ("%2", "%arg3") of `value` as the printer numbers it
/// within its enclosing program.
std::string printValueName(mlir::Value value);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_MOVES_H
