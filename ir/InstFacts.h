//===- InstFacts.h - interface facts, read once per op class ----*- C++ -*-===//
//
// The facts of InstInfoOpInterface are static per op class, but asking the
// interface is not free: every cast looks the interface up in the op's
// interface map and, with assertions enabled (every build here), checks the
// dialect's promised interfaces in a hash set. Passes and analyses that ask
// several facts of every op read them through lookupInstFacts instead: one
// small hash lookup per op, the interface once per op class and thread.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_IR_INSTFACTS_H
#define WAVEASM_IR_INSTFACTS_H

#include "ir/InstInfo.h"

#include "mlir/IR/Operation.h"

namespace waveasm {

/// InstInfoOpInterface's answers for one op class. Sixteen bytes, aligned
/// to eight, so that a lookup returns it in two registers (at thirteen
/// bytes the compiler reassembled it byte by byte on every call).
struct alignas(8) InstFacts {
  /// False for ops that do not implement the interface (every other field
  /// then keeps its default).
  bool hasInfo = false;
  ExecUnit unit = ExecUnit::None;
  LatencyClass latencyClass = LatencyClass::None;
  WaitCounter waitCounter = WaitCounter::None;
  RegClassConstraint dstConstraint = RegClassConstraint::None;
  uint8_t memReads = MemNone;     // MemSpace mask
  uint8_t memWrites = MemNone;    // MemSpace mask
  uint8_t implicitUses = ImpNone; // ImplicitReg mask
  uint8_t implicitDefs = ImpNone; // ImplicitReg mask
  int8_t tiedOperand = -1;
  uint8_t dataDwords = 0;
  bool pinned = false;
  bool nonEmitting = false;
};

/// The facts of `op`'s class, from the interface.
InstFacts getInstFacts(mlir::Operation *op);

/// getInstFacts, cached per registered op class in a table of the calling
/// thread (the facts never change, so the table needs no invalidation and no
/// lock).
InstFacts lookupInstFacts(mlir::Operation *op);

} // namespace waveasm

#endif // WAVEASM_IR_INSTFACTS_H
