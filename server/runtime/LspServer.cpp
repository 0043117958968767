//===- LspServer.cpp - the language server's runtime
//-----------------------===//

#include "server/runtime/LspServer.h"
#include "server/runtime/LLMRun.h"

#include "protocol/LspParamsJSON.h"
#include "protocol/Uri.h"
#include "server/Completion.h"
#include "server/DiagnosticCapture.h"
#include "server/Features.h"
#include "server/IncrementalParse.h"
#include "server/Timing.h"
#include "server/features/Pipelining.h"

#include "analysis/Metrics.h"
#include "conductor/llm/HttpMulti.h"
#include "pipeline/CompileAndMeasure.h"
#include "support/Version.h"

using namespace waveasm;
using namespace waveasm::server;
using lsp::ErrorCode;
using lsp::logError;
using lsp::logInfo;
using lsp::logVerbose;
using lsp::makeError;
namespace json = llvm::json;

LspServer::LspServer(EventLoop &loop, lsp::Dispatcher &dispatcher,
                     mlir::MLIRContext &context)
    : loop(loop), dispatcher(dispatcher), context(context),
      scheduler(loop, context, store, settings, runtime, *this) {}

LspServer::~LspServer() { stopWorker(); }

void LspServer::stopWorker() {
  // LLM runs hold libuv handles (HTTP sockets, timers): close them while
  // the loop still runs so it can end.
  llmRuns.clear();
  http.reset();
  scheduler.stop();
}

void LspServer::drainCompletions() { scheduler.drainCompletions(); }

template <typename P, typename R>
void LspServer::method(llvm::StringLiteral name,
                       void (LspServer::*handler)(const P &, lsp::Reply<R>)) {
  dispatcher.onRequest<P, R>(
      name, [this, handler, name](const P &params, lsp::Reply<R> reply) {
        auto start = Clock::now();
        (this->*handler)(params, std::move(reply));
        logVerbose("{0} handled in {1} ms", name, msSince(start));
      });
}

template <typename P>
void LspServer::notification(llvm::StringLiteral name,
                             void (LspServer::*handler)(const P &)) {
  dispatcher.onNotification<P>(
      name, [this, handler](const P &params) { (this->*handler)(params); });
}

void LspServer::registerMethods() {
  method("initialize", &LspServer::onInitialize);
  method("shutdown", &LspServer::onShutdown);
  dispatcher.onNotification<lsp::NoParams>("initialized",
                                           [](const lsp::NoParams &) {});
  notification("workspace/didChangeConfiguration",
               &LspServer::onDidChangeConfiguration);

  notification("textDocument/didOpen", &LspServer::onDidOpen);
  notification("textDocument/didChange", &LspServer::onDidChange);
  notification("textDocument/didClose", &LspServer::onDidClose);
  dispatcher.onNotification<lsp::NoParams>("textDocument/didSave",
                                           [](const lsp::NoParams &) {});

  method("textDocument/hover", &LspServer::onHover);
  method("textDocument/completion", &LspServer::onCompletion);
  method("completionItem/resolve", &LspServer::onCompletionResolve);
  method("textDocument/signatureHelp", &LspServer::onSignatureHelp);
  method("textDocument/definition", &LspServer::onDefinition);
  method("textDocument/references", &LspServer::onReferences);
  method("textDocument/documentHighlight", &LspServer::onDocumentHighlight);
  method("textDocument/prepareRename", &LspServer::onPrepareRename);
  method("textDocument/rename", &LspServer::onRename);
  method("textDocument/documentSymbol", &LspServer::onDocumentSymbol);
  method("textDocument/foldingRange", &LspServer::onFoldingRange);
  method("textDocument/semanticTokens/full", &LspServer::onSemanticTokens);
  method("textDocument/inlayHint", &LspServer::onInlayHint);
  method("textDocument/codeLens", &LspServer::onCodeLens);
  method("textDocument/codeAction", &LspServer::onCodeAction);
  method("workspace/executeCommand", &LspServer::onExecuteCommand);
  notification("window/workDoneProgress/cancel", &LspServer::onProgressCancel);
  method("waveasm/assembly", &LspServer::onAssembly);
  method("waveasm/metrics", &LspServer::onMetrics);
  method("waveasm/pipelineSnapshots", &LspServer::onPipelineSnapshots);
  method("waveasm/liveAt", &LspServer::onLiveAt);
  method("waveasm/schedule", &LspServer::onSchedule);
  method("waveasm/dependenceGraph", &LspServer::onDependenceGraph);
}

void LspServer::showMessage(int type, llvm::StringRef message) {
  dispatcher.notify("window/showMessage",
                    json::Object{{"type", type}, {"message", message}});
}

std::shared_ptr<const DocumentProfile>
LspServer::profileFor(llvm::StringRef uri) {
  std::optional<std::string> path = lsp::uriToPath(uri);
  if (!path)
    return nullptr;
  std::optional<ProfileLocation> location =
      resolveProfilePath(settings.profile, *path);
  if (!location)
    return nullptr;
  ProfileFiles::Result result = profiles.load(*location);
  // Like clangd's config errors: one message per problem, not per request.
  if (!result.error.empty() && shownProfileErrors.insert(result.error).second)
    showMessage(/*Warning=*/2, "waveasm profile: " + result.error);
  return result.profile;
}

//===----------------------------------------------------------------------===//
// Lifecycle and configuration
//===----------------------------------------------------------------------===//

