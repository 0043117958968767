//===- LoopOptimizations.cpp - what the optimizations do to a loop --------===//
//
// Where a user looks at a loop, what the production pipeline's
// optimizations change there (CompiledProgram::loopEffects, recorded by
// pipeline/OptimizationTrace.h): a code lens and a hover section per loop,
// an `optimization` lint where they remove work, and the code action
// "Apply loop optimizations", which replaces the program with the IR the
// optimizations produce (before allocation, so it stays editable).
//
//===----------------------------------------------------------------------===//

#include "ir/ThisThreadDiagnostics.h"
#include "server/Features.h"

#include "conductor/TextEdit.h"
#include "pipeline/CompileAndMeasure.h"
#include "pipeline/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;

namespace {

/// "strength reduction" for "waveasm-buffer-load-strength-reduction".
llvm::StringRef shortPassName(llvm::StringRef flag) {
  return llvm::StringSwitch<llvm::StringRef>(flag)
      .Case("waveasm-buffer-load-strength-reduction", "strength reduction")
      .Case("waveasm-scale-pack-elimination", "scale packs")
      .Case("waveasm-loop-address-promotion", "address promotion")
      .Case("waveasm-peephole", "peephole")
      .Case("waveasm-scoped-cse", "CSE")
      .Case("waveasm-m0-redundancy-elim", "m0")
      .Case("waveasm-memory-offset-opt", "offsets")
      .Case("waveasm-arith-legalization", "arith legalization")
      .Case("waveasm-scc-spill-reload", "SCC spills")
      .Case("loop-invariant-code-motion", "LICM")
      .Default(flag);
}

/// "-12 VALU +1 SALU" (the fields that changed).
std::string formatDelta(const LoopOpCounts &delta) {
  std::string out;
  auto field = [&](int64_t n, llvm::StringRef unit) {
    if (n == 0)
      return;
    if (!out.empty())
      out += ' ';
    out += llvm::formatv("{0}{1} {2}", n > 0 ? "+" : "-", n > 0 ? n : -n, unit)
               .str();
  };
  field(delta.valu, "VALU");
  field(delta.salu, "SALU");
  field(delta.other, "other");
  return out;
}

/// The passes' effects, summed per pass (a pass that runs twice, CSE,
/// counts once), in first-change order.
std::vector<LoopPassEffect> perPass(const LoopOptimizationEffect &effect) {
  std::vector<LoopPassEffect> out;
  for (const LoopPassEffect &e : effect.passes) {
    auto it = llvm::find_if(
        out, [&](const LoopPassEffect &o) { return o.pass == e.pass; });
    if (it == out.end()) {
      out.push_back(e);
      continue;
    }
    it->delta.valu += e.delta.valu;
    it->delta.salu += e.delta.salu;
    it->delta.other += e.delta.other;
  }
  llvm::erase_if(out, [](const LoopPassEffect &e) {
    return e.delta.valu == 0 && e.delta.salu == 0 && e.delta.other == 0;
  });
  return out;
}

std::string liveVGPRs(const LoopOptimizationEffect &effect) {
  return llvm::formatv("live VGPR {0} -> {1}", effect.liveVGPRsBefore,
                       effect.liveVGPRsAfter)
      .str();
}

} // namespace

const LoopOptimizationEffect *
waveasm::server::findLoopEffect(const CompiledDocument &compiled,
                                unsigned program, LoopOp compiledLoop) {
  if (program >= compiled.getPrograms().size())
    return nullptr;
  for (const LoopOptimizationEffect &effect :
       compiled.getPrograms()[program].result.loopEffects)
    if (effect.loop == compiledLoop)
      return &effect;
  return nullptr;
}

std::string
waveasm::server::formatLoopEffectLens(const LoopOptimizationEffect &effect) {
  std::string text = "optimizations:";
  for (const LoopPassEffect &e : perPass(effect))
    text += " " + shortPassName(e.pass).str() + " " + formatDelta(e.delta) +
            " \xC2\xB7";
  return text + " " + liveVGPRs(effect);
}

std::string
waveasm::server::formatLoopEffectHover(const LoopOptimizationEffect &effect) {
  std::string text = llvm::formatv("**Optimizations** (the production "
                                   "pipeline, per iteration): {0} -> {1} "
                                   "instructions, {2}",
                                   effect.before.total(), effect.after.total(),
                                   liveVGPRs(effect));
  for (const LoopPassEffect &e : perPass(effect))
    text += "\n- `" + e.pass + "`: " + formatDelta(e.delta);
  return text + "\n";
}

