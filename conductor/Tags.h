//===- Tags.h - stable Conductor tags on the ops of one block ---*- C++ -*-===//
//
// The Conductor names the ops of one schedulable block I0, I1, ... (the
// design's "Instruction Tagging"). A tag is the op's location: a NameLoc
// "I<n>" whose child is the op's original location, so diagnostics still
// point at file:line:col. Tags follow the op, not its position: moving ops
// never renames them. Every op directly in the block is tagged (pinned ops
// too, so the LLM can name them as anchors); an op with regions (an `if`, a
// nested loop) is tagged as a unit and its nested ops are not tagged: tags
// are scoped per block.
//
// The default block is the body of the innermost loop (the first one in
// program order among the deepest), else the program body.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_TAGS_H
#define WAVEASM_CONDUCTOR_TAGS_H

#include "ir/Dialect.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm {
struct TargetModel;
namespace conductor {

/// The tagged ops of one block. `ops[n]` carries tag "I<n>"; the vector
/// keeps tag order (the block order at tagging time) while the block order
/// changes with moves.
struct TaggedRegion {
  mlir::Block *block = nullptr;
  std::vector<mlir::Operation *> ops; // in tag order
};

/// Tags every op of `block` I0.. in its current order (replacing earlier
/// tags; the original location stays the NameLoc's child).
TaggedRegion tagBlock(mlir::Block &block);
/// Removes the tags of `region`'s ops (their locations become the original
/// child locations again).
void untagBlock(const TaggedRegion &region);

/// "I<n>" when the op's location is a Conductor tag.
std::optional<llvm::StringRef> getTag(mlir::Operation *op);
/// The op of `region` tagged `tag` (case-insensitive "i5" accepted), or null.
mlir::Operation *findTag(const TaggedRegion &region, llvm::StringRef tag);
/// "I<n>" for index n.
std::string formatTag(unsigned index);

/// The block the Conductor schedules by default in `program`: the body of
/// the innermost loop (first in program order among the deepest), else the
/// program body.
mlir::Block *findDefaultBlock(ProgramOp program);
/// The block to schedule for a region owner chosen by the user: a loop's
/// body, a program's body; null for anything else.
mlir::Block *getScheduledBlock(mlir::Operation *regionOwner);

/// The op of `block` that is or contains `op`, or null.
mlir::Operation *getAncestorInBlock(mlir::Block *block, mlir::Operation *op);

/// The design's prompt header:
///   TARGET: gfx942 (wave64, 512 vgpr, 106 sgpr, 512 agpr)
///   LATENCY (issue slots): vmem=100, lds=20, mfma_16x16=4 (result after
///   9), mfma_32x32=8 (result after 13)
std::string formatTargetHeader(ProgramOp program, const TargetModel &target);

/// The textual MLIR of the region's owner (loop or program) with `loc("In")`
/// after every tagged op and no other locations; value names are the
/// printer's numbering within the enclosing program.
std::string printTaggedRegion(const TaggedRegion &region);
/// Rewrites every `loc(...)` of printed IR: a Conductor tag stays as
/// `loc("In")`, any other location is dropped.
std::string keepOnlyTagLocations(llvm::StringRef printed);

/// "loop body" or "program body".
llvm::StringRef describeRegion(const TaggedRegion &region);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_TAGS_H
