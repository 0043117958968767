//===- Lints.cpp - stall, pressure, hazard, waitcnt and the rest ----------===//
//
// Lints read the compiled snapshot: the annotations of the compiled
// programs and the ops the pipeline inserted, each attributed to the input
// op it precedes (CompiledOpInfo::insertedBefore). Timing is the steady
// state for ops in loops (it repeats every iteration), else the program
// timeline.
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"
#include "server/features/BankConflicts.h"
#include "server/features/Common.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

namespace {

std::optional<lsp::DiagnosticSeverity> toSeverity(LintSeverity severity) {
  switch (severity) {
  case LintSeverity::Off:
    return std::nullopt;
  case LintSeverity::Hint:
    return lsp::DiagnosticSeverity::Hint;
  case LintSeverity::Info:
    return lsp::DiagnosticSeverity::Information;
  case LintSeverity::Warning:
    return lsp::DiagnosticSeverity::Warning;
  case LintSeverity::Error:
    return lsp::DiagnosticSeverity::Error;
  }
  return std::nullopt;
}

struct LintContext {
  const ParsedDocument &parsed;
  const CompiledDocument &compiled;
  const ServerSettings &settings;
  std::vector<lsp::Diagnostic> &out;

  bool enabled(LintCode code) const {
    return settings.severityOf(code) != LintSeverity::Off;
  }
  lsp::Diagnostic &add(LintCode code, lsp::Range range, std::string message) {
    lsp::Diagnostic diag;
    diag.range = range;
    diag.severity = *toSeverity(settings.severityOf(code));
    diag.code = stringifyLintCode(code).str();
    diag.message = std::move(message);
    out.push_back(std::move(diag));
    return out.back();
  }
  /// Related information at the input op a compiled producer came from:
  /// its first result's name, else the op name.
  void relateProducer(lsp::Diagnostic &diag, Operation *producer,
                      const std::string &what) {
    std::optional<unsigned> entry = compiled.lookupCompiled(producer);
    if (!entry)
      return;
    Operation *input = parsed.getOps()[*entry].op;
    std::optional<lsp::Range> range;
    if (input->getNumResults())
      range = getValueDefRange(parsed, input->getResult(0));
    diag.related.push_back(
        {makeLocation(parsed, range.value_or(parsed.getOps()[*entry].name)),
         what});
  }
  /// "`v_mfma...` on line 12" for a compiled producer.
  std::string describeProducer(Operation *producer) {
    std::string text = "`" + getMnemonic(producer).str() + "`";
    if (std::optional<unsigned> e = compiled.lookupCompiled(producer))
      text += " on line " + std::to_string(getDisplayLine(parsed, *e));
    return text;
  }
  /// The input name of a compiled operand ("%x", "%x#1").
  std::string nameOf(Value compiledValue) {
    Value input = getInputValue(parsed, compiled, compiledValue);
    return input ? getValueName(parsed, input) : "a value";
  }
};

/// `stall`: an instruction waiting at least the threshold for a register
/// operand: it was issued that many cycles before the operand is ready.
void lintStalls(LintContext &ctx, unsigned idx, const CompiledOpInfo &info) {
  EffectiveTiming t = getEffectiveTiming(info);
  if (t.stall < ctx.settings.stallThresholdCycles)
    return;
  // Waiting for the MFMA pipe is what an MFMA-bound loop does; only
  // dependency stalls are worth a lint.
  if (t.reason != StallReason::Operand &&
      t.reason != StallReason::UncoveredLoad)
    return;
  const OpEntry &entry = ctx.parsed.getOps()[idx];
  const ProgramAnnotations &ann =
      *ctx.compiled.getPrograms()[info.program].annotations;
  std::string where = t.steady ? " in every iteration of its loop" : "";
  OperandSource source =
      findLatestOperand(ann, info.compiled, /*memoryOnly=*/false);
  std::string name = source ? "its operand " + ctx.nameOf(source.operand)
                            : std::string("an operand");
  std::string message = "`" + getMnemonic(entry.op).str() + "` is issued " +
                        std::to_string(t.stall) + " issue slots before " +
                        name + " is ready" + where;
  if (source) {
    message += " (from " + ctx.describeProducer(source.producer);
    if (const InstAnnotation *producer = ann.lookup(source.producer))
      message += ", latency " + std::to_string(producer->latency);
    message += ")";
  }
  message += "; move independent work before it or the producer earlier";
  lsp::Diagnostic &diag = ctx.add(LintCode::Stall, entry.name, message);
  if (source)
    ctx.relateProducer(diag, source.producer,
                       ctx.nameOf(source.operand) + " comes from here");
}

/// `hazard`: nops the pipeline inserted before the op.
void lintHazards(LintContext &ctx, unsigned idx, const CompiledOpInfo &info) {
  int64_t waitStates = 0;
  std::string nops;
  for (Operation *op : info.insertedBefore)
    if (auto nop = dyn_cast<S_NOP>(op)) {
      waitStates += nop.getCount() + 1;
      nops += (nops.empty() ? "`" : ", `") + getShortText(op) + "`";
    }
  if (!waitStates)
    return;
  const OpEntry &entry = ctx.parsed.getOps()[idx];
  const ProgramAnnotations &ann =
      *ctx.compiled.getPrograms()[info.program].annotations;
  OperandSource source =
      findLatestOperand(ann, info.compiled, /*memoryOnly=*/false);
  std::string message = "the pipeline inserted " + nops + " (" +
                        std::to_string(waitStates) + " wait state" +
                        (waitStates == 1 ? "" : "s") + ") before `" +
                        getMnemonic(entry.op).str() + "`";
  std::string cause;
  if (source) {
    auto facts = dyn_cast<InstInfoOpInterface>(source.producer);
    std::string name = ctx.nameOf(source.operand);
    std::string from = ctx.describeProducer(source.producer);
    if (facts && facts.getLatencyClass() == LatencyClass::Trans)
      cause = "it reads " + name + ", a transcendental result (" + from + ")";
    else if (facts && facts.getExecUnit() == ExecUnit::MFMA)
      cause = "it reads " + name + ", an MFMA result (" + from + ")";
    else
      cause = "it reads " + name + " (" + from + ")";
  }
  if (!cause.empty())
    message += ": " + cause;
  message += "; independent instructions between the two would replace the "
             "nops";
  lsp::Diagnostic &diag = ctx.add(LintCode::Hazard, entry.name, message);
  if (source)
    ctx.relateProducer(diag, source.producer, "hazard source");
}

/// `waitcnt`: waits (inserted before the op, or the op itself) that stall
/// at least the threshold.
void lintWaits(LintContext &ctx, unsigned idx, const CompiledOpInfo &info) {
  const ProgramAnnotations &ann =
      *ctx.compiled.getPrograms()[info.program].annotations;
  auto stallOf = [](const InstAnnotation &a) {
    return a.inLoop ? a.steadyStall : a.stall;
  };
  int64_t stall = 0;
  std::string waits;
  bool inserted = false;
  for (Operation *op : info.insertedBefore)
    if (isWaitOp(op))
      if (const InstAnnotation *a = ann.lookup(op)) {
        stall += stallOf(*a);
        waits += (waits.empty() ? "`" : ", `") + getShortText(op) + "`";
        inserted = true;
      }
  if (isWaitOp(info.compiled) && info.annotation) {
    stall += stallOf(*info.annotation);
    waits += (waits.empty() ? "`" : ", `") + getShortText(info.compiled) + "`";
  }
  if (waits.empty() || stall < ctx.settings.waitcntStallThresholdCycles)
    return;
  const OpEntry &entry = ctx.parsed.getOps()[idx];
  bool steady = info.annotation && info.annotation->inLoop;
  std::string message =
      waits +
      (inserted ? " (inserted before `" + getMnemonic(entry.op).str() + "`)"
                : "") +
      " waits " + std::to_string(stall) + " issue slots" +
      (steady ? " in every iteration of its loop" : "");
  OperandSource load =
      isWaitOp(info.compiled)
          ? OperandSource()
          : findLatestOperand(ann, info.compiled, /*memoryOnly=*/true);
  if (load)
    message += " for " + ctx.describeProducer(load.producer);
  message += "; issue the memory op earlier or move independent work before "
             "the wait";
  lsp::Diagnostic &diag = ctx.add(LintCode::Waitcnt, entry.name, message);
  if (load)
    ctx.relateProducer(diag, load.producer, "the awaited memory op");
}

/// `bankConflict`: a ds op whose lanes conflict in the LDS banks (the
/// analysis the cycle model charged the extra slots from).
void lintBankConflicts(LintContext &ctx, unsigned idx,
                       const CompiledOpInfo &info) {
  const ProgramAnnotations &ann =
      *ctx.compiled.getPrograms()[info.program].annotations;
  const LdsBankConflicts &banks = ann.getCycleModel().getLdsBankConflicts();
  if (!banks.lookup(info.compiled))
    return;
  std::optional<std::string> message =
      formatBankConflictLint(ctx.parsed, ctx.compiled, banks, info.compiled);
  if (message)
    ctx.add(LintCode::BankConflict, ctx.parsed.getOps()[idx].name,
            std::move(*message));
}

/// `pressure`: the VGPR peak of each program when a breakpoint below it
/// would gain a wave per SIMD.
void lintPressure(LintContext &ctx, const CompiledProgramInfo &program) {
  const ProgramAnnotations &ann = *program.annotations;
  const PressurePeak &peak = ann.getPeak(RegClass::VGPR);
  if (!peak.op)
    return;
  auto breakpoint = ann.getTarget().getNextVGPRBreakpoint(peak.regs);
  if (!breakpoint)
    return;
  auto [maxVGPRs, waves] = *breakpoint;
  std::optional<unsigned> entry = getEntryFor(ctx.compiled, peak.op);
  lsp::Range range = ctx.parsed.getOps()[entry ? *entry : program.entry].name;
  int64_t toFree = peak.regs - maxVGPRs;
  lsp::Diagnostic &diag = ctx.add(
      LintCode::Pressure, range,
      std::to_string(peak.regs) + " VGPRs are live here (the peak of @" +
          ann.getProgram().getSymName().str() + "): live values allow " +
          std::to_string(ann.getOccupancy()) + " waves per SIMD; free " +
          std::to_string(toFree) + " VGPR" + (toFree == 1 ? "" : "s") +
          " to reach " + std::to_string(waves) + " waves (at most " +
          std::to_string(maxVGPRs) + ")");
  // The largest VGPR blocks live here are the candidates.
  unsigned shown = 0;
  for (const LiveValue &live : ann.getLiveness().getLiveValuesAt(peak.index)) {
    if (live.regClass != RegClass::VGPR || shown == 5)
      continue;
    Value input = getInputValue(ctx.parsed, ctx.compiled, live.value);
    std::optional<lsp::Range> def =
        input ? getValueDefRange(ctx.parsed, input) : std::nullopt;
    if (!def)
      continue;
    ++shown;
    diag.related.push_back(
        {makeLocation(ctx.parsed, *def),
         getValueName(ctx.parsed, input) + ": " + std::to_string(live.size) +
             " VGPR" + (live.size == 1 ? "" : "s") + " live across " +
             std::to_string(live.range.end - live.range.start) +
             " instructions"});
  }
}

/// `optimization`: a loop from which the production pipeline's
/// optimizations remove instructions (the figures shown are those of the
/// optimized loop, which the written IR does not show).
void lintOptimizations(LintContext &ctx, const CompiledProgramInfo &program) {
  for (const LoopOptimizationEffect &effect : program.result.loopEffects) {
    std::optional<std::string> message = formatLoopEffectLint(effect);
    std::optional<unsigned> entry =
        effect.loop ? ctx.compiled.lookupCompiled(effect.loop) : std::nullopt;
    if (message && entry)
      ctx.add(LintCode::Optimization, ctx.parsed.getOps()[*entry].name,
              *message);
  }
}

} // namespace

