//===- LspParamsJSON.cpp - JSON form of the LSP method payloads -----------===//

#include "protocol/LspParamsJSON.h"

#include "llvm/Support/FormatVariadic.h"

using namespace waveasm::lsp;
namespace json = llvm::json;
using json::ObjectMapper;

namespace {

/// Follows a path of nested objects; null when any step is missing.
const json::Value *lookup(const json::Value &root,
                          std::initializer_list<llvm::StringRef> keys) {
  const json::Value *v = &root;
  for (llvm::StringRef key : keys) {
    const json::Object *o = v->getAsObject();
    if (!o || !(v = o->get(key)))
      return nullptr;
  }
  return v;
}

bool flag(const json::Value &root,
          std::initializer_list<llvm::StringRef> keys) {
  const json::Value *v = lookup(root, keys);
  return v && v->getAsBoolean().value_or(false);
}

} // namespace

//===--- documents
//----------------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const TextDocumentIdentifier &d) {
  return json::Object{{"uri", d.uri}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, TextDocumentIdentifier &d,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("uri", d.uri);
}

json::Value waveasm::lsp::toJSON(const VersionedTextDocumentIdentifier &d) {
  return json::Object{{"uri", d.uri}, {"version", d.version}};
}
bool waveasm::lsp::fromJSON(const json::Value &v,
                            VersionedTextDocumentIdentifier &d,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("uri", d.uri) && o.map("version", d.version);
}

json::Value waveasm::lsp::toJSON(const TextDocumentItem &d) {
  return json::Object{{"uri", d.uri},
                      {"languageId", d.languageId},
                      {"version", d.version},
                      {"text", d.text}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, TextDocumentItem &d,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<std::string> languageId;
  if (!o || !o.map("uri", d.uri) || !o.map("version", d.version) ||
      !o.map("text", d.text) || !o.map("languageId", languageId))
    return false;
  d.languageId = languageId.value_or("");
  return true;
}

json::Value waveasm::lsp::toJSON(const TextDocumentContentChangeEvent &c) {
  json::Object out{{"text", c.text}};
  if (c.range)
    out["range"] = *c.range;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v,
                            TextDocumentContentChangeEvent &c,
                            json::Path path) {
  ObjectMapper o(v, path);
  // rangeLength (deprecated) is ignored: the range says everything.
  return o && o.map("text", c.text) && o.map("range", c.range);
}

json::Value waveasm::lsp::toJSON(const DidOpenTextDocumentParams &p) {
  return json::Object{{"textDocument", p.textDocument}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, DidOpenTextDocumentParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument);
}

json::Value waveasm::lsp::toJSON(const DidChangeTextDocumentParams &p) {
  return json::Object{{"textDocument", p.textDocument},
                      {"contentChanges", p.contentChanges}};
}
bool waveasm::lsp::fromJSON(const json::Value &v,
                            DidChangeTextDocumentParams &p, json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument) &&
         o.map("contentChanges", p.contentChanges);
}

json::Value waveasm::lsp::toJSON(const DidCloseTextDocumentParams &p) {
  return json::Object{{"textDocument", p.textDocument}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, DidCloseTextDocumentParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument);
}

json::Value waveasm::lsp::toJSON(const DocumentParams &p) {
  return json::Object{{"textDocument", p.textDocument}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, DocumentParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument);
}

json::Value waveasm::lsp::toJSON(const DocumentRangeParams &p) {
  return json::Object{{"textDocument", p.textDocument}, {"range", p.range}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, DocumentRangeParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument) && o.map("range", p.range);
}

json::Value waveasm::lsp::toJSON(const TextDocumentPositionParams &p) {
  return json::Object{{"textDocument", p.textDocument},
                      {"position", p.position}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, TextDocumentPositionParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument) &&
         o.map("position", p.position);
}

json::Value waveasm::lsp::toJSON(const ReferenceParams &p) {
  return json::Object{
      {"textDocument", p.textDocument},
      {"position", p.position},
      {"context", json::Object{{"includeDeclaration", p.includeDeclaration}}}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, ReferenceParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("textDocument", p.textDocument) ||
      !o.map("position", p.position))
    return false;
  const json::Value *include = lookup(v, {"context", "includeDeclaration"});
  p.includeDeclaration =
      include ? include->getAsBoolean().value_or(true) : true;
  return true;
}

json::Value waveasm::lsp::toJSON(const RenameParams &p) {
  return json::Object{{"textDocument", p.textDocument},
                      {"position", p.position},
                      {"newName", p.newName}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, RenameParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument) &&
         o.map("position", p.position) && o.map("newName", p.newName);
}

