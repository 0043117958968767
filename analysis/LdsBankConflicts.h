//===- LdsBankConflicts.h - LDS bank conflicts of ds accesses ---*- C++ -*-===//
//
// Per ds_read*/ds_write* op, the LDS bank conflict it causes, when its
// per-lane address is a known function of the thread id.
//
// Addresses.  The address operand's SSA chain is evaluated for every thread
// of the workgroup (its `workgroup_size`, one wave without one), starting
// from the ABI's thread-id VGPR (`precolored.vreg` of `abi.tid`, the packed
// id x | y << 10 | z << 20 the simulator delivers too) and constants,
// through the integer VALU ops that compute addresses (add, sub, add3,
// shifts, mul, lshl_add, lshl_or, mad_u32_u24, and, or, xor, bfe, mov). An
// SGPR value the chain cannot compute (a workgroup id, a kernel argument, a
// loop's buffer rotation) is a per-wave unknown constant `U`: it shifts
// every lane's address by the same amount, which permutes the banks and so
// never changes the conflict, as long as only +, - and multiplications or
// shifts by wave-uniform amounts touch it (anything else: unknown). A loop
// block argument is its init while each iteration adds a per-wave constant
// (checked on the yielded value); otherwise unknown. Whatever else (a
// loaded value, another precolored VGPR, an if result) makes the access
// "unknown", with the reason: never a guess.
//
// Hardware model.  Banks are 4 bytes wide, `getLdsBankModel` of them: 64
// on gfx942/gfx950 per SCHEDULING-FACTS.md; SPEC.md 12.1 (upstream's unused
// attribute data, ir/TargetInfo.h's ldsBanks) says 32 there, and on
// gfx1250, where SCHEDULING-FACTS.md has no entry, its 32 is used.
// SCHEDULING-FACTS.md and SPEC.md are silent on how b64/b128 accesses are
// serviced; the model here follows the CDNA3 ISA guide's LDS description as
// LLVM's AMDGPU documentation and AMD's LDS bank-conflict notes restate it: per
// clock the LDS moves one dword per bank, so a wave's access is serviced in
// phases of consecutive lanes that together request banks x 4 bytes (banks
// lanes for b32 and narrower, banks / 2 for b64, banks / 4 for b128), and
// within a phase a bank serving d distinct dwords takes d clocks (lanes reading
// the same dword are one broadcast). A phase's degree is that maximum d; the
// access's clocks are the sum over its phases, at least `minClocks`
// (SCHEDULING-FACTS.md: 2 clocks best case, 64 with a 64-way conflict on 64
// banks; the sum reproduces both points). The extra clocks over a conflict-free
// access of the same width become issue slots, rounded up, which the cycle
// model adds to the op's latency and to the LDS pipe (CycleModel.h).
// ds_read2/ds_write2 (`offset0`/`offset1` in elements, or the byte `offset`
// and the element after it, as the emitter writes them) cost their two
// element accesses one after the other: the sum of both, against the sum of
// both conflict-free.
//
// Cost: each value on an address chain is evaluated once per program, one
// 32-bit word per thread of the workgroup.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_LDSBANKCONFLICTS_H
#define WAVEASM_ANALYSIS_LDSBANKCONFLICTS_H

#include "analysis/ProgramIndex.h"
#include "analysis/TargetModel.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace waveasm {

/// The target's LDS banks (of 4 bytes) and the clocks of an access without
/// a conflict (header: "Hardware model").
struct LdsBankModel {
  unsigned banks = 64;
  int64_t minClocks = 2;
};
LdsBankModel getLdsBankModel(const TargetModel &target);