std::vector<lsp::Diagnostic>
waveasm::server::computeLints(const ParsedDocument &parsed,
                              const CompiledDocument &compiled,
                              const ServerSettings &settings) {
  std::vector<lsp::Diagnostic> out;
  if (!compiled.isFor(parsed) || !compiled.succeeded())
    return out;
  LintContext ctx{parsed, compiled, settings, out};
  for (unsigned i = 0, e = parsed.getOps().size(); i < e; ++i) {
    const CompiledOpInfo *info = compiled.lookup(i);
    if (!info || !info->annotation)
      continue;
    if (ctx.enabled(LintCode::Stall))
      lintStalls(ctx, i, *info);
    if (ctx.enabled(LintCode::Hazard))
      lintHazards(ctx, i, *info);
    if (ctx.enabled(LintCode::Waitcnt))
      lintWaits(ctx, i, *info);
    if (ctx.enabled(LintCode::BankConflict))
      lintBankConflicts(ctx, i, *info);
  }
  if (ctx.enabled(LintCode::Pressure))
    for (const CompiledProgramInfo &program : compiled.getPrograms())
      lintPressure(ctx, program);
  if (ctx.enabled(LintCode::Optimization))
    for (const CompiledProgramInfo &program : compiled.getPrograms())
      lintOptimizations(ctx, program);
  // Lints of the text as written (no pipeline needed, published with the
  // others so that one version's lints arrive together).
  auto addSourceLint = [&](LintCode code, auto lint) {
    if (!ctx.enabled(code))
      return;
    std::vector<lsp::Diagnostic> found =
        lint(parsed, *toSeverity(settings.severityOf(code)));
    out.insert(out.end(), std::make_move_iterator(found.begin()),
               std::make_move_iterator(found.end()));
  };
  addSourceLint(LintCode::LiveThrough, lintLiveThroughLoops);
  addSourceLint(LintCode::SCC, lintSCCClobbers);
  addSourceLint(LintCode::Unused, lintUnusedResults);
  addSourceLint(LintCode::RedundantLoad, lintRedundantLoads);
  addSourceLint(LintCode::LoadBehindStore, lintLoadsBehindStores);
  return out;
}

std::vector<lsp::Diagnostic>
waveasm::server::computeDiagnostics(const ParsedDocument &parsed,
                                    const CompiledDocument *compiled,
                                    const ServerSettings &settings) {
  std::vector<lsp::Diagnostic> out = parsed.getDiagnostics();
  compiled = freshOrNull(parsed, compiled);
  if (!compiled)
    return out;
  out.insert(out.end(), compiled->getDiagnostics().begin(),
             compiled->getDiagnostics().end());
  std::vector<lsp::Diagnostic> lints =
      computeLints(parsed, *compiled, settings);
  out.insert(out.end(), std::make_move_iterator(lints.begin()),
             std::make_move_iterator(lints.end()));
  return out;
}
