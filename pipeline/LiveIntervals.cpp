//===- LiveIntervals.cpp - live ranges for linear-scan allocation ---------===//

#include "pipeline/LiveIntervals.h"

#include "analysis/TargetModel.h"
#include "ir/InstFacts.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::regalloc;

bool waveasm::regalloc::isPackableValue(Value value, RegClass packClass) {
  if (!isVirtualReg(value.getType()) ||
      getRegClass(value.getType()) != packClass)
    return false;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false; // block argument: tied to its loop's registers
  return !isa<ExtractOp, PackOp, InsertOp, LoopOp, IfOp, PrecoloredVRegOp,
              PrecoloredSRegOp, PrecoloredARegOp>(def);
}

std::optional<PrecoloredRange>
waveasm::regalloc::getPrecoloredRange(Operation *op) {
  // Precolored ops read nothing: most ops are rejected without a cast.
  if (!op || op->getNumOperands() != 0)
    return std::nullopt;
  auto range = [](auto pre, RegClass cls) {
    return PrecoloredRange{
        cls, static_cast<int64_t>(pre.getIndex()),
        std::max<int64_t>(static_cast<int64_t>(pre.getSize()),
                          getRegSize(pre.getType()))};
  };
  if (auto pre = dyn_cast<PrecoloredVRegOp>(op))
    return range(pre, RegClass::VGPR);
  if (auto pre = dyn_cast<PrecoloredSRegOp>(op))
    return range(pre, RegClass::SGPR);
  if (auto pre = dyn_cast<PrecoloredARegOp>(op))
    return range(pre, RegClass::AGPR);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Program points and intervals
//===----------------------------------------------------------------------===//

void LiveModel::adoptTrackedPhysical() {
  for (LiveValue &info : trackedPhysical) {
    valueIds[info.value] = static_cast<int32_t>(values.size());
    values.push_back(info);
  }
  trackedPhysical.clear();
  trackPhysicalClass.reset();
}

void LiveModel::buildIntervals() {
  numberOps();
  collectValues();
  computeIntervals();
}

void LiveModel::buildGroups() {
  buildAliases();
  buildRootGroups();
}

void LiveModel::numberOps(bool computeTied) {
  // Pre-order: an op, then the ops of its regions in order.
  struct Frame {
    Operation *owner;
    Block::iterator it, end;
  };
  SmallVector<Frame> stack;
  Block &top = program.getBody().front();
  stack.push_back({nullptr, top.begin(), top.end()});
  while (!stack.empty()) {
    Frame &frame = stack.back();
    if (frame.it == frame.end) {
      Operation *owner = frame.owner;
      stack.pop_back();
      // The owner's last region block is done; if more blocks remain they
      // were pushed below this frame already.
      if (owner && (stack.empty() || stack.back().owner != owner))
        regionEnd[owner] = static_cast<int64_t>(ops.size()) - 1;
      continue;
    }
    Operation &op = *frame.it++;
    ops.push_back(&op);
    if (computeTied) {
      InstFacts info = lookupInstFacts(&op);
      tied.push_back(info.unit == ExecUnit::MFMA ? info.tiedOperand : -1);
    }
    if (op.getNumRegions() == 0)
      continue;
    // Push the blocks in reverse so the first region's first block is on
    // top; every frame of this op carries it as owner.
    SmallVector<Block *> blocks;
    for (Region &region : op.getRegions())
      for (Block &block : region)
        blocks.push_back(&block);
    if (blocks.empty()) {
      regionEnd[&op] = static_cast<int64_t>(ops.size()) - 1;
      continue;
    }
    for (Block *block : llvm::reverse(blocks))
      stack.push_back({&op, block->begin(), block->end()});
  }
}

void LiveModel::collectValues() {
  // Most ops have one register result; scalar ops add an SCC result, which
  // is not collected.
  values.reserve(ops.size() + ops.size() / 2);
  valueIds.reserve(ops.size() + ops.size() / 2);
  for (auto [index, op] : llvm::enumerate(ops))
    collectOp(static_cast<int64_t>(index), op, /*deferredIds=*/nullptr);
}

int32_t LiveModel::addValue(Value value, const RegTypeInfo &type, int64_t defOp,
                            int64_t defPoint, bool joined,
                            IdList *deferredIds) {
  if (!type.cls || (onlyClass && *type.cls != *onlyClass))
    return -1;
  bool tracked = false;
  if (!includePhysical && !type.isVirtual()) {
    if (trackPhysicalClass != *type.cls)
      return -1;
    tracked = true;
  }
  LiveValue info;
  info.value = value;
  info.regClass = *type.cls;
  info.size = std::max<int64_t>(1, type.size);
  info.align = std::max<int64_t>(1, type.alignment);
  info.defOp = defOp;
  int64_t start = joined ? 2 * defPoint : 2 * defPoint + 1;
  info.live = {start, start};
  int32_t id = tracked ? -2 - static_cast<int32_t>(trackedPhysical.size())
                       : static_cast<int32_t>(values.size());
  if (deferredIds)
    deferredIds->push_back({value, id});
  else
    valueIds[value] = id;
  (tracked ? trackedPhysical : values).push_back(info);
  return tracked ? -1 : id;
}

void LiveModel::collectOp(int64_t idx, Operation *op, IdList *deferredIds) {
  // Registers named by physical types (loop and if results are their block
  // arguments' and yields' registers; pack, extract and insert results
  // alias their operands).
  auto notePhysical = [&](const RegTypeInfo &type) {
    if (type.cls && type.physicalIndex)
      noteRegisterName(*type.cls, *type.physicalIndex,
                       std::max<int64_t>(1, type.size));
  };
  // Each type is decoded once per value (both uses above read it).
  if (auto loop = dyn_cast<LoopOp>(op))
    if (!loop.getBody().empty())
      for (BlockArgument arg : loop.getBody().getArguments()) {
        RegTypeInfo type = getRegTypeInfo(arg.getType());
        addValue(arg, type, idx, idx, /*joined=*/false, deferredIds);
        notePhysical(type);
      }
  std::optional<PrecoloredRange> range = getPrecoloredRange(op);
  if (range)
    noteRegisterName(range->cls, range->index, range->size);
  // Loop and if results come into existence after the region: they are
  // `joined`, written by the copies at the region's end, i.e. before the
  // next op reads anything (half-point 2p, not 2p+1).
  bool joined = isa<LoopOp, IfOp>(op);
  bool namesRegisters =
      !range && !joined && !isa<PackOp, ExtractOp, InsertOp>(op);
  int64_t defPoint = joined ? regionEnd.lookup(op) + 1 : idx;
  for (Value result : op->getResults()) {
    RegTypeInfo type = getRegTypeInfo(result.getType());
    if (namesRegisters)
      notePhysical(type);
    int32_t id = addValue(result, type, idx, defPoint, joined, deferredIds);
    // A precolored op has one result, pinned to the op's index.
    if (range && id >= 0)
      values[id].fixed = values[id].precolored = range->index;
  }
}

void LiveModel::buildIntervalsAfterInsertions(LiveModel &previous) {
  numberOps(/*computeTied=*/false);
  // The ops `previous` numbered, in their order, and new ones between them;
  // an old op's MFMA operand is taken over, a new op's looked up.
  std::vector<int64_t> oldIndex(ops.size(), -1);
  std::vector<int64_t> newIndexOf(previous.ops.size(), -1);
  tied.resize(ops.size());
  size_t matched = 0;
  bool onlyInsertions = true;
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (matched < previous.ops.size() && op == previous.ops[matched]) {
      tied[index] = previous.tied[matched];
      newIndexOf[matched] = static_cast<int64_t>(index);
      oldIndex[index] = static_cast<int64_t>(matched++);
      continue;
    }
    InstFacts info = lookupInstFacts(op);
    tied[index] = info.unit == ExecUnit::MFMA ? info.tiedOperand : -1;
    if (op->getNumRegions() != 0)
      onlyInsertions = false;
  }
  if (!onlyInsertions || matched != previous.ops.size()) {
    collectValues();
    computeIntervals();
    return;
  }

  // Values in op order, as collectValues gives them: an old op's values
  // (consecutive in `previous`, by their defOp) renumbered, a new op's
  // collected. Intervals restart at their definition.
  values.reserve(previous.values.size() + ops.size() - matched);
  trackedPhysical.reserve(previous.trackedPhysical.size());
  for (unsigned c = 0; c < 3; ++c)
    registerNames[c] = std::move(previous.registerNames[c]);
  std::vector<int32_t> newId(previous.values.size());
  std::vector<int32_t> newTrackedId(previous.trackedPhysical.size());
  IdList fresh;
  size_t nextValue = 0, nextTracked = 0;
  // An old value's interval is renumbered: its end is a read phase 2q of
  // an old op q (a use, or the end of a loop around one, whose terminator
  // stays its last op), or its start when it is unused. The values whose
  // uses changed are recomputed below.
  auto takeOld = [&](std::vector<LiveValue> &from, size_t &next,
                     std::vector<int32_t> &ids, std::vector<LiveValue> &to,
                     int64_t oldOp, int64_t idx) {
    for (; next < from.size() && from[next].defOp == oldOp; ++next) {
      LiveValue info = from[next];
      bool joined = info.live.start % 2 == 0;
      int64_t start =
          joined ? 2 * (regionEnd.lookup(ops[idx]) + 1) : 2 * idx + 1;
      int64_t end =
          info.value.use_empty() ? start : 2 * newIndexOf[info.live.end / 2];
      info.defOp = idx;
      info.live = {start, end};
      info.parent = -1;
      info.offset = 0;
      info.fixed = info.precolored;
      info.group = -1;
      ids[next] = static_cast<int32_t>(to.size());
      to.push_back(info);
    }
  };
  for (auto [index, op] : llvm::enumerate(ops)) {
    int64_t idx = static_cast<int64_t>(index);
    if (oldIndex[index] < 0) {
      collectOp(idx, op, &fresh);
      continue;
    }
    takeOld(previous.values, nextValue, newId, values, oldIndex[index], idx);
    takeOld(previous.trackedPhysical, nextTracked, newTrackedId,
            trackedPhysical, oldIndex[index], idx);
  }
  // The old ids renumbered in place (no entry rehashed), then the new ones.
  valueIds = std::move(previous.valueIds);
  for (auto &entry : valueIds)
    entry.second = entry.second >= 0 ? newId[entry.second]
                                     : -2 - newTrackedId[-2 - entry.second];
  for (auto [value, id] : fresh)
    valueIds[value] = id;

  // Where the mapped intervals cannot be completed: every end again.
  auto recomputeAllEnds = [&] {
    for (LiveValue &info : values)
      info.live.end = info.live.start;
    for (LiveValue &info : trackedPhysical)
      info.live.end = info.live.start;
    computeIntervals();
  };
  // A loop's or an if's last op must be its old last op (copies go before
  // terminators), or renumbered loop ends would not be the new ones.
  for (auto [op, end] : previous.regionEnd) {
    auto it = regionEnd.find(op);
    if (it == regionEnd.end() || it->second != newIndexOf[end]) {
      recomputeAllEnds();
      return;
    }
  }
  // The values an inserted op reads (the copies' sources: every value that
  // lost a use to a copy is read by it) or defines: from their uses, whose
  // ops (and the loops around them) alone are looked up in the numbering.
  auto entryOf = [&](Value value) -> LiveValue * {
    auto it = valueIds.find(value);
    if (it == valueIds.end())
      return nullptr;
    return it->second >= 0 ? &values[it->second]
                           : &trackedPhysical[-2 - it->second];
  };
  // Each value once (several copies read the same source).
  llvm::SetVector<LiveValue *, SmallVector<LiveValue *>,
                  llvm::SmallPtrSet<LiveValue *, 16>>
      touched;
  llvm::DenseMap<Operation *, int64_t> indexOf;
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (oldIndex[index] >= 0)
      continue;
    auto touch = [&](Value value) {
      LiveValue *info = entryOf(value);
      if (!info || !touched.insert(info))
        return;
      for (Operation *user : value.getUsers())
        for (Operation *op = user; op && op != program; op = op->getParentOp())
          if (op == user || isa<LoopOp>(op))
            indexOf.try_emplace(op, -1);
    };
    for (Value operand : op->getOperands())
      touch(operand);
    for (Value result : op->getResults())
      touch(result);
  }
  for (auto [index, op] : llvm::enumerate(ops))
    if (auto it = indexOf.find(op); it != indexOf.end())
      it->second = static_cast<int64_t>(index);
  for (LiveValue *info : touched)
    if (!intervalEndFromUses(*info, indexOf)) {
      recomputeAllEnds();
      return;
    }
}

