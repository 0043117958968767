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
///  - `I17`: the Conductor tag.
/// The first two need a fresh, successful `compiled`; ops with regions and
/// ops that issue nothing get no numbers.
std::vector<lsp::InlayHint> computeInlayHints(const ParsedDocument &parsed,
                                              const CompiledDocument *compiled,
                                              lsp::Range range,
                                              const ServerSettings &settings);

//===--- hover (features/Hover.cpp) ---------------------------------------===//

/// On an op name: unit, latency class and cycles, operand/result register
/// classes, the allocator's physical registers, defs and uses. On an SSA
/// name: type, defining op, uses, live range.
std::optional<lsp::Hover> computeHover(const ParsedDocument &parsed,
                                       const CompiledDocument *compiled,
                                       lsp::Position pos);

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

} // namespace waveasm::server

#endif // WAVEASM_SERVER_FEATURES_H
