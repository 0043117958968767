//===- Tags.cpp - stable Conductor tags -----------------------------------===//

#include "conductor/Tags.h"

#include "analysis/TargetModel.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;

namespace {

/// Index n of a tag "I<n>" (case-insensitive), or nullopt.
std::optional<unsigned> parseTagIndex(llvm::StringRef tag) {
  if (tag.size() < 2 || (tag[0] != 'I' && tag[0] != 'i'))
    return std::nullopt;
  unsigned index;
  if (tag.drop_front().getAsInteger(10, index))
    return std::nullopt;
  // "I05" is not "I5": tags are printed without leading zeros.
  if (tag.size() > 2 && tag[1] == '0')
    return std::nullopt;
  return index;
}

bool isTagName(llvm::StringRef name) {
  return name.size() >= 2 && name[0] == 'I' &&
         llvm::all_of(name.drop_front(), llvm::isDigit);
}

/// The original location under any Conductor tags.
Location stripTags(Location loc) {
  while (auto name = dyn_cast<NameLoc>(loc)) {
    if (!isTagName(name.getName().getValue()))
      break;
    loc = name.getChildLoc();
  }
  return loc;
}

} // namespace

std::string conductor::formatTag(unsigned index) {
  return "I" + std::to_string(index);
}

TaggedRegion conductor::tagBlock(Block &block) {
  TaggedRegion region;
  region.block = &block;
  MLIRContext *ctx = block.getParent()->getContext();
  unsigned next = 0;
  for (Operation &op : block) {
    op.setLoc(NameLoc::get(StringAttr::get(ctx, formatTag(next++)),
                           stripTags(op.getLoc())));
    region.ops.push_back(&op);
  }
  return region;
}

void conductor::untagBlock(const TaggedRegion &region) {
  for (Operation *op : region.ops)
    op->setLoc(stripTags(op->getLoc()));
}

std::optional<llvm::StringRef> conductor::getTag(Operation *op) {
  auto name = dyn_cast<NameLoc>(op->getLoc());
  if (!name || !isTagName(name.getName().getValue()))
    return std::nullopt;
  return name.getName().getValue();
}

Operation *conductor::findTag(const TaggedRegion &region, llvm::StringRef tag) {
  std::optional<unsigned> index = parseTagIndex(tag);
  if (!index || *index >= region.ops.size())
    return nullptr;
  return region.ops[*index];
}

Block *conductor::findDefaultBlock(ProgramOp program) {
  LoopOp innermost;
  unsigned bestDepth = 0;
  program.walk<WalkOrder::PreOrder>([&](LoopOp loop) {
    unsigned depth = 0;
    for (Operation *parent = loop; parent; parent = parent->getParentOp())
      ++depth;
    if (!innermost || depth > bestDepth) {
      innermost = loop;
      bestDepth = depth;
    }
  });
  if (innermost)
    return &innermost.getBody().front();
  return &program.getBody().front();
}

Block *conductor::getScheduledBlock(Operation *regionOwner) {
  if (auto loop = dyn_cast<LoopOp>(regionOwner))
    return &loop.getBody().front();
  if (auto program = dyn_cast<ProgramOp>(regionOwner))
    return &program.getBody().front();
  return nullptr;
}

Operation *conductor::getAncestorInBlock(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

llvm::StringRef conductor::describeRegion(const TaggedRegion &region) {
  return isa<LoopOp>(region.block->getParentOp()) ? "loop body"
                                                  : "program body";
}

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

/// Passes and result latency of an MFMA by name from the target model's
/// table, looked up on a detached operand-less instance (the table is keyed
/// by op class).
static std::pair<int64_t, int64_t> mfmaTimingByName(MLIRContext *ctx,
                                                    const TargetModel &target,
                                                    llvm::StringRef name) {
  OperationState state(UnknownLoc::get(ctx), name);
  Operation *op = Operation::create(state);
  std::pair<int64_t, int64_t> timing = {target.getMFMAPasses(op),
                                        target.getOpLatency(op)};
  op->destroy();
  return timing;
}

std::string conductor::formatTargetHeader(ProgramOp program,
                                          const TargetModel &target) {
  const TargetInfo &arch = *target.arch;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "TARGET: " << arch.name << " (wave" << arch.defaultWaveSize << ", "
     << arch.maxVGPRs << " vgpr, " << arch.maxSGPRs << " sgpr, "
     << arch.maxAGPRs << " agpr)\n";
  // Issue slots (4 clocks): the unit of every number the metrics report.
  os << "LATENCY (issue slots): vmem="
     << target.getLatency(LatencyClass::VMEMLoad)
     << ", lds=" << target.getLatency(LatencyClass::LDSLoad);
  if (arch.hasMFMA) {
    MLIRContext *ctx = program.getContext();
    for (auto [label, name] :
         {std::pair("mfma_16x16", "waveasm.v_mfma_f32_16x16x16_f16"),
          std::pair("mfma_32x32", "waveasm.v_mfma_f32_32x32x8_f16")}) {
      auto [passes, result] = mfmaTimingByName(ctx, target, name);
      os << ", " << label << "=" << passes << " (result after " << result
         << ")";
    }
  }
  os << "\n";
  return text;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string conductor::keepOnlyTagLocations(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (true) {
    size_t at = text.find(" loc(", pos);
    if (at == llvm::StringRef::npos) {
      out.append(text.substr(pos).begin(), text.substr(pos).end());
      return out;
    }
    out.append(text.begin() + pos, text.begin() + at);
    // Find the matching parenthesis, skipping quoted strings.
    size_t i = at + 5, depth = 1;
    bool quoted = false;
    for (; i < text.size() && depth; ++i) {
      char c = text[i];
      if (quoted) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          quoted = false;
      } else if (c == '"') {
        quoted = true;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')') {
        --depth;
      }
    }
    llvm::StringRef inner = text.slice(at + 5, i - 1);
    if (inner.consume_front("\"")) {
      llvm::StringRef name = inner.take_until([](char c) { return c == '"'; });
      if (isTagName(name))
        out += (" loc(\"" + name + "\")").str();
    }
    pos = i;
  }
}

std::string conductor::printTaggedRegion(const TaggedRegion &region) {
  Operation *owner = region.block->getParentOp();
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  // Names are numbered within the enclosing program, as printValueName does.
  Operation *scope = owner;
  if (auto program = owner->getParentOfType<ProgramOp>())
    scope = program;
  AsmState state(scope, flags);
  owner->print(os, state);
  os << "\n";
  return keepOnlyTagLocations(text);
}
