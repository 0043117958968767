//===- CodeActions.cpp - Conductor code actions and schedules as edits ----===//
//
// The path from the cursor to an edit: findScheduleTarget picks the block
// (innermost loop body, else the program body) and the op of that block
// under the cursor; the strategies (conductor/strategies) measure moves or
// whole schedules on clones; the chosen order becomes one TextEdit that
// moves whole op lines (conductor/TextEdit.h) of the exact text the
// ParsedDocument was parsed from, so an edit always belongs to one version.
//
//===----------------------------------------------------------------------===//

#include "server/DiagnosticCapture.h"
#include "server/Features.h"
#include "server/features/Pipelining.h"

#include "conductor/MoveSource.h"
#include "conductor/Moves.h"
#include "conductor/Session.h"
#include "conductor/Tags.h"
#include "conductor/TextEdit.h"
#include "conductor/strategies/Strategies.h"
#include "ir/LoopNumbering.h"
#include "sim/Compare.h"
#include "sim/Directives.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

#include <mutex>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
namespace json = llvm::json;

namespace {

/// Index of `op` in its block.
unsigned indexInBlock(Operation *op) {
  unsigned index = 0;
  for (Operation &other : *op->getBlock()) {
    if (&other == op)
      return index;
    ++index;
  }
  return index;
}

/// The op entry the position is about: an op whose name starts on the
/// position's line (a cursor on `%x = ...` or in the indentation), else the
/// innermost op whose text contains the position.
unsigned entryAt(const ParsedDocument &parsed, lsp::Position pos) {
  auto [begin, end] = parsed.getOpsOnLines(pos.line, pos.line);
  if (begin < end) {
    // Prefer the innermost op containing the cursor on that line, else the
    // first op of the line.
    unsigned inner = parsed.findOpAt(pos);
    if (inner != OpEntry::kNone && inner >= begin && inner < end)
      return inner;
    return begin;
  }
  return parsed.findOpAt(pos);
}

std::string commandArgument(const ParsedDocument &parsed, lsp::Position pos,
                            llvm::StringRef strategy) {
  json::Value arg =
      json::Object{{"uri", parsed.getURI()},
                   {"position", json::Object{{"line", pos.line},
                                             {"character", pos.character}}},
                   {"strategy", strategy}};
  return llvm::formatv("{0}", arg).str();
}

int64_t blockCycles(const ProgramMetrics &m, std::optional<unsigned> loop) {
  if (loop && *loop < m.loops.size())
    return m.loops[*loop].est_cycles_per_iter;
  return m.est_cycles;
}

} // namespace

std::optional<ScheduleTarget>
waveasm::server::findScheduleTarget(const ParsedDocument &parsed,
                                    lsp::Position pos) {
  if (!parsed.getModule())
    return std::nullopt;
  unsigned entry = entryAt(parsed, pos);
  if (entry == OpEntry::kNone)
    return std::nullopt;
  Operation *at = parsed.getOps()[entry].op;
  // The loop the position is in: `at` itself when it is a loop (its header
  // or its body between ops), else the nearest enclosing one.
  Operation *owner = nullptr;
  for (Operation *op = at; op; op = op->getParentOp()) {
    if (isa<LoopOp>(op)) {
      owner = op;
      break;
    }
    if (isa<ProgramOp>(op)) {
      owner = op;
      break;
    }
  }
  if (!owner)
    return std::nullopt;
  ScheduleTarget target;
  target.owner = owner;
  target.block = conductor::getScheduledBlock(owner);
  if (!target.block)
    return std::nullopt;
  if (at != owner)
    target.op = conductor::getAncestorInBlock(target.block, at);
  if (auto loop = dyn_cast<LoopOp>(owner))
    target.loopIndex = getLoopNumber(loop);
  return target;
}

