//===- CompileAndMeasure.cpp - run the backend on a clone, measure --------===//

#include "pipeline/CompileAndMeasure.h"
#include "pipeline/CloneInOrder.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/ForEachOp.h"
#include "pipeline/Passes.h"

#include "analysis/CycleModel.h"
#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"
#include "ir/OpClassTable.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"

#include <mutex>
#include <optional>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace mlir;
using namespace waveasm;

namespace {

/// Wait and nop ops in a program; the pipeline's insertions are the
/// difference between the compiled clone and the input.
struct InsertedOpCounts {
  int64_t waits = 0;
  int64_t nops = 0;
};

/// Whether an op class is a wait or a nop, kept per thread by TypeID (each
/// op of the input and of the compiled program is asked; five TypeID
/// comparisons cost more than the lookup). An unregistered op's TypeID is
/// one for every name, and none is either.
enum class WaitOrNop : uint8_t { Neither, Wait, Nop };
WaitOrNop classifyWaitOrNop(Operation *op) {
  static thread_local OpClassTable<WaitOrNop, 512> table;
  return table.get(op, [](Operation *op) {
    if (isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_EXPCNT>(
            op))
      return WaitOrNop::Wait;
    return isa<S_NOP>(op) ? WaitOrNop::Nop : WaitOrNop::Neither;
  });
}

void countWaitOrNop(Operation *op, InsertedOpCounts &counts) {
  WaitOrNop kind = classifyWaitOrNop(op);
  counts.waits += kind == WaitOrNop::Wait;
  counts.nops += kind == WaitOrNop::Nop;
}

InsertedOpCounts countWaitsAndNops(ProgramOp program) {
  InsertedOpCounts counts;
  forEachOpPostOrder(program.getBody(),
                     [&](Operation *op) { countWaitOrNop(op, counts); });
  return counts;
}

/// Erases the ops of `region`, last first, each after the ops of its own
/// regions: every destructor finds its regions empty.
void eraseInnermostFirst(Region &region) {
  for (Block &block : region)
    while (!block.empty()) {
      Operation &op = block.back();
      for (Region &nested : op.getRegions())
        eraseInnermostFirst(nested);
      op.erase();
    }
}

/// Destroys `root` (the compiled clone) as erase() does, with each op's
/// operands unlinked once. MLIR's destruction drops every reference below a
/// region before deleting its ops, at each level of nesting and again in
/// each block (Region::~Region, Block::clear): a loop body is walked six
/// times. Here one walk drops them all, and the blocks are emptied
/// innermost first (without a walk that collects them), so every
/// destructor finds its regions empty.
void destroyInBulk(Operation *root) {
  root->dropAllReferences();
  for (Region &region : root->getRegions())
    eraseInnermostFirst(region);
  root->erase();
}

} // namespace

/// glibc gives free memory at the top of the heap back to the OS once more
/// than M_TRIM_THRESHOLD (128 KiB by default) is free there. A compile
/// allocates and frees a few hundred KiB (the clone, the passes' tables), so
/// repeated calls shrank and regrew the heap every time and touched fresh
/// zero-filled pages: about a tenth of a 300-op call went to brk and page
/// faults. Keeping up to 64 MiB of free heap costs nothing a process that
/// compiles repeatedly would not allocate again anyway. Setting the
/// threshold stops glibc from adapting its mmap threshold (blocks above it
/// are mapped and unmapped per allocation, fresh pages again): fix that at
/// 32 MiB, the adaptive maximum. In the language server this reuses the
/// previous snapshot's memory for the next parse (page faults during the LSP
/// benchmark: 50k -> 18k).
static void keepFreedHeapForRepeatedCompiles() {
#if defined(__GLIBC__)
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
  });
#endif
}

struct Compiler::Impl {
  explicit Impl(MLIRContext *context) : pm(context) {}
  PassManager pm;
  OptimizationTracer *tracer = nullptr; // owned by `pm`
  IRMapping mapping;                    // input -> clone, reused
  /// TargetModel with the options' overrides, per target kind (by value).
  std::optional<TargetModel>
      targets[static_cast<unsigned>(TargetKind::gfx1250) + 1];
};

Compiler::Compiler(MLIRContext *context, CompileOptions options)
    : options(std::move(options)), impl(std::make_unique<Impl>(context)) {
  keepFreedHeapForRepeatedCompiles();
  // Passes run without verification in between: the input was verified and
  // each pass keeps the IR valid (their tests verify after every pass).
  impl->pm.enableVerifier(false);
  WaveASMPipelineConfig pipeline = this->options.pipeline;
  pipeline.targetOverrides = this->options.targetOverrides;
  buildWaveASMPipeline(impl->pm, pipeline);
  if (this->options.traceOptimizations) {
    auto tracer = std::make_unique<OptimizationTracer>();
    impl->tracer = tracer.get();
    impl->pm.addInstrumentation(std::move(tracer));
  }
}

