//===- StdioTransport.h - non-blocking stdin/stdout on libuv ----*- C++ -*-===//
//
// Reads stdin without blocking the loop (a pipe or a tty as a libuv
// stream; a regular file through uv_fs_read) and writes stdout through one
// ordered queue, so messages from request handlers, timers and worker
// completions never interleave. Bytes only: framing is protocol/'s job.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_STDIOTRANSPORT_H
#define WAVEASM_SERVER_RUNTIME_STDIOTRANSPORT_H

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>

struct uv_loop_s;

namespace waveasm::server {

class StdioTransport {
public:
  using OnData = std::function<void(llvm::StringRef bytes)>;
  using OnEnd = std::function<void()>;

  StdioTransport(uv_loop_s *loop, int inFd = 0, int outFd = 1);
  ~StdioTransport();

  /// Starts reading: `onData` per chunk read, `onEnd` once at end of input
  /// or on a read error.
  void start(OnData onData, OnEnd onEnd);
  /// Queues `bytes` for writing, after everything queued before.
  void write(std::string bytes);
  /// Calls `done` when every queued write has completed (or failed).
  void flush(std::function<void()> done);
  /// Stops reading and closes the handles (after pending writes).
  void close();
  /// True once a write failed (the client is gone).
  bool hasWriteError() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_STDIOTRANSPORT_H