std::optional<lsp::TextEdit>
waveasm::server::computeReorderEdit(const ParsedDocument &parsed, Block &block,
                                    llvm::ArrayRef<unsigned> newOrder,
                                    std::string *error) {
  FailureOr<std::vector<conductor::OpTextRange>> ranges =
      conductor::computeOpTextRanges(parsed.getText(), block,
                                     parsed.getAsmState(), error);
  if (failed(ranges))
    return std::nullopt;
  FailureOr<conductor::BlockTextEdit> edit = conductor::computeBlockTextEdit(
      parsed.getText(), *ranges, newOrder, error);
  if (failed(edit))
    return std::nullopt;
  size_t begin = edit->begin, end = edit->end;
  if (begin == end && !ranges->empty())
    begin = end = ranges->front().begin;
  const LineTable &lines = parsed.getLines();
  return lsp::TextEdit{{lines.getPosition(begin), lines.getPosition(end)},
                       std::move(edit->text)};
}

lsp::WorkspaceEdit
waveasm::server::makeWorkspaceEdit(const ParsedDocument &parsed,
                                   std::vector<lsp::TextEdit> edits,
                                   bool versioned) {
  lsp::WorkspaceEdit result;
  if (versioned)
    result.documentChanges.push_back(
        {parsed.getURI(), parsed.getVersion(), std::move(edits)});
  else
    result.changes[parsed.getURI()] = std::move(edits);
  return result;
}

namespace {

/// Seeds a code action's move is checked on (as the Conductor's rounds).
constexpr unsigned kMoveExecutionSeeds = 2;

/// The simulator's runs of the programs as written, per document version:
/// every move a request checks (and the next requests on the same version)
/// is compared with them, so the original runs once per version. A few
/// versions are kept (the documents being edited), the oldest dropped.
class OriginalRuns {
public:
  std::shared_ptr<const std::vector<sim::SimResult>>
  get(const ParsedDocument &parsed, ProgramOp program,
      const sim::SimOptions &inputs) {
    unsigned index = 0;
    for (ProgramOp other : parsed.getModule().getOps<ProgramOp>()) {
      if (other == program)
        break;
      ++index;
    }
    std::string key =
        llvm::formatv("{0}\n{1}\n{2}\n{3}", parsed.getURI(),
                      parsed.getVersion(), parsed.getTextHash(), index);
    // Held while the first request simulates: a second one on the same
    // version waits for the runs instead of making them again.
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &[k, runs] : entries)
      if (k == key)
        return runs;
    auto runs = std::make_shared<const std::vector<sim::SimResult>>(
        sim::runOnSeeds(program, kMoveExecutionSeeds, inputs));
    if (entries.size() >= kEntries)
      entries.erase(entries.begin());
    entries.emplace_back(std::move(key), runs);
    return runs;
  }

private:
  static constexpr size_t kEntries = 8;
  std::mutex mutex;
  std::vector<std::pair<std::string,
                        std::shared_ptr<const std::vector<sim::SimResult>>>>
      entries;
};

OriginalRuns &originalRuns() {
  static OriginalRuns runs;
  return runs;
}

