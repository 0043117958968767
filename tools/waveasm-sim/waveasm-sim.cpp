//===- waveasm-sim.cpp - run WaveASM programs, compare two by execution ---===//
//
//   waveasm-sim FILE                  run each program, print its digest
//   waveasm-sim --compare A B         same memory on every seed? (exit 0
//                                     equal, 1 different, 2 not checkable)
//   waveasm-sim --against-pipeline A  A as written vs A through the full
//                                     pipeline (allocated, waits, hazards)
//   waveasm-sim --list-ops            the dialect's ops by family (unit),
//                                     simulated and not, with counts
//
// `// waveasm-sim: --byte-range=K:LO-HI` lines in a file set its inputs;
// `--input=K:FILE` starts buffer K with a file's bytes; `--diff=N` lists
// every differing range of a compare, not only the first.
//
//===----------------------------------------------------------------------===//

#include "ir/Dialect.h"
#include "pipeline/CompileAndMeasure.h"
#include "sim/Compare.h"
#include "sim/CompareBuffers.h"
#include "sim/Directives.h"
#include "sim/OpCoverage.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "support/Version.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace waveasm;

namespace cl = llvm::cl;

static cl::list<std::string> inputs(cl::Positional, cl::desc("<file.mlir>..."),
                                    cl::ZeroOrMore);
static cl::opt<bool> listOps(
    "list-ops",
    cl::desc("list the dialect's ops by family (unit), simulated and not"));
static cl::opt<bool>
    compareMode("compare",
                cl::desc("compare the programs of two files by execution"));
static cl::opt<bool> againstPipeline(
    "against-pipeline",
    cl::desc("compare the file with its output of the full pipeline"));
static cl::opt<bool>
    backendOnly("backend",
                cl::desc("with --against-pipeline: the short pipeline"));
static cl::opt<uint64_t> seed("seed", cl::desc("first seed"), cl::init(1));
static cl::opt<unsigned> seeds("seeds", cl::desc("seeds to compare on"),
                               cl::init(4));
static cl::list<std::string>
    dumps("dump", cl::desc("print COUNT dwords of buffer K from byte OFFSET "
                           "after the run (K:OFFSET:COUNT)"));
static cl::opt<bool> timing(
    "timing",
    cl::desc("timing-aware (default): loads into allocated registers land "
             "only when a wait covers them, and a read before that is a "
             "missing wait (=false: loads land at once)"),
    cl::init(true));
static cl::opt<bool> strictWaits(
    "strict-waits",
    cl::desc("with --timing: a load lands only when an s_waitcnt covers "
             "it (default; hardware guarantees no latency); =false: also "
             "when its latency has passed"),
    cl::init(true));
static cl::opt<bool> ignoreLDS(
    "ignore-lds",
    cl::desc("--compare: ignore the LDS contents left at the end (they do "
             "not outlive the workgroup; for changes of LDS layout)"));
static cl::opt<unsigned>
    waves("waves", cl::desc("waves (default: workgroup_size)"), cl::init(0));
static cl::list<std::string> byteRanges(
    "byte-range",
    cl::desc("draw buffer K's initial bytes from LO-HI (K:LO-HI; e.g. E8M0 "
             "scales near 127); also read from `// waveasm-sim:` lines of "
             "the input"));

static cl::list<std::string> descriptors(
    "descriptor",
    cl::desc("buffer descriptor K (s[4(K+1)..]) into buffer J's bytes from "
             "OFFSET on (K:J[+OFFSET]): buffers that overlap; also read from "
             "`// waveasm-sim:` lines of the input"));

static cl::list<std::string>
    bufferInputs("input",
                 cl::desc("start buffer K with the bytes of FILE (K:FILE); the "
                          "bytes past its end come from the seed"));
static cl::opt<unsigned> diffLimit(
    "diff",
    cl::desc("--compare, --against-pipeline: after a difference, list up to "
             "N differing dword runs of the first differing seed"),
    cl::init(0));

namespace {

/// --input=K:FILE into options.initial.bufferFiles; false after printing an
/// error.
bool readBufferInputs(sim::SimOptions &options) {
  for (llvm::StringRef input : bufferInputs) {
    auto [index, path] = input.split(':');
    unsigned k = 0;
    if (path.empty() || index.getAsInteger(10, k) || k >= options.numBuffers) {
      llvm::errs() << "waveasm-sim: --input takes K:FILE with K below "
                   << options.numBuffers << ", got '" << input << "'\n";
      return false;
    }
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!file) {
      llvm::errs() << "waveasm-sim: --input: " << path << ": "
                   << file.getError().message() << "\n";
      return false;
    }
    llvm::StringRef bytes = (*file)->getBuffer();
    if (bytes.size() > options.bufferBytes) {
      llvm::errs() << "waveasm-sim: --input: " << path << " has "
                   << bytes.size() << " bytes, buffer " << k << " holds "
                   << options.bufferBytes << "\n";
      return false;
    }
    options.initial.bufferFiles[k] =
        std::make_shared<const std::vector<uint8_t>>(bytes.begin(),
                                                     bytes.end());
  }
  return true;
}

