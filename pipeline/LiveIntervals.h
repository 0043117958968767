//===- LiveIntervals.h - live ranges for linear-scan allocation -*- C++ -*-===//
//
// The allocation-specific liveness of SPEC.md 14.1-14.3: program points,
// live intervals of virtual register values, register aliasing (pack,
// extract, insert) and tie groups (values that must share registers).
//
// Program points are the ops of a program in pre-order. Every point p has a
// read phase (half-point 2p) and a write phase (2p + 1): a value defined at p
// and last read at q occupies the closed half-point interval [2p+1, 2q]
// ([2p+1, 2p+1] when it is never read). Loop block arguments are defined at
// the loop op (after it reads the inits). Loop and if results are written at
// the end of the region, before the next op p reads: they start at 2p.
//
// Two values may share a register when their intervals are disjoint, which
// lets a result reuse the register of an operand that dies at the same op;
// only tie groups use that (the general linear scan works on whole points
// and never reuses a register read at the point where a result is defined,
// as upstream).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_LIVEINTERVALS_H
#define WAVEASM_PIPELINE_LIVEINTERVALS_H

#include "ir/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace waveasm::regalloc {

/// mlir::Value keys hashed as DenseMap hashes pointers (a shift and an
/// xor): Value's own DenseMapInfo hashes its pointer in full, which cost
/// more than the rest of a lookup in the allocator's models. The key is the
/// same; only the buckets' order differs.
struct ValuePointerInfo : llvm::DenseMapInfo<mlir::Value> {
  static unsigned getHashValue(mlir::Value value) {
    return llvm::DenseMapInfo<void *>::getHashValue(value.getAsOpaquePointer());
  }
};

/// Closed interval of half-points.
struct Interval {
  int64_t start;
  int64_t end;
};

/// Sorted, disjoint, non-adjacent intervals (usually one or two).
using IntervalSet = llvm::SmallVector<Interval, 2>;

/// True if two sorted lists of disjoint closed intervals share a point.
bool intersects(llvm::ArrayRef<Interval> a, llvm::ArrayRef<Interval> b);

/// A virtual register value of the program.
struct LiveValue {
  mlir::Value value;
  RegClass regClass;
  int64_t size;
  int64_t align;
  /// Index of the defining op (the loop op for loop block arguments).
  int64_t defOp;
  /// Live interval, with the loop rule of SPEC.md 14.2 applied (a value
  /// defined outside a loop and used inside lives until the loop's end).
  Interval live;
  /// Alias forest: the value lives at `parent`'s register + `offset`
  /// (pack operands, extract and insert results).
  int32_t parent = -1;
  int64_t offset = 0;
  /// For a root: physical register it is pinned to (precolored), or -1.
  int64_t fixed = -1;
  /// For a root that is not pinned: its tie group.
  int32_t group = -1;
  /// The register a precolored op pins it to (`fixed` before the aliases
  /// are built), or -1.
  int64_t precolored = -1;
};

/// Values sharing one register range: the union of their intervals.
struct TieGroup {
  RegClass regClass;
  int64_t size;
  int64_t align;
  int32_t parent;
  /// Sorted, disjoint and non-adjacent half-point intervals.
  IntervalSet occupancy;
  /// Pinned into the registers of a precolored value (an MFMA result in
  /// its accumulator's registers): the first register, and that value's id.
  int64_t pinned = -1;
  int32_t pinRoot = -1;
};

/// True if `value` may live inside the registers of a pack (SPEC.md 14.2):
/// a virtual result of an ordinary op of the pack's register class. Values
/// that already alias other registers (extract, pack, insert results), loop
/// and if results (tied to their block arguments/yields), block arguments
/// and precolored values get a copy instead.
bool isPackableValue(mlir::Value value, RegClass packClass);

/// The registers a precolored op names (and the allocator reserves): its
/// index and the larger of its `size` attribute and its type's size; none
/// for other ops (and for null).
struct PrecoloredRange {
  RegClass cls;
  int64_t index;
  int64_t size;
};
std::optional<PrecoloredRange> getPrecoloredRange(mlir::Operation *op);

