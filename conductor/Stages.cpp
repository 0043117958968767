//===- Stages.cpp - `stage Ix N` commands and pipelined measuring ---------===//

#include "conductor/Stages.h"
#include "conductor/Padding.h"
#include "ir/ThisThreadDiagnostics.h"

#include "analysis/LoopStages.h"
#include "ir/LoopNumbering.h"
#include "pipeline/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

LoopOp conductor::getRegionLoop(const TaggedRegion &region) {
  return region.block ? dyn_cast_or_null<LoopOp>(region.block->getParentOp())
                      : LoopOp();
}

bool conductor::isStaged(const TaggedRegion &region) {
  LoopOp loop = getRegionLoop(region);
  return loop && hasLoopStages(loop);
}

bool conductor::needsExpansion(const TaggedRegion &region) {
  return isStaged(region) || isPadded(region);
}

static std::optional<int> readIntAttr(Operation *op, llvm::StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return int(attr.getInt());
  return std::nullopt;
}

static void setIntAttr(Operation *op, llvm::StringRef name, int value) {
  op->setAttr(name,
              IntegerAttr::get(IntegerType::get(op->getContext(), 32), value));
}

StageSnapshot conductor::snapshotStages(const TaggedRegion &region) {
  StageSnapshot snapshot;
  for (Operation *op : region.ops)
    snapshot.stages.push_back(readIntAttr(op, kStageAttrName));
  if (LoopOp loop = getRegionLoop(region))
    snapshot.numStages = readIntAttr(loop, kNumStagesAttrName);
  return snapshot;
}

void conductor::restoreStages(const TaggedRegion &region,
                              const StageSnapshot &snapshot) {
  for (auto [op, stage] : llvm::zip(region.ops, snapshot.stages)) {
    op->removeAttr(kClusterAttrName);
    if (stage)
      setIntAttr(op, kStageAttrName, *stage);
    else
      op->removeAttr(kStageAttrName);
  }
  if (LoopOp loop = getRegionLoop(region)) {
    if (snapshot.numStages)
      setIntAttr(loop, kNumStagesAttrName, *snapshot.numStages);
    else
      loop->removeAttr(kNumStagesAttrName);
  }
  // Clusters follow from stages and order; finishStages writes them.
  if (snapshot.numStages)
    (void)finishStages(region);
}

/// The body ops that carry a stage: all but the terminator.
static SmallVector<Operation *> stagedOps(Block &body) {
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  return ops;
}

std::optional<std::string>
conductor::applyStageCommand(const TaggedRegion &region,
                             const MoveCommand &command) {
  Operation *op = findTag(region, command.a);
  if (!op)
    return "unknown tag " + command.a + " (this region has I0..I" +
           std::to_string(region.ops.size() - 1) + ")";
  LoopOp loop = getRegionLoop(region);
  if (!loop)
    return "stages are for loop bodies; " + command.a + " is in the " +
           describeRegion(region).str();
  if (op->getBlock() != region.block)
    return command.a + " is not an op of the loop body";
  if (op->hasTrait<mlir::OpTrait::IsTerminator>())
    return command.a + " is the loop's condition, which has no stage";
  if (command.stage < 0 || command.stage > kMaxStageNumber)
    return "stage " + std::to_string(command.stage) + " is out of range (0.." +
           std::to_string(kMaxStageNumber) + ")";
  if (!hasLoopStages(loop))
    for (Operation *each : stagedOps(*region.block))
      setIntAttr(each, kStageAttrName, 0);
  setIntAttr(op, kStageAttrName, command.stage);
  return std::nullopt;
}

