//===- Profile.cpp - per-instruction GPU profiles for the prompt ----------===//

#include "conductor/Profile.h"

#include "conductor/Session.h"
#include "pipeline/CompileAndMeasure.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

llvm::Expected<std::vector<ProfileRow>>
waveasm::conductor::parseProfileCSV(llvm::StringRef text,
                                    llvm::StringRef source) {
  std::vector<ProfileRow> rows;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (auto [index, raw] : llvm::enumerate(lines)) {
    unsigned lineNo = index + 1;
    llvm::StringRef line = raw.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    llvm::SmallVector<llvm::StringRef, 5> fields;
    line.split(fields, ',');
    auto error = [&](const llvm::Twine &message) {
      return llvm::createStringError(
          (source + ":" + llvm::Twine(lineNo) + ": " + message).str());
    };
    if (fields.size() != 5)
      return error("expected 5 columns (key,hits,lat_min,lat_mean,lat_max), "
                   "got " + llvm::Twine(fields.size()));
    ProfileRow row;
    row.key = fields[0].trim().str();
    row.csvLine = lineNo;
    bool numeric = !fields[1].trim().getAsInteger(10, row.hits);
    if (!numeric && rows.empty() && lineNo == 1)
      continue; // a header row
    if (!numeric)
      return error("hits '" + fields[1].trim() + "' is not an integer");
    double *values[] = {&row.latMin, &row.latMean, &row.latMax};
    for (unsigned i = 0; i < 3; ++i)
      if (fields[2 + i].trim().getAsDouble(*values[i]))
        return error("latency '" + fields[2 + i].trim() + "' is not a number");
    rows.push_back(std::move(row));
  }
  return rows;
}

/// The mnemonic of an assembly line ("s_waitcnt vmcnt(0)" -> "s_waitcnt").
static std::string mnemonicOf(llvm::StringRef line) {
  return line.trim().split(' ').first.str();
}

std::vector<TaggedProfile>
waveasm::conductor::correlateProfile(const Session &session,
                                     llvm::ArrayRef<ProfileRow> rows,
                                     std::vector<std::string> *unmatched) {
  std::vector<TaggedProfile> out;
  // The assembly is only needed for line keys.
  std::optional<CompileResult> compiled;
  unsigned programIndex = 0;
  for (ProgramOp each : session.bestModule().getOps<ProgramOp>()) {
    if (each == session.program())
      break;
    ++programIndex;
  }
  llvm::SmallVector<llvm::StringRef> asmLines;
  auto ensureAssembly = [&]() -> const CompiledProgram * {
    if (!compiled) {
      ScopedDiagnosticHandler quiet(session.bestModule().getContext(),
                                    [](Diagnostic &) { return success(); });
      FailureOr<CompileResult> result =
          compileAndMeasure(session.bestModule(), CompileOptions());
      if (failed(result))
        return nullptr;
      compiled = std::move(*result);
      if (programIndex < compiled->programs.size())
        llvm::StringRef(compiled->programs[programIndex].assembly)
            .split(asmLines, '\n');
    }
    return programIndex < compiled->programs.size()
               ? &compiled->programs[programIndex]
               : nullptr;
  };
  const TaggedRegion &region = session.region();
  for (const ProfileRow &row : rows) {
    TaggedProfile tagged;
    tagged.hits = row.hits;
    tagged.latMin = row.latMin;
    tagged.latMean = row.latMean;
    tagged.latMax = row.latMax;
    if (Operation *op = findTag(region, row.key)) {
      tagged.tag = getTag(op)->str();
      tagged.mnemonic = op->getName().stripDialect().str();
      out.push_back(std::move(tagged));
      continue;
    }
    unsigned line;
    const CompiledProgram *program = nullptr;
    if (!llvm::StringRef(row.key).getAsInteger(10, line) && line > 0)
      program = ensureAssembly();
    if (!program || line > program->lineOps.size()) {
      if (unmatched)
        unmatched->push_back(row.key);
      continue;
    }
    // The op behind the line, or the next line's op for inserted ones.
    Operation *op = nullptr;
    bool inserted = false;
    for (unsigned i = line - 1; i < program->lineOps.size() && !op; ++i) {
      op = program->lineOps[i];
      if (op && !getTag(op))
        op = region.block->findAncestorOpInBlock(*op);
      inserted |= !op || i != line - 1;
    }
    if (!op || !getTag(op) || op->getBlock() != region.block) {
      if (unmatched)
        unmatched->push_back(row.key);
      continue;
    }
    tagged.tag = (inserted ? "before " : "") + getTag(op)->str();
    tagged.mnemonic =
        line - 1 < asmLines.size() ? mnemonicOf(asmLines[line - 1]) : "";
    out.push_back(std::move(tagged));
  }
  return out;
}

std::string
waveasm::conductor::formatProfileSection(llvm::ArrayRef<TaggedProfile> rows) {
  if (rows.empty())
    return "";
  std::string text = "--- Profiling (rocprof, previous run) ---\n";
  llvm::raw_string_ostream os(text);
  for (const TaggedProfile &row : rows)
    os << llvm::format("%-4s %-22s hits=%-6lld lat_min=%-4.0f lat_mean=%-4.0f "
                       "lat_max=%.0f\n",
                       row.tag.c_str(), row.mnemonic.c_str(),
                       (long long)row.hits, row.latMin, row.latMean,
                       row.latMax);
  return text;
}
