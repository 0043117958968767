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
#include "pipeline/CompileAndMeasure.h"
#include "pipeline/DeferredErase.h"
#include "pipeline/Passes.h"
#include "pipeline/VerifyPassResult.h"

#include "mlir/Debug/CLOptionsSetup.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/ParseUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "support/Version.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace mlir;

static llvm::cl::opt<bool> emitAssembly(
    "emit-assembly",
    llvm::cl::desc("Print AMDGCN assembly instead of IR (after the passes)"),
    llvm::cl::init(false));

static llvm::cl::opt<bool> printMetrics(
    "waveasm-metrics",
    llvm::cl::desc("Print the metrics JSON of compiling the IR (after the "
                   "passes) instead of IR"),
    llvm::cl::init(false));

static llvm::cl::list<std::string> targetModelOverrides(
    "target-model",
    llvm::cl::desc("Override a target-model number for --waveasm-metrics, "
                   "e.g. --target-model=latency.vmem_load=120 (repeatable)"),
    llvm::cl::value_desc("NAME=N"));

// Upstream's tool options beside the passes (SPEC.md 13): defaults for
// programs that do not say (the workgroup size drives the production
// pipeline's ticketed-wait rule; `--target` the hazard pass's fallback).
static llvm::cl::opt<std::string>
    toolTarget("target",
               llvm::cl::desc("Target of programs without one (gfx942, "
                              "gfx950, gfx1250)"),
               llvm::cl::init("gfx942"));
static llvm::cl::opt<int64_t> workgroupSizeX(
    "workgroup-size-x",
    llvm::cl::desc("Work items in x of programs without workgroup_size"),
    llvm::cl::init(256));
static llvm::cl::opt<int64_t> workgroupSizeY(
    "workgroup-size-y",
    llvm::cl::desc("Work items in y of programs without workgroup_size"),
    llvm::cl::init(1));
static llvm::cl::opt<int64_t> workgroupSizeZ(
    "workgroup-size-z",
    llvm::cl::desc("Work items in z of programs without workgroup_size"),
    llvm::cl::init(1));
static llvm::cl::opt<int64_t>
    subgroupSize("subgroup-size", llvm::cl::desc("Work items per wave (64)"),
                 llvm::cl::init(64));

namespace {

enum class RenderMode { Assembly, Metrics };

/// Runs last in the pipeline and renders the module into `sink` instead of
/// letting MlirOptMain print IR.
struct RenderOutputPass
    : public PassWrapper<RenderOutputPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RenderOutputPass)
  RenderOutputPass(RenderMode mode, std::string &sink, bool verifyFirst,
                   bool clearModule)
      : mode(mode), sink(sink), verifyFirst(verifyFirst),
        clearModule(clearModule) {}
  StringRef getArgument() const override { return "waveasm-render-output"; }

  void runOnOperation() override {
    // With `verifyFirst`, the driver turned MLIR's verification after
    // every pass off (see main) and the passes' result is verified here,
    // once, so a broken module still ends in a diagnostic and never reaches
    // the emitter: every program whole, not the module's symbol table,
    // which the parser verified and no pass changes (verifyPassResult).
    // Without passes nothing is verified, as before (a test may feed the
    // emitter unverified IR on purpose).
    if (verifyFirst && failed(waveasm::verifyPassResult(getOperation())))
      return signalPassFailure();
    llvm::raw_string_ostream os(sink);
    if (failed(render(os)))
      return signalPassFailure();
    // MlirOptMain prints the module after the pipeline into a discarded
    // stream; an empty module makes that free. (The direct path prints
    // nothing and frees nothing.)
    if (clearModule)
      getOperation().getBody()->clear();
  }

  LogicalResult render(llvm::raw_ostream &os) {
    if (mode == RenderMode::Assembly)
      return waveasm::emitModuleAssembly(getOperation(), os,
                                         /*lineMap=*/nullptr,
                                         /*assumeVerified=*/verifyFirst);
    waveasm::CompileOptions options;
    options.emitAssembly = false;
    options.targetOverrides.assign(targetModelOverrides.begin(),
                                   targetModelOverrides.end());
    FailureOr<waveasm::CompileResult> result =
        waveasm::compileAndMeasure(getOperation(), options);
    if (failed(result))
      return failure();
    std::vector<waveasm::ProgramMetrics> metrics;
    for (const waveasm::CompiledProgram &program : result->programs)
      metrics.push_back(program.metrics);
    waveasm::writeMetricsJSON(os, metrics);
    os << "\n";
    return success();
  }

  RenderMode mode;
  std::string &sink;
  bool verifyFirst;
  bool clearModule;
};

