//===- IncrementalParseTest.cpp - one-op re-parse equals a full parse -----===//
//
// IncrementalModel's contract is exactness: whenever `update` returns
// diagnostics, they (and the spliced module) must be what a full
// ParsedDocument of the new text gives. The main test applies random
// single edits to real kernels and compares every fast-path result with a
// full parse; the others pin down verifier errors, their ranges and the
// cases that must decline.
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"
#include "TestPaths.h"

#include "protocol/LspJSON.h"
#include "server/IncrementalParse.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <random>
#include <regex>

using namespace waveasm;
using namespace waveasm::server;

namespace {

constexpr const char *kURI = "file:///t.mlir";

/// Diagnostics as the JSON the server would publish: compares severity,
/// message, range, source, code and related information at once, and
/// prints readably when they differ.
std::string toJSONString(const std::vector<lsp::Diagnostic> &diags) {
  llvm::json::Array array;
  for (const lsp::Diagnostic &diag : diags)
    array.push_back(lsp::toJSON(diag));
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(array))).str();
}

/// The module in generic form with locations: two modules print the same
/// only if they have the same ops, attributes, types and source locations.
std::string printModule(mlir::ModuleOp module) {
  if (!module)
    return "<null module>";
  std::string out;
  llvm::raw_string_ostream os(out);
  module->print(os,
                mlir::OpPrintingFlags().enableDebugInfo().printGenericOpForm());
  return out;
}

/// The first line where `a` and `b` differ, both versions, for failure
/// messages (the whole module would drown the difference).
std::string firstDifference(llvm::StringRef a, llvm::StringRef b) {
  llvm::SmallVector<llvm::StringRef> la, lb;
  a.split(la, '\n');
  b.split(lb, '\n');
  for (size_t i = 0, e = std::max(la.size(), lb.size()); i < e; ++i) {
    llvm::StringRef x = i < la.size() ? la[i] : "<end>";
    llvm::StringRef y = i < lb.size() ? lb[i] : "<end>";
    if (x != y)
      return llvm::formatv("line {0}:\n  incremental: {1}\n  full:        {2}",
                           i + 1, x, y)
          .str();
  }
  return "no difference";
}

std::vector<std::string> splitLines(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, '\n');
  return {parts.begin(), parts.end()};
}

std::string joinLines(const std::vector<std::string> &lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i)
      out += '\n';
    out += lines[i];
  }
  return out;
}

unsigned countLines(llvm::StringRef text) { return text.count('\n') + 1; }

/// The part of a line before its `//` comment (kernels have no strings
/// containing `//`).
llvm::StringRef codeOf(llvm::StringRef line) {
  return line.substr(0, line.find("//"));
}

bool isCommentLine(llvm::StringRef line) {
  return line.ltrim().starts_with("//");
}

/// A line that starts an op of a program body: `%r = waveasm.x ...` or
/// `waveasm.x ...` (not a program header, which has no leading indent).
bool isOpLine(llvm::StringRef line) {
  llvm::StringRef code = codeOf(line);
  if (!code.starts_with(" "))
    return false;
  code = code.ltrim();
  return code.starts_with("waveasm.") ||
         (code.starts_with("%") && code.contains("= waveasm."));
}

/// Ops with the same operand and result syntax: swapping one for another
/// re-parses to an op with the same results (same names and types), so
/// the fast path should take the edit. Some swaps make the op invalid
/// (MFMA accumulator sizes): those verifier errors go through the fast
/// path too.
const std::vector<std::vector<std::string>> &swapGroups() {
  static const std::vector<std::vector<std::string>> groups = {
      // VALU binary (VALUBinaryOp).
      {"v_add_u32", "v_sub_u32", "v_and_b32", "v_or_b32", "v_xor_b32",
       "v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32", "v_mul_lo_u32",
       "v_add_f32", "v_sub_f32", "v_mul_f32", "v_max_f32", "v_min_f32",
       "v_min_u32", "v_max_u32"},
      // VALU ternary.
      {"v_fma_f32", "v_lshl_add_u32", "v_bfe_u32", "v_bfe_i32", "v_add3_u32",
       "v_lshl_or_b32", "v_med3_f32", "v_bfi_b32"},
      // VALU unary.
      {"v_exp_f32", "v_log_f32", "v_rcp_f32", "v_sqrt_f32", "v_rsq_f32",
       "v_cvt_f32_i32", "v_cvt_f32_u32", "v_not_b32"},
      // SALU binary writing SCC.
      {"s_add_u32", "s_sub_u32", "s_add_i32", "s_lshl_b32", "s_lshr_b32",
       "s_and_b32", "s_or_b32", "s_xor_b32", "s_min_u32", "s_max_u32"},
      // SALU binary.
      {"s_mul_i32", "s_mul_hi_u32"},
      // SALU compares.
      {"s_cmp_lt_u32", "s_cmp_ne_u32", "s_cmp_eq_u32", "s_cmp_ge_u32",
       "s_cmp_gt_u32"},
      // MFMA with 4 and 16 accumulator registers (cross swaps: verifier
      // errors).
      {"v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x32_f16",
       "v_mfma_f32_16x16x16_bf16", "v_mfma_f32_16x16x32_bf16",
       "v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8_bf16"},
      // Memory ops of the same syntax, different widths.
      {"buffer_load_dword", "buffer_load_dwordx2", "buffer_load_dwordx4"},
      {"buffer_store_dword", "buffer_store_dwordx2", "buffer_store_dwordx4"},
      {"ds_read_b32", "ds_read_b64", "ds_read_b128"},
      {"ds_write_b32", "ds_write_b64", "ds_write_b128"},
  };
  return groups;
}