json::Value waveasm::lsp::toJSON(const PrepareRenameResult &r) {
  return json::Object{{"range", r.range}, {"placeholder", r.placeholder}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, PrepareRenameResult &r,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("range", r.range) && o.map("placeholder", r.placeholder);
}

json::Value waveasm::lsp::toJSON(const PublishDiagnosticsParams &p) {
  json::Object out{{"uri", p.uri}, {"diagnostics", p.diagnostics}};
  if (p.version)
    out["version"] = *p.version;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, PublishDiagnosticsParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("uri", p.uri) && o.map("version", p.version) &&
         o.map("diagnostics", p.diagnostics);
}

json::Value waveasm::lsp::toJSON(const SemanticTokens &t) {
  return json::Object{{"data", encodeSemanticTokens(t.tokens)}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, SemanticTokens &t,
                            json::Path path) {
  const json::Value *data = lookup(v, {"data"});
  if (!data) {
    path.report("expected {\"data\": [...]}");
    return false;
  }
  return decodeSemanticTokens(*data, t.tokens, path.field("data"));
}

//===--- lifecycle
//----------------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const ClientCapabilities &c) {
  json::Array hoverFormats;
  if (c.hoverMarkdown)
    hoverFormats.push_back("markdown");
  hoverFormats.push_back("plaintext");
  return json::Object{
      {"window", json::Object{{"workDoneProgress", c.workDoneProgress}}},
      {"workspace",
       json::Object{
           {"applyEdit", c.applyEdit},
           {"workspaceEdit",
            json::Object{{"documentChanges", c.workspaceEditDocumentChanges},
                         {"changeAnnotationSupport",
                          c.changeAnnotations ? json::Value(json::Object{})
                                              : json::Value(nullptr)}}},
           {"inlayHint", json::Object{{"refreshSupport", c.inlayHintRefresh}}},
           {"codeLens", json::Object{{"refreshSupport", c.codeLensRefresh}}},
           {"semanticTokens",
            json::Object{{"refreshSupport", c.semanticTokensRefresh}}}}},
      {"textDocument",
       json::Object{
           {"documentSymbol", json::Object{{"hierarchicalDocumentSymbolSupport",
                                            c.hierarchicalDocumentSymbol}}},
           {"publishDiagnostics",
            json::Object{{"versionSupport", c.diagnosticVersionSupport}}},
           {"hover", json::Object{{"contentFormat", std::move(hoverFormats)}}},
           {"completion",
            json::Object{
                {"completionItem",
                 json::Object{{"snippetSupport", c.completionSnippets}}},
                {"completionList",
                 json::Object{{"itemDefaults", c.completionDefaultEditRange
                                                   ? json::Array{"editRange"}
                                                   : json::Array{}}}}}}}}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, ClientCapabilities &c,
                            json::Path path) {
  if (!v.getAsObject()) {
    path.report("expected an object");
    return false;
  }
  c.workDoneProgress = flag(v, {"window", "workDoneProgress"});
  c.inlayHintRefresh = flag(v, {"workspace", "inlayHint", "refreshSupport"});
  c.codeLensRefresh = flag(v, {"workspace", "codeLens", "refreshSupport"});
  c.semanticTokensRefresh =
      flag(v, {"workspace", "semanticTokens", "refreshSupport"});
  c.applyEdit = flag(v, {"workspace", "applyEdit"});
  c.workspaceEditDocumentChanges =
      flag(v, {"workspace", "workspaceEdit", "documentChanges"});
  const json::Value *annotations =
      lookup(v, {"workspace", "workspaceEdit", "changeAnnotationSupport"});
  c.changeAnnotations = annotations && annotations->getAsObject();
  c.hierarchicalDocumentSymbol = flag(v, {"textDocument", "documentSymbol",
                                          "hierarchicalDocumentSymbolSupport"});
  c.diagnosticVersionSupport =
      flag(v, {"textDocument", "publishDiagnostics", "versionSupport"});
  c.completionSnippets = flag(
      v, {"textDocument", "completion", "completionItem", "snippetSupport"});
  c.completionDefaultEditRange = false;
  if (const json::Value *defaults = lookup(
          v, {"textDocument", "completion", "completionList", "itemDefaults"}))
    if (const json::Array *array = defaults->getAsArray())
      c.completionDefaultEditRange =
          llvm::any_of(*array, [](const json::Value &d) {
            return d.getAsString() == llvm::StringRef("editRange");
          });
  c.hoverMarkdown = true;
  if (const json::Value *formats =
          lookup(v, {"textDocument", "hover", "contentFormat"})) {
    if (const json::Array *array = formats->getAsArray()) {
      c.hoverMarkdown = llvm::any_of(*array, [](const json::Value &f) {
        return f.getAsString() == llvm::StringRef("markdown");
      });
    }
  }
  return true;
}

json::Value waveasm::lsp::toJSON(const InitializeParams &p) {
  json::Object out{{"capabilities", p.capabilities},
                   {"initializationOptions", p.initializationOptions}};
  out["processId"] = p.processId ? json::Value(*p.processId) : nullptr;
  if (!p.rootUri.empty())
    out["rootUri"] = p.rootUri;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, InitializeParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o)
    return false;
  // processId and rootUri may be null; neither matters enough to refuse
  // a client over its type.
  const json::Object *object = v.getAsObject();
  if (const json::Value *pid = object->get("processId"))
    p.processId = pid->getAsInteger();
  if (const json::Value *root = object->get("rootUri"))
    p.rootUri = root->getAsString().value_or("").str();
  if (const json::Value *caps = object->get("capabilities"))
    if (!fromJSON(*caps, p.capabilities, path.field("capabilities")))
      return false;
  if (const json::Value *options = object->get("initializationOptions"))
    p.initializationOptions = *options;
  return true;
}

json::Value waveasm::lsp::toJSON(const ServerCapabilities &c) {
  json::Array types, modifiers, commands, actionKinds;
  for (const std::string &kind : c.codeActionKinds)
    actionKinds.push_back(kind);
  for (const std::string &t : c.semanticTokenTypes)
    types.push_back(t);
  for (const std::string &m : c.semanticTokenModifiers)
    modifiers.push_back(m);
  for (const std::string &cmd : c.executeCommands)
    commands.push_back(cmd);
  json::Object out{
      {"positionEncoding", "utf-16"},
      {"textDocumentSync",
       json::Object{{"openClose", true},
                    {"change", 2}, // TextDocumentSyncKind.Incremental
                    {"save", json::Object{{"includeText", false}}}}},
      {"hoverProvider", true},
      // `.` after `waveasm`, `%` values, `!` types, `#` attributes, `{`
      // attribute names, and after `,` `:` `->` the next operand or type.
      {"completionProvider",
       json::Object{{"triggerCharacters",
                     json::Array{".", "%", "!", "#", "{", ",", ":", ">", " "}},
                    {"resolveProvider", true}}},
      {"signatureHelpProvider",
       json::Object{{"triggerCharacters", json::Array{" ", ","}},
                    {"retriggerCharacters", json::Array{":", ">"}}}},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"renameProvider", json::Object{{"prepareProvider", true}}},
      {"documentSymbolProvider", true},
      {"foldingRangeProvider", true},
      {"semanticTokensProvider",
       json::Object{
           {"legend", json::Object{{"tokenTypes", std::move(types)},
                                   {"tokenModifiers", std::move(modifiers)}}},
           {"full", true},
           {"range", false}}},
      {"inlayHintProvider", json::Object{{"resolveProvider", false}}},
      {"codeLensProvider", json::Object{{"resolveProvider", false}}},
      {"executeCommandProvider",
       json::Object{{"commands", std::move(commands)}}},
      {"experimental",
       json::Object{{"waveasmAssembly", true}, {"waveasmMetrics", true}}}};
  if (!actionKinds.empty())
    out["codeActionProvider"] =
        json::Object{{"codeActionKinds", std::move(actionKinds)}};
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, ServerCapabilities &c,
                            json::Path path) {
  c = ServerCapabilities();
  auto strings = [&](std::initializer_list<llvm::StringRef> keys,
                     std::vector<std::string> &out) {
    if (const json::Value *list = lookup(v, keys))
      if (const json::Array *array = list->getAsArray())
        for (const json::Value &s : *array)
          if (std::optional<llvm::StringRef> str = s.getAsString())
            out.push_back(str->str());
  };
  if (!v.getAsObject()) {
    path.report("expected an object");
    return false;
  }
  strings({"semanticTokensProvider", "legend", "tokenTypes"},
          c.semanticTokenTypes);
  strings({"semanticTokensProvider", "legend", "tokenModifiers"},
          c.semanticTokenModifiers);
  strings({"executeCommandProvider", "commands"}, c.executeCommands);
  strings({"codeActionProvider", "codeActionKinds"}, c.codeActionKinds);
  return true;
}

