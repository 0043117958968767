//===- Search.cpp - Parallel LLM search over Sessions ---------------------===//

#include "conductor/Search.h"
#include "conductor/llm/WireJson.h"

#include <nlohmann/json.hpp>
#include <uv.h>

#include <algorithm>
#include <numeric>

using namespace waveasm;
using namespace waveasm::conductor;
using json = nlohmann::json;

std::vector<std::string> conductor::defaultSystemPrompts() {
  const char *common =
      " You reorder the ops of a WaveASM MLIR loop body (AMDGCN instructions, "
      "tagged loc(\"I<n>\")) with move commands; a deterministic engine "
      "validates them, compiles, and reports metrics each round. Commands: "
      "'move Ix after Iy', 'move Ix before Iy', 'swap Ix Iy', 'stage Ix N' "
      "(software-pipelining stage N of a loop body op), 'pad lds S P' (the "
      "LDS laid out in rows of S bytes padded by P against bank conflicts), "
      "and 'done' when "
      "no further move helps.";
  return {
      std::string("You are an expert GPU instruction scheduler. Prioritize "
                  "latency hiding: issue global and LDS loads as early as "
                  "their operands allow and place independent MFMA/VALU work "
                  "between a load and its first use, while keeping register "
                  "pressure from growing.") +
          common,
      std::string("You are an expert GPU instruction scheduler. Prioritize "
                  "register pressure: move each definition close to its first "
                  "use and the last uses of long-lived values earlier, so "
                  "fewer values are live at the peak, without exposing memory "
                  "latency.") +
          common,
  };
}

struct Search::Agent {
  int id = 0;
  std::unique_ptr<Session> session;
  std::string system;
  size_t systemIndex = 0;
  /// Tool mode: the running conversation. Text mode sends only the current
  /// prompt, which already carries the previous round's report.
  std::vector<llm::ChatMessage> conversation;
  int rounds = 0;   // this checkpoint
  int requests = 0; // this checkpoint
  bool inFlight = false;
  llm::ChatClient::RequestId pending = 0;
};

Search::Search(llm::ChatClient &client, const Session &initial,
               SearchOptions options)
    : client(client), initial(initial), options(std::move(options)) {
  if (this->options.systemPrompts.empty())
    this->options.systemPrompts = defaultSystemPrompts();
  this->options.agents = std::max(1, this->options.agents);
  this->options.checkpointRounds = std::max(1, this->options.checkpointRounds);
  this->options.topK = std::clamp(this->options.topK, 1, this->options.agents);
  if (this->options.maxRequestsPerCheckpoint <= 0)
    this->options.maxRequestsPerCheckpoint =
        3 * this->options.checkpointRounds + 2;
}

Search::~Search() {
  for (auto &agent : agents)
    if (agent->inFlight)
      client.cancel(agent->pending);
}

void Search::event(const Agent *agent, std::string message) {
  if (onEvent)
    onEvent({checkpoint, agent ? agent->id : -1, std::move(message)});
}

void Search::start(std::function<void(SearchResult)> done,
                   std::function<void(const SearchEvent &)> eventFn) {
  onDone = std::move(done);
  onEvent = std::move(eventFn);
  running = true;
  for (int i = 0; i < options.agents; ++i) {
    auto agent = std::make_unique<Agent>();
    agent->id = nextAgentId++;
    agent->session = initial.fork();
    agent->systemIndex = i % options.systemPrompts.size();
    agent->system = options.systemPrompts[agent->systemIndex];
    agents.push_back(std::move(agent));
  }
  startCheckpoint();
}