enum class EditKind {
  OpcodeSwap,
  OperandSwap,
  Constant,
  Comment,
  BlankLine,
  Rename,
  DeleteChar,
};
constexpr unsigned kNumKinds = 7;

const char *kindName(EditKind kind) {
  switch (kind) {
  case EditKind::OpcodeSwap:
    return "opcode swap";
  case EditKind::OperandSwap:
    return "operand swap";
  case EditKind::Constant:
    return "constant";
  case EditKind::Comment:
    return "comment";
  case EditKind::BlankLine:
    return "blank line";
  case EditKind::Rename:
    return "rename";
  case EditKind::DeleteChar:
    return "delete char";
  }
  return "?";
}

/// Kinds the fast path should take (most of the time).
bool shouldHit(EditKind kind) {
  return kind == EditKind::OpcodeSwap || kind == EditKind::Constant ||
         kind == EditKind::Comment;
}

struct Edit {
  EditKind kind;
  std::string text;        // the whole new text
  unsigned line = 0;       // 0-based line edited
  std::string description; // what changed, for failure messages
};

/// Makes random single edits of a text that parses (`doc`).
class EditMaker {
public:
  explicit EditMaker(std::mt19937 &rng) : rng(rng) {}

  std::optional<Edit> make(EditKind kind, const ParsedDocument &doc) {
    std::string text = doc.getText().str();
    switch (kind) {
    case EditKind::OpcodeSwap:
      return opcodeSwap(text);
    case EditKind::OperandSwap:
      return operandSwap(text, doc);
    case EditKind::Constant:
      return constant(text);
    case EditKind::Comment:
      return comment(text);
    case EditKind::BlankLine:
      return blankLine(text);
    case EditKind::Rename:
      return rename(text, doc);
    case EditKind::DeleteChar:
      return deleteChar(text);
    }
    return std::nullopt;
  }

private:
  size_t pick(size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  }

  template <typename T> const T &pickFrom(const std::vector<T> &v) {
    return v[pick(v.size())];
  }

  std::optional<Edit> replaceInLine(EditKind kind, const std::string &text,
                                    unsigned line, size_t column, size_t length,
                                    llvm::StringRef replacement) {
    std::vector<std::string> lines = splitLines(text);
    std::string before = lines[line];
    lines[line].replace(column, length, replacement.str());
    Edit edit{
        kind, joinLines(lines), line,
        llvm::formatv("line {0}: `{1}` -> `{2}`", line + 1, before, lines[line])
            .str()};
    return edit;
  }

  /// (i) Another op of the same syntax on an op line.
  std::optional<Edit> opcodeSwap(const std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    struct Site {
      unsigned line;
      size_t column, length;
      const std::vector<std::string> *group;
    };
    std::vector<Site> sites;
    for (auto [i, line] : llvm::enumerate(lines)) {
      if (!isOpLine(line))
        continue;
      size_t at = line.find("waveasm.");
      if (at == std::string::npos)
        continue;
      at += strlen("waveasm.");
      size_t end = line.find(' ', at);
      if (end == std::string::npos)
        continue;
      std::string name = line.substr(at, end - at);
      for (const std::vector<std::string> &group : swapGroups())
        if (llvm::is_contained(group, name))
          sites.push_back({static_cast<unsigned>(i), at, end - at, &group});
    }
    if (sites.empty())
      return std::nullopt;
    const Site &site = pickFrom(sites);
    std::string old = lines[site.line].substr(site.column, site.length);
    std::string replacement;
    do
      replacement = pickFrom(*site.group);
    while (replacement == old);
    return replaceInLine(EditKind::OpcodeSwap, text, site.line, site.column,
                         site.length, replacement);
  }

