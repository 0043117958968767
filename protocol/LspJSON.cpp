//===- LspJSON.cpp - JSON form of the LSP value types ---------------------===//

#include "protocol/LspJSON.h"
#include "protocol/JSONHelpers.h"

#include "llvm/ADT/StringSwitch.h"

using namespace waveasm::lsp;
namespace json = llvm::json;
using json::ObjectMapper;
using waveasm::lsp::detail::enumFromJSON;
using waveasm::lsp::detail::mapString;

//===--- positions
//----------------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const Position &p) {
  return json::Object{{"line", p.line}, {"character", p.character}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, Position &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("line", p.line) && o.map("character", p.character);
}

json::Value waveasm::lsp::toJSON(const Range &r) {
  return json::Object{{"start", r.start}, {"end", r.end}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, Range &r, json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("start", r.start) && o.map("end", r.end);
}

json::Value waveasm::lsp::toJSON(const Location &l) {
  return json::Object{{"uri", l.uri}, {"range", l.range}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, Location &l,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("uri", l.uri) && o.map("range", l.range);
}

//===--- diagnostics
//--------------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const DiagnosticSeverity &s) {
  return static_cast<int>(s);
}
bool waveasm::lsp::fromJSON(const json::Value &v, DiagnosticSeverity &s,
                            json::Path path) {
  return enumFromJSON(v, s, path,
                      {DiagnosticSeverity::Error, DiagnosticSeverity::Warning,
                       DiagnosticSeverity::Information,
                       DiagnosticSeverity::Hint});
}

json::Value waveasm::lsp::toJSON(const DiagnosticRelatedInformation &r) {
  return json::Object{{"location", r.location}, {"message", r.message}};
}
bool waveasm::lsp::fromJSON(const json::Value &v,
                            DiagnosticRelatedInformation &r, json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("location", r.location) && o.map("message", r.message);
}

json::Value waveasm::lsp::toJSON(const Diagnostic &d) {
  json::Object out{
      {"range", d.range}, {"severity", d.severity}, {"message", d.message}};
  if (!d.code.empty())
    out["code"] = d.code;
  if (!d.source.empty())
    out["source"] = d.source;
  if (!d.related.empty())
    out["relatedInformation"] = d.related;
  if (!d.tags.empty())
    out["tags"] = d.tags;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, Diagnostic &d,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("range", d.range) || !o.map("message", d.message))
    return false;
  std::optional<DiagnosticSeverity> severity;
  std::optional<std::vector<DiagnosticRelatedInformation>> related;
  std::optional<std::vector<int>> tags;
  if (!o.map("severity", severity) || !o.map("relatedInformation", related) ||
      !mapString(o, "source", d.source) || !o.map("tags", tags))
    return false;
  d.severity = severity.value_or(DiagnosticSeverity::Error);
  d.related = related.value_or(std::vector<DiagnosticRelatedInformation>{});
  d.tags = tags.value_or(std::vector<int>{});
  // LSP allows integer codes too; keep them as text.
  d.code.clear();
  if (const json::Value *code = v.getAsObject()->get("code")) {
    if (std::optional<llvm::StringRef> s = code->getAsString())
      d.code = s->str();
    else if (std::optional<int64_t> i = code->getAsInteger())
      d.code = std::to_string(*i);
    else {
      path.field("code").report("expected a string or an integer");
      return false;
    }
  }
  return true;
}

//===--- hover and inlay hints
//------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const MarkupKind &k) {
  return k == MarkupKind::Markdown ? "markdown" : "plaintext";
}
bool waveasm::lsp::fromJSON(const json::Value &v, MarkupKind &k,
                            json::Path path) {
  std::optional<llvm::StringRef> s = v.getAsString();
  if (s && *s == "markdown")
    k = MarkupKind::Markdown;
  else if (s && *s == "plaintext")
    k = MarkupKind::PlainText;
  else {
    path.report("expected \"markdown\" or \"plaintext\"");
    return false;
  }
  return true;
}