void Search::startCheckpoint() {
  ++checkpoint;
  std::vector<Agent *> runnable;
  for (auto &agent : agents) {
    agent->rounds = agent->requests = 0;
    if (!agent->session->finished())
      runnable.push_back(agent.get());
  }
  if (runnable.empty()) {
    finish(/*cancelled=*/false);
    return;
  }
  event(nullptr, "checkpoint " + std::to_string(checkpoint) + ": " +
                     std::to_string(runnable.size()) + " agents");
  roundsBefore = result.rounds;
  // Count first: replies only arrive from the loop, after this returns.
  busy = runnable.size();
  for (Agent *agent : runnable)
    sendNext(*agent);
}

void Search::sendNext(Agent &agent) {
  if (++agent.requests > options.maxRequestsPerCheckpoint) {
    event(&agent, "request budget of the checkpoint used up");
    agentIdle(agent);
    return;
  }
  llm::ChatRequest request;
  request.system = agent.system;
  if (options.toolCalling) {
    request.system += " Call the apply_moves tool with your move commands "
                      "(one call is one round); evaluate returns the current "
                      "metrics.";
    request.tools = llm::conductorTools();
    if (agent.conversation.empty())
      agent.conversation.push_back(
          llm::ChatMessage::user(agent.session->prompt()));
    request.messages = agent.conversation;
  } else {
    request.messages.push_back(llm::ChatMessage::user(agent.session->prompt()));
  }
  agent.inFlight = true;
  Agent *target = &agent;
  agent.pending =
      client.send(std::move(request), [this, target](llm::ChatReply reply) {
        onReply(*target, std::move(reply));
      });
}

/// The tool result of one apply_moves call: the round report, then the
/// next round's prompt so the model sees the IR it now works on.
static std::string applyMovesResult(Session &session, const std::string &args,
                                    RoundReport &report, bool &ran) {
  ran = false;
  if (session.finished())
    return "The session is finished; no more rounds.";
  json parsed = llm::wire::parseUntrusted(args);
  if (!parsed.is_object() || !parsed.contains("moves") ||
      !parsed["moves"].is_array())
    return "error: apply_moves takes {\"moves\": [\"move I5 after I1\", "
           "...]}; nothing applied.";
  std::string text;
  for (const json &move : parsed["moves"])
    if (move.is_string())
      text += move.get<std::string>() + "\n";
  report = session.applyReply(text);
  ran = true;
  std::string out = report.summary();
  if (std::string detail = report.text(); !detail.empty())
    out += "\n" + detail;
  if (!session.finished())
    out += "\n\n" + session.prompt();
  return out;
}

void Search::onReply(Agent &agent, llm::ChatReply reply) {
  agent.inFlight = false;
  ++result.requests;
  result.usage += reply.usage;
  if (reply.error) {
    ++result.failedRequests;
    std::string message =
        "agent " + std::to_string(agent.id) + ": " + *reply.error;
    result.errors.push_back(message);
    event(&agent, message);
    agentIdle(agent); // the Session is unchanged
    return;
  }

  if (options.toolCalling && !reply.toolCalls.empty()) {
    agent.conversation.push_back(reply.asMessage());
    for (const llm::ToolCall &call : reply.toolCalls) {
      std::string out;
      if (call.name == "apply_moves") {
        RoundReport report;
        bool ran = false;
        out = applyMovesResult(*agent.session, call.argumentsJson, report, ran);
        if (ran)
          endRound(agent, report);
      } else if (call.name == "evaluate") {
        out = agent.session->metricsText();
      } else {
        out = "error: unknown tool '" + call.name +
              "'; the tools are apply_moves and evaluate.";
      }
      agent.conversation.push_back(
          llm::ChatMessage::toolResult(call.id, std::move(out)));
    }
  } else {
    RoundReport report = agent.session->applyReply(reply.text);
    endRound(agent, report);
    if (options.toolCalling) {
      agent.conversation.push_back(reply.asMessage());
      std::string next = report.summary();
      if (std::string detail = report.text(); !detail.empty())
        next += "\n" + detail;
      next += "\n\n" + agent.session->prompt();
      agent.conversation.push_back(llm::ChatMessage::user(next));
    }
  }

  if (agent.session->finished() || agent.rounds >= options.checkpointRounds)
    agentIdle(agent);
  else
    sendNext(agent);
}