  /// (ii) An operand replaced by another name defined earlier in the text:
  /// half the time one of the same type (usually valid), else any (type
  /// mismatches, results of nested regions, `%x#1` on a single result...).
  std::optional<Edit> operandSwap(const std::string &text,
                                  const ParsedDocument &doc) {
    llvm::ArrayRef<ValueEntry> values = doc.getValues();
    const LineTable &lines = doc.getLines();
    std::vector<std::pair<lsp::Range, unsigned>> uses;
    for (const NameOccurrence &occ : doc.getOccurrences())
      if (!occ.isDef && occ.range.start.line == occ.range.end.line)
        uses.emplace_back(occ.range, occ.value);
    if (uses.empty())
      return std::nullopt;
    auto [range, valueIndex] = pickFrom(uses);
    const ValueEntry &used = values[valueIndex];
    bool sameType = pick(2) == 0;
    std::vector<std::string> candidates;
    for (const ValueEntry &v : values) {
      if (!(v.def.start < range.start) || v.name == used.name)
        continue;
      if (sameType && (v.value.getType() != used.value.getType() ||
                       v.numValues != 1 || used.numValues != 1))
        continue;
      candidates.push_back(v.name.str());
    }
    if (candidates.empty())
      return std::nullopt;
    size_t start = lines.getOffset(range.start),
           end = lines.getOffset(range.end);
    size_t lineStart = lines.getLineStart(range.start.line);
    return replaceInLine(EditKind::OperandSwap, text, range.start.line,
                         start - lineStart, end - start, pickFrom(candidates));
  }

  /// (iii) An integer of an op changed: a constant's value, an `offset`
  /// attribute or clause, an extract/insert index. Result types stay.
  std::optional<Edit> constant(const std::string &text) {
    static const std::regex patterns[] = {
        std::regex(R"(waveasm\.constant (-?\d+))"),
        std::regex(R"(offset = (\d+))"),
        std::regex(R"(offset : (\d+))"),
        std::regex(R"(waveasm\.(?:extract|insert) [^\[]*\[(\d+)\])"),
    };
    std::vector<std::string> lines = splitLines(text);
    struct Site {
      unsigned line;
      size_t column, length;
      long long value;
    };
    std::vector<Site> sites;
    for (auto [i, line] : llvm::enumerate(lines)) {
      if (!isOpLine(line))
        continue;
      std::string code = codeOf(line).str();
      for (const std::regex &re : patterns)
        for (std::sregex_iterator it(code.begin(), code.end(), re), e; it != e;
             ++it)
          sites.push_back(
              {static_cast<unsigned>(i), static_cast<size_t>(it->position(1)),
               static_cast<size_t>(it->length(1)), std::stoll(it->str(1))});
    }
    if (sites.empty())
      return std::nullopt;
    const Site &site = pickFrom(sites);
    long long value;
    switch (pick(4)) {
    case 0:
      value = site.value + 1;
      break;
    case 1:
      value = site.value * 2 + 3;
      break;
    case 2:
      value = static_cast<long long>(pick(5000)); // may be out of range
      break;
    default:
      value = 0;
      break;
    }
    if (value == site.value)
      ++value;
    return replaceInLine(EditKind::Constant, text, site.line, site.column,
                         site.length, std::to_string(value));
  }

  /// (iv) Text typed inside a comment: a comment line, or the trailing
  /// comment of an op line.
  std::optional<Edit> comment(const std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    std::vector<std::pair<unsigned, size_t>> sites; // line, column of `//`
    for (auto [i, line] : llvm::enumerate(lines)) {
      size_t at = line.find("//");
      if (at != std::string::npos)
        sites.emplace_back(i, at);
    }
    if (sites.empty())
      return std::nullopt;
    auto [line, at] = pickFrom(sites);
    size_t column = at + 2 + pick(lines[line].size() - at - 1);
    static const char *words[] = {" x",   "TODO ", " %v = waveasm.bogus",
                                  " } {", "é",     " 42"};
    return replaceInLine(EditKind::Comment, text, line, column, 0,
                         words[pick(std::size(words))]);
  }

  /// (v) A blank line inserted anywhere: the line count changes.
  std::optional<Edit> blankLine(const std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    unsigned line = pick(lines.size());
    lines.insert(lines.begin() + line, pick(2) ? "" : "  ");
    return Edit{
        EditKind::BlankLine, joinLines(lines), line,
        llvm::formatv("blank line inserted before line {0}", line + 1).str()};
  }

  /// (vi) A definition renamed (results or block arguments).
  std::optional<Edit> rename(const std::string &text,
                             const ParsedDocument &doc) {
    std::vector<lsp::Range> defs;
    for (const NameOccurrence &occ : doc.getOccurrences())
      if (occ.isDef)
        defs.push_back(occ.range);
    if (defs.empty())
      return std::nullopt;
    lsp::Range range = pickFrom(defs);
    const LineTable &lines = doc.getLines();
    size_t start = lines.getOffset(range.start),
           end = lines.getOffset(range.end);
    size_t lineStart = lines.getLineStart(range.start.line);
    return replaceInLine(EditKind::Rename, text, range.start.line,
                         start - lineStart, end - start,
                         "%renamed" + std::to_string(++renames));
  }