void LspServer::onInitialize(const lsp::InitializeParams &params,
                             lsp::Reply<lsp::InitializeResult> reply) {
  client = params.capabilities;
  applySettings(params.initializationOptions);

  lsp::InitializeResult result;
  const SemanticTokenLegend &legend = getSemanticTokenLegend();
  result.capabilities.semanticTokenTypes = legend.tokenTypes;
  result.capabilities.semanticTokenModifiers = legend.tokenModifiers;
  result.capabilities.executeCommands = {kScheduleLoopCommand.str(),
                                         kShowMetricsCommand.str(),
                                         kShowLivePeakCommand.str()};
  result.capabilities.codeActionKinds = {kQuickFixKind.str(),
                                         kCodeActionKind.str()};
  result.serverName = "waveasm-lsp";
  result.serverVersion = getVersionString();
  logInfo("initialized: progress={0} inlayHintRefresh={1} "
          "codeLensRefresh={2}",
          client.workDoneProgress, client.inlayHintRefresh,
          client.codeLensRefresh);
  reply(std::move(result));
}

void LspServer::onShutdown(const lsp::NoParams &,
                           lsp::Reply<json::Value> reply) {
  // Nothing more will be asked; stop spending time on pipelines.
  scheduler.shutdown();
  reply(nullptr);
}

void LspServer::applySettings(const json::Value &json) {
  ++settingsGeneration;
  for (const std::string &problem :
       applySettingsJSON(json, settings, runtime)) {
    logError("settings: {0}", problem);
    showMessage(/*Warning=*/2, "waveasm-lsp settings: " + problem);
  }
  logVerbose("settings: {0}",
             lsp::serialize(settingsToJSON(settings, runtime)));
}

void LspServer::onDidChangeConfiguration(
    const lsp::DidChangeConfigurationParams &params) {
  applySettings(params.settings);
  scheduler.settingsChanged();
}

//===----------------------------------------------------------------------===//
// Documents
//===----------------------------------------------------------------------===//

template <typename Params, typename Result>
LspServer::Session *LspServer::parsedForRequest(
    llvm::StringRef uri, const Params &p, lsp::Reply<Result> &reply,
    void (LspServer::*handler)(const Params &, lsp::Reply<Result>)) {
  std::optional<TextWanted> retried = std::exchange(retrying, std::nullopt);
  if (reply.isCancelled())
    return nullptr; // answered already; no parse for it
  Session *session = find(uri);
  if (!session) {
    reply(makeError(ErrorCode::InvalidParams,
                    "document is not open: " + uri.str()));
    return nullptr;
  }
  // The text the request was sent against: a retry waits for that one's
  // parse, not for every edit typed since (or it could wait as long as
  // the typing goes on).
  TextWanted wanted{session->serial, scheduler.currentText(*session)};
  if (retried && retried->serial == session->serial)
    wanted = *retried;
  if (scheduler.isParsed(*session, wanted.text))
    return session;
  auto retry = std::make_shared<lsp::Reply<Result>>(std::move(reply));
  scheduler.waitForParse(*session, [this, p, retry, handler, wanted]() mutable {
    retrying = wanted;
    (this->*handler)(p, std::move(*retry));
    retrying.reset();
  });
  return nullptr;
}

void LspServer::onDidOpen(const lsp::DidOpenTextDocumentParams &params) {
  const lsp::TextDocumentItem &item = params.textDocument;
  store.open(item);
  logInfo("opened {0} (version {1}, {2} bytes)", lsp::uriDisplayName(item.uri),
          item.version, item.text.size());
  scheduler.opened(item.uri);
}

void LspServer::onDidChange(const lsp::DidChangeTextDocumentParams &params) {
  llvm::Expected<const TextDocument *> doc =
      store.change(params.textDocument, params.contentChanges);
  if (!doc || !find(params.textDocument.uri)) {
    std::string message = doc ? "no session" : llvm::toString(doc.takeError());
    logError("didChange {0} version {1} ignored: {2}", params.textDocument.uri,
             params.textDocument.version, message);
    showMessage(/*Error=*/1, "waveasm-lsp ignored an edit: " + message +
                                 "; the document may be out of sync (close "
                                 "and reopen it)");
    return;
  }
  scheduler.changed(params.textDocument.uri);
}

void LspServer::onDidClose(const lsp::DidCloseTextDocumentParams &params) {
  const std::string &uri = params.textDocument.uri;
  store.close(uri);
  if (!find(uri))
    return;
  scheduler.closed(uri);
  // Clear the document's diagnostics in the editor.
  lsp::PublishDiagnosticsParams clear;
  clear.uri = uri;
  dispatcher.notify("textDocument/publishDiagnostics", clear);
  logInfo("closed {0}", lsp::uriDisplayName(uri));
}

//===----------------------------------------------------------------------===//
// What the scheduler reports
//===----------------------------------------------------------------------===//

void LspServer::onDiagnostics(const std::string &uri, int64_t version,
                              std::vector<lsp::Diagnostic> diagnostics) {
  lsp::PublishDiagnosticsParams params;
  params.uri = uri;
  params.version = version;
  params.diagnostics = std::move(diagnostics);
  dispatcher.notify("textDocument/publishDiagnostics", params);
}

void LspServer::onCompiled(Session &) {
  if (client.inlayHintRefresh)
    dispatcher.call("workspace/inlayHint/refresh", nullptr);
  if (client.codeLensRefresh)
    dispatcher.call("workspace/codeLens/refresh", nullptr);
}

void LspServer::onPipelineQueued(Session &session) { startProgress(session); }

void LspServer::onPipelineSettled(Session &session) { endProgress(session); }

