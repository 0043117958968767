//===- DocumentState.h - one document, parsed and compiled ------*- C++ -*-===//
//
// Two immutable snapshots of an open document:
//
//  - ParsedDocument: the text parsed and verified (ir/), its diagnostics
//    with exact LSP ranges, and indexes built once so that every request is
//    a binary search: ops sorted by source position (with their Conductor
//    tags) and every SSA name occurrence (definitions and uses).
//  - CompiledDocument: the backend pipeline run on a clone of a
//    ParsedDocument's module (pipeline/) and the per-instruction
//    annotations of the compiled programs (analysis/), keyed by the
//    ParsedDocument's op indexes.
//
// Threading: both are built once and never change. A CompiledDocument may
// be built on a worker thread from a ParsedDocument that the main thread
// keeps reading (the pipeline only reads its input and works on a clone);
// the MLIRContext is shared (uniquing is thread-safe) and diagnostics are
// captured per thread. Hold them in shared_ptr<const ...> to hand a
// snapshot to a worker.
//
// Staleness rule: a CompiledDocument describes exactly one text. Features
// use it only when `CompiledDocument::isFor(parsed)` holds (same version and
// same text); then op identity is the op index, which is the same in both
// because the text is. Otherwise they show nothing that needs it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_DOCUMENTSTATE_H
#define WAVEASM_SERVER_DOCUMENTSTATE_H

#include "protocol/LspTypes.h"
#include "server/Settings.h"