/// computeValidatedMoveEdit; with `execution`, the moved program is also
/// run against the document's and `execution` gets the verdict.
std::optional<lsp::TextEdit> validatedMoveEdit(
    const ParsedDocument &parsed, Block &block, const conductor::OpMove &move,
    conductor::MoveCommand *command,
    std::vector<conductor::MoveWarning> *warnings, sim::Comparison *execution) {
  if (!parsed.getModule() || move.op->getBlock() != &block ||
      move.anchor->getBlock() != &block)
    return std::nullopt;
  // Tags are block indexes of the text as written (conductor/Tags.h).
  std::string a = conductor::formatTag(indexInBlock(move.op));
  std::string b = conductor::formatTag(indexInBlock(move.anchor));
  conductor::MoveCommand moveCommand =
      move.after ? conductor::MoveCommand::moveAfter(a, b)
                 : conductor::MoveCommand::moveBefore(a, b);
  // The command passes the Conductor's own validator (pinned ops,
  // dominance, region boundaries) on a tagged clone, exactly as an LLM's
  // or the schedule command's would: what a title names is what `move ...`
  // does. The snapshot itself is never touched.
  IRMapping mapping;
  OwningOpRef<ModuleOp> clone =
      cast<ModuleOp>(parsed.getModule()->clone(mapping));
  conductor::TaggedRegion region = conductor::tagBlock(*mapping.lookup(&block));
  std::vector<conductor::MoveWarning> found;
  if (conductor::applyMove(region, moveCommand, found))
    return std::nullopt;
  std::vector<Operation *> order;
  for (Operation &op : block)
    order.push_back(&op);
  std::vector<Operation *> moved = order;
  if (!conductor::applyMoveToOrder(moved, move))
    return std::nullopt;
  llvm::DenseMap<Operation *, unsigned> indexOf;
  for (auto [i, op] : llvm::enumerate(order))
    indexOf[op] = i;
  std::vector<unsigned> newOrder;
  for (Operation *op : moved)
    newOrder.push_back(indexOf.lookup(op));
  std::optional<lsp::TextEdit> edit =
      computeReorderEdit(parsed, block, newOrder);
  if (edit && execution) {
    // The moved clone against the program as written, whose runs the
    // document keeps: rules (pinned ops, aliasing) can miss what running
    // both shows.
    Operation *owner = block.getParentOp();
    auto program = dyn_cast<ProgramOp>(owner);
    if (!program)
      program = owner->getParentOfType<ProgramOp>();
    // On the inputs the document's `// waveasm-sim:` lines set (a key of
    // the runs through the text's hash).
    sim::SimDirectives read = sim::readSimDirectives(parsed.getText());
    const sim::SimOptions &inputs = read.options;
    std::shared_ptr<const std::vector<sim::SimResult>> runs =
        program && read.ok() ? originalRuns().get(parsed, program, inputs)
                             : nullptr;
    auto moved = program ? dyn_cast_or_null<ProgramOp>(
                               mapping.lookupOrNull(program.getOperation()))
                         : nullptr;
    if (read.error) {
      execution->verdict = sim::Comparison::Verdict::NotChecked;
      execution->message = read.error->str();
    } else if (runs && moved) {
      *execution = sim::compareWithRuns(*runs, moved, inputs);
    } else {
      execution->verdict = sim::Comparison::Verdict::NotChecked;
      execution->message = "the block is not in a program";
    }
  }
  if (edit && command)
    *command = moveCommand;
  if (edit && warnings)
    *warnings = std::move(found);
  return edit;
}

} // namespace

std::optional<lsp::TextEdit> waveasm::server::computeValidatedMoveEdit(
    const ParsedDocument &parsed, Block &block, const conductor::OpMove &move,
    conductor::MoveCommand *command,
    std::vector<conductor::MoveWarning> *warnings) {
  return validatedMoveEdit(parsed, block, move, command, warnings, nullptr);
}

std::vector<SingleMoveEdit> waveasm::server::computeSingleMoveEdits(
    const ParsedDocument &parsed, Block &block, Operation *op,
    const ServerSettings &settings, unsigned maxMoves, unsigned maxCandidates) {
  std::vector<SingleMoveEdit> edits;
  if (!parsed.isVerified() || maxMoves == 0)
    return edits;
  conductor::SuggestOptions suggest;
  suggest.maxResults = maxMoves;
  suggest.maxCandidates = maxCandidates;
  suggest.compile.pipeline =
      CompileOptions::measuringPipeline(settings.optimizePipeline);
  suggest.compile.emitAssembly = false;
  suggest.compile.targetOverrides = settings.targetModelOverrides;
  std::vector<conductor::SingleMove> moves;
  {
    // Candidates the backend refuses (e.g. allocation overflow) are skipped;
    // their diagnostics must not reach the document's.
    DiagnosticCapture quiet(parsed.getContext());
    moves = conductor::rankSingleMoves(block, op, suggest);
  }
  for (const conductor::SingleMove &move : moves) {
    conductor::MoveCommand command;
    std::vector<conductor::MoveWarning> warnings;
    sim::Comparison execution;
    // At most maxMoves moves are run: the cost stays a few runs.
    std::optional<lsp::TextEdit> edit =
        validatedMoveEdit(parsed, block, move.move, &command, &warnings,
                          settings.checkByExecution ? &execution : nullptr);
    if (!edit)
      continue;
    // A move whose program computes something else is wrong, however fast.
    if (settings.checkByExecution &&
        execution.verdict == sim::Comparison::Verdict::Different)
      continue;
    conductor::MoveSuggestion suggestion{
        command, move.cyclesDelta(), move.vgprDelta(), move.before, move.after};
    std::string title = suggestion.title();
    if (settings.checkByExecution &&
        execution.verdict == sim::Comparison::Verdict::NotChecked)
      title += " (not checked by execution)";
    edits.push_back({std::move(title), std::move(*edit), std::move(warnings),
                     move.cyclesDelta(), move.vgprDelta()});
  }
  return edits;
}