void LspServer::startProgress(Session &session) {
  if (!client.workDoneProgress || session.progressTimer ||
      !session.progressToken.empty())
    return;
  std::string uri = session.uri;
  session.progressTimer = loop.runAfter(runtime.progressDelayMs, [this, uri] {
    Session *s = find(uri);
    if (!s)
      return;
    s->progressTimer.reset();
    if (!s->pipelinePending())
      return;
    std::string token =
        "waveasm/pipeline/" + std::to_string(nextProgressToken++);
    s->progressToken = token;
    // Progress may only be reported once the client accepted the token.
    dispatcher.call(
        "window/workDoneProgress/create",
        lsp::WorkDoneProgressCreateParams{token},
        [this, uri, token](llvm::Expected<json::Value> result) {
          Session *s = find(uri);
          if (!result) {
            logInfo("workDoneProgress/create refused: {0}",
                    llvm::toString(result.takeError()));
            if (s && s->progressToken == token)
              s->progressToken.clear();
            return;
          }
          if (!s || s->progressToken != token)
            return;
          if (!s->pipelinePending()) {
            s->progressToken.clear();
            return;
          }
          lsp::WorkDoneProgress begin;
          begin.kind = lsp::WorkDoneProgress::Begin;
          begin.title = "WaveASM pipeline";
          begin.message = lsp::uriDisplayName(uri) + " v" +
                          std::to_string(s->parsed->getVersion());
          dispatcher.notify("$/progress", lsp::ProgressParams{token, begin});
          s->progressBegun = true;
        });
  });
}

void LspServer::endProgress(Session &session) {
  if (session.progressTimer) {
    loop.cancel(*session.progressTimer);
    session.progressTimer.reset();
  }
  if (!session.progressBegun) {
    // A create still in flight sees the pipeline settled and clears it.
    return;
  }
  lsp::WorkDoneProgress end;
  end.kind = lsp::WorkDoneProgress::End;
  dispatcher.notify("$/progress",
                    lsp::ProgressParams{session.progressToken, end});
  session.progressBegun = false;
  session.progressToken.clear();
}

//===----------------------------------------------------------------------===//
// Requests
//===----------------------------------------------------------------------===//

void LspServer::onHover(const lsp::TextDocumentPositionParams &p,
                        lsp::Reply<std::optional<lsp::Hover>> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onHover);
  if (!s)
    return;
  std::shared_ptr<const DocumentProfile> profile =
      profileFor(p.textDocument.uri);
  const ParsedDocument &parsed = *s->parsed;
  std::optional<lsp::Hover> hover =
      computeHover(parsed, s->compiled.get(), p.position, profile.get());
  // On the pressure peak: the longest-lived values there (LiveValues.cpp).
  if (std::optional<std::string> peak =
          computePeakLiveHover(parsed, p.position)) {
    if (!hover) {
      hover.emplace();
    } else {
      hover->contents.value += "\n\n---\n\n";
    }
    hover->contents.value += *peak;
  }
  reply(std::move(hover));
}

void LspServer::onDefinition(const lsp::TextDocumentPositionParams &p,
                             lsp::Reply<std::vector<lsp::Location>> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onDefinition);
  if (!s)
    return;
  reply(findDefinition(*s->parsed, p.position));
}

void LspServer::onReferences(const lsp::ReferenceParams &p,
                             lsp::Reply<std::vector<lsp::Location>> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onReferences);
  if (!s)
    return;
  reply(findReferences(*s->parsed, p.position, p.includeDeclaration));
}

void LspServer::onDocumentHighlight(
    const lsp::TextDocumentPositionParams &p,
    lsp::Reply<std::vector<lsp::DocumentHighlight>> reply) {
  Session *s = parsedForRequest(p.textDocument.uri, p, reply,
                                &LspServer::onDocumentHighlight);
  if (!s)
    return;
  reply(computeDocumentHighlights(*s->parsed, p.position));
}

void LspServer::onPrepareRename(
    const lsp::TextDocumentPositionParams &p,
    lsp::Reply<std::optional<lsp::PrepareRenameResult>> reply) {
  Session *s = parsedForRequest(p.textDocument.uri, p, reply,
                                &LspServer::onPrepareRename);
  if (!s)
    return;
  const ParsedDocument &parsed = *s->parsed;
  std::optional<lsp::Range> range = prepareRename(parsed, p.position);
  if (!range)
    return reply(std::nullopt);
  const LineTable &lines = parsed.getLines();
  size_t begin = lines.getOffset(range->start);
  size_t end = lines.getOffset(range->end);
  reply(lsp::PrepareRenameResult{*range,
                                 parsed.getText().slice(begin, end).str()});
}

void LspServer::onRename(const lsp::RenameParams &p,
                         lsp::Reply<lsp::WorkspaceEdit> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onRename);
  if (!s)
    return;
  std::string error;
  std::optional<lsp::WorkspaceEdit> edit =
      renameValue(*s->parsed, p.position, p.newName, &error);
  if (!edit)
    return reply(makeError(ErrorCode::RequestFailed,
                           error.empty() ? "cannot rename here" : error));
  reply(std::move(*edit));
}

void LspServer::onDocumentSymbol(
    const lsp::DocumentParams &p,
    lsp::Reply<std::vector<lsp::DocumentSymbol>> reply) {
  Session *s = parsedForRequest(p.textDocument.uri, p, reply,
                                &LspServer::onDocumentSymbol);
  if (!s)
    return;
  reply(computeDocumentSymbols(*s->parsed));
}

void LspServer::onFoldingRange(
    const lsp::DocumentParams &p,
    lsp::Reply<std::vector<lsp::FoldingRange>> reply) {
  Session *s = parsedForRequest(p.textDocument.uri, p, reply,
                                &LspServer::onFoldingRange);
  if (!s)
    return;
  reply(computeFoldingRanges(*s->parsed));
}

