//===- SettingsJSON.cpp - the server's settings from JSON
//------------------===//

#include "server/runtime/SettingsJSON.h"

#include "ir/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"

using namespace waveasm;
using namespace waveasm::server;
namespace json = llvm::json;

namespace {

/// Collects problems with their JSON path ("hints.tag: expected a bool").
struct Reader {
  std::vector<std::string> problems;

  void problem(llvm::StringRef path, llvm::StringRef message) {
    problems.push_back((path + ": " + message).str());
  }

  void readBool(const json::Object &o, llvm::StringRef key,
                llvm::StringRef path, bool &out) {
    if (const json::Value *v = o.get(key)) {
      if (std::optional<bool> b = v->getAsBoolean())
        out = *b;
      else
        problem(path, "expected true or false");
    }
  }

  template <typename Int>
  void readInt(const json::Object &o, llvm::StringRef key, llvm::StringRef path,
               Int &out, int64_t min, int64_t max) {
    if (const json::Value *v = o.get(key)) {
      std::optional<int64_t> i = v->getAsInteger();
      if (!i) // 50.0 is fine too
        if (std::optional<double> d = v->getAsNumber())
          if (*d == static_cast<double>(static_cast<int64_t>(*d)))
            i = static_cast<int64_t>(*d);
      if (i && *i >= min && *i <= max)
        out = static_cast<Int>(*i);
      else
        problem(path, "expected an integer in [" + std::to_string(min) + ", " +
                          std::to_string(max) + "]");
    }
  }

  void readString(const json::Object &o, llvm::StringRef key,
                  llvm::StringRef path, std::string &out) {
    if (const json::Value *v = o.get(key)) {
      if (v->kind() == json::Value::Null)
        out.clear();
      else if (std::optional<llvm::StringRef> s = v->getAsString())
        out = s->str();
      else
        problem(path, "expected a string");
    }
  }

  const json::Object *readObject(const json::Object &o, llvm::StringRef key,
                                 llvm::StringRef path) {
    const json::Value *v = o.get(key);
    if (!v || v->kind() == json::Value::Null)
      return nullptr;
    if (const json::Object *object = v->getAsObject())
      return object;
    problem(path, "expected an object");
    return nullptr;
  }
};

} // namespace

