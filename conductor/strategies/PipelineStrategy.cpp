//===- PipelineStrategy.cpp - the software-pipelining strategy ------------===//

#include "conductor/strategies/PipelineStrategy.h"
#include "ir/ThisThreadDiagnostics.h"

#include "conductor/Moves.h"
#include "conductor/Padding.h"
#include "conductor/Stages.h"
#include "conductor/strategies/ListScheduler.h"
#include "conductor/strategies/Strategies.h"

#include "analysis/LoopStages.h"
#include "pipeline/CompileAndMeasure.h"
#include "pipeline/PipelinedCycles.h"
#include "pipeline/opt/PadLdsLayout.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace waveasm::conductor {

namespace {

/// Compiles whole modules the way the Session measures them.
struct ModuleMeasurer {
  const PipelineStrategyOptions &options;
  unsigned programIndex;

  CompileOptions compileOptions() const {
    CompileOptions compile;
    compile.pipeline =
        CompileOptions::measuringPipeline(options.optimizePipeline);
    compile.emitAssembly = false;
    compile.targetOverrides = options.targetOverrides;
    return compile;
  }

  /// The metrics of program `programIndex`, or nullopt with the first
  /// error in `error` (when given).
  std::optional<ProgramMetrics> measure(ModuleOp module,
                                        std::string *error = nullptr) const {
    ThisThreadDiagnosticHandler quiet(module.getContext(), [&](Diagnostic &d) {
      if (error && error->empty() &&
          d.getSeverity() == DiagnosticSeverity::Error)
        *error = d.str();
    });
    FailureOr<CompileResult> result =
        compileAndMeasure(module, compileOptions());
    if (failed(result) || programIndex >= result->programs.size())
      return std::nullopt;
    return result->programs[programIndex].metrics;
  }
};

unsigned programIndexOf(ModuleOp module, Block *block) {
  ProgramOp program = block->getParentOp()->getParentOfType<ProgramOp>();
  unsigned index = 0;
  for (ProgramOp each : module.getOps<ProgramOp>()) {
    if (each == program)
      break;
    ++index;
  }
  return index;
}

/// A clone of the module with the region mapped into it.
struct RegionCopy {
  OwningOpRef<ModuleOp> module;
  TaggedRegion region;
};

RegionCopy copyRegion(ModuleOp module, const TaggedRegion &region) {
  IRMapping mapping;
  RegionCopy copy;
  copy.module = cast<ModuleOp>(module->clone(mapping));
  copy.region.block = mapping.lookup(region.block);
  for (Operation *op : region.ops)
    copy.region.ops.push_back(mapping.lookup(op));
  return copy;
}

std::string describeFailure(const LoopStages &stages) {
  std::string where;
  if (stages.failureOp)
    if (std::optional<llvm::StringRef> tag = getTag(stages.failureOp))
      where = tag->str() + ": ";
  return where + stages.failure;
}

} // namespace