void LspServer::onSemanticTokens(const lsp::DocumentParams &p,
                                 lsp::Reply<lsp::SemanticTokens> reply) {
  Session *s = parsedForRequest(p.textDocument.uri, p, reply,
                                &LspServer::onSemanticTokens);
  if (!s)
    return;
  reply(lsp::SemanticTokens{computeSemanticTokens(*s->parsed)});
}

void LspServer::onInlayHint(const lsp::DocumentRangeParams &p,
                            lsp::Reply<std::vector<lsp::InlayHint>> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onInlayHint);
  if (!s)
    return;
  Session &session = *s;
  // A client that cannot be told to refresh would keep hints without
  // latencies; make it wait for the pipeline instead.
  if (!client.inlayHintRefresh && session.pipelinePending()) {
    auto retry = std::make_shared<lsp::Reply<std::vector<lsp::InlayHint>>>(
        std::move(reply));
    scheduler.whenPipelineSettles(session, [this, p, retry]() mutable {
      onInlayHint(p, std::move(*retry));
    });
    return;
  }
  std::shared_ptr<const DocumentProfile> profile =
      settings.hintProfile ? profileFor(p.textDocument.uri) : nullptr;
  reply(computeInlayHints(*session.parsed, session.compiled.get(), p.range,
                          settings, profile.get()));
}

void LspServer::onCodeLens(const lsp::DocumentParams &p,
                           lsp::Reply<std::vector<lsp::CodeLens>> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onCodeLens);
  if (!s)
    return;
  Session &session = *s;
  if (!client.codeLensRefresh && session.pipelinePending()) {
    auto retry = std::make_shared<lsp::Reply<std::vector<lsp::CodeLens>>>(
        std::move(reply));
    scheduler.whenPipelineSettles(session, [this, p, retry]() mutable {
      onCodeLens(p, std::move(*retry));
    });
    return;
  }
  reply(computeCodeLenses(*session.parsed, session.compiled.get()));
}

/// Why `parsed` cannot be compiled, or success.
static llvm::Error checkCompilable(const ParsedDocument &parsed,
                                   llvm::StringRef what) {
  if (parsed.getModule() && parsed.isVerified())
    return llvm::Error::success();
  std::string first = parsed.getDiagnostics().empty()
                          ? std::string("it does not parse")
                          : parsed.getDiagnostics().front().message;
  return makeError(ErrorCode::RequestFailed,
                   llvm::formatv("no {0}: version {1} has errors ({2})", what,
                                 parsed.getVersion(), first));
}

template <typename Params, typename Result>
std::pair<const ParsedDocument *, const CompiledDocument *>
LspServer::compiledForRequest(const Params &p, llvm::StringRef what,
                              lsp::Reply<Result> &reply,
                              void (LspServer::*handler)(const Params &,
                                                         lsp::Reply<Result>)) {
  if (reply.isCancelled())
    return {};
  Session *s = parsedForRequest(p.textDocument.uri, p, reply, handler);
  if (!s)
    return {};
  Session &session = *s;
  const ParsedDocument &parsed = *session.parsed;
  if (llvm::Error error = checkCompilable(parsed, what)) {
    reply(std::move(error));
    return {};
  }
  const CompiledDocument *compiled =
      freshOrNull(parsed, session.compiled.get());
  if (!compiled) {
    // The pipeline for this text is queued or running: answer when it
    // lands (or re-check if the text changed meanwhile).
    if (!session.pipelinePending())
      scheduler.schedulePipeline(session);
    auto retry = std::make_shared<lsp::Reply<Result>>(std::move(reply));
    scheduler.whenPipelineSettles(session, [this, p, retry, handler]() mutable {
      (this->*handler)(p, std::move(*retry));
    });
    return {};
  }
  if (!compiled->succeeded()) {
    std::string first = compiled->getDiagnostics().empty()
                            ? std::string("the pipeline failed")
                            : compiled->getDiagnostics().front().message;
    reply(makeError(ErrorCode::RequestFailed,
                    llvm::formatv("no {0}: {1}", what, first)));
    return {};
  }
  return {&parsed, compiled};
}

void LspServer::onMetrics(const lsp::DocumentParams &p,
                          lsp::Reply<lsp::MetricsResult> reply) {
  const CompiledDocument *compiled =
      compiledForRequest(p, "metrics", reply, &LspServer::onMetrics).second;
  if (!compiled)
    return;
  std::vector<ProgramMetrics> programs;
  for (const CompiledProgramInfo &program : compiled->getPrograms())
    programs.push_back(program.result.metrics);
  json::Value all = metricsToJSON(programs);
  lsp::MetricsResult result;
  result.version = compiled->getVersion();
  if (const json::Value *list = all.getAsObject()->get("programs"))
    result.programs = *list;
  reply(std::move(result));
}

