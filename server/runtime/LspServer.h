//===- LspServer.h - the protocol handlers ----------------------*- C++ -*-===//
//
// One handler per LSP method: it finds the document's snapshots, calls the
// pure functions of server/Features.h and answers. When documents get
// parsed and compiled is DocumentScheduler's business (as clangd keeps
// ClangdLSPServer apart from TUScheduler); the scheduler calls back here
// to publish diagnostics, refresh hints and lenses and report progress.
//
// Requests about a document need the parse of the text the client has:
// when it has not landed yet, the handler runs again once it has
// (`parsedForRequest`). Requests that read the compile wait for the
// pipeline the same way (`compiledForRequest`); features check
// CompiledDocument::isFor. Completion and signature help never wait: they
// read the current text and the last good parse.
//
// Everything here runs on the event loop's thread.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_LSPSERVER_H
#define WAVEASM_SERVER_RUNTIME_LSPSERVER_H

#include "protocol/Dispatcher.h"
#include "protocol/LspCompletion.h"
#include "protocol/LspParams.h"
#include "server/DocumentState.h"
#include "server/Settings.h"
#include "server/runtime/ActionCache.h"
#include "server/runtime/DocumentScheduler.h"
#include "server/runtime/DocumentStore.h"
#include "server/runtime/EventLoop.h"
#include "server/runtime/ProfileFiles.h"
#include "server/runtime/SettingsJSON.h"

#include "mlir/IR/MLIRContext.h"

#include <map>
#include <memory>
#include <set>

namespace waveasm::conductor::llm {
class HttpMulti;
} // namespace waveasm::conductor::llm

namespace waveasm::server {

struct ScheduleTarget;
struct ScheduleOutcome;

class LspServer : private DocumentScheduler::Callbacks {
public:
  LspServer(EventLoop &loop, lsp::Dispatcher &dispatcher,
            mlir::MLIRContext &context);
  ~LspServer() override;

  /// Registers every LSP method with the dispatcher.
  void registerMethods();
  /// Runs finished background work's continuations (the loop's wake
  /// handler).
  void drainCompletions();
  /// Stops background work (waits for the running job). Call before the
  /// loop goes away.
  void stopWorker();

private:
  using Session = DocumentSession;
  struct LLMRun;
  using Clock = std::chrono::steady_clock;

  //===--- lifecycle and configuration
  //-------------------------------------===//
  void onInitialize(const lsp::InitializeParams &params,
                    lsp::Reply<lsp::InitializeResult> reply);
  void onShutdown(const lsp::NoParams &, lsp::Reply<llvm::json::Value> reply);
  void onDidChangeConfiguration(const lsp::DidChangeConfigurationParams &p);
  void applySettings(const llvm::json::Value &json);

  //===--- documents
  //-------------------------------------------------------===//
  void onDidOpen(const lsp::DidOpenTextDocumentParams &params);
  void onDidChange(const lsp::DidChangeTextDocumentParams &params);
  void onDidClose(const lsp::DidCloseTextDocumentParams &params);

  Session *find(llvm::StringRef uri) { return scheduler.find(uri); }
  /// The session of `uri` with the parse of its current text; or null when
  /// the request was answered (document not open) or will be:
  /// `handler(p, reply)` runs again once the parse lands, `reply` moved
  /// into that retry.
  /// A request's text: the session and its count of texts.
  struct TextWanted {
    uint64_t serial = 0;
    uint64_t text = 0;
  };
  /// Set while a request waiting for a parse runs again.
  std::optional<TextWanted> retrying;
  template <typename Params, typename Result>
  Session *parsedForRequest(llvm::StringRef uri, const Params &p,
                            lsp::Reply<Result> &reply,
                            void (LspServer::*handler)(const Params &,
                                                       lsp::Reply<Result>));

  //===--- DocumentScheduler::Callbacks
  //-----------------------------------===//
  void onDiagnostics(const std::string &uri, int64_t version,
                     std::vector<lsp::Diagnostic> diagnostics) override;
  void onCompiled(Session &session) override;
  void onPipelineQueued(Session &session) override;
  void onPipelineSettled(Session &session) override;

  /// For a request that reads the compile of `p.textDocument`'s current
  /// text: that compile and its text, or nulls when the request was
  /// answered (cancelled, unknown document, a text or pipeline with errors:
  /// "no <what>: ...") or will be: `handler(p, reply)` runs again once the
  /// pipeline (queued now if need be) lands, `reply` moved into that retry.
  template <typename Params, typename Result>
  std::pair<const ParsedDocument *, const CompiledDocument *>
  compiledForRequest(const Params &p, llvm::StringRef what,
                     lsp::Reply<Result> &reply,
                     void (LspServer::*handler)(const Params &,
                                                lsp::Reply<Result>));
  void startProgress(Session &session);
  void endProgress(Session &session);

