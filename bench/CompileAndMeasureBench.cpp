//===- CompileAndMeasureBench.cpp - in-process cost of compile-and-measure ===//
//
// Google Benchmark driver for the Conductor's per-round cost. Parses one
// WaveASM file once, then measures per iteration:
//
//   compileAndMeasure/metrics   waveasm::compileAndMeasure, emitAssembly =
//                               false, coAccessMetrics = programBound =
//                               false: clone, the
//                               full pipeline, cycle model, metrics (one
//                               Conductor round)
//   compileAndMeasure/metrics+coaccess
//                               the same with the loops' co-access figures
//                               and the program's lower bound (the metrics
//                               JSON and hovers show them)
//   compiler/metrics-reused     the same through one waveasm::Compiler kept
//                               across calls (the Conductor's loop)
//   compileAndMeasure/assembly  the same with emitAssembly = true (+ the
//                               assembly text and the op <-> line map)
//   analyses/annotations        ProgramAnnotations of every program of the
//                               input: index, liveness, cycle model and the
//                               per-op annotations (what the editor reads)
//   compileAndMeasure/calls-in-one-context/N
//                               N calls of (a) on the input parsed into a
//                               fresh MLIRContext (the parse is not timed),
//                               N = 1, 10, 100; counter per_call. Equal
//                               per_call at N = 10 and N = 100 shows that a
//                               call does not get dearer with the calls before
//                               it (uniqued attributes, types, locations or a
//                               memo that grew would show at 100); the last
//                               line prints both.
//
// and, to show where (a) goes, cumulative phases of it: phases/1-clone
// (clone + destroy), phases/2-allocate (+ linear scan), phases/3-waitcnt,
// phases/4-hazards (the whole pass pipeline; (a) minus this is the metrics).
// Skip them with --benchmark_filter=-phases.
//
// Usage:
//   waveasm-bench-compile [benchmark flags] [FILE]
// FILE defaults to $WAVEASM_BENCH_INPUT. Unless given, the driver adds
// --benchmark_repetitions=10 --benchmark_display_aggregates_only=true, so the
// console shows mean/median/stddev/cv (and --benchmark_out files keep every
// repetition too); a last line compares the median of
// compileAndMeasure/metrics with the budget (0.8 ms for a 300-op loop body,
// `gen_waveasm.py --loop-body 300`). The budget is reported, never enforced.
// `--benchmark_out=F --benchmark_out_format=json` writes every sample.
//
// The MLIR context runs without threads (one program at a time is the
// Conductor's use; a thread pool only adds noise on a shared machine).
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include "analysis/Annotations.h"
#include "ir/Dialect.h"
#include "pipeline/CompileAndMeasure.h"
#include "pipeline/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mlir;
using namespace waveasm;