void LspServer::onPipelineSnapshots(const lsp::PipelineSnapshotsParams &p,
                                    lsp::Reply<json::Value> reply) {
  Session *s = parsedForRequest(p.textDocument.uri, p, reply,
                                &LspServer::onPipelineSnapshots);
  if (!s)
    return;
  Session &session = *s;
  std::shared_ptr<const ParsedDocument> parsed = session.parsed;
  int64_t maxText = p.maxTextBytes.value_or(kDefaultSnapshotTextBytes);
  // The answer to send from a full list.
  auto answer =
      [p,
       maxText](const DocumentSnapshots &full) -> llvm::Expected<json::Value> {
    std::optional<json::Value> selected =
        selectPipelineSnapshots(full, p.index, maxText);
    if (!selected)
      return makeError(ErrorCode::InvalidParams,
                       llvm::formatv("no snapshot {0}", p.index.value_or(-1)));
    return std::move(*selected);
  };
  if (llvm::Error error = checkCompilable(*parsed, "pipeline snapshots")) {
    // The last good list, marked stale with the reason; never an empty
    // list without a word.
    std::string why = llvm::toString(std::move(error));
    llvm::Expected<json::Value> stale = answer(
        session.lastSnapshots ? *session.lastSnapshots : DocumentSnapshots());
    if (!stale)
      return reply(stale.takeError());
    json::Object &object = *stale->getAsObject();
    if (!session.lastSnapshots)
      object["version"] = nullptr; // no version ever compiled
    object["stale"] = true;
    object["message"] = why;
    object["documentVersion"] = parsed->getVersion();
    return reply(std::move(*stale));
  }
  // The list of this very text (a text by index, a repeated request).
  if (session.lastSnapshots && session.lastSnapshotsFor == parsed)
    return reply(answer(*session.lastSnapshots));
  // A pipeline with every pass printed and measured: on the worker.
  lsp::CancellationToken token = reply.token();
  auto shared = std::make_shared<lsp::Reply<json::Value>>(std::move(reply));
  auto run = [this, uri = p.textDocument.uri, serial = session.serial, parsed,
              shared, answer,
              snapshot = settings]() mutable -> Worker::Continuation {
    auto start = Clock::now();
    auto full = std::make_shared<const DocumentSnapshots>(
        computePipelineSnapshots(*parsed, snapshot));
    double ms = msSince(start);
    return [this, uri, serial, full, shared, ms, parsed, answer]() mutable {
      Session *session = find(uri);
      if (session && session->serial == serial) {
        session->lastSnapshots = full;
        session->lastSnapshotsFor = parsed;
      }
      logInfo("pipeline snapshots for {0} v{1} in {2} ms",
              lsp::uriDisplayName(uri), parsed->getVersion(),
              llvm::formatv("{0:f1}", ms));
      (*shared)(answer(*full));
    };
  };
  Worker *worker = scheduler.getWorker();
  if (!worker)
    return run()();
  worker->post(/*key=*/"", token, std::move(run));
}

void LspServer::onLiveAt(const lsp::TextDocumentPositionParams &p,
                         lsp::Reply<json::Value> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onLiveAt);
  if (!s)
    return;
  const ParsedDocument &parsed = *s->parsed;
  if (llvm::Error error = checkCompilable(parsed, "live values"))
    return reply(std::move(error));
  reply(computeLiveAt(parsed, p.position));
}

void LspServer::onSchedule(const lsp::ScheduleParams &p,
                           lsp::Reply<json::Value> reply) {
  auto [parsed, compiled] =
      compiledForRequest(p, "schedule", reply, &LspServer::onSchedule);
  if (!compiled)
    return;
  std::optional<ScheduleView> view =
      computeScheduleView(*parsed, compiled, p.position);
  if (!view) // a module without programs
    return reply(
        makeError(ErrorCode::RequestFailed, "no schedule: no program"));
  ScheduleRender render = p.render == "svg"    ? ScheduleRender::SVG
                          : p.render == "text" ? ScheduleRender::Text
                                               : ScheduleRender::None;
  reply(scheduleViewToJSON(*view, compiled->getVersion(), render));
}

void LspServer::onDependenceGraph(const lsp::ScheduleParams &p,
                                  lsp::Reply<json::Value> reply) {
  // The text as written and the target model: no pipeline to wait for.
  Session *s = parsedForRequest(p.textDocument.uri, p, reply,
                                &LspServer::onDependenceGraph);
  if (!s)
    return;
  const ParsedDocument &parsed = *s->parsed;
  if (llvm::Error error = checkCompilable(parsed, "dependence graph"))
    return reply(std::move(error));
  if (p.render && *p.render == "text")
    return reply(makeError(ErrorCode::InvalidParams,
                           "the dependence graph renders as \"svg\" or "
                           "\"none\", not \"text\""));
  std::optional<DependenceView> view =
      computeDependenceView(parsed, settings, p.position);
  if (!view)
    return reply(makeError(ErrorCode::RequestFailed,
                           "no dependence graph: the document has no loop"));
  reply(dependenceViewToJSON(*view, parsed.getVersion(),
                             p.render && *p.render == "svg"));
}

//===----------------------------------------------------------------------===//
// Completion and signature help: from the current text and the last parse
// that produced a module, never waiting for a parse (features/Completion.cpp)
//===----------------------------------------------------------------------===//

void LspServer::onCompletion(const lsp::TextDocumentPositionParams &p,
                             lsp::Reply<lsp::CompletionList> reply) {
  Session *session = find(p.textDocument.uri);
  const TextDocument *doc = store.get(p.textDocument.uri);
  if (!session || !doc)
    return reply(makeError(ErrorCode::InvalidParams,
                           "document is not open: " + p.textDocument.uri));
  CompletionOptions options;
  options.snippets = client.completionSnippets;
  options.defaultEditRange = client.completionDefaultEditRange;
  options.targetOverride = settings.targetOverride;
  reply(computeCompletion(session->lastGood.get(), doc->text, p.position,
                          context, options));
}

void LspServer::onCompletionResolve(const lsp::CompletionItem &item,
                                    lsp::Reply<lsp::CompletionItem> reply) {
  lsp::CompletionItem resolved = item;
  resolveCompletionItem(resolved);
  reply(std::move(resolved));
}

