//===- ArithLowering.h - building blocks of arith legalization --*- C++ -*-===//
//
// Internal to ArithLegalization.cpp and ArithLowering64.cpp: an
// `ArithBuilder` emits the machine ops replacing one `waveasm.arith.*` op on
// one unit (SALU or VALU) from 32-bit words of its operands.
//
// Compare results are registers holding 0 or 1 (an SGPR for a uniform
// compare, a VGPR per lane): SCC and VCC cannot be kept across other ops or
// be loop-carried, so a compare materializes its flag right away
// (`s_cselect_b32 1, 0` / `v_cndmask_b32 0, 1`), and a select re-derives the
// flag from its condition register right before use (`s_cmp_ne_u32` /
// `v_cmp_ne_u32`). Every SCC and VCC producer therefore sits directly before
// its consumer.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_PIPELINE_OPT_ARITHLOWERING_H
#define WAVEASM_PIPELINE_OPT_ARITHLOWERING_H

#include "ir/Dialect.h"
#include "ir/Immediates.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace waveasm::arith {

enum class Unit { SALU, VALU };

/// Signed 32-bit half `k` (0 low, 1 high) of a 64-bit immediate.
int64_t immHalf(int64_t value, int k);

class ArithBuilder {
public:
  ArithBuilder(mlir::Operation *op, Unit unit);

  mlir::OpBuilder b;
  mlir::Location loc;
  mlir::MLIRContext *ctx;
  Unit unit;

  /// One register of the unit's result class (SGPR for SALU, VGPR for VALU).
  mlir::Type wordType() const;
  /// One virtual register of `cls`.
  mlir::Type singleOf(RegClass cls) const;
  mlir::Type sccType() const;
  /// An `!waveasm.imm` constant.
  mlir::Value constant(int64_t value);

  /// Word `k` of `value`, as the unit reads it: an immediate's 32-bit half
  /// (`width` words wide), a register's k-th register (extract), an AGPR
  /// word read into a VGPR.
  mlir::Value word(mlir::Value value, int k, int64_t width);
  /// `value` in a register of the unit's class (s_mov_b32 / v_mov_b32 of an
  /// immediate; registers of that class unchanged).
  mlir::Value inRegister(mlir::Value value);
  /// The VALU constant bus: at most `budget` distinct SGPRs among `srcs`
  /// (0 for ops that also read VCC); the others are copied to VGPRs.
  void limitSGPRs(llvm::MutableArrayRef<mlir::Value> srcs, unsigned budget);
  /// SALU binary ops want an SGPR in src0: swap an immediate out of it when
  /// `commutes`, else (or when both are immediates) load it with s_mov_b32.
  /// Returns true when the operands were swapped.
  bool sgprFirst(mlir::Value &lhs, mlir::Value &rhs, bool commutes);

  /// Sets SCC (SALU) or VCC (VALU) to `lhs PRED rhs` (32-bit) and returns
  /// the flag's handle for selectWord: the SCC value, or the compare's first
  /// source (v_cndmask_b32's `vcc_dep`).
  mlir::Value setFlag(CmpPredicate pred, mlir::Value lhs, mlir::Value rhs);
  /// flag ? onTrue : onFalse for one word (s_cselect_b32 / v_cndmask_b32).
  mlir::Value selectWord(mlir::Value flag, mlir::Value onTrue,
                         mlir::Value onFalse, mlir::Type type);
  /// `lhs PRED rhs` (32-bit) as a 0/1 register of `type`.
  mlir::Value compare(CmpPredicate pred, mlir::Value lhs, mlir::Value rhs,
                      mlir::Type type);

  /// Word ops of the unit.
  mlir::Value add(mlir::Value a, mlir::Value b, mlir::Type type);
  mlir::Value mulLo(mlir::Value a, mlir::Value b, mlir::Type type);
  mlir::Value mulHi(mlir::Value a, mlir::Value b, mlir::Type type);
  mlir::Value bitOr(mlir::Value a, mlir::Value b, mlir::Type type);
  mlir::Value bitAnd(mlir::Value a, mlir::Value b, mlir::Type type);
  mlir::Value bitXor(mlir::Value a, mlir::Value b, mlir::Type type);
  mlir::Value signWord(mlir::Value a, mlir::Type type); // a >> 31 (arith)

  /// The type to compute a result word in: the result type itself for a
  /// one-register result of the unit's class, else one register of the unit.
  mlir::Type resultWordType(mlir::Type resultType) const;
  /// The result from its words (in the unit's class): as is, packed, or
  /// moved into the result's register class.
  mlir::Value finish(llvm::ArrayRef<mlir::Value> words, mlir::Type resultType);

  unsigned sgprCopies = 0;

private:
  llvm::DenseMap<int64_t, mlir::Value> constants;
  llvm::DenseMap<mlir::Value, mlir::Value> vgprCopies;
  mlir::Value move(mlir::Value value, mlir::Type type);
};

/// The 64-bit lowerings (ArithLowering64.cpp); each returns the result.
mlir::Value lowerAdd64(ArithBuilder &ab, mlir::Value a, mlir::Value b,
                       mlir::Type resultType);
mlir::Value lowerMul64(ArithBuilder &ab, mlir::Value a, mlir::Value b,
                       mlir::Type resultType);
mlir::Value lowerCmp64(ArithBuilder &ab, CmpPredicate pred, mlir::Value a,
                       mlir::Value b, mlir::Type resultType);

} // namespace waveasm::arith

#endif // WAVEASM_PIPELINE_OPT_ARITHLOWERING_H