PipelineStrategyResult
schedulePipelined(ModuleOp module, const TaggedRegion &region,
                  const TargetModel &target,
                  const PipelineStrategyOptions &options) {
  PipelineStrategyResult result;
  LoopOp loop = getRegionLoop(region);
  if (!loop) {
    result.refusal = "not a loop body";
    return result;
  }
  ModuleMeasurer measurer{options, programIndexOf(module, region.block)};
  std::optional<unsigned> perIterationLoop = perIterationComparisonLoop(loop);
  // The program of `measured` (a clone of `module`) the metrics are of.
  auto programOf = [&](ModuleOp measured) {
    auto programs = llvm::to_vector(measured.getOps<ProgramOp>());
    return measurer.programIndex < programs.size()
               ? programs[measurer.programIndex]
               : ProgramOp();
  };
  {
    // The input as the Session measures it (pipelined when already staged).
    std::string why;
    OwningOpRef<ModuleOp> expanded;
    if (needsExpansion(region))
      expanded = expandSchedule(module, region, why);
    ModuleOp measured = expanded ? expanded.get() : module;
    result.before = measurer.measure(measured);
    if (result.before)
      result.beforeComparedCycles =
          comparedCycles(*result.before, programOf(measured), perIterationLoop);
  }
  if (!result.before)
    return result;

  auto refuse = [&](const std::string &why) {
    if (result.refusal.empty())
      result.refusal = why;
  };
  bool anyPipelined = false;
  // Measures a candidate whose commands are applied to `copy`.
  auto measureCandidate = [&](RegionCopy &copy, PipelineCandidate candidate) {
    std::string why;
    OwningOpRef<ModuleOp> expanded =
        expandSchedule(copy.module.get(), copy.region, why);
    if (!expanded) {
      refuse(why);
      return;
    }
    std::string compileError;
    std::optional<ProgramMetrics> metrics =
        measurer.measure(*expanded, &compileError);
    if (!metrics) {
      // Typically more registers than the target has.
      refuse("the pipelined program does not compile: " + compileError);
      return;
    }
    anyPipelined = true;
    candidate.metrics = *metrics;
    candidate.comparedCycles =
        comparedCycles(*metrics, programOf(*expanded), perIterationLoop);
    result.tried.push_back(candidate);
  };
  for (int numStages : options.stageCounts) {
    for (bool reorder : {false, true}) {
      if (reorder && !options.reorder)
        continue;
      RegionCopy copy = copyRegion(module, region);
      const TaggedRegion &r = copy.region;
      LoopOp l = getRegionLoop(r);
      // Stages are computed from the body as written (an earlier stage
      // edit in the input is replaced).
      LoopStages stages = computeLoopStages(l, numStages);
      if (!stages.ok()) {
        refuse(describeFailure(stages));
        break;
      }
      PipelineCandidate candidate;
      candidate.numStages = numStages;
      candidate.reordered = reorder;
      candidate.commands = stageCommandsFor(r, stages.ops, stages.stages);
      bool applied = true;
      for (const MoveCommand &command : candidate.commands)
        applied &= !applyStageCommand(r, command);
      if (!applied)
        break;
      if (reorder) {
        // The latency strategy's order of the body, which the pipelined
        // loop's steady state issues (stage by stage in body order).
        std::vector<Operation *> written = snapshotOrder(*r.block);
        StrategyResult order = scheduleListLatencyOrder(
            *r.block, target, measurer.compileOptions());
        restoreOrder(*r.block, written);
        if (!order.improved)
          continue; // the same body as the stages-only candidate
        std::vector<MoveCommand> moves = movesToReach(r, order.order);
        std::vector<MoveWarning> warnings;
        bool legal = true;
        for (const MoveCommand &move : moves)
          legal = legal && !applyMove(r, move, warnings);
        if (!legal)
          continue;
        candidate.commands.insert(candidate.commands.end(), moves.begin(),
                                  moves.end());
      }
      // As the Session does after a round's commands.
      anchorPseudoOps(*r.block);
      if (std::string broken = finishStages(r); !broken.empty()) {
        refuse(broken);
        continue;
      }
      measureCandidate(copy, candidate);
    }
  }

  // The padded LDS layout (analysis/LdsPadding.h), tried when the planner
  // finds bank-conflict slots a padding lowers (a loop's access weighs 16
  // times a straight-line one, so these are the loop's): the padding alone
  // and the fastest candidate above padded. Whether it pays (its address
  // ops, a larger LDS, maybe a wave less) is for compile-and-measure to
  // say, as for every candidate; two compiles, not one per candidate.
  std::optional<MoveCommand> padCommand;
  if (options.tryLdsPadding && !isPadded(region)) {
    LdsPaddingPlan plan =
        planLdsLayoutRewrite(getRegionProgram(region), std::nullopt);
    if (plan.ok())
      padCommand = MoveCommand::padLds(plan.choice->padding.stride,
                                       plan.choice->padding.pad);
  }
  if (padCommand) {
    std::vector<PipelineCandidate> bases = {PipelineCandidate()};
    const PipelineCandidate *fastest = nullptr;
    for (const PipelineCandidate &candidate : result.tried)
      if (!fastest || candidate.comparedCycles < fastest->comparedCycles)
        fastest = &candidate;
    if (fastest)
      bases.push_back(*fastest);
    for (PipelineCandidate candidate : bases) {
      RegionCopy copy = copyRegion(module, region);
      if (std::optional<std::string> why =
              applyPadCommand(copy.region, *padCommand)) {
        refuse(*why);
        break;
      }
      // The same commands again on the padded copy (padding changes no op
      // of the body, so they apply as they did).
      bool applied = true;
      for (const MoveCommand &command : candidate.commands) {
        std::vector<MoveWarning> warnings;
        applied &= command.kind == MoveCommand::Stage
                       ? !applyStageCommand(copy.region, command)
                       : !applyMove(copy.region, command, warnings);
      }
      anchorPseudoOps(*copy.region.block);
      if (!applied || !finishStages(copy.region).empty())
        continue;
      candidate.commands.insert(candidate.commands.begin(), *padCommand);
      candidate.padded = true;
      measureCandidate(copy, candidate);
    }
  }
  if (anyPipelined)
    result.refusal.clear();

  // Strictly fewer cycles; ties keep the earlier candidate (fewer stages,
  // no reorder), so the choice is deterministic.
  int64_t bestCycles = result.beforeComparedCycles;
  for (const PipelineCandidate &candidate : result.tried)
    if (candidate.comparedCycles < bestCycles) {
      bestCycles = candidate.comparedCycles;
      result.best = candidate;
    }
  if (result.best)
    result.commands = result.best->commands;
  return result;
}

} // namespace waveasm::conductor