std::vector<std::string>
waveasm::server::applySettingsJSON(const json::Value &value,
                                   ServerSettings &settings,
                                   RuntimeSettings &runtime) {
  Reader r;
  // No settings: null, or an empty array (Neovim's Lua encodes an empty
  // table as `[]`).
  if (value.kind() == json::Value::Null)
    return {};
  if (const json::Array *array = value.getAsArray(); array && array->empty())
    return {};
  const json::Object *root = value.getAsObject();
  if (!root) {
    r.problem("settings", "expected an object");
    return r.problems;
  }
  // {"waveasm": {...}} is a configuration section; take it when present.
  if (const json::Value *section = root->get("waveasm")) {
    if (const json::Object *object = section->getAsObject())
      root = object;
    else if (const json::Array *array = section->getAsArray();
             array && array->empty())
      return {};
  }

  if (const json::Value *target = root->get("target")) {
    if (target->kind() == json::Value::Null) {
      settings.targetOverride.reset();
    } else if (std::optional<llvm::StringRef> name = target->getAsString()) {
      if (name->empty())
        settings.targetOverride.reset();
      else if (std::optional<TargetKind> kind = parseTargetKind(*name))
        settings.targetOverride = *kind;
      else
        r.problem("target", ("unknown target '" + *name + "' (expected " +
                             listTargetKinds() + ")")
                                .str());
    } else {
      r.problem("target", "expected a target name or null");
    }
  }

  if (const json::Value *pipeline = root->get("pipeline")) {
    std::optional<llvm::StringRef> name = pipeline->getAsString();
    if (name && (*name == "full" || *name == "backend"))
      settings.optimizePipeline = *name == "full";
    else
      r.problem("pipeline", "expected \"full\" (the production order with "
                            "upstream's optimizations) or \"backend\" "
                            "(allocation, waits and hazards only)");
  }

  r.readBool(*root, "checkByExecution", "checkByExecution",
             settings.checkByExecution);

  if (const json::Value *overrides = root->get("targetModelOverrides")) {
    const json::Array *array = overrides->getAsArray();
    std::vector<std::string> list;
    bool ok = array != nullptr;
    if (array)
      for (const json::Value &item : *array) {
        std::optional<llvm::StringRef> s = item.getAsString();
        if (!s) {
          ok = false;
          break;
        }
        list.push_back(s->str());
      }
    if (ok)
      settings.targetModelOverrides = std::move(list);
    else
      r.problem("targetModelOverrides", "expected an array of strings");
  }

  if (const json::Object *hints = r.readObject(*root, "hints", "hints")) {
    r.readBool(*hints, "latency", "hints.latency", settings.hintLatency);
    r.readBool(*hints, "pressure", "hints.pressure", settings.hintPressure);
    r.readBool(*hints, "tag", "hints.tag", settings.hintTag);
    r.readBool(*hints, "profile", "hints.profile", settings.hintProfile);
  }

  if (const json::Object *lints = r.readObject(*root, "lints", "lints")) {
    for (const auto &[key, severity] : *lints) {
      std::string path = "lints." + key.str();
      std::optional<LintCode> code = parseLintCode(key);
      if (!code) {
        r.problem(path, "unknown lint (expected stall, pressure, hazard, "
                        "waitcnt, optimization, liveThrough, scc or unused)");
        continue;
      }
      std::optional<llvm::StringRef> name = severity.getAsString();
      std::optional<LintSeverity> parsed =
          name ? parseLintSeverity(*name) : std::nullopt;
      if (parsed)
        settings.severityOf(*code) = *parsed;
      else
        r.problem(path, "expected off, hint, info, warning or error");
    }
  }

  // null: the default file next to the document; "": off.
  if (const json::Value *profile = root->get("profile")) {
    if (profile->kind() == json::Value::Null)
      settings.profile.reset();
    else if (std::optional<llvm::StringRef> path = profile->getAsString())
      settings.profile = path->str();
    else
      r.problem("profile", "expected a path, \"\" (off) or null (the "
                           "document's .profile.csv)");
  }

  r.readInt(*root, "stallThresholdCycles", "stallThresholdCycles",
            settings.stallThresholdCycles, 0, 1 << 30);
  r.readInt(*root, "waitcntStallThresholdCycles", "waitcntStallThresholdCycles",
            settings.waitcntStallThresholdCycles, 0, 1 << 30);
  r.readInt(*root, "progressDelayMs", "progressDelayMs",
            runtime.progressDelayMs, 0, 60000);

  if (const json::Object *debounce =
          r.readObject(*root, "debounce", "debounce")) {
    int minMs = settings.debounceMinMs, maxMs = settings.debounceMaxMs;
    r.readInt(*debounce, "minMs", "debounce.minMs", minMs, 0, 60000);
    r.readInt(*debounce, "maxMs", "debounce.maxMs", maxMs, 0, 60000);
    if (minMs <= maxMs) {
      settings.debounceMinMs = minMs;
      settings.debounceMaxMs = maxMs;
    } else {
      r.problem("debounce", "minMs must not exceed maxMs");
    }
    r.readBool(*debounce, "leadingEdge", "debounce.leadingEdge",
               runtime.debounceLeadingEdge);
  }
  // "llm": {...}, or flat "llm.provider" keys (how some clients send a
  // dotted configuration).
  json::Object flatLLM;
  for (const auto &[key, item] : *root)
    if (llvm::StringRef(key).starts_with("llm."))
      flatLLM[llvm::StringRef(key).drop_front(4)] = item;
  const json::Object *llm = r.readObject(*root, "llm", "llm");
  const json::Object *flat = flatLLM.empty() ? nullptr : &flatLLM;
  for (const json::Object *o : {llm, flat}) {
    if (!o)
      continue;
    if (const json::Value *provider = o->get("provider")) {
      std::optional<llvm::StringRef> name = provider->getAsString();
      if (provider->kind() == json::Value::Null)
        settings.llmProvider = ServerSettings::LLMProvider::None;
      else if (auto parsed = name ? parseLLMProvider(*name) : std::nullopt)
        settings.llmProvider = *parsed;
      else
        r.problem("llm.provider", "expected none, openai or anthropic");
    }
    r.readString(*o, "model", "llm.model", settings.llmModel);
    r.readString(*o, "baseUrl", "llm.baseUrl", settings.llmBaseUrl);
    std::string keyEnv = settings.llmApiKeyEnv;
    r.readString(*o, "apiKeyEnv", "llm.apiKeyEnv", keyEnv);
    // An environment variable name, never the key itself: refuse anything
    // that does not look like a name (and do not echo it back).
    if (keyEnv.empty() || llvm::all_of(keyEnv, [](char c) {
          return llvm::isAlnum(c) || c == '_';
        }))
      settings.llmApiKeyEnv = keyEnv.empty() ? "WAVEASM_LLM_API_KEY" : keyEnv;
    else
      r.problem("llm.apiKeyEnv", "expected the name of an environment "
                                 "variable ([A-Za-z0-9_]+)");
    r.readInt(*o, "rounds", "llm.rounds", settings.llmRounds, 1, 100);
    r.readInt(*o, "timeoutMs", "llm.timeoutMs", settings.llmTimeoutMs, 100,
              3600000);
    r.readInt(*o, "maxRetries", "llm.maxRetries", settings.llmMaxRetries, 0,
              10);
    r.readBool(*o, "cacheSameSource", "llm.cacheSameSource",
               settings.llmCacheSameSource);
  }
  return r.problems;
}

