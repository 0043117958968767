//===- OpLineContext.h - where in an op's text the cursor is ----*- C++ -*-===//
//
// Internal to server/features: completion and signature help read the
// line being typed as text, since it rarely parses. The line is split into
// tokens and matched against the op's declarative assembly format
// (ir/OpSignatures.h), which says whether the cursor is at the op name, at
// the k-th operand, in the attribute dictionary or at the type of an
// operand or result.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_FEATURES_OPLINECONTEXT_H
#define WAVEASM_SERVER_FEATURES_OPLINECONTEXT_H

#include "ir/OpSignatures.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace waveasm::server {

struct LineToken {
  enum Kind {
    Value,  // %x, %x#1, %x:2
    OpName, // waveasm.v_add_u32 (or a bare word where an op name goes)
    Type,   // !waveasm.vreg<4, 4>
    Attr,   // #waveasm.gfx942
    Punct,  // , : = ( ) [ ] { } < > ->
    Word,   // offset, into, 42, -1
    String, // "..."
  } kind;
  llvm::StringRef text;
  size_t begin = 0; // byte offsets in the line
  size_t end = 0;
};

/// Tokens of `line` up to the first `//` comment outside a string.
llvm::SmallVector<LineToken, 16> tokenizeLine(llvm::StringRef line);

struct OpLineContext {
  enum Where {
    Nothing,    // in a comment or string, or nothing to offer
    OpName,     // the op name (typed or about to be)
    ResultName, // naming results, left of `=`
    Operand,    // operand `element` of `op` (or of a custom-syntax op)
    Literal,    // where the format wants a keyword (`into`, `offset`)
    TypeSlot,   // the type of operand `slot` / result slot-kResultTypeBase
    AttrName,   // inside `{ ... }`, before a `=`
    AttrValue,  // inside `{ ... }`, after `name =`
    TypeText,   // a `!`-type where no format says which (loop headers)
    AttrText,   // a `#`-attribute (program headers)
  } where = Nothing;

  /// The partial token before the cursor, and where it starts (bytes).
  llvm::StringRef prefix;
  size_t prefixBegin = 0;

  /// The op on the line, when its name is known.
  const OpSignature *op = nullptr;
  llvm::StringRef opName; // as written, "waveasm.v_add_u32"
  /// Results bound left of `=` (0 if none).
  unsigned numBoundNames = 0;

  /// Operand: the operand index; TypeSlot: operand index or
  /// kResultTypeBase + result index.
  unsigned slot = 0;
  /// Literal: the keywords the format accepts here (one required keyword,
  /// or the keywords of consecutive optional groups).
  llvm::SmallVector<llvm::StringRef, 2> keywords;
  /// The operand values written so far, by operand index ("%x" or "").
  llvm::SmallVector<llvm::StringRef, 4> operandTexts;
  /// Attribute names already in the dictionary.
  llvm::SmallVector<llvm::StringRef, 2> attrsWritten;
};

/// The context at byte `column` of `line`.
OpLineContext analyzeOpLine(llvm::StringRef line, size_t column);

/// The statement around a position: ops are often written over several
/// lines (types on the next line, a loop's inits over three). Line L
/// continues line L-1 when L-1 ends with `,` `(` `=` `:` or `->`, or L
/// starts with `:` `->` `,` `)` or `iter_args`.
struct StatementText {
  bool valid = false;    // false past the document's last line
  std::string text;      // the lines joined by a space, up to the cursor's
  size_t cursor = 0;     // the cursor's byte offset in `text`
  size_t lineInText = 0; // where the cursor's line starts in `text`
  llvm::StringRef line;  // the cursor's line, in the document
  size_t lineOffset = 0; // its start in the document
  size_t column = 0;     // the cursor's byte column in `line`
};
StatementText getStatementAt(llvm::StringRef document, int line,
                             int utf16Character);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_FEATURES_OPLINECONTEXT_H