/// True when the command line asks only to parse, verify and print one
/// buffer: no passes, no splitting, no diagnostic checking, textual output.
bool isPlainParseAndPrint(const MlirOptMainConfig &config,
                          MLIRContext &context) {
  if (!config.inputSplitMarker().empty() || config.shouldVerifyDiagnostics() ||
      config.shouldEmitBytecode() || config.shouldDumpPassPipeline() ||
      config.shouldListPasses() || config.shouldShowDialects() ||
      config.shouldRunReproducer() || config.shouldVerifyRoundtrip() ||
      !config.getIrdlFile().empty() || !config.getReproducerFilename().empty())
    return false;
  PassManager pm(&context);
  return succeeded(config.setupPassPipeline(pm)) && pm.getPasses().empty();
}

/// Parses the one buffer of `sourceMgr` as parseSourceFileForTool does,
/// verifying the result with verifyParsedModule (same verdict and
/// diagnostics as the parser's own verification, without walking every op
/// for symbol users when none can exist).
OwningOpRef<Operation *>
parseAndVerify(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
               MLIRContext *context, const MlirOptMainConfig &config) {
  ParserConfig parserConfig(context, /*verifyAfterParse=*/false);
  OwningOpRef<Operation *> op = parseSourceFileForTool(
      sourceMgr, parserConfig, !config.shouldUseExplicitModule());
  if (!op || !config.shouldVerifyOnParsing())
    return op;
  auto module = dyn_cast<ModuleOp>(op.get());
  if (failed(module ? waveasm::verifyParsedModule(module) : verify(*op)))
    return nullptr;
  return op;
}

/// Parse + verify + print without MlirOptMain's per-run set-up (it scans the
/// whole buffer for `expected-*` annotations even when not verifying them),
/// without verifying twice, and without tearing the IR down at exit: this is
/// the hot path of whole-process use (CI scripts, editors calling the tool per
/// file).
int parseVerifyPrint(std::unique_ptr<llvm::MemoryBuffer> input,
                     llvm::ToolOutputFile &output, MLIRContext &context,
                     const MlirOptMainConfig &config) {
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
  OwningOpRef<Operation *> op = parseAndVerify(sourceMgr, &context, config);
  if (!op)
    return 1;
  // The parser just verified the IR; printing would verify it again.
  OpPrintingFlags flags;
  if (config.shouldVerifyOnParsing())
    flags.assumeVerified();
  op->print(output.os(), flags);
  output.os() << '\n';
  output.keep();
  // The process ends right after; freeing every op would only cost time.
  (void)op.release();
  return 0;
}

/// True when the render path may run without MlirOptMain: one buffer, no
/// diagnostic checking, no reproducer, action tracing, remarks or changed
/// diagnostic filtering (the options this driver does not reimplement).
bool isPlainRender(const MlirOptMainConfig &config) {
  const tracing::DebugConfig &debug = config.getDebugConfig();
  return config.inputSplitMarker().empty() &&
         !config.shouldVerifyDiagnostics() && !config.shouldEmitBytecode() &&
         !config.shouldDumpPassPipeline() && !config.shouldListPasses() &&
         !config.shouldShowDialects() && !config.shouldRunReproducer() &&
         !config.shouldVerifyRoundtrip() && config.getIrdlFile().empty() &&
         config.getReproducerFilename().empty() &&
         !config.shouldEmitRemarks() && config.shouldShowNotes() &&
         config.getDiagnosticVerbosityLevel() ==
             VerbosityLevel::ErrorsWarningsAndRemarks &&
         !debug.isDebuggerActionHookEnabled() &&
         debug.getLogActionsTo().empty() &&
         debug.getProfileActionsTo().empty() &&
         debug.getLogActionsLocFilters().empty();
}

/// Parse, run the pipeline (which ends with RenderOutputPass) and write what
/// it rendered: MlirOptMain's steps for one buffer (timing, pass-manager
/// options, threading off while parsing), without its per-buffer scan for
/// `expected-*` annotations (2% of a 20k-instruction run), without printing
/// the module afterwards and without tearing the IR down at exit (as
/// parseVerifyPrint).
int parseRunRender(std::unique_ptr<llvm::MemoryBuffer> input,
                   llvm::ToolOutputFile &output, DialectRegistry &registry,
                   const MlirOptMainConfig &config,
                   const std::string &rendered) {
  // Deliberately leaked with the IR it owns.
  auto *context = new MLIRContext(registry);
  context->allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, context);
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  bool wasThreadingEnabled = context->isMultithreadingEnabled();
  context->disableMultithreading();
  TimingScope parserTiming = timing.nest("Parser");
  OwningOpRef<Operation *> op = parseAndVerify(sourceMgr, context, config);
  parserTiming.stop();
  if (!op)
    return 1;
  context->enableMultithreading(wasThreadingEnabled);

  PassManager pm(context, op.get()->getName().getStringRef(),
                 PassManager::Nesting::Implicit);
  pm.enableVerifier(config.shouldVerifyPasses());
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  pm.enableTiming(timing);
  // As the IR itself, what a pass discards whole is not freed either.
  waveasm::setLeakDiscardedOps(true);
  if (failed(config.setupPassPipeline(pm)) || failed(pm.run(*op)))
    return 1;
  output.os() << rendered;
  output.keep();
  // The process ends right after; freeing every op would only cost time.
  (void)op.release();
  return 0;
}

} // namespace