std::optional<std::string>
waveasm::server::formatLoopEffectLint(const LoopOptimizationEffect &effect) {
  int64_t removed = effect.before.total() - effect.after.total();
  if (removed <= 0)
    return std::nullopt;
  std::string passes;
  for (const LoopPassEffect &e : perPass(effect))
    if (e.delta.total() < 0)
      passes += (passes.empty() ? "" : ", ") + shortPassName(e.pass).str() +
                " " + formatDelta(e.delta);
  return llvm::formatv("the compiler removes {0} instruction{1} per "
                       "iteration from this loop ({2}); the figures shown "
                       "are those of the optimized loop, and \"{3}\" writes "
                       "it",
                       removed, removed == 1 ? "" : "s", passes,
                       kApplyOptimizationsTitle)
      .str();
}

//===----------------------------------------------------------------------===//
// Apply loop optimizations
//===----------------------------------------------------------------------===//

/// Runs the optimizations on a copy of `module` and returns the printed
/// program `index`, or nullopt when they fail.
static std::optional<std::string> optimizedProgramText(ModuleOp module,
                                                       unsigned index) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  MLIRContext *ctx = module.getContext();
  ThisThreadDiagnosticHandler quiet(ctx);
  PassManager pm(ctx, ModuleOp::getOperationName());
  WaveASMPipelineConfig config;
  config.stopBeforeAllocation = true;
  buildWaveASMPipeline(pm, config);
  if (failed(pm.run(*copy)))
    return std::nullopt;
  auto programs = llvm::to_vector(copy->getOps<ProgramOp>());
  if (index >= programs.size())
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  programs[index]->print(os);
  return text;
}

/// Metrics of `module`'s program `index` through the backend passes only:
/// what the written IR costs before any optimization.
static std::optional<ProgramMetrics> backendMetrics(ModuleOp module,
                                                    unsigned index) {
  CompileOptions options;
  options.pipeline = CompileOptions::measuringPipeline(/*optimize=*/false);
  options.emitAssembly = false;
  ThisThreadDiagnosticHandler quiet(module.getContext());
  FailureOr<CompileResult> result = compileAndMeasure(module, options);
  if (failed(result) || index >= result->programs.size())
    return std::nullopt;
  return result->programs[index].metrics;
}

std::optional<lsp::CodeAction> waveasm::server::computeApplyOptimizationsAction(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    lsp::Position pos, const CodeActionOptions &options) {
  if (!parsed.isVerified() || !compiled || !compiled->isFor(parsed) ||
      !compiled->succeeded())
    return std::nullopt;
  unsigned entry = parsed.findOpAt(pos);
  if (entry == OpEntry::kNone)
    return std::nullopt;
  unsigned program = parsed.getOps()[entry].program;
  if (program >= compiled->getPrograms().size() ||
      compiled->getPrograms()[program].result.loopEffects.empty())
    return std::nullopt;
  ModuleOp module = parsed.getModule();
  std::optional<std::string> text = optimizedProgramText(module, program);
  if (!text)
    return std::nullopt;
  lsp::Range range = parsed.getOps()[parsed.getPrograms()[program]].scope;
  std::string updated = parsed.getText().str();
  size_t begin = parsed.getLines().getOffset(range.start);
  size_t end = parsed.getLines().getOffset(range.end);
  updated.replace(begin, end - begin, *text);
  // The new text must parse and verify, and the diff is measured the way
  // the written IR costs: through the backend passes alone.
  ParsedDocument after(parsed.getContext(), parsed.getURI(), updated,
                       parsed.getVersion());
  if (!after.isVerified())
    return std::nullopt;
  std::optional<ProgramMetrics> beforeMetrics = backendMetrics(module, program);
  std::optional<ProgramMetrics> afterMetrics =
      backendMetrics(after.getModule(), program);
  if (!beforeMetrics || !afterMetrics)
    return std::nullopt;
  lsp::CodeAction action;
  action.title = (kApplyOptimizationsTitle + ": " +
                  formatMetricDiff(*beforeMetrics, *afterMetrics, std::nullopt))
                     .str();
  action.kind = kCodeActionKind.str();
  lsp::TextEdit edit{range, *text};
  action.edit = makeWorkspaceEdit(parsed, {edit}, options.versionedEdits);
  return action;
}
