//===- Commands.h - the move command language ------------------*- C++ -*-===//
//
// The design's four commands, and issue 12's stage command, one per line:
//   move Ix after Iy | move Ix before Iy | swap Ix Iy | stage Ix N |
//   pad lds S P | done
// `stage Ix N` puts the op tagged Ix of a loop body in software-pipelining
// stage N (analysis/LoopStages.h; the Session validates and applies it).
// `pad lds S P` lays the program's LDS out in rows of S bytes padded by P
// (analysis/LdsPadding.h; validated and recorded by conductor/Padding.h,
// applied, like stages, to the clone that is compiled).
// The parser tolerates what chat models wrap around them (prose lines,
// markdown fences, list markers, backticks and bold, any letter case, a
// trailing period) and is strict about the grammar itself: a line that is
// not exactly one command is ignored and reported in `ignoredLines`; one
// that starts with a command's word but breaks its grammar also gets a
// diagnostic (line:column in the reply and what was expected), so a model
// learns what to write instead.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_CONDUCTOR_COMMANDS_H
#define WAVEASM_CONDUCTOR_COMMANDS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace waveasm {
namespace conductor {

struct MoveCommand {
  enum Kind { MoveAfter, MoveBefore, Swap, Stage, PadLds, Done } kind = Done;
  std::string a, b; // tags ("I5"), empty for Done and PadLds; b empty for
                    // Stage
  int stage = 0;    // Stage: the stage number N
  int64_t stride = 0, pad = 0; // PadLds: S and P

  /// The canonical text: "move I5 after I1", "swap I6 I9", "stage I5 1",
  /// "pad lds 256 16", "done".
  std::string text() const;
  bool operator==(const MoveCommand &other) const {
    return kind == other.kind && a == other.a && b == other.b &&
           stage == other.stage && stride == other.stride && pad == other.pad;
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
  static MoveCommand padLds(int64_t stride, int64_t pad) {
    MoveCommand command{PadLds, {}, {}};
    command.stride = stride;
    command.pad = pad;
    return command;
  }
  static MoveCommand done() { return {Done, {}, {}}; }
};

/// Why a line that starts like a command is not one: 1-based line and
/// column of the offending word in the reply.
struct CommandDiagnostic {
  unsigned line = 0, column = 0;
  std::string message;
  /// "reply:3:13: pad lds: P must be ...".
  std::string str() const;
};

struct ParsedReply {
  /// The commands in reply order, up to and excluding `done`.
  std::vector<MoveCommand> commands;
  /// The reply contained `done`.
  bool done = false;
  /// Non-empty lines that were neither a command nor markup (trimmed).
  std::vector<std::string> ignoredLines;
  /// The ignored lines that start with a command's word, and why.
  std::vector<CommandDiagnostic> diagnostics;
};

ParsedReply parseReply(llvm::StringRef text);
/// One line; nullopt unless it is exactly one command (after markup).
std::optional<MoveCommand> parseCommand(llvm::StringRef line);
/// For a line parseCommand refuses: when it starts with a command's word,
/// the 0-based column in `line` of the offending word and the expected
/// grammar; nullopt for prose.
std::optional<std::pair<unsigned, std::string>>
diagnoseCommand(llvm::StringRef line);

} // namespace conductor
} // namespace waveasm

#endif // WAVEASM_CONDUCTOR_COMMANDS_H