  /// (vii) A character an op cannot lose deleted: `=`, `:`, `%`, or the
  /// `w` of `waveasm.`.
  std::optional<Edit> deleteChar(const std::string &text) {
    std::vector<std::string> lines = splitLines(text);
    std::vector<std::pair<unsigned, size_t>> sites;
    for (auto [i, line] : llvm::enumerate(lines)) {
      if (!isOpLine(line))
        continue;
      llvm::StringRef code = codeOf(line);
      for (size_t c = 0; c < code.size(); ++c)
        if (code[c] == '=' || code[c] == ':' || code[c] == '%' ||
            code.substr(c).starts_with("waveasm."))
          sites.emplace_back(i, c);
    }
    if (sites.empty())
      return std::nullopt;
    auto [line, column] = pickFrom(sites);
    return replaceInLine(EditKind::DeleteChar, text, line, column, 1, "");
  }

  std::mt19937 &rng;
  unsigned renames = 0;
};

std::vector<std::string> exampleFiles() {
  std::vector<std::string> files;
  // The project's examples, and upstream's where ../shared is checked out.
  for (const char *dir :
       {waveasm::test::examplesDir(), waveasm::test::sharedExamplesDir()}) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".mlir"))
        files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  // More kernels for a longer run (bench/gen_waveasm.py output, say):
  // colon-separated paths.
  if (const char *extra = getenv("WAVEASM_INCREMENTAL_FILES")) {
    llvm::SmallVector<llvm::StringRef> paths;
    llvm::StringRef(extra).split(paths, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef path : paths)
      files.push_back(path.str());
  }
  return files;
}

/// An unsigned from the environment (soak runs), else `fallback`.
unsigned envOr(const char *name, unsigned fallback) {
  const char *value = getenv(name);
  unsigned parsed;
  if (!value || llvm::StringRef(value).getAsInteger(10, parsed))
    return fallback;
  return parsed;
}

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return {};
  return (*buffer)->getBuffer().str();
}

/// Checks `fast` (an update's result) against a full parse `full` of the
/// same text and `model`'s module against full's. Returns false (after
/// reporting) on a mismatch.
bool expectSameAsFull(const std::vector<lsp::Diagnostic> &fast,
                      const IncrementalModel &model, const ParsedDocument &full,
                      const std::string &context) {
  bool ok = true;
  std::string fastJSON = toJSONString(fast);
  std::string fullJSON = toJSONString(full.getDiagnostics());
  if (fastJSON != fullJSON) {
    ADD_FAILURE() << context
                  << "\ndiagnostics differ:\n  incremental: " << fastJSON
                  << "\n  full:        " << fullJSON;
    ok = false;
  }
  if (model.getText() != full.getText()) {
    ADD_FAILURE() << context << "\nthe model's text is not the new text";
    ok = false;
  }
  std::string fastModule = printModule(model.getModule());
  std::string fullModule = printModule(full.getModule());
  if (fastModule != fullModule) {
    ADD_FAILURE() << context << "\nmodules differ at "
                  << firstDifference(fastModule, fullModule);
    ok = false;
  }
  return ok;
}

struct KindStats {
  unsigned tried = 0, hit = 0;
  /// Why the edits declined, for the log.
  std::map<std::string, unsigned> reasons;
};

} // namespace

//===--- randomized equivalence with the full parse -----------------------===//

