//===- LspTypes.h - LSP 3.17 value types the server uses --------*- C++ -*-===//
//
// Plain structs for the LSP values Conductor sends and receives. The server
// builds these; protocol/ alone turns them into JSON (LspJSON.h) and frames
// them on the wire. Positions are LSP positions: 0-based line and UTF-16
// code-unit character.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_LSPTYPES_H
#define WAVEASM_PROTOCOL_LSPTYPES_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace waveasm::lsp {

struct Position {
  int line = 0;
  int character = 0; // UTF-16 code units
  friend bool operator==(const Position &a, const Position &b) {
    return a.line == b.line && a.character == b.character;
  }
  friend bool operator<(const Position &a, const Position &b) {
    return a.line < b.line || (a.line == b.line && a.character < b.character);
  }
  friend bool operator<=(const Position &a, const Position &b) {
    return !(b < a);
  }
};

struct Range {
  Position start, end;
  bool contains(Position p) const { return start <= p && p <= end; }
  bool overlaps(const Range &o) const {
    return !(end < o.start) && !(o.end < start);
  }
  friend bool operator==(const Range &a, const Range &b) {
    return a.start == b.start && a.end == b.end;
  }
};

struct Location {
  std::string uri;
  Range range;
  friend bool operator==(const Location &a, const Location &b) {
    return a.uri == b.uri && a.range == b.range;
  }
};

enum class DiagnosticSeverity {
  Error = 1,
  Warning = 2,
  Information = 3,
  Hint = 4
};

struct DiagnosticRelatedInformation {
  Location location;
  std::string message;
  friend bool operator==(const DiagnosticRelatedInformation &a,
                         const DiagnosticRelatedInformation &b) {
    return a.location == b.location && a.message == b.message;
  }
};

struct Diagnostic {
  Range range;
  DiagnosticSeverity severity = DiagnosticSeverity::Error;
  std::string code; // "stall", "pressure", "hazard", "waitcnt", ... or empty
  std::string source = "waveasm";
  std::string message;
  std::vector<DiagnosticRelatedInformation> related;
  /// DiagnosticTag values: 1 Unnecessary (shown faded), 2 Deprecated.
  std::vector<int> tags;
  friend bool operator==(const Diagnostic &a, const Diagnostic &b) {
    return a.range == b.range && a.severity == b.severity && a.code == b.code &&
           a.source == b.source && a.message == b.message &&
           a.related == b.related && a.tags == b.tags;
  }
};

enum class MarkupKind { PlainText, Markdown };

struct MarkupContent {
  MarkupKind kind = MarkupKind::Markdown;
  std::string value;
};

struct Hover {
  MarkupContent contents;
  std::optional<Range> range;
};

enum class InlayHintKind { Type = 1, Parameter = 2 };

struct InlayHint {
  Position position;
  std::string label;
  std::optional<InlayHintKind> kind;
  std::string tooltip; // markdown; empty = none
  bool paddingLeft = false;
  bool paddingRight = false;
};

struct TextEdit {
  Range range;
  std::string newText;
  /// AnnotatedTextEdit: the key of WorkspaceEdit::changeAnnotations
  /// (empty: a plain edit).
  std::string annotationId;
};

/// Describes annotated edits; with needsConfirmation the client shows the
/// edit (and the label) for the user to accept before applying it.
struct ChangeAnnotation {
  std::string label;
  bool needsConfirmation = false;
  std::string description;
};

/// Edits of one document at one version (LSP TextDocumentEdit): a client
/// applies them only to that version of the document.
struct TextDocumentEdit {
  std::string uri;
  std::optional<int64_t> version; // nullopt: null (any version)
  std::vector<TextEdit> edits;
};

/// Either form: `changes` (uri -> edits, no version check) or
/// `documentChanges` (versioned; for clients announcing
/// workspace.workspaceEdit.documentChanges). Both are sent when set.
struct WorkspaceEdit {
  std::map<std::string, std::vector<TextEdit>> changes; // uri -> edits
  std::vector<TextDocumentEdit> documentChanges;
  /// For annotated edits (clients announcing
  /// workspace.workspaceEdit.changeAnnotationSupport).
  std::map<std::string, ChangeAnnotation> changeAnnotations;
};

enum class DocumentHighlightKind { Text = 1, Read = 2, Write = 3 };

struct DocumentHighlight {
  Range range;
  DocumentHighlightKind kind = DocumentHighlightKind::Text;
};

// LSP SymbolKind values used here.
enum class SymbolKind {
  Module = 2,
  Namespace = 3,
  Function = 12,
  Variable = 13,
  Event = 24,
  Operator = 25
};

struct DocumentSymbol {
  std::string name;
  std::string detail;
  SymbolKind kind = SymbolKind::Function;
  Range range;          // whole construct
  Range selectionRange; // its name
  std::vector<DocumentSymbol> children;
};

struct FoldingRange {
  int startLine = 0;
  int endLine = 0;
  std::string kind; // "region", "comment" or empty
};

struct Command {
  std::string title;
  std::string command;
  std::vector<std::string> arguments; // JSON-encoded values
};

struct CodeLens {
  Range range;
  std::optional<Command> command;
};

struct CodeAction {
  std::string title;
  std::string kind; // "quickfix", "refactor.rewrite", ...
  /// The diagnostics a quick fix resolves.
  std::vector<Diagnostic> diagnostics;
  std::optional<WorkspaceEdit> edit;
  std::optional<Command> command;
  bool isPreferred = false;
};

/// Semantic tokens: the legend is fixed (SemanticTokenLegend) and tokens
/// are absolute here; protocol/ delta-encodes them.
struct SemanticToken {
  int line = 0;
  int startChar = 0; // UTF-16
  int length = 0;    // UTF-16
  unsigned type = 0; // index into the legend's token types
  unsigned modifiers = 0;
};

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_LSPTYPES_H
