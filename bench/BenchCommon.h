//===- BenchCommon.h - what the in-process benchmarks share -----*- C++ -*-===//
//
// Command-line defaults and input loading for the Google Benchmark drivers
// (CompileAndMeasureBench, ConductorRoundBench).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_BENCH_BENCHCOMMON_H
#define WAVEASM_BENCH_BENCHCOMMON_H

#include "ir/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace waveasm::bench {

/// Whether an argument starts with `prefix`.
inline bool hasFlag(int argc, char **argv, const char *prefix) {
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0)
      return true;
  return false;
}

/// argv (null-terminated) with the defaults the user can override: medians
/// over 10 repetitions, aggregates only.
inline std::vector<char *> withDefaultFlags(int argc, char **argv) {
  static std::string repetitions = "--benchmark_repetitions=10";
  static std::string aggregates = "--benchmark_display_aggregates_only=true";
  std::vector<char *> args(argv, argv + argc);
  if (!hasFlag(argc, argv, "--benchmark_repetitions"))
    args.insert(args.begin() + 1, repetitions.data());
  if (!hasFlag(argc, argv, "--benchmark_report_aggregates_only") &&
      !hasFlag(argc, argv, "--benchmark_display_aggregates_only"))
    args.insert(args.begin() + 1, aggregates.data());
  args.push_back(nullptr);
  return args;
}

/// The input file once benchmark::Initialize has taken its flags: the
/// positional argument, else $WAVEASM_BENCH_INPUT; empty, after the usage
/// line, when there is neither.
inline std::string inputPath(int count, char **args, const char *tool) {
  std::string path;
  if (count > 1)
    path = args[1];
  else if (const char *env = std::getenv("WAVEASM_BENCH_INPUT"))
    path = env;
  if (path.empty())
    llvm::errs() << "usage: " << tool
                 << " [benchmark flags] FILE (or set WAVEASM_BENCH_INPUT)\n";
  return path;
}

/// Parses `path` ("-": stdin) with the WaveASM dialect loaded; errors go to
/// stderr with their source lines.
inline mlir::OwningOpRef<mlir::ModuleOp>
parseInputFile(mlir::MLIRContext &context, const std::string &path) {
  context.loadDialect<WaveASMDialect>();
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    llvm::errs() << "error: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
}

} // namespace waveasm::bench

#endif // WAVEASM_BENCH_BENCHCOMMON_H
