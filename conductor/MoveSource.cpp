//===- MoveSource.cpp - scripted and built-in reply sources ---------------===//

#include "conductor/MoveSource.h"

#include "conductor/Session.h"

#include "llvm/ADT/SmallVector.h"

using namespace waveasm::conductor;

std::optional<std::string> ScriptedMoveSource::nextReply(const Session &,
                                                         llvm::StringRef) {
  if (next >= replies.size())
    return std::nullopt;
  ++numCalls;
  return replies[next++];
}

std::vector<std::string>
waveasm::conductor::splitScriptedReplies(llvm::StringRef text) {
  std::vector<std::string> replies(1);
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.rtrim() == "---") {
      replies.emplace_back();
      continue;
    }
    replies.back() += line.str() + "\n";
  }
  // A trailing separator or an empty file leaves no empty reply behind.
  if (llvm::StringRef(replies.back()).trim().empty())
    replies.pop_back();
  return replies;
}

std::optional<std::string> StrategyMoveSource::nextReply(const Session &session,
                                                         llvm::StringRef) {
  if (next >= strategies.size())
    return std::nullopt;
  const Strategy &strategy = strategies[next++];
  last = strategy.name;
  ++numCalls;
  std::string reply;
  for (const MoveCommand &command : strategy.propose(session))
    reply += command.text() + "\n";
  return reply;
}

void waveasm::conductor::runSession(
    Session &session, MoveSource &source,
    const std::function<void(const RoundReport &)> &onRound) {
  while (!session.finished()) {
    std::optional<std::string> reply =
        source.nextReply(session, session.prompt());
    if (!reply)
      return;
    RoundReport report = session.applyReply(*reply);
    if (onRound)
      onRound(report);
  }
}
