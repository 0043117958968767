//===- StrategyDriver.cpp - run a built-in strategy on a file -------------===//
//
// waveasm-strategy [--strategy latency|pressure|spectral|pipeline]
//                  [-o OUT.mlir] IN.mlir
//
// Schedules every innermost loop body of every program with the chosen
// built-in strategy (conductor/strategies), writes the rescheduled module to
// OUT (stdout by default) and prints one JSON line per loop to stderr:
// {"program", "loop", "ops", "moves", "variant", "before": {...},
//  "after": {...}, "coaccess": {...}, "ms", "cpu_ms"} with the
//  compile-and-measure
// numbers of both orders, their co-access cost C(pi) and modularity Q, and
// the strategy's own time. The spectral strategy does not measure; the
// driver compiles its order for the table (as the Conductor's round would).
// bench/strategy_gain.py drives it. `pipeline` (issue 12) reports instead
// of rewriting: per loop the whole-program est_cycles before, every
// candidate (stages, reordered or not) and the one kept, the loop's lower
// bound per iteration and the strategy's time (bench/pipeline_table.py).
//
//===----------------------------------------------------------------------===//

#include "conductor/strategies/DependenceGraph.h"
#include "conductor/strategies/ListScheduler.h"
#include "conductor/strategies/MoveSynthesis.h"
#include "conductor/strategies/PipelineStrategy.h"
#include "conductor/strategies/PressureScheduler.h"
#include "conductor/strategies/Strategies.h"

#include "conductor/strategies/ScheduleEvaluator.h"
#include "conductor/strategies/SpectralOrder.h"

#include "analysis/CycleModel.h"
#include "analysis/Liveness.h"
#include "analysis/OrderCost.h"
#include "ir/Dialect.h"
#include "pipeline/CompileAndMeasure.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <ctime>

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::Required,
                                            llvm::cl::desc("<input.mlir>"));
static llvm::cl::opt<std::string> outputFile("o", llvm::cl::init("-"),
                                             llvm::cl::desc("output"));
static llvm::cl::opt<std::string>
    strategy("strategy", llvm::cl::init("latency"),
             llvm::cl::desc("latency | pressure | spectral | pipeline"));
static llvm::cl::opt<double>
    epsilon("spectral-epsilon", llvm::cl::init(SpectralOptions().epsilon),
            llvm::cl::desc("the spectral strategy's rollback threshold"));

static llvm::cl::opt<bool>
    dumpTiming("dump-timing", llvm::cl::init(false),
               llvm::cl::desc("print the timing of every op, before and "
                              "after (in loops: their steady state)"));

/// Issue cycle, stall and reason of every op of the compiled module (waits
/// and nops the backend inserted included): in a loop, its steady-state
/// iteration's; outside loops, the program's timeline (a straight
/// pipelined program has no loop, and its waits are all there).
static void printTiming(ModuleOp module) {
  for (ProgramOp program : module.getOps<ProgramOp>()) {
    ProgramIndex index(program);
    Liveness liveness(index);
    llvm::errs() << "virtual peak VGPRs (Liveness): "
                 << liveness.getPeak(RegClass::VGPR).regs << "\n";
  }
  CompileOptions options;
  options.keepCompiledModule = true;
  options.emitAssembly = false;
  FailureOr<CompileResult> compiled = compileAndMeasure(module, options);
  if (failed(compiled))
    return;
  for (ProgramOp program : compiled->compiled->getOps<ProgramOp>()) {
    ProgramIndex index(program);
    CycleModel model(index, TargetModel::get(program.getTargetKind()));
    for (unsigned i = 0; i < index.getNumOps(); ++i) {
      // Outside loops (a straight program): the program's own timeline.
      const OpTiming *t = model.getSteadyTiming(i);
      if (!t && !index.getOp(i)->getParentOfType<LoopOp>())
        t = &model.getTiming(i);
      if (!t || index.getOp(i)->getNumRegions())
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      index.getOp(i)->print(os, OpPrintingFlags().skipRegions());
      llvm::errs() << llvm::format(
                          "%5lld %4lld %-13s ", (long long)t->issueCycle,
                          (long long)t->stall,
                          stringifyStallReason(t->reason).str().c_str())
                   << llvm::StringRef(text).split(" : ").first << "\n";
    }
  }
}

