//===- WhyBench.cpp - pipeline snapshots and live values: costs -----------===//
//
// On one WaveASM file (median of K runs, milliseconds):
//
//   snapshots  computePipelineSnapshots (waveasm/pipelineSnapshots): the
//              full pipeline on a clone with the program printed and
//              measured after every pass that changed it, and the answer
//              the server sends (selectPipelineSnapshots, default text
//              budget) serialized (its size is reported)
//   liveness   the first waveasm/liveAt of a document version: the liveness
//              of its programs, built once per version
//   liveAt     computeLiveAt at 200 ops spread over the file (p50 and p90
//              of single requests, liveness already built)
//
// Usage: waveasm-bench-why FILE [K=5]. Budgets: snapshots <= 30 ms for a
// 300-op program and <= 1 s with an answer under 20 MB for 20,000
// instructions; liveAt p50 <= 2 ms for 10,000 instructions. The context
// runs with threads, as the server's does (WAVEASM_BENCH_THREADED=0: not).
//
//===----------------------------------------------------------------------===//

#include "server/Features.h"

#include "BenchTiming.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

using namespace waveasm;
using namespace waveasm::server;

using bench::percentile;

int main(int argc, char **argv) {
  std::optional<bench::DriverArgs> args =
      bench::parseDriverArgs(argc, argv, "waveasm-bench-why", 5);
  if (!args)
    return 2;
  std::string text = std::move(args->text);
  int runs = args->runs;
  mlir::MLIRContext ctx(bench::benchThreading(/*threadedByDefault=*/true));
  ServerSettings settings;

  std::vector<double> snapshots, livenessBuild, liveAt;
  std::vector<double> snapshotsCpu, livenessCpu, liveAtCpu;
  size_t bytes = 0, numSnapshots = 0, numChanged = 0, numValues = 0;
  bool onDemand = false;
  size_t textBytes = 0;
  for (int i = 0; i < runs; ++i) {
    ParsedDocument doc(ctx, "file:///bench.mlir", text, i, settings);
    if (!doc.isVerified()) {
      llvm::errs() << "error: the file does not verify\n";
      return 1;
    }
    (void)doc.getOps();
    (void)doc.getOccurrences();
    // The server's background compile has run before any of these
    // requests (and set up the allocator for repeated compiles, see
    // CompileAndMeasure.cpp).
    if (i == 0)
      CompiledDocument compiled(doc, settings);
    snapshots.push_back(bench::timeMs(&snapshotsCpu, [&] {
      DocumentSnapshots full = computePipelineSnapshots(doc, settings);
      // What the server sends: texts only under the default budget.
      llvm::json::Value answer = *selectPipelineSnapshots(
          full, std::nullopt, kDefaultSnapshotTextBytes);
      std::string out;
      llvm::raw_string_ostream os(out);
      os << answer;
      bytes = out.size();
      onDemand = *answer.getAsObject()->getBoolean("textOnDemand");
      textBytes = 0;
      for (const PipelineSnapshot &snapshot : full.snapshots.snapshots)
        textBytes += snapshot.text.size();
      const llvm::json::Array *list =
          answer.getAsObject()->getArray("snapshots");
      numSnapshots = list->size();
      numChanged = llvm::count_if(*list, [](const llvm::json::Value &s) {
        return *s.getAsObject()->getBoolean("changed");
      });
    }));
    llvm::ArrayRef<OpEntry> ops = doc.getOps();
    livenessBuild.push_back(
        bench::timeMs(&livenessCpu, [&] { (void)doc.getLiveness(0); }));
    for (size_t k = 1; k <= 200; ++k) {
      const OpEntry &op = ops[k * (ops.size() - 1) / 201];
      liveAt.push_back(bench::timeMs(&liveAtCpu, [&] {
        llvm::json::Value answer = computeLiveAt(doc, op.name.start);
        numValues = answer.getAsObject()->getArray("values")->size();
      }));
    }
  }
  llvm::outs() << "file: " << argv[1] << " (" << runs << " runs)\n";
  llvm::outs() << llvm::format(
      "snapshots %8.2f ms median (CPU %.2f; the pass manager may use a "
      "second thread), %zu snapshots (%zu changed), answer %.2f MB%s, all "
      "texts %.2f MB\n",
      percentile(snapshots, 0.5), percentile(snapshotsCpu, 0.5), numSnapshots,
      numChanged, bytes / 1e6, onDemand ? " (texts on demand)" : "",
      textBytes / 1e6);
  llvm::outs() << llvm::format(
      "liveness  %8.2f ms median (CPU %.2f; once per version)\n",
      percentile(livenessBuild, 0.5), percentile(livenessCpu, 0.5));
  llvm::outs() << llvm::format(
      "liveAt    %8.3f ms p50, %.3f ms p90 (CPU p50 %.3f, p90 %.3f; %zu "
      "requests; last: %zu values)\n",
      percentile(liveAt, 0.5), percentile(liveAt, 0.9),
      percentile(liveAtCpu, 0.5), percentile(liveAtCpu, 0.9), liveAt.size(),
      numValues);
  return 0;
}