TEST(IncrementalParse, RandomEditsMatchFullParse) {
  std::vector<std::string> files = exampleFiles();
  ASSERT_FALSE(files.empty());
  mlir::MLIRContext ctx;
  // Fixed by default; WAVEASM_INCREMENTAL_SEED and _EDITS make soak runs.
  std::mt19937 rng(envOr("WAVEASM_INCREMENTAL_SEED", 20261121));
  EditMaker maker(rng);
  // Weights of the edit kinds, in EditKind order: mostly edits the fast
  // path should take, enough of the others to exercise every decline.
  std::discrete_distribution<unsigned> kindDist({30, 20, 15, 15, 7, 7, 6});
  const unsigned kEditsPerFile = envOr("WAVEASM_INCREMENTAL_EDITS", 150);
  constexpr int kMaxFailuresPerFile = 10;

  KindStats stats[kNumKinds];
  unsigned parseErrors = 0, deletionsThatParsed = 0, filesUsed = 0;
  for (const std::string &path : files) {
    std::string source = readFile(path);
    ASSERT_FALSE(source.empty()) << path;
    int64_t version = 1;
    auto current = std::make_unique<ParsedDocument>(ctx, kURI, source, version);
    std::unique_ptr<IncrementalModel> model = IncrementalModel::build(*current);
    if (!current->getModule()) {
      // Upstream's invalid_ssa.mlir: nothing to edit incrementally.
      EXPECT_FALSE(model) << path;
      continue;
    }
    ASSERT_TRUE(model) << path;
    ++filesUsed;
    int failures = 0;
    for (unsigned i = 0; i < kEditsPerFile && failures < kMaxFailuresPerFile;
         ++i) {
      auto kind = static_cast<EditKind>(kindDist(rng));
      std::optional<Edit> edit = maker.make(kind, *current);
      if (!edit)
        continue;
      ++version;
      std::string context =
          llvm::formatv("{0}, edit {1} (v{2}, {3}): {4}",
                        llvm::sys::path::filename(path), i, version,
                        kindName(kind), edit->description)
              .str();
      std::optional<std::vector<lsp::Diagnostic>> fast =
          model->update(edit->text);
      auto full =
          std::make_unique<ParsedDocument>(ctx, kURI, edit->text, version);
      KindStats &kindStats = stats[static_cast<unsigned>(kind)];
      ++kindStats.tried;
      if (fast)
        ++kindStats.hit;
      else
        ++kindStats.reasons[model->getFallbackReason().str()];

      bool parsed = static_cast<bool>(full->getModule());
      if (!parsed)
        ++parseErrors;
      if (kind == EditKind::DeleteChar && parsed)
        ++deletionsThatParsed;
      // Declines the contract demands, whatever the edit claimed to be.
      bool mustDecline =
          !parsed || countLines(edit->text) != countLines(current->getText()) ||
          kind == EditKind::BlankLine || kind == EditKind::Rename;
      if (fast && mustDecline) {
        ADD_FAILURE() << context << "\nthe fast path took an edit it must "
                      << "decline (parsed: " << parsed << ")";
        ++failures;
        fast.reset(); // resynchronise below
      } else if (fast && !expectSameAsFull(*fast, *model, *full, context)) {
        ++failures;
        fast.reset(); // resynchronise below
      }

      if (!fast) {
        // The model is stale: rebuild it from the full parse, or go back
        // to the last text that parsed so that edits keep coming.
        model = IncrementalModel::build(*full);
        if (parsed) {
          ASSERT_TRUE(model) << context;
          EXPECT_EQ(printModule(model->getModule()),
                    printModule(full->getModule()))
              << context << ": build() does not copy the module";
        } else {
          EXPECT_FALSE(model) << context;
          model = IncrementalModel::build(*current);
          ASSERT_TRUE(model) << context;
          continue;
        }
      }
      current = std::move(full);
    }
  }

  std::cout << "[ incremental ] " << filesUsed << " files, " << parseErrors
            << " edits that did not parse, " << deletionsThatParsed
            << " deletions that still parsed\n";
  for (unsigned k = 0; k < kNumKinds; ++k)
    std::cout << "[ incremental ] " << kindName(static_cast<EditKind>(k))
              << ": " << stats[k].hit << "/" << stats[k].tried
              << " on the fast path\n";
  for (unsigned k = 0; k < kNumKinds; ++k)
    for (const auto &[reason, count] : stats[k].reasons)
      std::cout << "[ incremental ]   " << kindName(static_cast<EditKind>(k))
                << " declined " << count << "x: " << reason << "\n";
  for (unsigned k = 0; k < kNumKinds; ++k) {
    auto kind = static_cast<EditKind>(k);
    EXPECT_GT(stats[k].tried, 10u) << kindName(kind);
    if (shouldHit(kind)) {
      // Most of them: a few legitimately decline (an earlier random
      // operand swap can leave a use the model cannot resolve).
      EXPECT_GE(stats[k].hit * 10, stats[k].tried * 8)
          << kindName(kind) << ": " << stats[k].hit << "/" << stats[k].tried
          << " on the fast path";
    }
  }
}

//===--- verifier errors through the fast path ----------------------------===//

namespace {

/// A program with one op per verifier below: a buffer load (instruction
/// offset range), an extract (index range) and an MFMA (accumulator size).
const char *kVerifierBody =
    R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  // a comment line between ops
  %x = waveasm.buffer_load_dword %srd, %tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %lo = waveasm.extract %srd[1] : !waveasm.psreg<4, 4> -> !waveasm.sreg
  %a = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<2, 2>
  %acc = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg<4, 4>
  %d = waveasm.v_mfma_f32_16x16x16_f16 %a, %a, %acc
      : !waveasm.vreg<2, 2>, !waveasm.vreg<2, 2>, !waveasm.vreg<4, 4> -> !waveasm.vreg<4, 4>
  %y = waveasm.v_add_u32 %x, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %tid : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.pvreg<0>
  waveasm.s_endpgm
)";

struct VerifierCase {
  const char *name;
  const char *from, *to; // replaced once in the text
  const char *message;   // expected in the error
  const char *opName;    // the op the error is located at
};

const VerifierCase kVerifierCases[] = {
    {"instOffset",
     "%tid, %c0 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, "
     "!waveasm.imm<0> -> !waveasm.vreg",
     "%tid, %c0 offset : 5000 : !waveasm.psreg<4, 4>, !waveasm.pvreg<0>, "
     "!waveasm.imm<0> -> !waveasm.vreg",
     "'waveasm.buffer_load_dword' op instruction offset 5000 is out of valid "
     "range [0, 4095]",
     "waveasm.buffer_load_dword"},
    {"extractRange", "%srd[1]", "%srd[4]",
     "'waveasm.extract' op extract range [4, 5) exceeds source width 4",
     "waveasm.extract"},
    {"mfmaAccumulator", "waveasm.v_mfma_f32_16x16x16_f16",
     "waveasm.v_mfma_f32_32x32x8_f16",
     "'waveasm.v_mfma_f32_32x32x8_f16' op accumulator size mismatch: expected "
     "16 registers but got 4 for waveasm.v_mfma_f32_32x32x8_f16",
     "waveasm.v_mfma_f32_32x32x8_f16"},
};

