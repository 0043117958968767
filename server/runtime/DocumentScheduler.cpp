//===- DocumentScheduler.cpp - when each open document is parsed ---------===//

#include "server/runtime/DocumentScheduler.h"

#include "protocol/Uri.h"
#include "server/Features.h"
#include "server/IncrementalParse.h"
#include "server/Timing.h"

#include "llvm/Support/FormatVariadic.h"

using namespace waveasm;
using namespace waveasm::server;
using lsp::logError;
using lsp::logInfo;
using lsp::logVerbose;

DocumentSession::DocumentSession() = default;
DocumentSession::~DocumentSession() {
  assert(parseWaiters.empty() && pipelineWaiters.empty() &&
         "requests must be answered on the loop thread");
}

/// What the parse thread hands back for one text.
struct DocumentScheduler::ParseResult {
  std::shared_ptr<const ParsedDocument> parsed;
  /// The text parsed, as DocumentSession::edits counted.
  uint64_t edits = 0;
  /// Parse and verify diagnostics.
  std::vector<lsp::Diagnostic> diagnostics;
  /// Built when the session had none when the parse was queued.
  std::unique_ptr<IncrementalModel> incremental;
  double parseMs = 0, modelMs = 0;
  std::optional<Clock::time_point> editedAt;
};

DocumentScheduler::DocumentScheduler(EventLoop &loop,
                                     mlir::MLIRContext &context,
                                     const DocumentStore &store,
                                     const ServerSettings &settings,
                                     const RuntimeSettings &runtime,
                                     Callbacks &callbacks)
    : loop(loop), context(context), store(store), settings(settings),
      runtime(runtime), callbacks(callbacks),
      parser(std::make_unique<Worker>([&loop] { loop.wake(); })),
      worker(std::make_unique<Worker>([&loop] { loop.wake(); })) {}

DocumentScheduler::~DocumentScheduler() { stop(); }

void DocumentScheduler::stop() {
  worker.reset();
  parser.reset();
}

void DocumentScheduler::drainCompletions() {
  if (parser)
    parser->drainCompletions();
  if (worker)
    worker->drainCompletions();
}

void DocumentScheduler::runAll(
    std::vector<llvm::unique_function<void()>> &waiters) {
  std::vector<llvm::unique_function<void()>> ready;
  ready.swap(waiters);
  for (auto &waiter : ready)
    waiter();
}

void DocumentScheduler::releaseLater(std::shared_ptr<const void> snapshot) {
  if (!snapshot)
    return;
  // Tearing down a large module takes milliseconds nobody should wait for:
  // on the parse thread (where it is the last reference; otherwise whoever
  // holds the last one frees it).
  if (parser) {
    parser->post(
        /*key=*/"", lsp::CancellationToken(),
        [snapshot = std::move(snapshot)]() mutable -> Worker::Continuation {
          snapshot.reset();
          return nullptr;
        });
    return;
  }
  loop.runAfter(
      0, [snapshot = std::move(snapshot)]() mutable { snapshot.reset(); });
}

//===----------------------------------------------------------------------===//
// Open, change, close
//===----------------------------------------------------------------------===//

DocumentSession *DocumentScheduler::find(llvm::StringRef uri) {
  auto it = sessions.find(uri);
  return it == sessions.end() ? nullptr : it->second.get();
}

void DocumentScheduler::opened(llvm::StringRef uri) {
  std::unique_ptr<DocumentSession> &slot = sessions[uri.str()];
  std::unique_ptr<DocumentSession> old = std::move(slot);
  slot = std::make_unique<DocumentSession>();
  slot->uri = uri.str();
  slot->serial = ++sessionSerial;
  slot->edits = 1;
  slot->debounce.configure(settings.debounceMinMs, settings.debounceMaxMs,
                           runtime.debounceLeadingEdge);
  startParse(*slot);
  // Reopened without a close: start over. Requests waiting on the old
  // session ask the new one.
  if (old)
    retire(std::move(old));
}

void DocumentScheduler::retire(std::unique_ptr<DocumentSession> session) {
  session->lifetime.cancel();
  if (session->parseTimer)
    loop.cancel(*session->parseTimer);
  callbacks.onPipelineSettled(*session);
  runAll(session->parseWaiters);
  runAll(session->pipelineWaiters);
  releaseLater(std::shared_ptr<const void>(std::move(session)));
}

void DocumentScheduler::changed(llvm::StringRef uri) {
  DocumentSession *session = find(uri);
  if (!session)
    return;
  ++session->edits;
  diagnoseIncrementally(*session);
  scheduleParse(*session);
}