Compiler::~Compiler() = default;

FailureOr<CompileResult>
waveasm::compileAndMeasure(ModuleOp module, const CompileOptions &options) {
  return Compiler(module->getContext(), options).compile(module);
}

FailureOr<CompileResult> Compiler::compile(ModuleOp module) {
  // The op map is sized before the clone fills it: growing it rehashed
  // every entry several times. It keeps its capacity across calls
  // (DenseMap::clear() keeps the buckets). IRMapping has no reserve, and its
  // clear() empties the value map only (the op and block maps of every
  // earlier call stayed, naming freed copies); its maps are exposed const
  // only, but they are ours. Values are mapped in a table of this
  // thread's (nothing here asks the mapping for a value), which keeps its
  // capacity across calls and Compilers: compileAndMeasure makes a Compiler
  // per call, and growing the table from empty cost a tenth of the clone.
  IRMapping &mapping = impl->mapping;
  auto &opMap = const_cast<llvm::DenseMap<Operation *, Operation *> &>(
      mapping.getOperationMap());
  const_cast<llvm::DenseMap<Value, Value> &>(mapping.getValueMap()).clear();
  opMap.clear();
  const_cast<llvm::DenseMap<Block *, Block *> &>(mapping.getBlockMap()).clear();
  // Only the op/line map and the kept module's compiledOf ask which copy an
  // input op has (below): otherwise the clone maps blocks only.
  bool mapOps = options.emitAssembly || options.keepCompiledModule;
  if (mapOps) {
    size_t numOps = 0;
    forEachOpPreOrder(module->getRegion(0), [&](Operation *) { ++numOps; });
    opMap.reserve(numOps + 1);
  }
  CloneInOrderOptions cloneOptions;
  cloneOptions.mapOps = mapOps;
  static thread_local ClonedValues values;
  cloneOptions.values = &values;
  OwningOpRef<ModuleOp> clone = cast<ModuleOp>(
      cloneInOrder(module.getOperation(), mapping, nullptr, cloneOptions));

  SmallVector<ProgramOp> sourcePrograms(module.getOps<ProgramOp>());
  SmallVector<ProgramOp> programs(clone->getOps<ProgramOp>());
  SmallVector<InsertedOpCounts> before;
  for (ProgramOp program : sourcePrograms)
    before.push_back(countWaitsAndNops(program));

  // Ops the passes erase keep their memory until the maps below are built
  // (declared after `clone`: destroyed before it).
  DeferredEraseScope deferErasures(clone->getOperation());
  if (impl->tracer)
    impl->tracer->reset();
  if (failed(impl->pm.run(*clone)))
    return failure();

  CompileResult result;
  for (auto [i, program] : llvm::enumerate(programs)) {
    CompiledProgram compiled;
    ProgramOp source = sourcePrograms[i];
    TargetKind kind = program.getTargetKind();
    std::optional<TargetModel> &target =
        impl->targets[static_cast<unsigned>(kind)];
    if (!target) {
      llvm::Expected<TargetModel> model =
          TargetModel::getWithOverrides(kind, options.targetOverrides);
      if (!model)
        return program.emitOpError(llvm::toString(model.takeError()));
      target = std::move(*model);
    }

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
    compiled.metrics =
        computeProgramMetrics(program, cycles, counts, options.programBound);
    if (options.coAccessMetrics)
      addCoAccessMetrics(source, compiled.metrics);
    if (impl->tracer)
      compiled.loopEffects = impl->tracer->takeEffects(program);

    // compiled op -> input op, for the line map and hover lookups; an op
    // the optimizations rebuilt maps to its new form, one they erased to
    // nothing.
    llvm::DenseMap<Operation *, Operation *> sourceOf;
    if (mapOps) {
      // A pass that erases without eraseOp() (the greedy rewriter, LICM's
      // folds) frees the op, and a later op may be allocated at its address:
      // only an op still in the program, at the source's location, is its
      // copy. Otherwise the map would depend on the heap's state.
      llvm::DenseSet<Operation *> alive;
      program.walk([&](Operation *op) { alive.insert(op); });
      source.walk([&](Operation *op) {
        Operation *copy = mapping.lookupOrNull(op);
        if (copy)
          copy = deferErasures.live(copy);
        if (!copy || !alive.contains(copy) || copy->getLoc() != op->getLoc())
          return;
        sourceOf[copy] = op;
        if (options.keepCompiledModule)
          compiled.compiledOf[op] = copy;
      });
    }

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
  else
    destroyInBulk(clone.release());
  return result;
}
