//===- Session.cpp - one agent's iterative scheduling loop ----------------===//

#include "conductor/Session.h"
#include "conductor/Padding.h"
#include "conductor/Stages.h"
#include "ir/ThisThreadDiagnostics.h"

#include "analysis/LoopStages.h"
#include "ir/LoopNumbering.h"
#include "pipeline/PipelinedCycles.h"
#include "sim/Compare.h"
#include "sim/CompareBuffers.h"
#include "sim/Directives.h"

#include "ir/TargetKindAttr.h"
#include "pipeline/CompileAndMeasure.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

static constexpr llvm::StringLiteral kDefaultGoal =
    "Minimize register pressure and hide memory latency.";

//===----------------------------------------------------------------------===//
// RoundReport
//===----------------------------------------------------------------------===//

static std::string joinApplied(llvm::ArrayRef<std::string> applied) {
  return applied.empty() ? "(none)" : llvm::join(applied, ", ");
}

std::string RoundReport::text() const {
  std::string out;
  if (failed) {
    out = "Applied successfully: " + joinApplied(applied) +
          "\nFailed: " + *failed + " \u2014 " + failureReason +
          "\nAll moves reverted.";
  } else if (reverted) {
    out = "Applied successfully: " + joinApplied(applied) +
          "\nReverted: " + failureReason + "\nAll moves reverted.";
  } else if (applied.empty() && !done) {
    out = "No move commands found.";
  }
  if (!ignoredLines.empty()) {
    if (!out.empty())
      out += "\n";
    out += "Ignored lines (not a command):";
    for (const std::string &line : llvm::ArrayRef(ignoredLines).take_front(5))
      out += "\n  " + line;
    if (ignoredLines.size() > 5)
      out += "\n  ... (" + std::to_string(ignoredLines.size() - 5) + " more)";
  }
  if (!commandErrors.empty()) {
    out += "\nMalformed commands (not applied):";
    for (const std::string &error : llvm::ArrayRef(commandErrors).take_front(5))
      out += "\n  " + error;
  }
  return out;
}