std::string replaceOnce(std::string text, llvm::StringRef from,
                        llvm::StringRef to) {
  size_t at = text.find(from.str());
  EXPECT_NE(at, std::string::npos) << from.str();
  if (at != std::string::npos)
    text.replace(at, from.size(), to.str());
  return text;
}

/// 0-based line and UTF-16 column of byte `offset` (ASCII texts).
lsp::Position positionOf(llvm::StringRef text, size_t offset) {
  LineTable lines(text);
  return lines.getPosition(offset);
}

} // namespace

TEST(IncrementalParse, VerifierErrorThroughTheFastPathThenFixed) {
  mlir::MLIRContext ctx;
  std::string good = test::serverProgram(kVerifierBody);
  for (const VerifierCase &c : kVerifierCases) {
    SCOPED_TRACE(c.name);
    ParsedDocument doc0(ctx, kURI, good, 1);
    ASSERT_TRUE(doc0.isVerified()) << toJSONString(doc0.getDiagnostics());
    std::unique_ptr<IncrementalModel> model = IncrementalModel::build(doc0);
    ASSERT_TRUE(model);

    std::string bad = replaceOnce(good, c.from, c.to);
    std::optional<std::vector<lsp::Diagnostic>> broken = model->update(bad);
    ParsedDocument fullBad(ctx, kURI, bad, 2);
    ASSERT_TRUE(fullBad.getModule());
    EXPECT_FALSE(fullBad.isVerified());
    ASSERT_TRUE(broken) << "declined: " << model->getFallbackReason().str();
    ASSERT_FALSE(broken->empty());
    EXPECT_EQ((*broken)[0].message, c.message);
    EXPECT_EQ((*broken)[0].severity, lsp::DiagnosticSeverity::Error);
    expectSameAsFull(*broken, *model, fullBad, c.name);

    std::optional<std::vector<lsp::Diagnostic>> fixed = model->update(good);
    ParsedDocument fullGood(ctx, kURI, good, 3);
    ASSERT_TRUE(fixed) << "declined: " << model->getFallbackReason().str();
    EXPECT_TRUE(fixed->empty()) << toJSONString(*fixed);
    expectSameAsFull(*fixed, *model, fullGood, c.name);
  }
}

//===--- ranges -----------------------------------------------------------===//

TEST(IncrementalParse, DiagnosticRangeIsTheEditedOpName) {
  mlir::MLIRContext ctx;
  std::string good = test::serverProgram(kVerifierBody);
  for (const VerifierCase &c : kVerifierCases) {
    SCOPED_TRACE(c.name);
    ParsedDocument doc0(ctx, kURI, good, 1);
    std::unique_ptr<IncrementalModel> model = IncrementalModel::build(doc0);
    ASSERT_TRUE(model);
    std::string bad = replaceOnce(good, c.from, c.to);
    std::optional<std::vector<lsp::Diagnostic>> diags = model->update(bad);
    ASSERT_TRUE(diags) << "declined: " << model->getFallbackReason().str();
    ASSERT_EQ(diags->size(), 1u) << toJSONString(*diags);
    // The error sits on the op name of the edited line, in this document.
    size_t editAt = bad.find(c.to);
    size_t lineStart = llvm::StringRef(bad).rfind('\n', editAt) + 1;
    size_t nameAt = bad.find(c.opName, lineStart);
    lsp::Position start = positionOf(bad, nameAt);
    EXPECT_EQ(start.line, positionOf(bad, editAt).line);
    lsp::Range expected{
        start,
        {start.line, start.character + static_cast<int>(strlen(c.opName))}};
    EXPECT_EQ((*diags)[0].range, expected) << toJSONString(*diags);
    for (const lsp::DiagnosticRelatedInformation &info : (*diags)[0].related)
      EXPECT_EQ(info.location.uri, kURI);
  }
}

TEST(IncrementalParse, RangesInALargerKernelWithMultiLineOps) {
  // A two-line buffer load far down a real kernel, with comment lines and
  // a loop around: the range must land on its first line.
  mlir::MLIRContext ctx;
  std::string good = readFile(std::string(waveasm::test::examplesDir()) +
                              "/gemm_f16_double_buffer.mlir");
  ASSERT_FALSE(good.empty());
  ParsedDocument doc0(ctx, kURI, good, 1);
  ASSERT_TRUE(doc0.isVerified());
  std::unique_ptr<IncrementalModel> model = IncrementalModel::build(doc0);
  ASSERT_TRUE(model);
  const char *from =
      "%a_nxt = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, %soff#0\n";
  const char *to = "%a_nxt = waveasm.buffer_load_dwordx4 %srd_a, %a_voff, "
                   "%soff#0 offset : 4096\n";
  std::string bad = replaceOnce(good, from, to);
  std::optional<std::vector<lsp::Diagnostic>> diags = model->update(bad);
  ParsedDocument full(ctx, kURI, bad, 2);
  ASSERT_TRUE(diags) << "declined: " << model->getFallbackReason().str();
  ASSERT_EQ(diags->size(), 1u) << toJSONString(*diags);
  expectSameAsFull(*diags, *model, full, "a_nxt offset");
  size_t nameAt = bad.find("waveasm.buffer_load_dwordx4", bad.find(to));
  lsp::Position start = positionOf(bad, nameAt);
  EXPECT_EQ((*diags)[0].range.start, start);
  EXPECT_NE((*diags)[0].message.find("instruction offset 4096"),
            std::string::npos)
      << (*diags)[0].message;
}

