//===- ScheduleRuns.cpp - schedules reaching the editor as edits ----------===//
//
// The runtime half of `waveasm.scheduleLoop` (the pure half is
// server/features/CodeActions.cpp):
//
//  - deliverSchedule: a finished schedule becomes workspace/applyEdit (the
//    label carries the metric diff) if the document is still at the version
//    the schedule was computed for; otherwise it is dropped with a message.
//    The command is answered with {applied, summary, before, after, moves}.
//  - LLM runs: one Conductor Session (conductor/Session.h) and one chat
//    client (conductor/llm) per run, on the server's own libuv loop: the
//    HTTP transfers are curl multi handles driven by this loop, so waiting
//    for the model costs no thread, and each reply is applied to the
//    Session on the loop thread (a round is a few milliseconds). Progress
//    is reported with $/progress (cancellable); $/cancelRequest or
//    window/workDoneProgress/cancel stop the run with the document
//    untouched. A failed request (401, timeout after retries) ends the run
//    with window/showMessage and no edit. The API key is read by the client
//    from the environment variable the settings name, when a request goes
//    out; it never passes through here.
//
//===----------------------------------------------------------------------===//

#include "server/runtime/LLMRun.h"

#include "protocol/LspParamsJSON.h"
#include "protocol/Uri.h"
#include "server/DiagnosticCapture.h"
#include "server/Features.h"
#include "server/features/Pipelining.h"

#include "conductor/Cache.h"
#include "conductor/Driver.h"
#include "conductor/Search.h"
#include "conductor/Session.h"
#include "conductor/llm/ChatClient.h"
#include "conductor/llm/HttpMulti.h"

#include "llvm/Support/FormatVariadic.h"

using namespace waveasm;
using namespace waveasm::server;
using lsp::ErrorCode;
using lsp::logInfo;
using lsp::makeError;
namespace json = llvm::json;
namespace llm = waveasm::conductor::llm;

namespace {

/// How often a run checks its request's cancellation token (the dispatcher
/// flips it on $/cancelRequest and answers the request itself).
constexpr double kCancelPollMs = 50;

} // namespace

void LspServer::deliverSchedule(const std::string &uri,
                                std::shared_ptr<const ParsedDocument> parsed,
                                ScheduleOutcome outcome,
                                llvm::StringRef whatRef, SharedReply reply,
                                bool confirm) {
  std::string what = whatRef.str();
  if (reply->isCancelled())
    return; // answered RequestCancelled; the document stays as it is
  json::Array moves;
  for (const std::string &move : outcome.moves)
    moves.push_back(move);
  json::Object result{
      {"applied", false},
      {"summary", outcome.summary},
      {"before", scheduleMetricsJSON(outcome.before, outcome.loopIndex)},
      {"after", scheduleMetricsJSON(outcome.after, outcome.loopIndex)},
      {"moves", std::move(moves)},
      {"version", parsed->getVersion()}};
  auto answer = [reply](json::Object result, llvm::StringRef error) {
    if (!error.empty())
      result["error"] = error;
    (*reply)(json::Value(std::move(result)));
  };
  if (!outcome.error.empty()) {
    showMessage(/*Error=*/1, what + ": " + outcome.error);
    return answer(std::move(result), outcome.error);
  }
  if (!outcome.changed) {
    showMessage(/*Info=*/3,
                what + ": no better schedule found (" + outcome.summary + ")");
    return answer(std::move(result), "");
  }
  const TextDocument *doc = store.get(uri);
  if (!doc || doc->version != parsed->getVersion()) {
    std::string message = llvm::formatv(
        "{0}: the document changed while scheduling (version {1} -> {2}); "
        "no edit, run it again",
        what, parsed->getVersion(), doc ? doc->version : -1);
    logInfo("{0}", message);
    showMessage(/*Warning=*/2, message);
    return answer(std::move(result), "stale: the document changed");
  }
  bool annotate = confirm && client.changeAnnotations &&
                  client.workspaceEditDocumentChanges;
  if (annotate)
    outcome.edit.annotationId = "waveasm.schedule";
  lsp::WorkspaceEdit edit = makeWorkspaceEdit(
      *parsed, {outcome.edit}, client.workspaceEditDocumentChanges);
  if (annotate) {
    // The client shows the edit with the metric diff and applies it only
    // when the user accepts.
    lsp::ChangeAnnotation annotation;
    annotation.label = what + ": " + outcome.summary;
    annotation.needsConfirmation = true;
    for (const std::string &move : outcome.moves)
      annotation.description +=
          (annotation.description.empty() ? "" : "; ") + move;
    edit.changeAnnotations["waveasm.schedule"] = std::move(annotation);
  }
  if (!client.applyEdit) {
    // The client cannot be asked to apply it: hand it the edit.
    result["edit"] = toJSON(edit);
    return answer(std::move(result), "");
  }
  lsp::ApplyWorkspaceEditParams params;
  params.label = what + ": " + outcome.summary;
  params.edit = std::move(edit);
  std::string label = params.label;
  dispatcher.call("workspace/applyEdit", toJSON(params),
                  [this, reply, result = std::move(result),
                   label](llvm::Expected<json::Value> response) mutable {
                    bool applied = false;
                    std::string reason;
                    if (!response) {
                      reason = llvm::toString(response.takeError());
                    } else {
                      lsp::ApplyWorkspaceEditResult r;
                      json::Path::Root root;
                      if (fromJSON(*response, r, root)) {
                        applied = r.applied;
                        reason = r.failureReason;
                      } else {
                        reason = "unreadable applyEdit result";
                      }
                    }
                    logInfo("{0}: {1}{2}", label,
                            applied ? "applied" : "not applied",
                            reason.empty() ? "" : " (" + reason + ")");
                    result["applied"] = applied;
                    if (!applied && !reason.empty())
                      result["error"] = reason;
                    if (!reply->isCancelled())
                      (*reply)(json::Value(std::move(result)));
                  });
}

