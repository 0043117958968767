//===- Common.cpp - helpers shared by the feature implementations ---------===//

#include "server/features/Common.h"
#include "analysis/LoopBoundsProgram.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::server::common;

StringRef common::getMnemonic(Operation *op) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("waveasm.");
  return name;
}

std::string common::getUnitName(ExecUnit unit) {
  if (unit == ExecUnit::None)
    return "pseudo";
  return stringifyExecUnit(unit).str();
}

// Built from the attributes: printing an op numbers every value of its
// program first (AsmState), far too slow per hint or lint.
std::string common::getShortText(Operation *op) {
  std::string text = getMnemonic(op).str();
  if (auto wait = dyn_cast<S_WAITCNT>(op)) {
    if (auto vm = wait.getVmcnt())
      text += " vmcnt(" + std::to_string(*vm) + ")";
    if (auto lgkm = wait.getLgkmcnt())
      text += " lgkmcnt(" + std::to_string(*lgkm) + ")";
    if (auto exp = wait.getExpcnt())
      text += " expcnt(" + std::to_string(*exp) + ")";
    return text;
  }
  if (auto count = op->getAttrOfType<IntegerAttr>("count"))
    text += " " + std::to_string(count.getInt());
  return text;
}

std::string common::formatRegisters(Type type) {
  std::optional<RegClass> cls = getRegClass(type);
  if (!cls)
    return formatRegClass(type);
  int64_t size = getRegSize(type);
  if (std::optional<int64_t> index = getPhysicalIndex(type)) {
    std::string prefix = getRegPrefix(*cls).str();
    if (size == 1)
      return prefix + std::to_string(*index);
    return prefix + "[" + std::to_string(*index) + ":" +
           std::to_string(*index + size - 1) + "]";
  }
  std::string text = getRegClassName(*cls).str();
  if (size > 1)
    text += " x" + std::to_string(size);
  return text;
}

std::string common::formatRegClass(Type type) {
  if (std::optional<RegClass> cls = getRegClass(type))
    return getRegClassName(*cls).str();
  if (isa<ImmType>(type))
    return "imm";
  if (isa<SCCType>(type))
    return "scc";
  return printType(type);
}

std::string common::printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

EffectiveTiming common::getEffectiveTiming(const CompiledOpInfo &info) {
  EffectiveTiming t;
  const InstAnnotation *a = info.annotation;
  if (!a)
    return t;
  t.latency = a->latency;
  t.issued = a->issued;
  if (a->inLoop) {
    t.steady = true;
    t.issueCycle = a->steadyIssueCycle;
    t.stall = a->steadyStall;
    t.reason = a->steadyStallReason;
    t.waited = info.insertedSteadyStall;
  } else {
    t.issueCycle = a->issueCycle;
    t.stall = a->stall;
    t.reason = a->stallReason;
    t.waited = info.insertedStall;
  }
  return t;
}

std::optional<unsigned> common::getEntryFor(const CompiledDocument &compiled,
                                            Operation *compiledOp) {
  for (Operation *op = compiledOp; op; op = op->getParentOp()) {
    if (std::optional<unsigned> entry = compiled.lookupCompiled(op))
      return entry;
    for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
      if (std::optional<unsigned> entry = compiled.lookupCompiled(next))
        return entry;
  }
  return std::nullopt;
}

Value common::getInputValue(const ParsedDocument &parsed,
                            const CompiledDocument &compiled,
                            Value compiledValue) {
  if (auto result = dyn_cast<OpResult>(compiledValue)) {
    std::optional<unsigned> entry = compiled.lookupCompiled(result.getOwner());
    if (!entry)
      return {};
    Operation *input = parsed.getOps()[*entry].op;
    if (result.getResultNumber() >= input->getNumResults())
      return {};
    return input->getResult(result.getResultNumber());
  }
  auto arg = cast<BlockArgument>(compiledValue);
  Operation *owner = arg.getOwner()->getParentOp();
  std::optional<unsigned> entry =
      owner ? compiled.lookupCompiled(owner) : std::nullopt;
  if (!entry)
    return {};
  Operation *input = parsed.getOps()[*entry].op;
  unsigned region = arg.getOwner()->getParent()->getRegionNumber();
  if (region >= input->getNumRegions() || input->getRegion(region).empty())
    return {};
  Block &block = input->getRegion(region).front();
  if (arg.getArgNumber() >= block.getNumArguments())
    return {};
  return block.getArgument(arg.getArgNumber());
}

