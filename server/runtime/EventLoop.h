//===- EventLoop.h - the libuv loop the server runs on ----------*- C++ -*-===//
//
// The main thread runs one libuv loop: stdin readability, timers
// (debounce, progress) and the worker's completions (uv_async) all arrive
// here, so the server's state needs no locks. This wraps the few libuv
// handles the server uses behind callbacks.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_SERVER_RUNTIME_EVENTLOOP_H
#define WAVEASM_SERVER_RUNTIME_EVENTLOOP_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FunctionExtras.h"

#include <cstdint>
#include <functional>
#include <mutex>

struct uv_loop_s;
struct uv_async_s;

namespace waveasm::server {

class EventLoop {
public:
  using TimerId = uint64_t;

  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop &) = delete;
  EventLoop &operator=(const EventLoop &) = delete;

  uv_loop_s *get() { return loop; }

  /// Runs `callback` once, `ms` from now. Loop thread only.
  TimerId runAfter(double ms, llvm::unique_function<void()> callback);
  /// Cancels a timer that has not fired (no-op otherwise).
  void cancel(TimerId id);

  /// Calls `handler` on the loop thread after any number of wake() calls
  /// (coalesced, as uv_async is).
  void setWakeHandler(std::function<void()> handler);
  /// Thread-safe.
  void wake();

  /// Runs until stop() (or until nothing is left to wait for).
  void run();
  /// Closes the loop's own handles (timers, async); run() returns once the
  /// transport has closed its handles too.
  void stop();

private:
  struct Timer;
  static void onTimer(Timer *timer);

  uv_loop_s *loop;
  uv_async_s *async;
  /// wake() may race with stop() from the worker thread.
  std::mutex asyncMutex;
  bool asyncClosed = false;
  std::function<void()> wakeHandler;
  llvm::DenseMap<TimerId, Timer *> timers;
  TimerId nextTimer = 1;
  bool stopped = false;
};

} // namespace waveasm::server

#endif // WAVEASM_SERVER_RUNTIME_EVENTLOOP_H