bool LiveModel::intervalEndFromUses(
    LiveValue &info,
    const llvm::DenseMap<Operation *, int64_t> &indexOf) const {
  int64_t end = info.live.start;
  for (Operation *user : info.value.getUsers()) {
    auto it = indexOf.find(user);
    if (it == indexOf.end() || it->second < 0)
      return false;
    int64_t use = it->second;
    // The outermost loop around the use that does not contain the
    // definition (computeIntervals' rule): walking outwards, the last one
    // before a loop that contains it.
    for (Operation *parent = user->getParentOp(); parent && parent != program;
         parent = parent->getParentOp()) {
      if (!isa<LoopOp>(parent))
        continue;
      auto loop = indexOf.find(parent);
      if (loop == indexOf.end() || loop->second < 0)
        return false;
      int64_t loopEnd = regionEnd.lookup(parent);
      if (info.defOp >= loop->second && info.defOp <= loopEnd)
        break;
      use = std::max(use, loopEnd);
    }
    end = std::max(end, 2 * use);
  }
  info.live.end = end;
  return true;
}

void LiveModel::noteRegisterName(RegClass cls, int64_t index, int64_t size) {
  std::vector<uint8_t> &names = registerNames[static_cast<unsigned>(cls)];
  if (index < 0)
    return;
  if (static_cast<int64_t>(names.size()) < index + size)
    names.resize(index + size, 0);
  for (int64_t r = index; r < index + size; ++r)
    names[r] = std::min<uint8_t>(names[r] + 1, 2);
}

