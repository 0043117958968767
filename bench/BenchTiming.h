//===- BenchTiming.h - wall and CPU time of one call ------------*- C++ -*-===//
//
// For the plain (non-Google-Benchmark) drivers, ServerBench and WhyBench:
// on a shared machine wall time also measures the other processes, so the
// calling thread's CPU time is taken too.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_BENCH_BENCHTIMING_H
#define WAVEASM_BENCH_BENCHTIMING_H

#include <chrono>
#include <time.h>
#include <vector>

namespace waveasm::bench {

/// CPU time of this thread, in milliseconds.
inline double threadCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/// Wall milliseconds of `fn`; its CPU milliseconds go to `cpu` (if any).
template <typename Fn> double timeMs(std::vector<double> *cpu, Fn &&fn) {
  double cpuStart = threadCpuMs();
  auto start = std::chrono::steady_clock::now();
  fn();
  double wall = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  if (cpu)
    cpu->push_back(threadCpuMs() - cpuStart);
  return wall;
}

} // namespace waveasm::bench

#endif // WAVEASM_BENCH_BENCHTIMING_H
