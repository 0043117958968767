//===- Worker.cpp - one background thread and its job queue
//----------------===//

#include "server/runtime/Worker.h"

using namespace waveasm::server;

Worker::Worker(std::function<void()> wake)
    : wake(std::move(wake)), thread([this] { run(); }) {}

Worker::~Worker() {
  std::deque<Entry> discarded;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    discarded.swap(queue);
  }
  wakeWorker.notify_all();
  thread.join();
}

bool Worker::post(std::string key, lsp::CancellationToken token, Job job) {
  Job replaced;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!key.empty()) {
      for (Entry &entry : queue) {
        if (entry.key == key) {
          // Destroyed outside the lock, on this (the loop) thread.
          replaced = std::move(entry.job);
          entry.token = std::move(token);
          entry.job = std::move(job);
          break;
        }
      }
    }
    if (!replaced)
      queue.push_back({std::move(key), std::move(token), std::move(job)});
  }
  wakeWorker.notify_one();
  return bool(replaced);
}

void Worker::drainCompletions() {
  std::deque<Continuation> ready;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ready.swap(completions);
  }
  for (Continuation &continuation : ready)
    if (continuation)
      continuation();
}

size_t Worker::backlog() const {
  std::lock_guard<std::mutex> lock(mutex);
  return queue.size() + (running ? 1 : 0);
}

void Worker::waitIdle() {
  std::unique_lock<std::mutex> lock(mutex);
  idle.wait(lock, [&] { return queue.empty() && !running; });
}

void Worker::run() {
  while (true) {
    Entry entry;
    {
      std::unique_lock<std::mutex> lock(mutex);
      wakeWorker.wait(lock, [&] { return stopping || !queue.empty(); });
      if (stopping)
        return;
      entry = std::move(queue.front());
      queue.pop_front();
      running = true;
    }
    Continuation continuation;
    if (entry.token.isCancelled()) {
      // Still hand the job to the loop thread: what it captured (replies,
      // snapshots) is released there, not here.
      continuation = [job = std::move(entry.job)]() mutable { job = nullptr; };
    } else {
      continuation = entry.job();
      entry.job = nullptr;
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      completions.push_back(std::move(continuation));
      running = false;
      if (queue.empty())
        idle.notify_all();
    }
    wake();
  }
}