//===--- what must decline ------------------------------------------------===//

TEST(IncrementalParse, BuildOnAFailedParseIsNull) {
  mlir::MLIRContext ctx;
  ParsedDocument undeclared(
      ctx, kURI,
      test::serverProgram("  %y = waveasm.v_add_u32 %nope, %nope : "
                          "!waveasm.vreg, !waveasm.vreg -> !waveasm.vreg\n"),
      1);
  ASSERT_FALSE(undeclared.getModule());
  EXPECT_FALSE(IncrementalModel::build(undeclared));

  // Not parsed at all: brackets nested too deep.
  ParsedDocument nested(ctx, kURI, std::string(300, '(') + "\n", 1);
  ASSERT_FALSE(nested.getModule());
  EXPECT_FALSE(IncrementalModel::build(nested));

  // Parsed but not verified: a model (the document is being typed).
  ParsedDocument invalid(
      ctx, kURI,
      replaceOnce(test::serverProgram(kVerifierBody), "%srd[1]", "%srd[4]"), 1);
  ASSERT_TRUE(invalid.getModule());
  ASSERT_FALSE(invalid.isVerified());
  EXPECT_TRUE(IncrementalModel::build(invalid));
}

TEST(IncrementalParse, DeclinesWhatItCannotProve) {
  mlir::MLIRContext ctx;
  std::string good = test::serverProgram(kVerifierBody);
  struct Case {
    const char *name;
    std::string text;
  } cases[] = {
      // A result type changes: later uses would parse differently.
      {"result type", replaceOnce(good,
                                  "%y = waveasm.v_add_u32 %x, %x : "
                                  "!waveasm.vreg, !waveasm.vreg -> "
                                  "!waveasm.vreg",
                                  "%y = waveasm.v_add_u32 %x, %x : "
                                  "!waveasm.vreg, !waveasm.vreg -> "
                                  "!waveasm.sreg")},
      // Two ops edited at once.
      {"two ops", replaceOnce(replaceOnce(good, "%srd[1]", "%srd[2]"),
                              "waveasm.v_add_u32", "waveasm.v_sub_u32")},
      // A forward reference (parses; a dominance error).
      {"forward reference",
       replaceOnce(good, "%lo = waveasm.extract %srd[1] : !waveasm.psreg<4, 4>",
                   "%lo = waveasm.extract %acc[1] : !waveasm.vreg<4, 4>")},
      // Undefined name: a parse error.
      {"undefined name",
       replaceOnce(good, "v_add_u32 %x, %x", "v_add_u32 %x, %nope")},
      // An op split over two lines: the line count changes.
      {"line break", replaceOnce(good, "%x, %x :", "%x, %x\n      :")},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    ParsedDocument doc0(ctx, kURI, good, 1);
    std::unique_ptr<IncrementalModel> model = IncrementalModel::build(doc0);
    ASSERT_TRUE(model);
    std::optional<std::vector<lsp::Diagnostic>> fast = model->update(c.text);
    EXPECT_FALSE(fast) << toJSONString(
        fast.value_or(std::vector<lsp::Diagnostic>{}));
    EXPECT_FALSE(model->getFallbackReason().empty());
  }
}

TEST(IncrementalParse, CommentOnlyEditsChangeNothing) {
  mlir::MLIRContext ctx;
  std::string good = test::serverProgram(kVerifierBody);
  ParsedDocument doc0(ctx, kURI, good, 1);
  std::unique_ptr<IncrementalModel> model = IncrementalModel::build(doc0);
  ASSERT_TRUE(model);
  // Text that would not parse as code, inside a comment line.
  std::string edited = replaceOnce(good, "// a comment line between ops",
                                   "// a comment } { %x = waveasm.bogus");
  std::optional<std::vector<lsp::Diagnostic>> fast = model->update(edited);
  ParsedDocument full(ctx, kURI, edited, 2);
  ASSERT_TRUE(fast) << "declined: " << model->getFallbackReason().str();
  EXPECT_TRUE(fast->empty());
  expectSameAsFull(*fast, *model, full, "comment line");
}

