//===- Framing.cpp - Content-Length framing of JSON-RPC messages ----------===//

#include "protocol/Framing.h"

#include "llvm/ADT/StringExtras.h"

using namespace waveasm::lsp;
using llvm::StringRef;

namespace {

constexpr StringRef kContentLength = "content-length";
/// A header block longer than this is garbage, not a header.
constexpr size_t kMaxHeaderBytes = 16 * 1024;

/// Case-insensitive search for "content-length" in `text` from `from`.
size_t findContentLength(StringRef text, size_t from) {
  return text.find_insensitive(kContentLength, from);
}

/// Whether `line` reads as a header ("Name: value", name a token).
bool isHeaderLine(StringRef line) {
  size_t colon = line.find(':');
  if (colon == 0 || colon == StringRef::npos)
    return false;
  return llvm::all_of(line.take_front(colon), [](char c) {
    return llvm::isAlnum(c) || c == '-' || c == '_';
  });
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

} // namespace

void MessageReader::feed(StringRef bytes, std::vector<FramingEvent> &events) {
  buffer.append(bytes.data(), bytes.size());
  while (step(events)) {
  }
  compact();
}

bool MessageReader::hasPartialMessage() const {
  if (inBody)
    return true;
  for (size_t i = pos; i < buffer.size(); ++i)
    if (!isBlank(buffer[i]))
      return true;
  return false;
}

void MessageReader::compact() {
  // Erase consumed bytes only once they dominate the buffer, so a large
  // message arriving in small reads is not copied once per read.
  if (pos > 0 && (pos == buffer.size() || pos > buffer.size() / 2)) {
    buffer.erase(0, pos);
    pos = 0;
  }
}

void MessageReader::drop(size_t count, std::vector<FramingEvent> &events) {
  if (count == 0)
    return;
  events.push_back({FramingEvent::Skipped, "skipped " + std::to_string(count) +
                                               " bytes outside any message"});
  pos += count;
}

bool MessageReader::step(std::vector<FramingEvent> &events) {
  return inBody ? readBody(events) : readHeader(events);
}

bool MessageReader::readHeader(std::vector<FramingEvent> &events) {
  StringRef data(buffer);
  // Blank lines between messages are harmless.
  while (pos < data.size() && isBlank(data[pos]))
    ++pos;
  if (pos == data.size())
    return false;

  size_t start = findContentLength(data, pos);
  if (start == StringRef::npos) {
    // Keep a tail that may be the beginning of a split "Content-Length";
    // everything before it can never become part of a header. Other
    // headers (Content-Type) are ignored anyway, so dropping them is fine,
    // and only non-header bytes are reported.
    size_t keep = std::min(data.size() - pos, kContentLength.size() - 1);
    size_t dropEnd = data.size() - keep;
    StringRef dropped = data.slice(pos, dropEnd);
    bool onlyHeaders = true;
    for (StringRef rest = dropped; !rest.empty();) {
      auto [line, tail] = rest.split('\n');
      line = line.trim();
      // An unterminated last line may still be growing into a header.
      if (tail.empty() && !rest.ends_with("\n"))
        break;
      if (!line.empty() && !isHeaderLine(line))
        onlyHeaders = false;
      rest = tail;
    }
    if (!onlyHeaders || dropped.size() > kMaxHeaderBytes) {
      drop(dropEnd - pos, events);
      return true;
    }
    return false;
  }

  // Bytes before the header: other header lines are fine, anything else
  // is garbage left by a broken message.
  StringRef before = data.slice(pos, start);
  bool garbage = !before.empty() && !before.ends_with("\n");
  for (StringRef rest = before; !garbage && !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    line = line.trim();
    if (!line.empty() && !isHeaderLine(line))
      garbage = true;
    rest = tail;
  }
  if (garbage)
    drop(start - pos, events);
  else
    pos = start;

  // The header block ends at the first empty line.
  size_t crlf = data.find("\n\r\n", pos);
  size_t lf = data.find("\n\n", pos);
  size_t end = std::min(crlf, lf);
  if (end == StringRef::npos) {
    if (data.size() - pos > kMaxHeaderBytes) {
      events.push_back({FramingEvent::BadHeader, "unterminated header block"});
      pos += kContentLength.size();
      return true;
    }
    return false;
  }
  size_t bodyStart = end + (end == crlf ? 3 : 2);
  StringRef block = data.slice(pos, end + 1);
  pos = bodyStart;

  // The first line is "Content-Length: value"; later lines (Content-Type)
  // carry nothing the server uses.
  StringRef line = block.split('\n').first.trim();
  StringRef value = line.drop_front(kContentLength.size()).ltrim(" \t");
  if (!value.consume_front(":")) {
    events.push_back(
        {FramingEvent::BadHeader, ("malformed header '" + line + "'").str()});
    return true;
  }
  value = value.trim();
  unsigned long long length = 0;
  if (value.empty() || value.size() > 18 ||
      !llvm::all_of(value, llvm::isDigit) || value.getAsInteger(10, length) ||
      length > maxContentLength) {
    events.push_back({FramingEvent::BadHeader,
                      ("invalid Content-Length '" + value + "'").str()});
    return true;
  }
  inBody = true;
  bodyLength = static_cast<size_t>(length);
  scanned = 0;
  inString = escaped = false;
  return true;
}

bool MessageReader::readBody(std::vector<FramingEvent> &events) {
  StringRef data(buffer);
  size_t available = std::min(data.size() - pos, bodyLength);

  // A Content-Length larger than the body would swallow the next message
  // and wait for bytes that never come. Valid JSON cannot contain
  // "Content-Length" outside a string, so seeing it there means the length
  // overran: the body ends where the next header starts.
  for (; scanned < available; ++scanned) {
    char c = data[pos + scanned];
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
      continue;
    }
    if (c != 'C' && c != 'c')
      continue;
    if (data.size() - (pos + scanned) < kContentLength.size())
      break; // decide once the word is complete
    if (data.substr(pos + scanned, kContentLength.size())
            .equals_insensitive(kContentLength)) {
      events.push_back(
          {FramingEvent::Message, data.substr(pos, scanned).str()});
      events.push_back({FramingEvent::Skipped,
                        "Content-Length overran the message; resynchronized "
                        "on the next header"});
      pos += scanned;
      inBody = false;
      return true;
    }
  }

  if (available < bodyLength)
    return false;
  events.push_back({FramingEvent::Message, data.substr(pos, bodyLength).str()});
  pos += bodyLength;
  inBody = false;
  return true;
}

std::string waveasm::lsp::frameMessage(StringRef body) {
  std::string out =
      "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body.data(), body.size());
  return out;
}
