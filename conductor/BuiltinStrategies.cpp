//===- BuiltinStrategies.cpp - the strategies `--llm none` runs -----------===//
//
// The registry of built-in strategies. The strategies themselves live in
// conductor/strategies/ (scheduleListLatency, schedulePressure,
// scheduleSpectral, schedulePipelined); this list is where they are wired
// in, one entry each, under the names `waveasm-conductor --strategy` takes.
// `pipeline` changes the loop's shape (prologue, steady state, epilogue), so
// it runs only when asked for by name (or by the editor's schedule command).
//
//===----------------------------------------------------------------------===//

#include "conductor/MoveSource.h"
#include "conductor/Session.h"
#include "conductor/strategies/PipelineStrategy.h"
#include "conductor/strategies/Strategies.h"

#include "llvm/ADT/StringExtras.h"

using namespace waveasm::conductor;

std::vector<Strategy> waveasm::conductor::builtinStrategies() {
  return builtinStrategies(BuiltinStrategyOptions());
}

std::vector<Strategy>
waveasm::conductor::builtinStrategies(const BuiltinStrategyOptions &options) {
  // Latency first (the loop's cycles), then pressure on whatever it kept,
  // then the spectral order (kept only if it measures better still); each
  // proposal is one round, validated, measured and checked like an LLM's.
  SpectralOptions spectral;
  spectral.epsilon = options.spectralEpsilon;
  return {
      {"list-latency",
       [](const Session &session) {
         return scheduleListLatency(session.region(), session.targetModel());
       }},
      {"pressure",
       [](const Session &session) {
         return schedulePressure(session.region(), session.targetModel());
       }},
      {"spectral",
       [spectral](const Session &session) {
         return scheduleSpectral(session.region(), spectral);
       }},
  };
}

Strategy waveasm::conductor::pipelineStrategy() {
  return {"pipeline", [](const Session &session) {
            PipelineStrategyOptions options;
            options.optimizePipeline = session.optimizesPipeline();
            options.targetOverrides = session.targetModelOverrides();
            return schedulePipelined(session.bestModule(), session.region(),
                                     session.targetModel(), options)
                .commands;
          }};
}

llvm::Expected<std::vector<Strategy>>
waveasm::conductor::selectBuiltinStrategies(
    llvm::StringRef names, const BuiltinStrategyOptions &options) {
  std::vector<Strategy> all = builtinStrategies(options), chosen;
  all.push_back(pipelineStrategy());
  llvm::SmallVector<llvm::StringRef> wanted;
  names.split(wanted, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : wanted) {
    name = name.trim();
    auto it = llvm::find_if(
        all, [&](const Strategy &strategy) { return strategy.name == name; });
    if (it == all.end()) {
      std::vector<std::string> known;
      for (const Strategy &strategy : all)
        known.push_back(strategy.name);
      return llvm::createStringError("unknown strategy '" + name.str() +
                                     "' (known: " + llvm::join(known, ", ") +
                                     ")");
    }
    chosen.push_back(*it);
  }
  if (chosen.empty())
    return llvm::createStringError("no strategy named");
  return chosen;
}