std::vector<lsp::CodeAction> waveasm::server::computeSingleMoveActions(
    const ParsedDocument &parsed, lsp::Position pos,
    const ServerSettings &settings, const CodeActionOptions &options) {
  std::vector<lsp::CodeAction> actions;
  if (!parsed.isVerified() || options.maxMoves == 0)
    return actions;
  std::optional<ScheduleTarget> target = findScheduleTarget(parsed, pos);
  if (!target || !target->op)
    return actions;
  for (SingleMoveEdit &move :
       computeSingleMoveEdits(parsed, *target->block, target->op, settings,
                              options.maxMoves, options.maxCandidates)) {
    lsp::CodeAction action;
    action.title = std::move(move.title);
    action.kind = kCodeActionKind.str();
    action.edit = makeWorkspaceEdit(parsed, {std::move(move.edit)},
                                    options.versionedEdits);
    action.isPreferred = actions.empty();
    actions.push_back(std::move(action));
  }
  return actions;
}

std::vector<lsp::CodeAction> waveasm::server::computeCodeActions(
    const ParsedDocument &parsed, lsp::Position pos,
    const ServerSettings &settings, const CodeActionOptions &options) {
  std::vector<lsp::CodeAction> actions;
  if (!parsed.isVerified())
    return actions;
  std::optional<ScheduleTarget> target = findScheduleTarget(parsed, pos);
  if (!target)
    return actions;
  actions = computeSingleMoveActions(parsed, pos, settings, options);
  bool loop = isa<LoopOp>(target->owner);
  auto schedule = [&](llvm::StringRef title, llvm::StringRef strategy) {
    lsp::CodeAction action;
    action.title = title.str();
    action.kind = kCodeActionKind.str();
    action.command = lsp::Command{title.str(),
                                  kScheduleLoopCommand.str(),
                                  {commandArgument(parsed, pos, strategy)}};
    actions.push_back(std::move(action));
  };
  schedule(loop ? "Schedule this loop (built-in)"
                : "Schedule this program body (built-in)",
           "builtin");
  if (options.offerLLM)
    schedule(loop ? "Ask LLM to schedule this loop"
                  : "Ask LLM to schedule this program body",
             "llm");
  return actions;
}

conductor::SessionOptions
waveasm::server::makeSessionOptions(const ServerSettings &settings,
                                    llvm::StringRef documentText) {
  conductor::SessionOptions options;
  options.optimizePipeline = settings.optimizePipeline;
  options.checkByExecution = settings.checkByExecution;
  // The document's `// waveasm-sim:` lines: the inputs its author says
  // are meaningful, for the check of every kept round.
  conductor::setExecutionInputs(options, documentText);
  if (settings.targetOverride)
    options.targetOverride = getTargetInfo(*settings.targetOverride).name;
  options.targetModelOverrides = settings.targetModelOverrides;
  // The editor's question is "make this faster": waves first (occupancy is
  // the only key where more is better), then cycles, then the design's
  // default keys.
  options.metricKeyOrder = {"occupancy",     "est_cycles",
                            "peak_vgpr",     "waitcnts_inserted",
                            "nops_inserted", "total_instructions"};
  options.maxRounds = settings.llmRounds;
  return options;
}

std::string waveasm::server::formatMetricDiff(const ProgramMetrics &before,
                                              const ProgramMetrics &after,
                                              std::optional<unsigned> loop) {
  std::string text = llvm::formatv(
      "{0} {1} -> {2}, peak VGPR {3} -> {4}",
      loop ? "est_cycles/iter" : "est_cycles", blockCycles(before, loop),
      blockCycles(after, loop), before.peak_vgpr, after.peak_vgpr);
  if (before.occupancy != after.occupancy)
    text += llvm::formatv(", occupancy {0} -> {1}", before.occupancy,
                          after.occupancy);
  return text;
}