//===----------------------------------------------------------------------===//
// LLM runs
//===----------------------------------------------------------------------===//

void LspServer::startLLMSchedule(std::string uri,
                                 std::shared_ptr<const ParsedDocument> parsed,
                                 const ScheduleTarget &target,
                                 SharedReply reply) {
  const char *what = "Ask LLM to schedule";
  if (settings.llmProvider == ServerSettings::LLMProvider::None) {
    std::string message =
        std::string(what) +
        ": no LLM is configured; set the waveasm setting llm.provider to "
        "openai or anthropic (and llm.model, llm.baseUrl, llm.apiKeyEnv)";
    showMessage(/*Error=*/1, message);
    return (*reply)(makeError(ErrorCode::RequestFailed, message));
  }
  llm::LLMConfig config = llm::LLMConfig::defaults(
      settings.llmProvider == ServerSettings::LLMProvider::Anthropic
          ? llm::Provider::Anthropic
          : llm::Provider::OpenAI);
  if (!settings.llmBaseUrl.empty())
    config.baseUrl = settings.llmBaseUrl;
  if (!settings.llmModel.empty())
    config.model = settings.llmModel;
  config.apiKeyEnv = settings.llmApiKeyEnv;
  config.timeoutMs = settings.llmTimeoutMs;
  config.maxRetries = settings.llmMaxRetries;

  auto run = std::make_unique<LLMRun>();
  run->id = nextLLMRun++;
  run->uri = uri;
  run->parsed = parsed;
  run->target = target;
  run->reply = reply;
  run->token = reply->token();
  {
    std::string error;
    DiagnosticCapture quiet(parsed->getContext());
    mlir::FailureOr<std::unique_ptr<conductor::Session>> session =
        conductor::Session::create(
            parsed->getModule(), target.owner,
            makeSessionOptions(settings, parsed->getText()), &error);
    if (mlir::failed(session)) {
      showMessage(/*Error=*/1, std::string(what) + ": " + error);
      return (*reply)(makeError(ErrorCode::RequestFailed, error));
    }
    run->session = std::move(*session);
    // The profile's rows that mean the same for this block (tags of the
    // default block, lines of the first program's assembly).
    if (std::shared_ptr<const DocumentProfile> profile = profileFor(uri)) {
      std::vector<conductor::ProfileRow> rows =
          selectProfileRowsForBlock(*parsed, target.block, profile->rows);
      run->session->setProfilingSection(conductor::formatProfileSection(
          conductor::correlateProfile(*run->session, rows)));
    }
  }
  // The Conductor cache, as for waveasm-conductor: a schedule found before
  // for the same tagged IR is replayed (validated and measured again) with
  // no LLM call.
  run->model =
      std::string(llm::providerName(config.provider)) + ":" + config.model;
  {
    conductor::ScheduleCache cache(
        conductor::ScheduleCache::defaultDirectory());
    conductor::CachePolicy policy;
    policy.source = run->model;
    policy.sameSourceOnly = settings.llmCacheSameSource;
    std::vector<std::string> warnings;
    std::string bypassed;
    std::optional<conductor::CacheHit> hit = conductor::replayFromCache(
        *run->session, cache, policy, warnings, &bypassed);
    for (const std::string &warning : warnings)
      logInfo("LLM schedule of {0}: {1}", lsp::uriDisplayName(uri), warning);
    if (!bypassed.empty())
      logInfo("LLM schedule of {0}: cache entry found by {1} bypassed "
              "(llm.cacheSameSource)",
              lsp::uriDisplayName(uri), bypassed);
    if (hit) {
      logInfo("LLM schedule of {0} v{1}: cache hit from {2}: {3}, no LLM call",
              lsp::uriDisplayName(uri), parsed->getVersion(), hit->source,
              hit->foundNothing
                  ? std::string("no better schedule was found before")
                  : std::to_string(hit->report.applied.size()) +
                        " moves replayed");
      // The label says where the schedule came from: the cache may hold
      // the built-in strategies' or another model's result.
      std::string cached =
          std::string(what) + " (cached from " + hit->source + ")";
      ScheduleOutcome outcome =
          makeScheduleOutcome(*parsed, target, *run->session);
      return deliverSchedule(uri, parsed, std::move(outcome), cached, reply,
                             /*confirm=*/true);
    }
  }
  if (!http)
    http = std::make_unique<llm::HttpMulti>(loop.get());
  run->client = llm::createChatClient(*http, config);
  run->system = conductor::defaultSystemPrompts().front();
  LLMRun &r = *run;
  llmRuns[r.id] = std::move(run);
  logInfo("LLM schedule {0} of {1} v{2}: {3}:{4}, {5} rounds", r.id,
          lsp::uriDisplayName(uri), parsed->getVersion(),
          llm::providerName(config.provider), config.model,
          r.session->maxRounds());

  if (client.workDoneProgress) {
    r.progressToken = "waveasm/schedule/" + std::to_string(nextProgressToken++);
    uint64_t id = r.id;
    dispatcher.call(
        "window/workDoneProgress/create",
        lsp::WorkDoneProgressCreateParams{r.progressToken},
        [this, id](llvm::Expected<json::Value> result) {
          auto it = llmRuns.find(id);
          if (!result) {
            llvm::consumeError(result.takeError());
            if (it != llmRuns.end())
              it->second->progressToken.clear();
            return;
          }
          if (it == llmRuns.end() || it->second->finished)
            return;
          LLMRun &run = *it->second;
          lsp::WorkDoneProgress begin;
          begin.kind = lsp::WorkDoneProgress::Begin;
          begin.title = "Ask LLM to schedule";
          begin.cancellable = true;
          begin.message = lsp::uriDisplayName(run.uri) + ": round " +
                          std::to_string(run.session->roundsUsed() + 1) +
                          " of " + std::to_string(run.session->maxRounds());
          begin.percentage = 0;
          dispatcher.notify("$/progress",
                            lsp::ProgressParams{run.progressToken, begin});
          run.progressBegun = true;
        });
  }
  pollLLMRun(r.id);
  sendLLMRound(r);
}

