//===- SettingsJSON.h - the server's settings from JSON ----------*- C++
//-*-===//
//
// ServerSettings (server/Settings.h) arrive as `initializationOptions` and
// in `workspace/didChangeConfiguration`'s `settings`, either bare or under a
// "waveasm" key (how VS Code-style clients send a configuration section).
// Every key is optional; a present key overrides the current value, so a
// partial update changes only what it names. The shape:
//
//   {
//     "target": "gfx950",            // analyse as this target; null: each
//                                    // program's own
//     "targetModelOverrides": ["latency.vmem_load=120"],
//     "hints": {"latency": true, "pressure": true, "tag": true},
//     "lints": {"stall": "hint", "pressure": "warning",
//               "hazard": "hint", "waitcnt": "info"},
//                                    // off|hint|info|warning|error
//     "stallThresholdCycles": 16,
//     "waitcntStallThresholdCycles": 64,
//     "debounce": {"minMs": 50, "maxMs": 500, "leadingEdge": true},
//     "progressDelayMs": 200,        // $/progress after this long
//     "llm": {"provider": "none",    // none|openai|anthropic
//             "model": "", "baseUrl": "",   // empty: provider defaults
//             "apiKeyEnv": "WAVEASM_LLM_API_KEY", // env var with the key
//             "rounds": 5,           // LLM rounds per schedule request
//             "timeoutMs": 120000, "maxRetries": 4}  // per request
//   }
// ("llm.provider" etc. as flat keys are accepted too.)
//
// A bad value is reported (the server logs it and shows it to the user)
// and leaves that one setting unchanged; the others still apply.
//
// This lives with the runtime, not in protocol/, because ServerSettings is
// a server-layer type (protocol/ stays below server/).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_SETTINGSJSON_H
#define WAVEASM_SERVER_RUNTIME_SETTINGSJSON_H

#include "server/Settings.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace waveasm::server {

/// Settings of the runtime itself (not seen by the features).
struct RuntimeSettings {
  bool debounceLeadingEdge = true;
  int progressDelayMs = 200;
};

/// Applies `json` on top of `settings` and `runtime`; returns one message
/// per ignored value ("lints.stall: expected off|hint|info|warning|error").
std::vector<std::string> applySettingsJSON(const llvm::json::Value &json,
                                           ServerSettings &settings,
                                           RuntimeSettings &runtime);

/// The full current settings in the same shape (for logs and tests).
llvm::json::Value settingsToJSON(const ServerSettings &settings,
                                 const RuntimeSettings &runtime);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_SETTINGSJSON_H