static llvm::cl::opt<int> forceVariant(
    "variant", llvm::cl::init(-1),
    llvm::cl::desc("apply list-scheduler variant N unmeasured (debugging)"));

static llvm::cl::opt<unsigned>
    budget("budget", llvm::cl::init(LocalSearchOptions().budget),
           llvm::cl::desc("compile-and-measure runs of the local search"));

static llvm::cl::opt<int> suggestFor(
    "suggest", llvm::cl::init(-1),
    llvm::cl::desc("print the single-move suggestions for op N of every "
                   "innermost loop body (tags I0..), with their cost"));

static llvm::json::Value toJSONMeasure(const std::optional<BlockMeasure> &m) {
  if (!m)
    return nullptr;
  return llvm::json::Object{{"cycles", m->cycles},
                            {"peak_vgpr", m->peakVGPR},
                            {"peak_agpr", m->peakAGPR},
                            {"peak_sgpr", m->peakSGPR},
                            {"est_cycles", m->program.est_cycles},
                            {"waitcnts", m->program.waitcnts_inserted},
                            {"nops", m->program.nops_inserted}};
}

static llvm::json::Value toJSONProgram(const ProgramMetrics &m,
                                       int64_t loopNo) {
  llvm::json::Object out{{"est_cycles", m.est_cycles},
                         {"peak_vgpr", m.peak_vgpr},
                         {"occupancy", m.occupancy}};
  if (loopNo < int64_t(m.loops.size())) {
    out["est_cycles_per_iter"] = m.loops[loopNo].est_cycles_per_iter;
    out["lower_bound_cycles"] = m.loops[loopNo].lower_bound_cycles;
  }
  return out;
}