Value common::getCompiledValue(const ParsedDocument &parsed,
                               const CompiledDocument &compiled,
                               Value inputValue) {
  Operation *owner = nullptr;
  if (auto result = dyn_cast<OpResult>(inputValue))
    owner = result.getOwner();
  else
    owner = cast<BlockArgument>(inputValue).getOwner()->getParentOp();
  std::optional<unsigned> entry = owner ? parsed.lookupOp(owner) : std::nullopt;
  const CompiledOpInfo *info = entry ? compiled.lookup(*entry) : nullptr;
  if (!info)
    return {};
  Operation *copy = info->compiled;
  if (auto result = dyn_cast<OpResult>(inputValue)) {
    if (result.getResultNumber() >= copy->getNumResults())
      return {};
    return copy->getResult(result.getResultNumber());
  }
  auto arg = cast<BlockArgument>(inputValue);
  unsigned region = arg.getOwner()->getParent()->getRegionNumber();
  if (region >= copy->getNumRegions() || copy->getRegion(region).empty())
    return {};
  Block &block = copy->getRegion(region).front();
  if (arg.getArgNumber() >= block.getNumArguments())
    return {};
  return block.getArgument(arg.getArgNumber());
}

std::string common::getValueName(const ParsedDocument &parsed, Value value) {
  std::optional<unsigned> idx = parsed.lookupValue(value);
  if (!idx)
    return "<value>";
  const ValueEntry &entry = parsed.getValues()[*idx];
  if (entry.isBlockArg || entry.numValues == 1)
    return entry.name.str();
  unsigned first = cast<OpResult>(entry.value).getResultNumber();
  unsigned number = cast<OpResult>(value).getResultNumber() - first;
  return (entry.name + "#" + std::to_string(number)).str();
}

std::optional<lsp::Range> common::getValueDefRange(const ParsedDocument &parsed,
                                                   Value value) {
  std::optional<unsigned> idx = parsed.lookupValue(value);
  if (!idx)
    return std::nullopt;
  return parsed.getValues()[*idx].def;
}

int common::getDisplayLine(const ParsedDocument &parsed, unsigned entry) {
  return parsed.getOps()[entry].name.start.line + 1;
}

llvm::StringRef common::getOpText(const ParsedDocument &parsed,
                                  unsigned entry) {
  llvm::SMRange scope = parsed.getOps()[entry].scopeLoc;
  return llvm::StringRef(scope.Start.getPointer(),
                         scope.End.getPointer() - scope.Start.getPointer());
}

namespace {

/// The issued op `value`'s data comes from and when it is ready.
std::pair<Operation *, int64_t> resolveProducer(const ProgramAnnotations &ann,
                                                Value value, bool memoryOnly,
                                                int depth = 0) {
  Operation *def = value.getDefiningOp();
  const InstAnnotation *a = def ? ann.lookup(def) : nullptr;
  if (!a || depth > 8)
    return {nullptr, INT64_MIN};
  if (a->issued) {
    bool isMemory = a->unit == ExecUnit::VMEM || a->unit == ExecUnit::LDS ||
                    a->unit == ExecUnit::SMEM;
    if (memoryOnly && !isMemory)
      return {nullptr, INT64_MIN};
    return {def, a->issueCycle + a->latency};
  }
  std::pair<Operation *, int64_t> best = {nullptr, INT64_MIN};
  for (Value operand : def->getOperands()) {
    auto candidate = resolveProducer(ann, operand, memoryOnly, depth + 1);
    if (candidate.first && candidate.second > best.second)
      best = candidate;
  }
  return best;
}

} // namespace

