//===- BuiltinStrategies.cpp - the strategies `--llm none` runs -----------===//
//
// The registry of built-in strategies. The strategies themselves live in
// conductor/strategies/ (scheduleListLatency, schedulePressure); this list
// is where they are wired in, one entry each.
//
//===----------------------------------------------------------------------===//

#include "conductor/MoveSource.h"

std::vector<waveasm::conductor::Strategy>
waveasm::conductor::builtinStrategies() {
  return {};
}