json::Value waveasm::lsp::toJSON(const MarkupContent &m) {
  return json::Object{{"kind", m.kind}, {"value", m.value}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, MarkupContent &m,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("kind", m.kind) && o.map("value", m.value);
}

json::Value waveasm::lsp::toJSON(const Hover &h) {
  json::Object out{{"contents", h.contents}};
  if (h.range)
    out["range"] = *h.range;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, Hover &h, json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("contents", h.contents) && o.map("range", h.range);
}

json::Value waveasm::lsp::toJSON(const InlayHintKind &k) {
  return static_cast<int>(k);
}
bool waveasm::lsp::fromJSON(const json::Value &v, InlayHintKind &k,
                            json::Path path) {
  return enumFromJSON(v, k, path,
                      {InlayHintKind::Type, InlayHintKind::Parameter});
}

json::Value waveasm::lsp::toJSON(const InlayHint &h) {
  json::Object out{{"position", h.position}, {"label", h.label}};
  if (h.kind)
    out["kind"] = *h.kind;
  if (!h.tooltip.empty())
    out["tooltip"] = MarkupContent{MarkupKind::Markdown, h.tooltip};
  if (h.paddingLeft)
    out["paddingLeft"] = true;
  if (h.paddingRight)
    out["paddingRight"] = true;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, InlayHint &h,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("position", h.position) || !o.map("label", h.label) ||
      !o.map("kind", h.kind))
    return false;
  std::optional<bool> left, right;
  if (!o.map("paddingLeft", left) || !o.map("paddingRight", right))
    return false;
  h.paddingLeft = left.value_or(false);
  h.paddingRight = right.value_or(false);
  h.tooltip.clear();
  if (const json::Value *tooltip = v.getAsObject()->get("tooltip")) {
    // Either a plain string or MarkupContent.
    if (std::optional<llvm::StringRef> s = tooltip->getAsString()) {
      h.tooltip = s->str();
    } else {
      MarkupContent content;
      if (!fromJSON(*tooltip, content, path.field("tooltip")))
        return false;
      h.tooltip = content.value;
    }
  }
  return true;
}

//===--- edits
//--------------------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const TextEdit &e) {
  json::Object out{{"range", e.range}, {"newText", e.newText}};
  if (!e.annotationId.empty())
    out["annotationId"] = e.annotationId;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, TextEdit &e,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("range", e.range) && o.map("newText", e.newText) &&
         mapString(o, "annotationId", e.annotationId);
}

json::Value waveasm::lsp::toJSON(const ChangeAnnotation &a) {
  json::Object out{{"label", a.label},
                   {"needsConfirmation", a.needsConfirmation}};
  if (!a.description.empty())
    out["description"] = a.description;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, ChangeAnnotation &a,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<bool> confirm;
  if (!o || !o.map("label", a.label) || !o.map("needsConfirmation", confirm) ||
      !mapString(o, "description", a.description))
    return false;
  a.needsConfirmation = confirm.value_or(false);
  return true;
}

