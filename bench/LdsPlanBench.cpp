//===- LdsPlanBench.cpp - in-process cost of the LDS planner --------------===//
//
// Google Benchmark driver: parses one WaveASM file once, then measures per
// iteration, over every program of it (nothing is modified, so no clone):
//
//   lds_plan:        planLds (buffers, address ranges, lifetimes, the
//                    arena, the ping/pong plans), the analysis behind
//                    --waveasm-lds-plan
//   lds_plan_json:   the same plus its JSON text
//   redundant_loads: findRedundantLoads (the pass and the lint)
//
// Counters: `ops` (ops inside the programs), `lds_accesses`, `buffers`.
// The target on bench/gen_waveasm.py -n 20000 is under 20 ms for lds_plan
// (issue 12); bench/results/lds_plan.json holds a run.
//
// Usage: waveasm-bench-lds-plan [benchmark flags] FILE
//
//===----------------------------------------------------------------------===//

#include "BenchCommon.h"

#include "analysis/LdsPlan.h"
#include "analysis/RedundantLoads.h"

#include <benchmark/benchmark.h>

using namespace mlir;
using namespace waveasm;

namespace {

struct Input {
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module;
  int64_t ops = 0;
};

Input *input;

void setCounters(benchmark::State &state) {
  int64_t accesses = 0, buffers = 0;
  for (ProgramOp program : input->module->getOps<ProgramOp>()) {
    LdsProgramPlan plan = planLds(program);
    accesses += plan.info.accesses.size();
    buffers += plan.info.buffers.size();
  }
  state.counters["ops"] = double(input->ops);
  state.counters["lds_accesses"] = double(accesses);
  state.counters["buffers"] = double(buffers);
}

void benchPlan(benchmark::State &state, bool json) {
  for (auto _ : state) {
    for (ProgramOp program : input->module->getOps<ProgramOp>()) {
      LdsProgramPlan plan = planLds(program);
      if (json) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << llvm::json::Value(ldsPlanToJSON(program, plan));
        benchmark::DoNotOptimize(text);
      }
      benchmark::DoNotOptimize(plan.arena.arenaBytes);
    }
  }
  setCounters(state);
}

void benchRedundantLoads(benchmark::State &state) {
  for (auto _ : state)
    for (ProgramOp program : input->module->getOps<ProgramOp>()) {
      std::vector<RedundantLoad> found = findRedundantLoads(program);
      benchmark::DoNotOptimize(found.data());
    }
  setCounters(state);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> args = bench::withDefaultFlags(argc, argv);
  int n = int(args.size()) - 1;
  benchmark::Initialize(&n, args.data());
  std::string path = bench::inputPath(n, args.data(), "waveasm-bench-lds-plan");
  if (path.empty())
    return 2;
  Input in;
  in.module = bench::parseInputFile(in.context, path);
  if (!in.module)
    return 1;
  for (ProgramOp program : in.module->getOps<ProgramOp>())
    program.walk([&](Operation *op) { in.ops += op != program; });
  input = &in;
  benchmark::RegisterBenchmark("lds_plan", benchPlan, false)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("lds_plan_json", benchPlan, true)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("redundant_loads", benchRedundantLoads)
      ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