void LspServer::onSignatureHelp(
    const lsp::TextDocumentPositionParams &p,
    lsp::Reply<std::optional<lsp::SignatureHelp>> reply) {
  const TextDocument *doc = store.get(p.textDocument.uri);
  if (!doc)
    return reply(makeError(ErrorCode::InvalidParams,
                           "document is not open: " + p.textDocument.uri));
  reply(computeSignatureHelp(doc->text, p.position));
}

namespace {
/// The `waveasm/assembly` answer from compiled programs whose line maps
/// point at `parsed`'s ops.
lsp::AssemblyResult
assemblyAnswer(const ParsedDocument &parsed,
               llvm::ArrayRef<const CompiledProgram *> programs) {
  lsp::AssemblyResult answer;
  answer.version = parsed.getVersion();
  int lineOffset = 0;
  for (const CompiledProgram *program : programs) {
    std::string text = program->assembly;
    if (!text.empty() && text.back() != '\n')
      text += '\n';
    for (auto [line, op] : llvm::enumerate(program->lineOps)) {
      if (!op)
        continue;
      std::optional<unsigned> entry = parsed.lookupOp(op);
      if (!entry)
        continue;
      const OpEntry &e = parsed.getOps()[*entry];
      // Region ops map to their name line, others to the whole op.
      lsp::Range range = op->getNumRegions() ? e.name : e.scope;
      answer.map.push_back({lineOffset + static_cast<int>(line), range});
    }
    lineOffset += static_cast<int>(llvm::count(text, '\n'));
    answer.text += text;
  }
  return answer;
}
} // namespace

void LspServer::onAssembly(const lsp::DocumentParams &p,
                           lsp::Reply<lsp::AssemblyResult> reply) {
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onAssembly);
  if (!s)
    return;
  std::shared_ptr<const ParsedDocument> parsed = s->parsed;
  if (llvm::Error error = checkCompilable(*parsed, "assembly"))
    return reply(std::move(error));

  // The background pipeline emits assembly (kEmitAssemblyInServer): when
  // its result is for this text and these settings, answer from it. With a
  // target override it compiled a retargeted copy, whose line map points
  // at the copy's ops; and the request compiles the file's own target.
  const CompiledDocument *compiled = freshOrNull(*parsed, s->compiled.get());
  if (kEmitAssemblyInServer && compiled && compiled->succeeded() &&
      !settings.targetOverride && compiled->compiledWith(settings)) {
    std::vector<const CompiledProgram *> programs;
    for (const CompiledProgramInfo &program : compiled->getPrograms())
      programs.push_back(&program.result);
    logInfo("assembly of {0} v{1} from the background pipeline",
            lsp::uriDisplayName(parsed->getURI()), parsed->getVersion());
    return reply(assemblyAnswer(*parsed, programs));
  }
  logInfo("assembly of {0} v{1}: compiling on request",
          lsp::uriDisplayName(parsed->getURI()), parsed->getVersion());

  // Otherwise compile on the worker once more with emission on (the
  // pipeline may be queued behind an edit, or have failed: this reports
  // the emitter's own error). The request's token lets a cancelled
  // request drop the job before it starts.
  Worker *worker = scheduler.getWorker();
  if (!worker)
    return reply(makeError(ErrorCode::InvalidRequest, "the server is exiting"));
  lsp::CancellationToken token = reply.token();
  auto shared =
      std::make_shared<lsp::Reply<lsp::AssemblyResult>>(std::move(reply));
  worker->post(
      /*key=*/"", token,
      [parsed = std::move(parsed), shared,
       overrides = settings.targetModelOverrides,
       optimize = settings.optimizePipeline]() mutable -> Worker::Continuation {
        CompileOptions options;
        options.pipeline = CompileOptions::measuringPipeline(optimize);
        options.emitAssembly = true;
        options.targetOverrides = overrides;
        std::vector<RawDiagnostic> raw;
        mlir::FailureOr<CompileResult> result = mlir::failure();
        {
          DiagnosticCapture capture(parsed->getContext());
          result = compileAndMeasure(parsed->getModule(), options);
          raw = capture.take();
        }
        // Plain values, not llvm::Expected: the continuation may be
        // destroyed unrun at exit, and an unchecked Expected aborts.
        std::optional<lsp::AssemblyResult> answer;
        std::string error;
        if (mlir::failed(result)) {
          error = "assembly emission failed";
          if (!raw.empty()) {
            lsp::Diagnostic first = parsed->toLspDiagnostic(raw.front());
            error += llvm::formatv(" at line {0}: {1}",
                                   first.range.start.line + 1, first.message);
          }
        } else {
          std::vector<const CompiledProgram *> programs;
          for (const CompiledProgram &program : result->programs)
            programs.push_back(&program);
          answer = assemblyAnswer(*parsed, programs);
        }
        return [shared, answer = std::move(answer), error = std::move(error),
                parsed = std::move(parsed)]() mutable {
          if (answer)
            (*shared)(std::move(*answer));
          else
            (*shared)(makeError(ErrorCode::RequestFailed, error));
        };
      });
}

//===----------------------------------------------------------------------===//
// Code actions and commands (the logic: features/CodeActions.cpp; the LLM
// runs and edit delivery: ScheduleRuns.cpp)
//===----------------------------------------------------------------------===//