json::Value waveasm::server::settingsToJSON(const ServerSettings &settings,
                                            const RuntimeSettings &runtime) {
  json::Object lints;
  for (unsigned i = 0; i < kNumLintCodes; ++i) {
    auto code = static_cast<LintCode>(i);
    lints[stringifyLintCode(code)] =
        stringifyLintSeverity(settings.severityOf(code));
  }
  json::Array overrides;
  for (const std::string &o : settings.targetModelOverrides)
    overrides.push_back(o);
  json::Value target = nullptr;
  if (settings.targetOverride)
    target = getTargetInfo(*settings.targetOverride).name;
  return json::Object{
      {"target", std::move(target)},
      {"targetModelOverrides", std::move(overrides)},
      {"pipeline", settings.optimizePipeline ? "full" : "backend"},
      {"checkByExecution", settings.checkByExecution},
      {"hints", json::Object{{"latency", settings.hintLatency},
                             {"pressure", settings.hintPressure},
                             {"tag", settings.hintTag},
                             {"profile", settings.hintProfile}}},
      {"profile", settings.profile ? json::Value(*settings.profile)
                                   : json::Value(nullptr)},
      {"lints", std::move(lints)},
      {"stallThresholdCycles", settings.stallThresholdCycles},
      {"waitcntStallThresholdCycles", settings.waitcntStallThresholdCycles},
      {"debounce", json::Object{{"minMs", settings.debounceMinMs},
                                {"maxMs", settings.debounceMaxMs},
                                {"leadingEdge", runtime.debounceLeadingEdge}}},
      {"progressDelayMs", runtime.progressDelayMs},
      {"llm",
       json::Object{{"provider", stringifyLLMProvider(settings.llmProvider)},
                    {"model", settings.llmModel},
                    {"baseUrl", settings.llmBaseUrl},
                    {"apiKeyEnv", settings.llmApiKeyEnv},
                    {"rounds", settings.llmRounds},
                    {"timeoutMs", settings.llmTimeoutMs},
                    {"maxRetries", settings.llmMaxRetries},
                    {"cacheSameSource", settings.llmCacheSameSource}}}};
}
