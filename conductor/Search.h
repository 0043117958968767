//===- Search.h - Parallel LLM search over Sessions -------------*- C++ -*-===//
//
// The design's "Parallel Search with Checkpoints": P agents, each a Session
// plus a chat conversation, run rounds concurrently on one libuv loop. An
// agent sends its prompt, and when the reply arrives (HttpMulti calls back
// on the loop) it is applied to that agent's Session (milliseconds of CPU)
// and the agent's next request goes out at once, so a checkpoint lasts as
// long as its slowest agent. Every K rounds all agents are ranked by the
// Session's is_better order; the top k survive and continue, and the pool
// is refilled with forks of the survivors under varied system prompts
// (latency-first vs pressure-first). The search ends when every surviving
// lineage is finished (said "done" or used its round budget).
//
// In tool-calling mode the model calls apply_moves {moves: [...]} (one
// round per call; the result is the round report and the next prompt) and
// evaluate {} (the metrics) instead of writing commands as text.
//
// A failed request (after the client's retries) stops that agent for the
// rest of the checkpoint with its Session unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_SEARCH_H
#define WAVEASM_CONDUCTOR_SEARCH_H

#include "conductor/Session.h"
#include "conductor/llm/ChatClient.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

struct SearchOptions {
  int agents = 4;           // P
  int checkpointRounds = 2; // K
  int topK = 2;
  bool toolCalling = false;
  /// System prompts the pool cycles through; empty: latency-first and
  /// pressure-first.
  std::vector<std::string> systemPrompts;
  /// Requests one agent may make per checkpoint (bounds evaluate-only
  /// loops in tool mode); 0: 3 * checkpointRounds + 2.
  int maxRequestsPerCheckpoint = 0;
};

struct SearchEvent {
  int checkpoint = 0;
  int agent = 0;
  std::string message; // "agent 3 round 2: 2 moves, kept", errors, ...
};

struct SearchResult {
  /// The best session at the end (the top survivor).
  std::unique_ptr<Session> best;
  int checkpoints = 0;
  int requests = 0;
  int rounds = 0;
  int failedRequests = 0;
  llm::Usage usage;
  /// Request errors (never contain the API key); the search may still have
  /// a result from other agents.
  std::vector<std::string> errors;
  bool cancelled = false;
};

/// The default system prompt variants.
std::vector<std::string> defaultSystemPrompts();

class Search {
public:
  /// `initial` is forked for every agent and never changed. `client` and
  /// its HttpMulti's loop must outlive the search.
  Search(llm::ChatClient &client, const Session &initial,
         SearchOptions options);
  ~Search();

  /// Starts the agents; `done` runs on the loop thread when the search
  /// ends. `onEvent` (optional) reports rounds and checkpoints.
  void start(std::function<void(SearchResult)> done,
             std::function<void(const SearchEvent &)> onEvent = nullptr);
  /// Drops all requests in flight and ends the search (done runs with
  /// `cancelled` and the best session so far).
  void cancel();

  /// Convenience: start, run the loop until the search ends, return.
  SearchResult run(std::function<void(const SearchEvent &)> onEvent = nullptr);

  struct Agent;

private:
  void startCheckpoint();
  void sendNext(Agent &agent);
  void onReply(Agent &agent, llm::ChatReply reply);
  void endRound(Agent &agent, const RoundReport &report);
  void agentIdle(Agent &agent);
  void finishCheckpoint();
  void finish(bool cancelled);
  void event(const Agent *agent, std::string message);

  llm::ChatClient &client;
  const Session &initial;
  SearchOptions options;
  std::vector<std::unique_ptr<Agent>> agents;
  int busy = 0;
  int checkpoint = 0;
  int roundsBefore = 0; // result.rounds when the checkpoint started
  int nextAgentId = 0;
  bool running = false;
  SearchResult result;
  std::function<void(SearchResult)> onDone;
  std::function<void(const SearchEvent &)> onEvent;
};

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_SEARCH_H
