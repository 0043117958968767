//===- DocumentScheduler.h - when each open document is parsed -*- C++ -*-===//
//
// The answer to "when does a document get re-parsed, compiled and its
// diagnostics published" lives here, apart from the protocol handlers
// (LspServer), as clangd keeps TUScheduler apart from ClangdLSPServer.
//
//   open/change -> DocumentStore holds the text (LspServer applies edits)
//     -> on the loop, at once: the IncrementalModel, when it has one,
//        diagnoses the keystroke (a few ms) and publishes
//     -> debounced (DebouncePolicy): a full parse on the parse thread,
//        with the parse-only diagnostics and a new IncrementalModel
//     -> on the loop: the parse becomes the document's snapshot; its
//        diagnostics are published unless the incremental path already
//        published the same; requests waiting for this text run
//     -> the pipeline on the worker, newest version only: CompiledDocument
//        and every diagnostic including the lints
//     -> on the loop: drop if stale, else publish and tell the client to
//        refresh hints and lenses (Callbacks::onCompiled)
//
// Nothing heavy runs on the loop thread: parsing, building the incremental
// model and freeing replaced snapshots (tearing down a 20k-op module) run
// on the parse thread; compiles, lints and per-request compiles on the
// worker. So a completion or signature help request sent with a keystroke
// is answered at once from the last good parse.
//
// Requests that need the parse of the text the client has check
// `isParsed`; if not, `waitForParse` starts a parse of the current text
// (skipping the debounce) and runs the request again when it lands.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_DOCUMENTSCHEDULER_H
#define WAVEASM_SERVER_RUNTIME_DOCUMENTSCHEDULER_H

#include "protocol/Dispatcher.h"
#include "server/DocumentState.h"
#include "server/Settings.h"
#include "server/runtime/Debounce.h"
#include "server/runtime/DocumentStore.h"
#include "server/runtime/EventLoop.h"
#include "server/runtime/SettingsJSON.h"
#include "server/runtime/Worker.h"

#include "mlir/IR/MLIRContext.h"

#include <atomic>
#include <map>
#include <memory>

namespace waveasm::server {

class IncrementalModel;
struct DocumentSnapshots;

/// What the worker hands back for one pipeline run.
struct PipelineResult {
  std::shared_ptr<const CompiledDocument> compiled;
  std::vector<lsp::Diagnostic> diagnostics; // all of them, lints included
  double compileMs = 0, lintMs = 0;
  bool superseded = false; // a newer text was queued; lints skipped
};

/// The runtime state of one open document. The scheduler owns it; request
/// handlers read the snapshots.
struct DocumentSession {
  using Clock = std::chrono::steady_clock;
  DocumentSession();
  /// Freed off the loop thread: it must hold no request (a reply answers
  /// on the transport); retire() runs them all first.
  ~DocumentSession();

  std::string uri;
  /// Distinguishes a reopened document's session from the one it replaced
  /// (background results of the old one must not touch the new one).
  uint64_t serial = 0;

  /// The parse of the newest text that has been parsed (null before the
  /// first parse lands).
  std::shared_ptr<const ParsedDocument> parsed;
  /// The newest parse that produced a module: completion reads its values
  /// while the line being typed keeps the text from parsing.
  std::shared_ptr<const ParsedDocument> lastGood;
  std::shared_ptr<const CompiledDocument> compiled;
  /// The worker's diagnostics for `compiled` (lints included).
  std::shared_ptr<const PipelineResult> compiledDiagnostics;
  /// The newest waveasm/pipelineSnapshots answer, shown (stale) while the
  /// text does not compile.
  std::shared_ptr<const DocumentSnapshots> lastSnapshots;
  std::shared_ptr<const ParsedDocument> lastSnapshotsFor;

  /// $/progress of the pipeline (LspServer's).
  std::optional<EventLoop::TimerId> progressTimer;
  std::string progressToken; // non-empty while created or begun
  bool progressBegun = false;

  bool pipelinePending() const { return pipelineSettled < pipelineScheduled; }

private:
  friend class DocumentScheduler;

  DebouncePolicy debounce;
  std::optional<EventLoop::TimerId> parseTimer;
  std::optional<Clock::time_point> lastEdit;
  /// The oldest edit not handed to a parse yet (nullopt: none).
  std::optional<Clock::time_point> firstUnparsed;
  /// Texts the store has had (open: 1, each change one more): "is the
  /// parse current" must not trust the client's version numbers, which
  /// the store accepts even when they do not increase.
  uint64_t edits = 0;
  /// The text `parsed` is of, as `edits` counted then.
  uint64_t parsedEdits = 0;
  /// The text `lastGood` is of.
  uint64_t lastGoodEdits = 0;
  /// The text a parse job is running or queued for.
  std::optional<uint64_t> parsing;
  /// Requests waiting for the parse of the current text.
  std::vector<llvm::unique_function<void()>> parseWaiters;

  /// Follows the text edit by edit to diagnose a keystroke without a full
  /// parse (IncrementalParse.h); null until a full parse builds it, and
  /// dropped when an edit is one it cannot apply.
  std::unique_ptr<IncrementalModel> incremental;
  /// The text whose diagnostics the model published, and them: the full
  /// parse of that text publishes only if it finds otherwise.
  std::optional<uint64_t> incrementalEdits;
  std::vector<lsp::Diagnostic> incrementalDiagnostics;

