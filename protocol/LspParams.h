//===- LspParams.h - parameters and results of the LSP methods --*- C++ -*-===//
//
// The request/notification payloads the server exchanges, as plain structs
// (LspParamsJSON.cpp gives them their JSON form). Only the fields the
// server acts on are modelled; the rest of a client's message is ignored,
// as LSP intends.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_LSPPARAMS_H
#define WAVEASM_PROTOCOL_LSPPARAMS_H

#include "protocol/LspTypes.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace waveasm::lsp {

//===--- documents
//----------------------------------------------------------===//

struct TextDocumentIdentifier {
  std::string uri;
};

struct VersionedTextDocumentIdentifier {
  std::string uri;
  int64_t version = 0;
};

struct TextDocumentItem {
  std::string uri;
  std::string languageId;
  int64_t version = 0;
  std::string text;
};

/// A ranged edit, or (no range) the whole new text.
struct TextDocumentContentChangeEvent {
  std::optional<Range> range;
  std::string text;
};

struct DidOpenTextDocumentParams {
  TextDocumentItem textDocument;
};

struct DidChangeTextDocumentParams {
  VersionedTextDocumentIdentifier textDocument;
  std::vector<TextDocumentContentChangeEvent> contentChanges;
};

struct DidCloseTextDocumentParams {
  TextDocumentIdentifier textDocument;
};

/// Requests about a whole document (symbols, folding, semantic tokens,
/// code lenses, waveasm/assembly, waveasm/metrics).
struct DocumentParams {
  TextDocumentIdentifier textDocument;
};

/// Requests about a range (inlay hints).
struct DocumentRangeParams {
  TextDocumentIdentifier textDocument;
  Range range;
};

struct TextDocumentPositionParams {
  TextDocumentIdentifier textDocument;
  Position position;
};

struct ReferenceParams {
  TextDocumentIdentifier textDocument;
  Position position;
  bool includeDeclaration = true;
};

struct RenameParams {
  TextDocumentIdentifier textDocument;
  Position position;
  std::string newName;
};

struct PrepareRenameResult {
  Range range;
  std::string placeholder;
};

struct PublishDiagnosticsParams {
  std::string uri;
  std::optional<int64_t> version;
  std::vector<Diagnostic> diagnostics;
};

/// {"data": [...]} with the delta encoding.
struct SemanticTokens {
  std::vector<SemanticToken> tokens;
};

//===--- lifecycle
//----------------------------------------------------------===//

/// The client capabilities the server adapts to.
struct ClientCapabilities {
  bool workDoneProgress = false; // window.workDoneProgress
  bool inlayHintRefresh = false; // workspace.inlayHint.refreshSupport
  bool codeLensRefresh = false;  // workspace.codeLens.refreshSupport
  bool semanticTokensRefresh = false;
  bool hierarchicalDocumentSymbol = false;
  /// textDocument.publishDiagnostics.versionSupport
  bool diagnosticVersionSupport = false;
  /// workspace.applyEdit: the client accepts workspace/applyEdit.
  bool applyEdit = false;
  /// workspace.workspaceEdit.documentChanges: versioned edits.
  bool workspaceEditDocumentChanges = false;
  /// workspace.workspaceEdit.changeAnnotationSupport: annotated edits.
  bool changeAnnotations = false;
  /// textDocument.hover.contentFormat includes markdown (default true: a
  /// client that does not say gets markdown, which reads fine as text).
  bool hoverMarkdown = true;
  /// textDocument.completion.completionItem.snippetSupport.
  bool completionSnippets = false;
  /// textDocument.completion.completionList.itemDefaults has "editRange".
  bool completionDefaultEditRange = false;
};

struct InitializeParams {
  std::optional<int64_t> processId;
  std::string rootUri;
  ClientCapabilities capabilities;
  /// Settings at start-up (parsed by the server; shape in its Settings).
  llvm::json::Value initializationOptions = nullptr;
};

/// What the server announces; everything not listed is unsupported.
struct ServerCapabilities {
  std::vector<std::string> semanticTokenTypes;
  std::vector<std::string> semanticTokenModifiers;
  std::vector<std::string> executeCommands;
  /// Code action kinds offered (empty: no codeActionProvider).
  std::vector<std::string> codeActionKinds;
};

struct InitializeResult {
  ServerCapabilities capabilities;
  std::string serverName;
  std::string serverVersion;
};

struct DidChangeConfigurationParams {
  llvm::json::Value settings = nullptr;
};

/// Parameters of requests and notifications that carry none.
struct NoParams {};

//===--- progress
//-----------------------------------------------------------===//

struct WorkDoneProgressCreateParams {
  std::string token;
};

struct WorkDoneProgress {
  enum Kind { Begin, Report, End } kind = Begin;
  std::string title;   // Begin
  std::string message; // optional
  std::optional<int> percentage;
  /// Begin: the client may send window/workDoneProgress/cancel.
  bool cancellable = false;
};

struct ProgressParams {
  std::string token;
  WorkDoneProgress value;
};

/// window/workDoneProgress/cancel.
struct WorkDoneProgressCancelParams {
  std::string token;
};

//===--- code actions and commands
//-------------------------------------------===//

struct CodeActionParams {
  TextDocumentIdentifier textDocument;
  Range range;
  /// context.only: the kinds the client wants (empty: all).
  std::vector<std::string> only;
  /// context.diagnostics: the diagnostics the client shows in `range` (what
  /// quick fixes answer); malformed entries are skipped.
  std::vector<Diagnostic> diagnostics;
};

struct ExecuteCommandParams {
  std::string command;
  llvm::json::Array arguments;
};

/// workspace/applyEdit (server -> client).
struct ApplyWorkspaceEditParams {
  std::string label;
  WorkspaceEdit edit;
};

struct ApplyWorkspaceEditResult {
  bool applied = false;
  std::string failureReason;
};

//===--- WaveASM extensions
//-------------------------------------------------===//

/// One line of emitted assembly and the range of the op that produced it.
struct AssemblyLineMapping {
  int line = 0; // 0-based line of `AssemblyResult::text`
  Range range;  // the op in the document
};

/// waveasm/assembly: the emitted .s of the document's version.
struct AssemblyResult {
  int64_t version = 0;
  std::string text;
  std::vector<AssemblyLineMapping> map;
};

/// waveasm/pipelineSnapshots: the list (texts included while they add up
/// to at most `maxTextBytes`, else fetched one by one), or with `index` the
/// text of that one snapshot.
struct PipelineSnapshotsParams {
  TextDocumentIdentifier textDocument;
  std::optional<int64_t> index;
  std::optional<int64_t> maxTextBytes;
};

/// waveasm/schedule: the schedule view of the program or innermost loop at
/// `position` (else the first loop), with a picture when `render` asks:
/// "svg" (plus its style sheet) or "text".
struct ScheduleParams {
  TextDocumentIdentifier textDocument;
  std::optional<Position> position;
  std::optional<std::string> render;
};

/// waveasm/metrics: analysis/Metrics.h's {"programs": [...]} plus the
/// version it describes.
struct MetricsResult {
  int64_t version = 0;
  llvm::json::Value programs = llvm::json::Array();
};

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_LSPPARAMS_H
