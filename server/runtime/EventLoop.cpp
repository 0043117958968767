//===- EventLoop.cpp - the libuv loop the server runs on
//-------------------===//

#include "server/runtime/EventLoop.h"

#include "llvm/ADT/SmallVector.h"

#include <uv.h>

#include <cassert>
#include <cmath>

using namespace waveasm::server;

struct EventLoop::Timer {
  uv_timer_t handle;
  EventLoop *owner;
  TimerId id;
  llvm::unique_function<void()> callback;
};

EventLoop::EventLoop() : loop(new uv_loop_t), async(new uv_async_t) {
  uv_loop_init(loop);
  async->data = this;
  uv_async_init(loop, async, [](uv_async_t *handle) {
    auto *self = static_cast<EventLoop *>(handle->data);
    if (self->wakeHandler)
      self->wakeHandler();
  });
}

EventLoop::~EventLoop() {
  stop();
  // Let the close callbacks run, then release the loop.
  uv_run(loop, UV_RUN_NOWAIT);
  uv_loop_close(loop);
  delete loop;
}

void EventLoop::onTimer(Timer *timer) {
  EventLoop *self = timer->owner;
  self->timers.erase(timer->id);
  llvm::unique_function<void()> callback = std::move(timer->callback);
  uv_close(
      reinterpret_cast<uv_handle_t *>(&timer->handle),
      [](uv_handle_t *handle) { delete static_cast<Timer *>(handle->data); });
  callback();
}

EventLoop::TimerId EventLoop::runAfter(double ms,
                                       llvm::unique_function<void()> callback) {
  assert(!stopped && "timer on a stopped loop");
  auto *timer = new Timer{{}, this, nextTimer++, std::move(callback)};
  uv_timer_init(loop, &timer->handle);
  timer->handle.data = timer;
  uint64_t delay = ms <= 0 ? 0 : static_cast<uint64_t>(std::ceil(ms));
  uv_timer_start(
      &timer->handle,
      [](uv_timer_t *handle) { onTimer(static_cast<Timer *>(handle->data)); },
      delay, 0);
  timers[timer->id] = timer;
  return timer->id;
}

void EventLoop::cancel(TimerId id) {
  auto it = timers.find(id);
  if (it == timers.end())
    return;
  Timer *timer = it->second;
  timers.erase(it);
  uv_timer_stop(&timer->handle);
  timer->callback = nullptr;
  uv_close(
      reinterpret_cast<uv_handle_t *>(&timer->handle),
      [](uv_handle_t *handle) { delete static_cast<Timer *>(handle->data); });
}

void EventLoop::setWakeHandler(std::function<void()> handler) {
  wakeHandler = std::move(handler);
}

void EventLoop::wake() {
  std::lock_guard<std::mutex> lock(asyncMutex);
  if (!asyncClosed)
    uv_async_send(async);
}

void EventLoop::run() { uv_run(loop, UV_RUN_DEFAULT); }

void EventLoop::stop() {
  if (stopped)
    return;
  stopped = true;
  llvm::SmallVector<TimerId> pending;
  for (auto &entry : timers)
    pending.push_back(entry.first);
  for (TimerId id : pending)
    cancel(id);
  {
    std::lock_guard<std::mutex> lock(asyncMutex);
    asyncClosed = true;
  }
  uv_close(reinterpret_cast<uv_handle_t *>(async), [](uv_handle_t *handle) {
    delete reinterpret_cast<uv_async_t *>(handle);
  });
}