void LspServer::onCodeAction(const lsp::CodeActionParams &p,
                             lsp::Reply<std::vector<lsp::CodeAction>> reply) {
  // `only` entries are kind prefixes ("refactor" asks for refactor.rewrite).
  auto wants = [&](llvm::StringRef kind) {
    return p.only.empty() || llvm::any_of(p.only, [&](const std::string &k) {
             return kind.starts_with(k);
           });
  };
  bool quickFixes = wants(kQuickFixKind), refactors = wants(kCodeActionKind);
  if (!quickFixes && !refactors)
    return reply(std::vector<lsp::CodeAction>{});
  Session *s =
      parsedForRequest(p.textDocument.uri, p, reply, &LspServer::onCodeAction);
  if (!s)
    return;
  std::shared_ptr<const ParsedDocument> parsed = s->parsed;
  // The background compile says which loops the optimizations change (for
  // "Apply loop optimizations") and is the stall lints' snapshot; a stale
  // one is ignored.
  auto compiled = s->compiled;
  std::vector<lsp::CodeAction> fixes;
  // The fixes that compile (stall moves, bank conflict padding).
  std::vector<lsp::Diagnostic> compiledFixable;
  if (quickFixes) {
    // The parse-only fixes answer at once, without the pipeline: each is
    // one re-parse of the fixed text.
    auto start = Clock::now();
    // Clients send the diagnostics they show in the range; only without
    // them are the document's own computed again.
    std::vector<lsp::Diagnostic> diagnostics =
        p.diagnostics.empty()
            ? selectQuickFixDiagnostics(
                  {}, computeDiagnostics(*parsed, compiled.get(), settings),
                  p.range)
            : p.diagnostics;
    QuickFixOptions fixOptions;
    fixOptions.versionedEdits = client.workspaceEditDocumentChanges;
    fixes = computeQuickFixes(*parsed, diagnostics, settings, fixOptions);
    for (const lsp::Diagnostic &d : diagnostics)
      if (isStallDiagnostic(d) || isBankConflictDiagnostic(d))
        compiledFixable.push_back(d);
    if (!freshOrNull(*parsed, compiled.get()))
      compiledFixable.clear();
    logVerbose("{0} quick fixes for {1} v{2} in {3} ms", fixes.size(),
               lsp::uriDisplayName(p.textDocument.uri), parsed->getVersion(),
               llvm::formatv("{0:f1}", msSince(start)));
  }
  refactors &= parsed->isVerified();
  Worker *worker = scheduler.getWorker();
  if (!worker || (!refactors && compiledFixable.empty()))
    return reply(std::move(fixes));
  CodeActionOptions options;
  options.versionedEdits = client.workspaceEditDocumentChanges;
  QuickFixOptions fixOptions;
  fixOptions.versionedEdits = options.versionedEdits;
  // Measuring candidate moves compiles the program once per candidate: on
  // the worker, so the loop keeps answering; the request's token drops it
  // when cancelled before it starts.
  lsp::CancellationToken token = reply.token();
  auto shared = std::make_shared<lsp::Reply<std::vector<lsp::CodeAction>>>(
      std::move(reply));
  std::string uri = p.textDocument.uri;
  worker->post(
      /*key=*/"", token,
      [this, uri, parsed = std::move(parsed), compiled = std::move(compiled),
       shared, options, fixOptions, refactors, fixes = std::move(fixes),
       compiledFixable = std::move(compiledFixable), position = p.range.start,
       snapshot = settings,
       generation = settingsGeneration]() mutable -> Worker::Continuation {
        auto start = Clock::now();
        std::vector<lsp::CodeAction> actions = std::move(fixes);
        for (auto compute :
             {computeStallQuickFixes, computeBankConflictQuickFixes}) {
          std::vector<lsp::CodeAction> found = compute(
              *parsed, compiled.get(), compiledFixable, snapshot, fixOptions);
          actions.insert(actions.end(), std::make_move_iterator(found.begin()),
                         std::make_move_iterator(found.end()));
        }
        if (refactors) {
          std::vector<lsp::CodeAction> moves =
              computeCodeActions(*parsed, position, snapshot, options);
          actions.insert(actions.end(), std::make_move_iterator(moves.begin()),
                         std::make_move_iterator(moves.end()));
          if (std::optional<lsp::CodeAction> optimize =
                  computeApplyOptimizationsAction(*parsed, compiled.get(),
                                                  position, options))
            actions.push_back(std::move(*optimize));
          ActionCache::Key key{uri, parsed->getVersion(), position.line};
          std::optional<std::vector<lsp::CodeAction>> pipelining =
              pipelineActions.find(key, generation);
          if (pipelining) {
            logVerbose("pipelining actions for {0} v{1} line {2}: cached",
                       lsp::uriDisplayName(uri), parsed->getVersion(),
                       position.line + 1);
          } else {
            pipelining = computePipelineLoopActions(*parsed, position, snapshot,
                                                    options);
            pipelineActions.store(key, generation, *pipelining);
          }
          actions.insert(actions.end(),
                         std::make_move_iterator(pipelining->begin()),
                         std::make_move_iterator(pipelining->end()));
          if (std::optional<lsp::CodeAction> plan =
                  computePlanLdsAction(*parsed, position, options))
            actions.push_back(std::move(*plan));
          if (std::optional<lsp::CodeAction> declare =
                  computeDeclareNoAliasAction(*parsed, position, options))
            actions.push_back(std::move(*declare));
        }
        double ms = msSince(start);
        return [this, uri, parsed = std::move(parsed), shared, ms,
                actions = std::move(actions)]() mutable {
          const TextDocument *doc = store.get(uri);
          if (!doc || doc->version != parsed->getVersion()) {
            // The edits name lines of a text that is gone.
            logInfo("dropped code actions for {0} v{1} (now v{2})",
                    lsp::uriDisplayName(uri), parsed->getVersion(),
                    doc ? doc->version : -1);
            return (*shared)(
                makeError(ErrorCode::ContentModified, "the document changed"));
          }
          logInfo("{0} code actions for {1} v{2} in {3} ms", actions.size(),
                  lsp::uriDisplayName(uri), parsed->getVersion(),
                  llvm::formatv("{0:f1}", ms));
          (*shared)(std::move(actions));
        };
      });
}