bool LiveModel::ownsPrecoloredRegisters(int32_t id) const {
  const LiveValue &info = values[id];
  Operation *def = info.value.getDefiningOp();
  if (info.fixed < 0 || !def || def->getParentOfType<LoopOp>())
    return false;
  std::optional<PrecoloredRange> range = getPrecoloredRange(def);
  if (!range)
    return false;
  const std::vector<uint8_t> &names =
      registerNames[static_cast<unsigned>(range->cls)];
  if (static_cast<int64_t>(names.size()) < range->index + range->size)
    return false;
  return llvm::all_of(llvm::ArrayRef(names).slice(range->index, range->size),
                      [](uint8_t n) { return n == 1; });
}

void LiveModel::computeIntervals() {
  // Loops enclosing the current op, outermost first: (loop index, end).
  SmallVector<std::pair<int64_t, int64_t>, 8> loops;
  for (auto [index, op] : llvm::enumerate(ops)) {
    int64_t idx = static_cast<int64_t>(index);
    while (!loops.empty() && loops.back().second < idx)
      loops.pop_back();
    for (Value operand : op->getOperands()) {
      auto it = valueIds.find(operand);
      if (it == valueIds.end())
        continue;
      LiveValue &info = it->second >= 0 ? values[it->second]
                                        : trackedPhysical[-2 - it->second];
      int64_t use = idx;
      // The outermost enclosing loop that does not contain the definition:
      // the value is needed again on every iteration, so it lives to that
      // loop's end. (Loops containing the definition form a prefix.)
      for (auto [start, end] : loops)
        if (info.defOp < start || info.defOp > end) {
          use = std::max(use, end);
          break;
        }
      info.live.end = std::max(info.live.end, 2 * use);
    }
    if (isa<LoopOp>(op))
      loops.push_back({idx, regionEnd.lookup(op)});
  }
}