/// The cost of one wave's LDS access, from its lanes' byte addresses.
struct LdsBankCost {
  unsigned degree = 1;     // worst phase: distinct dwords one bank serves
  unsigned phases = 0;     // phases with an active lane
  int64_t clocks = 0;      // sum of the phases' degrees, at least ldsMinClocks
  int64_t idealClocks = 0; // the same access without a conflict
  int64_t extraClocks() const { return clocks - idealClocks; }
  /// Adds the second element of a ds_read2/ds_write2 pair: its phases run
  /// after the first's.
  void addPairedElement(const LdsBankCost &second) {
    degree = std::max(degree, second.degree);
    phases += second.phases;
    clocks += second.clocks;
    idealClocks += second.idealClocks;
  }
};

/// The bank cost of an access of `bytesPerLane` (1, 2, 4, 8 or 16) by the
/// lanes in `activeMask` at `addresses[lane]` (byte addresses, the op's
/// offset included) on `banks` banks of 4 bytes.
LdsBankCost computeLdsBankCost(llvm::ArrayRef<uint32_t> addresses,
                               uint64_t activeMask, unsigned bytesPerLane,
                               unsigned banks, int64_t minClocks);

/// Extra issue slots of `extraClocks` LDS clocks (rounded up).
int64_t ldsExtraSlots(int64_t extraClocks);

/// One ds op's analysis.
struct LdsAccessInfo {
  mlir::Operation *op = nullptr;
  bool known = false;
  std::string whyUnknown; // when !known
  unsigned bytesPerLane = 0;
  /// The worst wave of the workgroup.
  LdsBankCost cost;
  int64_t extraSlots = 0;
  /// Wave 0's address pattern: lane 0's address (without the per-wave
  /// unknown) and the byte stride between consecutive lanes when every
  /// active lane is at lane0 + lane * stride.
  int64_t lane0Address = 0;
  std::optional<int64_t> laneStride;
  bool perWaveUnknown = false; // + an SGPR term the analysis cannot see
  /// A few of wave 0's lane addresses, for a pattern that is not affine.
  std::vector<uint32_t> firstLanes;
};

/// A stride constant of an address chain whose change removes or lowers the
/// conflict: `op` multiplies (or shifts) by `fromBytes`; with `toBytes` the
/// access is `degree`-way.
struct LdsPaddingHint {
  mlir::Operation *op = nullptr;
  int64_t fromBytes = 0;
  int64_t toBytes = 0;
  unsigned degree = 1;
};

class LdsBankConflicts {
public:
  LdsBankConflicts(const ProgramIndex &index, const TargetModel &target);
  ~LdsBankConflicts();

  /// The analysis of op `idx`; null for ops that are not ds_read*/ds_write*.
  const LdsAccessInfo *lookup(unsigned idx) const;
  const LdsAccessInfo *lookup(mlir::Operation *op) const;
  /// Every analysed ds op, in program order.
  llvm::ArrayRef<LdsAccessInfo> getAccesses() const { return accesses; }
  unsigned getWaveSize() const { return waveSize; }
  const LdsBankModel &getModel() const { return model; }
  unsigned getNumThreads() const { return numThreads; }

  /// For a conflicting known access: the stride constant of its address
  /// chain, and the smallest padding of it (a multiple of the access width,
  /// at most a quarter of the stride or one access width) that lowers the
  /// worst degree the most; nullopt if no stride constant or no padding
  /// helps. Re-evaluates the chain.
  std::optional<LdsPaddingHint>
  suggestPadding(const LdsAccessInfo &access) const;

  class Evaluator;

private:
  const ProgramIndex &index;
  const TargetModel &target;
  LdsBankModel model;
  unsigned waveSize = 64;
  unsigned numThreads = 64;
  std::vector<LdsAccessInfo> accesses;
  std::vector<unsigned> slotOf; // op idx -> position in accesses, or ~0u
  std::unique_ptr<Evaluator> evaluator;
};

/// "lane × 16 B + 4096 B (+ SGPR)" or the first lanes' addresses.
std::string describeLdsPattern(const LdsAccessInfo &access);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_LDSBANKCONFLICTS_H