void LspServer::sendLLMRound(LLMRun &run) {
  llm::ChatRequest request;
  request.system = run.system;
  request.messages.push_back(llm::ChatMessage::user(run.session->prompt()));
  uint64_t id = run.id;
  run.request =
      run.client->send(std::move(request), [this, id](llm::ChatReply reply) {
        auto it = llmRuns.find(id);
        if (it == llmRuns.end() || it->second->finished)
          return;
        LLMRun &run = *it->second;
        run.request.reset();
        if (run.token.isCancelled())
          return finishLLMRun(id, std::string("cancelled"));
        if (reply.error)
          return finishLLMRun(id, *reply.error);
        conductor::RoundReport report = [&] {
          DiagnosticCapture quiet(run.parsed->getContext());
          return run.session->applyReply(reply.text);
        }();
        run.roundLog.push_back(report.summary());
        logInfo("LLM schedule {0}: {1}", id, report.summary());
        if (run.progressBegun) {
          lsp::WorkDoneProgress progress;
          progress.kind = lsp::WorkDoneProgress::Report;
          progress.message = report.summary();
          progress.percentage =
              std::min(100, 100 * run.session->roundsUsed() /
                                std::max(1, run.session->maxRounds()));
          dispatcher.notify("$/progress",
                            lsp::ProgressParams{run.progressToken, progress});
        }
        if (run.session->finished() || report.done)
          return finishLLMRun(id, std::nullopt);
        sendLLMRound(run);
      });
}

