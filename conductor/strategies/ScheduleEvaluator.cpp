//===- ScheduleEvaluator.cpp - measure an order of one block --------------===//

#include "conductor/strategies/ScheduleEvaluator.h"

#include "ir/Dialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace waveasm::conductor {

ScheduleEvaluator::ScheduleEvaluator(Block &block, CompileOptions opts)
    : block(block), options(std::move(opts)) {
  options.emitAssembly = false;
  options.keepCompiledModule = false;
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
  if (auto loop = dyn_cast<LoopOp>(parent)) {
    unsigned l = 0;
    program.walk<WalkOrder::PreOrder>([&](LoopOp candidate) {
      if (candidate == loop)
        loopIndex = l;
      ++l;
    });
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
  assert(order.size() == cloneOf.size() && "order of another block");
  for (Operation *op : order)
    cloneOf.lookup(op)->moveBefore(cloneBlock, cloneBlock->end());

  ++numMeasured;
  // A failing candidate is not an error of the user's program.
  ScopedDiagnosticHandler quiet(clone->getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<CompileResult> result = compileAndMeasure(*clone, options);
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

bool isFasterWithin(const BlockMeasure &a, const BlockMeasure &b,
                    const BlockMeasure &limit) {
  if (a.peakVGPR > limit.peakVGPR || a.peakAGPR > limit.peakAGPR)
    return false;
  if (a.cycles != b.cycles)
    return a.cycles < b.cycles;
  if (a.peakVGPR != b.peakVGPR)
    return a.peakVGPR < b.peakVGPR;
  return a.program.est_cycles < b.program.est_cycles;
}

} // namespace waveasm::conductor
