//===- LdsPlan.cpp - LDS arena plan: offsets, peak, fragmentation ---------===//

#include "analysis/LdsPlan.h"

#include "ir/TargetInfo.h"

#include "mlir/IR/Location.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace waveasm;

static bool overlaps(const LdsPlanItem &a, const LdsPlanItem &b) {
  return a.start <= b.stop && b.start <= a.stop;
}

/// The most bytes live at one point, where, and what is live there: a sweep
/// over the lifetime ends.
static void computePeak(llvm::ArrayRef<LdsPlanItem> items, LdsArena &arena) {
  std::map<unsigned, int64_t> deltas;
  for (const LdsPlanItem &item : items) {
    deltas[item.start] += item.size;
    deltas[item.stop + 1] -= item.size;
  }
  int64_t live = 0;
  for (auto [point, delta] : deltas) {
    live += delta;
    if (live > arena.peakBytes) {
      arena.peakBytes = live;
      arena.peakAt = point;
    }
  }
  for (auto [i, item] : llvm::enumerate(items))
    if (item.size && item.start <= arena.peakAt && arena.peakAt <= item.stop)
      arena.liveAtPeak.push_back(i);
}

LdsArena waveasm::planArena(llvm::ArrayRef<LdsPlanItem> items) {
  LdsArena arena;
  arena.offsets.assign(items.size(), 0);
  std::vector<unsigned> order(items.size());
  for (unsigned i = 0; i < items.size(); ++i)
    order[i] = i;
  // Fixed items first, then the largest (ties: earliest, then by index, so
  // the plan is a pure function of the items).
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    const LdsPlanItem &x = items[a], &y = items[b];
    if (x.fixedOffset.has_value() != y.fixedOffset.has_value())
      return x.fixedOffset.has_value();
    if (x.size != y.size)
      return x.size > y.size;
    return x.start < y.start;
  });
  std::vector<unsigned> placed;
  for (unsigned i : order) {
    const LdsPlanItem &item = items[i];
    int64_t offset = 0;
    if (item.fixedOffset) {
      offset = *item.fixedOffset;
    } else {
      // Lowest aligned offset clear of every placed item alive meanwhile.
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (unsigned p : placed)
        if (overlaps(items[p], item) && items[p].size)
          busy.push_back({arena.offsets[p], arena.offsets[p] + items[p].size});
      llvm::sort(busy);
      uint64_t align = std::max<int64_t>(item.alignment, 1);
      for (auto [begin, end] : busy) {
        if (offset + item.size <= begin)
          break;
        offset = std::max<int64_t>(offset, llvm::alignTo(end, align));
      }
    }
    arena.offsets[i] = offset;
    arena.arenaBytes = std::max(arena.arenaBytes, offset + item.size);
    placed.push_back(i);
  }
  computePeak(items, arena);
  return arena;
}

LdsProgramPlan waveasm::planLds(ProgramOp program,
                                const LdsPlanOptions &options,
                                llvm::ArrayRef<unsigned> pinned) {
  LdsProgramPlan plan;
  plan.info = collectLdsBuffers(program);
  plan.capacity = getTargetInfo(program.getTargetKind()).maxLDSBytes;
  plan.declaredBytes = program.getLdsSize();
  for (auto [i, buffer] : llvm::enumerate(plan.info.buffers)) {
    LdsPlanItem item;
    item.size = buffer.size();
    item.alignment = llvm::PowerOf2Ceil(
        std::max<int64_t>(options.alignment, buffer.accessAlignment));
    item.start = buffer.start;
    item.stop = buffer.stop;
    if (!buffer.movable || llvm::is_contained(pinned, unsigned(i)))
      item.fixedOffset = buffer.begin;
    plan.items.push_back(item);
    plan.originalBytes = std::max(plan.originalBytes, buffer.end);
  }
  plan.arena = planArena(plan.items);

  // Ping/pong: per loop, a second copy of each buffer the loop writes and
  // reads (a buffer that already rotates is double-buffered as written).
  std::map<unsigned, std::vector<unsigned>> byLoop;
  for (auto [i, buffer] : llvm::enumerate(plan.info.buffers))
    if (buffer.loop != ~0u && buffer.readAndWrittenInLoop && !buffer.rotating)
      byLoop[buffer.loop].push_back(i);
  for (auto &[loop, buffers] : byLoop) {
    LdsPingPong pingPong;
    pingPong.loop = loop;
    pingPong.buffers = buffers;
    std::vector<LdsPlanItem> items = plan.items;
    for (unsigned b : buffers) {
      LdsPlanItem copy = plan.items[b];
      copy.fixedOffset.reset();
      items.push_back(copy);
      pingPong.extraBytes += copy.size;
    }
    pingPong.arena = planArena(items);
    plan.pingPong.push_back(std::move(pingPong));
  }
  return plan;
}