/// The load in flight into `value`'s registers when nothing reads them: a
/// VMEM load's result, or a loop result whose iter_arg such a load yields
/// (the prefetch a pipelined kernel's last step issues for an iteration
/// that does not exist); null otherwise.
static Operation *unreadLoad(Value value) {
  if (!value.use_empty())
    return nullptr;
  Operation *def = value.getDefiningOp();
  if (auto loop = dyn_cast_or_null<LoopOp>(def)) {
    ConditionOp cond = loop.getConditionOp();
    unsigned k = cast<OpResult>(value).getResultNumber();
    if (!cond || k >= cond.getIterArgs().size())
      return nullptr;
    def = cond.getIterArgs()[k].getDefiningOp();
  }
  if (!def)
    return nullptr;
  InstFacts facts = lookupInstFacts(def);
  bool vmem = facts.hasInfo && (facts.waitCounter == WaitCounter::VMCnt ||
                                facts.waitCounter == WaitCounter::VMAndLGKM);
  return vmem && def->getNumResults() ? def : nullptr;
}

SmallVector<std::pair<int32_t, int64_t>> LiveModel::reserveUnreadLoads() {
  SmallVector<std::pair<int32_t, int64_t>> previous;
  // A load writes its registers when it lands, not when it issues. A value
  // that is read is waited for at its reader, so its registers are free
  // after its interval; an unread one is waited for by nothing, and a
  // value given its registers right after it must wait for the load first
  // (a write-after-write wait of up to the load's latency: the nested
  // GEMM's last kernel left its dead prefetch's registers to the
  // epilogue's first LDS reads, which waited 57 slots for them). Its tie
  // group keeps the registers for the load's latency, counted in ops (each
  // takes at least one issue slot), within its block. Applied after the
  // ties: a later load into the same registers lands after it (VMEM
  // returns in order), so a tie need not avoid it.
  const TargetModel &model = TargetModel::get(program.getTargetKind());
  for (LiveValue &info : values) {
    Operation *load = unreadLoad(info.value);
    if (!load)
      continue;
    int32_t g = groupOfValue(info.value);
    if (g < 0)
      continue;
    TieGroup &group = groups[g];
    if (group.pinned >= 0 || group.occupancy.empty())
      continue;
    Operation *parent = info.value.getParentBlock()->getParentOp();
    int64_t blockEnd = isa<ProgramOp>(parent)
                           ? static_cast<int64_t>(ops.size()) - 1
                           : regionEnd.lookup(parent);
    int64_t last =
        std::min(blockEnd, info.live.start / 2 + model.getOpLatency(load));
    Interval &tail = group.occupancy.back();
    if (2 * last <= tail.end)
      continue;
    previous.push_back({g, tail.end});
    tail.end = 2 * last;
  }
  return previous;
}

