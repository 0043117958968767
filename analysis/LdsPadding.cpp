//===- LdsPadding.cpp - padded LDS rows that remove bank conflicts --------===//
//
// The rules are in the header.
//
//===----------------------------------------------------------------------===//

#include "analysis/LdsPadding.h"

#include "analysis/LdsBuffers.h"
#include "analysis/MemoryAlias.h"
#include "ir/TargetInfo.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

std::optional<std::pair<int64_t, int64_t>> waveasm::pickLdsPad(
    int64_t step, int64_t maxPad, int64_t costNow, int64_t floor,
    llvm::function_ref<std::optional<int64_t>(int64_t pad)> cost) {
  std::optional<std::pair<int64_t, int64_t>> best;
  maxPad = std::max(step, maxPad);
  for (int64_t pad = step; pad <= maxPad; pad += step) {
    std::optional<int64_t> c = cost(pad);
    if (!c)
      break;
    if (*c < (best ? best->second : costNow))
      best = {pad, *c};
    if (best && best->second <= floor)
      break;
  }
  return best;
}

namespace {

/// The number of 16-bit `offset` values: a padded offset must stay below.
constexpr int64_t kOffsetLimit = 1 << 16;
/// v_mad_u32_u24 computes the padded lane term: 24-bit operands.
constexpr int64_t kMadLimit = 1 << 24;
/// An access's conflict counts this many times more per enclosing loop.
constexpr int64_t kLoopWeight = 16;

bool isDsReadOrWrite(Operation *op) {
  llvm::StringRef name = op->getName().stripDialect();
  return (name.starts_with("ds_read") || name.starts_with("ds_write")) &&
         !name.starts_with("ds_read2") && !name.starts_with("ds_write2");
}

bool accessesLds(Operation *op) {
  return !isa<S_BARRIER>(op) && ((memReads(op) | memWrites(op)) & MemLDS);
}

std::string where(Operation *op) {
  std::string text = "'" + op->getName().getStringRef().str() + "'";
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    text += llvm::formatv(" at {0}:{1}", loc.getLine(), loc.getColumn());
  return text;
}

} // namespace

std::string waveasm::checkLdsRows(const LdsPaddingProblem &problem,
                                  LdsPadding padding) {
  int64_t stride = padding.stride;
  if (stride <= 0 || !llvm::has_single_bit(uint64_t(stride)))
    return llvm::formatv("the row stride {0} is not a power of two", stride);
  if (padding.pad <= 0 || padding.pad % 4)
    return llvm::formatv("the pad {0} is not a positive multiple of 4 bytes",
                         padding.pad);
  for (const LdsPaddingAccess &access : problem.accesses) {
    if (access.uniformAlignment && access.uniformAlignment % stride)
      return llvm::formatv("an SGPR base is a multiple of {0} bytes only, "
                           "not of the row stride {1}",
                           access.uniformAlignment, stride);
    if (padding.pad % std::max<int64_t>(4, access.bytesPerLane))
      return llvm::formatv("the pad {0} breaks the alignment of a {1}-byte "
                           "access",
                           padding.pad, access.bytesPerLane);
    if (access.offset < 0 || padding.map(access.offset) >= kOffsetLimit)
      return llvm::formatv("the offset {0} would leave the 16-bit field",
                           access.offset);
    int64_t offsetRest = access.offset % stride;
    for (uint32_t lane : access.threads) {
      if (int64_t(lane) >= kMadLimit)
        return llvm::formatv("a lane address {0} is beyond 24 bits", lane);
      if (int64_t(lane % stride) + offsetRest + access.bytesPerLane > stride)
        return llvm::formatv("a lane's {0} bytes at {1} + {2} cross a row of "
                             "{3} bytes",
                             access.bytesPerLane, lane, access.offset, stride);
    }
  }
  return "";
}

