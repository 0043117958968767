//===- CompileAndMeasure.cpp - run the backend on a clone, measure --------===//

#include "pipeline/CompileAndMeasure.h"

#include "analysis/CycleModel.h"
#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace waveasm;

namespace {

/// Wait and nop ops in a program; the pipeline's insertions are the
/// difference between the compiled clone and the input.
struct InsertedOpCounts {
  int64_t waits = 0;
  int64_t nops = 0;
};

void countWaitOrNop(Operation *op, InsertedOpCounts &counts) {
  if (isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_EXPCNT>(op))
    ++counts.waits;
  else if (isa<S_NOP>(op))
    ++counts.nops;
}

InsertedOpCounts countWaitsAndNops(ProgramOp program) {
  InsertedOpCounts counts;
  program.walk([&](Operation *op) { countWaitOrNop(op, counts); });
  return counts;
}

} // namespace

FailureOr<CompileResult>
waveasm::compileAndMeasure(ModuleOp module, const CompileOptions &options) {
  IRMapping mapping;
  OwningOpRef<ModuleOp> clone = cast<ModuleOp>(module->clone(mapping));

  SmallVector<ProgramOp> sourcePrograms(module.getOps<ProgramOp>());
  SmallVector<ProgramOp> programs(clone->getOps<ProgramOp>());
  SmallVector<InsertedOpCounts> before;
  for (ProgramOp program : sourcePrograms)
    before.push_back(countWaitsAndNops(program));

  // Passes run without verification in between: the input was verified and
  // each pass keeps the IR valid (their tests verify after every pass).
  PassManager pm(module->getContext());
  pm.enableVerifier(false);
  WaveASMPipelineConfig pipeline = options.pipeline;
  pipeline.targetOverrides = options.targetOverrides;
  buildWaveASMPipeline(pm, pipeline);
  if (failed(pm.run(*clone)))
    return failure();

  CompileResult result;
  for (auto [i, program] : llvm::enumerate(programs)) {
    CompiledProgram compiled;
    ProgramOp source = sourcePrograms[i];
    llvm::Expected<TargetModel> target = TargetModel::getWithOverrides(
        program.getTargetKind(), options.targetOverrides);
    if (!target)
      return program.emitOpError(llvm::toString(target.takeError()));

    // One index and cycle model serve the metrics and the counts.
    ProgramIndex index(program);
    CycleModel cycles(index, *target);
    InsertedOpCounts after;
    for (Operation *op : index.getOps())
      countWaitOrNop(op, after);
    PipelineCounts counts;
    counts.peaks = computePhysicalPeaks(program);
    counts.waitcnts_inserted = after.waits - before[i].waits;
    counts.nops_inserted = after.nops - before[i].nops;
    // countInstructions, from the facts the cycle model gathered.
    counts.total_instructions = llvm::count_if(
        cycles.getOpFacts(), [](const OpFacts &f) { return f.issued; });
    compiled.metrics = computeProgramMetrics(program, cycles, counts);

    // compiled op -> input op, for the line map and hover lookups.
    llvm::DenseMap<Operation *, Operation *> sourceOf;
    if (options.emitAssembly || options.keepCompiledModule)
      source.walk([&](Operation *op) {
        if (Operation *copy = mapping.lookupOrNull(op)) {
          sourceOf[copy] = op;
          if (options.keepCompiledModule)
            compiled.compiledOf[op] = copy;
        }
      });

    if (options.emitAssembly) {
      llvm::raw_string_ostream os(compiled.assembly);
      AsmLineMap lineMap;
      if (failed(emitProgramAssembly(program, os, &lineMap)))
        return failure();
      os.flush();
      compiled.lineOps.reserve(lineMap.lineOps.size());
      for (auto [line, op] : llvm::enumerate(lineMap.lineOps)) {
        Operation *input = op ? sourceOf.lookup(op) : nullptr;
        compiled.lineOps.push_back(input);
        if (input)
          compiled.opLines[input].push_back(line);
      }
    }
    result.programs.push_back(std::move(compiled));
  }
  if (options.keepCompiledModule)
    result.compiled = std::move(clone);
  return result;
}