std::string RoundReport::summary() const {
  std::string out = "round " + std::to_string(round) + ": " +
                    std::to_string(applied.size()) + " move" +
                    (applied.size() == 1 ? "" : "s");
  if (failed)
    out += ", failed at '" + *failed + "': " + failureReason + ", reverted";
  else if (reverted)
    out += ", reverted (" + failureReason + ")";
  else if (improved)
    out += ", kept";
  if (!warnings.empty())
    out += ", " + std::to_string(warnings.size()) + " warning" +
           (warnings.size() == 1 ? "" : "s");
  if (!ignoredLines.empty())
    out += ", " + std::to_string(ignoredLines.size()) + " ignored line" +
           (ignoredLines.size() == 1 ? "" : "s");
  if (done)
    out += ", done";
  return out;
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

Session::~Session() = default;

FailureOr<std::unique_ptr<Session>>
Session::create(ModuleOp input, Operation *regionOwnerOrNull,
                SessionOptions options, std::string *error) {
  auto fail = [&](const llvm::Twine &message) {
    if (error)
      *error = message.str();
    return failure();
  };
  std::unique_ptr<Session> session(new Session());
  Session &s = *session;
  if (options.maxRounds < 0)
    return fail("the round budget must not be negative");
  for (const std::string &name : options.metricKeyOrder) {
    std::optional<MetricKey> key = parseMetricKey(name);
    if (!key)
      return fail("unknown metric key '" + name + "'");
    s.keys.push_back(*key);
  }
  if (s.keys.empty())
    s.keys.assign(getDefaultMetricOrder().begin(),
                  getDefaultMetricOrder().end());

  IRMapping mapping;
  s.module = cast<ModuleOp>(input->clone(mapping));
  Block *block = nullptr;
  if (regionOwnerOrNull) {
    Operation *owner = mapping.lookupOrNull(regionOwnerOrNull);
    if (!owner)
      return fail("the region owner is not an op of the input module");
    block = getScheduledBlock(owner);
    if (!block)
      return fail("cannot schedule the region of '" +
                  owner->getName().getStringRef() +
                  "': choose a waveasm.loop or a waveasm.program");
  } else {
    auto programs = s.module->getOps<ProgramOp>();
    if (programs.empty())
      return fail("the module has no waveasm.program");
    block = findDefaultBlock(*programs.begin());
  }
  ProgramOp program = isa<ProgramOp>(block->getParentOp())
                          ? cast<ProgramOp>(block->getParentOp())
                          : block->getParentOp()->getParentOfType<ProgramOp>();
  if (!options.targetOverride.empty()) {
    std::optional<TargetKind> kind = parseTargetKind(options.targetOverride);
    if (!kind)
      return fail("unknown target '" + options.targetOverride +
                  "' (known: " + listTargetKinds() + ")");
    MLIRContext *ctx = program.getContext();
    for (ProgramOp each : s.module->getOps<ProgramOp>())
      each.setTargetAttr(TargetAttr::get(
          ctx, cast<TargetAttrInterface>(getTargetKindAttr(ctx, *kind)),
          each.getTarget().getCodeObjectVersion()));
  }
  llvm::Expected<TargetModel> target = TargetModel::getWithOverrides(
      program.getTargetKind(), options.targetModelOverrides);
  if (!target)
    return fail(llvm::toString(target.takeError()));
  s.target = *target;
  if (options.goal.empty())
    options.goal = kDefaultGoal.str();
  s.options = std::move(options);

  // Tag index -> input op, through the clone mapping.
  llvm::DenseMap<Operation *, Operation *> inputOf;
  for (auto [from, to] : mapping.getOperationMap())
    inputOf[to] = from;
  s.tagged = tagBlock(*block);
  for (Operation *op : s.tagged.ops)
    s.inputOps.push_back(inputOf.lookup(op));

  if (s.options.checkByExecution && !s.options.executionInputsError.empty())
    s.uncheckable = s.options.executionInputsError;
  else if (s.options.checkByExecution)
    s.referenceRuns =
        std::make_shared<const std::vector<sim::SimResult>>(sim::runOnSeeds(
            s.program(), s.options.executionSeeds, s.options.executionInputs));

  s.perIterationLoop =
      perIterationComparisonLoop(dyn_cast<LoopOp>(block->getParentOp()));

  s.header = formatTargetHeader(program, s.target);
  s.printRegionOnce();
  s.initialText = s.header + s.regionText();

  // An input whose loop is already staged (hand annotations) is measured
  // pipelined; when it cannot be, as written (compiling ignores stages).
  std::string compileError, expandError;
  OwningOpRef<ModuleOp> expansion;
  if (s.expand(expansion, expandError))
    s.bestExpanded = std::move(expansion);
  if (!s.measure(s.resultModule(), s.baseline, compileError)) {
    s.baselineFailure = compileError;
    s.bestCompiled = false;
  } else {
    addCoAccessMetrics(s.programIn(s.resultModule()), s.baseline);
  }
  s.best = s.baseline;
  s.bestCompared = s.comparable(s.best, s.resultModule());
  return session;
}

void waveasm::conductor::setExecutionInputs(SessionOptions &options,
                                            llvm::StringRef text) {
  sim::SimDirectives read = sim::readSimDirectives(text);
  if (read.error) {
    options.executionInputsError = read.error->str();
    return;
  }
  options.executionInputs = std::move(read.options);
  options.executionInputsError.clear();
}

ProgramOp Session::program() const {
  Operation *owner = tagged.block->getParentOp();
  if (auto program = dyn_cast<ProgramOp>(owner))
    return program;
  return owner->getParentOfType<ProgramOp>();
}

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

ProgramOp Session::programIn(ModuleOp copy) const {
  auto programs = llvm::to_vector(copy.getOps<ProgramOp>());
  unsigned index = 0;
  for (ProgramOp each : module.get().getOps<ProgramOp>()) {
    if (each == program())
      break;
    ++index;
  }
  return index < programs.size() ? programs[index] : ProgramOp();
}

bool Session::expand(OwningOpRef<ModuleOp> &expansion,
                     std::string &error) const {
  expansion = nullptr;
  if (!needsExpansion(tagged))
    return true;
  expansion = expandSchedule(module.get(), tagged, error);
  return bool(expansion);
}

bool Session::measure(ModuleOp compiled, ProgramMetrics &out,
                      std::string &error) const {
  CompileOptions compile;
  compile.pipeline =
      CompileOptions::measuringPipeline(options.optimizePipeline);
  compile.emitAssembly = false;
  // A round is judged by its cycles and registers; the co-access figures
  // (a fifth of a compile of a 300-op loop) are added to the baseline and
  // to kept rounds only, the schedules a user sees.
  compile.judgeByCyclesOnly();
  compile.targetOverrides = options.targetModelOverrides;
  MLIRContext *ctx = module.get().getContext();
  if (!compiler)
    compiler = std::make_unique<Compiler>(ctx, compile);
  FailureOr<CompileResult> result = failure();
  {
    // Capture this thread's diagnostics only: the context may be shared
    // with a server whose other threads report their own.
    ThisThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && error.empty())
        error = diag.str();
    });
    result = compiler->compile(compiled);
  }
  if (failed(result)) {
    if (error.empty())
      error = "the backend pipeline failed";
    return false;
  }
  // The scheduled program's position (the same in an expanded clone).
  unsigned index = 0;
  for (ProgramOp each : module.get().getOps<ProgramOp>()) {
    if (each == program())
      break;
    ++index;
  }
  if (index >= result->programs.size()) {
    error = "the scheduled program was not measured";
    return false;
  }
  out = result->programs[index].metrics;
  return true;
}