int64_t waveasm::ldsConflictSlots(const LdsPaddingProblem &problem,
                                  std::optional<LdsPadding> padding) {
  int64_t total = 0;
  unsigned waveSize = std::max(1u, problem.waveSize);
  std::vector<uint32_t> lanes(waveSize);
  for (const LdsPaddingAccess &access : problem.accesses) {
    if (!access.costed)
      continue;
    int64_t worst = 0;
    unsigned threads = access.threads.size();
    for (unsigned first = 0; first < threads; first += waveSize) {
      unsigned count = std::min(waveSize, threads - first);
      uint64_t mask = count >= 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1;
      for (unsigned l = 0; l < count; ++l) {
        int64_t address = int64_t(access.threads[first + l]) + access.offset;
        lanes[l] = uint32_t(padding ? padding->map(address) : address);
      }
      LdsBankCost cost = computeLdsBankCost(
          llvm::ArrayRef(lanes).take_front(count), mask, access.bytesPerLane,
          problem.model.banks, problem.model.minClocks);
      worst = std::max(worst, ldsExtraSlots(cost.extraClocks()));
    }
    total += worst * access.weight;
  }
  return total;
}

std::optional<LdsPaddingChoice>
waveasm::checkLdsPadding(const LdsPaddingProblem &problem, LdsPadding padding,
                         std::string &why) {
  why = checkLdsRows(problem, padding);
  if (!why.empty())
    return std::nullopt;
  LdsPaddingChoice choice;
  choice.padding = padding;
  choice.slotsBefore = ldsConflictSlots(problem);
  choice.slotsAfter = ldsConflictSlots(problem, padding);
  choice.ldsBytesAfter = paddedLdsBytes(problem.ldsBytes, padding);
  if (choice.ldsBytesAfter > problem.capacity) {
    why = llvm::formatv("rows of {0} bytes padded by {1} need {2} bytes of "
                        "LDS, {3} bytes over the target's {4}",
                        padding.stride, padding.pad, choice.ldsBytesAfter,
                        choice.ldsBytesAfter - problem.capacity,
                        problem.capacity);
    return std::nullopt;
  }
  return choice;
}

std::optional<LdsPaddingChoice>
waveasm::chooseLdsPadding(const LdsPaddingProblem &problem, std::string &why) {
  int64_t before = ldsConflictSlots(problem);
  if (before == 0) {
    why = "no LDS access has a bank conflict";
    return std::nullopt;
  }
  int64_t step = 4;
  for (const LdsPaddingAccess &access : problem.accesses)
    step = std::max<int64_t>(step, access.bytesPerLane);
  // A pad of the banks' span maps every byte to the bank it had.
  int64_t bankSpan = int64_t(problem.model.banks) * 4;
  std::optional<LdsPaddingChoice> best, overCapacity;
  bool anyStride = false;
  for (int64_t stride = 2 * step;
       stride < std::max<int64_t>(problem.ldsBytes, 2 * step + 1);
       stride *= 2) {
    // Rows the accesses cross are not rows (any pad then is wrong).
    if (!checkLdsRows(problem, {stride, step}).empty())
      continue;
    anyStride = true;
    auto slotsWith = [&](int64_t pad) -> std::optional<int64_t> {
      if (!checkLdsRows(problem, {stride, pad}).empty())
        return std::nullopt;
      return ldsConflictSlots(problem, LdsPadding{stride, pad});
    };
    std::optional<std::pair<int64_t, int64_t>> pick =
        pickLdsPad(step, std::min(stride / 4, bankSpan - step), before,
                   /*floor=*/0, slotsWith);
    if (!pick)
      continue;
    LdsPaddingChoice choice;
    choice.padding = {stride, pick->first};
    choice.slotsBefore = before;
    choice.slotsAfter = pick->second;
    choice.ldsBytesAfter = paddedLdsBytes(problem.ldsBytes, choice.padding);
    auto better = [&](const std::optional<LdsPaddingChoice> &than) {
      return !than || choice.slotsAfter < than->slotsAfter ||
             (choice.slotsAfter == than->slotsAfter &&
              choice.ldsBytesAfter < than->ldsBytesAfter);
    };
    if (choice.ldsBytesAfter > problem.capacity) {
      if (better(overCapacity))
        overCapacity = choice;
    } else if (better(best)) {
      best = choice;
    }
  }
  if (best)
    return best;
  if (overCapacity) {
    const LdsPaddingChoice &c = *overCapacity;
    why = llvm::formatv("rows of {0} bytes padded by {1} would lower the "
                        "conflict slots {2} -> {3} but need {4} bytes of LDS, "
                        "{5} bytes over the target's {6}",
                        c.padding.stride, c.padding.pad, c.slotsBefore,
                        c.slotsAfter, c.ldsBytesAfter,
                        c.ldsBytesAfter - problem.capacity, problem.capacity);
  } else if (!anyStride) {
    why = "no power-of-two row stride keeps every access inside one row";
  } else {
    why = llvm::formatv("no padded row stride lowers the {0} conflict slots",
                        before);
  }
  return std::nullopt;
}