/// Keeps freed memory in the process instead of returning it to the kernel.
/// The passes build and drop large per-program tables (liveness, intervals,
/// emitter buffers) one after the other; with glibc's defaults each large
/// block is mmapped and unmapped again (and the heap top trimmed), so every
/// pass pays page faults for fresh zeroed pages: about half of the faults of
/// a 20k-instruction pipeline run (8100 -> 4400). A one-shot tool gains
/// nothing from giving memory back before it exits.
static void keepFreedMemory() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  mallopt(M_TOP_PAD, 16 << 20);
#endif
}

int main(int argc, char **argv) {
  keepFreedMemory();
  llvm::InitLLVM initLLVM(argc, argv);
  waveasm::installVersionPrinter("waveasm-opt");
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
  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(static_cast<int>(args.size()), args.data(),
                                 "WaveASM optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (!waveasm::parseTargetKind(toolTarget)) {
    llvm::errs() << "error: unknown --target '" << toolTarget << "' (expected "
                 << waveasm::listTargetKinds() << ")\n";
    return 2;
  }
  if (workgroupSizeX < 1 || workgroupSizeY < 1 || workgroupSizeZ < 1 ||
      subgroupSize < 1) {
    llvm::errs() << "error: --workgroup-size-{x,y,z} and --subgroup-size "
                    "must be positive\n";
    return 2;
  }
  // Read when the pass pipeline is built, after this.
  waveasm::WaveASMToolDefaults &tool = waveasm::getWaveASMToolDefaults();
  tool.target = toolTarget;
  tool.workgroupSize[0] = workgroupSizeX;
  tool.workgroupSize[1] = workgroupSizeY;
  tool.workgroupSize[2] = workgroupSizeZ;
  tool.subgroupSize = subgroupSize;

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

  if (emitAssembly && printMetrics) {
    llvm::errs() << "error: --emit-assembly and --waveasm-metrics are "
                    "exclusive; choose one output\n";
    return 2;
  }
  if (!emitAssembly && !printMetrics) {
    // Deliberately leaked with the IR it owns (see parseVerifyPrint).
    auto *context = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    context->allowUnregisteredDialects(
        config.shouldAllowUnregisteredDialects());
    if (isPlainParseAndPrint(config, *context))
      return parseVerifyPrint(std::move(input), *output, *context, config);
    if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
      return 1;
    output->keep();
    return 0;
  }

  // Run the user's pipeline, then render assembly or metrics; the IR
  // printout is discarded.
  //
  // Verification after every pass is off here unless --verify-each is given:
  // at 20k instructions it was 29% of the production pipeline's
  // instructions (one full walk with dominance per pass, ~17 passes). It is
  // safe to leave out: the input is verified when it is parsed (a malformed
  // file still gets the verifier's diagnostic), each pass is tested with it
  // on (lit tests print IR, which keeps --verify-each's default), and
  // RenderOutputPass verifies the result once before emitting it.
  llvm::cl::Option *verifyEach =
      llvm::cl::getRegisteredOptions().lookup("verify-each");
  bool verifyOnce = verifyEach && verifyEach->getNumOccurrences() == 0 &&
                    config.shouldVerifyPasses();
  if (verifyOnce)
    config.verifyPasses(false);
  std::string rendered;
  MlirOptMainConfig userConfig = config;
  // MlirOptMain reports `expected-*` annotations of the file that were not
  // produced even without --verify-diagnostics; a file with any keeps that
  // behaviour (a substring search costs far less than its regex scan).
  bool direct =
      isPlainRender(config) && !input->getBuffer().contains("expected-");
  config.setPassPipelineSetupFn(
      [userConfig, &rendered, direct, verifyOnce](PassManager &pm) {
        if (failed(userConfig.setupPassPipeline(pm)))
          return failure();
        bool anyPass = !pm.getPasses().empty();
        pm.addPass(std::make_unique<RenderOutputPass>(
            emitAssembly ? RenderMode::Assembly : RenderMode::Metrics, rendered,
            /*verifyFirst=*/verifyOnce && anyPass, /*clearModule=*/!direct));
        return success();
      });
  if (direct)
    return parseRunRender(std::move(input), *output, registry, config,
                          rendered);
  llvm::raw_null_ostream discard;
  if (failed(MlirOptMain(discard, std::move(input), registry, config)))
    return 1;
  output->os() << rendered;
  output->keep();
  return 0;
}