bool Session::isBetter(const ProgramMetrics &a, const ProgramMetrics &b) const {
  return waveasm::isBetter(a, b, keys);
}

bool Session::bestIsBetterThan(const Session &other) const {
  return waveasm::isBetter(bestCompared, other.bestCompared, keys);
}

std::optional<unsigned> Session::scheduledLoopIndex() const {
  auto loop = dyn_cast<LoopOp>(tagged.block->getParentOp());
  return loop ? getLoopNumber(loop) : std::nullopt;
}

ProgramMetrics Session::comparable(const ProgramMetrics &metrics,
                                   ModuleOp measured) const {
  ProgramMetrics compared = metrics;
  compared.est_cycles =
      comparedCycles(metrics, programIn(measured), perIterationLoop);
  return compared;
}

std::optional<double> Session::bestCyclesPerInputIteration() const {
  std::optional<unsigned> index = scheduledLoopIndex();
  if (!bestCompiled || !index)
    return std::nullopt;
  return cyclesPerInputIteration(best, programIn(resultModule()), *index);
}

/// "peak_vgpr 96 -> 100" at the first key where `now` and `before` differ
/// (both as rounds compare them: with `perIteration`, est_cycles are
/// comparedCycles, the loop's cycles per iteration as written first).
static std::string describeDifference(const ProgramMetrics &now,
                                      const ProgramMetrics &before,
                                      llvm::ArrayRef<MetricKey> keys,
                                      bool perIteration) {
  for (MetricKey key : keys) {
    int64_t a = getMetric(before, key), b = getMetric(now, key);
    if (a == b)
      continue;
    if (key == MetricKey::EstCycles)
      return describeComparedCycles(a, b, perIteration);
    return (stringifyMetricKey(key) + " " + llvm::Twine(a) + " -> " +
            llvm::Twine(b))
        .str();
  }
  return "";
}