namespace {

constexpr double kBudgetMs = 0.8;
constexpr const char *kBudgetBenchmark = "compileAndMeasure/metrics";
constexpr const char *kGrowthBenchmark =
    "compileAndMeasure/calls-in-one-context";

/// The parsed input, shared by every benchmark.
struct Input {
  std::string path;
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module;
  /// First diagnostic of a failing checked call (empty: it succeeded).
  std::string metricsError, assemblyError;
  int64_t ops = 0;         // ops inside the programs
  int64_t loopBodyOps = 0; // ops directly or indirectly inside loops
  int64_t programs = 0;
};

Input *input = nullptr;

bool load(Input &in) {
  in.module = bench::parseInputFile(in.context, in.path);
  if (!in.module)
    return false;
  for (ProgramOp program : in.module->getOps<ProgramOp>()) {
    ++in.programs;
    program.walk([&](Operation *op) {
      if (op == program.getOperation())
        return;
      ++in.ops;
      if (op->getParentOfType<LoopOp>())
        ++in.loopBodyOps;
    });
  }
  if (in.programs == 0) {
    llvm::errs() << "error: '" << in.path << "' has no waveasm.program\n";
    return false;
  }
  return true;
}

void setCounters(benchmark::State &state) {
  state.counters["ops"] = static_cast<double>(input->ops);
  state.counters["loop_ops"] = static_cast<double>(input->loopBodyOps);
  // Time per op of the input (seconds; the console prints it with SI units).
  state.counters["per_op"] =
      benchmark::Counter(static_cast<double>(input->ops),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}

void runCompile(benchmark::State &state, bool emitAssembly, bool coAccess) {
  CompileOptions options;
  options.emitAssembly = emitAssembly;
  options.coAccessMetrics = coAccess;
  options.programBound = coAccess; // the Conductor's measure: neither
  ScopedDiagnosticHandler quiet(&input->context,
                                [](Diagnostic &) { return success(); });
  // main checked one call first: a failing pipeline is an error, not a
  // timing (registered without repetitions, so it is reported once).
  if (!(emitAssembly ? input->assemblyError : input->metricsError).empty()) {
    std::string message =
        "compileAndMeasure failed: " +
        (emitAssembly ? input->assemblyError : input->metricsError);
    state.SkipWithError(message.c_str());
    for (auto _ : state) {
    }
    return;
  }
  for (auto _ : state) {
    FailureOr<CompileResult> result =
        compileAndMeasure(*input->module, options);
    benchmark::DoNotOptimize(result);
  }
  setCounters(state);
}

/// One Conductor round (Session::measure): no assembly, no co-access.
void BM_CompileMetrics(benchmark::State &state) {
  runCompile(state, false, false);
}
void BM_CompileMetricsCoAccess(benchmark::State &state) {
  runCompile(state, false, true);
}

/// The Conductor's loop: one Compiler, many calls (metrics only).
void BM_CompilerReused(benchmark::State &state) {
  if (!input->metricsError.empty()) {
    state.SkipWithError("compileAndMeasure failed");
    for (auto _ : state) {
    }
    return;
  }
  CompileOptions options;
  options.emitAssembly = false;
  options.judgeByCyclesOnly();
  ScopedDiagnosticHandler quiet(&input->context,
                                [](Diagnostic &) { return success(); });
  Compiler compiler(&input->context, options);
  for (auto _ : state) {
    FailureOr<CompileResult> result = compiler.compile(*input->module);
    benchmark::DoNotOptimize(result);
  }
  setCounters(state);
}
void BM_CompileAssembly(benchmark::State &state) {
  runCompile(state, true, true);
}

/// `calls` calls of compileAndMeasure/metrics in one fresh context per
/// iteration. Only the calls are timed: parsing into the new context and
/// destroying it are not.
void BM_CallsInOneContext(benchmark::State &state) {
  const int64_t calls = state.range(0);
  CompileOptions options;
  options.emitAssembly = false;
  options.judgeByCyclesOnly();
  bool ok = true;
  for (auto _ : state) {
    state.PauseTiming();
    {
      MLIRContext context(MLIRContext::Threading::DISABLED);
      OwningOpRef<ModuleOp> module =
          bench::parseInputFile(context, input->path);
      ScopedDiagnosticHandler quiet(&context,
                                    [](Diagnostic &) { return success(); });
      ok &= static_cast<bool>(module);
      state.ResumeTiming();
      for (int64_t i = 0; module && i < calls; ++i) {
        FailureOr<CompileResult> result = compileAndMeasure(*module, options);
        ok &= succeeded(result);
        benchmark::DoNotOptimize(result);
      }
      state.PauseTiming();
    }
    state.ResumeTiming();
  }
  if (!ok)
    state.SkipWithError("compileAndMeasure failed in a fresh context");
  state.counters["ops"] = static_cast<double>(input->ops);
  state.counters["calls"] = static_cast<double>(calls);
  // Seconds per call (the console prints it with SI units).
  state.counters["per_call"] =
      benchmark::Counter(static_cast<double>(calls),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}

void BM_Annotations(benchmark::State &state) {
  std::vector<ProgramOp> programs(input->module->getOps<ProgramOp>().begin(),
                                  input->module->getOps<ProgramOp>().end());
  for (auto _ : state) {
    for (ProgramOp program : programs) {
      ProgramAnnotations annotations(program);
      benchmark::DoNotOptimize(annotations.getTotalCycles());
    }
  }
  setCounters(state);
}

/// Clone, then run the first `passes` passes of the measuring pipeline the
/// way compileAndMeasure does (PassManager built per call, no verifier).
void BM_Phase(benchmark::State &state, int passes) {
  WaveASMPipelineConfig config =
      CompileOptions::measuringPipeline(/*optimize=*/false);
  ScopedDiagnosticHandler quiet(&input->context,
                                [](Diagnostic &) { return success(); });
  bool ok = true;
  for (auto _ : state) {
    OwningOpRef<ModuleOp> clone = cast<ModuleOp>(input->module->clone());
    if (passes == 0)
      continue;
    PassManager pm(&input->context);
    pm.enableVerifier(false);
    OpPassManager &programPM = pm.nest<ProgramOp>();
    WaveASMLinearScanOptions allocation;
    allocation.maxVGPRs = config.maxVGPRs;
    allocation.maxSGPRs = config.maxSGPRs;
    allocation.maxAGPRs = config.maxAGPRs;
    programPM.addPass(createWaveASMLinearScan(allocation));
    if (passes >= 2) {
      WaveASMInsertWaitcntOptions waits;
      waits.ticketedWaitcnt = config.ticketedWaitcnt.value_or(true);
      programPM.addPass(createWaveASMInsertWaitcnt(waits));
    }
    if (passes >= 3)
      programPM.addPass(createWaveASMHazardMitigation());
    ok &= succeeded(pm.run(*clone));
  }
  if (!ok)
    state.SkipWithError("a pass failed");
  setCounters(state);
}

/// Console output as usual, plus the budget line from the median of the
/// budgeted benchmark.
class BudgetReporter : public benchmark::ConsoleReporter {
public:
  explicit BudgetReporter(OutputOptions options) : ConsoleReporter(options) {}

  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &run : runs)
      recordPerCall(run);
    for (const Run &run : runs) {
      if (run.run_name.function_name != kBudgetBenchmark || run.error_occurred)
        continue;
      // Prefer the median aggregate; a single run stands for itself.
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median")
        medianMs = toMs(run, run.GetAdjustedRealTime()),
        medianCpuMs = toMs(run, run.GetAdjustedCPUTime()), haveMedian = true;
      else if (run.run_type == Run::RT_Iteration && !haveMedian)
        singleMs = toMs(run, run.GetAdjustedRealTime()),
        singleCpuMs = toMs(run, run.GetAdjustedCPUTime()), haveSingle = true;
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void printBudget() {
    if (!haveMedian && !haveSingle)
      return;
    double ms = haveMedian ? medianMs : singleMs;
    double cpuMs = haveMedian ? medianCpuMs : singleCpuMs;
    char value[64];
    std::snprintf(value, sizeof(value), "%.3f ms (CPU %.3f ms)", ms, cpuMs);
    GetOutputStream() << "budget: " << kBudgetBenchmark << " <= " << kBudgetMs
                      << " ms for a 300-op loop body -> "
                      << (haveMedian ? "median " : "") << value << " ("
                      << (ms <= kBudgetMs ? "within" : "over")
                      << "; this input: " << input->ops << " ops, "
                      << input->loopBodyOps << " in loops)" << std::endl;
  }

  /// Per-call time of calls-in-one-context at each N, medians preferred.
  void printGrowth() {
    if (perCallMs.size() < 2)
      return;
    GetOutputStream() << "growth: " << kGrowthBenchmark << ":";
    for (const auto &[calls, perCall] : perCallMs) {
      char value[96];
      std::snprintf(
          value, sizeof(value), " %.3f ms (CPU %.3f ms) per call at %d call%s;",
          perCall.realMs, perCall.cpuMs, calls, calls == 1 ? "" : "s");
      GetOutputStream() << value;
    }
    char ratio[64];
    std::snprintf(
        ratio, sizeof(ratio), " last/first %.3f (CPU %.3f)",
        perCallMs.rbegin()->second.realMs / perCallMs.begin()->second.realMs,
        perCallMs.rbegin()->second.cpuMs / perCallMs.begin()->second.cpuMs);
    GetOutputStream() << ratio << std::endl;
  }

private:
  void recordPerCall(const Run &run) {
    if (run.run_name.function_name != kGrowthBenchmark || run.error_occurred ||
        run.iterations == 0)
      return;
    bool median =
        run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
    if (!median && run.run_type != Run::RT_Iteration)
      return;
    int calls = std::atoi(run.run_name.args.c_str());
    if (calls <= 0)
      return;
    PerCall &perCall = perCallMs[calls];
    if (perCall.fromMedian && !median)
      return;
    perCall.realMs = toMs(run, run.GetAdjustedRealTime()) / calls;
    perCall.cpuMs = toMs(run, run.GetAdjustedCPUTime()) / calls;
    perCall.fromMedian = median;
  }

  static double toMs(const Run &run, double t) {
    switch (run.time_unit) {
    case benchmark::kNanosecond:
      return t / 1e6;
    case benchmark::kMicrosecond:
      return t / 1e3;
    case benchmark::kMillisecond:
      return t;
    case benchmark::kSecond:
      return t * 1e3;
    }
    return t;
  }
  double medianMs = 0, medianCpuMs = 0, singleMs = 0, singleCpuMs = 0;
  bool haveMedian = false, haveSingle = false;
  struct PerCall {
    double realMs = 0, cpuMs = 0;
    bool fromMedian = false;
  };
  /// calls -> time per call (from the median where there is one).
  std::map<int, PerCall> perCallMs;
};

/// The value of `--name=value` (last one wins), or `fallback`.
std::string flagValue(int argc, char **argv, const std::string &name,
                      const std::string &fallback) {
  std::string value = fallback, prefix = "--" + name + "=";
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0)
      value = argv[i] + prefix.size();
  return value;
}

bool isTruthy(const std::string &v) {
  return v == "true" || v == "yes" || v == "1" || v == "on" || v == "y" ||
         v == "t";
}

/// What the library's own console reporter would use: --benchmark_color
/// (auto: a terminal), and tabular counters unless
/// --benchmark_counters_tabular=false.
benchmark::ConsoleReporter::OutputOptions consoleOptions(int argc,
                                                         char **argv) {
  int options = benchmark::ConsoleReporter::OO_None;
  std::string color = flagValue(argc, argv, "benchmark_color", "auto");
  if (color == "auto" ? isatty(STDOUT_FILENO) != 0 : isTruthy(color))
    options |= benchmark::ConsoleReporter::OO_Color;
  if (isTruthy(flagValue(argc, argv, "benchmark_counters_tabular", "true")))
    options |= benchmark::ConsoleReporter::OO_Tabular;
  return static_cast<benchmark::ConsoleReporter::OutputOptions>(options);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> args = bench::withDefaultFlags(argc, argv);
  benchmark::ConsoleReporter::OutputOptions console =
      consoleOptions(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());

  // What is left: the program name and at most one input path.
  std::string path;
  for (int i = 1; i < count; ++i) {
    if (args[i][0] == '-' && args[i][1] != '\0') {
      llvm::errs() << "error: unknown option '" << args[i] << "'\n";
      return 2;
    }
    if (!path.empty()) {
      llvm::errs() << "error: more than one input file\n";
      return 2;
    }
    path = args[i];
  }
  if (path.empty())
    if (const char *env = std::getenv("WAVEASM_BENCH_INPUT"))
      path = env;
  if (path.empty()) {
    llvm::errs()
        << "usage: waveasm-bench-compile [--benchmark_*...] FILE.mlir\n"
           "       (or set WAVEASM_BENCH_INPUT); generate the reference "
           "input with\n"
           "       bench/gen_waveasm.py --loop-body 300 -o loop300.mlir\n";
    return 2;
  }

  static Input in;
  in.path = path;
  input = &in;
  if (!load(in))
    return 1;

  benchmark::AddCustomContext("input", path);
  benchmark::AddCustomContext("input_ops", std::to_string(in.ops));
  benchmark::AddCustomContext("input_loop_ops", std::to_string(in.loopBodyOps));
  // One checked call per mode: the metrics of the measured compilation go
  // into the context, a failure into the benchmark's error.
  for (bool emitAssembly : {false, true}) {
    CompileOptions options;
    options.emitAssembly = emitAssembly;
    std::string &error = emitAssembly ? in.assemblyError : in.metricsError;
    ScopedDiagnosticHandler record(&in.context, [&error](Diagnostic &diag) {
      if (error.empty())
        error = diag.str();
      return success();
    });
    FailureOr<CompileResult> result = compileAndMeasure(*in.module, options);
    if (failed(result)) {
      if (error.empty())
        error = "failure without a diagnostic";
      llvm::errs() << "warning: compileAndMeasure (emitAssembly="
                   << (emitAssembly ? "true" : "false") << ") failed: " << error
                   << "\n";
      continue;
    }
    if (emitAssembly || result->programs.empty())
      continue;
    const ProgramMetrics &m = result->programs.front().metrics;
    std::string loops;
    for (const LoopMetrics &loop : m.loops)
      loops +=
          (loops.empty() ? "" : ",") + std::to_string(loop.est_cycles_per_iter);
    benchmark::AddCustomContext(
        "metrics",
        "est_cycles=" + std::to_string(m.est_cycles) +
            " est_cycles_per_iter=[" + loops + "]" +
            " total_instructions=" + std::to_string(m.total_instructions) +
            " peak_vgpr=" + std::to_string(m.peak_vgpr) +
            " peak_sgpr=" + std::to_string(m.peak_sgpr) +
            " waitcnts=" + std::to_string(m.waitcnts_inserted) +
            " nops=" + std::to_string(m.nops_inserted));
  }

  auto add = [](const char *name, auto fn, bool failing) {
    benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(name, fn);
    b->Unit(benchmark::kMicrosecond)->UseRealTime();
    if (failing)
      b->Repetitions(1)->Iterations(1);
  };
  add(kBudgetBenchmark, BM_CompileMetrics, !in.metricsError.empty());
  add("compileAndMeasure/metrics+coaccess", BM_CompileMetricsCoAccess,
      !in.metricsError.empty());
  add("compiler/metrics-reused", BM_CompilerReused, !in.metricsError.empty());
  add("compileAndMeasure/assembly", BM_CompileAssembly,
      !in.assemblyError.empty());
  {
    benchmark::internal::Benchmark *b =
        benchmark::RegisterBenchmark(kGrowthBenchmark, BM_CallsInOneContext);
    b->Unit(benchmark::kMillisecond)->UseRealTime()->Arg(1)->Arg(10)->Arg(100);
    if (!in.metricsError.empty())
      b->Repetitions(1)->Iterations(1);
  }
  add("analyses/annotations", BM_Annotations, false);
  add(
      "phases/1-clone", [](benchmark::State &s) { BM_Phase(s, 0); }, false);
  add(
      "phases/2-allocate", [](benchmark::State &s) { BM_Phase(s, 1); }, false);
  add(
      "phases/3-waitcnt", [](benchmark::State &s) { BM_Phase(s, 2); }, false);
  add(
      "phases/4-hazards", [](benchmark::State &s) { BM_Phase(s, 3); }, false);

  BudgetReporter reporter(console);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.printBudget();
  reporter.printGrowth();
  benchmark::Shutdown();
  // A pipeline that fails on the input is an error of the run.
  return in.metricsError.empty() && in.assemblyError.empty() ? 0 : 1;
}