namespace {

/// Whether every operand of an op in `module` is defined in `module`
/// (a model must never point into the snapshot it was built from).
bool operandsStayInside(mlir::ModuleOp module) {
  bool inside = true;
  module->walk([&](mlir::Operation *op) {
    for (mlir::Value operand : op->getOperands()) {
      mlir::Region *region = operand.getParentRegion();
      if (!region || !module->isProperAncestor(region->getParentOp()))
        inside = false;
    }
  });
  return inside;
}

} // namespace

TEST(IncrementalParse, BuildKeepsForwardReferencesInsideTheCopy) {
  // MLIR's parser resolves a name used in one program and defined only in
  // a later one (programs are not isolated from above): the text parses
  // and fails the dominance check. Cloning the module op by op leaves such
  // an operand pointing at the snapshot's value, which the server frees.
  mlir::MLIRContext ctx;
  std::string text =
      test::serverProgram("  %x = waveasm.v_add_u32 %v, %v : !waveasm.vreg, "
                          "!waveasm.vreg -> !waveasm.vreg\n"
                          "  waveasm.s_endpgm\n") +
      test::serverProgram("  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
                          "  %v = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> "
                          "!waveasm.vreg\n"
                          "  waveasm.s_endpgm\n");
  auto full = std::make_unique<ParsedDocument>(ctx, kURI, text, 1);
  ASSERT_TRUE(full->getModule()) << toJSONString(full->getDiagnostics());
  ASSERT_FALSE(full->isVerified());
  std::unique_ptr<IncrementalModel> model = IncrementalModel::build(*full);
  if (!model)
    return; // declining such a text is fine
  EXPECT_TRUE(operandsStayInside(model->getModule()));
  EXPECT_EQ(printModule(model->getModule()), printModule(full->getModule()));
  // The snapshot goes away (as in the server); the model keeps working.
  full.reset();
  std::string edited = replaceOnce(text, "waveasm.constant 0 : !waveasm.imm<0>",
                                   "waveasm.constant 7 : !waveasm.imm<0>");
  std::optional<std::vector<lsp::Diagnostic>> fast = model->update(edited);
  ParsedDocument fullEdited(ctx, kURI, edited, 2);
  if (fast)
    expectSameAsFull(*fast, *model, fullEdited, "after the snapshot is freed");
}

//===--- review counterexamples -------------------------------------------===//

namespace {

/// `from` parses; the model built from it either declines `to` or gives
/// exactly the full parse of `to`.
void expectDeclineOrExact(llvm::StringRef from, llvm::StringRef to,
                          llvm::StringRef context) {
  SCOPED_TRACE(context.str());
  mlir::MLIRContext ctx;
  ParsedDocument doc0(ctx, kURI, from.str(), 1);
  ASSERT_TRUE(doc0.getModule());
  std::unique_ptr<IncrementalModel> model = IncrementalModel::build(doc0);
  ASSERT_TRUE(model);
  std::optional<std::vector<lsp::Diagnostic>> fast = model->update(to);
  ParsedDocument full(ctx, kURI, to.str(), 2);
  if (fast) {
    ASSERT_TRUE(full.getModule()) << "the fast path took a text that does "
                                     "not parse";
    expectSameAsFull(*fast, *model, full, context.str());
  }
}

} // namespace

TEST(IncrementalParse, ToggleCommentOverACommentAndTheOpBelow) {
  // Ctrl+/ at column 0 of a comment line and the op line under it: the
  // old changed bytes end with the comment's '\n', the new ones run into
  // the op's line.
  std::string from = test::serverProgram(
      "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
      "// note\n"
      "  %c1 = waveasm.constant 1 : !waveasm.imm<1>\n"
      "  %v = waveasm.v_mov_b32 %c1 : !waveasm.imm<1> -> !waveasm.vreg\n"
      "  waveasm.s_endpgm\n");
  std::string to = from;
  to.replace(to.find("// note\n"), strlen("// note\n"), "// // note\n// ");
  expectDeclineOrExact(from, to, "toggle comment");
}

TEST(IncrementalParse, CommentInsideAMultiLineAttributeIsNotTrivia) {
  // MLIR scans a `<...>` body for brackets, comments included.
  std::string from = "waveasm.program @k target = "
                     "#waveasm.target<#waveasm.gfx942>\n"
                     "  abi = #waveasm.abi<tid = 0,\n"
                     "    // kernarg pointer\n"
                     "    kernarg = 0> {\n"
                     "  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
                     "  waveasm.s_endpgm\n"
                     "}\n";
  std::string to = from;
  to.replace(to.find("pointer"), strlen("pointer"), "pointer s[0:1]>");
  expectDeclineOrExact(from, to, "comment in <...>");
}

TEST(IncrementalParse, LoneCarriageReturnEndsAComment) {
  std::string from =
      test::serverProgram("  %c0 = waveasm.constant 0 : !waveasm.imm<0>\n"
                          "  //\r\n"
                          "  waveasm.s_endpgm\n");
  std::string to = from;
  to.replace(to.find("//\r\n"), strlen("//\r\n"), "//\r x\n");
  expectDeclineOrExact(from, to, "lone CR");
}
