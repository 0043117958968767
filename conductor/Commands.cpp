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
  case PadLds:
    return "pad lds " + std::to_string(stride) + " " + std::to_string(pad);
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

/// The largest S or P of `pad lds S P`: 64 KiB, every target's LDS.
static constexpr int64_t kMaxPadBytes = 65536;

/// A positive decimal byte count up to kMaxPadBytes; nullopt otherwise.
static std::optional<int64_t> parseBytes(llvm::StringRef token) {
  unsigned value = 0;
  if (token.size() > 6 || !llvm::all_of(token, llvm::isDigit) ||
      token.getAsInteger(10, value) || value == 0 || value > kMaxPadBytes)
    return std::nullopt;
  return int64_t(value);
}

static llvm::SmallVector<llvm::StringRef, 6> splitTokens(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 6> tokens;
  stripMarkup(line).split(tokens, ' ', -1, /*KeepEmpty=*/false);
  return tokens;
}

std::optional<MoveCommand>
waveasm::conductor::parseCommand(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 6> tokens = splitTokens(line);
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
  if (tokens.size() == 4 && is(0, "pad") && is(1, "lds")) {
    // Whether the padding is legal is the Session's question (it knows the
    // program); here only two positive byte counts of the LDS's size.
    std::optional<int64_t> stride = parseBytes(tokens[2]),
                           pad = parseBytes(tokens[3]);
    if (!stride || !pad)
      return std::nullopt;
    return MoveCommand::padLds(*stride, *pad);
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

std::optional<std::pair<unsigned, std::string>>
waveasm::conductor::diagnoseCommand(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 6> tokens = splitTokens(line);
  if (tokens.empty())
    return std::nullopt;
  // Tokens are slices of `line`: their offset is their column.
  auto at = [&](unsigned i, std::string message) {
    llvm::StringRef token = i < tokens.size() ? tokens[i] : tokens.back();
    unsigned column = unsigned(token.data() - line.data());
    if (i >= tokens.size())
      column += token.size(); // a missing word: after the last one
    return std::make_pair(column, std::move(message));
  };
  llvm::StringRef word = tokens[0];
  if (word.equals_insensitive("pad")) {
    const char *grammar = "expected 'pad lds S P' (S the row stride, P the "
                          "pad, in bytes)";
    if (tokens.size() < 2 || !tokens[1].equals_insensitive("lds"))
      return at(1, grammar);
    for (unsigned i : {2u, 3u})
      if (i >= tokens.size() || !parseBytes(tokens[i]))
        return at(i, std::string(i == 2 ? "S" : "P") +
                         " must be a decimal byte count from 1 to " +
                         std::to_string(kMaxPadBytes) + "; " + grammar);
    return at(4, "unexpected words after 'pad lds S P'");
  }
  struct Grammar {
    const char *word, *text;
  } grammars[] = {
      {"move", "expected 'move Ix after Iy' or 'move Ix before Iy'"},
      {"swap", "expected 'swap Ix Iy'"},
      {"stage", "expected 'stage Ix N' (N a stage number)"},
      {"done", "expected 'done' alone"},
  };
  for (const Grammar &grammar : grammars)
    if (word.equals_insensitive(grammar.word))
      return at(0, grammar.text);
  return std::nullopt;
}

std::string CommandDiagnostic::str() const {
  return "reply:" + std::to_string(line) + ":" + std::to_string(column) + ": " +
         message;
}

ParsedReply waveasm::conductor::parseReply(llvm::StringRef text) {
  ParsedReply reply;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (auto [number, raw] : llvm::enumerate(lines)) {
    llvm::StringRef line = raw.trim();
    // Blank lines and fences ("```", "```text") are markup.
    if (line.empty() || line.starts_with("```") || line.starts_with("~~~"))
      continue;
    std::optional<MoveCommand> command = parseCommand(line);
    if (!command) {
      reply.ignoredLines.push_back(line.str());
      if (auto why = diagnoseCommand(raw))
        reply.diagnostics.push_back(
            {unsigned(number + 1), why->first + 1, std::move(why->second)});
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
