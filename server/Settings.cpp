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
  case LintCode::SCC:
    return "scc";
  case LintCode::Unused:
    return "unused";
  case LintCode::RedundantLoad:
    return "redundantLoad";
  case LintCode::BankConflict:
    return "bankConflict";
  case LintCode::LoadBehindStore:
    return "loadBehindStore";
  }
  return "";
}

LintDescription waveasm::server::describeLint(LintCode code) {
  switch (code) {
  case LintCode::Stall:
    return {"OperandStall", "An instruction waits for a register operand.",
            "The instruction issues later than its predecessor allows because "
            "an operand is not ready yet. Move independent work between the "
            "producer and this instruction, or start the producer earlier "
            "(the Conductor's code actions propose such moves)."};
  case LintCode::Pressure:
    return {"OccupancyBreakpoint",
            "Register pressure crosses an occupancy breakpoint.",
            "The peak register count is just above a threshold that costs a "
            "wave per SIMD. Shorten the live ranges around the peak (the "
            "hover lists what is live there) to gain the wave back."};
  case LintCode::Hazard:
    return {"HazardNops", "The pipeline inserted nops to resolve a hazard.",
            "Hazard mitigation inserted s_nop before this instruction. "
            "Independent instructions placed between the dependent pair would "
            "hide the hazard instead of idling."};
  case LintCode::Waitcnt:
    return {"LongMemoryWait", "An inserted s_waitcnt waits long for memory.",
            "The wait blocks until a memory operation completes. Issue the "
            "load earlier or put independent work before the first use of "
            "its result."};
  case LintCode::Optimization:
    return {"LoopOptimizable",
            "The loop optimizations remove work from this loop.",
            "The full pipeline rewrites this loop (address promotion, "
            "strength reduction, repacking); the code action \"Apply loop "
            "optimizations\" shows the result in the source."};
  case LintCode::LiveThrough:
    return {"LiveThroughLoop",
            "A value is live across most of a loop without being used in it.",
            "The value is defined before the loop and used only after it, so "
            "it holds registers through every iteration. Define it after the "
            "loop, or recompute it there, to free those registers for the "
            "loop body."};
  case LintCode::SCC:
    return {"SCCClobbered",
            "An SCC value is overwritten before its reader reads it.",
            "Another SCC writer runs between the producer of the SCC value "
            "and its reader, so the pipeline saves SCC into an SGPR after the "
            "producer (s_cselect_b32) and re-creates it before the reader "
            "(s_cmp_ne_u32). Put the producer next to its reader (the quick "
            "fix does when the move is legal)."};
  case LintCode::Unused:
    return {"UnusedResult",
            "An instruction computes results that nothing reads.",
            "The instruction has no effect besides its results and none of "
            "them is used: it only costs an issue slot and registers. Remove "
            "it (the quick fix does), or use the result."};
  case LintCode::RedundantLoad:
    return {
        "RepeatedLoadOfSameBytes", // SARIF1001: name must differ from the id
        "A load reads what an identical earlier load already read.",
        "The same load (same instruction, address operands and "
        "attributes) ran earlier in the block and nothing in between may "
        "change those bytes or the active lanes (no aliasing store, no "
        "barrier, no EXEC write). Use the earlier result; "
        "waveasm-opt --waveasm-redundant-load-elim does."};
  case LintCode::BankConflict:
    return {"LdsBankConflict",
            "An LDS access makes several lanes wait for the same bank.",
            "The lanes' addresses put several distinct dwords in one LDS "
            "bank, so the access takes more LDS clocks than a conflict-free "
            "one and delays the next LDS access. Pad the row stride of the "
            "LDS layout (the message names the constant and a padding that "
            "helps) or swizzle it, in every access to that region."};
  case LintCode::LoadBehindStore:
    return {"LoadOrderedAfterStore",
            "A load of an outer loop stays behind a store only because "
            "nothing declares their memory apart.",
            "The load (the next tile's) and the store (the previous tile's "
            "results) go through different pointers, but nothing says they "
            "never touch the same bytes, so every schedule, the outer-loop "
            "rotation of waveasm-pipeline-loops included, issues the load "
            "after the store and waits out its latency. If the memory never "
            "overlaps, declare the kernel arguments in noalias_args (the "
            "message names them; precolored descriptors must first be built "
            "from the kernel arguments)."};
  }
  return {"", "", ""};
}

std::optional<LintCode> waveasm::server::parseLintCode(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<LintCode>>(name)
      .Case("stall", LintCode::Stall)
      .Case("pressure", LintCode::Pressure)
      .Case("hazard", LintCode::Hazard)
      .Case("waitcnt", LintCode::Waitcnt)
      .Case("optimization", LintCode::Optimization)
      .Case("liveThrough", LintCode::LiveThrough)
      .Case("scc", LintCode::SCC)
      .Case("unused", LintCode::Unused)
      .Case("redundantLoad", LintCode::RedundantLoad)
      .Case("bankConflict", LintCode::BankConflict)
      .Case("loadBehindStore", LintCode::LoadBehindStore)
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