json::Value waveasm::server::scheduleMetricsJSON(const ProgramMetrics &metrics,
                                                 std::optional<unsigned> loop) {
  json::Value all = toJSON(metrics);
  json::Object out = std::move(*all.getAsObject());
  out.erase("loops");
  if (loop && *loop < metrics.loops.size())
    out["est_cycles_per_iter"] = metrics.loops[*loop].est_cycles_per_iter;
  return out;
}

ScheduleOutcome
waveasm::server::makeScheduleOutcome(const ParsedDocument &parsed,
                                     const ScheduleTarget &target,
                                     const conductor::Session &session) {
  ScheduleOutcome outcome;
  outcome.loopIndex = target.loopIndex;
  outcome.before = session.baselineMetrics();
  outcome.after = bestMetricsPerInputIteration(session, target.loopIndex);
  outcome.moves = session.bestMoves();
  outcome.summary =
      formatMetricDiff(outcome.before, outcome.after, outcome.loopIndex);
  if (!session.bestCompiles()) {
    outcome.error =
        "no schedule that compiles was found: " + session.baselineError();
    return outcome;
  }
  if (session.bestIsPipelined()) {
    // Prologue, steady state and epilogue: no reordering of the text, the
    // program replaced by the pipelined one (measured and checked).
    std::optional<unsigned> entry = parsed.lookupOp(target.owner);
    std::optional<lsp::TextEdit> edit;
    if (entry)
      edit = computePipelinedProgramEdit(
          parsed, parsed.getOps()[*entry].program, session.resultModule());
    if (!edit) {
      outcome.error = "cannot edit the text: the pipelined program does not "
                      "verify";
      return outcome;
    }
    outcome.changed = true;
    outcome.edit = std::move(*edit);
    return outcome;
  }
  // Tag i is the op at index i of the block as written (the session tagged
  // its clone of the unchanged input).
  std::vector<unsigned> order = session.currentOrder();
  bool identity = true;
  for (auto [i, index] : llvm::enumerate(order))
    identity &= index == i;
  if (identity)
    return outcome;
  std::string error;
  std::optional<lsp::TextEdit> edit =
      computeReorderEdit(parsed, *target.block, order, &error);
  if (!edit) {
    outcome.error = "cannot edit the text: " + error;
    return outcome;
  }
  outcome.changed = true;
  outcome.edit = std::move(*edit);
  return outcome;
}

ScheduleOutcome
waveasm::server::scheduleBuiltin(const ParsedDocument &parsed,
                                 const ScheduleTarget &target,
                                 const ServerSettings &settings) {
  std::string error;
  FailureOr<std::unique_ptr<conductor::Session>> session = failure();
  DiagnosticCapture quiet(parsed.getContext());
  conductor::SessionOptions options =
      makeSessionOptions(settings, parsed.getText());
  options.maxRounds = 8; // one round per built-in strategy
  session = conductor::Session::create(parsed.getModule(), target.owner,
                                       std::move(options), &error);
  if (failed(session)) {
    ScheduleOutcome outcome;
    outcome.error = error;
    return outcome;
  }
  // Reordering only: pipelining has its own action ("Pipeline this loop"),
  // whose title states what it costs (VGPRs, LDS), because it may trade
  // occupancy for cycles, which a reorder never does.
  std::vector<conductor::Strategy> strategies = conductor::builtinStrategies();
  if (strategies.empty())
    strategies = {
        {"latency",
         [](const conductor::Session &s) {
           return conductor::scheduleListLatency(s.region(), s.targetModel());
         }},
        {"pressure", [](const conductor::Session &s) {
           return conductor::schedulePressure(s.region(), s.targetModel());
         }}};
  // One round per strategy, each starting from the best so far; a round
  // that does not measure better is reverted by the session.
  for (const conductor::Strategy &strategy : strategies) {
    std::vector<conductor::MoveCommand> commands = strategy.propose(**session);
    if (!commands.empty())
      (*session)->applyCommands(commands);
  }
  return makeScheduleOutcome(parsed, target, **session);
}
