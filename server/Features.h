//===- Features.h - the language features, as pure functions ----*- C++ -*-===//
//
// Each LSP request the server answers is one function of the document
// snapshots (DocumentState.h) and the settings; none keeps state or walks
// the whole module per request (they binary-search the snapshot indexes).
// A `const CompiledDocument *` may be null or stale: a feature uses it only
// when `compiled->isFor(parsed)`, otherwise it shows what the parsed text
// alone gives (see DocumentState.h). Implementations: features/*.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_H
#define WAVEASM_SERVER_FEATURES_H

#include "server/DocumentState.h"

#include "conductor/Moves.h"
#include "conductor/Profile.h"
#include "conductor/strategies/DependenceGraph.h"
#include "conductor/strategies/MoveSynthesis.h"

#include "analysis/Metrics.h"
#include "pipeline/OptimizationTrace.h"
#include "pipeline/PipelineSnapshots.h"

#include "llvm/Support/JSON.h"

namespace waveasm::conductor {
class Session;
struct SessionOptions;
} // namespace waveasm::conductor

namespace waveasm::server {

/// The compiled snapshot if it describes `parsed`, else null.
inline const CompiledDocument *freshOrNull(const ParsedDocument &parsed,
                                           const CompiledDocument *compiled) {
  return compiled && compiled->isFor(parsed) ? compiled : nullptr;
}

//===--- diagnostics (features/Lints.cpp) ---------------------------------===//

/// The lints of a compiled document: `stall`, `pressure`, `hazard`,
/// `waitcnt`, with the settings' severities (Off drops a code). Empty when
/// `compiled` is not for `parsed` or did not compile.
std::vector<lsp::Diagnostic> computeLints(const ParsedDocument &parsed,
                                          const CompiledDocument &compiled,
                                          const ServerSettings &settings);
/// Everything to publish for `parsed`: parse/verify errors, then (if
/// `compiled` is fresh) pipeline errors and lints.
std::vector<lsp::Diagnostic>
computeDiagnostics(const ParsedDocument &parsed,
                   const CompiledDocument *compiled,
                   const ServerSettings &settings);

//===--- inlay hints (features/InlayHints.cpp) ----------------------------===//

/// Hints for the ops whose name lies on the lines of `range`, placed right
/// after the op (before a trailing comment), one per kind, each with a
/// markdown tooltip and switchable in `settings`:
///  - `lat 20 · stall 12`: result latency and the cycles the op waits
///    before issuing, including the waits the pipeline inserted before it
///    (steady-state iteration for ops in loops);
///  - `v 84 · s 22 · a 128`: registers live after the op (`a` only in
///    programs that use AGPRs);
///  - `I17`: the Conductor tag;
///  - `⏱ 102 cyc (88–145) ×1024`: the rows of `profile` (if any) for the
///    op (correlateDocumentProfile).
/// The first two need a fresh, successful `compiled`; ops with regions and
/// ops that issue nothing get no numbers.
struct DocumentProfile; // below
std::vector<lsp::InlayHint>
computeInlayHints(const ParsedDocument &parsed,
                  const CompiledDocument *compiled, lsp::Range range,
                  const ServerSettings &settings,
                  const DocumentProfile *profile = nullptr);

//===--- profiles (features/ProfileHints.cpp) -----------------------------===//

/// A profile CSV read for a document (server/runtime/ProfileFiles.h loads
/// it; conductor/Profile.h parses it).
struct DocumentProfile {
  std::string path; // for tooltips: "<path>:<csv line>"
  std::vector<conductor::ProfileRow> rows;
};

/// A profile row attached to an op of the document.
struct OpProfile {
  unsigned opEntry = 0; // into ParsedDocument::getOps()
  const conductor::ProfileRow *row = nullptr;
  /// Line keys: the assembly line's text; `inserted` when the line is a
  /// wait or nop the pipeline put before the op.
  std::string asmLine;
  bool inserted = false;
};

/// Rows to ops, sorted by op entry (CSV order within one op). Tag keys
/// ("I5") name ops of the Conductor's default block (conductor/Tags.h
/// findDefaultBlock of the first program); line keys (1-based) are lines of
/// the first program's assembly, mapped through `compiled`'s line map (a
/// fresh one only; else line keys match nothing). Keys matching nothing go
/// to `unmatched`.
std::vector<OpProfile>
correlateDocumentProfile(const ParsedDocument &parsed,
                         const CompiledDocument *compiled,
                         llvm::ArrayRef<conductor::ProfileRow> rows,
                         std::vector<std::string> *unmatched = nullptr);

/// The rows that mean the same for a Conductor Session on `block` as for
/// the document: tag keys only when `block` is the default block, line keys
/// only when it is in the first program.
std::vector<conductor::ProfileRow>
selectProfileRowsForBlock(const ParsedDocument &parsed, mlir::Block *block,
                          llvm::ArrayRef<conductor::ProfileRow> rows);

/// `⏱ 102 cyc (88–145) ×1024` after the op, with the row in the tooltip.
lsp::InlayHint makeProfileHint(const OpProfile &row, llvm::StringRef source,
                               lsp::Position at);

//===--- hover (features/Hover.cpp) ---------------------------------------===//

/// On an op name: unit, latency class and cycles, operand/result register
/// classes, the allocator's physical registers, defs and uses. On an SSA
/// name: type, defining op, uses, live range.
/// With a `profile`, an op's hover also shows its rows.
std::optional<lsp::Hover>
computeHover(const ParsedDocument &parsed, const CompiledDocument *compiled,
             lsp::Position pos, const DocumentProfile *profile = nullptr);

//===--- navigation (features/Navigation.cpp) -----------------------------===//

std::vector<lsp::Location> findDefinition(const ParsedDocument &parsed,
                                          lsp::Position pos);
std::vector<lsp::Location> findReferences(const ParsedDocument &parsed,
                                          lsp::Position pos,
                                          bool includeDeclaration = true);
std::vector<lsp::DocumentHighlight>
computeDocumentHighlights(const ParsedDocument &parsed, lsp::Position pos);

/// The range of the SSA name at `pos` that a rename would change.
std::optional<lsp::Range> prepareRename(const ParsedDocument &parsed,
                                        lsp::Position pos);
/// True for `%name` or `name` where name is an MLIR suffix-id
/// (digits, or [A-Za-z_$.-][A-Za-z0-9_$.-]*).
bool isValidSSAName(llvm::StringRef name);
/// Renames the SSA value or block argument at `pos` (its definition and
/// every use) to `newName` (`%foo` or `foo`). Nullopt with `*error` set
/// when there is no name at `pos`, the new name is not a legal SSA name or
/// is already defined in the same program.
std::optional<lsp::WorkspaceEdit> renameValue(const ParsedDocument &parsed,
                                              lsp::Position pos,
                                              llvm::StringRef newName,
                                              std::string *error = nullptr);

/// Programs, with their loops and ifs nested.
std::vector<lsp::DocumentSymbol>
computeDocumentSymbols(const ParsedDocument &parsed);
/// Ops with regions spanning lines, and runs of two or more comment lines.
std::vector<lsp::FoldingRange>
computeFoldingRanges(const ParsedDocument &parsed);

//===--- semantic tokens (features/SemanticTokens.cpp) --------------------===//

/// Token types, in legend order (the `type` of lsp::SemanticToken).
enum class TokenType : unsigned {
  VALU,      // "valu"
  SALU,      // "salu"
  SMEM,      // "smem"
  VMEM,      // "vmem"
  LDS,       // "lds"
  MFMA,      // "mfma"
  Branch,    // "branch": loop/if/condition/yield, labels and branches
  Sync,      // "sync": waits, barriers, nops, s_endpgm
  Pseudo,    // "pseudo": ops that issue nothing (constants, pack, ...)
  Value,     // "value": %names
  Type,      // "type": !waveasm.vreg<...>
  Attribute, // "attribute": #waveasm..., attribute dictionaries' keys
  Comment,   // "comment"
  Symbol,    // "symbol": @program
};
/// Modifier bits.
enum TokenModifier : unsigned {
  ModDeclaration = 1u << 0, // "declaration": a definition of a %name
  ModTrans = 1u << 1,       // "transcendental": trans VALU op names
  ModLoopBody = 1u << 2,    // "loopBody": inside a waveasm.loop
};
struct SemanticTokenLegend {
  std::vector<std::string> tokenTypes;
  std::vector<std::string> tokenModifiers;
};
const SemanticTokenLegend &getSemanticTokenLegend();
/// Tokens sorted by position, not overlapping; only those on lines of
/// `range` when given.
std::vector<lsp::SemanticToken>
computeSemanticTokens(const ParsedDocument &parsed,
                      std::optional<lsp::Range> range = std::nullopt);

//===--- code lens and tables (features/CodeLens.cpp, Tables.cpp) ---------===//

/// On each program and loop: est cycles (per iteration for loops), the
/// resource lower bound, peak V/S/A, occupancy, waitcnts, nops,
/// instruction mix. Empty without a fresh, successful `compiled`.
std::vector<lsp::CodeLens> computeCodeLenses(const ParsedDocument &parsed,
                                             const CompiledDocument *compiled);

/// `waveasm-lsp check`'s metrics table: one row per program and per loop.
std::string renderMetricsTable(const ParsedDocument &parsed,
                               const CompiledDocument &compiled);
/// Its per-instruction table: line, tag, op, unit, latency, issue cycle,
/// stall, live V/S/A after.
std::string renderInstructionTable(const ParsedDocument &parsed,
                                   const CompiledDocument &compiled);

//===--- code actions and scheduling (features/CodeActions.cpp) -----------===//
//
// The Conductor in the editor. Every schedule reaches the document as a text
// edit that moves whole op lines (conductor/TextEdit.h), so comments, blank
// lines, SSA names and formatting survive; the edit names the version it
// was computed for. Tags are conductor/Tags.h's: the index of the op in its
// block (what computeConductorTags shows as inlay hints).

/// The commands the server executes (workspace/executeCommand).
constexpr llvm::StringLiteral kScheduleLoopCommand = "waveasm.scheduleLoop";
constexpr llvm::StringLiteral kShowMetricsCommand = "waveasm.showMetrics";
/// The kind of every WaveASM code action.
constexpr llvm::StringLiteral kCodeActionKind = "refactor.rewrite";

/// What scheduling at a position works on.
struct ScheduleTarget {
  /// The innermost loop around the position (a loop's own header line
  /// counts as inside it), else the program.
  mlir::Operation *owner = nullptr;
  mlir::Block *block = nullptr; // the owner's body
  /// The op of `block` under the position, or containing it (an `if`);
  /// null on the owner's own lines or between ops.
  mlir::Operation *op = nullptr;
  /// Pre-order index of `owner` among its program's loops (the index into
  /// ProgramMetrics::loops); nullopt for a program body.
  std::optional<unsigned> loopIndex;
};
std::optional<ScheduleTarget> findScheduleTarget(const ParsedDocument &parsed,
                                                 lsp::Position pos);

/// `block`'s ops put in `newOrder` (indexes into the block's current order)
/// as one TextEdit of `parsed`'s text; nullopt with `error` when the text
/// cannot be edited line-wise (two ops on one line) or the order is not a
/// permutation. An unchanged order gives an empty edit at the block start.
std::optional<lsp::TextEdit>
computeReorderEdit(const ParsedDocument &parsed, mlir::Block &block,
                   llvm::ArrayRef<unsigned> newOrder,
                   std::string *error = nullptr);
/// `edits` of `parsed`'s document as a WorkspaceEdit: versioned
/// documentChanges when `versioned` (the client refuses it for any other
/// version), else plain changes.
lsp::WorkspaceEdit makeWorkspaceEdit(const ParsedDocument &parsed,
                                     std::vector<lsp::TextEdit> edits,
                                     bool versioned);

/// `move.op` moved before (or after) `move.anchor`, both ops of `block`,
/// as an edit of `parsed`'s text, if the Conductor's validator accepts the
/// command on a tagged clone (conductor/Moves.h: pinned ops, dominance,
/// region boundaries); `command` gets the command (tags are block indexes)
/// and `warnings` what conductor::applyMove warns about (memory order,
/// barriers, implicit registers). Nullopt when refused or not line-wise.
std::optional<lsp::TextEdit> computeValidatedMoveEdit(
    const ParsedDocument &parsed, mlir::Block &block,
    const conductor::OpMove &move, conductor::MoveCommand *command = nullptr,
    std::vector<conductor::MoveWarning> *warnings = nullptr);

/// A measured, validated single move as an edit.
struct SingleMoveEdit {
  /// "Move I14 before I9: -12 issue slots, VGPR +0".
  std::string title;
  lsp::TextEdit edit;
  std::vector<conductor::MoveWarning> warnings;
  int64_t cyclesDelta = 0; // block cycles (loop per iteration), < 0
  int64_t vgprDelta = 0;   // peak VGPRs
};
/// The best `maxMoves` single moves of `op` (an op of `block`) that lower
/// the block's cycles (conductor::rankSingleMoves, at most `maxCandidates`
/// positions measured with the settings' overrides), best first.
std::vector<SingleMoveEdit>
computeSingleMoveEdits(const ParsedDocument &parsed, mlir::Block &block,
                       mlir::Operation *op, const ServerSettings &settings,
                       unsigned maxMoves, unsigned maxCandidates);

struct CodeActionOptions {
  /// Single-move actions offered at most.
  unsigned maxMoves = 3;
  /// Candidate positions measured at most (each one compile-and-measure of
  /// the program: the cap keeps the request within tens of milliseconds).
  unsigned maxCandidates = 12;
  bool versionedEdits = false;
  /// Offer `Ask LLM to schedule this loop` (an LLM provider is configured).
  bool offerLLM = true;
};

/// The best few legal single moves of the op under `pos`, measured with the
/// settings' TargetModel overrides, titled
/// `Move I14 before I9: -12 stall cycles, VGPR +0` (block cycles: the
/// loop's est_cycles_per_iter, else the program's est_cycles), each with
/// the WorkspaceEdit moving the op's lines; then `Schedule this loop
/// (built-in)` and `Ask LLM to schedule this loop` with the
/// waveasm.scheduleLoop command. Nothing when `parsed` is not verified.
std::vector<lsp::CodeAction>
computeCodeActions(const ParsedDocument &parsed, lsp::Position pos,
                   const ServerSettings &settings,
                   const CodeActionOptions &options = {});
/// Only the single-move actions of computeCodeActions.
std::vector<lsp::CodeAction>
computeSingleMoveActions(const ParsedDocument &parsed, lsp::Position pos,
                         const ServerSettings &settings,
                         const CodeActionOptions &options = {});

//===--- quick fixes (features/QuickFixes.cpp) ---------------------------===//
//
// CodeActionKind.QuickFix actions attached to the diagnostic they resolve,
// offered only where the fix is unambiguous. Every fix is checked before
// it is offered: its edit is applied to the text, which is parsed and
// verified again (ParsedDocument), and the fix is dropped if the result has
// an error the text did not have or still has the diagnostic.

constexpr llvm::StringLiteral kQuickFixKind = "quickfix";

struct QuickFixOptions {
  bool versionedEdits = false;
  /// Stall fixes: candidate positions measured per op (compile-and-measure
  /// each, as computeSingleMoveActions).
  unsigned maxCandidates = 12;
  /// Diagnostics answered per request at most (each fix costs a re-parse,
  /// a stall fix compiles): a client listing thousands costs no more.
  unsigned maxDiagnostics = 16;
};

/// The fixes that need only the parse: MFMA accumulator and result widths,
/// buffer descriptors of a precolored SRD, ops the target lacks (the
/// documented replacement, ir/TargetAvailability.h), misaligned physical
/// tuples of an op's result, `scc` (the producer moved next to its reader)
/// and `unused` (the op removed). `diagnostics` are the client's (the
/// request's context); diagnostics without a fix are skipped.
std::vector<lsp::CodeAction> computeQuickFixes(
    const ParsedDocument &parsed, llvm::ArrayRef<lsp::Diagnostic> diagnostics,
    const ServerSettings &settings, const QuickFixOptions &options = {});

/// The `stall` fixes: the best measured single move (the Conductor's
/// rankSingleMoves) of the stalled op or of the producer it waits for,
/// kept only if the moved text, compiled again, no longer has the stall.
/// Needs `compiled` fresh for `parsed` (the lint's snapshot); compiles the
/// program per candidate, so it runs on the worker.
std::vector<lsp::CodeAction> computeStallQuickFixes(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    llvm::ArrayRef<lsp::Diagnostic> diagnostics, const ServerSettings &settings,
    const QuickFixOptions &options = {});

/// True when `diagnostic` is one computeStallQuickFixes answers.
bool isStallDiagnostic(const lsp::Diagnostic &diagnostic);

/// The `bankConflict` fixes (BankConflictFixes.cpp): the stride padding
/// LdsBankConflicts suggests, written as a multiplication by a new
/// constant; kept only if the fixed text, compiled, has the lower conflict
/// and (with checkByExecution) the simulator finds the buffers unchanged.
/// Needs `compiled` fresh for `parsed`; runs on the worker.
std::vector<lsp::CodeAction> computeBankConflictQuickFixes(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    llvm::ArrayRef<lsp::Diagnostic> diagnostics, const ServerSettings &settings,
    const QuickFixOptions &options = {});

/// True when `diagnostic` is one computeBankConflictQuickFixes answers.
bool isBankConflictDiagnostic(const lsp::Diagnostic &diagnostic);

/// The diagnostics a code action request is about: the client's context,
/// else those of `all` whose range touches `range`.
std::vector<lsp::Diagnostic>
selectQuickFixDiagnostics(llvm::ArrayRef<lsp::Diagnostic> context,
                          llvm::ArrayRef<lsp::Diagnostic> all,
                          lsp::Range range);

//===--- lints on the text as written (features/SourceLints.cpp) ---------===//

/// The `scc` lint: an SCC value another SCC writer overwrites before its
/// reader (SCCClobbers.h), which the pipeline must save and restore.
std::vector<lsp::Diagnostic> lintSCCClobbers(const ParsedDocument &parsed,
                                             lsp::DiagnosticSeverity severity);
/// The `unused` lint: an instruction whose results nothing reads and that
/// has no other effect (no memory access, no implicit VCC/EXEC/M0 write,
/// not pinned, virtual results only). Tagged Unnecessary.
std::vector<lsp::Diagnostic>
lintUnusedResults(const ParsedDocument &parsed,
                  lsp::DiagnosticSeverity severity);
/// The `unused` lint's condition for one op.
bool isRemovableUnusedOp(mlir::Operation *op);
/// `redundantLoad`: a load analysis/RedundantLoads.h finds repeating an
/// earlier one (related: that load). Tagged Unnecessary.
std::vector<lsp::Diagnostic>
lintRedundantLoads(const ParsedDocument &parsed,
                   lsp::DiagnosticSeverity severity);

/// `loadBehindStore`: a global load of an outer loop's body that stays
/// behind a store of the body only because nothing declares their pointers
/// apart (analysis/LoadsBehindStores.h; related: the store).
std::vector<lsp::Diagnostic>
lintLoadsBehindStores(const ParsedDocument &parsed,
                      lsp::DiagnosticSeverity severity);

//===--- loop optimizations (features/LoopOptimizations.cpp) -------------===//

constexpr llvm::StringLiteral kApplyOptimizationsTitle =
    "Apply loop optimizations";

/// What the optimizations did to `compiledLoop` of program `program`, if
/// anything (CompiledProgram::loopEffects).
const LoopOptimizationEffect *findLoopEffect(const CompiledDocument &compiled,
                                             unsigned program,
                                             LoopOp compiledLoop);
/// `optimizations: strength reduction -12 VALU · ... · live VGPR 38 -> 30`.
std::string formatLoopEffectLens(const LoopOptimizationEffect &effect);
/// The loop hover's section: totals and one line per pass.
std::string formatLoopEffectHover(const LoopOptimizationEffect &effect);
/// The `optimization` lint's message, when the optimizations remove work.
std::optional<std::string>
formatLoopEffectLint(const LoopOptimizationEffect &effect);
/// `Apply loop optimizations: est_cycles A -> B, peak VGPR ...` on a
/// program whose loops the optimizations change: the program's text
/// replaced by the optimized IR (before allocation), which must verify;
/// the title's diff compares the written and the optimized IR through the
/// backend passes alone.
std::optional<lsp::CodeAction> computeApplyOptimizationsAction(
    const ParsedDocument &parsed, const CompiledDocument *compiled,
    lsp::Position pos, const CodeActionOptions &options = {});

/// The Session options the server schedules with: the settings' target
/// and TargetModel overrides, rounds, and a key order that puts occupancy
/// and cycles first (the editor's "make it faster"); the execution check
/// runs on the inputs the `// waveasm-sim:` lines of `documentText` set.
conductor::SessionOptions makeSessionOptions(const ServerSettings &settings,
                                             llvm::StringRef documentText);

/// A finished schedule of a ScheduleTarget, ready to send.
struct ScheduleOutcome {
  bool changed = false; // the best order differs from the text's
  lsp::TextEdit edit;   // valid when changed
  ProgramMetrics before, after;
  std::optional<unsigned> loopIndex;
  std::vector<std::string> moves; // accepted move commands
  /// "est_cycles/iter 287 -> 240, peak VGPR 96 -> 96".
  std::string summary;
  std::string error; // non-empty: no edit (the reason)
};
/// The edit and metric diff of `session`'s best schedule of `target`'s
/// block (the session was created from `parsed`'s module and `target`).
ScheduleOutcome makeScheduleOutcome(const ParsedDocument &parsed,
                                    const ScheduleTarget &target,
                                    const conductor::Session &session);
/// Runs the built-in strategies (latency list scheduling, then pressure)
/// as Session rounds on `target` and returns the best schedule. Seconds at
/// most on the examples; runs on the worker.
ScheduleOutcome scheduleBuiltin(const ParsedDocument &parsed,
                                const ScheduleTarget &target,
                                const ServerSettings &settings);

/// "est_cycles/iter 287 -> 240, peak VGPR 96 -> 96" (program: "est_cycles
/// ..."); occupancy is added when it changes.
std::string formatMetricDiff(const ProgramMetrics &before,
                             const ProgramMetrics &after,
                             std::optional<unsigned> loopIndex);
/// The metrics of a schedule for the command's reply: the program's keys
/// and, for a loop, `est_cycles_per_iter` of that loop.
llvm::json::Value scheduleMetricsJSON(const ProgramMetrics &metrics,
                                      std::optional<unsigned> loopIndex);

//===--- pipeline view (features/PipelineView.cpp) -----------------------===//

/// The program after each pass of the background compile's pipeline (same
/// settings: target, overrides, optimize), the first snapshot the input as
/// parsed; a failing pass's diagnostics located in the document. No
/// snapshots when `parsed` does not verify (the server answers with the
/// last good list, stale).
struct DocumentSnapshots {
  int64_t version = 0;
  PipelineSnapshots snapshots;
  std::vector<lsp::Diagnostic> diagnostics; // of the failed pass
};
DocumentSnapshots computePipelineSnapshots(const ParsedDocument &parsed,
                                           const ServerSettings &settings);
/// Texts a list answer carries at most by default (a 20,000-instruction
/// program's changed snapshots add up to about 20 MB): above, the list has
/// `textOnDemand: true` and no texts, and clients ask for each by index.
constexpr int64_t kDefaultSnapshotTextBytes = 8 << 20;
/// waveasm/pipelineSnapshots's answer. With `index`: {version, index, pass,
/// changed, text}, the program's text after that snapshot (nullopt if out
/// of range). Else {version, stale: false, textOnDemand, snapshots: [{pass,
/// changed, text (changed ones, unless textOnDemand), metrics:
/// {instructions, peak_vgpr, peak_sgpr, peak_agpr, est_cycles}, failed and
/// diagnostics (a pass that failed)}]}, texts dropped when they add up to
/// more than `maxTextBytes`.
std::optional<llvm::json::Value>
selectPipelineSnapshots(const DocumentSnapshots &all,
                        std::optional<int64_t> index, int64_t maxTextBytes);

//===--- live values (features/LiveValues.cpp) ---------------------------===//
//
// On the liveness of the program as written (ParsedDocument::getLiveness).
// Program points are ops in flattened pre-order (analysis/ProgramIndex.h);
// an op with regions stands for its header.

/// One register value live at a point.
struct LiveValueInfo {
  mlir::Value value;
  std::string name; // "%x", "%x#1"
  RegClass regClass = RegClass::VGPR;
  int64_t width = 1;                   // registers
  std::optional<std::string> physical; // "v[4:7]" for physical registers
  LiveRange range;                     // program points
  lsp::Range definition;
  std::optional<lsp::Range> lastUse; // the op name of its last use
  /// Ops from its definition to the end of its live range.
  int64_t length() const { return range.end - range.start; }
};

struct LiveAtInfo {
  unsigned opEntry = 0; // the op at the position
  unsigned point = 0;   // its program point
  RegCounts liveAfter;  // registers live after it
  /// The values live after the op (defined at or before it, used after
  /// it), by definition order.
  std::vector<LiveValueInfo> values;
};

/// Nullopt outside ops or when `parsed` does not verify.
std::optional<LiveAtInfo> findLiveValuesAt(const ParsedDocument &parsed,
                                           lsp::Position pos);
/// waveasm/liveAt: {version, op: {name, range} | null, liveRegisters:
/// {vgpr, sgpr, agpr}, values: [{name, class, width, register?, definition,
/// lastUse, length}]}.
llvm::json::Value computeLiveAt(const ParsedDocument &parsed,
                                lsp::Position pos);
/// The op entry where program `program`'s VGPR pressure (as written)
/// first peaks.
std::optional<unsigned> findPressurePeakOp(const ParsedDocument &parsed,
                                           unsigned program);
/// On the name of a program's VGPR peak op: the peak and the `maxShown`
/// longest-lived register blocks live there (markdown), to append to the
/// op's hover.
std::optional<std::string> computePeakLiveHover(const ParsedDocument &parsed,
                                                lsp::Position pos,
                                                unsigned maxShown = 5);
/// `waveasm.showLivePeak`: computeLiveAt at the first program's VGPR peak
/// op plus {uri, peak}; null when there is no peak.
constexpr llvm::StringLiteral kShowLivePeakCommand = "waveasm.showLivePeak";
llvm::json::Value computeLivePeak(const ParsedDocument &parsed,
                                  llvm::StringRef uri);
/// The `liveThrough` lint: a register value defined before a loop, live
/// across at least 75% of its body and not used in it.
std::vector<lsp::Diagnostic>
lintLiveThroughLoops(const ParsedDocument &parsed,
                     lsp::DiagnosticSeverity severity);

//===--- schedule view (features/ScheduleView.cpp, ScheduleSvg.cpp,
//      ScheduleText.cpp) ----------------------------------------------===//
//
// Pictures of a schedule: one row per issued instruction of a program or
// of one loop iteration (the steady state), from the background compile's
// ProgramAnnotations. A view covers the ops of its frame only: a loop
// nested in it is one summary row (it has a view of its own), so the views
// of a document together show every instruction once.

/// One issued instruction (or a nested loop) of a view.
struct ScheduleRow {
  /// The input op the row stands for (an inserted wait or nop: the input op
  /// it precedes); kNone when there is none.
  unsigned opEntry = OpEntry::kNone;
  lsp::Range range; // that op's name
  int line = 0;     // 1-based line of `range`, 0 without an op
  /// The compiled op's number in its ProgramAnnotations (ProgramIndex).
  unsigned point = 0;
  std::string text; // "v_add_u32 %a, %b", inserted ones "s_waitcnt ..."
  std::string mnemonic;
  ExecUnit unit = ExecUnit::None;
  int64_t issue = 0; // slot, in the frame (steady iteration for loops)
  int64_t stall = 0; // slots waited before `issue`
  StallReason stallReason = StallReason::None;
  int32_t latency = 0;
  /// Slots the row keeps its unit (or, for a nested loop, the wave) busy
  /// from `issue`: MFMA passes, s_nop N+1, a loop's iterations.
  int64_t busy = 1;
  bool inserted = false; // a wait or nop the pipeline added
  bool loop = false;     // a nested loop's summary row
  /// Registers occupied while the row issues (the maximum since the row
  /// before, so ops that issue nothing and nested loops count).
  RegCounts pressure;
};

/// A VGPR count at which occupancy changes: up to `vgprs` entries of the
/// VGPR file allow `waves` waves per SIMD.
struct OccupancyThreshold {
  int64_t vgprs = 0;
  int64_t waves = 0;
};

struct ScheduleView {
  unsigned program = 0;                 // into CompiledDocument::getPrograms()
  std::string programName;              // without '@'
  std::optional<unsigned> loop;         // into ProgramAnnotations::getLoops()
  unsigned ownerEntry = OpEntry::kNone; // the program's or loop's op entry
  lsp::Range range;                     // that op's name
  std::string title; // "@gemm" or "@gemm loop at line 95 (trip 16)"
  /// Slots the frame takes: the program's, or one steady-state iteration.
  int64_t cycles = 0;
  std::vector<ScheduleRow> rows;
  /// Busy slots per unit (ExecUnit order) over the rows.
  std::array<int64_t, kNumExecUnits> unitBusy = {};
  /// The maximum of each class over the rows and the first row reaching
  /// it (rows.size() without rows).
  RegCounts peak;
  std::array<size_t, 3> peakRow = {0, 0, 0};
  int64_t occupancy = 0; // waves per SIMD, of the allocated program
  std::vector<OccupancyThreshold> thresholds; // ascending VGPRs
  /// MFMA pipe: busy slots and their share of `cycles` (0 without MFMA).
  int64_t mfmaBusy = 0;
  double mfmaUtilization = 0;
};

/// The view at `pos`: the innermost loop around it, else its program;
/// without a position (or outside programs) the first loop of the first
/// program, else that program. Nullopt without a fresh, successful
/// `compiled`.
std::optional<ScheduleView>
computeScheduleView(const ParsedDocument &parsed,
                    const CompiledDocument *compiled,
                    std::optional<lsp::Position> pos);
/// Every program's view followed by its loops' (pre-order), program by
/// program: what `check --format html` draws.
std::vector<ScheduleView>
computeAllScheduleViews(const ParsedDocument &parsed,
                        const CompiledDocument *compiled);

/// How a waveasm/schedule answer carries a picture besides the data.
enum class ScheduleRender { None, SVG, Text };
/// waveasm/schedule: {version, title, program, kind: "program"|"loop",
/// range, cycles, rows: [{line (1-based), at: [line, character] (0-based,
/// the op's name; absent without an op), text, mnemonic, unit, issue,
/// stall, stallReason (when stalled), latency, busy, inserted and loop
/// (when true), pressure: [vgpr, sgpr, agpr]}], units: [{unit, busy}],
/// peak: {vgpr|sgpr|agpr: {regs, row}},
/// occupancy: {waves, thresholds: [{vgprs, waves}]}, mfma: {busy,
/// utilization}}, plus `svg` and `css`, or `text`, as asked.
llvm::json::Value scheduleViewToJSON(const ScheduleView &view, int64_t version,
                                     ScheduleRender render);

/// The view as one SVG element (no script, no external reference; classes
/// styled by getScheduleCss()): the unit lanes, then one row per
/// instruction (stall and issue bars on a shared slot axis) beside the
/// live VGPR/SGPR/AGPR curve with the peak and the occupancy thresholds.
/// Rows carry `data-op="LINE:CHARACTER"` (0-based) for clients that
/// reveal the op on a click.
std::string renderScheduleSvg(const ScheduleView &view);
/// The style sheet the SVG's classes need (one per page).
llvm::StringRef getScheduleCss();
/// The view as text, like `llvm-mca -timeline`: one line per instruction
/// with slot columns, and the pressure as a bar column.
std::string renderScheduleText(const ScheduleView &view);

//===--- dependence graph (features/DependenceView.cpp, DependenceLayout.cpp,
//      DependenceSvg.cpp) ----------------------------------------------===//
//
// The DAG of one loop body as written, the ordering constraints the
// Conductor's schedulers keep (conductor/strategies/DependenceGraph.h):
// data, implicit-register, memory (by space) and barrier edges (a pinned
// op: barrier, wait, branch; everything keeps its side of it), weighted by
// latency (SchedulingModel: the producer's result latency, MFMA
// accumulator chains with the forwarding penalty, else its issue slots),
// the critical path, and the loop-carried data edges (a value yielded to
// the next iteration, to the ops reading its block argument).

/// One op of the body.
struct DependenceNode {
  unsigned opEntry = OpEntry::kNone; // the op (kNone if not in the index)
  lsp::Range range;                  // its name
  int line = 0;                      // 1-based
  std::string mnemonic;
  std::string text; // getShortText
  ExecUnit unit = ExecUnit::None;
  int64_t latency = 0; // result latency in issue slots (0: issues nothing)
  /// Longest latency-weighted path from this op to the end of the body.
  int64_t height = 0;
  bool critical = false;
  // Layout (DependenceLayout.cpp): layer (longest path from the sources in
  // drawn edges), row of the picture, and the box's top-left corner.
  unsigned layer = 0;
  unsigned row = 0;
  double x = 0, y = 0;
};

/// "data", "register", "memory", "barrier".
llvm::StringRef getDependenceKindName(conductor::DepKind kind);

struct DependenceEdge {
  unsigned from = 0, to = 0; // node numbers (body order)
  conductor::DepKind kind = conductor::DepKind::Data;
  int64_t latency = 0; // slots after `from` issues before `to` may
  /// From this iteration to the next (`to` reads a block argument the
  /// terminator feeds with `from`'s result).
  bool carried = false;
  bool critical = false;
  /// An ordering edge (not data) implied by a longer path: kept in the
  /// data, left out of the picture.
  bool implied = false;
};

struct DependenceView {
  unsigned program = 0; // into ParsedDocument::getPrograms()
  std::string programName;
  unsigned loopEntry = OpEntry::kNone; // the loop op
  lsp::Range range;                    // its name
  std::string title;                   // "@gemm loop at line 105"
  std::string target;                  // "gfx942"
  std::vector<DependenceNode> nodes;
  std::vector<DependenceEdge> edges;  // body edges by (from, to), then carried
  std::vector<unsigned> criticalPath; // node numbers, in order
  int64_t criticalLength = 0;         // slots
  unsigned numLayers = 0;
  double width = 0, height = 0; // the layout's extent
};

/// The graph of the innermost loop around `pos` (without one, or without a
/// position, the document's first loop); nullopt when `parsed` does not
/// verify or has no loop. Latencies are `settings`' target model (its
/// target override and model overrides), as the background compile's.
std::optional<DependenceView>
computeDependenceView(const ParsedDocument &parsed,
                      const ServerSettings &settings,
                      std::optional<lsp::Position> pos);
/// Every loop's graph, in document order (`check --format html`).
std::vector<DependenceView>
computeAllDependenceViews(const ParsedDocument &parsed,
                          const ServerSettings &settings);
/// Lays the nodes out (layered, longest path): sets each node's layer, row,
/// x and y, and the view's extent.
void layoutDependenceView(DependenceView &view);
/// waveasm/dependenceGraph: {version, title, program, target, range,
/// criticalLength, criticalPath: [node], layers, nodes: [{id, line, at:
/// [line, character], mnemonic, text, unit, latency, height, critical, layer,
/// x, y}], edges: [{from, to, kind, latency, carried?, critical?,
/// implied?}]} plus `svg` and `css` when `svg`.
llvm::json::Value dependenceViewToJSON(const DependenceView &view,
                                       int64_t version, bool svg);
/// The graph as one SVG element (no script, no external reference; classes
/// styled by getDependenceCss()): boxes in layers, the drawn edges as
/// curves labelled with their latency, the critical path in red, carried
/// edges dashed in a lane right of the graph. Nodes carry
/// `data-op="LINE:CHARACTER"` (0-based) for clients that reveal the op.
std::string renderDependenceSvg(const DependenceView &view);
llvm::StringRef getDependenceCss();

} // namespace waveasm::server

#endif // WAVEASM_SERVER_FEATURES_H
