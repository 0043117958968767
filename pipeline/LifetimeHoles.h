//===- LifetimeHoles.h - the gaps of a tie group the scan may lend -*- C++ -*-//
//
// A tie group (LiveIntervals.h) is the union of its members' intervals.
// Between two of them its registers may hold nothing: a loop-carried value
// is dead between its last read in the body and the definition of the
// value the yield carries into the same registers (a prefetch's load, an
// accumulator's update), and an if result's then-yield is dead over the
// else region. The linear scan lends such a gap (a lifetime hole) to other
// values that live entirely inside it.
//
// Upstream: a tied class occupies its registers over the envelope of its
// ranges (SPEC.md 14.3: block arguments extended to the loop's terminator),
// so nothing else may use a loop-carried value's registers over the whole
// loop. Here the gaps are free: the deepened 8-buffer preshuffle kernel's
// carried B fragments and scales left 40 VGPRs idle that way.
//
// A gap is lent only when the member before it ends at a read: a value
// nothing reads may still have a load landing in its registers (an unread
// block argument whose next value a load yields, a pipelined kernel's
// result prefetched for an iteration that does not exist), which a value
// given them would have to wait for. A read ends at a read phase (an even
// half-point), an unread result of an op at its write phase (odd); an
// unread loop or if result, written before the next op reads, ends at an
// even half-point too, so its group names it (findGapsToHold).
// (LiveModel::reserveUnreadLoads still keeps such a result's registers for
// the load's latency when it is the group's last member.) And a gap must
// hold a whole program point, since the scan works on points and never
// gives a value the registers an op reads at the point the value is
// defined (nor those of a value defined at its last read).
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_LIFETIMEHOLES_H
#define WAVEASM_PIPELINE_LIFETIMEHOLES_H

#include "pipeline/LiveIntervals.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

namespace waveasm::regalloc {

/// Per tie group: the half-points where an unread loop or if result of the
/// group ends (its start), after which no gap is lent.
using GapsToHold = llvm::DenseMap<int32_t, llvm::SmallVector<int64_t, 2>>;
GapsToHold findGapsToHold(LiveModel &model);

/// The program points (closed, sorted, disjoint) over which a group whose
/// half-point occupancy is `occupancy` (sorted, disjoint, non-empty) holds
/// its registers: its envelope, less the gaps the scan may lend (none after
/// a part ending at one of `holdAfter`).
IntervalSet pointsHeldBy(const IntervalSet &occupancy,
                         llvm::ArrayRef<int64_t> holdAfter);

} // namespace waveasm::regalloc

#endif // WAVEASM_PIPELINE_LIFETIMEHOLES_H