void Search::endRound(Agent &agent, const RoundReport &report) {
  ++agent.rounds;
  ++result.rounds;
  event(&agent, "agent " + std::to_string(agent.id) + " " + report.summary());
}

void Search::agentIdle(Agent &) {
  if (--busy == 0)
    finishCheckpoint();
}

/// Agents ordered best first by the sessions' is_better.
static std::vector<size_t>
rank(const std::vector<std::unique_ptr<Search::Agent>> &agents) {
  std::vector<size_t> order(agents.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Session &sa = *agents[a]->session, &sb = *agents[b]->session;
    return sa.bestIsBetterThan(sb);
  });
  return order;
}

void Search::finishCheckpoint() {
  result.checkpoints = checkpoint;
  // Nothing moved (every request failed): another checkpoint would fail the
  // same way, so stop with what we have.
  if (result.rounds == roundsBefore) {
    event(nullptr, "checkpoint " + std::to_string(checkpoint) +
                       ": no agent completed a round; stopping");
    finish(/*cancelled=*/false);
    return;
  }
  std::vector<size_t> order = rank(agents);
  size_t keep = std::min<size_t>(options.topK, agents.size());
  std::vector<std::unique_ptr<Agent>> pool;
  for (size_t i = 0; i < keep; ++i)
    pool.push_back(std::move(agents[order[i]]));
  std::vector<Agent *> parents;
  for (auto &agent : pool)
    if (!agent->session->finished())
      parents.push_back(agent.get());
  const ProgramMetrics &top = pool.front()->session->bestMetrics();
  event(nullptr, "checkpoint " + std::to_string(checkpoint) + ": kept " +
                     std::to_string(keep) + " of " +
                     std::to_string(agents.size()) + "; best peak_vgpr " +
                     std::to_string(top.peak_vgpr) + ", est_cycles " +
                     std::to_string(top.est_cycles));
  agents.clear();
  // Refill with forks of the unfinished survivors, each under a system
  // prompt other than its parent's.
  for (size_t i = 0; !parents.empty() && pool.size() < (size_t)options.agents;
       ++i) {
    Agent &parent = *parents[i % parents.size()];
    auto child = std::make_unique<Agent>();
    child->id = nextAgentId++;
    child->session = parent.session->fork();
    child->systemIndex = (parent.systemIndex + 1 + i / parents.size()) %
                         options.systemPrompts.size();
    child->system = options.systemPrompts[child->systemIndex];
    pool.push_back(std::move(child));
  }
  // Long tool conversations restart from a fresh prompt.
  for (auto &agent : pool)
    if (agent->conversation.size() > 16)
      agent->conversation.clear();
  agents = std::move(pool);
  startCheckpoint();
}

void Search::finish(bool cancelled) {
  if (!running)
    return;
  running = false;
  result.cancelled = cancelled;
  result.checkpoints = std::max(result.checkpoints, checkpoint - 1);
  if (!agents.empty())
    result.best = std::move(agents[rank(agents).front()]->session);
  agents.clear();
  auto done = std::move(onDone);
  SearchResult out = std::move(result);
  result = SearchResult();
  if (done)
    done(std::move(out));
}

void Search::cancel() {
  if (!running)
    return;
  for (auto &agent : agents)
    if (agent->inFlight) {
      client.cancel(agent->pending);
      agent->inFlight = false;
    }
  finish(/*cancelled=*/true);
}

SearchResult Search::run(std::function<void(const SearchEvent &)> eventFn) {
  std::optional<SearchResult> out;
  start([&](SearchResult r) { out = std::move(r); }, std::move(eventFn));
  uv_loop_t *loop = client.http().loop();
  while (!out)
    uv_run(loop, UV_RUN_ONCE);
  return std::move(*out);
}