void LiveModel::releaseUnreadLoads(
    ArrayRef<std::pair<int32_t, int64_t>> previous) {
  for (auto [g, end] : llvm::reverse(previous))
    groups[g].occupancy.back().end = end;
}

//===----------------------------------------------------------------------===//
// Aliases
//===----------------------------------------------------------------------===//

std::pair<int32_t, int64_t> LiveModel::resolve(int32_t id) {
  int64_t offset = 0;
  int32_t root = id;
  while (values[root].parent >= 0) {
    offset += values[root].offset;
    root = values[root].parent;
  }
  // Path compression.
  int64_t remaining = offset;
  int32_t cur = id;
  while (values[cur].parent >= 0) {
    int32_t next = values[cur].parent;
    int64_t step = values[cur].offset;
    values[cur].parent = root;
    values[cur].offset = remaining;
    remaining -= step;
    cur = next;
  }
  return {root, offset};
}

bool LiveModel::canInsertInPlace(InsertOp op, int64_t index) {
  // The insert overwrites one slot of its source's registers, so the source
  // must die at the insert and nothing else may alias those registers.
  Value source = op.getVector();
  int32_t id = idOf(source);
  if (id < 0 || !source.hasOneUse())
    return false;
  if (Operation *def = source.getDefiningOp()) {
    if (isa<ExtractOp>(def))
      return false;
    // SPEC.md 14.4 step 8: a precolored tuple is written in place too.
    // Upstream: always; here only when its registers are its own (nothing
    // else names them, and no loop runs its op again) and it dies here.
    if (isa<PrecoloredVRegOp, PrecoloredSRegOp, PrecoloredARegOp>(def) &&
        !ownsPrecoloredRegisters(id))
      return false;
    if (auto pack = dyn_cast<PackOp>(def))
      if (!llvm::all_of(pack.getElements(),
                        [](Value v) { return v.hasOneUse(); }))
        return false;
  }
  return values[id].live.end <= 2 * index;
}