void LspServer::pollLLMRun(uint64_t id) {
  auto it = llmRuns.find(id);
  if (it == llmRuns.end() || it->second->finished)
    return;
  LLMRun &run = *it->second;
  run.pollTimer.reset();
  if (run.token.isCancelled())
    return finishLLMRun(id, std::string("cancelled"));
  run.pollTimer = loop.runAfter(kCancelPollMs, [this, id] { pollLLMRun(id); });
}

void LspServer::onProgressCancel(const lsp::WorkDoneProgressCancelParams &p) {
  for (auto &[id, run] : llmRuns)
    if (!run->finished && run->progressToken == p.token) {
      // The user pressed cancel in the progress UI: same as $/cancelRequest.
      (*run->reply)(
          makeError(ErrorCode::RequestCancelled, "cancelled by the user"));
      run->token.cancel();
      return finishLLMRun(id, std::string("cancelled"));
    }
}

void LspServer::finishLLMRun(uint64_t id, std::optional<std::string> error) {
  auto it = llmRuns.find(id);
  if (it == llmRuns.end() || it->second->finished)
    return;
  LLMRun &run = *it->second;
  run.finished = true;
  if (run.pollTimer) {
    loop.cancel(*run.pollTimer);
    run.pollTimer.reset();
  }
  if (run.request) {
    run.client->cancel(*run.request);
    run.request.reset();
  }
  bool cancelled = run.token.isCancelled();
  if (run.progressBegun) {
    lsp::WorkDoneProgress end;
    end.kind = lsp::WorkDoneProgress::End;
    end.message =
        cancelled ? "cancelled"
        : error   ? "failed"
        : run.session->bestMoves().empty()
            ? "no better schedule"
            : formatMetricDiff(run.session->baselineMetrics(),
                               bestMetricsPerInputIteration(
                                   *run.session, run.target.loopIndex),
                               run.target.loopIndex);
    dispatcher.notify("$/progress",
                      lsp::ProgressParams{run.progressToken, end});
    run.progressBegun = false;
  }
  const char *what = "Ask LLM to schedule";
  if (cancelled) {
    logInfo("LLM schedule {0} cancelled after {1} rounds; no edit", id,
            run.session->roundsUsed());
  } else if (error) {
    // The client's errors never contain the key (ChatClient redacts).
    std::string message =
        std::string(what) + " failed: " + *error + "; no edit";
    logInfo("LLM schedule {0}: {1}", id, message);
    showMessage(/*Error=*/1, message);
    if (!run.reply->isCancelled())
      (*run.reply)(json::Value(json::Object{
          {"applied", false},
          {"error", *error},
          {"summary", formatMetricDiff(run.session->baselineMetrics(),
                                       run.session->baselineMetrics(),
                                       run.target.loopIndex)}}));
  } else {
    conductor::ScheduleCache cache(
        conductor::ScheduleCache::defaultDirectory());
    std::vector<std::string> warnings;
    conductor::storeInCache(*run.session, cache, run.model, warnings);
    for (const std::string &warning : warnings)
      logInfo("LLM schedule {0}: {1}", id, warning);
    ScheduleOutcome outcome =
        makeScheduleOutcome(*run.parsed, run.target, *run.session);
    deliverSchedule(run.uri, run.parsed, std::move(outcome), what, run.reply,
                    /*confirm=*/true);
  }
  // Not now: this may run inside the chat client's callback.
  loop.runAfter(0, [this, id] { llmRuns.erase(id); });
}