json::Value waveasm::lsp::toJSON(const InitializeResult &r) {
  return json::Object{
      {"capabilities", r.capabilities},
      {"serverInfo",
       json::Object{{"name", r.serverName}, {"version", r.serverVersion}}}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, InitializeResult &r,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("capabilities", r.capabilities))
    return false;
  if (const json::Value *name = lookup(v, {"serverInfo", "name"}))
    r.serverName = name->getAsString().value_or("").str();
  if (const json::Value *version = lookup(v, {"serverInfo", "version"}))
    r.serverVersion = version->getAsString().value_or("").str();
  return true;
}

json::Value waveasm::lsp::toJSON(const DidChangeConfigurationParams &p) {
  return json::Object{{"settings", p.settings}};
}
bool waveasm::lsp::fromJSON(const json::Value &v,
                            DidChangeConfigurationParams &p, json::Path path) {
  if (!v.getAsObject()) {
    path.report("expected an object");
    return false;
  }
  const json::Value *settings = v.getAsObject()->get("settings");
  p.settings = settings ? *settings : json::Value(nullptr);
  return true;
}

json::Value waveasm::lsp::toJSON(const NoParams &) { return nullptr; }
bool waveasm::lsp::fromJSON(const json::Value &, NoParams &, json::Path) {
  return true;
}

