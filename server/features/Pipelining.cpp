//===- Pipelining.cpp - software pipelining and LDS in the editor ---------===//

#include "server/features/Pipelining.h"

#include "server/DiagnosticCapture.h"

#include "analysis/LoopStages.h"
#include "conductor/Session.h"
#include "conductor/strategies/PipelineStrategy.h"
#include "pipeline/Passes.h"
#include "pipeline/PipelinedCycles.h"
#include "sim/Compare.h"
#include "sim/CompareBuffers.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

namespace {

constexpr const char *kSep = " \xC2\xB7 ";

std::string printProgram(ProgramOp program) {
  std::string text;
  llvm::raw_string_ostream os(text);
  program->print(os);
  return text;
}

ProgramOp programAt(ModuleOp module, unsigned index) {
  auto programs = llvm::to_vector(module.getOps<ProgramOp>());
  return index < programs.size() ? programs[index] : ProgramOp();
}

/// `parsed`'s text with program `program` replaced by `text`, parsed and
/// verified; the edit, or nullopt when the result does not verify.
std::optional<lsp::TextEdit> replaceProgram(const ParsedDocument &parsed,
                                            unsigned program,
                                            const std::string &text) {
  lsp::Range range = parsed.getOps()[parsed.getPrograms()[program]].scope;
  std::string updated = parsed.getText().str();
  size_t begin = parsed.getLines().getOffset(range.start);
  size_t end = parsed.getLines().getOffset(range.end);
  updated.replace(begin, end - begin, text);
  ParsedDocument after(parsed.getContext(), parsed.getURI(), updated,
                       parsed.getVersion());
  if (!after.isVerified())
    return std::nullopt;
  return lsp::TextEdit{range, text};
}

/// "x2", "x1.5": how much LDS the program's buffers need after vs before.
std::string ldsFactor(int64_t before, int64_t after) {
  if (before <= 0)
    return "";
  if (after % before == 0)
    return "LDS x" + std::to_string(after / before);
  return llvm::formatv("LDS x{0:f1}", double(after) / double(before)).str();
}

std::string signedText(int64_t n) {
  return (n > 0 ? "+" : "") + std::to_string(n);
}

} // namespace

std::string waveasm::server::formatPerInputIteration(LoopOp loop,
                                                     int64_t cycles) {
  int64_t steps = inputIterationsPerIteration(loop);
  if (steps == 1)
    return "";
  return llvm::formatv(", {0} iterations as written per iteration: {1:f1} "
                       "each",
                       steps, double(cycles) / double(steps))
      .str();
}

ProgramMetrics waveasm::server::bestMetricsPerInputIteration(
    const conductor::Session &session, std::optional<unsigned> loopIndex) {
  ProgramMetrics metrics = session.bestMetrics();
  std::optional<double> perInput = session.bestCyclesPerInputIteration();
  if (perInput && loopIndex && *loopIndex < metrics.loops.size())
    metrics.loops[*loopIndex].est_cycles_per_iter =
        static_cast<int64_t>(std::llround(*perInput));
  return metrics;
}

std::string waveasm::server::formatRegisterCost(const ProgramMetrics &before,
                                                const ProgramMetrics &after) {
  std::string text = signedText(after.peak_vgpr - before.peak_vgpr) + " VGPR";
  if (after.peak_agpr != before.peak_agpr)
    text += ", " + signedText(after.peak_agpr - before.peak_agpr) + " AGPR";
  // Occupancy comes from the unified VGPR+AGPR file (analysis/Occupancy.h):
  // a faster iteration bought with a wave may not pay on the GPU.
  if (after.occupancy != before.occupancy)
    text += llvm::formatv(", occupancy {0} -> {1} waves", before.occupancy,
                          after.occupancy)
                .str();
  return text;
}

std::optional<lsp::TextEdit> waveasm::server::computePipelinedProgramEdit(
    const ParsedDocument &parsed, unsigned program, ModuleOp result) {
  ProgramOp pipelined = programAt(result, program);
  if (!pipelined)
    return std::nullopt;
  return replaceProgram(parsed, program, printProgram(pipelined));
}

