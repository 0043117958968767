//===- AffineAddress.h - address values as sums of their leaves -*- C++ -*-===//
//
// Whether two 32-bit address values differ by a constant: each is written
// as a linear form over the values it is computed from (sum of coefficient
// x leaf, plus a constant, modulo 2^32) through the address ops that are
// linear in that ring (adds, subtracts, copies, left shifts and products
// by a constant), and a shift right of a form every term of which it
// divides exactly (known modulo fewer bits until a shift left restores
// them: (k * 128) >> 1 << 6 is k * 4096); any other op's result is a leaf.
// Two values with the same leaves and coefficients, both known modulo
// 2^32, differ by the difference of their constants, whatever the leaves
// hold.
//
// Strength reduction uses it on a pipelined kernel's hoisted voffsets:
// step j's address is step 0's evaluated at counter + j, so it is step 0's
// plus j strides, a constant the load's `offset` field can hold instead of
// a VGPR of its own.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_AFFINEADDRESS_H
#define WAVEASM_PIPELINE_OPT_AFFINEADDRESS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <cstdint>
#include <optional>

namespace waveasm {

class AffineAddresses {
public:
  /// (a - b) modulo 2^32 when the two forms differ only in their constant,
  /// else nullopt (also when a form has too many leaves or is too deep).
  std::optional<uint32_t> constantDifference(mlir::Value a, mlir::Value b);

private:
  struct Form {
    /// Leaf -> coefficient (non-zero), in first-seen order.
    llvm::SmallMapVector<mlir::Value, uint32_t, 4> terms;
    uint32_t constant = 0;
    /// The form equals the value modulo 2^bits: a shift right by s of a
    /// form whose coefficients and constant are multiples of 2^s divides
    /// them exactly but leaves only bits - s bits known; a shift left by t
    /// brings t back (the lost high bits shift out).
    unsigned bits = 32;
    bool valid = true;
  };
  const Form &formOf(mlir::Value value, unsigned depth);
  llvm::DenseMap<mlir::Value, Form> forms;
};

} // namespace waveasm

#endif // WAVEASM_PIPELINE_OPT_AFFINEADDRESS_H
