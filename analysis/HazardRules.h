//===- HazardRules.h - which producer/consumer pairs need wait states -*- C++
//-*-===//
//
// The software hazards of SCHEDULING-FACTS.md as rules over the numbers of
// TargetModel.h: what record a result leaves (HazardSource), how an op reads
// an operand (HazardReader), and the wait states a pair needs. One set of
// rules for the pass that inserts s_nop (pipeline/HazardMitigation.cpp) and
// the simulator that gives a too-early read the stale value (sim/), so the
// simulator checks the pass against the same table rather than a copy.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_ANALYSIS_HAZARDRULES_H
#define WAVEASM_ANALYSIS_HAZARDRULES_H

#include "analysis/TargetModel.h"
#include "ir/InstFacts.h"
#include "ir/RegisterTypes.h"

#include <optional>

namespace waveasm {

/// What a recent instruction did to a register.
enum class HazardSource : uint8_t {
  Trans,     // a transcendental VALU op wrote it
  ValuVGPR,  // a VALU op wrote it (vector register)
  ValuSGPR,  // a VALU op wrote it (SGPR or VCC)
  SaluM0,    // an SALU op wrote M0
  MFMA,      // an MFMA wrote it
  StoreData, // a 3-4 dword VMEM store read it as data
};

/// How an op reads one of its operands.
struct HazardReader {
  ExecUnit unit = ExecUnit::None;
  bool trans = false;
  bool readLaneSource = false; // VGPR source of v_readfirstlane/v_readlane
  bool laneSelect = false;     // lane operand of v_readlane/v_writelane
  bool mfmaAcc = false;        // SrcC of the reading MFMA
  bool isVector() const {
    return unit == ExecUnit::VALU || unit == ExecUnit::MFMA;
  }
};

/// getHazardReader and isWrittenOperand for every operand of one op, its
/// class looked at once (the hazard pass asks them of every operand).
class OperandHazardReaders {
public:
  OperandHazardReaders(mlir::Operation *op, const InstFacts &facts);
  /// (Inline: the hazard pass asks it of every operand of the program.)
  HazardReader get(unsigned index) const {
    HazardReader reader = base;
    reader.readLaneSource = readsLane && index == 0;
    reader.laneSelect = selectsLane && index == 1;
    reader.mfmaAcc = tiedOperand >= 0 && static_cast<int>(index) == tiedOperand;
    return reader;
  }
  bool isWritten(unsigned index) const { return accvgprWrite && index == 1; }

private:
  HazardReader base;
  bool readsLane = false;   // v_readfirstlane_b32 / v_readlane_b32
  bool selectsLane = false; // v_readlane_b32 / v_writelane_b32
  bool accvgprWrite = false;
  int tiedOperand = -1; // an MFMA's SrcC
};

/// How `op` (with `facts`) reads its operand `index`. The destination AGPR
/// of v_accvgpr_write_b32 (operand 1) is written, not read: see
/// isWrittenOperand.
HazardReader getHazardReader(mlir::Operation *op, const InstFacts &facts,
                             unsigned index);
/// v_accvgpr_write_b32's destination operand, which the op overwrites.
bool isWrittenOperand(mlir::Operation *op, unsigned index);

/// The record a result of register class `cls` of an op of `facts` leaves
/// (nullopt: none, older records are dropped).
std::optional<HazardSource> getResultHazardSource(const InstFacts &facts,
                                                  std::optional<RegClass> cls);
/// Whether that result is also a transcendental result (a Trans record).
bool isTransResult(const InstFacts &facts, std::optional<RegClass> cls);
/// A 3-4 dword VMEM store: its data VGPRs (operand 0) must not be
/// overwritten for LargeStoreDataOverwrite wait states.
bool readsLargeStoreData(mlir::Operation *op, const InstFacts &facts);

/// Wait states the op occupies on the hazard clock: `s_nop N` N+1, an
/// emitting instruction 1, non-emitting and structure ops 0.
int64_t getHazardClockWidth(mlir::Operation *op, const InstFacts &facts);

/// Wait states needed between a producer of `source` (an MFMA:
/// `mfmaWaitStates`, TargetModel::getMFMAReadWaitStates) and `reader`'s
/// read of the register. `chain`: the reader is an MFMA reading the
/// previous MFMA's result as SrcC in the same registers (forwarded).
int64_t getReadHazardWaitStates(const TargetModel &model, HazardSource source,
                                int64_t mfmaWaitStates,
                                const HazardReader &reader, bool chain);
/// Same for an implicit read (VCC, M0, EXEC) by an op of `unit`.
int64_t getImplicitReadHazardWaitStates(const TargetModel &model,
                                        HazardSource source, ExecUnit unit);
/// Same for an overwrite of the register (`chain`: the writer is the next
/// MFMA of an accumulator chain, writing the same registers by design).
int64_t getWriteHazardWaitStates(const TargetModel &model, HazardSource source,
                                 int64_t mfmaWaitStates, bool chain);

} // namespace waveasm

#endif // WAVEASM_ANALYSIS_HAZARDRULES_H
