//===- Commands.cpp - the move command language ---------------------------===//

#include "conductor/Commands.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace waveasm::conductor;

std::string MoveCommand::text() const {
  switch (kind) {
  case MoveAfter:
    return "move " + a + " after " + b;
  case MoveBefore:
    return "move " + a + " before " + b;
  case Swap:
    return "swap " + a + " " + b;
  case Stage:
    return "stage " + a + " " + std::to_string(stage);
  case Done:
    return "done";
  }
  return "done";
}

/// "I5" for "i5"/"I5"; nullopt unless the token is a tag.
static std::optional<std::string> normalizeTag(llvm::StringRef token) {
  if (token.size() < 2 || (token[0] != 'I' && token[0] != 'i') ||
      !llvm::all_of(token.drop_front(), llvm::isDigit))
    return std::nullopt;
  return "I" + token.drop_front().str();
}

/// Strips what chat models put around a command: list markers ("- ", "* ",
/// "1. ", "1) "), backticks, bold/italic markers, a trailing period or
/// semicolon.
static llvm::StringRef stripMarkup(llvm::StringRef line) {
  line = line.trim();
  if (line.consume_front("- ") || line.consume_front("* ") ||
      line.consume_front("+ "))
    line = line.ltrim();
  else {
    size_t digits = 0;
    while (digits < line.size() && llvm::isDigit(line[digits]))
      ++digits;
    if (digits && digits + 1 < line.size() &&
        (line[digits] == '.' || line[digits] == ')') && line[digits + 1] == ' ')
      line = line.drop_front(digits + 2).ltrim();
  }
  for (llvm::StringRef wrap : {"**", "__", "`", "*", "_"})
    if (line.size() > 2 * wrap.size() && line.starts_with(wrap) &&
        line.ends_with(wrap))
      line = line.drop_front(wrap.size()).drop_back(wrap.size()).trim();
  if (line.ends_with(".") || line.ends_with(";"))
    line = line.drop_back().rtrim();
  return line;
}

std::optional<MoveCommand>
waveasm::conductor::parseCommand(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 6> tokens;
  stripMarkup(line).split(tokens, ' ', -1, /*KeepEmpty=*/false);
  auto is = [&](unsigned i, llvm::StringRef word) {
    return tokens[i].equals_insensitive(word);
  };
  if (tokens.size() == 1 && is(0, "done"))
    return MoveCommand::done();
  if (tokens.size() == 3 && is(0, "swap")) {
    auto a = normalizeTag(tokens[1]), b = normalizeTag(tokens[2]);
    if (a && b)
      return MoveCommand::swap(*a, *b);
    return std::nullopt;
  }
  if (tokens.size() == 3 && is(0, "stage")) {
    // The number is checked for range by the Session (it knows the loop);
    // here only that it is a small non-negative decimal.
    auto a = normalizeTag(tokens[1]);
    unsigned stage = 0;
    if (!a || tokens[2].size() > 3 || tokens[2].getAsInteger(10, stage))
      return std::nullopt;
    return MoveCommand::setStage(*a, int(stage));
  }
  if (tokens.size() == 4 && is(0, "move") &&
      (is(2, "after") || is(2, "before"))) {
    auto a = normalizeTag(tokens[1]), b = normalizeTag(tokens[3]);
    if (!a || !b)
      return std::nullopt;
    return is(2, "after") ? MoveCommand::moveAfter(*a, *b)
                          : MoveCommand::moveBefore(*a, *b);
  }
  return std::nullopt;
}

ParsedReply waveasm::conductor::parseReply(llvm::StringRef text) {
  ParsedReply reply;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef raw : lines) {
    llvm::StringRef line = raw.trim();
    // Blank lines and fences ("```", "```text") are markup.
    if (line.empty() || line.starts_with("```") || line.starts_with("~~~"))
      continue;
    std::optional<MoveCommand> command = parseCommand(line);
    if (!command) {
      reply.ignoredLines.push_back(line.str());
      continue;
    }
    if (reply.done)
      continue; // nothing after `done` counts
    if (command->kind == MoveCommand::Done)
      reply.done = true;
    else
      reply.commands.push_back(std::move(*command));
  }
  return reply;
}