#include "analysis/Annotations.h"
#include "pipeline/CompileAndMeasure.h"

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace waveasm::server {

struct RawDiagnostic; // DiagnosticCapture.h

//===----------------------------------------------------------------------===//
// Positions
//===----------------------------------------------------------------------===//

/// Line starts of a text and conversions between byte offsets and LSP
/// positions (UTF-16 code units; invalid UTF-8 counts one unit per byte).
class LineTable {
public:
  explicit LineTable(llvm::StringRef text);

  unsigned getNumLines() const { return lineStarts.size(); }
  /// The line's text without its line break.
  llvm::StringRef getLine(unsigned line) const;
  size_t getLineStart(unsigned line) const { return lineStarts[line]; }

  /// Byte offset of `pos`; clamped to the line's end and the text's end.
  size_t getOffset(lsp::Position pos) const;
  lsp::Position getPosition(size_t offset) const;
  /// Same, starting the line search at `hint` (updated): converting
  /// offsets in ascending order then costs no binary search.
  lsp::Position getPosition(size_t offset, unsigned &hint) const;
  bool isAsciiLine(unsigned line) const { return asciiLine[line]; }
  llvm::StringRef getText() const { return text; }

private:
  llvm::StringRef text;
  std::vector<size_t> lineStarts;
  /// Per line: only ASCII bytes (UTF-16 column = byte column).
  std::vector<bool> asciiLine;
};

/// UTF-16 code units in `utf8` (a 4-byte sequence counts two).
int utf16Length(llvm::StringRef utf8);
/// Byte length of the prefix of `utf8` spanning `units` UTF-16 code units.
size_t utf8OffsetOfUtf16(llvm::StringRef utf8, int units);

//===----------------------------------------------------------------------===//
// ParsedDocument
//===----------------------------------------------------------------------===//

/// An op of a program as written. `ParsedDocument::getOps` holds one per
/// op nested in a `waveasm.program` (the programs included), sorted by the
/// position of the op name.
struct OpEntry {
  mlir::Operation *op = nullptr;
  llvm::SMRange nameLoc;  // the op name
  llvm::SMRange scopeLoc; // the whole definition, regions included
  lsp::Range name;
  lsp::Range scope;
  unsigned program = 0;    // index into ParsedDocument::getPrograms()
  unsigned parent = kNone; // entry of the enclosing op (kNone for programs)
  int tag = -1;            // Conductor tag (getConductorTag), -1 if none

  static constexpr unsigned kNone = ~0u;
};

/// An SSA name as written: a result group (`%x` or `%x:2`) or a block
/// argument, with its definition and every use. Uses of `%x#1` are uses of
/// the group `%x` (their range covers `%x`).
struct ValueEntry {
  llvm::StringRef name; // "%x", as written (in the text)
  lsp::Range def;
  llvm::ArrayRef<lsp::Range> uses; // in source order
  mlir::Value value;               // first value of the group
  unsigned numValues = 1;          // results in the group
  unsigned owner = OpEntry::kNone; // defining op entry (block args: owner)
  bool isBlockArg = false;
};

/// One occurrence of a name (definition or use), for position lookups.
struct NameOccurrence {
  lsp::Range range;
  unsigned value = 0; // index into ParsedDocument::getValues()
  bool isDef = false;
};

class ParsedDocument {
public:
  /// Parses and verifies `text`. Never fails: errors become diagnostics and
  /// the module is null when the text does not parse. When it parses but
  /// does not verify, the module and indexes are kept for navigation and
  /// `isVerified()` is false (the pipeline must not run on it).
  ParsedDocument(mlir::MLIRContext &context, std::string uri, std::string text,
                 int64_t version, const ServerSettings &settings = {});
  ~ParsedDocument();
  ParsedDocument(const ParsedDocument &) = delete;
  ParsedDocument &operator=(const ParsedDocument &) = delete;

  const std::string &getURI() const { return uri; }
  int64_t getVersion() const { return version; }
  llvm::StringRef getText() const { return text; }
  /// Hash of the text, to recognise an identical text.
  size_t getTextHash() const { return textHash; }
  mlir::MLIRContext &getContext() const { return *context; }

  /// Null when parsing failed.
  mlir::ModuleOp getModule() const { return module ? *module : nullptr; }
  bool isVerified() const { return verified; }
  /// Parse and verification diagnostics.
  const std::vector<lsp::Diagnostic> &getDiagnostics() const {
    return diagnostics;
  }
  const mlir::AsmParserState &getAsmState() const { return *asmState; }
  const llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }
  const LineTable &getLines() const { return lines; }

  /// Milliseconds spent parsing and verifying, for the logs.
  double getParseMs() const { return parseMs; }
  double getVerifyMs() const { return verifyMs; }

  //===--- positions ------------------------------------------------------===//

  llvm::SMLoc getSMLoc(lsp::Position pos) const;
  lsp::Position getPosition(llvm::SMLoc loc) const;
  lsp::Range getRange(llvm::SMRange range) const;
  /// Same with a line hint (LineTable::getPosition).
  lsp::Range getRange(llvm::SMRange range, unsigned &hint) const;
  /// The range of the source token at `loc` (an identifier with its sigil,
  /// a string, a number, else one character), for diagnostics.
  lsp::Range getTokenRange(llvm::SMLoc loc) const;
  /// The range of `loc` if it is (or wraps) a location in this document,
  /// as a token range; else, for ops whose location was written explicitly
  /// (`loc("I12")`), the name of the op with that location, if unique.
  std::optional<lsp::Range> getRange(mlir::Location loc) const;
  /// An MLIR diagnostic as an LSP one; notes become related information.
  /// Diagnostics located nowhere in this document go to its first line.
  lsp::Diagnostic toLspDiagnostic(const RawDiagnostic &diag) const;

  //===--- ops ------------------------------------------------------------===//
  //
  // Built on first use (thread-safe), like the names below: the diagnostics
  // are published before it exists, and the first user is usually the
  // background compile on the worker.

  llvm::ArrayRef<OpEntry> getOps() const { return opIndexes().ops; }
  /// Entry indexes of the programs, in module order.
  llvm::ArrayRef<unsigned> getPrograms() const { return opIndexes().programs; }
  std::optional<unsigned> lookupOp(mlir::Operation *op) const;
  /// Entries whose op name starts on lines [firstLine, lastLine]:
  /// [begin, end) indexes into getOps().
  std::pair<unsigned, unsigned> getOpsOnLines(int firstLine,
                                              int lastLine) const;
  /// The innermost op whose scope contains `pos` (kNone if none).
  unsigned findOpAt(lsp::Position pos) const;
  /// The op whose name contains `pos` (kNone if none).
  unsigned findOpNameAt(lsp::Position pos) const;

  //===--- names ----------------------------------------------------------===//
  //
  // Built on first use (thread-safe): diagnostics are published without
  // waiting for the name index.

  llvm::ArrayRef<ValueEntry> getValues() const { return names().values; }
  /// Sorted by position.
  llvm::ArrayRef<NameOccurrence> getOccurrences() const {
    return names().occurrences;
  }
  /// The name occurrence at `pos` (touching either end), if any.
  const NameOccurrence *findOccurrenceAt(lsp::Position pos) const;
  /// The value entry defining `value` (a result group or block argument).
  std::optional<unsigned> lookupValue(mlir::Value value) const;

  //===--- liveness -------------------------------------------------------===//

  /// Liveness (analysis/Liveness.h) of program `program` (an index into
  /// getPrograms()) as written, built for every program on first use
  /// (thread-safe): waveasm/liveAt, the peak hover and the liveThrough
  /// lint of one version share it. Null when the text did not parse.
  const Liveness *getLiveness(unsigned program) const;

private:
  struct OpIndex {
    std::vector<OpEntry> ops;
    std::vector<unsigned> programs;
    llvm::DenseMap<mlir::Operation *, unsigned> opIndex;
    /// Ops whose location is not a position in this text (`loc("I12")`),
    /// by location, for diagnostics located there; kNone if not unique.
    llvm::DenseMap<mlir::Location, unsigned> opsByLocation;
  };
  struct NameIndex {
    std::vector<ValueEntry> values;
    std::vector<lsp::Range> useRanges; // ValueEntry::uses point here
    std::vector<NameOccurrence> occurrences;
    llvm::DenseMap<mlir::Value, unsigned> valueIndex;
  };

  void parse();
  void buildOpIndex(OpIndex &index) const;
  const OpIndex &opIndexes() const;
  void buildNameIndex(NameIndex &index) const;
  const NameIndex &names() const;

  mlir::MLIRContext *context;
  std::string uri;
  std::string text;
  int64_t version;
  size_t textHash;
  llvm::SourceMgr sourceMgr;
  LineTable lines;
  std::unique_ptr<mlir::AsmParserState> asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  bool verified = false;
  std::vector<lsp::Diagnostic> diagnostics;
  double parseMs = 0, verifyMs = 0;

  mutable std::once_flag opsOnce;
  mutable OpIndex opIndex; // written once, under opsOnce
  mutable std::once_flag namesOnce;
  mutable NameIndex nameIndex; // written once, under namesOnce
  mutable std::once_flag livenessOnce;
  // Written once, under livenessOnce; one per program.
  mutable std::vector<std::unique_ptr<ProgramIndex>> programIndexes;
  mutable std::vector<std::unique_ptr<Liveness>> programLiveness;
};

