//===- BenchTiming.h - wall and CPU time of one call ------------*- C++ -*-===//
//
// For the plain (non-Google-Benchmark) drivers, ServerBench and WhyBench:
// on a shared machine wall time also measures the other processes, so the
// calling thread's CPU time is taken too.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_BENCH_BENCHTIMING_H
#define WAVEASM_BENCH_BENCHTIMING_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <time.h>
#include <vector>

namespace waveasm::bench {

/// CPU time of this thread, in milliseconds.
inline double threadCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/// The `p` quantile (0..1) of `samples`.
inline double percentile(std::vector<double> samples, double p) {
  std::sort(samples.begin(), samples.end());
  return samples[std::min(samples.size() - 1, size_t(p * samples.size()))];
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

/// The drivers' command line, `TOOL FILE [K]`: the file's text and K runs
/// (default `defaultRuns`); nullopt after printing why.
struct DriverArgs {
  std::string text;
  int runs;
};
inline std::optional<DriverArgs>
parseDriverArgs(int argc, char **argv, const char *tool, int defaultRuns) {
  if (argc < 2) {
    llvm::errs() << "usage: " << tool << " FILE [K]\n";
    return std::nullopt;
  }
  int runs = argc > 2 ? std::max(1, atoi(argv[2])) : defaultRuns;
  auto buffer = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buffer) {
    llvm::errs() << "cannot read " << argv[1] << "\n";
    return std::nullopt;
  }
  return DriverArgs{(*buffer)->getBuffer().str(), runs};
}

/// WAVEASM_BENCH_THREADED=1/0 picks a threaded context (as the language
/// server has: its main thread and worker share one, whose uniquers lock)
/// or not; unset, `threadedByDefault`.
inline mlir::MLIRContext::Threading benchThreading(bool threadedByDefault) {
  const char *threaded = getenv("WAVEASM_BENCH_THREADED");
  bool on = threaded && *threaded ? *threaded == '1' : threadedByDefault;
  return on ? mlir::MLIRContext::Threading::ENABLED
            : mlir::MLIRContext::Threading::DISABLED;
}

} // namespace waveasm::bench

#endif // WAVEASM_BENCH_BENCHTIMING_H
