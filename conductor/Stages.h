//===- Stages.h - `stage Ix N` commands and pipelined measuring -*- C++ -*-===//
//
// Issue 12's software pipelining inside the Conductor. A schedule of a loop
// body is its op order plus, optionally, a stage per op (the
// `waveasm.stage` / `waveasm.cluster` / `waveasm.num_stages` attributes of
// analysis/LoopStages.h). `stage Ix N` commands edit those attributes the
// way moves edit the order, so the Session keeps one tagged block, its
// snapshots, its replayable command list and its cache; what changes is
// how a staged body is compiled: a clone is expanded by
// `waveasm-pipeline-loops` (prologue, steady-state loop, epilogue) and the
// expansion is what is measured, checked by execution, and handed out as
// the result. A `pad lds S P` choice (conductor/Padding.h) is recorded the
// same way and applied to that clone first.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_STAGES_H
#define WAVEASM_CONDUCTOR_STAGES_H

#include "conductor/Commands.h"
#include "conductor/Tags.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

/// The largest N a `stage Ix N` command may name (4 stages).
inline constexpr int kMaxStageNumber = 3;

/// The stage attributes of a region's loop and body ops, for reverting.
struct StageSnapshot {
  std::vector<std::optional<int>> stages; // by tag index
  std::optional<int> numStages;
};

/// The loop whose body `region` is, or null (a program body).
LoopOp getRegionLoop(const TaggedRegion &region);
/// Whether the region's loop carries stage annotations.
bool isStaged(const TaggedRegion &region);
/// Staged or padded: what a round compiles is expandSchedule's clone.
bool needsExpansion(const TaggedRegion &region);

StageSnapshot snapshotStages(const TaggedRegion &region);
void restoreStages(const TaggedRegion &region, const StageSnapshot &snapshot);

/// Validates `command` (kind Stage) and writes its stage; the first stage
/// command on a loop without annotations puts every other body op in
/// stage 0. Returns why it is refused (unknown tag, not a loop body, the
/// terminator, N out of range), or nullopt.
std::optional<std::string> applyStageCommand(const TaggedRegion &region,
                                             const MoveCommand &command);

/// After a round's commands: derives `waveasm.num_stages` and the clusters
/// from the stages (all in stage 0: the annotations are removed, nothing is
/// pipelined) and checks the result with readLoopStages. Returns the broken
/// rule ("I7 (v_mfma...) ...") or "" when legal or not staged.
std::string finishStages(const TaggedRegion &region);

/// The stage commands that write `stages` (LoopStages::ops order) on the
/// region's body, ops without a tag skipped.
std::vector<MoveCommand> stageCommandsFor(const TaggedRegion &region,
                                          llvm::ArrayRef<mlir::Operation *> ops,
                                          llvm::ArrayRef<int> stages);

/// A clone of `module` (which holds `region`) with the region's program's
/// recorded padding applied, then its loop software-pipelined from its
/// annotations (when it has any), or null with `why` set when the padding
/// or the pass refuses (its remark) or fails.
mlir::OwningOpRef<mlir::ModuleOp> expandSchedule(mlir::ModuleOp module,
                                                 const TaggedRegion &region,
                                                 std::string &why);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_STAGES_H
