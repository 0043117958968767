//===- LoopOptBench.cpp - in-process cost of the loop optimizations -------===//
//
// Google Benchmark driver: parses one WaveASM file once, then measures per
// iteration one loop optimization on a fresh clone of it (the clone and its
// destruction are not timed; no verifier):
//
//   waveasm-scale-pack-elimination
//   waveasm-buffer-load-strength-reduction
//   waveasm-loop-address-promotion
//   waveasm-assign-loop-stages, waveasm-pipeline-loops (software pipelining;
//   bench/gen_pipeline_loop.py makes loops they apply to)
//
// The counter `ops` is the input's op count (ops inside the programs, as
// bench/gen_waveasm.py counts them). bench/loop_opt_cost.py runs it on
// generated programs of several sizes and divides: the passes are linear.
//
// Usage: waveasm-bench-loop-opt [benchmark flags] FILE
// Unless given, --benchmark_repetitions=10 and aggregates-only display are
// added (BenchCommon.h).
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include "pipeline/Passes.h"

#include "mlir/Pass/PassManager.h"

#include <benchmark/benchmark.h>

#include <algorithm>

using namespace mlir;
using namespace waveasm;

namespace {

struct Input {
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module;
  int64_t ops = 0;
};

Input *input;

void runPass(benchmark::State &state, const std::string &flag) {
  PassManager pm = PassManager::on<ModuleOp>(&input->context);
  pm.enableVerifier(false);
  if (failed(parsePassPipeline("waveasm.program(" + flag + ")", pm))) {
    state.SkipWithError("unknown pass");
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> clone = cast<ModuleOp>(input->module->clone());
    state.ResumeTiming();
    if (failed(pm.run(*clone))) {
      state.SkipWithError("the pass failed");
      return;
    }
    state.PauseTiming();
    clone = nullptr;
    state.ResumeTiming();
  }
  state.counters["ops"] = double(input->ops);
  state.counters["ns_per_op"] = benchmark::Counter(
      double(input->ops) * 1e-9, benchmark::Counter::kIsIterationInvariantRate |
                                     benchmark::Counter::kInvert);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> args = bench::withDefaultFlags(argc, argv);
  int n = int(args.size()) - 1;
  benchmark::Initialize(&n, args.data());
  if (n != 2) {
    llvm::errs() << "usage: waveasm-bench-loop-opt [benchmark flags] FILE\n";
    return 2;
  }
  registerWaveASMPipeline();
  Input in;
  in.module = bench::parseInputFile(in.context, args[1]);
  if (!in.module)
    return 1;
  for (ProgramOp program : in.module->getOps<ProgramOp>())
    program.walk([&](Operation *op) { in.ops += op != program; });
  input = &in;
  for (const char *flag :
       {"waveasm-scale-pack-elimination",
        "waveasm-buffer-load-strength-reduction",
        "waveasm-loop-address-promotion", "waveasm-assign-loop-stages",
        "waveasm-pipeline-loops"})
    // A fixed iteration count: the untimed clone costs far more than most
    // passes, and a minimum measured time would repeat it thousands of
    // times on large inputs.
    benchmark::RegisterBenchmark(flag, runPass, std::string(flag))
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(std::clamp<int64_t>(2000000 / std::max<int64_t>(in.ops, 1),
                                         5, 200));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