std::string waveasm::describeLdsBuffer(const LdsProgramPlan &plan,
                                       unsigned buffer) {
  const LdsBuffer &b = plan.info.buffers[buffer];
  return "lds" + std::to_string(buffer) + " [" + std::to_string(b.begin) +
         ", " + std::to_string(b.end) + ")";
}

/// "file:line:col" of an op (through name and call-site wrappers).
static std::string describeLoc(Location loc) {
  std::string text;
  loc->walk([&](Location nested) {
    if (auto file = dyn_cast<FileLineColLoc>(nested)) {
      text = (file.getFilename().getValue() + ":" +
              llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

static llvm::json::Array indexArray(llvm::ArrayRef<unsigned> items) {
  llvm::json::Array out;
  for (unsigned i : items)
    out.push_back(int64_t(i));
  return out;
}

static llvm::json::Object arenaToJSON(const LdsProgramPlan &plan,
                                      const LdsArena &arena) {
  return llvm::json::Object{
      {"arena_bytes", arena.arenaBytes},
      {"peak_bytes", arena.peakBytes},
      {"fragmentation", std::round(arena.fragmentation() * 1000) / 1000},
      {"fits", arena.arenaBytes <= plan.capacity}};
}

llvm::json::Object waveasm::ldsPlanToJSON(ProgramOp program,
                                          const LdsProgramPlan &plan) {
  const LdsBufferInfo &info = plan.info;
  llvm::json::Array buffers;
  for (auto [i, buffer] : llvm::enumerate(info.buffers)) {
    llvm::json::Object b{
        {"id", int64_t(i)},
        {"name", "lds" + std::to_string(i)},
        {"offset", plan.arena.offsets[i]},
        {"original_offset", buffer.begin},
        {"size", buffer.size()},
        {"alignment", plan.items[i].alignment},
        {"lifetime",
         llvm::json::Array{int64_t(buffer.start), int64_t(buffer.stop)}},
        {"first_access", describeLoc(buffer.firstAccess->getLoc())},
        {"last_access", describeLoc(buffer.lastAccess->getLoc())},
        {"accesses", int64_t(buffer.accesses.size())},
        {"read", buffer.read},
        {"written", buffer.written},
        {"live_in", buffer.liveIn},
        {"rotating", buffer.rotating},
        {"movable", buffer.movable}};
    if (buffer.loop != ~0u)
      b["loop"] = describeLoc(info.ops[buffer.loop]->getLoc());
    buffers.push_back(std::move(b));
  }
  llvm::json::Array pingPong;
  for (const LdsPingPong &p : plan.pingPong) {
    llvm::json::Object entry = arenaToJSON(plan, p.arena);
    entry["loop"] = describeLoc(info.ops[p.loop]->getLoc());
    entry["buffers"] = indexArray(p.buffers);
    entry["extra_bytes"] = p.extraBytes;
    pingPong.push_back(std::move(entry));
  }
  llvm::json::Object out = arenaToJSON(plan, plan.arena);
  out["name"] = program.getSymName().str();
  out["target"] = getTargetInfo(program.getTargetKind()).name.str();
  out["capacity_bytes"] = plan.capacity;
  if (plan.declaredBytes)
    out["declared_bytes"] = *plan.declaredBytes;
  out["original_bytes"] = plan.originalBytes;
  out["complete"] = info.complete();
  if (!info.complete())
    out["unknown_access"] = describeLoc(info.unknownAccess->getLoc());
  out["peak_at"] = plan.arena.peakAt < info.ops.size()
                       ? describeLoc(info.ops[plan.arena.peakAt]->getLoc())
                       : std::string();
  out["live_at_peak"] = indexArray(plan.arena.liveAtPeak);
  out["buffers"] = std::move(buffers);
  out["ping_pong"] = std::move(pingPong);
  return out;
}
