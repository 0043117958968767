//===- Completion.cpp - textDocument/completion ---------------------------===//
//
// What may be typed at the cursor, from the op's ODS signature
// (ir/OpSignatures.h) and the text around the cursor (OpLineContext), with
// values from the last text that parsed (ValuesInScope): op names valid in
// the enclosing region and on the program's target, values whose type the
// operand's group accepts, the types an operand or result may have, the
// attributes an op takes. Nothing here waits for a parse.
//
//===----------------------------------------------------------------------===//

#include "server/Completion.h"
#include "server/features/Common.h"
#include "server/features/OpLineContext.h"
#include "server/features/ValuesInScope.h"

#include "analysis/TargetModel.h"
#include "ir/OpSignatures.h"
#include "ir/TargetAvailability.h"
#include "ir/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <mutex>
#include <tuple>

using namespace llvm;
namespace json = llvm::json;

namespace waveasm::server {

//===----------------------------------------------------------------------===//
// Text helpers
//===----------------------------------------------------------------------===//

std::optional<std::pair<StringRef, size_t>> getLineOfText(StringRef text,
                                                          int line) {
  if (line < 0)
    return std::nullopt;
  size_t offset = 0;
  for (int l = 0; l < line; ++l) {
    size_t nl = text.find('\n', offset);
    if (nl == StringRef::npos)
      return std::nullopt;
    offset = nl + 1;
  }
  size_t end = text.find('\n', offset);
  StringRef lineText = text.slice(offset, end);
  lineText.consume_back("\r");
  return std::make_pair(lineText, offset);
}

/// Whether `text` names an op (`waveasm.x` not inside `#waveasm.` or
/// `!waveasm.`).
static bool containsOpName(StringRef text) {
  for (size_t at = text.find("waveasm."); at != StringRef::npos;
       at = text.find("waveasm.", at + 1))
    if (at == 0 || (text[at - 1] != '#' && text[at - 1] != '!'))
      return true;
  return false;
}

EnclosingRegion findEnclosingRegion(StringRef text, size_t offset) {
  EnclosingRegion region;
  offset = std::min(offset, text.size());
  int depth = 0; // closers seen without their opener
  bool innermost = true;
  size_t end = offset;
  while (true) {
    size_t start = text.take_front(end).rfind('\n');
    start = start == StringRef::npos ? 0 : start + 1;
    StringRef line = text.slice(start, end);
    // Most lines have no brace: only those are tokenized.
    if (line.find_first_of("{}") == StringRef::npos) {
      if (start == 0)
        return region;
      end = start - 1;
      continue;
    }
    // Braces outside comments and strings, right to left.
    SmallVector<LineToken, 16> tokens = tokenizeLine(line);
    for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) {
      if (it->kind != LineToken::Punct)
        continue;
      if (it->text == "}") {
        ++depth;
      } else if (it->text == "{" && depth > 0) {
        --depth;
      } else if (it->text == "{") {
        // The op owning the region: a header may span lines (`program`'s
        // target and abi usually do).
        StringRef header = line;
        size_t headerStart = start;
        for (int back = 0;
             back < 16 && !containsOpName(header) && headerStart > 0; ++back) {
          size_t prev = text.take_front(headerStart - 1).rfind('\n');
          prev = prev == StringRef::npos ? 0 : prev + 1;
          header = text.slice(prev, end);
          headerStart = prev;
        }
        auto has = [&](StringRef word) { return header.contains(word); };
        if (has("waveasm.program")) {
          region.inProgram = true;
          size_t at = header.find("#waveasm.gfx");
          if (at != StringRef::npos)
            region.target = parseTargetKind(header.substr(at + 9).take_while(
                [](char c) { return isAlnum(c); }));
          if (innermost)
            region.innermost = EnclosingRegion::Program;
          return region;
        }
        if (innermost) {
          region.innermost = has("waveasm.loop") ? EnclosingRegion::Loop
                             : has("waveasm.if") || has("else")
                                 ? EnclosingRegion::If
                                 : EnclosingRegion::Other;
          innermost = false;
        }
      }
    }
    if (start == 0)
      return region;
    end = start - 1;
  }
}