void LspServer::onExecuteCommand(const lsp::ExecuteCommandParams &p,
                                 lsp::Reply<json::Value> reply) {
  const json::Object *argument =
      p.arguments.empty() ? nullptr : p.arguments.front().getAsObject();
  if (p.command == kShowMetricsCommand) {
    std::optional<llvm::StringRef> uri =
        argument ? argument->getString("uri") : std::nullopt;
    if (!uri)
      return reply(makeError(ErrorCode::InvalidParams,
                             "waveasm.showMetrics expects [{\"uri\": URI}]"));
    lsp::DocumentParams params;
    params.textDocument.uri = uri->str();
    return onMetrics(params,
                     lsp::Reply<lsp::MetricsResult>(std::move(reply).take()));
  }
  if (p.command == kShowLivePeakCommand) {
    std::optional<llvm::StringRef> uri =
        argument ? argument->getString("uri") : std::nullopt;
    if (!uri)
      return reply(makeError(ErrorCode::InvalidParams,
                             "waveasm.showLivePeak expects [{\"uri\": URI}]"));
    Session *s = parsedForRequest(*uri, p, reply, &LspServer::onExecuteCommand);
    if (!s)
      return;
    const ParsedDocument &parsed = *s->parsed;
    if (llvm::Error error = checkCompilable(parsed, "live values"))
      return reply(std::move(error));
    return reply(computeLivePeak(parsed, *uri));
  }
  if (p.command == kScheduleLoopCommand) {
    if (!argument)
      return reply(makeError(
          ErrorCode::InvalidParams,
          "waveasm.scheduleLoop expects [{\"uri\": URI, \"position\": "
          "{\"line\": L, \"character\": C}, \"strategy\": "
          "\"builtin\"|\"llm\"}]"));
    return scheduleLoop(
        p.arguments.front(),
        std::make_shared<lsp::Reply<json::Value>>(std::move(reply)));
  }
  reply(makeError(ErrorCode::InvalidParams,
                  "unknown command '" + p.command + "' (waveasm-lsp provides " +
                      kScheduleLoopCommand + ", " + kShowMetricsCommand +
                      " and " + kShowLivePeakCommand + ")"));
}

void LspServer::scheduleLoop(const json::Value &argument, SharedReply reply) {
  const json::Object &arg = *argument.getAsObject();
  std::optional<llvm::StringRef> uri = arg.getString("uri");
  const json::Object *pos = arg.getObject("position");
  std::optional<int64_t> line = pos ? pos->getInteger("line") : std::nullopt;
  std::optional<int64_t> character =
      pos ? pos->getInteger("character") : std::nullopt;
  std::string strategy = arg.getString("strategy").value_or("builtin").str();
  if (!uri || !line || !character || *line < 0 || *character < 0)
    return (*reply)(makeError(ErrorCode::InvalidParams,
                              "waveasm.scheduleLoop: expected uri and "
                              "position {line, character}"));
  if (strategy != "builtin" && strategy != "llm")
    return (*reply)(makeError(ErrorCode::InvalidParams,
                              "waveasm.scheduleLoop: strategy must be "
                              "\"builtin\" or \"llm\", not \"" +
                                  strategy + "\""));
  Session *s = find(*uri);
  if (!s)
    return (*reply)(makeError(ErrorCode::InvalidParams,
                              "document is not open: " + uri->str()));
  if (!scheduler.isParsed(*s, scheduler.currentText(*s)))
    return scheduler.waitForParse(
        *s, [this, argument, reply] { scheduleLoop(argument, reply); });
  std::shared_ptr<const ParsedDocument> parsed = s->parsed;
  if (llvm::Error error = checkCompilable(*parsed, "schedule"))
    return (*reply)(std::move(error));
  lsp::Position position{static_cast<int>(*line), static_cast<int>(*character)};
  std::optional<ScheduleTarget> target = findScheduleTarget(*parsed, position);
  if (!target)
    return (*reply)(makeError(
        ErrorCode::RequestFailed,
        llvm::formatv("no loop or program at line {0}", *line + 1).str()));
  if (strategy == "llm")
    return startLLMSchedule(uri->str(), std::move(parsed), *target,
                            std::move(reply));
  Worker *worker = scheduler.getWorker();
  if (!worker)
    return (*reply)(
        makeError(ErrorCode::InvalidRequest, "the server is exiting"));
  worker->post(
      /*key=*/"", reply->token(),
      [this, uri = uri->str(), parsed = std::move(parsed), target = *target,
       reply, snapshot = settings]() mutable -> Worker::Continuation {
        auto start = Clock::now();
        auto outcome = std::make_shared<ScheduleOutcome>(
            scheduleBuiltin(*parsed, target, snapshot));
        double ms = msSince(start);
        return [this, uri, parsed = std::move(parsed), reply, outcome, ms] {
          logInfo("built-in schedule of {0} v{1} in {2} ms: {3}",
                  lsp::uriDisplayName(uri), parsed->getVersion(),
                  llvm::formatv("{0:f1}", ms), outcome->summary);
          deliverSchedule(uri, parsed, std::move(*outcome),
                          "Schedule loop (built-in)", reply);
        };
      });
}