std::string conductor::finishStages(const TaggedRegion &region) {
  LoopOp loop = getRegionLoop(region);
  if (!loop || !hasLoopStages(loop))
    return "";
  SmallVector<Operation *> ops = stagedOps(*region.block);
  SmallVector<int> stages;
  int last = 0;
  for (Operation *op : ops) {
    stages.push_back(readIntAttr(op, kStageAttrName).value_or(0));
    last = std::max(last, stages.back());
  }
  if (last == 0) {
    // One stage is the loop as written: no annotation, nothing to pipeline.
    for (Operation *op : ops) {
      op->removeAttr(kStageAttrName);
      op->removeAttr(kClusterAttrName);
    }
    loop->removeAttr(kNumStagesAttrName);
    return "";
  }
  setIntAttr(loop, kNumStagesAttrName, last + 1);
  for (auto [op, stage, cluster] :
       llvm::zip(ops, stages, computeClusters(stages))) {
    // An op the input left without a stage (partial hand annotations) is in
    // stage 0, written so that readLoopStages sees every op.
    setIntAttr(op, kStageAttrName, stage);
    setIntAttr(op, kClusterAttrName, cluster);
  }
  LoopStages read = readLoopStages(loop);
  if (read.ok())
    return "";
  std::string where;
  if (read.failureOp && read.failureOp != loop.getOperation())
    if (std::optional<llvm::StringRef> tag = getTag(read.failureOp))
      where = tag->str() + ": ";
  return where + read.failure;
}

std::vector<MoveCommand>
conductor::stageCommandsFor(const TaggedRegion &region,
                            llvm::ArrayRef<Operation *> ops,
                            llvm::ArrayRef<int> stages) {
  std::vector<MoveCommand> commands;
  for (auto [op, stage] : llvm::zip(ops, stages))
    if (std::optional<llvm::StringRef> tag = getTag(op))
      commands.push_back(MoveCommand::setStage(tag->str(), stage));
  (void)region;
  return commands;
}

OwningOpRef<ModuleOp> conductor::expandSchedule(ModuleOp module,
                                                const TaggedRegion &region,
                                                std::string &why) {
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone(mapping));
  auto program =
      cast<ProgramOp>(mapping.lookup(getRegionProgram(region).getOperation()));
  // The padding first: it adds address ops to the body, which take their
  // anchors' stages, and moves no op between loops.
  if (!applyRecordedPadding(program, why))
    return nullptr;
  LoopOp loop = getRegionLoop(region);
  if (!loop || !hasLoopStages(loop))
    return copy;
  auto cloned = cast<LoopOp>(mapping.lookup(loop.getOperation()));
  std::optional<unsigned> number = getLoopNumber(cloned);
  int64_t found = number ? int64_t(*number) : -1;
  // Annotations outside the pipelined loop stay (other loops' hints); the
  // pipelined code's copies of the body's annotations are dropped below, so
  // that the result does not ask for pipelining again.
  llvm::SmallPtrSet<Operation *, 16> keep;
  program.walk([&](Operation *op) {
    if (op->hasAttr(kStageAttrName) || op->hasAttr(kNumStagesAttrName))
      if (!cloned->isAncestor(op))
        keep.insert(op);
  });
  // Run on this program only: the pass runs per program, and the other
  // programs' loops must stay as written.
  MLIRContext *ctx = module.getContext();
  std::string remark, error;
  PassManager pm(ctx, ProgramOp::getOperationName());
  WaveASMPipelineLoopsOptions options;
  options.loopIndex = found;
  pm.addPass(createWaveASMPipelineLoops(options));
  LogicalResult ran = failure();
  {
    ThisThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      std::string text = diag.str();
      if (diag.getSeverity() == DiagnosticSeverity::Remark &&
          llvm::StringRef(text).starts_with("loop not pipelined"))
        remark = text;
      else if (diag.getSeverity() == DiagnosticSeverity::Error && error.empty())
        error = text;
    });
    ran = pm.run(program);
  }
  if (failed(ran)) {
    why = error.empty() ? "waveasm-pipeline-loops failed" : error;
    return nullptr;
  }
  if (!remark.empty()) {
    why = remark;
    return nullptr;
  }
  program.walk([&](Operation *op) {
    if (keep.contains(op))
      return;
    op->removeAttr(kStageAttrName);
    op->removeAttr(kClusterAttrName);
    op->removeAttr(kNumStagesAttrName);
  });
  return copy;
}