/// The pipeline strategy on one loop, timed, reported as one JSON line;
/// the module is left as it was.
static void reportPipeline(ModuleOp module, ProgramOp program, LoopOp loop,
                           int64_t loopNo, const TargetModel &target) {
  TaggedRegion region = tagBlock(loop.getBody().front());
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpuStart = std::clock();
  PipelineStrategyResult result = schedulePipelined(module, region, target);
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  double cpuMs = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  untagBlock(region);
  llvm::json::Array tried;
  for (const PipelineCandidate &c : result.tried)
    tried.push_back(
        llvm::json::Object{{"stages", c.numStages},
                           {"reordered", c.reordered},
                           {"metrics", toJSONProgram(c.metrics, loopNo)}});
  llvm::json::Object line{
      {"program", program.getSymName()},
      {"loop", loopNo},
      {"ops", int64_t(region.ops.size())},
      {"before", result.before ? toJSONProgram(*result.before, loopNo)
                               : llvm::json::Value(nullptr)},
      {"tried", std::move(tried)},
      {"kept", result.best ? llvm::json::Value(llvm::json::Object{
                                 {"stages", result.best->numStages},
                                 {"reordered", result.best->reordered},
                                 {"commands", int64_t(result.commands.size())},
                                 {"metrics",
                                  toJSONProgram(result.best->metrics, loopNo)}})
                           : llvm::json::Value(nullptr)},
      {"refusal", result.refusal},
      {"ms", ms},
      {"cpu_ms", cpuMs}};
  llvm::errs() << llvm::json::Value(std::move(line)) << "\n";
}

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv, "built-in strategy driver\n");
  MLIRContext context;
  context.loadDialect<WaveASMDialect>();
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 2;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  if (dumpTiming)
    printTiming(*module);
  for (ProgramOp program : module->getOps<ProgramOp>()) {
    const TargetModel &target = TargetModel::get(program.getTargetKind());
    // Innermost loops with their pre-order number among all loops (the
    // order of the metrics' "loops" list and of the L_loop_N labels).
    std::vector<std::pair<LoopOp, int64_t>> loops;
    int64_t preOrder = 0;
    program.walk<WalkOrder::PreOrder>([&](LoopOp loop) {
      bool innermost = true;
      loop.getBody().walk([&](LoopOp inner) {
        if (inner != loop)
          innermost = false;
      });
      if (innermost)
        loops.push_back({loop, preOrder});
      ++preOrder;
    });
    for (auto [loop, loopNo] : loops) {
      Block &body = loop.getBody().front();
      if (suggestFor >= 0) {
        TaggedRegion region = tagBlock(body);
        if (static_cast<size_t>(suggestFor) >= region.ops.size())
          continue;
        auto start = std::chrono::steady_clock::now();
        std::vector<MoveSuggestion> suggestions =
            rankSingleMoveSuggestions(region, region.ops[suggestFor]);
        double ms = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
        llvm::errs() << llvm::formatv("I{0} ({1} ops): {2} suggestions in "
                                      "{3:F1} ms\n",
                                      suggestFor, region.ops.size(),
                                      suggestions.size(), ms);
        for (const MoveSuggestion &s : suggestions)
          llvm::errs() << "  " << s.title() << "\n";
        untagBlock(region);
        continue;
      }
      if (forceVariant >= 0) {
        DependenceGraph graph(body);
        std::vector<unsigned> order = listScheduleOrder(
            graph, target, listScheduleVariants()[forceVariant]);
        std::vector<Operation *> ops;
        for (unsigned i : order)
          ops.push_back(graph.getOp(i));
        for (Operation *op : ops)
          op->moveBefore(&body, body.end());
        continue;
      }
      if (strategy == "pipeline") {
        reportPipeline(*module, program, loop, loopNo, target);
        continue;
      }
      CoAccessSummary coaccessBefore = summarizeCoAccess(body);
      auto start = std::chrono::steady_clock::now();
      std::clock_t cpuStart = std::clock(); // the machine may be shared
      StrategyResult result;
      if (strategy == "spectral") {
        SpectralOptions options;
        options.epsilon = epsilon;
        SpectralResult spectral = scheduleSpectralOrder(body, options);
        result.order = spectral.order;
        result.improved = spectral.improved;
        result.variant = spectral.improved ? spectral.variant : "input";
      } else {
        result = strategy == "pressure"
                     ? schedulePressureOrder(body, target)
                     : scheduleListLatencyOrder(body, target, {}, {budget, 12});
      }
      double ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count();
      double cpuMs = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
      if (strategy == "spectral") {
        ScheduleEvaluator evaluator(body);
        std::vector<Operation *> input;
        for (Operation &op : body)
          input.push_back(&op);
        result.before = evaluator.measure(input);
        result.after = evaluator.measure(result.order);
      }
      DependenceGraph graph(body);
      std::vector<OpMove> moves = synthesizeMoves(graph, result.order);
      for (Operation *op : result.order)
        op->moveBefore(&body, body.end());
      CoAccessSummary coaccessAfter = summarizeCoAccess(body);
      llvm::json::Array tried;
      for (auto &[name, m] : result.tried)
        tried.push_back(llvm::json::Object{{"variant", name},
                                           {"measure", toJSONMeasure(m)}});
      llvm::json::Object line{
          {"program", program.getSymName()},
          {"loop", loopNo},
          {"ops", static_cast<int64_t>(graph.size())},
          {"moves", static_cast<int64_t>(moves.size())},
          {"improved", result.improved},
          {"variant", result.variant},
          {"before", toJSONMeasure(result.before)},
          {"after", toJSONMeasure(result.after)},
          {"tried", std::move(tried)},
          {"coaccess",
           llvm::json::Object{{"cost_before", coaccessBefore.cost},
                              {"cost_after", coaccessAfter.cost},
                              {"q_before", coaccessBefore.modularity},
                              {"q_after", coaccessAfter.modularity}}},
          {"ms", ms},
          {"cpu_ms", cpuMs}};
      llvm::errs() << llvm::json::Value(std::move(line)) << "\n";
    }
  }
  if (dumpTiming) {
    llvm::errs() << "---- after\n";
    printTiming(*module);
  }
  if (failed(verify(*module))) {
    llvm::errs() << "rescheduled module does not verify\n";
    return 1;
  }
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 2;
  }
  module->print(output->os());
  output->keep();
  return 0;
}
