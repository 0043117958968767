//===- Settings.cpp - names of the settings' enums ------------------------===//

#include "server/Settings.h"

#include "llvm/ADT/StringSwitch.h"

using namespace waveasm::server;

std::optional<LintSeverity>
waveasm::server::parseLintSeverity(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<LintSeverity>>(name.lower())
      .Case("off", LintSeverity::Off)
      .Case("none", LintSeverity::Off)
      .Case("hint", LintSeverity::Hint)
      .Case("info", LintSeverity::Info)
      .Case("information", LintSeverity::Info)
      .Case("warning", LintSeverity::Warning)
      .Case("error", LintSeverity::Error)
      .Default(std::nullopt);
}

llvm::StringRef waveasm::server::stringifyLintSeverity(LintSeverity severity) {
  switch (severity) {
  case LintSeverity::Off:
    return "off";
  case LintSeverity::Hint:
    return "hint";
  case LintSeverity::Info:
    return "info";
  case LintSeverity::Warning:
    return "warning";
  case LintSeverity::Error:
    return "error";
  }
  return "off";
}

llvm::StringRef waveasm::server::stringifyLintCode(LintCode code) {
  switch (code) {
  case LintCode::Stall:
    return "stall";
  case LintCode::Pressure:
    return "pressure";
  case LintCode::Hazard:
    return "hazard";
  case LintCode::Waitcnt:
    return "waitcnt";
  case LintCode::Optimization:
    return "optimization";
  case LintCode::LiveThrough:
    return "liveThrough";
  }
  return "";
}

std::optional<LintCode> waveasm::server::parseLintCode(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<LintCode>>(name)
      .Case("stall", LintCode::Stall)
      .Case("pressure", LintCode::Pressure)
      .Case("hazard", LintCode::Hazard)
      .Case("waitcnt", LintCode::Waitcnt)
      .Case("optimization", LintCode::Optimization)
      .Case("liveThrough", LintCode::LiveThrough)
      .Default(std::nullopt);
}

std::optional<ServerSettings::LLMProvider>
waveasm::server::parseLLMProvider(llvm::StringRef name) {
  using P = ServerSettings::LLMProvider;
  return llvm::StringSwitch<std::optional<P>>(name)
      .Case("none", P::None)
      .Case("", P::None)
      .Case("openai", P::OpenAI)
      .Case("anthropic", P::Anthropic)
      .Default(std::nullopt);
}

llvm::StringRef
waveasm::server::stringifyLLMProvider(ServerSettings::LLMProvider provider) {
  switch (provider) {
  case ServerSettings::LLMProvider::None:
    return "none";
  case ServerSettings::LLMProvider::OpenAI:
    return "openai";
  case ServerSettings::LLMProvider::Anthropic:
    return "anthropic";
  }
  return "none";
}