/// The run's options: the command line's, the files' directives, then the
/// command line's byte ranges (which win); false after printing an error.
bool runOptions(llvm::ArrayRef<std::string> paths, sim::SimOptions &options) {
  options.seed = seed;
  options.waves = waves;
  options.timing = timing;
  options.strictWaits = strictWaits;
  if (!readBufferInputs(options))
    return false;
  std::string flags;
  for (const std::string &range : byteRanges)
    flags += " --byte-range=" + range;
  for (const std::string &descriptor : descriptors)
    flags += " --descriptor=" + descriptor;
  for (llvm::StringRef path : paths) {
    auto file = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
    if (!file)
      continue; // parse() reports it
    sim::SimDirectives read =
        sim::readSimDirectives((*file)->getBuffer(), options);
    if (read.error) {
      llvm::errs() << "waveasm-sim: " << read.error->str(path) << "\n";
      return false;
    }
    options = std::move(read.options);
  }
  if (flags.empty())
    return true;
  sim::SimDirectives read =
      sim::readSimDirectives("// waveasm-sim:" + flags, options);
  if (read.error) {
    llvm::errs() << "waveasm-sim: " << read.error->message << "\n";
    return false;
  }
  options = std::move(read.options);
  return true;
}

OwningOpRef<ModuleOp> parse(MLIRContext &context, llvm::StringRef path) {
  std::string error;
  auto file = mlir::openInputFile(path, &error);
  if (!file) {
    llvm::errs() << "waveasm-sim: " << error << "\n";
    return nullptr;
  }
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// --list-ops: per family, the counts and the names (the not simulated
/// first: what the note lists).
int printOpCoverage(MLIRContext &context) {
  std::map<std::string, std::pair<std::vector<std::string>,
                                  std::vector<std::string>>>
      families; // family -> (simulated, not simulated)
  unsigned simulated = 0, total = 0;
  for (const sim::OpCoverage &op : sim::listOpCoverage(context)) {
    auto &[yes, no] = families[op.family];
    (op.simulated ? yes : no).push_back(op.name);
    simulated += op.simulated;
    ++total;
  }
  llvm::outs() << "ops: " << total << ", simulated " << simulated
               << ", not simulated " << total - simulated << "\n";
  for (const auto &[family, lists] : families) {
    const auto &[yes, no] = lists;
    llvm::outs() << family << ": " << yes.size() + no.size()
                 << " ops, simulated " << yes.size() << ", not simulated "
                 << no.size() << "\n";
    if (!no.empty())
      llvm::outs() << "  not simulated: " << llvm::join(no, " ") << "\n";
    if (!yes.empty())
      llvm::outs() << "  simulated: " << llvm::join(yes, " ") << "\n";
  }
  return 0;
}

int comparePrograms(ModuleOp a, ModuleOp b, llvm::StringRef nameA,
                    llvm::StringRef nameB, const sim::SimOptions &options) {
  llvm::SmallVector<ProgramOp> pa(a.getOps<ProgramOp>()),
      pb(b.getOps<ProgramOp>());
  if (pa.size() != pb.size()) {
    llvm::errs() << "waveasm-sim: " << nameA << " has " << pa.size()
                 << " programs, " << nameB << " " << pb.size() << "\n";
    return 2;
  }
  int status = 0;
  for (auto [x, y] : llvm::zip(pa, pb)) {
    sim::Comparison c = ignoreLDS
                            ? sim::compareBuffersOnSeeds(x, y, seeds, options)
                            : sim::compareOnSeeds(x, y, seeds, options);
    llvm::outs() << "@" << x.getSymName() << ": "
                 << sim::verdictName(c.verdict);
    if (c.verdict == sim::Comparison::Verdict::Equal) {
      llvm::outs() << " on " << seeds << " seeds";
      if (!c.hostPrecision.empty())
        llvm::outs() << " (" << llvm::join(c.hostPrecision, ", ")
                     << " at host precision)";
    } else
      llvm::outs() << " (" << c.message << ")";
    llvm::outs() << "\n";
    if (c.verdict == sim::Comparison::Verdict::Different && diffLimit) {
      // The compare keeps verdicts, not runs: run the differing seed again.
      sim::SimOptions one = options;
      one.seed = c.seed;
      sim::SimResult ra = sim::simulate(x, one), rb = sim::simulate(y, one);
      std::vector<std::string> found =
          ra.ok() && rb.ok() ? sim::differences(ra, rb, diffLimit, !ignoreLDS)
                             : std::vector<std::string>();
      // A run that stopped left partial memory, and a race leaves the
      // memory equal: the verdict above is the difference then.
      if (found.empty())
        llvm::outs() << "  (no memory diff: "
                     << (ra.ok() && rb.ok() ? "the memory is equal"
                                            : "a run stopped")
                     << "; the difference is the one named above)\n";
      for (const std::string &d : found)
        llvm::outs() << "  " << d << "\n";
    }
    if (c.verdict == sim::Comparison::Verdict::NotChecked)
      status = std::max(status, 2);
    else if (c.verdict == sim::Comparison::Verdict::Different)
      status = status == 2 ? 2 : 1;
  }
  return status;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  waveasm::installVersionPrinter("waveasm-sim");
  cl::ParseCommandLineOptions(
      argc, argv,
      "waveasm-sim: run WaveASM programs; compare two by execution\n");
  MLIRContext context;
  context.loadDialect<WaveASMDialect>();
  if (listOps)
    return printOpCoverage(context);
  if (inputs.empty()) {
    llvm::errs() << "waveasm-sim: no input file (see --help)\n";
    return 2;
  }

  if (compareMode) {
    if (inputs.size() != 2) {
      llvm::errs() << "waveasm-sim: --compare takes two files\n";
      return 2;
    }
    OwningOpRef<ModuleOp> a = parse(context, inputs[0]);
    OwningOpRef<ModuleOp> b = parse(context, inputs[1]);
    sim::SimOptions options;
    if (!a || !b || !runOptions(inputs, options))
      return 2;
    return comparePrograms(*a, *b, inputs[0], inputs[1], options);
  }
  if (againstPipeline) {
    OwningOpRef<ModuleOp> a = parse(context, inputs[0]);
    if (!a)
      return 2;
    CompileOptions options;
    options.pipeline = CompileOptions::measuringPipeline(!backendOnly);
    options.emitAssembly = false;
    options.keepCompiledModule = true;
    FailureOr<CompileResult> compiled = compileAndMeasure(*a, options);
    if (failed(compiled)) {
      llvm::errs() << "waveasm-sim: the pipeline failed on " << inputs[0]
                   << "\n";
      return 2;
    }
    sim::SimOptions simOptions;
    if (!runOptions(inputs[0], simOptions))
      return 2;
    return comparePrograms(*a, *compiled->compiled, inputs[0], "pipeline",
                           simOptions);
  }

  int status = 0;
  for (const std::string &path : inputs) {
    OwningOpRef<ModuleOp> module = parse(context, path);
    sim::SimOptions options;
    if (!module || !runOptions(path, options))
      return 2;
    for (ProgramOp program : module->getOps<ProgramOp>()) {
      sim::SimResult result = sim::simulate(program, options);
      llvm::outs() << "@" << program.getSymName() << ": ";
      if (result.error) {
        llvm::outs() << "stopped: " << result.error->str() << "\n";
        status = 2;
        continue;
      }
      llvm::outs() << llvm::format("digest %016llx",
                                   (unsigned long long)result.digest())
                   << ", " << result.opsExecuted << " ops executed";
      if (!result.hostPrecision.empty())
        llvm::outs() << " (" << llvm::join(result.hostPrecision, ", ")
                     << " at host precision)";
      llvm::outs() << "\n";
      for (const std::string &race : result.ldsRaces)
        llvm::errs() << "waveasm-sim: warning: @" << program.getSymName()
                     << ": " << race << "\n";
      for (llvm::StringRef dump : dumps) {
        llvm::SmallVector<llvm::StringRef, 3> parts;
        dump.split(parts, ':');
        unsigned k = 0;
        uint64_t offset = 0, count = 0;
        if (parts.size() != 3 || parts[0].getAsInteger(0, k) ||
            parts[1].getAsInteger(0, offset) ||
            parts[2].getAsInteger(0, count)) {
          llvm::errs() << "waveasm-sim: --dump takes K:OFFSET:COUNT, got '"
                       << dump << "'\n";
          return 2;
        }
        std::vector<uint8_t> bytes =
            result.bytes(sim::bufferAddress(k) + offset, 4 * count);
        for (uint64_t i = 0; i < count; ++i) {
          uint32_t word = 0;
          std::memcpy(&word, bytes.data() + 4 * i, 4);
          llvm::outs() << llvm::format("buffer %u + 0x%llx: 0x%08x\n", k,
                                       (unsigned long long)(offset + 4 * i),
                                       word);
        }
      }
    }
  }
  return status;
}