namespace {

//===----------------------------------------------------------------------===//
// Items
//===----------------------------------------------------------------------===//

/// The cursor and the prefix it ends, as LSP positions.
struct Site {
  StringRef line;
  lsp::Position pos;
  lsp::Range prefixRange;
  OpLineContext ctx;
  EnclosingRegion region;
  const CompletionOptions *options;
};

lsp::CompletionItem makeItem(const Site &site, std::string label,
                             lsp::CompletionItemKind kind,
                             std::string newText = "", bool snippet = false) {
  lsp::CompletionItem item;
  item.kind = kind;
  item.textEdit.range = site.prefixRange;
  item.textEdit.newText = newText.empty() ? label : std::move(newText);
  item.format = snippet ? lsp::InsertTextFormat::Snippet
                        : lsp::InsertTextFormat::PlainText;
  item.label = std::move(label);
  return item;
}

std::string escapeSnippet(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '$' || c == '}' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

/// The type a snippet proposes for an operand or result of `value`'s group.
std::string defaultTypeText(const ValueSig &value) {
  std::string width =
      value.width > 1 ? "<" + std::to_string(value.width) + ">" : "";
  for (unsigned kind : {KindVReg, KindSReg, KindAReg})
    if (value.kinds & kind)
      return "!waveasm." + getRegKindMnemonic(kind).str() + width;
  if (value.kinds & KindImm)
    return "!waveasm.imm<0>";
  if (value.kinds & KindSCC)
    return "!waveasm.scc";
  if (value.kinds & KindPVReg)
    return "!waveasm.pvreg<0" +
           (value.width > 1 ? ", " + std::to_string(value.width)
                            : std::string()) +
           ">";
  return "";
}

/// `src0, src1 -> dst` for details.
std::string formatShape(const OpSignature &sig) {
  std::string out;
  for (auto [i, operand] : llvm::enumerate(sig.operands()))
    out += (i ? ", " : "") + std::string(operand.name) +
           (operand.isVariadic() ? "..." : "");
  if (sig.numResults) {
    out += " -> ";
    for (auto [i, result] : llvm::enumerate(sig.results()))
      out += (i ? ", " : "") + std::string(result.name) +
             (result.isVariadic() ? "..." : "");
  }
  return out;
}

/// The op's text with placeholders for its operands, attributes and types,
/// written as MLIR prints the format (no space before `,` `)` `]` or
/// after `(` `[`).
std::string makeOpSnippet(const OpSignature &sig, bool bindResults) {
  int next = 1;
  auto placeholder = [&](StringRef text) {
    return formatv("${{{0}:{1}}", next++, escapeSnippet(text)).str();
  };
  std::string out;
  if (bindResults && sig.numResults) {
    SmallVector<std::string, 2> names;
    for (const ValueSig &result : sig.results())
      names.push_back(placeholder("%" + std::string(result.name)));
    out = join(names, ", ") + " = ";
  }
  out += sig.getName();
  StringRef previous = "op";
  for (const FormatElement &el : getOpFormat(sig).elements) {
    std::string piece;
    switch (el.kind) {
    case FormatElement::Literal:
      piece = el.text.str();
      break;
    case FormatElement::Operand:
      piece = placeholder("%" + std::string(sig.operands()[el.index].name));
      break;
    case FormatElement::Attribute:
      piece = placeholder(sig.attrs()[el.index].name);
      break;
    case FormatElement::Type: {
      const ValueSig &value = el.index >= kResultTypeBase
                                  ? sig.results()[el.index - kResultTypeBase]
                                  : sig.operands()[el.index];
      piece = placeholder(defaultTypeText(value));
      break;
    }
    default:
      continue;
    }
    bool tight = StringRef(piece) == "," || StringRef(piece) == ")" ||
                 StringRef(piece) == "]" || StringRef(piece) == "[" ||
                 previous == "(" || previous == "[";
    out += (tight ? "" : " ") + piece;
    previous = el.kind == FormatElement::Literal ? el.text : StringRef("x");
  }
  return out + "$0";
}

/// Op names valid in the enclosing region on the program's target.
bool isValidHere(const OpSignature &sig, const EnclosingRegion &region,
                 std::optional<TargetKind> target) {
  StringRef name = sig.mnemonic;
  if (name == "program")
    return !region.inProgram;
  if (!region.inProgram)
    return false;
  if (name == "condition")
    return region.innermost == EnclosingRegion::Loop;
  if (name == "yield")
    return region.innermost == EnclosingRegion::If;
  return !target || getOpAvailability(name, *target).available;
}

/// Case-sensitive subsequence match, as editors filter.
bool fuzzyMatches(StringRef pattern, StringRef name) {
  size_t at = 0;
  for (char c : pattern) {
    at = name.find(c, at);
    if (at == StringRef::npos)
      return false;
    ++at;
  }
  return true;
}

/// Snippets of the ops with custom syntax: the skeletons of a kernel.
std::optional<std::string> customOpSnippet(StringRef mnemonic, bool bind) {
  if (mnemonic == "program")
    return std::string(
        "waveasm.program @${1:kernel}\n"
        "  target = #waveasm.target<#waveasm.${2|gfx942,gfx950,gfx1250|}, 5>\n"
        "  abi = #waveasm.abi<tid = 0, kernarg = 0> {\n"
        "\t$0\n}");
  if (mnemonic == "loop")
    return (bind ? "%${6:r} = " : "") +
           std::string("waveasm.loop (%${1:i} = %${2:init}) : "
                       "(${3:!waveasm.sreg}) -> ${3} {\n"
                       "\t$0\n"
                       "\twaveasm.condition %${4:more} : !waveasm.scc "
                       "iter_args(%${5:next}) : ${3}\n}");
  if (mnemonic == "if")
    return bind ? std::string("%${5:r} = waveasm.if %${1:cond} : "
                              "!waveasm.scc -> ${2:!waveasm.vreg} {\n"
                              "\t$0\n\twaveasm.yield %${3:a} : ${2}\n"
                              "} else {\n\twaveasm.yield %${4:b} : ${2}\n}")
                : std::string("waveasm.if %${1:cond} : !waveasm.scc {\n"
                              "\t$0\n\twaveasm.yield\n}");
  return std::nullopt;
}

/// The op items for one kind of place, built once: the ops valid there
/// with their snippets (the range is the request's).
const std::vector<lsp::CompletionItem> &
getOpItems(const EnclosingRegion &region, std::optional<TargetKind> target,
           bool bind, bool snippets) {
  using Key = std::tuple<int, bool, int, bool, bool>;
  static std::mutex mutex;
  static std::map<Key, std::vector<lsp::CompletionItem>> cache;
  Key key{region.innermost, region.inProgram, target ? int(*target) : -1, bind,
          snippets};
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = cache.try_emplace(key);
  if (!inserted)
    return it->second;
  for (const OpSignature &sig : getOpSignatures()) {
    if (!isValidHere(sig, region, target))
      continue;
    std::optional<std::string> custom =
        snippets ? customOpSnippet(sig.mnemonic, bind) : std::nullopt;
    // Without snippets the name alone: placeholder text would have to be
    // deleted by hand.
    std::string text = custom ? *custom
                       : !snippets || sig.customAssembly || sig.numRegions
                           ? sig.getName()
                           : makeOpSnippet(sig, bind);
    lsp::CompletionItem item;
    item.label = sig.getName();
    item.kind = lsp::CompletionItemKind::Function;
    item.format = text != item.label ? lsp::InsertTextFormat::Snippet
                                     : lsp::InsertTextFormat::PlainText;
    item.textEdit.newText = std::move(text);
    item.detail = common::getUnitName(sig.unit) + " · " + formatShape(sig);
    json::Object data{{"op", sig.mnemonic}};
    if (target)
      data["target"] = getTargetInfo(*target).name;
    item.data = std::move(data);
    it->second.push_back(std::move(item));
  }
  return it->second;
}

void addOpNames(const Site &site, lsp::CompletionList &list) {
  const OpLineContext &ctx = site.ctx;
  std::optional<TargetKind> target = site.options->targetOverride
                                         ? site.options->targetOverride
                                         : site.region.target;
  // Bind result names when nothing precedes the op on the line.
  bool bind = ctx.numBoundNames == 0 &&
              site.line.take_front(ctx.prefixBegin).trim().empty();
  // Filtered here as the client would (a subsequence of the name), so a
  // typed prefix sends a few items; the list is then incomplete, and the
  // client asks again as the user types.
  StringRef prefix = ctx.prefix;
  bool filter = prefix.size() > strlen("waveasm.");
  list.isIncomplete = filter;
  for (const lsp::CompletionItem &op :
       getOpItems(site.region, target, bind, site.options->snippets)) {
    if (filter && !fuzzyMatches(prefix, op.label))
      continue;
    list.items.push_back(op);
    list.items.back().textEdit.range = site.prefixRange;
  }
}

using common::printType;

void addValues(const Site &site, const std::vector<ScopedValue> &values,
               lsp::CompletionList &list) {
  const OpLineContext &ctx = site.ctx;
  const ValueSig *operand = ctx.op && ctx.slot < ctx.op->numOperands
                                ? &ctx.op->operands()[ctx.slot]
                                : nullptr;
  std::vector<const ScopedValue *> fits;
  for (const ScopedValue &value : values)
    if ((!operand || operand->accepts(value.type)) &&
        fuzzyMatches(ctx.prefix, value.name))
      fits.push_back(&value);
  // Nearest definitions first: the value just computed is the likely one.
  llvm::stable_sort(fits, [&](const ScopedValue *a, const ScopedValue *b) {
    return a->line > b->line;
  });
  if (fits.size() > site.options->maxValues) {
    fits.resize(site.options->maxValues);
    list.isIncomplete = true;
  }
  for (auto [rank, value] : llvm::enumerate(fits)) {
    lsp::CompletionItem item =
        makeItem(site, value->name, lsp::CompletionItemKind::Variable);
    item.detail = printType(value->type);
    item.documentation =
        lsp::MarkupContent{lsp::MarkupKind::Markdown,
                           formatv("`{0}` defined on line {1} by `{2}`",
                                   value->name, value->line + 1, value->definer)
                               .str()};
    item.sortText = formatv("{0:d6}", rank).str();
    list.items.push_back(std::move(item));
  }
}

/// The types of `value`'s group with the width it requires.
std::vector<std::pair<std::string, std::string>> typesFor(const ValueSig *value,
                                                          bool snippets) {
  unsigned kinds = value ? value->kinds : ~0u;
  int width = value ? value->width : 0;
  std::vector<std::pair<std::string, std::string>> out; // label, snippet
  auto add = [&](std::string label, std::string text = "") {
    out.push_back({label, text.empty() ? label : text});
  };
  for (unsigned kind : {KindVReg, KindSReg, KindAReg}) {
    if (!(kinds & kind))
      continue;
    std::string base = "!waveasm." + getRegKindMnemonic(kind).str();
    if (width > 1) {
      add(base + formatv("<{0}>", width).str());
      add(base + formatv("<{0}, {0}>", width).str());
    } else {
      add(base);
      if (!width)
        add(base + "<N>", snippets ? base + "<${1:4}>" : base + "<4>");
    }
  }
  for (unsigned kind : {KindPVReg, KindPSReg, KindPAReg}) {
    if (!(kinds & kind))
      continue;
    std::string base = "!waveasm." + getRegKindMnemonic(kind).str();
    std::string size = width > 1 ? formatv(", {0}", width).str() : "";
    add(base + "<index" + size + ">",
        snippets ? base + "<${1:0}" + size + ">" : base + "<0" + size + ">");
  }
  if (kinds & KindImm)
    add("!waveasm.imm<value>",
        snippets ? "!waveasm.imm<${1:0}>" : "!waveasm.imm<0>");
  if (kinds & KindSCC)
    add("!waveasm.scc");
  return out;
}

void addTypes(const Site &site, const std::vector<ScopedValue> *values,
              lsp::CompletionList &list) {
  const OpLineContext &ctx = site.ctx;
  const ValueSig *slot = nullptr;
  StringRef written; // the operand whose type this is, if typed
  if (ctx.op && ctx.where == OpLineContext::TypeSlot) {
    if (ctx.slot >= kResultTypeBase) {
      if (ctx.slot - kResultTypeBase < ctx.op->numResults)
        slot = &ctx.op->results()[ctx.slot - kResultTypeBase];
      // An MFMA's result is its accumulator's registers.
      for (auto [i, operand] : llvm::enumerate(ctx.op->operands()))
        if (ctx.op->mfmaWidth && StringRef(operand.name) == "acc")
          written = ctx.operandTexts[i];
    } else if (ctx.slot < ctx.op->numOperands) {
      slot = &ctx.op->operands()[ctx.slot];
      written = ctx.operandTexts[ctx.slot];
    }
  }
  int rank = 0;
  if (!written.empty() && values) {
    for (const ScopedValue &value : *values) {
      if (value.name != written || (slot && !slot->accepts(value.type)))
        continue;
      std::string text = printType(value.type);
      lsp::CompletionItem item =
          makeItem(site, text, lsp::CompletionItemKind::TypeParameter);
      item.detail = "type of " + value.name;
      item.preselect = true;
      item.sortText = formatv("{0:d3}", rank++).str();
      list.items.push_back(std::move(item));
      break;
    }
  }
  for (auto &[label, text] : typesFor(slot, site.options->snippets)) {
    bool snippet = site.options->snippets && label != text;
    lsp::CompletionItem item = makeItem(
        site, label, lsp::CompletionItemKind::TypeParameter, text, snippet);
    if (slot)
      item.detail = std::string(slot->name) + ": " + slot->summary;
    item.sortText = formatv("{0:d3}", rank++).str();
    list.items.push_back(std::move(item));
  }
}

/// SPEC.md 3.5: attributes passes and the emitter read, by the ops they
/// mean something on.
struct DiscardableAttr {
  StringRef name, type, doc;
  bool (*appliesTo)(StringRef mnemonic);
};
const DiscardableAttr kDiscardableAttrs[] = {
    {"offset", "i64", "LDS byte offset the emitter prints as `offset:N`",
     [](StringRef m) { return m.starts_with("ds_"); }},
    {"instOffset", "i64", "VMEM immediate offset (`offset:N`)",
     [](StringRef m) {
       return m.starts_with("buffer_load_") && m.ends_with("_lds");
     }},
    {"no_cse", "unit",
     "scoped CSE and the MFMA zero-accumulator rule skip the op",
     [](StringRef) { return true; }},
    {"cbsz", "i32", "A data format (f8f6f4 code 0-4; default 4)",
     [](StringRef m) { return m.contains("mfma_scale"); }},
    {"blgp", "i32", "B data format (f8f6f4 code 0-4; default 4)",
     [](StringRef m) { return m.contains("mfma_scale"); }},
    {"op_sel_a", "i32", "A scale byte selector (0-3)",
     [](StringRef m) { return m.contains("mfma_scale"); }},
    {"op_sel_b", "i32", "B scale byte selector (0-3)",
     [](StringRef m) { return m.contains("mfma_scale"); }},
    {"kernel_name", "string", "symbol emitted instead of the program's name",
     [](StringRef m) { return m == "program"; }},
    {"num_kernel_args", "i64",
     "8-byte kernel arguments in the metadata (default 2)",
     [](StringRef m) { return m == "program"; }},
    {"min_sgprs", "i64", "lower bound on the reported SGPR count",
     [](StringRef m) { return m == "program"; }},
    {"scalar_sgpr_base", "i64", "first SGPR the allocator keeps reserved",
     [](StringRef m) { return m == "program"; }},
    {"scalar_sgpr_count", "i64", "SGPRs the allocator keeps reserved",
     [](StringRef m) { return m == "program"; }},
};

void addAttrNames(const Site &site, lsp::CompletionList &list) {
  const OpLineContext &ctx = site.ctx;
  if (!ctx.op)
    return;
  auto written = [&](StringRef name) {
    return llvm::is_contained(ctx.attrsWritten, name);
  };
  auto add = [&](StringRef name, StringRef detail, StringRef doc) {
    if (written(name))
      return;
    // A unit attribute is its name alone.
    bool unit = detail == "unit" || detail == "::mlir::UnitAttr";
    bool snippet = site.options->snippets && !unit;
    lsp::CompletionItem item =
        makeItem(site, name.str(), lsp::CompletionItemKind::Property,
                 unit      ? name.str()
                 : snippet ? (name + " = ${1}").str()
                           : (name + " = ").str(),
                 snippet);
    item.detail = detail.str();
    if (!doc.empty())
      item.documentation =
          lsp::MarkupContent{lsp::MarkupKind::Markdown, doc.str()};
    list.items.push_back(std::move(item));
  };
  for (const AttrSig &attr : ctx.op->attrs())
    add(attr.name, attr.cppType,
        *attr.defaultValue ? ("default " + Twine(attr.defaultValue)).str()
                           : "");
  for (const DiscardableAttr &attr : kDiscardableAttrs)
    if (attr.appliesTo(ctx.op->mnemonic) &&
        !llvm::any_of(ctx.op->attrs(), [&](const AttrSig &declared) {
          return attr.name == declared.name;
        }))
      add(attr.name, attr.type, attr.doc);
}

void addAttrTexts(const Site &site, lsp::CompletionList &list) {
  bool snippet = site.options->snippets;
  for (StringRef kind : {"gfx942", "gfx950", "gfx1250"})
    list.items.push_back(makeItem(site, ("#waveasm." + kind).str(),
                                  lsp::CompletionItemKind::EnumMember));
  list.items.push_back(makeItem(
      site, "#waveasm.target<kind, 5>", lsp::CompletionItemKind::EnumMember,
      snippet ? "#waveasm.target<${1|#waveasm.gfx942,#waveasm.gfx950,"
                "#waveasm.gfx1250|}, ${2:5}>"
              : "#waveasm.target<#waveasm.gfx942, 5>",
      snippet));
  list.items.push_back(
      makeItem(site, "#waveasm.abi<tid = 0, kernarg = 0>",
               lsp::CompletionItemKind::EnumMember,
               snippet ? "#waveasm.abi<tid = ${1:0}, kernarg = ${2:0}>"
                       : "#waveasm.abi<tid = 0, kernarg = 0>",
               snippet));
  for (lsp::CompletionItem &item : list.items)
    item.filterText =
        item.textEdit.newText.substr(0, item.textEdit.newText.find('<'));
}

} // namespace

lsp::CompletionList computeCompletion(const ParsedDocument *lastGood,
                                      StringRef text, lsp::Position pos,
                                      mlir::MLIRContext &context,
                                      const CompletionOptions &options) {
  lsp::CompletionList list;
  StatementText stmt = getStatementAt(text, pos.line, pos.character);
  if (!stmt.valid)
    return list;
  StringRef line = stmt.line;
  size_t column = stmt.column;

  Site site;
  site.line = line;
  site.options = &options;
  site.ctx = analyzeOpLine(stmt.text, stmt.cursor);
  // Back to the cursor's line: the prefix ends at the cursor, so it starts
  // on that line.
  size_t prefixColumn = site.ctx.prefixBegin >= stmt.lineInText
                            ? site.ctx.prefixBegin - stmt.lineInText
                            : 0;
  site.ctx.prefixBegin = prefixColumn;
  site.pos = {pos.line, utf16Length(line.take_front(column))};
  site.prefixRange = {{pos.line, utf16Length(line.take_front(prefixColumn))},
                      site.pos};
  size_t lineOffset = stmt.lineOffset;

  using Where = OpLineContext::Where;
  switch (site.ctx.where) {
  case Where::OpName:
    site.region = findEnclosingRegion(text, lineOffset + site.ctx.prefixBegin);
    addOpNames(site, list);
    break;
  case Where::Operand: {
    std::vector<ScopedValue> values =
        findValuesInScope(lastGood, text, site.pos, context);
    addValues(site, values, list);
    break;
  }
  case Where::TypeSlot: {
    std::vector<ScopedValue> values;
    if (site.ctx.op)
      values = findValuesInScope(lastGood, text, site.pos, context);
    addTypes(site, &values, list);
    break;
  }
  case Where::TypeText:
    addTypes(site, nullptr, list);
    break;
  case Where::Literal:
    for (StringRef keyword : site.ctx.keywords)
      list.items.push_back(
          makeItem(site, keyword.str(), lsp::CompletionItemKind::Keyword));
    break;
  case Where::AttrName:
    addAttrNames(site, list);
    break;
  case Where::AttrText:
    addAttrTexts(site, list);
    break;
  default:
    break;
  }
  if (options.defaultEditRange && !list.items.empty())
    list.defaultEditRange = site.prefixRange;
  return list;
}

void resolveCompletionItem(lsp::CompletionItem &item) {
  const json::Object *data = item.data.getAsObject();
  if (!data)
    return;
  std::optional<StringRef> name = data->getString("op");
  const OpSignature *sig = name ? lookupOpSignature(*name) : nullptr;
  if (!sig)
    return;
  std::optional<TargetKind> target;
  if (std::optional<StringRef> t = data->getString("target"))
    target = parseTargetKind(*t);
  std::string doc;
  raw_string_ostream os(doc);
  os << "**" << sig->getName() << "**";
  if (*sig->summary)
    os << ": " << sig->summary;
  os << "\n\n" << common::getUnitName(sig->unit);
  if (sig->latencyClass != LatencyClass::None) {
    os << " · latency class " << stringifyLatencyClass(sig->latencyClass);
    if (target && sig->unit != ExecUnit::MFMA)
      os << " (" << TargetModel::get(*target).getLatency(sig->latencyClass)
         << " issue slots on " << getTargetInfo(*target).name << ")";
  }
  if (sig->mfmaWidth)
    os << " · accumulator and result: " << sig->mfmaWidth << " registers";
  os << "\n\n";
  if (sig->numOperands || sig->numResults) {
    os << "| | name | accepts | width |\n|---|---|---|---|\n";
    auto row = [&](StringRef what, const ValueSig &value) {
      os << "| " << what << " | `" << value.name << "`"
         << (value.isVariadic() ? "..." : "") << " | " << value.summary << " | "
         << (value.width ? std::to_string(value.width) : "any") << " |\n";
    };
    for (const ValueSig &operand : sig->operands())
      row("operand", operand);
    for (const ValueSig &result : sig->results())
      row("result", result);
  }
  if (target) {
    OpAvailability availability = getOpAvailability(sig->mnemonic, *target);
    if (!availability.available)
      os << "\nNot on " << getTargetInfo(*target).name << ": "
         << availability.reason << "\n";
  }
  item.documentation = lsp::MarkupContent{lsp::MarkupKind::Markdown, doc};
}

} // namespace waveasm::server