json::Value waveasm::lsp::toJSON(const TextDocumentEdit &e) {
  json::Value version = nullptr;
  if (e.version)
    version = *e.version;
  return json::Object{
      {"textDocument",
       json::Object{{"uri", e.uri}, {"version", std::move(version)}}},
      {"edits", e.edits}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, TextDocumentEdit &e,
                            json::Path path) {
  ObjectMapper o(v, path);
  const json::Object *object = v.getAsObject();
  const json::Object *doc =
      object ? object->getObject("textDocument") : nullptr;
  if (!o || !doc || !o.map("edits", e.edits)) {
    if (o && !doc)
      path.field("textDocument").report("expected an object");
    return false;
  }
  e.uri = doc->getString("uri").value_or("").str();
  e.version = doc->getInteger("version");
  return true;
}

json::Value waveasm::lsp::toJSON(const WorkspaceEdit &e) {
  json::Object out;
  if (!e.changes.empty() || e.documentChanges.empty()) {
    json::Object changes;
    for (const auto &[uri, edits] : e.changes)
      changes[uri] = edits;
    out["changes"] = std::move(changes);
  }
  if (!e.documentChanges.empty())
    out["documentChanges"] = e.documentChanges;
  if (!e.changeAnnotations.empty()) {
    json::Object annotations;
    for (const auto &[id, annotation] : e.changeAnnotations)
      annotations[id] = annotation;
    out["changeAnnotations"] = std::move(annotations);
  }
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, WorkspaceEdit &e,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<std::map<std::string, std::vector<TextEdit>>> changes;
  std::optional<std::vector<TextDocumentEdit>> documentChanges;
  std::optional<std::map<std::string, ChangeAnnotation>> annotations;
  if (!o || !o.map("changes", changes) ||
      !o.map("documentChanges", documentChanges) ||
      !o.map("changeAnnotations", annotations))
    return false;
  e.changeAnnotations = annotations.value_or(decltype(e.changeAnnotations){});
  e.changes = changes.value_or(decltype(e.changes){});
  e.documentChanges = documentChanges.value_or(decltype(e.documentChanges){});
  return true;
}

//===--- navigation and structure
//---------------------------------------------===//

json::Value waveasm::lsp::toJSON(const DocumentHighlightKind &k) {
  return static_cast<int>(k);
}
bool waveasm::lsp::fromJSON(const json::Value &v, DocumentHighlightKind &k,
                            json::Path path) {
  return enumFromJSON(v, k, path,
                      {DocumentHighlightKind::Text, DocumentHighlightKind::Read,
                       DocumentHighlightKind::Write});
}

json::Value waveasm::lsp::toJSON(const DocumentHighlight &h) {
  return json::Object{{"range", h.range}, {"kind", h.kind}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, DocumentHighlight &h,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<DocumentHighlightKind> kind;
  if (!o || !o.map("range", h.range) || !o.map("kind", kind))
    return false;
  h.kind = kind.value_or(DocumentHighlightKind::Text);
  return true;
}

json::Value waveasm::lsp::toJSON(const SymbolKind &k) {
  return static_cast<int>(k);
}
bool waveasm::lsp::fromJSON(const json::Value &v, SymbolKind &k,
                            json::Path path) {
  return enumFromJSON(v, k, path,
                      {SymbolKind::Module, SymbolKind::Namespace,
                       SymbolKind::Function, SymbolKind::Variable,
                       SymbolKind::Event, SymbolKind::Operator});
}

json::Value waveasm::lsp::toJSON(const DocumentSymbol &s) {
  json::Object out{{"name", s.name},
                   {"kind", s.kind},
                   {"range", s.range},
                   {"selectionRange", s.selectionRange}};
  if (!s.detail.empty())
    out["detail"] = s.detail;
  if (!s.children.empty())
    out["children"] = s.children;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, DocumentSymbol &s,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<std::vector<DocumentSymbol>> children;
  if (!o || !o.map("name", s.name) || !o.map("kind", s.kind) ||
      !o.map("range", s.range) || !o.map("selectionRange", s.selectionRange) ||
      !mapString(o, "detail", s.detail) || !o.map("children", children))
    return false;
  s.children = children.value_or(std::vector<DocumentSymbol>{});
  return true;
}

json::Value waveasm::lsp::toJSON(const FoldingRange &f) {
  json::Object out{{"startLine", f.startLine}, {"endLine", f.endLine}};
  if (!f.kind.empty())
    out["kind"] = f.kind;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, FoldingRange &f,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("startLine", f.startLine) && o.map("endLine", f.endLine) &&
         mapString(o, "kind", f.kind);
}

//===--- commands and lenses
//--------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const Command &c) {
  json::Object out{{"title", c.title}, {"command", c.command}};
  if (!c.arguments.empty()) {
    // Arguments are stored JSON-encoded; send them as JSON values (a text
    // that does not parse is sent as a string rather than dropped).
    json::Array args;
    for (const std::string &arg : c.arguments) {
      llvm::Expected<json::Value> parsed = json::parse(arg);
      if (parsed) {
        args.push_back(std::move(*parsed));
      } else {
        llvm::consumeError(parsed.takeError());
        args.push_back(arg);
      }
    }
    out["arguments"] = std::move(args);
  }
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, Command &c, json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("title", c.title) || !o.map("command", c.command))
    return false;
  c.arguments.clear();
  if (const json::Value *args = v.getAsObject()->get("arguments")) {
    const json::Array *array = args->getAsArray();
    if (!array) {
      path.field("arguments").report("expected an array");
      return false;
    }
    for (const json::Value &arg : *array)
      c.arguments.push_back(llvm::formatv("{0}", arg).str());
  }
  return true;
}

