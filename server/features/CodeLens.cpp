//===- CodeLens.cpp - numbers above each program and loop -----------------===//

#include "server/Features.h"
#include "server/features/Common.h"
#include "server/features/Pipelining.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

constexpr const char *kSep = " \xC2\xB7 ";

/// Values live at once in the IR as written (the annotations' liveness),
/// labelled apart from the registers the allocation used.
std::string formatPeak(const RegCounts &peak) {
  return "live peak v " + std::to_string(peak.vgprs()) + kSep + "s " +
         std::to_string(peak.sgprs()) + kSep + "a " +
         std::to_string(peak.agprs());
}

std::string formatCounts(const SpanSummary &summary, const char *per) {
  std::string text =
      std::to_string(summary.waitcnts) + " waitcnt" +
      (summary.waitcnts == 1 ? "" : "s") + kSep + std::to_string(summary.nops) +
      " nop" + (summary.nops == 1 ? "" : "s") + kSep +
      std::to_string(summary.instructions) + " instructions" + per;
  std::string mix = formatMix(summary);
  if (!mix.empty())
    text += ": " + mix;
  return text;
}

/// Lenses carry only a title: the numbers are the point, and a command a
/// client does not know would fail when clicked.
lsp::CodeLens makeLens(lsp::Range range, std::string title) {
  lsp::CodeLens lens;
  lens.range = range;
  lens.command = lsp::Command{std::move(title), "", {}};
  return lens;
}

void addProgramLenses(const ParsedDocument &parsed,
                      const CompiledProgramInfo &program,
                      std::vector<lsp::CodeLens> &out) {
  const ProgramAnnotations &ann = *program.annotations;
  lsp::Range range = parsed.getOps()[program.entry].name;
  unsigned numOps = ann.getIndex().getNumOps();
  SpanSummary summary = summarize(ann, 0, numOps ? numOps - 1 : 0);
  // Occupancy first: it is what the line is read for, and a long lens line
  // is cut at the editor's edge. It is the allocation's (registers the
  // kernel holds), so the allocated counts come next, labelled apart from
  // the values live in the IR as written.
  const ProgramMetrics &metrics = program.result.metrics;
  out.push_back(
      makeLens(range, "occupancy " + metrics.occupancy_limit.summary));
  out.push_back(
      makeLens(range, "allocated v " + std::to_string(metrics.peak_vgpr) +
                          kSep + "s " + std::to_string(metrics.peak_sgpr) +
                          kSep + "a " + std::to_string(metrics.peak_agpr) +
                          kSep + formatPeak(summary.peak)));
  LowerBound bound = computeProgramLowerBound(ann);
  out.push_back(makeLens(range, "est " + std::to_string(ann.getTotalCycles()) +
                                    " slots" + kSep + "lower bound " +
                                    std::to_string(bound.cycles) + " (" +
                                    bound.unit + ")" + kSep + "critical path " +
                                    std::to_string(ann.getCriticalPath())));
  out.push_back(makeLens(range, formatCounts(summary, "")));
}

void addLoopLenses(const ParsedDocument &parsed,
                   const CompiledDocument &compiled,
                   const CompiledProgramInfo &program,
                   std::vector<lsp::CodeLens> &out) {
  const ProgramAnnotations &ann = *program.annotations;
  // Once per program and request: the planner on the program as written;
  // the bank conflicts are those the compiled program's cycle model
  // charged (kept with it).
  std::optional<LdsProgramPlan> plan;
  const LdsBankConflicts &banks = ann.getCycleModel().getLdsBankConflicts();
  if (!ann.getLoops().empty())
    plan = planLds(cast<ProgramOp>(parsed.getOps()[program.entry].op));
  for (const LoopTiming &loop : ann.getLoops()) {
    std::optional<unsigned> entry = compiled.lookupCompiled(loop.loop);
    if (!entry)
      continue;
    lsp::Range range = parsed.getOps()[*entry].name;
    out.push_back(makeLens(
        range,
        "est " + std::to_string(loop.steadyStateCycles) +
            " slots/iter (first " + std::to_string(loop.firstIterationCycles) +
            formatPerInputIteration(loop.loop, loop.steadyStateCycles) + ")" +
            kSep + "lower bound " + std::to_string(loop.lowerBoundCycles) +
            "/iter (" + describeBoundKind(loop) + ")" + kSep +
            "critical path " + std::to_string(loop.criticalPath) + kSep +
            "trip " + std::to_string(loop.tripCount.count) + " (" +
            stringifyTripCountSource(loop.tripCount.source).str() + ")"));
    SpanSummary summary = summarize(ann, loop.index + 1,
                                    ann.getIndex().getSubtreeEnd(loop.index));
    out.push_back(makeLens(range, formatPeak(summary.peak)));
    out.push_back(makeLens(range, formatCounts(summary, "/iter")));
    if (const LoopOptimizationEffect *effect = findLoopEffect(
            compiled, parsed.getOps()[*entry].program, loop.loop))
      out.push_back(makeLens(range, formatLoopEffectLens(*effect)));
    if (auto parsedLoop = dyn_cast<LoopOp>(parsed.getOps()[*entry].op)) {
      std::string pipelining =
          formatLoopPipelineLens(parsedLoop, loop.loop, *plan, banks);
      if (!pipelining.empty())
        out.push_back(makeLens(range, pipelining));
    }
  }
}

} // namespace

std::vector<lsp::CodeLens>
waveasm::server::computeCodeLenses(const ParsedDocument &parsed,
                                   const CompiledDocument *compiled) {
  std::vector<lsp::CodeLens> out;
  compiled = freshOrNull(parsed, compiled);
  if (!compiled || !compiled->succeeded())
    return out;
  for (const CompiledProgramInfo &program : compiled->getPrograms()) {
    addProgramLenses(parsed, program, out);
    addLoopLenses(parsed, *compiled, program, out);
  }
  return out;
}
