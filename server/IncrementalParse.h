//===- IncrementalParse.h - re-parse one edited op, exactly -----*- C++ -*-===//
//
// Diagnostics while typing, without re-parsing the whole document.
//
// An IncrementalModel is a private copy of a parsed document's module (the
// snapshots in DocumentState.h are shared with the worker and never
// change) plus what MLIR's parser knew about it: the SSA names and their
// scopes, and the lines of every op. An edit that stays inside one op's
// lines is applied by parsing only those lines and splicing the new op in
// place of the old one; the module is then verified as a whole. An edit
// that only touches comment or blank lines between ops (trivia to the
// lexer; not inside a multi-line `<...>` body) changes nothing.
//
// The contract is exactness: `update` returns the diagnostics a full
// ParsedDocument of the new text would have, or nothing. It declines
// (and the caller parses the whole text) whenever it cannot prove the
// spliced module is the one a full parse would build:
//
//  - the edit spans more than one op, changes the number of lines, or
//    touches structure (region braces, program headers, block labels);
//  - the new text is not exactly one op that parses on its own, with the
//    same result names, result counts and result types (otherwise the rest
//    of the document would parse differently);
//  - an operand names a value that is not defined before the op in an
//    enclosing scope (forward references, undefined names);
//  - the new text has any parse error (errors come from the full parse,
//    with its exact messages);
//  - a diagnostic is located somewhere the text alone cannot place.
//
// The op is parsed in a scratch buffer whose lines sit at the same line
// numbers as in the document (locations come out equal), after one line
// that defines the operands it names with their types. The op that
// follows it in the document is parsed with it, so that the new op's
// parser sees the same next token as in the whole text (an optional
// trailing clause must not swallow the next op there but not here).
//
// Threading: one per document, built on the parse thread and then used
// on the loop thread only (DocumentScheduler hands it over).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_INCREMENTALPARSE_H
#define WAVEASM_SERVER_INCREMENTALPARSE_H

#include "protocol/LspTypes.h"
#include "server/DocumentState.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace waveasm::server {

class ParsedDocument;

class IncrementalModel {
public:
  /// A copy of `parsed`'s module and name scopes; null when `parsed` did
  /// not parse. Costs a module clone (a few ms for 10,000 ops).
  static std::unique_ptr<IncrementalModel> build(const ParsedDocument &parsed);
  ~IncrementalModel();
  IncrementalModel(const IncrementalModel &) = delete;
  IncrementalModel &operator=(const IncrementalModel &) = delete;

  /// Brings the model to `text` (any later text of the same document).
  /// Returns the parse and verification diagnostics that
  /// `ParsedDocument(context, uri, text, ...)` would report, in the same
  /// order with the same ranges; nullopt when the change is not one the
  /// model can apply exactly (see the file comment). After nullopt the
  /// model is stale: discard it.
  std::optional<std::vector<lsp::Diagnostic>> update(llvm::StringRef text);

  /// The text the model describes.
  llvm::StringRef getText() const { return current->text; }
  /// The model's module (tests compare it with a full parse).
  mlir::ModuleOp getModule() const { return *module; }
  /// Why the last update returned nullopt, for the logs.
  llvm::StringRef getFallbackReason() const { return fallbackReason; }
  /// Milliseconds the last update spent verifying, for the logs.
  double getVerifyMs() const { return verifyMs; }

private:
  /// A leaf op (no regions, no successors) inside a program, alone on its
  /// lines [firstLine, lastLine] apart from blanks and comments.
  struct LineOp {
    mlir::Operation *op = nullptr;
    unsigned firstLine = 0, lastLine = 0;
    /// Result groups as written: name ("%x") and first result index.
    llvm::SmallVector<std::pair<std::string, unsigned>, 1> groups;
  };
  /// One definition of an SSA name: a result group of `op`, or the block
  /// argument `index` of `block`.
  struct NameDef {
    mlir::Operation *op = nullptr;
    mlir::Block *block = nullptr;
    unsigned first = 0, count = 1;
    /// The group's value `i`.
    mlir::Value value(unsigned i) const {
      return op ? mlir::Value(op->getResult(first + i))
                : mlir::Value(block->getArgument(first + i));
    }
  };
  /// A text and its line table, which points into it (kept together so
  /// the table is built once per text).
  struct Text {
    explicit Text(std::string s) : text(std::move(s)), lines(text) {}
    std::string text;
    LineTable lines;
  };

  IncrementalModel() = default;
  std::optional<std::vector<lsp::Diagnostic>> decline(llvm::StringRef reason);
  /// The definition of `name` that MLIR's parser would bind at `user`:
  /// defined before it in an enclosing block of the same isolated scope.
  const NameDef *resolve(llvm::StringRef name, mlir::Operation *user) const;
  /// Verifies the module and converts its diagnostics against `text`.
  std::optional<std::vector<lsp::Diagnostic>> diagnose();

  std::string uri;
  std::unique_ptr<const Text> current; // the text the model describes
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Sorted by line; the ops' lines never overlap.
  std::vector<LineOp> lineOps;
  llvm::StringMap<llvm::SmallVector<NameDef, 1>> names;
  /// Per line: blank or comment trivia between ops (or before the first
  /// line of code), where an edit that keeps it so changes no token.
  std::vector<bool> gapLines;
  /// Printed types for the scratch buffer's definitions.
  llvm::DenseMap<mlir::Type, std::string> typeSpellings;
  std::string fallbackReason;
  double verifyMs = 0;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_INCREMENTALPARSE_H