void DocumentScheduler::closed(llvm::StringRef uri) {
  auto it = sessions.find(uri);
  if (it == sessions.end())
    return;
  std::unique_ptr<DocumentSession> session = std::move(it->second);
  sessions.erase(it);
  // Waiting requests now find the document closed and answer so.
  retire(std::move(session));
}

void DocumentScheduler::settingsChanged() {
  // Settings change parsing (target), lints and hints: redo everything.
  for (auto &[uri, session] : sessions) {
    session->debounce.configure(settings.debounceMinMs, settings.debounceMaxMs,
                                runtime.debounceLeadingEdge);
    session->parsing.reset(); // a parse in flight used the old settings
    startParse(*session);
  }
}

void DocumentScheduler::shutdown() {
  stopping = true;
  for (auto &[uri, session] : sessions) {
    session->lifetime.cancel();
    // Their parse or pipeline may never come now: the requests are
    // dropped here, on the loop (answered InternalError while the
    // transport is still open).
    session->parseWaiters.clear();
    session->pipelineWaiters.clear();
  }
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

void DocumentScheduler::diagnoseIncrementally(DocumentSession &session) {
  const TextDocument *doc = store.get(session.uri);
  if (!session.incremental || !doc)
    return;
  auto start = Clock::now();
  std::optional<std::vector<lsp::Diagnostic>> diagnostics =
      session.incremental->update(doc->text);
  double ms = msSince(start);
  if (!diagnostics) {
    logInfo("{0} v{1} needs a full parse: {2}",
            lsp::uriDisplayName(session.uri), doc->version,
            session.incremental->getFallbackReason());
    // Its text is behind now; rebuilt by the next full parse.
    releaseLater(std::shared_ptr<const void>(std::move(session.incremental)));
    return;
  }
  logInfo("diagnosed {0} v{1} incrementally in {2} ms (verify {3} ms, {4} "
          "diagnostics)",
          lsp::uriDisplayName(session.uri), doc->version,
          llvm::formatv("{0:f1}", ms),
          llvm::formatv("{0:f1}", session.incremental->getVerifyMs()),
          diagnostics->size());
  session.incrementalEdits = session.edits;
  session.incrementalDiagnostics = *diagnostics;
  callbacks.onDiagnostics(session.uri, doc->version, std::move(*diagnostics));
}

void DocumentScheduler::scheduleParse(DocumentSession &session) {
  Clock::time_point now = Clock::now();
  DebouncePolicy::Duration delay =
      session.debounce.delayFor(now, session.lastEdit, session.firstUnparsed);
  session.lastEdit = now;
  if (!session.firstUnparsed)
    session.firstUnparsed = now;
  if (session.parseTimer) {
    loop.cancel(*session.parseTimer);
    session.parseTimer.reset();
  }
  std::string uri = session.uri;
  session.parseTimer = loop.runAfter(std::max(0.0, delay.count()), [this, uri] {
    if (DocumentSession *s = find(uri)) {
      s->parseTimer.reset();
      startParse(*s);
    }
  });
}

void DocumentScheduler::startParse(DocumentSession &session) {
  if (session.parseTimer) {
    loop.cancel(*session.parseTimer);
    session.parseTimer.reset();
  }
  const TextDocument *doc = store.get(session.uri);
  if (!doc || !parser || stopping || session.parsing == session.edits)
    return;
  session.parsing = session.edits;
  std::optional<Clock::time_point> editedAt = session.firstUnparsed;
  session.firstUnparsed.reset();
  // Queued parses of older texts are replaced (same key): only the newest
  // text is worth parsing.
  parser->post(
      "parse " + session.uri, session.lifetime,
      [this, uri = session.uri, serial = session.serial, text = doc->text,
       version = doc->version, edits = session.edits, snapshot = settings,
       editedAt,
       wantModel = !session.incremental]() mutable -> Worker::Continuation {
        auto result = std::make_shared<ParseResult>();
        result->editedAt = editedAt;
        result->edits = edits;
        auto start = Clock::now();
        result->parsed = std::make_shared<const ParsedDocument>(
            context, uri, std::move(text), version, snapshot);
        result->parseMs = msSince(start);
        result->diagnostics =
            computeDiagnostics(*result->parsed, nullptr, snapshot);
        if (wantModel && result->parsed->getModule()) {
          start = Clock::now();
          result->incremental = IncrementalModel::build(*result->parsed);
          result->modelMs = msSince(start);
        }
        return [this, uri, serial, result = std::move(result)]() mutable {
          onParsed(uri, serial, std::move(result));
        };
      });
}

void DocumentScheduler::waitForParse(DocumentSession &session,
                                     llvm::unique_function<void()> retry) {
  session.parseWaiters.push_back(std::move(retry));
  // The request cannot wait for the debounce.
  startParse(session);
}

void DocumentScheduler::onParsed(const std::string &uri, uint64_t serial,
                                 std::shared_ptr<ParseResult> result) {
  DocumentSession *session = find(uri);
  if (!session || session->serial != serial) {
    releaseLater(std::move(result)); // closed (or reopened) meanwhile
    return;
  }
  DocumentSession &s = *session;
  int64_t version = result->parsed->getVersion();
  uint64_t edits = result->edits;
  if (s.parsing == edits)
    s.parsing.reset();
  s.debounce.recordParse(DebouncePolicy::Duration(result->parseMs));
  std::shared_ptr<const ParsedDocument> previous = std::move(s.parsed);
  s.parsed = result->parsed;
  s.parsedEdits = edits;
  if (s.parsed->getModule()) {
    // The SSA name index that completion, hover and navigation read is
    // built off the loop, rather than by the first of them (10k ops: about
    // 20 ms). Completion moves to this parse only once its index is
    // built, so a keystroke never waits for the build (getValues() is
    // call_once: a request that came first would block on it).
    if (!s.lastGood || !parser || stopping) {
      s.lastGood = s.parsed;
      s.lastGoodEdits = edits;
    }
    if (parser && !stopping)
      parser->post(
          /*key=*/"", s.lifetime,
          [this, uri, serial, edits,
           parsed = s.parsed]() mutable -> Worker::Continuation {
            (void)parsed->getValues();
            return [this, uri, serial, edits,
                    parsed = std::move(parsed)]() mutable {
              DocumentSession *s = find(uri);
              if (s && s->serial == serial && edits >= s->lastGoodEdits) {
                s->lastGood = parsed;
                s->lastGoodEdits = edits;
              }
              releaseLater(std::move(parsed)); // an old parse: off the loop
            };
          });
  }
  logInfo("parsed {0} v{1} in {2} ms ({3} diagnostics{4}); debounce now {5} "
          "ms",
          lsp::uriDisplayName(uri), version,
          llvm::formatv("{0:f1}", result->parseMs),
          s.parsed->getDiagnostics().size(),
          result->editedAt ? llvm::formatv(", {0:f1} ms after the edit",
                                           msSince(*result->editedAt))
                                 .str()
                           : std::string(),
          llvm::formatv("{0:f0}", s.debounce.interval().count()));

  // The incremental path may have published this version's diagnostics
  // already: repeat them only if the full parse disagrees (it should not).
  bool published = s.incrementalEdits == edits;
  bool disagreed = false;
  if (published && s.incrementalDiagnostics != result->diagnostics) {
    logError("the incremental diagnostics of {0} v{1} differ from the full "
             "parse's; publishing the full parse's and rebuilding the model",
             lsp::uriDisplayName(uri), version);
    published = false;
    disagreed = true;
    releaseLater(std::shared_ptr<const void>(std::move(s.incremental)));
  }
  // Diagnostics the incremental path published for a newer text than this
  // parse's stay: they are not replaced by older ones.
  bool newerPublished = s.incrementalEdits > edits;
  if (!newerPublished) {
    s.incrementalEdits.reset();
    s.incrementalDiagnostics.clear();
  }
  if (!published && !newerPublished)
    publishDiagnostics(s, std::move(result->diagnostics));
  releaseLater(std::move(previous));

  // The model follows edits from this text on: only if no edit came since.
  bool current = edits == s.edits;
  if (result->incremental && current && !s.incremental) {
    s.incremental = std::move(result->incremental);
    logVerbose("incremental model of {0} v{1} built in {2} ms",
               lsp::uriDisplayName(uri), version,
               llvm::formatv("{0:f1}", result->modelMs));
  }
  releaseLater(std::move(result));
  if (disagreed && current)
    buildModelLater(s);

  // A parse already behind the text is not compiled: the edit that made it
  // so has its own parse coming, which schedules the pipeline.
  if (!s.parsed->isVerified())
    runAll(s.pipelineWaiters); // no pipeline will come for this text
  else if (current)
    schedulePipeline(s);
  // Each waiter asks again: one that needs a newer text starts its parse.
  runAll(s.parseWaiters);
}

void DocumentScheduler::buildModelLater(DocumentSession &session) {
  if (!parser || stopping || !session.parsed || !session.parsed->getModule())
    return;
  parser->post(
      /*key=*/"", session.lifetime,
      [this, uri = session.uri, serial = session.serial,
       parsed = session.parsed,
       edits = session.parsedEdits]() mutable -> Worker::Continuation {
        auto start = Clock::now();
        std::unique_ptr<IncrementalModel> model =
            IncrementalModel::build(*parsed);
        double ms = msSince(start);
        parsed.reset(); // here, off the loop, if it is the last reference
        return [this, uri, serial, edits, ms,
                model = std::move(model)]() mutable {
          DocumentSession *s = find(uri);
          if (s && s->serial == serial && s->edits == edits &&
              !s->incremental && model) {
            s->incremental = std::move(model);
            logVerbose("incremental model of {0} rebuilt in {1} ms",
                       lsp::uriDisplayName(uri), llvm::formatv("{0:f1}", ms));
            return;
          }
          releaseLater(std::shared_ptr<const void>(std::move(model)));
        };
      });
}

void DocumentScheduler::publishDiagnostics(
    DocumentSession &session, std::vector<lsp::Diagnostic> parseDiagnostics) {
  const ParsedDocument &parsed = *session.parsed;
  // With a fresh compiled snapshot the worker already computed everything
  // (lints included); otherwise only the parse diagnostics apply.
  const CompiledDocument *compiled =
      freshOrNull(parsed, session.compiled.get());
  if (compiled && session.compiledDiagnostics &&
      session.compiledDiagnostics->compiled.get() == compiled)
    parseDiagnostics = session.compiledDiagnostics->diagnostics;
  callbacks.onDiagnostics(session.uri, parsed.getVersion(),
                          std::move(parseDiagnostics));
}

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

void DocumentScheduler::schedulePipeline(DocumentSession &session) {
  if (!worker || stopping)
    return; // exiting
  uint64_t generation = ++session.pipelineScheduled;
  session.newestPipeline->store(generation);
  std::string uri = session.uri;
  std::shared_ptr<const ParsedDocument> parsed = session.parsed;
  ServerSettings snapshot = settings;
  worker->post(
      "pipeline " + uri, session.lifetime,
      [this, uri, serial = session.serial, generation,
       newest = session.newestPipeline, parsed = std::move(parsed),
       snapshot = std::move(snapshot)]() mutable -> Worker::Continuation {
        auto result = std::make_shared<PipelineResult>();
        auto start = Clock::now();
        result->compiled =
            std::make_shared<const CompiledDocument>(*parsed, snapshot);
        result->compileMs = msSince(start);
        // Lints can cost more than compiling; skip them when a newer text
        // is already waiting, since this result will be dropped anyway.
        if (newest->load() == generation) {
          start = Clock::now();
          result->diagnostics =
              computeDiagnostics(*parsed, result->compiled.get(), snapshot);
          result->lintMs = msSince(start);
        } else {
          result->superseded = true;
        }
        return [this, uri, serial, generation, parsed = std::move(parsed),
                result = std::move(result)]() mutable {
          onPipelineResult(uri, serial, generation, std::move(parsed),
                           std::move(result));
        };
      });
  callbacks.onPipelineQueued(session);
}

void DocumentScheduler::onPipelineResult(
    const std::string &uri, uint64_t serial, uint64_t generation,
    std::shared_ptr<const ParsedDocument> parsed,
    std::shared_ptr<PipelineResult> result) {
  DocumentSession *session = find(uri);
  if (!session || session->serial != serial) {
    // Closed (or reopened) meanwhile.
    releaseLater(std::move(result));
    releaseLater(std::move(parsed));
    return;
  }
  session->pipelineSettled = std::max(session->pipelineSettled, generation);
  bool current = !result->superseded && session->parsed == parsed &&
                 session->parsedEdits == session->edits;
  if (!current) {
    const TextDocument *doc = store.get(uri);
    logInfo("dropped the pipeline result for {0} v{1} (now v{2}) after {3} "
            "ms",
            lsp::uriDisplayName(uri), parsed->getVersion(),
            doc ? doc->version : -1,
            llvm::formatv("{0:f1}", result->compileMs));
    releaseLater(std::move(result));
  } else {
    releaseLater(std::move(session->compiled));
    session->compiled = result->compiled;
    session->compiledDiagnostics = std::move(result);
    logInfo("pipeline for {0} v{1}: {2} in {3} ms, lints in {4} ms",
            lsp::uriDisplayName(uri), parsed->getVersion(),
            session->compiled->succeeded() ? "compiled" : "failed",
            llvm::formatv("{0:f1}", session->compiledDiagnostics->compileMs),
            llvm::formatv("{0:f1}", session->compiledDiagnostics->lintMs));
    publishDiagnostics(*session, {});
    callbacks.onCompiled(*session);
  }
  // The last reference to an old parse may be this one: freed off the loop.
  releaseLater(std::move(parsed));
  if (!session->pipelinePending()) {
    callbacks.onPipelineSettled(*session);
    runAll(session->pipelineWaiters);
  }
}

void DocumentScheduler::whenPipelineSettles(
    DocumentSession &session, llvm::unique_function<void()> retry) {
  session.pipelineWaiters.push_back(std::move(retry));
}