  /// The newest pipeline generation, read by the running job to skip work
  /// a newer text makes useless.
  std::shared_ptr<std::atomic<uint64_t>> newestPipeline =
      std::make_shared<std::atomic<uint64_t>>(0);
  /// Pipeline runs scheduled and settled, as generations: a run replaced
  /// in the queue never settles, its successor settles both.
  uint64_t pipelineScheduled = 0;
  uint64_t pipelineSettled = 0;
  /// Cancelled when the document closes: its queued jobs are dropped.
  lsp::CancellationToken lifetime;
  std::vector<llvm::unique_function<void()>> pipelineWaiters;
};

class DocumentScheduler {
public:
  /// What the scheduler tells the protocol layer. All on the loop thread.
  class Callbacks {
  public:
    virtual ~Callbacks() = default;
    virtual void onDiagnostics(const std::string &uri, int64_t version,
                               std::vector<lsp::Diagnostic> diagnostics) = 0;
    /// A compile of the current text landed.
    virtual void onCompiled(DocumentSession &session) = 0;
    virtual void onPipelineQueued(DocumentSession &session) = 0;
    /// No pipeline is pending any more (or the document closed).
    virtual void onPipelineSettled(DocumentSession &session) = 0;
  };

  DocumentScheduler(EventLoop &loop, mlir::MLIRContext &context,
                    const DocumentStore &store, const ServerSettings &settings,
                    const RuntimeSettings &runtime, Callbacks &callbacks);
  ~DocumentScheduler();

  /// The store already has the document's text.
  void opened(llvm::StringRef uri);
  /// The store already has the edited text.
  void changed(llvm::StringRef uri);
  void closed(llvm::StringRef uri);
  /// Settings changed (debounce, target, lints): every document is parsed
  /// again.
  void settingsChanged();
  /// Nothing more will be asked: queued background work is dropped.
  void shutdown();

  DocumentSession *find(llvm::StringRef uri);
  /// The session's current text, as a count of texts it has had.
  uint64_t currentText(const DocumentSession &session) const {
    return session.edits;
  }
  /// True when the session's parse is of text `text` (currentText()) or
  /// a later one.
  bool isParsed(const DocumentSession &session, uint64_t text) const {
    return session.parsed && session.parsedEdits >= text;
  }
  /// Runs `retry` once a parse of the current text lands (a parse is
  /// started now if none is queued for it, skipping the debounce) or the
  /// document closes. `retry` should ask again: the text may have changed
  /// meanwhile.
  void waitForParse(DocumentSession &session,
                    llvm::unique_function<void()> retry);
  /// Queues a pipeline run of the session's parse.
  void schedulePipeline(DocumentSession &session);
  /// Runs `retry` once the pending pipeline has settled.
  void whenPipelineSettles(DocumentSession &session,
                           llvm::unique_function<void()> retry);

  /// The background worker, for requests' own jobs (null once stopped).
  Worker *getWorker() { return worker.get(); }
  /// Frees `snapshot` off the loop thread, after what is being sent now.
  void releaseLater(std::shared_ptr<const void> snapshot);
  /// Runs finished background work's continuations (loop thread).
  void drainCompletions();
  /// Stops both threads (waits for their running jobs).
  void stop();

private:
  using Clock = std::chrono::steady_clock;
  struct ParseResult;

  /// Ends a closed or replaced session: its jobs are dropped, its
  /// waiters run (and ask again), it is freed off the loop.
  void retire(std::unique_ptr<DocumentSession> session);
  void scheduleParse(DocumentSession &session);
  /// Builds the IncrementalModel of the session's parse on the parse
  /// thread, installed if no edit came meanwhile.
  void buildModelLater(DocumentSession &session);
  void startParse(DocumentSession &session);
  void onParsed(const std::string &uri, uint64_t serial,
                std::shared_ptr<ParseResult> result);
  void diagnoseIncrementally(DocumentSession &session);
  void onPipelineResult(const std::string &uri, uint64_t serial,
                        uint64_t generation,
                        std::shared_ptr<const ParsedDocument> parsed,
                        std::shared_ptr<PipelineResult> result);
  void publishDiagnostics(DocumentSession &session,
                          std::vector<lsp::Diagnostic> parseDiagnostics);
  static void runAll(std::vector<llvm::unique_function<void()>> &waiters);

  EventLoop &loop;
  mlir::MLIRContext &context;
  const DocumentStore &store;
  const ServerSettings &settings;
  const RuntimeSettings &runtime;
  Callbacks &callbacks;
  std::map<std::string, std::unique_ptr<DocumentSession>, std::less<>> sessions;
  uint64_t sessionSerial = 0;
  /// After shutdown(): no new parse or pipeline is started.
  bool stopping = false;
  /// Parses (and frees replaced snapshots) off the loop.
  std::unique_ptr<Worker> parser;
  /// Compiles and lints; requests' own jobs. Declared last: joined first,
  /// while what its continuations touch still exists.
  std::unique_ptr<Worker> worker;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_DOCUMENTSCHEDULER_H
