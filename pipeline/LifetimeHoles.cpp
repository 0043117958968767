//===- LifetimeHoles.cpp - the gaps of a tie group the scan may lend ------===//

#include "pipeline/LifetimeHoles.h"

#include "llvm/ADT/STLExtras.h"

using namespace waveasm::regalloc;

GapsToHold waveasm::regalloc::findGapsToHold(LiveModel &model) {
  GapsToHold gaps;
  for (const LiveValue &info : model.values) {
    // Joined (loop and if results start at a read phase) and unread.
    if (info.live.start % 2 != 0 || !info.value.use_empty())
      continue;
    int32_t group = model.groupOfValue(info.value);
    if (group >= 0 && model.groups[group].occupancy.size() > 1)
      gaps[group].push_back(info.live.end);
  }
  return gaps;
}

IntervalSet waveasm::regalloc::pointsHeldBy(const IntervalSet &occupancy,
                                            llvm::ArrayRef<int64_t> holdAfter) {
  IntervalSet points;
  int64_t previousEnd = 0; // the previous part's end, in half-points
  for (const Interval &part : occupancy) {
    int64_t start = part.start >> 1, end = part.end >> 1;
    if (!points.empty()) {
      // A gap after a read (a read phase: an even half-point, not an unread
      // result's) that holds a whole point is lent; any other is held.
      Interval &last = points.back();
      if (previousEnd % 2 != 0 || start <= last.end + 1 ||
          llvm::is_contained(holdAfter, previousEnd)) {
        last.end = std::max(last.end, end);
        previousEnd = part.end;
        continue;
      }
    }
    points.push_back({start, end});
    previousEnd = part.end;
  }
  return points;
}
