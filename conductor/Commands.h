//===- Commands.h - the move command language ------------------*- C++ -*-===//
//
// The design's four commands, and issue 12's stage command, one per line:
//   move Ix after Iy | move Ix before Iy | swap Ix Iy | stage Ix N | done
// `stage Ix N` puts the op tagged Ix of a loop body in software-pipelining
// stage N (analysis/LoopStages.h; the Session validates and applies it).
// The parser tolerates what chat models wrap around them (prose lines,
// markdown fences, list markers, backticks and bold, any letter case, a
// trailing period) and is strict about the grammar itself: a line that is
// not exactly one command is ignored and reported in `ignoredLines`.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_COMMANDS_H
#define WAVEASM_CONDUCTOR_COMMANDS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

struct MoveCommand {
  enum Kind { MoveAfter, MoveBefore, Swap, Stage, Done } kind = Done;
  std::string a, b; // tags ("I5"), empty for Done; b empty for Stage
  int stage = 0;    // Stage: the stage number N

  /// The canonical text: "move I5 after I1", "swap I6 I9", "stage I5 1",
  /// "done".
  std::string text() const;
  bool operator==(const MoveCommand &other) const {
    return kind == other.kind && a == other.a && b == other.b &&
           stage == other.stage;
  }

  static MoveCommand moveAfter(std::string a, std::string b) {
    return {MoveAfter, std::move(a), std::move(b)};
  }
  static MoveCommand moveBefore(std::string a, std::string b) {
    return {MoveBefore, std::move(a), std::move(b)};
  }
  static MoveCommand swap(std::string a, std::string b) {
    return {Swap, std::move(a), std::move(b)};
  }
  static MoveCommand setStage(std::string a, int stage) {
    return {Stage, std::move(a), {}, stage};
  }
  static MoveCommand done() { return {Done, {}, {}}; }
};

struct ParsedReply {
  /// The commands in reply order, up to and excluding `done`.
  std::vector<MoveCommand> commands;
  /// The reply contained `done`.
  bool done = false;
  /// Non-empty lines that were neither a command nor markup (trimmed).
  std::vector<std::string> ignoredLines;
};

ParsedReply parseReply(llvm::StringRef text);
/// One line; nullopt unless it is exactly one command (after markup).
std::optional<MoveCommand> parseCommand(llvm::StringRef line);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_COMMANDS_H