//===--- progress
//-----------------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const WorkDoneProgressCreateParams &p) {
  return json::Object{{"token", p.token}};
}
bool waveasm::lsp::fromJSON(const json::Value &v,
                            WorkDoneProgressCreateParams &p, json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("token", p.token);
}

json::Value waveasm::lsp::toJSON(const WorkDoneProgress &p) {
  json::Object out;
  switch (p.kind) {
  case WorkDoneProgress::Begin:
    out["kind"] = "begin";
    out["title"] = p.title;
    out["cancellable"] = p.cancellable;
    break;
  case WorkDoneProgress::Report:
    out["kind"] = "report";
    break;
  case WorkDoneProgress::End:
    out["kind"] = "end";
    break;
  }
  if (!p.message.empty())
    out["message"] = p.message;
  if (p.percentage && p.kind != WorkDoneProgress::End)
    out["percentage"] = *p.percentage;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, WorkDoneProgress &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::string kind;
  std::optional<std::string> title, message;
  std::optional<bool> cancellable;
  if (!o || !o.map("kind", kind) || !o.map("title", title) ||
      !o.map("message", message) || !o.map("percentage", p.percentage) ||
      !o.map("cancellable", cancellable))
    return false;
  p.cancellable = cancellable.value_or(false);
  if (kind == "begin")
    p.kind = WorkDoneProgress::Begin;
  else if (kind == "report")
    p.kind = WorkDoneProgress::Report;
  else if (kind == "end")
    p.kind = WorkDoneProgress::End;
  else {
    path.field("kind").report("expected begin, report or end");
    return false;
  }
  p.title = title.value_or("");
  p.message = message.value_or("");
  return true;
}

