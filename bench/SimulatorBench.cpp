//===- SimulatorBench.cpp - what a run and a compare of the simulator cost
//-===//
//
// Google Benchmark driver on FILE (`gen_waveasm.py --loop-body 300`: one
// 300-op loop body, 32 iterations, one wave of 64 lanes):
//
//   simulate/input      one run of the program as written
//   simulate/allocated  one run of its full-pipeline output
//   compare/4-seeds     compareOnSeeds(input, allocated, 4): what the
//                       Conductor pays to check a kept round
//
// Budgets (reported, never enforced): a run <= 5 ms, a compare on 4 seeds
// <= 50 ms. Usage: waveasm-bench-sim [benchmark flags] FILE.
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include "pipeline/CompileAndMeasure.h"
#include "sim/Compare.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace mlir;
using namespace waveasm;

namespace {

struct Input {
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module, allocated;
  ProgramOp program, allocatedProgram;
};
Input *input = nullptr;

/// The budget's unit: one wave of 64 lanes (the generated kernel's
/// workgroup has four).
sim::SimOptions oneWave() {
  sim::SimOptions options;
  options.waves = 1;
  return options;
}

void simulateBench(benchmark::State &state, ProgramOp program) {
  sim::SimResult result;
  for (auto _ : state) {
    result = sim::simulate(program, oneWave());
    benchmark::DoNotOptimize(result);
  }
  if (result.error)
    state.SkipWithError(result.error->str().c_str());
  state.counters["ops"] = double(result.opsExecuted);
}

void BM_Compare(benchmark::State &state) {
  for (auto _ : state) {
    sim::Comparison c = sim::compareOnSeeds(
        input->program, input->allocatedProgram, 4, oneWave());
    if (!c.equal())
      state.SkipWithError(c.message.c_str());
    benchmark::DoNotOptimize(c);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> args = bench::withDefaultFlags(argc, argv);
  int count = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&count, args.data());
  std::string path = bench::inputPath(count, args.data(), "waveasm-bench-sim");
  if (path.empty())
    return 2;
  Input in;
  input = &in;
  in.module = bench::parseInputFile(in.context, path);
  if (!in.module)
    return 1;
  CompileOptions options;
  options.emitAssembly = false;
  options.keepCompiledModule = true;
  FailureOr<CompileResult> compiled = compileAndMeasure(*in.module, options);
  if (failed(compiled)) {
    llvm::errs() << "error: the pipeline failed on " << path << "\n";
    return 1;
  }
  in.allocated = std::move(compiled->compiled);
  in.program = *in.module->getOps<ProgramOp>().begin();
  in.allocatedProgram = *in.allocated->getOps<ProgramOp>().begin();
  benchmark::RegisterBenchmark("simulate/input", simulateBench, in.program)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("simulate/allocated", simulateBench,
                               in.allocatedProgram)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("compare/4-seeds", BM_Compare)
      ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
