//===- AffineAddress.cpp - address values as sums of their leaves ---------===//

#include "pipeline/opt/AffineAddress.h"

#include "ir/Dialect.h"
#include "pipeline/opt/OperandFacts.h"

#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace mlir;
using namespace waveasm;

namespace {
/// Chains deeper than this, or forms with more leaves, are not compared:
/// hoisted voffset chains are a handful of ops over a few values.
constexpr unsigned kMaxDepth = 32;
constexpr unsigned kMaxTerms = 8;
} // namespace

const AffineAddresses::Form &AffineAddresses::formOf(Value value,
                                                     unsigned depth) {
  if (auto it = forms.find(value); it != forms.end())
    return it->second;
  Form form;
  auto leaf = [&] { form.terms[value] = 1; };
  // f(x) scaled by k, added into `form` (f's unknown high bits stay
  // unknown, shifted up by k's trailing zeros).
  auto addScaled = [&](const Form &f, uint32_t k) {
    if (!f.valid) {
      form.valid = false;
      return;
    }
    unsigned known = k == 0 ? 32 : f.bits + llvm::countr_zero(k);
    form.bits = std::min({form.bits, known, 32u});
    form.constant += f.constant * k;
    for (auto [v, c] : f.terms) {
      uint32_t &sum = form.terms[v];
      sum += c * k;
      if (sum == 0)
        form.terms.erase(v);
    }
  };
  auto operand = [&](Operation *op, unsigned i) -> const Form & {
    return formOf(op->getOperand(i), depth + 1);
  };
  // The constant an operand holds (a shift amount or a factor).
  auto constantOf = [&](Operation *op, unsigned i) {
    return getConstant32(op->getOperand(i));
  };

  Operation *op = value.getDefiningOp();
  if (std::optional<int64_t> c = getConstant32(value)) {
    form.constant = static_cast<uint32_t>(*c);
  } else if (!op || depth > kMaxDepth || value != op->getResult(0)) {
    leaf();
  } else if (isa<V_ADD_U32, S_ADD_U32>(op)) {
    addScaled(operand(op, 0), 1);
    addScaled(operand(op, 1), 1);
  } else if (isa<V_SUB_U32, S_SUB_U32>(op)) {
    addScaled(operand(op, 0), 1);
    addScaled(operand(op, 1), ~uint32_t(0)); // x -1
  } else if (isa<V_MOV_B32, S_MOV_B32>(op)) {
    addScaled(operand(op, 0), 1);
  } else if (isa<V_LSHLREV_B32>(op)) { // src1 << src0
    std::optional<int64_t> shift = constantOf(op, 0);
    if (shift && *shift >= 0 && *shift < 32)
      addScaled(operand(op, 1), uint32_t(1) << *shift);
    else
      leaf();
  } else if (isa<V_LSHL_ADD_U32>(op)) { // (src0 << src1) + src2
    std::optional<int64_t> shift = constantOf(op, 1);
    if (shift && *shift >= 0 && *shift < 32) {
      addScaled(operand(op, 0), uint32_t(1) << *shift);
      addScaled(operand(op, 2), 1);
    } else {
      leaf();
    }
  } else if (isa<V_LSHRREV_B32>(op)) { // src1 >> src0
    std::optional<int64_t> shift = constantOf(op, 0);
    const Form &f = operand(op, 1);
    uint32_t mask = shift && *shift >= 0 && *shift < 32
                        ? (uint32_t(1) << *shift) - 1
                        : ~uint32_t(0);
    bool exact =
        f.valid && shift && f.bits == 32 && *shift < 32 &&
        (f.constant & mask) == 0 &&
        llvm::all_of(f.terms, [&](auto t) { return !(t.second & mask); });
    if (exact) {
      form.constant = f.constant >> *shift;
      for (auto [v, c] : f.terms)
        form.terms[v] = c >> *shift;
      form.bits = 32 - *shift;
    } else {
      leaf();
    }
  } else if (isa<V_MUL_LO_U32, S_MUL_I32>(op)) {
    if (std::optional<int64_t> k = constantOf(op, 1))
      addScaled(operand(op, 0), static_cast<uint32_t>(*k));
    else if (std::optional<int64_t> k = constantOf(op, 0))
      addScaled(operand(op, 1), static_cast<uint32_t>(*k));
    else
      leaf();
  } else {
    leaf();
  }
  if (form.terms.size() > kMaxTerms)
    form.valid = false;
  return forms[value] = std::move(form);
}

std::optional<uint32_t> AffineAddresses::constantDifference(Value a, Value b) {
  Form fa = formOf(a, 0);
  const Form &fb = formOf(b, 0);
  if (!fa.valid || !fb.valid || fa.bits != 32 || fb.bits != 32 ||
      fa.terms.size() != fb.terms.size())
    return std::nullopt;
  for (auto [v, c] : fa.terms) {
    auto it = fb.terms.find(v);
    if (it == fb.terms.end() || it->second != c)
      return std::nullopt;
  }
  return fa.constant - fb.constant;
}