std::optional<ScheduleTarget>
waveasm::server::findLoopHeaderAt(const ParsedDocument &parsed,
                                  lsp::Position pos) {
  if (!parsed.isVerified())
    return std::nullopt;
  std::optional<ScheduleTarget> target = findScheduleTarget(parsed, pos);
  if (!target || !target->loopIndex || target->op)
    return std::nullopt;
  // On the loop's header line only, like a lens: the actions are about the
  // whole loop.
  std::optional<unsigned> entry = parsed.lookupOp(target->owner);
  if (!entry || parsed.getOps()[*entry].name.start.line != pos.line)
    return std::nullopt;
  return target;
}

std::vector<lsp::CodeAction> waveasm::server::computePipelineLoopActions(
    const ParsedDocument &parsed, lsp::Position pos,
    const ServerSettings &settings, const CodeActionOptions &options) {
  std::vector<lsp::CodeAction> actions;
  std::optional<ScheduleTarget> target = findLoopHeaderAt(parsed, pos);
  if (!target)
    return actions;
  std::optional<unsigned> entry = parsed.lookupOp(target->owner);
  unsigned program = parsed.getOps()[*entry].program;
  DiagnosticCapture quiet(parsed.getContext());
  conductor::SessionOptions sessionOptions =
      makeSessionOptions(settings, parsed.getText());
  // The action's promise is cycles; its title says what it costs.
  sessionOptions.metricKeyOrder = {"est_cycles", "peak_vgpr"};
  sessionOptions.checkByExecution = true;
  sessionOptions.maxRounds = 1;
  std::string error;
  FailureOr<std::unique_ptr<conductor::Session>> session =
      conductor::Session::create(parsed.getModule(), target->owner,
                                 sessionOptions, &error);
  if (failed(session))
    return actions;
  const ProgramMetrics &before = (*session)->baselineMetrics();
  bool perIteration =
      perIterationComparisonLoop(cast<LoopOp>(target->owner)).has_value();
  LdsProgramPlan ldsBefore = planLds((*session)->program());
  for (int stages : {2, 3}) {
    conductor::PipelineStrategyOptions strategy;
    strategy.stageCounts = {stages};
    strategy.reorder = false; // the Conductor's schedule command reorders
    // The action promises N stages; the padding has its own quick fix
    // (bankConflict) and the Conductor's `pad lds S P`.
    strategy.tryLdsPadding = false;
    strategy.optimizePipeline = settings.optimizePipeline;
    strategy.targetOverrides = settings.targetModelOverrides;
    std::unique_ptr<conductor::Session> round = (*session)->fork();
    conductor::PipelineStrategyResult result = conductor::schedulePipelined(
        round->bestModule(), round->region(), round->targetModel(), strategy);
    if (result.commands.empty())
      continue;
    conductor::RoundReport report = round->applyCommands(result.commands);
    if (!report.improved || !round->bestIsPipelined())
      continue; // refused, or different results in the simulator
    ProgramOp pipelined = programAt(round->resultModule(), program);
    if (!pipelined)
      continue;
    ProgramMetrics after =
        bestMetricsPerInputIteration(*round, target->loopIndex);
    LdsProgramPlan ldsAfter = planLds(pipelined);
    std::optional<lsp::TextEdit> edit =
        replaceProgram(parsed, program, printProgram(pipelined));
    if (!edit)
      continue;
    unsigned loop = *target->loopIndex;
    std::string title =
        llvm::formatv("{0} ({1} stages): ", kPipelineLoopTitle, stages).str();
    if (loop < before.loops.size() && loop < after.loops.size())
      title += signedText(after.loops[loop].est_cycles_per_iter -
                          before.loops[loop].est_cycles_per_iter) +
               " cycles/iter, ";
    title += formatRegisterCost(before, after);
    std::string lds =
        ldsFactor(ldsBefore.arena.peakBytes, ldsAfter.arena.peakBytes);
    if (!lds.empty())
      title += ", " + lds;
    // Without a trip count the program's est_cycles count one iteration
    // (the prologue and epilogue outweigh it), so the Session compared per
    // iteration and the title says so instead.
    if (!perIteration)
      title += llvm::formatv(" (est_cycles {0} -> {1})", before.est_cycles,
                             after.est_cycles)
                   .str();
    else
      title += " (per iteration: the trip count is not known)";
    for (const std::string &warning : report.warnings)
      if (llvm::StringRef(warning).starts_with("not checked by execution"))
        title += " (not checked by execution)";
    lsp::CodeAction action;
    action.title = title;
    action.kind = kCodeActionKind.str();
    action.edit = makeWorkspaceEdit(parsed, {*edit}, options.versionedEdits);
    actions.push_back(std::move(action));
  }
  return actions;
}