std::string Session::metricsText() const {
  if (!bestCompiled)
    return "compile failed: " + baselineFailure + "\n";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "peak_vgpr: " << best.peak_vgpr << "\n"
     << "peak_sgpr: " << best.peak_sgpr << "\n"
     << "peak_agpr: " << best.peak_agpr << "\n"
     << "nops_inserted: " << best.nops_inserted << "\n"
     << "waitcnts_inserted: " << best.waitcnts_inserted << "\n"
     << "total_instructions: " << best.total_instructions << "\n"
     << "est_cycles: " << best.est_cycles << "\n"
     << "occupancy: " << best.occupancy << "\n";
  // The scheduled loop's steady state (loops are numbered in pre-order).
  if (std::optional<unsigned> found = scheduledLoopIndex()) {
    if (*found < best.loops.size()) {
      const LoopMetrics &m = best.loops[*found];
      os << "est_cycles_per_iter: " << m.est_cycles_per_iter << "\n";
      // A pipelined kernel's iteration runs several as written.
      std::optional<double> perInput = bestCyclesPerInputIteration();
      if (perInput && *perInput != double(m.est_cycles_per_iter))
        os << "est_cycles_per_iteration_as_written: "
           << llvm::formatv("{0:f1}", *perInput) << "\n";
      os << "lower_bound_cycles: " << m.lower_bound_cycles << " ("
         << m.bound_kind << ")\n"
         << "critical_path: " << m.critical_path << "\n";
    }
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Rounds
//===----------------------------------------------------------------------===//

std::string Session::prompt() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "=== WaveASM Scheduling Round " << round + 1 << " ===\n"
     << header << "\n--- IR (" << describeRegion(tagged) << ") ---\n"
     << regionText() << "\n--- Metrics ("
     << (acceptedMoves.empty() ? "baseline" : "best schedule so far")
     << ") ---\n"
     << metricsText() << "\n--- Warnings from previous round ---\n";
  const RoundReport *last = reports.empty() ? nullptr : &reports.back();
  if (!last || last->warnings.empty())
    os << "(none)\n";
  else
    for (const std::string &warning : last->warnings)
      os << warning << "\n";
  os << "\n--- Error from previous round ---\n";
  std::string error = last ? last->text() : "";
  os << (error.empty() ? "(none)" : error) << "\n";
  if (!profiling.empty())
    os << "\n" << profiling;
  os << "\nGOAL: " << options.goal
     << "\nRespond with move commands, one per line.\n";
  if (getRegionLoop(tagged))
    os << "A loop body may also be software-pipelined: 'stage Ix N' puts "
          "op Ix in stage N (0.."
       << kMaxStageNumber
       << "; stage N of iteration j runs with stage 0 of iteration j+N, so "
          "loads in stage 0 and their users in stage 1 overlap iterations); "
          "all stages 0 means not pipelined.\n";
  if (program().getLdsSize().value_or(0) > 0)
    os << "The LDS layout may be padded against bank conflicts: 'pad lds S "
          "P' lays the program's LDS out in rows of S bytes (a power of two) "
          "each followed by P unused bytes (a multiple of 4 and of the "
          "widest LDS access); every LDS access is rewritten alike, refused "
          "when one cannot be.\n";
  return text;
}

bool Session::finished() const {
  return doneReceived || round >= options.maxRounds;
}

RoundReport Session::applyReply(llvm::StringRef reply) {
  ParsedReply parsed = parseReply(reply);
  std::vector<std::string> errors;
  for (const CommandDiagnostic &diagnostic : parsed.diagnostics)
    errors.push_back(diagnostic.str());
  return runRound(parsed.commands, parsed.done, std::move(parsed.ignoredLines),
                  std::move(errors));
}

RoundReport Session::applyCommands(llvm::ArrayRef<MoveCommand> commands) {
  return runRound(commands, false, {});
}

RoundReport Session::runRound(llvm::ArrayRef<MoveCommand> commands, bool done,
                              std::vector<std::string> ignored,
                              std::vector<std::string> commandErrors) {
  RoundReport report;
  if (finished()) {
    report.round = round;
    report.done = doneReceived;
    report.failureReason = "the session is finished";
    return report;
  }
  report.round = ++round;
  report.ignoredLines = std::move(ignored);
  report.commandErrors = std::move(commandErrors);
  Block &block = *tagged.block;
  std::vector<Operation *> snapshot = snapshotOrder(block);
  StageSnapshot stageSnapshot = snapshotStages(tagged);
  Attribute padding = program()->getAttr(kLdsPaddingAttrName);
  auto revert = [&] {
    restoreOrder(block, snapshot);
    restoreStages(tagged, stageSnapshot);
    if (padding)
      program()->setAttr(kLdsPaddingAttrName, padding);
    else
      program()->removeAttr(kLdsPaddingAttrName);
  };
  std::vector<MoveWarning> warnings;
  const MoveCommand *lastStage = nullptr, *lastPad = nullptr;
  for (const MoveCommand &command : commands) {
    if (command.kind == MoveCommand::Done) {
      done = true;
      break;
    }
    if (command.kind == MoveCommand::Stage ||
        command.kind == MoveCommand::PadLds) {
      std::optional<std::string> why = command.kind == MoveCommand::Stage
                                           ? applyStageCommand(tagged, command)
                                           : applyPadCommand(tagged, command);
      if (why) {
        revert();
        report.failed = command.text();
        report.failureReason = *why;
        report.reverted = true;
        break;
      }
      if (command.kind == MoveCommand::Stage)
        lastStage = &command;
      else
        lastPad = &command;
      report.applied.push_back(command.text());
      continue;
    }
    std::optional<MoveFailure> failure = applyMove(tagged, command, warnings);
    if (failure) {
      // Revert first: value names are those of the prompt's IR.
      revert();
      report.failed = command.text();
      report.failureReason = failure->describe(
          failure->kind == MoveFailure::Dominance ? valueName(failure->value)
                                                  : "");
      report.reverted = true;
      break;
    }
    report.applied.push_back(command.text());
  }

  if (!report.failed) {
    for (const MoveWarning &warning : warnings)
      report.warnings.push_back(warning.text());
  }
  if (!report.failed && !report.applied.empty()) {
    std::vector<MoveCommand> anchoring;
    anchorPseudoOps(block, &anchoring);
    // The stages are checked as a whole once the round's order is final (a
    // stage rule may hold only after several commands, and moves decide
    // which op an s_waitcnt's stage follows).
    std::string stageError = finishStages(tagged);
    const MoveCommand *blamed = lastStage;
    OwningOpRef<ModuleOp> expansion;
    std::string expandError;
    if (stageError.empty() && !expand(expansion, expandError)) {
      // The padding is applied first: its refusal is the pad command's.
      bool padRefused =
          lastPad && !expandError.empty() &&
          llvm::StringRef(expandError).starts_with("the LDS cannot be padded");
      if (padRefused)
        blamed = lastPad;
      stageError = padRefused ? expandError
                              : "the loop cannot be pipelined: " + expandError;
    }
    ProgramMetrics metrics;
    std::string error;
    if (!stageError.empty()) {
      revert();
      report.failed = blamed ? blamed->text() : report.applied.back();
      report.failureReason = stageError;
      report.reverted = true;
    } else if (!measure(expansion ? expansion.get() : module.get(), metrics,
                        error)) {
      revert();
      report.reverted = true;
      report.failureReason = "the schedule does not compile: " + error;
    } else {
      ProgramMetrics compared =
          comparable(metrics, expansion ? expansion.get() : module.get());
      bool better =
          !bestCompiled || waveasm::isBetter(compared, bestCompared, keys);
      std::string mismatch;
      if (better && options.checkByExecution)
        mismatch = executionMismatch(
            expansion ? programIn(expansion.get()) : program(), report);
      if (better && mismatch.empty())
        addCoAccessMetrics(expansion ? programIn(expansion.get()) : program(),
                           metrics);
      report.metrics = metrics;
      if (better && mismatch.empty()) {
        report.metricsChange = bestCompiled
                                   ? describeDifference(compared, bestCompared,
                                                        keys, perIteration())
                                   : "the schedule compiles now";
        best = metrics;
        bestCompared = compared;
        bestExpanded = std::move(expansion);
        bestCompiled = true;
        report.improved = true;
        acceptedMoves.insert(acceptedMoves.end(), report.applied.begin(),
                             report.applied.end());
        for (const MoveCommand &command : anchoring)
          acceptedMoves.push_back(command.text());
      } else {
        revert();
        report.reverted = true;
        std::string diff =
            describeDifference(compared, bestCompared, keys, perIteration());
        report.failureReason = !mismatch.empty() ? mismatch
                               : diff.empty()
                                   ? "no improvement (metrics unchanged)"
                                   : "round regressed metrics (" + diff + ")";
      }
    }
  }
  if (done) {
    doneReceived = true;
    report.done = true;
  }
  reports.push_back(report);
  return report;
}

std::string Session::executionMismatch(ProgramOp candidate,
                                       RoundReport &report) {
  if (!referenceRuns && !uncheckable.empty() && !uncheckableWarned) {
    // The inputs could not be set up (a bad directive): said once.
    uncheckableWarned = true;
    report.warnings.push_back("not checked by execution: " + uncheckable);
  }
  if (!referenceRuns || !uncheckable.empty())
    return "";
  // A pipelined loop (the candidate is the expansion of the staged loop,
  // not the working program) may run its LDS in ping/pong copies and leave
  // its last tile in another one, also within the declared lds_size: the
  // LDS layout is what changed, and the LDS does not outlive the
  // workgroup, so the buffers decide (what was read from LDS reaches them).
  bool pipelined = candidate != program();
  sim::Comparison c =
      pipelined ? sim::compareBuffersWithRuns(*referenceRuns, candidate,
                                              options.executionInputs)
                : sim::compareWithRuns(*referenceRuns, candidate,
                                       options.executionInputs);
  if (c.verdict == sim::Comparison::Verdict::Different)
    return "the schedule computes different results than the input "
           "(simulator, " +
           c.message + ")";
  if (c.verdict == sim::Comparison::Verdict::NotChecked) {
    uncheckable = c.message;
    report.warnings.push_back("not checked by execution: " + c.message);
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Orders and forks
//===----------------------------------------------------------------------===//

std::vector<unsigned> Session::currentOrder() const {
  std::vector<unsigned> order;
  order.reserve(tagged.ops.size());
  for (Operation &op : *tagged.block)
    order.push_back(tagIndex.lookup(&op));
  return order;
}

//===----------------------------------------------------------------------===//
// The prompt's IR
//===----------------------------------------------------------------------===//

void Session::printRegionOnce() {
  Operation *owner = tagged.block->getParentOp();
  OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  AsmState state(program(), flags);
  // The owner's first and last line frame the body.
  std::string whole;
  {
    llvm::raw_string_ostream os(whole);
    owner->print(os, state);
  }
  whole = keepOnlyTagLocations(whole);
  llvm::StringRef text(whole);
  regionHeader = text.split('\n').first.str();
  regionFooter = text.rsplit('\n').second.str();
  tagIndex.clear();
  opText.assign(tagged.ops.size(), "");
  resultNames.assign(tagged.ops.size(), {});
  for (auto [i, op] : llvm::enumerate(tagged.ops)) {
    tagIndex[op] = i;
    std::string printed;
    llvm::raw_string_ostream os(printed);
    op->print(os, state);
    // Indented one level, as inside the owner.
    std::string kept = keepOnlyTagLocations(printed);
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(kept).split(lines, '\n');
    for (auto [n, line] : llvm::enumerate(lines))
      opText[i] += (n ? "\n  " : "  ") + line.str();
    for (Value result : op->getResults()) {
      std::string name;
      llvm::raw_string_ostream names(name);
      result.printAsOperand(names, state);
      resultNames[i].push_back(name);
    }
  }
}

std::string Session::regionText() const {
  std::string text = regionHeader + "\n";
  for (Operation &op : *tagged.block) {
    text += opText[tagIndex.lookup(&op)];
    // Stages change after printing (stage commands): shown as a comment.
    if (auto stage = op.getAttrOfType<IntegerAttr>(kStageAttrName))
      text += "  // stage " + std::to_string(stage.getInt());
    text += "\n";
  }
  return text + regionFooter + "\n";
}

std::string Session::valueName(Value value) const {
  if (auto result = dyn_cast<OpResult>(value)) {
    auto it = tagIndex.find(result.getOwner());
    if (it != tagIndex.end())
      return resultNames[it->second][result.getResultNumber()];
  }
  return printValueName(value);
}

Operation *Session::inputOp(unsigned tagIndex) const {
  return tagIndex < inputOps.size() ? inputOps[tagIndex] : nullptr;
}

std::unique_ptr<Session> Session::fork() const {
  std::unique_ptr<Session> copy(new Session());
  IRMapping mapping;
  copy->module = cast<ModuleOp>(module.get().getOperation()->clone(mapping));
  if (bestExpanded)
    copy->bestExpanded =
        cast<ModuleOp>(bestExpanded.get().getOperation()->clone());
  copy->tagged.block = mapping.lookup(tagged.block);
  for (Operation *op : tagged.ops)
    copy->tagged.ops.push_back(mapping.lookup(op));
  copy->options = options;
  copy->referenceRuns = referenceRuns;
  copy->uncheckable = uncheckable;
  copy->uncheckableWarned = uncheckableWarned;
  copy->inputOps = inputOps;
  copy->target = target;
  copy->keys = keys;
  copy->baseline = baseline;
  copy->best = best;
  copy->bestCompared = bestCompared;
  copy->perIterationLoop = perIterationLoop;
  copy->baselineFailure = baselineFailure;
  copy->bestCompiled = bestCompiled;
  copy->acceptedMoves = acceptedMoves;
  copy->reports = reports;
  copy->round = round;
  copy->doneReceived = doneReceived;
  copy->profiling = profiling;
  copy->initialText = initialText;
  copy->header = header;
  copy->regionHeader = regionHeader;
  copy->regionFooter = regionFooter;
  copy->opText = opText;
  copy->resultNames = resultNames;
  for (auto [i, op] : llvm::enumerate(copy->tagged.ops))
    copy->tagIndex[op] = i;
  return copy;
}
