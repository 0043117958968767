//===- waveasm-opt.cpp - mlir-opt style driver for WaveASM ----------------===//
//
// Parses, verifies and prints WaveASM files, runs pass pipelines, and
// supports --split-input-file and --verify-diagnostics (MlirOptMain).
// `--emit-assembly` replaces the printed IR by AMDGCN assembly, as upstream's
// waveasm-translate does, so one command line runs on both tools.
//
//===----------------------------------------------------------------------===//

#include "ir/Dialect.h"
#include "pipeline/AssemblyEmitter.h"
#include "pipeline/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static llvm::cl::opt<bool> emitAssembly(
    "emit-assembly",
    llvm::cl::desc("Print AMDGCN assembly instead of IR (after the passes)"),
    llvm::cl::init(false));

namespace {

/// Runs last in the pipeline and renders the module into `sink` instead of
/// letting MlirOptMain print IR.
struct RenderOutputPass
    : public PassWrapper<RenderOutputPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RenderOutputPass)
  explicit RenderOutputPass(std::string &sink) : sink(sink) {}
  StringRef getArgument() const override { return "waveasm-render-output"; }

  void runOnOperation() override {
    llvm::raw_string_ostream os(sink);
    if (failed(waveasm::emitModuleAssembly(getOperation(), os)))
      signalPassFailure();
  }

  std::string &sink;
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  DialectRegistry registry;
  registry.insert<waveasm::WaveASMDialect>();
  // Generic passes the upstream pipelines use (SPEC.md 13).
  registerCanonicalizerPass();
  registerCSEPass();
  registerLoopInvariantCodeMotionPass();
  waveasm::registerWaveASMPipeline();

  // Diagnostics point at the source line; dumping the whole enclosing op in
  // generic form after each one buries them (the flag can turn it back on).
  std::vector<char *> args(argv, argv + argc);
  std::string quietOpPrinting = "--mlir-print-op-on-diagnostic=false";
  args.insert(args.begin() + 1, quietOpPrinting.data());
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      static_cast<int>(args.size()), args.data(), "WaveASM optimizer driver\n",
      registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 2;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 2;
  }

  if (!emitAssembly) {
    if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
      return 1;
    output->keep();
    return 0;
  }

  // Run the user's pipeline, then render; the IR printout is discarded.
  std::string rendered;
  MlirOptMainConfig userConfig = config;
  config.setPassPipelineSetupFn([userConfig, &rendered](PassManager &pm) {
    if (failed(userConfig.setupPassPipeline(pm)))
      return failure();
    pm.addPass(std::make_unique<RenderOutputPass>(rendered));
    return success();
  });
  llvm::raw_null_ostream discard;
  if (failed(MlirOptMain(discard, std::move(input), registry, config)))
    return 1;
  output->os() << rendered;
  output->keep();
  return 0;
}