std::optional<lsp::CodeAction>
waveasm::server::computePlanLdsAction(const ParsedDocument &parsed,
                                      lsp::Position pos,
                                      const CodeActionOptions &options) {
  if (!parsed.isVerified())
    return std::nullopt;
  unsigned entry = parsed.findOpAt(pos);
  if (entry == OpEntry::kNone)
    return std::nullopt;
  unsigned program = parsed.getOps()[entry].program;
  auto written =
      cast<ProgramOp>(parsed.getOps()[parsed.getPrograms()[program]].op);
  LdsProgramPlan before = planLds(written);
  if (before.info.buffers.empty())
    return std::nullopt;
  DiagnosticCapture quiet(parsed.getContext());
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(parsed.getModule()->clone());
  PassManager pm(&parsed.getContext(), ModuleOp::getOperationName());
  WaveASMLdsPlanOptions planOptions;
  planOptions.apply = true;
  planOptions.json = false;
  pm.addPass(createWaveASMLdsPlan(planOptions));
  if (failed(pm.run(*copy)))
    return std::nullopt; // out of memory: the lint says so
  ProgramOp planned = programAt(*copy, program);
  if (!planned)
    return std::nullopt;
  std::string original = printProgram(written);
  std::string text = printProgram(planned);
  if (text == original)
    return std::nullopt;
  // Moving buffers must not change what the program computes. The LDS
  // left at the end is not compared: it does not outlive the workgroup and
  // now holds one buffer where another was.
  sim::Comparison c = sim::compareBuffersOnSeeds(written, planned, 2);
  if (c.verdict == sim::Comparison::Verdict::Different)
    return std::nullopt;
  LdsProgramPlan after = planLds(planned);
  std::optional<lsp::TextEdit> edit = replaceProgram(parsed, program, text);
  if (!edit)
    return std::nullopt;
  lsp::CodeAction action;
  action.title = llvm::formatv("{0}: LDS {1} -> {2} bytes (live peak {3})",
                               kPlanLdsTitle, before.originalBytes,
                               after.originalBytes, after.arena.peakBytes)
                     .str();
  if (c.verdict == sim::Comparison::Verdict::NotChecked)
    action.title += " (not checked by execution)";
  action.kind = kCodeActionKind.str();
  action.edit = makeWorkspaceEdit(parsed, {*edit}, options.versionedEdits);
  return action;
}

std::string waveasm::server::formatLoopPipelineLens(
    LoopOp parsedLoop, Operation *compiledLoop, const LdsProgramPlan &plan,
    const LdsBankConflicts &banks) {
  std::vector<std::string> parts;
  if (hasLoopStages(parsedLoop)) {
    LoopStages stages = readLoopStages(parsedLoop);
    parts.push_back(stages.ok() ? "stages " + std::to_string(stages.numStages)
                                : "stages: " + stages.failure);
  } else {
    bool innermost = !parsedLoop.getBodyBlock()
                          .walk([](LoopOp) { return WalkResult::interrupt(); })
                          .wasInterrupted();
    if (innermost) {
      LoopStages stages = computeLoopStages(parsedLoop, 2);
      if (!stages.ok())
        parts.push_back("cannot pipeline: " + stages.failure);
    }
  }
  if (plan.arena.peakBytes > 0)
    parts.push_back("LDS peak " + std::to_string(plan.arena.peakBytes) + " B");
  unsigned dsOps = 0, conflicting = 0;
  int64_t extra = 0;
  for (const LdsAccessInfo &access : banks.getAccesses()) {
    if (!compiledLoop || !compiledLoop->isProperAncestor(access.op))
      continue;
    ++dsOps;
    if (access.known && access.extraSlots > 0) {
      ++conflicting;
      extra += access.extraSlots;
    }
  }
  if (conflicting)
    parts.push_back(llvm::formatv("bank conflicts: {0} of {1} ds ops, +{2} "
                                  "slots/iter",
                                  conflicting, dsOps, extra)
                        .str());
  else if (dsOps)
    parts.push_back("no bank conflicts");
  std::string text;
  for (const std::string &part : parts)
    text += (text.empty() ? "" : kSep) + part;
  return text;
}