class LiveModel {
public:
  explicit LiveModel(ProgramOp program) : program(program) {}

  /// Numbers the ops and computes the live intervals.
  void buildIntervals();
  /// The same on a program that differs from the one `previous` (built with
  /// the same options) numbered only by ops inserted since, without
  /// regions, none after a region's last op, and by operands set anew to
  /// values of inserted ops that read the value they replace (the
  /// allocator's copies between its rounds): the result is buildIntervals',
  /// but the values of the ops `previous` numbered are taken from it,
  /// renumbered (their ids moved in place, their intervals mapped to the new
  /// points), instead of being decoded and hashed again, and only the
  /// values an inserted op reads or defines get their intervals from their
  /// uses. An op gone, one with regions added or a region whose last op
  /// changed is detected and built from scratch. `previous` is left
  /// moved-from.
  void buildIntervalsAfterInsertions(LiveModel &previous);
  /// Also give intervals to physical register values (set before
  /// buildIntervals; VGPR compaction works on allocated programs). The
  /// groups below are for virtual values only.
  bool includePhysical = false;
  /// Collect the values of this class only (set before buildIntervals):
  /// VGPR compaction moves VGPRs alone, and an interval depends on nothing
  /// but its own value's definition and uses, so the others' intervals would
  /// be built for nothing. Not for allocation (its groups span classes).
  std::optional<RegClass> onlyClass;
  /// Also give intervals to the physical values of this class, kept apart
  /// from `values` (set before buildIntervals, without includePhysical):
  /// the allocator's model stays over virtual values (its groups, ids and
  /// idOf unchanged) while VGPR compaction, which needs the physical VGPRs
  /// too, takes the model over afterwards (adoptTrackedPhysical) instead
  /// of numbering the allocated program again.
  std::optional<RegClass> trackPhysicalClass;
  /// Appends the tracked physical values to `values` (ids after the
  /// others', which stay as they are) and includes them in idOf, as if the
  /// model had been built with includePhysical: once the allocator has
  /// rewritten its values' types, every value of that class in the program
  /// has its interval here.
  void adoptTrackedPhysical();
  /// Then: the alias forest and one tie group per unpinned root.
  void buildGroups();

  /// After the ties: the tie group of a value whose registers a load
  /// writes and nothing reads keeps them while the load may still land
  /// (its latency in ops, within its block), so no other value is given
  /// them to wait for it. Returns what releaseUnreadLoads undoes: (group,
  /// previous end of its occupancy).
  llvm::SmallVector<std::pair<int32_t, int64_t>> reserveUnreadLoads();
  void releaseUnreadLoads(llvm::ArrayRef<std::pair<int32_t, int64_t>> previous);

  /// Index of the last op nested in a loop or if.
  int64_t regionEndOf(mlir::Operation *op) const {
    return regionEnd.lookup(op);
  }
  /// Id of a virtual register value, or -1.
  int32_t idOf(mlir::Value value) const {
    auto it = valueIds.find(value);
    return it == valueIds.end() || it->second < 0 ? -1 : it->second;
  }
  /// Root of the alias tree of `id` and the offset of `id` in it.
  std::pair<int32_t, int64_t> resolve(int32_t id);
  /// Representative of a tie group.
  int32_t findGroup(int32_t group);
  /// The tie group of a value, or -1 when it is pinned or not virtual.
  int32_t groupOfValue(mlir::Value value);

