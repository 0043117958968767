//===- Worker.h - one background thread and its job queue -------*- C++ -*-===//
//
// The backend pipeline takes from milliseconds to a few hundred; it runs
// here so the event loop keeps answering requests meanwhile. A job runs on
// the worker thread and returns a continuation; the continuation runs on
// the loop thread (drainCompletions, called when `wake` has fired — the
// server wires `wake` to uv_async_send). So every result reaches documents
// and the wire from the loop thread only.
//
// Jobs posted with the same key replace each other while queued: only the
// newest pipeline run of a document is worth starting. A job whose token is
// cancelled before it starts is dropped.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_WORKER_H
#define WAVEASM_SERVER_RUNTIME_WORKER_H

#include "protocol/Dispatcher.h"

#include "llvm/ADT/FunctionExtras.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace waveasm::server {

class Worker {
public:
  using Continuation = llvm::unique_function<void()>;
  using Job = llvm::unique_function<Continuation()>;

  /// `wake` is called from the worker thread whenever continuations are
  /// ready; it must be thread-safe and cheap.
  explicit Worker(std::function<void()> wake);
  /// Stops after the running job (queued jobs are discarded) and joins.
  ~Worker();

  /// Queues `job`. A queued job with the same non-empty `key` is replaced
  /// (returns true then).
  bool post(std::string key, lsp::CancellationToken token, Job job);
  /// Runs the continuations of finished jobs, in completion order. Loop
  /// thread only.
  void drainCompletions();
  /// Jobs queued or running.
  size_t backlog() const;
  /// Waits (blocking) until nothing is queued or running; for tests and
  /// the headless check.
  void waitIdle();

private:
  struct Entry {
    std::string key;
    lsp::CancellationToken token;
    Job job;
  };
  void run();

  std::function<void()> wake;
  mutable std::mutex mutex;
  std::condition_variable wakeWorker, idle;
  std::deque<Entry> queue;
  std::deque<Continuation> completions;
  bool running = false;
  bool stopping = false;
  std::thread thread;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_WORKER_H