json::Value waveasm::lsp::toJSON(const ProgressParams &p) {
  return json::Object{{"token", p.token}, {"value", p.value}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, ProgressParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("token", p.token) && o.map("value", p.value);
}

//===--- WaveASM extensions
//-------------------------------------------------===//

json::Value waveasm::lsp::toJSON(const AssemblyLineMapping &m) {
  return json::Object{{"line", m.line}, {"range", m.range}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, AssemblyLineMapping &m,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("line", m.line) && o.map("range", m.range);
}

json::Value waveasm::lsp::toJSON(const AssemblyResult &r) {
  return json::Object{{"version", r.version}, {"text", r.text}, {"map", r.map}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, AssemblyResult &r,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("version", r.version) && o.map("text", r.text) &&
         o.map("map", r.map);
}

json::Value waveasm::lsp::toJSON(const MetricsResult &r) {
  return json::Object{{"version", r.version}, {"programs", r.programs}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, MetricsResult &r,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("version", r.version))
    return false;
  const json::Value *programs = lookup(v, {"programs"});
  if (!programs || !programs->getAsArray()) {
    path.field("programs").report("expected an array");
    return false;
  }
  r.programs = *programs;
  return true;
}

json::Value waveasm::lsp::toJSON(const PipelineSnapshotsParams &p) {
  json::Object o{{"textDocument", p.textDocument}};
  if (p.index)
    o["index"] = *p.index;
  if (p.maxTextBytes)
    o["maxTextBytes"] = *p.maxTextBytes;
  return o;
}
bool waveasm::lsp::fromJSON(const json::Value &v, PipelineSnapshotsParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  return o && o.map("textDocument", p.textDocument) &&
         o.mapOptional("index", p.index) &&
         o.mapOptional("maxTextBytes", p.maxTextBytes);
}

json::Value waveasm::lsp::toJSON(const ScheduleParams &p) {
  json::Object o{{"textDocument", p.textDocument}};
  if (p.position)
    o["position"] = *p.position;
  if (p.render)
    o["render"] = *p.render;
  return o;
}
bool waveasm::lsp::fromJSON(const json::Value &v, ScheduleParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!(o && o.map("textDocument", p.textDocument) &&
        o.mapOptional("position", p.position) &&
        o.mapOptional("render", p.render)))
    return false;
  if (p.render && *p.render != "svg" && *p.render != "text" &&
      *p.render != "none") {
    path.field("render").report("expected \"svg\", \"text\" or \"none\"");
    return false;
  }
  return true;
}

//===--- cancellation, code actions, commands, edits
//-------------------------===//

json::Value waveasm::lsp::toJSON(const WorkDoneProgressCancelParams &p) {
  return json::Object{{"token", p.token}};
}
bool waveasm::lsp::fromJSON(const json::Value &v,
                            WorkDoneProgressCancelParams &p, json::Path path) {
  // Tokens may be integers; the server only creates strings, so an integer
  // token cannot be one of ours (kept as its text).
  const json::Object *o = v.getAsObject();
  const json::Value *token = o ? o->get("token") : nullptr;
  if (!token) {
    path.report("expected {\"token\": ...}");
    return false;
  }
  if (std::optional<llvm::StringRef> s = token->getAsString())
    p.token = s->str();
  else
    p.token = llvm::formatv("{0}", *token).str();
  return true;
}

json::Value waveasm::lsp::toJSON(const CodeActionParams &p) {
  json::Array only;
  for (const std::string &kind : p.only)
    only.push_back(kind);
  json::Array diagnostics;
  for (const Diagnostic &d : p.diagnostics)
    diagnostics.push_back(d);
  json::Object context{{"diagnostics", std::move(diagnostics)}};
  if (!p.only.empty())
    context["only"] = std::move(only);
  return json::Object{{"textDocument", p.textDocument},
                      {"range", p.range},
                      {"context", std::move(context)}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, CodeActionParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("textDocument", p.textDocument) || !o.map("range", p.range))
    return false;
  p.only.clear();
  if (const json::Value *only = lookup(v, {"context", "only"}))
    if (const json::Array *array = only->getAsArray())
      for (const json::Value &kind : *array)
        if (std::optional<llvm::StringRef> s = kind.getAsString())
          p.only.push_back(s->str());
  p.diagnostics.clear();
  if (const json::Value *diagnostics = lookup(v, {"context", "diagnostics"}))
    if (const json::Array *array = diagnostics->getAsArray())
      for (const json::Value &item : *array) {
        // One malformed diagnostic must not cost the client every fix.
        Diagnostic diag;
        json::Path::Root root;
        if (fromJSON(item, diag, root))
          p.diagnostics.push_back(std::move(diag));
        else
          llvm::consumeError(root.getError());
      }
  return true;
}

json::Value waveasm::lsp::toJSON(const ExecuteCommandParams &p) {
  return json::Object{{"command", p.command},
                      {"arguments", json::Array(p.arguments)}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, ExecuteCommandParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  if (!o || !o.map("command", p.command))
    return false;
  p.arguments.clear();
  if (const json::Value *args = v.getAsObject()->get("arguments")) {
    if (const json::Array *array = args->getAsArray()) {
      p.arguments = *array;
    } else if (args->kind() != json::Value::Null) {
      path.field("arguments").report("expected an array");
      return false;
    }
  }
  return true;
}

json::Value waveasm::lsp::toJSON(const ApplyWorkspaceEditParams &p) {
  return json::Object{{"label", p.label}, {"edit", p.edit}};
}
bool waveasm::lsp::fromJSON(const json::Value &v, ApplyWorkspaceEditParams &p,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<std::string> label;
  if (!o || !o.map("edit", p.edit) || !o.map("label", label))
    return false;
  p.label = label.value_or("");
  return true;
}

json::Value waveasm::lsp::toJSON(const ApplyWorkspaceEditResult &r) {
  json::Object out{{"applied", r.applied}};
  if (!r.failureReason.empty())
    out["failureReason"] = r.failureReason;
  return out;
}
bool waveasm::lsp::fromJSON(const json::Value &v, ApplyWorkspaceEditResult &r,
                            json::Path path) {
  ObjectMapper o(v, path);
  std::optional<std::string> reason;
  if (!o || !o.map("applied", r.applied) || !o.map("failureReason", reason))
    return false;
  r.failureReason = reason.value_or("");
  return true;
}
