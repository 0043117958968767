//===- ConductorRoundBench.cpp - the Conductor's per-round overhead -------===//
//
// Google Benchmark driver for what one Conductor round costs besides the
// LLM, on the default region (innermost loop body) of FILE:
//
//   round/total        applyReply("swap Ix Iy") + prompt(): the whole
//                      round overhead excluding the LLM (budget: <= 1 ms for
//                      a 300-op loop body, `gen_waveasm.py --loop-body 300`)
//   round/apply        applyReply alone: parse, validate, move, anchor,
//                      compileAndMeasure (assembly off), keep or revert
//   round/invalid      applyReply of a move refused for dominance: validate,
//                      revert, name the value (no compile)
//   round/prompt       prompt(): tagged IR text, metrics, reports
//   snapshot/restore   the block's order saved and restored after a move
//   compile/only       compileAndMeasure of the session's module alone (the
//                      part of round/apply that is the backend, not the
//                      Conductor)
//
// The swap is of two adjacent independent ops, so every round compiles and
// alternately keeps or reverts. Usage: waveasm-bench-conductor [benchmark
// flags] FILE (or $WAVEASM_BENCH_INPUT). Medians of 10 repetitions unless
// --benchmark_repetitions is given; a last line compares round/total with
// the budget (reported, never enforced).
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include "conductor/Moves.h"
#include "conductor/Session.h"
#include "ir/Dialect.h"
#include "pipeline/CompileAndMeasure.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

namespace {

constexpr double kBudgetMs = 1.0;
constexpr const char *kBudgetBenchmark = "round/total";

struct Input {
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<Session> session;
  std::string validSwap, invalidMove;
  size_t regionOps = 0;
};
Input *input = nullptr;

bool load(Input &in, const std::string &path) {
  in.module = bench::parseInputFile(in.context, path);
  if (!in.module)
    return false;
  SessionOptions options;
  options.maxRounds = 1 << 30;
  std::string error;
  auto session = Session::create(*in.module, nullptr, options, &error);
  if (failed(session)) {
    llvm::errs() << "error: " << error << "\n";
    return false;
  }
  in.session = std::move(*session);
  if (!in.session->baselineError().empty()) {
    llvm::errs() << "error: the input does not compile: "
                 << in.session->baselineError() << "\n";
    return false;
  }
  const TaggedRegion &region = in.session->region();
  in.regionOps = region.ops.size();
  // The first adjacent pair a swap may exchange, and a move that breaks
  // dominance (an op above its operand's def).
  for (size_t i = 0; i + 1 < region.ops.size(); ++i) {
    MoveCommand swap = MoveCommand::swap(formatTag(i), formatTag(i + 1));
    if (in.validSwap.empty() && !validateMove(region, swap))
      in.validSwap = swap.text();
    MoveCommand up = MoveCommand::moveBefore(formatTag(i + 1), formatTag(i));
    std::optional<MoveFailure> failure = validateMove(region, up);
    if (in.invalidMove.empty() && failure &&
        failure->kind == MoveFailure::Dominance)
      in.invalidMove = up.text();
  }
  if (in.validSwap.empty() || in.invalidMove.empty()) {
    llvm::errs() << "error: no valid swap / invalid move in the region\n";
    return false;
  }
  return true;
}

void setCounters(benchmark::State &state) {
  state.counters["region_ops"] = static_cast<double>(input->regionOps);
}

void BM_Total(benchmark::State &state) {
  for (auto _ : state) {
    RoundReport report = input->session->applyReply(input->validSwap);
    std::string prompt = input->session->prompt();
    benchmark::DoNotOptimize(report);
    benchmark::DoNotOptimize(prompt);
  }
  setCounters(state);
}

void BM_Apply(benchmark::State &state) {
  for (auto _ : state) {
    RoundReport report = input->session->applyReply(input->validSwap);
    benchmark::DoNotOptimize(report);
  }
  setCounters(state);
}

void BM_Invalid(benchmark::State &state) {
  for (auto _ : state) {
    RoundReport report = input->session->applyReply(input->invalidMove);
    if (!report.failed)
      state.SkipWithError("the invalid move was applied");
    benchmark::DoNotOptimize(report);
  }
  setCounters(state);
}

void BM_Prompt(benchmark::State &state) {
  for (auto _ : state) {
    std::string prompt = input->session->prompt();
    benchmark::DoNotOptimize(prompt);
  }
  setCounters(state);
}

void BM_SnapshotRestore(benchmark::State &state) {
  const TaggedRegion &region = input->session->region();
  Block &block = *region.block;
  std::vector<MoveWarning> warnings;
  std::optional<MoveCommand> swap = parseCommand(input->validSwap);
  for (auto _ : state) {
    std::vector<Operation *> order = snapshotOrder(block);
    (void)applyMove(region, *swap, warnings);
    restoreOrder(block, order);
    warnings.clear();
  }
  setCounters(state);
}

void BM_CompileOnly(benchmark::State &state) {
  CompileOptions options;
  options.emitAssembly = false;
  for (auto _ : state) {
    FailureOr<CompileResult> result =
        compileAndMeasure(input->session->bestModule(), options);
    benchmark::DoNotOptimize(result);
  }
  setCounters(state);
}

class BudgetReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &run : runs)
      if (run.run_name.function_name == kBudgetBenchmark &&
          !run.error_occurred &&
          ((run.run_type == Run::RT_Aggregate &&
            run.aggregate_name == "median") ||
           (run.run_type == Run::RT_Iteration && !haveMedian))) {
        double scale = run.time_unit == benchmark::kNanosecond    ? 1e-6
                       : run.time_unit == benchmark::kMicrosecond ? 1e-3
                       : run.time_unit == benchmark::kMillisecond ? 1.0
                                                                  : 1e3;
        ms = run.GetAdjustedRealTime() * scale;
        cpuMs = run.GetAdjustedCPUTime() * scale;
        haveMedian |= run.run_type == Run::RT_Aggregate;
        have = true;
      }
    ConsoleReporter::ReportRuns(runs);
  }
  void printBudget() {
    if (!have)
      return;
    char line[256];
    std::snprintf(line, sizeof line,
                  "budget: %s <= %.1f ms per round for a 300-op loop body -> "
                  "%s%.3f ms (CPU %.3f ms) (%s; this region: %zu ops)\n",
                  kBudgetBenchmark, kBudgetMs, haveMedian ? "median " : "", ms,
                  cpuMs, ms <= kBudgetMs ? "within" : "over", input->regionOps);
    GetOutputStream() << line;
  }

private:
  double ms = 0, cpuMs = 0;
  bool have = false, haveMedian = false;
};

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> args = bench::withDefaultFlags(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  std::string path =
      bench::inputPath(count, args.data(), "waveasm-bench-conductor");
  if (path.empty())
    return 2;
  Input in;
  input = &in;
  if (!load(in, path))
    return 1;
  benchmark::RegisterBenchmark("round/total", BM_Total)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("round/apply", BM_Apply)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("round/invalid", BM_Invalid)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("round/prompt", BM_Prompt)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("snapshot/restore", BM_SnapshotRestore)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("compile/only", BM_CompileOnly)
      ->Unit(benchmark::kMicrosecond);
  BudgetReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.printBudget();
  benchmark::Shutdown();
  return 0;
}