  //===--- requests
  //--------------------------------------------------------===//
  void onHover(const lsp::TextDocumentPositionParams &p,
               lsp::Reply<std::optional<lsp::Hover>> reply);
  void onDefinition(const lsp::TextDocumentPositionParams &p,
                    lsp::Reply<std::vector<lsp::Location>> reply);
  void onReferences(const lsp::ReferenceParams &p,
                    lsp::Reply<std::vector<lsp::Location>> reply);
  void onDocumentHighlight(const lsp::TextDocumentPositionParams &p,
                           lsp::Reply<std::vector<lsp::DocumentHighlight>> r);
  void onPrepareRename(const lsp::TextDocumentPositionParams &p,
                       lsp::Reply<std::optional<lsp::PrepareRenameResult>> r);
  void onRename(const lsp::RenameParams &p,
                lsp::Reply<lsp::WorkspaceEdit> reply);
  void onDocumentSymbol(const lsp::DocumentParams &p,
                        lsp::Reply<std::vector<lsp::DocumentSymbol>> reply);
  void onFoldingRange(const lsp::DocumentParams &p,
                      lsp::Reply<std::vector<lsp::FoldingRange>> reply);
  void onSemanticTokens(const lsp::DocumentParams &p,
                        lsp::Reply<lsp::SemanticTokens> reply);
  void onInlayHint(const lsp::DocumentRangeParams &p,
                   lsp::Reply<std::vector<lsp::InlayHint>> reply);
  void onCodeLens(const lsp::DocumentParams &p,
                  lsp::Reply<std::vector<lsp::CodeLens>> reply);
  void onCodeAction(const lsp::CodeActionParams &p,
                    lsp::Reply<std::vector<lsp::CodeAction>> reply);
  void onExecuteCommand(const lsp::ExecuteCommandParams &p,
                        lsp::Reply<llvm::json::Value> reply);
  void onProgressCancel(const lsp::WorkDoneProgressCancelParams &p);

  //===--- scheduling (waveasm.scheduleLoop)
  //---------------------------------===//
  using SharedReply = std::shared_ptr<lsp::Reply<llvm::json::Value>>;
  void scheduleLoop(const llvm::json::Value &argument, SharedReply reply);
  void startLLMSchedule(std::string uri,
                        std::shared_ptr<const ParsedDocument> parsed,
                        const ScheduleTarget &target, SharedReply reply);
  void sendLLMRound(LLMRun &run);
  void pollLLMRun(uint64_t id);
  void finishLLMRun(uint64_t id, std::optional<std::string> error);
  /// Sends the outcome's edit (workspace/applyEdit) if it still applies to
  /// the document, then answers the command. With `confirm` (and a client
  /// supporting change annotations) the edit asks the user to accept it,
  /// showing the metric diff.
  void deliverSchedule(const std::string &uri,
                       std::shared_ptr<const ParsedDocument> parsed,
                       ScheduleOutcome outcome, llvm::StringRef what,
                       SharedReply reply, bool confirm = false);
  void onAssembly(const lsp::DocumentParams &p,
                  lsp::Reply<lsp::AssemblyResult> reply);
  void onMetrics(const lsp::DocumentParams &p,
                 lsp::Reply<lsp::MetricsResult> reply);
  /// waveasm/pipelineSnapshots (on the worker); a text that does not
  /// compile gets the last good list marked stale.
  void onPipelineSnapshots(const lsp::PipelineSnapshotsParams &p,
                           lsp::Reply<llvm::json::Value> reply);
  /// Completion, resolve and signature help answer from the current text
  /// and the session's last good parse, without parsing.
  void onCompletion(const lsp::TextDocumentPositionParams &p,
                    lsp::Reply<lsp::CompletionList> reply);
  void onCompletionResolve(const lsp::CompletionItem &item,
                           lsp::Reply<lsp::CompletionItem> reply);
  void onSignatureHelp(const lsp::TextDocumentPositionParams &p,
                       lsp::Reply<std::optional<lsp::SignatureHelp>> reply);
  /// waveasm/liveAt: the values live after the op at the position.
  void onLiveAt(const lsp::TextDocumentPositionParams &p,
                lsp::Reply<llvm::json::Value> reply);
  void onSchedule(const lsp::ScheduleParams &p,
                  lsp::Reply<llvm::json::Value> reply);
  void onDependenceGraph(const lsp::ScheduleParams &p,
                         lsp::Reply<llvm::json::Value> reply);

  template <typename P, typename R>
  void method(llvm::StringLiteral name,
              void (LspServer::*handler)(const P &, lsp::Reply<R>));
  template <typename P>
  void notification(llvm::StringLiteral name,
                    void (LspServer::*handler)(const P &));

  void showMessage(int type, llvm::StringRef message);
  /// The profile CSV of the document at `uri` (null: none or off); a read
  /// or parse error is shown once per distinct message.
  std::shared_ptr<const DocumentProfile> profileFor(llvm::StringRef uri);

  EventLoop &loop;
  lsp::Dispatcher &dispatcher;
  mlir::MLIRContext &context;
  lsp::ClientCapabilities client;
  ServerSettings settings;
  RuntimeSettings runtime;
  DocumentStore store;
  ProfileFiles profiles;
  std::set<std::string> shownProfileErrors;
  uint64_t nextProgressToken = 0;
  /// HTTP for the LLM clients, on this loop (declared before the runs: the
  /// runs' clients go first).
  std::unique_ptr<conductor::llm::HttpMulti> http;
  /// "Pipeline this loop" per (document version, line, settings): the
  /// worker compiles and simulates for it; asked again on every cursor move.
  ActionCache pipelineActions;
  /// Bumped by every settings change: cached answers of older settings
  /// are not reused.
  uint64_t settingsGeneration = 0;
  /// LLM schedules in flight, by id.
  std::map<uint64_t, std::unique_ptr<LLMRun>> llmRuns;
  uint64_t nextLLMRun = 1;
  /// Last member: destroyed (its threads joined) first, while what its
  /// continuations touch still exists.
  DocumentScheduler scheduler;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_LSPSERVER_H
