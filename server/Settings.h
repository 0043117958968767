//===- Settings.h - what the user can configure in the server ---*- C++ -*-===//
//
// Everything the editor's configuration (workspace/didChangeConfiguration,
// initializationOptions) and `waveasm-lsp check` flags can change. Plain
// data: protocol/ parses it from JSON, the features read it.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_SETTINGS_H
#define WAVEASM_SERVER_SETTINGS_H

#include "ir/TargetInfo.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace waveasm::server {

/// Severity a lint is reported with; Off drops it.
enum class LintSeverity : uint8_t { Off, Hint, Info, Warning, Error };

/// "off", "hint", "info" ("information"), "warning", "error".
std::optional<LintSeverity> parseLintSeverity(llvm::StringRef name);
llvm::StringRef stringifyLintSeverity(LintSeverity severity);

/// The lint codes (lsp::Diagnostic::code) the server emits.
enum class LintCode : uint8_t {
  Stall,
  Pressure,
  Hazard,
  Waitcnt,
  Optimization,
  LiveThrough,
  SCC,
  Unused,
  RedundantLoad,
  BankConflict,
  LoadBehindStore
};
constexpr unsigned kNumLintCodes = 11;
/// "stall", "pressure", "hazard", "waitcnt", "optimization", "liveThrough",
/// "scc", "unused", "redundantLoad", "bankConflict", "loadBehindStore".
llvm::StringRef stringifyLintCode(LintCode code);
std::optional<LintCode> parseLintCode(llvm::StringRef name);

/// What a lint reports, for rule catalogues (SARIF's rules, --help texts):
/// a PascalCase name, one sentence, and what to do about a finding.
struct LintDescription {
  llvm::StringRef friendlyName;
  llvm::StringRef summary;
  llvm::StringRef help;
};
LintDescription describeLint(LintCode code);

struct ServerSettings {
  /// Analyse every program for this target instead of its own attribute.
  std::optional<TargetKind> targetOverride;
  /// TargetModel overrides, e.g. "latency.vmem_load=120"
  /// (TargetModel::applyOverride names).
  std::vector<std::string> targetModelOverrides;
  /// The pipeline behind every figure: true ("full") the Wave compiler's
  /// production order with upstream's optimizations, so the figures are
  /// those of what it emits; false ("backend") allocation, waits and
  /// hazards only, the IR as written.
  bool optimizePipeline = true;
  /// Schedules the Conductor keeps (code actions, scheduleLoop) are run
  /// against the input in the simulator first (sim/Compare.h); one that
  /// computes different results is not offered.
  bool checkByExecution = true;

  /// Inlay hint kinds.
  bool hintLatency = true;  // `lat 20 · stall 12`
  bool hintPressure = true; // `v 84 · s 22 · a 128`
  bool hintTag = true;      // `I17`
  bool hintProfile = true;  // `⏱ 102 cyc (88–145) ×1024`, with a profile

  /// Per-instruction profile CSV (conductor/Profile.h's format) shown as
  /// hints and added to LLM prompts. nullopt: `<document>.profile.csv` next
  /// to the document, if it exists; empty: off; else a path, relative ones
  /// against the document's directory.
  std::optional<std::string> profile;

  /// Lint severities, indexed by LintCode. Defaults: a stall is a hint (it
  /// is the normal state of a single wave and shows on many lines), an
  /// occupancy breakpoint a warning (it costs a wave per SIMD), an inserted
  /// nop a hint (the pipeline already fixed it), a long wait information,
  /// work the optimizations remove from a loop information, a value held
  /// through a loop it is not used in information, an SCC value the
  /// pipeline must save and restore information, an unused result a hint
  /// (editors show it faded, as they do unused code), a load repeating an
  /// earlier one information, an LDS access with a bank conflict
  /// information (it costs issue slots each time, like a long wait), a
  /// load kept behind a store only because nothing declares them apart
  /// information.
  LintSeverity lintSeverity[kNumLintCodes] = {
      LintSeverity::Hint, LintSeverity::Warning, LintSeverity::Hint,
      LintSeverity::Info, LintSeverity::Info,    LintSeverity::Info,
      LintSeverity::Info, LintSeverity::Hint,    LintSeverity::Info,
      LintSeverity::Info, LintSeverity::Info};
  LintSeverity &severityOf(LintCode code) {
    return lintSeverity[static_cast<unsigned>(code)];
  }
  LintSeverity severityOf(LintCode code) const {
    return lintSeverity[static_cast<unsigned>(code)];
  }

  /// `stall`: report an instruction waiting at least this many cycles for
  /// a register operand.
  int64_t stallThresholdCycles = 16;
  /// `waitcnt`: report an s_waitcnt waiting at least this many cycles.
  int64_t waitcntStallThresholdCycles = 64;

  /// Debounce of the background pipeline refresh after an edit: at least
  /// `debounceMinMs` after the last keystroke, at most `debounceMaxMs`
  /// after the first unprocessed one.
  int debounceMinMs = 50;
  int debounceMaxMs = 500;

  /// `Ask LLM to schedule this loop`. The API key is never a setting: it is
  /// read from the environment variable named `llmApiKeyEnv` when a request
  /// goes out.
  enum class LLMProvider : uint8_t { None, OpenAI, Anthropic };
  LLMProvider llmProvider = LLMProvider::None;
  std::string llmModel;   // empty: the provider's default
  std::string llmBaseUrl; // empty: the provider's public endpoint
  std::string llmApiKeyEnv = "WAVEASM_LLM_API_KEY";
  int llmRounds = 5; // Session rounds (LLM replies) per run
  /// Per request: give up after this long, retry (429/5xx/timeouts) this
  /// often.
  int llmTimeoutMs = 120000;
  int llmMaxRetries = 4;
  /// Replay only Conductor cache entries this provider and model found (an
  /// entry of the built-in strategies or another model is bypassed).
  bool llmCacheSameSource = false;
};

/// "none", "openai", "anthropic".
std::optional<ServerSettings::LLMProvider>
parseLLMProvider(llvm::StringRef name);
llvm::StringRef stringifyLLMProvider(ServerSettings::LLMProvider provider);

} // namespace waveasm::server

#endif // WAVEASM_SERVER_SETTINGS_H
