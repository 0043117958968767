//===- Framing.h - Content-Length framing of JSON-RPC messages --*- C++ -*-===//
//
// The base protocol: every message is a header block ("Content-Length: N",
// optionally "Content-Type: ..."; lines end in CRLF, bare LF tolerated), an
// empty line, then N bytes of JSON. MessageReader is fed whatever each read
// returned (half a header, three messages, ...) and hands back complete
// bodies. It never throws a stream away: after a bad header or garbage it
// resynchronizes on the next "Content-Length", so one broken message costs
// one error, not the session.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PROTOCOL_FRAMING_H
#define WAVEASM_PROTOCOL_FRAMING_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>
#include <vector>

namespace waveasm::lsp {

struct FramingEvent {
  enum Kind {
    /// `text` is one message body (not yet parsed).
    Message,
    /// A header block with a missing or invalid Content-Length; `text`
    /// describes it. The client deserves an error response.
    BadHeader,
    /// Bytes outside any frame were dropped; `text` says how many. Only
    /// worth a log line: there is no request to answer.
    Skipped,
  };
  Kind kind;
  std::string text;
};

class MessageReader {
public:
  /// Bodies larger than this are refused as a bad header instead of
  /// buffered: a corrupt length must not make the server wait for (or
  /// allocate) gigabytes.
  static constexpr size_t kDefaultMaxContentLength = size_t(256) << 20;

  explicit MessageReader(size_t maxContentLength = kDefaultMaxContentLength)
      : maxContentLength(maxContentLength) {}

  /// Consumes `bytes`; appends the messages and errors they complete, in
  /// stream order.
  void feed(llvm::StringRef bytes, std::vector<FramingEvent> &events);

  /// True when bytes of an unfinished message are buffered.
  bool hasPartialMessage() const;

private:
  /// Handles what is buffered; returns false when more input is needed.
  bool step(std::vector<FramingEvent> &events);
  bool readHeader(std::vector<FramingEvent> &events);
  bool readBody(std::vector<FramingEvent> &events);
  void drop(size_t count, std::vector<FramingEvent> &events);
  void compact();

  size_t maxContentLength;
  std::string buffer;
  size_t pos = 0; // first unconsumed byte of `buffer`

  bool inBody = false;
  size_t bodyLength = 0;
  // Overrun detection inside a body (see readBody): how far it was
  // scanned and whether that point is inside a JSON string.
  size_t scanned = 0;
  bool inString = false;
  bool escaped = false;
};

/// "Content-Length: N\r\n\r\n" + body.
std::string frameMessage(llvm::StringRef body);

} // namespace waveasm::lsp

#endif // WAVEASM_PROTOCOL_FRAMING_H