json::Value waveasm::lsp::toJSON(const CodeLens &l) {
  json::Object out{{"range", l.range}};
  if (l.command)
    out["command"] = *l.command;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, CodeLens &l,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("range", l.range) && o.map("command", l.command);
}

json::Value waveasm::lsp::toJSON(const CodeAction &a) {
  json::Object out{{"title", a.title}};
  if (!a.kind.empty())
    out["kind"] = a.kind;
  if (!a.diagnostics.empty())
    out["diagnostics"] = a.diagnostics;
  if (a.edit)
    out["edit"] = *a.edit;
  if (a.command)
    out["command"] = *a.command;
  if (a.isPreferred)
    out["isPreferred"] = true;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, CodeAction &a,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<bool> preferred;
  std::optional<std::vector<Diagnostic>> diagnostics;
  if (!o || !o.map("title", a.title) || !mapString(o, "kind", a.kind) ||
      !o.map("edit", a.edit) || !o.map("command", a.command) ||
      !o.map("isPreferred", preferred) || !o.map("diagnostics", diagnostics))
    return false;
  a.isPreferred = preferred.value_or(false);
  a.diagnostics = diagnostics.value_or(std::vector<Diagnostic>{});
  return true;
}

//===--- semantic tokens
//--------------------------------------------------------===//

json::Array
waveasm::lsp::encodeSemanticTokens(const std::vector<SemanticToken> &tokens) {
  json::Array data;
  data.reserve(tokens.size() * 5);
  int line = 0, start = 0;
  for (const SemanticToken &t : tokens) {
    int deltaLine = t.line - line;
    int deltaStart = deltaLine == 0 ? t.startChar - start : t.startChar;
    data.push_back(deltaLine);
    data.push_back(deltaStart);
    data.push_back(t.length);
    data.push_back(static_cast<int64_t>(t.type));
    data.push_back(static_cast<int64_t>(t.modifiers));
    line = t.line;
    start = t.startChar;
  }
  return data;
}

bool waveasm::lsp::decodeSemanticTokens(const json::Value &data,
                                        std::vector<SemanticToken> &tokens,
                                        json::Path path) {
  const json::Array *array = data.getAsArray();
  if (!array || array->size() % 5 != 0) {
    path.report("expected an array of 5-integer groups");
    return false;
  }
  tokens.clear();
  int line = 0, start = 0;
  for (size_t i = 0; i < array->size(); i += 5) {
    int64_t v[5];
    for (size_t j = 0; j < 5; ++j) {
      std::optional<int64_t> x = (*array)[i + j].getAsInteger();
      if (!x) {
        path.index(i + j).report("expected an integer");
        return false;
      }
      v[j] = *x;
    }
    SemanticToken t;
    t.line = line + static_cast<int>(v[0]);
    t.startChar =
        v[0] == 0 ? start + static_cast<int>(v[1]) : static_cast<int>(v[1]);
    t.length = static_cast<int>(v[2]);
    t.type = static_cast<unsigned>(v[3]);
    t.modifiers = static_cast<unsigned>(v[4]);
    tokens.push_back(t);
    line = t.line;
    start = t.startChar;
  }
  return true;
}