OperandSource common::findLatestOperand(const ProgramAnnotations &annotations,
                                        Operation *user, bool memoryOnly) {
  OperandSource best;
  int64_t bestReady = INT64_MIN;
  for (Value operand : user->getOperands()) {
    auto [producer, ready] = resolveProducer(annotations, operand, memoryOnly);
    if (producer && ready > bestReady) {
      bestReady = ready;
      best = {operand, producer};
    }
  }
  return best;
}

bool common::isWaitOp(Operation *op) {
  return isa<S_WAITCNT, S_WAITCNT_VMCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_EXPCNT>(
      op);
}

lsp::Location common::makeLocation(const ParsedDocument &parsed,
                                   lsp::Range range) {
  return {parsed.getURI(), range};
}

lsp::Diagnostic common::makeLintDiagnostic(LintCode code, lsp::Range range,
                                           lsp::DiagnosticSeverity severity,
                                           std::string message) {
  lsp::Diagnostic diag;
  diag.range = range;
  diag.severity = severity;
  diag.code = stringifyLintCode(code).str();
  diag.message = std::move(message);
  return diag;
}

SpanSummary common::summarize(const ProgramAnnotations &annotations,
                              unsigned first, unsigned last) {
  SpanSummary summary;
  const ProgramIndex &index = annotations.getIndex();
  llvm::ArrayRef<OpFacts> facts = annotations.getCycleModel().getOpFacts();
  const Liveness &liveness = annotations.getLiveness();
  for (unsigned i = first; i <= last && i < index.getNumOps(); ++i) {
    Operation *op = index.getOp(i);
    if (isWaitOp(op))
      ++summary.waitcnts;
    else if (isa<S_NOP>(op))
      ++summary.nops;
    if (facts[i].issued) {
      ++summary.instructions;
      ++summary.byUnit[static_cast<unsigned>(facts[i].unit)];
    }
    const RegCounts &p = liveness.getPressure(i);
    for (unsigned c = 0; c < 3; ++c)
      summary.peak.regs[c] = std::max(summary.peak.regs[c], p.regs[c]);
  }
  return summary;
}

std::string common::formatMix(const SpanSummary &summary) {
  std::string text;
  for (unsigned u = 1; u < kNumExecUnits; ++u) {
    if (!summary.byUnit[u])
      continue;
    if (!text.empty())
      text += " \xC2\xB7 ";
    text += stringifyExecUnit(static_cast<ExecUnit>(u)).str() + " " +
            std::to_string(summary.byUnit[u]);
  }
  return text;
}

LowerBound
common::computeProgramLowerBound(const ProgramAnnotations &annotations) {
  ProgramBound bound = computeProgramBound(
      annotations.getIndex(), annotations.getCycleModel().getOpFacts());
  return {bound.cycles, std::move(bound.kind)};
}

std::string
common::renderTable(const std::vector<std::vector<std::string>> &rows) {
  std::vector<size_t> widths;
  for (const auto &row : rows)
    for (auto [c, cell] : llvm::enumerate(row)) {
      if (widths.size() <= c)
        widths.push_back(0);
      widths[c] = std::max<size_t>(widths[c], utf16Length(cell));
    }
  auto isNumber = [](llvm::StringRef s) {
    return !s.empty() && llvm::all_of(s, [](char c) {
      return llvm::isDigit(c) || c == '-' || c == '.' || c == '/' || c == '*';
    });
  };
  std::string out;
  for (auto [r, row] : llvm::enumerate(rows)) {
    std::string line;
    for (auto [c, cell] : llvm::enumerate(row)) {
      size_t pad = widths[c] - utf16Length(cell);
      if (c)
        line += "  ";
      if (isNumber(cell) && r != 0)
        line += std::string(pad, ' ') + cell;
      else
        line += cell + std::string(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
    if (r == 0) {
      size_t total = 0;
      for (size_t w : widths)
        total += w;
      out += std::string(total + 2 * (widths.size() - 1), '-') + "\n";
    }
  }
  return out;
}
