//===- BuiltinStrategies.cpp - the strategies `--llm none` runs -----------===//
//
// The registry of built-in strategies. The strategies themselves live in
// conductor/strategies/ (scheduleListLatency, schedulePressure); this list
// is where they are wired in, one entry each.
//
//===----------------------------------------------------------------------===//

#include "conductor/MoveSource.h"
#include "conductor/Session.h"
#include "conductor/strategies/Strategies.h"

std::vector<waveasm::conductor::Strategy>
waveasm::conductor::builtinStrategies() {
  // Latency first (the loop's cycles), then pressure on whatever it kept;
  // each proposal is one round, validated and measured like an LLM's.
  return {
      {"list-latency",
       [](const Session &session) {
         return scheduleListLatency(session.region(), session.targetModel());
       }},
      {"pressure",
       [](const Session &session) {
         return schedulePressure(session.region(), session.targetModel());
       }},
  };
}
