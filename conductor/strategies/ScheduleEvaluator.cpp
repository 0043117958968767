//===- ScheduleEvaluator.cpp - measure an order of one block --------------===//

#include "conductor/strategies/ScheduleEvaluator.h"
#include "ir/ThisThreadDiagnostics.h"

#include "analysis/TargetModel.h"
#include "ir/Dialect.h"
#include "ir/LoopNumbering.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace waveasm::conductor {

ScheduleEvaluator::ScheduleEvaluator(Block &block, CompileOptions opts,
                                     bool robust)
    : block(block), options(std::move(opts)) {
  options.emitAssembly = false;
  options.keepCompiledModule = false;
  options.judgeByCyclesOnly();
  Operation *parent = block.getParentOp();
  auto program = isa<ProgramOp>(parent) ? cast<ProgramOp>(parent)
                                        : parent->getParentOfType<ProgramOp>();
  auto module = program->getParentOfType<ModuleOp>();
  assert(program && module && "block outside a program in a module");

  unsigned p = 0;
  for (ProgramOp other : module.getOps<ProgramOp>()) {
    if (other == program)
      programIndex = p;
    ++p;
  }
  if (auto loop = dyn_cast<LoopOp>(parent))
    loopIndex = getLoopNumber(loop);

  if (robust) {
    llvm::Expected<TargetModel> model = TargetModel::getWithOverrides(
        program.getTargetKind(), options.targetOverrides);
    if (model) {
      robustOptions = options;
      robustOptions->targetOverrides.push_back(
          "latency.vmem_load=" +
          std::to_string(2 * model->getLatency(LatencyClass::VMEMLoad)));
    } else {
      llvm::consumeError(model.takeError());
    }
  }

  IRMapping mapping;
  clone = cast<ModuleOp>(module->clone(mapping));
  for (Operation &op : block)
    cloneOf[&op] = mapping.lookup(&op);
  cloneBlock = mapping.lookup(&block);
}

ScheduleEvaluator::~ScheduleEvaluator() = default;

std::optional<BlockMeasure>
ScheduleEvaluator::measure(llvm::ArrayRef<Operation *> order) {
  return measure(order, /*withRobust=*/true);
}

std::optional<BlockMeasure>
ScheduleEvaluator::measure(llvm::ArrayRef<Operation *> order, bool withRobust) {
  assert(order.size() == cloneOf.size() && "order of another block");
  for (Operation *op : order)
    cloneOf.lookup(op)->moveBefore(cloneBlock, cloneBlock->end());

  ++numMeasured;
  // A failing candidate is not an error of the user's program. The context
  // may be shared with other threads (the language server parses on its
  // main thread while the worker schedules): only this thread's
  // diagnostics are swallowed, the others fall through to their handlers.
  ThisThreadDiagnosticHandler quiet(clone->getContext());
  if (!compiler)
    compiler = std::make_unique<Compiler>(clone->getContext(), options);
  FailureOr<CompileResult> result = compiler->compile(*clone);
  if (failed(result) || programIndex >= result->programs.size())
    return std::nullopt;
  BlockMeasure m;
  m.program = result->programs[programIndex].metrics;
  m.peakVGPR = m.program.peak_vgpr;
  m.peakAGPR = m.program.peak_agpr;
  m.peakSGPR = m.program.peak_sgpr;
  m.cycles = m.program.est_cycles;
  if (loopIndex && *loopIndex < m.program.loops.size())
    m.cycles = m.program.loops[*loopIndex].est_cycles_per_iter;
  if (robustOptions && withRobust) {
    if (!robustCompiler)
      robustCompiler =
          std::make_unique<Compiler>(clone->getContext(), *robustOptions);
    FailureOr<CompileResult> slow = robustCompiler->compile(*clone);
    if (succeeded(slow) && programIndex < slow->programs.size()) {
      const ProgramMetrics &pm = slow->programs[programIndex].metrics;
      m.robustCycles = pm.est_cycles;
      if (loopIndex && *loopIndex < pm.loops.size())
        m.robustCycles = pm.loops[*loopIndex].est_cycles_per_iter;
    }
  }
  return m;
}

std::optional<BlockMeasure> ScheduleEvaluator::measureInput() {
  if (!inputMeasure) {
    std::vector<Operation *> order;
    for (Operation &op : block)
      order.push_back(&op);
    inputMeasure = measure(order);
  }
  return *inputMeasure;
}

std::array<int64_t, 6> latencyRank(const BlockMeasure &m,
                                   const BlockMeasure &limit) {
  return {std::max<int64_t>(0, m.peakVGPR - limit.peakVGPR),
          std::max<int64_t>(0, m.peakAGPR - limit.peakAGPR),
          m.cycles,
          m.robustCycles,
          m.peakVGPR,
          m.program.est_cycles};
}

bool isFeasible(const BlockMeasure &m, const BlockMeasure &limit) {
  return m.peakVGPR <= limit.peakVGPR && m.peakAGPR <= limit.peakAGPR;
}

bool isFasterWithin(const BlockMeasure &a, const BlockMeasure &b,
                    const BlockMeasure &limit) {
  return isFeasible(a, limit) && latencyRank(a, limit) < latencyRank(b, limit);
}

} // namespace waveasm::conductor