  /// Ties `a` and `b` to one register range if both are unpinned roots of
  /// equal class and size (offset 0 in their alias trees), their groups'
  /// intervals are disjoint (and, for a group pinned into precolored
  /// registers, disjoint from every value there), and no MFMA would read a
  /// non-accumulator operand from its own destination. Returns true when
  /// they share.
  bool tryTie(mlir::Value a, mlir::Value b);
  /// Puts the result `dst` of `mfma` into the registers of its accumulator
  /// `acc`, a precolored value or a part of one (SPEC.md 14.3: the MFMA tie
  /// result -> acc, precolored accumulators included), if the precolored
  /// registers are `acc`'s alone (ownsPrecoloredRegisters), no value living
  /// in them is live where `dst`'s group is, and no A/B operand comes from
  /// them. Returns true when pinned.
  bool tryPin(mlir::Value dst, mlir::Value acc, mlir::Operation *mfma);
  /// True if `id` is a precolored value whose registers (by its `size`
  /// attribute and type) no other value of the program names -- no other
  /// precolored op, no physical result or block argument -- and that is not
  /// inside a loop (where its op would name the ABI contents again on every
  /// iteration). Only then may its registers be written while its program
  /// runs (an insert in place, an MFMA result).
  bool ownsPrecoloredRegisters(int32_t id) const;

  ProgramOp program;
  std::vector<mlir::Operation *> ops;
  llvm::DenseMap<mlir::Operation *, int64_t> regionEnd;
  std::vector<LiveValue> values;
  /// Ids of `values`; a tracked physical value k (trackPhysicalClass) is
  /// entered as -2 - k, which idOf answers as -1.
  llvm::DenseMap<mlir::Value, int32_t, ValuePointerInfo> valueIds;
  /// The physical values of trackPhysicalClass, with their intervals.
  std::vector<LiveValue> trackedPhysical;
  std::vector<TieGroup> groups;
  /// Inserts whose source is still needed after them (they cannot update
  /// the source's registers in place).
  llvm::SmallVector<InsertOp> inexactInserts;
  /// Pack operands that could not be placed in the pack's registers.
  llvm::SmallVector<std::pair<PackOp, unsigned>> unplacedPackOperands;

private:
  using IdList = llvm::SmallVector<std::pair<mlir::Value, int32_t>>;
  /// With `computeTied` false, `tied` is left for the caller to fill.
  void numberOps(bool computeTied = true);
  void collectValues();
  /// Collects the values op `idx` defines; their ids go to `deferredIds`
  /// when given, else into valueIds.
  void collectOp(int64_t idx, mlir::Operation *op, IdList *deferredIds);
  /// Adds one value (see collectOp); its id, or -1 when it is not among
  /// `values` (not collected, or tracked).
  int32_t addValue(mlir::Value value, const RegTypeInfo &type, int64_t defOp,
                   int64_t defPoint, bool joined, IdList *deferredIds);
  void noteRegisterName(RegClass cls, int64_t index, int64_t size);
  void computeIntervals();
  /// The end of `info`'s interval from its uses, as computeIntervals finds
  /// it, given the index of each user and of each loop around one; false
  /// if one is missing.
  bool intervalEndFromUses(
      LiveValue &info,
      const llvm::DenseMap<mlir::Operation *, int64_t> &indexOf) const;
  void buildAliases();
  void buildRootGroups();
  bool canInsertInPlace(InsertOp op, int64_t index);
  bool mfmaReadsGroup(int32_t id, int32_t groupA, int32_t groupB);

public:
  /// The tied (accumulator) operand of the MFMA at op index `index`, or -1.
  int tiedOperandAt(int64_t index) const { return tied[index]; }

private:
  std::vector<int8_t> tied; // per op, read once (see tiedOperandAt)
  /// Per class and physical register: how many values name it (precolored
  /// ops, physical results and block arguments), saturated at 2.
  std::vector<uint8_t> registerNames[3];
  /// Per pinned root (precolored value): the intervals of every value living
  /// in its registers (its alias tree and the groups pinned there).
  llvm::DenseMap<int32_t, IntervalSet> fixedOccupancy;
  static void mergeInto(IntervalSet &into, const IntervalSet &from);
  /// Sorts `set` and merges overlapping or adjacent intervals.
  static void normalize(IntervalSet &set);
};

} // namespace waveasm::regalloc

#endif // WAVEASM_PIPELINE_LIVEINTERVALS_H