/// MLIR's parser recurses once (several frames) per nesting level of
/// regions, types and attributes; a pathological text would overflow the
/// stack of the thread parsing it. Real kernels nest less than 10 deep.
constexpr int kMaxNesting = 256;
/// Where the bracket nesting outside comments and strings first exceeds
/// `kMaxNesting`, if it does (such a text is not parsed).
std::optional<size_t> findExcessiveNesting(llvm::StringRef text);

/// A name as written (`%x`, `^bb0`), from its definition's source range.
inline llvm::StringRef
spellingOf(const mlir::AsmParserState::SMDefinition &def) {
  return llvm::StringRef(def.loc.Start.getPointer(),
                         def.loc.End.getPointer() - def.loc.Start.getPointer());
}

/// Whether the Conductor may move `op` (not pinned, emits an instruction,
/// no regions).
bool isSchedulable(mlir::Operation *op);
/// Conductor tags of every op of `block`, in block order: the op's index
/// in its block (conductor/Tags.h's numbering, pinned and pseudo ops
/// included since moves use them as anchors).
std::vector<int> computeConductorTags(mlir::Block &block);
std::string formatConductorTag(int tag); // "I17"

//===----------------------------------------------------------------------===//
// CompiledDocument
//===----------------------------------------------------------------------===//