LdsPaddingPlan waveasm::planLdsPadding(ProgramOp program,
                                       const TargetModel &target,
                                       std::optional<LdsPadding> requested) {
  LdsPaddingPlan plan;
  LdsThreadEvaluator evaluator(program, target);
  LdsPaddingProblem &problem = plan.problem;
  problem.waveSize = evaluator.getWaveSize();
  problem.model = getLdsBankModel(target);
  problem.capacity = getTargetInfo(program.getTargetKind()).maxLDSBytes;
  auto refuse = [&](Operation *op, std::string why) {
    plan.refusal = std::move(why);
    plan.refusedAt = op;
    return plan;
  };
  int64_t end = 0;
  std::vector<Operation *> ops;
  program.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Region ops (the program, loops) sum their bodies' memory facts.
    if (op->getNumRegions() == 0 && accessesLds(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    std::optional<LdsAccessAddress> address =
        getLdsAccessAddress(op, problem.waveSize);
    if (!address)
      return refuse(op, where(op) + " has no single LDS address to pad");
    if (address->directToLds)
      return refuse(op, where(op) + " writes a wave's LDS row at M0 + lane * "
                                    "width, which padded rows would split");
    LdsPaddingSite site;
    site.op = op;
    site.addressOperand = op->getNumOperands() - 1;
    site.address = address->address;
    site.lanes = address->address;
    site.offset = address->offset;
    LdsPaddingAccess access;
    access.offset = address->offset;
    access.bytesPerLane = unsigned(address->extent);
    access.costed = isDsReadOrWrite(op);
    // A rotating SGPR base: v_add_u32 of an SGPR and the lane term.
    if (auto add = site.address.getDefiningOp<V_ADD_U32>()) {
      Value a = add.getOperand(0), b = add.getOperand(1);
      bool aScalar = isa<SRegType, PSRegType>(a.getType());
      bool bScalar = isa<SRegType, PSRegType>(b.getType());
      if (aScalar != bScalar) {
        site.uniform = aScalar ? a : b;
        site.lanes = aScalar ? b : a;
      }
    }
    bool perWave = false;
    std::string why;
    std::optional<std::vector<uint32_t>> threads =
        evaluator.evaluate(site.lanes, perWave, why);
    if (!threads)
      return refuse(op, "the LDS address of " + where(op) +
                            " is not a known function of the thread id (" +
                            why + ")");
    if (perWave)
      return refuse(op, "the LDS address of " + where(op) +
                            " has a wave-uniform term other than one SGPR "
                            "base added last");
    access.threads = std::move(*threads);
    int64_t uniformMax = 0;
    if (site.uniform) {
      std::optional<LdsAddressRange> range =
          getLdsAddressRange(program, site.uniform);
      if (!range || range->lo != range->hi)
        return refuse(op, "the SGPR base of " + where(op) +
                              " does not take a known set of values");
      uint64_t all = 0;
      for (int64_t base : range->bases) {
        int64_t value = base + range->lo;
        if (value < 0)
          return refuse(op,
                        "the SGPR base of " + where(op) + " may be negative");
        all |= uint64_t(value);
        uniformMax = std::max(uniformMax, value);
      }
      // The largest power of two dividing every value (all zero: any).
      access.uniformAlignment =
          all ? int64_t(all & (~all + 1)) : int64_t(1) << 30;
    }
    for (uint32_t lane : access.threads)
      end = std::max(end, uniformMax + int64_t(lane) + access.offset +
                              access.bytesPerLane);
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp())
      if (isa<LoopOp>(parent) && access.weight < (int64_t(1) << 40))
        access.weight *= kLoopWeight;
    plan.sites.push_back(site);
    problem.accesses.push_back(std::move(access));
  }
  if (problem.accesses.empty())
    return refuse(program, "the program has no LDS access");
  problem.ldsBytes = std::max<int64_t>(program.getLdsSize().value_or(0), end);
  std::string why;
  plan.choice = requested ? checkLdsPadding(problem, *requested, why)
                          : chooseLdsPadding(problem, why);
  if (!plan.choice)
    return refuse(program, why);
  return plan;
}
