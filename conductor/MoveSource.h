//===- MoveSource.h - where a session's next reply comes from ---*- C++ -*-===//
//
// The Conductor loop asks a MoveSource for the reply to each prompt: an LLM
// client, the built-in strategies, or a script (tests, replays). The CLI and
// the server run any of them with `runSession`.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_MOVESOURCE_H
#define WAVEASM_CONDUCTOR_MOVESOURCE_H

#include "conductor/Commands.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

class Session;
struct RoundReport;

class MoveSource {
public:
  virtual ~MoveSource() = default;
  /// Short name for logs and cache entries ("builtin", "script",
  /// "openai:gpt-4o").
  virtual std::string name() const = 0;
  /// The reply to `prompt` for `session`'s current state; nullopt when the
  /// source has nothing more to say (the loop stops).
  virtual std::optional<std::string> nextReply(const Session &session,
                                               llvm::StringRef prompt) = 0;
  /// Replies produced so far (LLM calls, for an LLM source).
  int calls() const { return numCalls; }
  /// A request failed: running out of replies then means nothing about
  /// the schedule (no "no better schedule" is cached).
  virtual bool failed() const { return false; }

protected:
  int numCalls = 0;
};

/// Replies from a list, in order (tests, recorded LLM transcripts).
class ScriptedMoveSource : public MoveSource {
public:
  explicit ScriptedMoveSource(std::vector<std::string> replies)
      : replies(std::move(replies)) {}
  std::string name() const override { return "script"; }
  std::optional<std::string> nextReply(const Session &,
                                       llvm::StringRef) override;

private:
  std::vector<std::string> replies;
  size_t next = 0;
};
/// Replies of a script file: separated by lines that are exactly "---".
std::vector<std::string> splitScriptedReplies(llvm::StringRef text);

/// A built-in strategy: the commands it proposes for the session's region.
struct Strategy {
  std::string name;
  std::function<std::vector<MoveCommand>(const Session &)> propose;
};
/// Settings of the built-in strategies.
struct BuiltinStrategyOptions {
  /// The spectral strategy keeps the input order unless C(pi) drops below
  /// C(input) * (1 - spectralEpsilon).
  double spectralEpsilon = 0.05;
};
/// The strategies linked into this build (conductor/strategies), in the
/// order `--llm none` tries them.
std::vector<Strategy> builtinStrategies(const BuiltinStrategyOptions &options);
std::vector<Strategy> builtinStrategies();
/// Issue 12's software-pipelining strategy (strategies/PipelineStrategy.h):
/// not in the default list, selectable as `pipeline`.
Strategy pipelineStrategy();
/// The built-in strategies named in `names` (comma separated, in that
/// order); fails naming the unknown one and the known names.
llvm::Expected<std::vector<Strategy>>
selectBuiltinStrategies(llvm::StringRef names,
                        const BuiltinStrategyOptions &options = {});

/// One round per strategy: each reply is a strategy's commands, one per
/// line; stops after the last strategy.
class StrategyMoveSource : public MoveSource {
public:
  explicit StrategyMoveSource(std::vector<Strategy> strategies)
      : strategies(std::move(strategies)) {}
  std::string name() const override { return "builtin"; }
  std::optional<std::string> nextReply(const Session &session,
                                       llvm::StringRef) override;
  /// The strategy that produced the last reply.
  const std::string &lastStrategy() const { return last; }

private:
  std::vector<Strategy> strategies;
  size_t next = 0;
  std::string last;
};

/// Runs `session` until it finishes or `source` runs dry; calls `onRound`
/// after each round.
void runSession(Session &session, MoveSource &source,
                const std::function<void(const RoundReport &)> &onRound = {});

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_MOVESOURCE_H