/// A clone of `input` whose programs target `target` (the `target`
/// setting), or null without an override (use `input` itself); `mapping`
/// takes input -> clone.
mlir::OwningOpRef<mlir::ModuleOp>
cloneWithTargetOverride(mlir::ModuleOp input, std::optional<TargetKind> target,
                        mlir::IRMapping &mapping);

/// The background compile also emits assembly, for `waveasm/assembly` and
/// the op <-> assembly line maps (about a third of the compile's cost).
constexpr bool kEmitAssemblyInServer = true;

/// What the pipeline and the analyses say about one input op.
struct CompiledOpInfo {
  mlir::Operation *compiled = nullptr;        // its counterpart in the clone
  const InstAnnotation *annotation = nullptr; // of the compiled op
  unsigned program = 0;                       // into getPrograms()
  /// Cycles waited in the ops the pipeline inserted right before this op
  /// (waits, nops), program timeline and steady state.
  int64_t insertedStall = 0;
  int64_t insertedSteadyStall = 0;
  /// Inserted waits and nops right before this op.
  llvm::SmallVector<mlir::Operation *, 2> insertedBefore;
};

struct CompiledProgramInfo {
  unsigned entry = 0; // the program's op entry in the ParsedDocument
  CompiledProgram result;
  std::unique_ptr<ProgramAnnotations> annotations;
};

class CompiledDocument {
public:
  /// Compiles a clone of `parsed`'s module with `settings`' target
  /// overrides. Never fails: pipeline errors become diagnostics located at
  /// the input ops (`succeeded()` is then false). An unverified or
  /// unparsed document compiles to nothing.
  CompiledDocument(const ParsedDocument &parsed,
                   const ServerSettings &settings);
  ~CompiledDocument();
  CompiledDocument(const CompiledDocument &) = delete;
  CompiledDocument &operator=(const CompiledDocument &) = delete;

  int64_t getVersion() const { return version; }
  /// True when this describes `parsed`'s text (see the staleness rule).
  bool isFor(const ParsedDocument &parsed) const {
    return parsed.getVersion() == version && parsed.getTextHash() == textHash;
  }
  bool succeeded() const { return ok; }
  /// True when this was compiled with `settings`' target and TargetModel
  /// overrides (a settings change re-parses, but the previous compile stays
  /// current for the same text until the new one lands).
  bool compiledWith(const ServerSettings &settings) const {
    return settings.targetOverride == targetOverride &&
           settings.targetModelOverrides == modelOverrides &&
           settings.optimizePipeline == optimizePipeline;
  }
  /// Pipeline errors (the lints are computed by computeLints).
  const std::vector<lsp::Diagnostic> &getDiagnostics() const {
    return diagnostics;
  }
  /// The compiled clone (null if compilation failed).
  mlir::ModuleOp getCompiledModule() const {
    return compiled ? *compiled : nullptr;
  }
  const std::vector<CompiledProgramInfo> &getPrograms() const {
    return programsInfo;
  }
  /// By op entry index of the ParsedDocument; null if the op has no
  /// compiled counterpart or compilation failed.
  const CompiledOpInfo *lookup(unsigned opEntry) const;
  /// The input op entry a compiled op came from (nullopt: inserted).
  std::optional<unsigned> lookupCompiled(mlir::Operation *compiledOp) const;

  /// Milliseconds spent compiling and analysing, for the logs.
  double getCompileMs() const { return compileMs; }
  double getAnalyzeMs() const { return analyzeMs; }

private:
  void addAllocationFailureNotes(const ParsedDocument &parsed);

  int64_t version;
  size_t textHash;
  std::optional<TargetKind> targetOverride;
  std::vector<std::string> modelOverrides;
  bool optimizePipeline = true;
  bool ok = false;
  std::vector<lsp::Diagnostic> diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> compiled;
  std::vector<CompiledProgramInfo> programsInfo;
  std::vector<CompiledOpInfo> opInfo; // by op entry; compiled == null: none
  llvm::DenseMap<mlir::Operation *, unsigned> entryOfCompiled;
  double compileMs = 0, analyzeMs = 0;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_DOCUMENTSTATE_H
