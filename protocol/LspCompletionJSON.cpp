//===- LspCompletionJSON.cpp - completion and signature help JSON ---------===//

#include "protocol/JSONHelpers.h"
#include "protocol/LspCompletion.h"

using namespace waveasm::lsp;
namespace json = llvm::json;
using json::ObjectMapper;
using waveasm::lsp::detail::enumFromJSON;
using waveasm::lsp::detail::mapString;

json::Value waveasm::lsp::toJSON(const CompletionItemKind &k) {
  return static_cast<int>(k);
}
bool waveasm::lsp::fromJSON(const json::Value &v, CompletionItemKind &k,
                            json::Path path) {
  using K = CompletionItemKind;
  return enumFromJSON(v, k, path,
                      {K::Function, K::Variable, K::Property, K::Keyword,
                       K::Snippet, K::EnumMember, K::Operator,
                       K::TypeParameter});
}

namespace {

json::Object itemToJSON(const CompletionItem &item,
                        const std::optional<Range> &defaultEditRange) {
  json::Object out{{"label", item.label},
                   {"kind", item.kind},
                   {"insertTextFormat", static_cast<int>(item.format)}};
  if (defaultEditRange && item.textEdit.range == *defaultEditRange)
    out["textEditText"] = item.textEdit.newText;
  else
    out["textEdit"] = item.textEdit;
  if (!item.detail.empty())
    out["detail"] = item.detail;
  if (item.documentation)
    out["documentation"] = *item.documentation;
  if (!item.sortText.empty())
    out["sortText"] = item.sortText;
  if (!item.filterText.empty())
    out["filterText"] = item.filterText;
  if (item.preselect)
    out["preselect"] = true;
  if (item.data.kind() != json::Value::Null)
    out["data"] = item.data;
  return out;
}

} // namespace

json::Value waveasm::lsp::toJSON(const CompletionItem &item) {
  return itemToJSON(item, std::nullopt);
}
bool waveasm::lsp::fromJSON(const json::Value &v, CompletionItem &item,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<int> format;
  std::optional<bool> preselect;
  if (!o || !o.map("label", item.label) || !o.map("kind", item.kind) ||
      !mapString(o, "detail", item.detail) ||
      !o.map("documentation", item.documentation) ||
      !mapString(o, "sortText", item.sortText) ||
      !mapString(o, "filterText", item.filterText) ||
      !o.map("insertTextFormat", format) || !o.map("preselect", preselect))
    return false;
  if (const json::Value *edit = v.getAsObject()->get("textEdit")) {
    if (!fromJSON(*edit, item.textEdit, path.field("textEdit")))
      return false;
  } else if (std::optional<llvm::StringRef> text =
                 v.getAsObject()->getString("textEditText")) {
    item.textEdit.newText = text->str(); // the list's default range
  }
  item.format =
      format == 2 ? InsertTextFormat::Snippet : InsertTextFormat::PlainText;
  item.preselect = preselect.value_or(false);
  if (const json::Value *data = v.getAsObject()->get("data"))
    item.data = *data;
  return true;
}

json::Value waveasm::lsp::toJSON(const CompletionList &list) {
  json::Array items;
  items.reserve(list.items.size());
  for (const CompletionItem &item : list.items)
    items.push_back(itemToJSON(item, list.defaultEditRange));
  json::Object out{{"isIncomplete", list.isIncomplete},
                   {"items", std::move(items)}};
  if (list.defaultEditRange)
    out["itemDefaults"] = json::Object{{"editRange", *list.defaultEditRange}};
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, CompletionList &list,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("isIncomplete", list.isIncomplete) ||
      !o.map("items", list.items))
    return false;
  list.defaultEditRange.reset();
  if (const json::Object *defaults =
          v.getAsObject()->getObject("itemDefaults")) {
    if (const json::Value *range = defaults->get("editRange")) {
      Range editRange;
      if (!fromJSON(*range, editRange, path.field("itemDefaults")))
        return false;
      list.defaultEditRange = editRange;
    }
  }
  // Items that sent only their text take the default range.
  const json::Array *items = v.getAsObject()->getArray("items");
  for (size_t i = 0; list.defaultEditRange && items && i < items->size(); ++i)
    if (const json::Object *item = (*items)[i].getAsObject())
      if (!item->get("textEdit"))
        list.items[i].textEdit.range = *list.defaultEditRange;
  return true;
}

json::Value waveasm::lsp::toJSON(const ParameterInformation &p) {
  json::Object out{
      {"label", json::Array{int64_t(p.labelStart), int64_t(p.labelEnd)}}};
  if (p.documentation)
    out["documentation"] = *p.documentation;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, ParameterInformation &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::vector<unsigned> label;
  if (!o || !o.map("label", label) || !o.map("documentation", p.documentation))
    return false;
  if (label.size() != 2) {
    path.field("label").report("expected [start, end]");
    return false;
  }
  p.labelStart = label[0];
  p.labelEnd = label[1];
  return true;
}

json::Value waveasm::lsp::toJSON(const SignatureInformation &s) {
  json::Object out{{"label", s.label}, {"parameters", s.parameters}};
  if (s.documentation)
    out["documentation"] = *s.documentation;
  if (s.activeParameter)
    out["activeParameter"] = int64_t(*s.activeParameter);
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, SignatureInformation &s,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("label", s.label) && o.map("parameters", s.parameters) &&
         o.map("documentation", s.documentation) &&
         o.map("activeParameter", s.activeParameter);
}

json::Value waveasm::lsp::toJSON(const SignatureHelp &h) {
  json::Object out{{"signatures", h.signatures},
                   {"activeSignature", int64_t(h.activeSignature)}};
  if (h.activeParameter)
    out["activeParameter"] = int64_t(*h.activeParameter);
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, SignatureHelp &h,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<unsigned> active;
  if (!o || !o.map("signatures", h.signatures) ||
      !o.map("activeSignature", active) ||
      !o.map("activeParameter", h.activeParameter))
    return false;
  h.activeSignature = active.value_or(0);
  return true;
}