void LiveModel::buildAliases() {
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (auto pack = dyn_cast<PackOp>(op)) {
      Value result = pack.getResult();
      int32_t resultId = idOf(result);
      std::optional<int64_t> physical = getPhysicalIndex(result.getType());
      std::optional<RegClass> cls = getRegClass(result.getType());
      int64_t offset = 0;
      for (auto [i, element] : llvm::enumerate(pack.getElements())) {
        int64_t size = getRegSize(element.getType());
        int32_t id = idOf(element);
        if (id >= 0) {
          LiveValue &info = values[id];
          bool placeable = cls && isPackableValue(element, *cls) &&
                           info.parent < 0 && info.fixed < 0 &&
                           (resultId >= 0 || physical);
          if (!placeable) {
            unplacedPackOperands.push_back({pack, static_cast<unsigned>(i)});
          } else if (resultId >= 0) {
            info.parent = resultId;
            info.offset = offset;
          } else {
            info.fixed = *physical + offset;
          }
        }
        offset += size;
      }
      continue;
    }
    if (auto extract = dyn_cast<ExtractOp>(op)) {
      int32_t id = idOf(extract.getResult());
      if (id < 0)
        continue;
      Value source = extract.getSource();
      int64_t index = static_cast<int64_t>(extract.getIndex());
      if (int32_t sourceId = idOf(source); sourceId >= 0) {
        values[id].parent = sourceId;
        values[id].offset = index;
      } else if (std::optional<int64_t> physical =
                     getPhysicalIndex(source.getType())) {
        values[id].fixed = *physical + index;
      }
      continue;
    }
    if (auto insert = dyn_cast<InsertOp>(op)) {
      int32_t id = idOf(insert.getResult());
      if (id < 0)
        continue;
      if (canInsertInPlace(insert, static_cast<int64_t>(index))) {
        values[id].parent = idOf(insert.getVector());
        values[id].offset = 0;
      } else {
        inexactInserts.push_back(insert);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Tie groups
//===----------------------------------------------------------------------===//

void LiveModel::buildRootGroups() {
  groups.reserve(values.size());
  for (int32_t id = 0, e = static_cast<int32_t>(values.size()); id < e; ++id) {
    auto [root, offset] = resolve(id);
    LiveValue &rootInfo = values[root];
    if (rootInfo.fixed >= 0) {
      fixedOccupancy[root].push_back(values[id].live);
      continue;
    }
    if (rootInfo.group < 0) {
      rootInfo.group = static_cast<int32_t>(groups.size());
      groups.push_back({rootInfo.regClass,
                        rootInfo.size,
                        rootInfo.align,
                        rootInfo.group,
                        {}});
    }
    groups[rootInfo.group].occupancy.push_back(values[id].live);
  }
  for (TieGroup &group : groups)
    normalize(group.occupancy);
  for (auto &entry : fixedOccupancy)
    normalize(entry.second);
}

void LiveModel::normalize(IntervalSet &set) {
  // Most groups hold one value: nothing to sort or merge.
  if (set.size() < 2)
    return;
  llvm::sort(set, [](const Interval &a, const Interval &b) {
    return a.start < b.start;
  });
  size_t out = 0;
  for (size_t i = 1; i < set.size(); ++i) {
    if (set[i].start <= set[out].end + 1)
      set[out].end = std::max(set[out].end, set[i].end);
    else
      set[++out] = set[i];
  }
  if (!set.empty())
    set.resize(out + 1);
}

int32_t LiveModel::findGroup(int32_t group) {
  int32_t root = group;
  while (groups[root].parent != root)
    root = groups[root].parent;
  while (groups[group].parent != root) {
    int32_t next = groups[group].parent;
    groups[group].parent = root;
    group = next;
  }
  return root;
}

int32_t LiveModel::groupOfValue(Value value) {
  int32_t id = idOf(value);
  if (id < 0)
    return -1;
  int32_t root = resolve(id).first;
  if (values[root].fixed >= 0 || values[root].group < 0)
    return -1;
  return findGroup(values[root].group);
}

bool waveasm::regalloc::intersects(llvm::ArrayRef<Interval> a,
                                   llvm::ArrayRef<Interval> b) {
  llvm::ArrayRef<Interval> small = a.size() <= b.size() ? a : b;
  llvm::ArrayRef<Interval> large = a.size() <= b.size() ? b : a;
  if (small.empty() || large.empty())
    return false;
  if (small.back().end < large.front().start ||
      large.back().end < small.front().start)
    return false;
  for (const Interval &iv : small) {
    // First interval of `large` ending at or after iv.start (ends are
    // sorted because the intervals are disjoint and sorted).
    auto it = std::partition_point(
        large.begin(), large.end(),
        [&](const Interval &other) { return other.end < iv.start; });
    if (it != large.end() && it->start <= iv.end)
      return true;
  }
  return false;
}

void LiveModel::mergeInto(IntervalSet &into, const IntervalSet &from) {
  // `from` is the smaller set; the sets are disjoint (checked by the
  // caller), so each interval goes into a gap of `into` and merges with its
  // neighbours when adjacent.
  for (const Interval &iv : from) {
    auto it = std::partition_point(
        into.begin(), into.end(),
        [&](const Interval &other) { return other.start < iv.start; });
    bool joinsPrev = it != into.begin() && std::prev(it)->end + 1 >= iv.start;
    bool joinsNext = it != into.end() && iv.end + 1 >= it->start;
    if (joinsPrev && joinsNext) {
      std::prev(it)->end = std::max(it->end, iv.end);
      into.erase(it);
    } else if (joinsPrev) {
      std::prev(it)->end = std::max(std::prev(it)->end, iv.end);
    } else if (joinsNext) {
      it->start = std::min(it->start, iv.start);
      it->end = std::max(it->end, iv.end);
    } else {
      into.insert(it, iv);
    }
  }
}

bool LiveModel::mfmaReadsGroup(int32_t id, int32_t groupA, int32_t groupB) {
  // An MFMA reads A/B (and scales) over several passes while it writes its
  // destination: those operands must not share the destination's registers
  // (only the accumulator may).
  // A result's defOp is its op; a block argument's is its loop, which is
  // no MFMA: the table answers most values without their op.
  int tied = tiedOperandAt(values[id].defOp);
  if (tied < 0)
    return false;
  Operation *def = values[id].value.getDefiningOp();
  if (!def)
    return false;
  for (auto [i, operand] : llvm::enumerate(def->getOperands())) {
    if (static_cast<int>(i) == tied)
      continue;
    int32_t group = groupOfValue(operand);
    if (group >= 0 && (group == groupA || group == groupB))
      return true;
  }
  return false;
}

bool LiveModel::tryTie(Value a, Value b) {
  int32_t idA = idOf(a), idB = idOf(b);
  if (idA < 0 || idB < 0)
    return false;
  auto [rootA, offsetA] = resolve(idA);
  auto [rootB, offsetB] = resolve(idB);
  LiveValue &ra = values[rootA], &rb = values[rootB];
  if (offsetA != 0 || offsetB != 0 || ra.fixed >= 0 || rb.fixed >= 0 ||
      ra.regClass != rb.regClass || ra.size != rb.size ||
      values[idA].size != ra.size || values[idB].size != rb.size)
    return false;
  int32_t ga = findGroup(ra.group), gb = findGroup(rb.group);
  if (ga == gb)
    return true;
  if (groups[ga].pinned >= 0 && groups[gb].pinned >= 0)
    return false;
  if (intersects(groups[ga].occupancy, groups[gb].occupancy))
    return false;
  // A group pinned into precolored registers shares them with every value
  // of that precolored tree.
  int32_t pinned = groups[ga].pinned >= 0 ? ga : gb;
  int32_t other = pinned == ga ? gb : ga;
  IntervalSet *pinnedOccupancy = nullptr;
  if (groups[pinned].pinned >= 0) {
    pinnedOccupancy = &fixedOccupancy[groups[pinned].pinRoot];
    if (intersects(*pinnedOccupancy, groups[other].occupancy))
      return false;
  }
  if (mfmaReadsGroup(idA, ga, gb) || mfmaReadsGroup(idB, ga, gb))
    return false;
  if (pinnedOccupancy)
    mergeInto(*pinnedOccupancy, groups[other].occupancy);
  // Union by size of the interval lists.
  if (groups[ga].occupancy.size() < groups[gb].occupancy.size())
    std::swap(ga, gb);
  mergeInto(groups[ga].occupancy, groups[gb].occupancy);
  groups[gb].occupancy = IntervalSet();
  groups[gb].parent = ga;
  groups[ga].align = std::max(groups[ga].align, groups[gb].align);
  if (groups[gb].pinned >= 0) {
    groups[ga].pinned = groups[gb].pinned;
    groups[ga].pinRoot = groups[gb].pinRoot;
  }
  return true;
}

// Upstream: ties the result to any accumulator; here the precolored
// contents must be dead and the registers the accumulator's alone.
bool LiveModel::tryPin(Value dst, Value acc, Operation *mfma) {
  int32_t idDst = idOf(dst), idAcc = idOf(acc);
  if (idDst < 0 || idAcc < 0)
    return false;
  auto [rootDst, offsetDst] = resolve(idDst);
  auto [rootAcc, offsetAcc] = resolve(idAcc);
  const LiveValue &rd = values[rootDst], &ra = values[rootAcc];
  if (offsetDst != 0 || rd.fixed >= 0 || values[idDst].size != rd.size ||
      ra.regClass != rd.regClass || values[idAcc].size != rd.size ||
      !ownsPrecoloredRegisters(rootAcc))
    return false;
  int32_t group = findGroup(rd.group);
  if (groups[group].pinned >= 0)
    return false;
  IntervalSet &occupancy = fixedOccupancy[rootAcc];
  if (intersects(occupancy, groups[group].occupancy))
    return false;
  // A/B (and scales) are read while the destination is written: none may
  // live in the precolored registers or in the destination's group.
  int tied = tiedOperandAt(values[idDst].defOp);
  for (OpOperand &operand : mfma->getOpOperands()) {
    if (static_cast<int>(operand.getOperandNumber()) == tied)
      continue;
    int32_t id = idOf(operand.get());
    if (id >= 0 &&
        (resolve(id).first == rootAcc || groupOfValue(operand.get()) == group))
      return false;
  }
  mergeInto(occupancy, groups[group].occupancy);
  groups[group].pinned = ra.fixed + offsetAcc;
  groups[group].pinRoot = rootAcc;
  return true;
}
