//===- DescriptorsApart.cpp - precolored descriptors a check proved apart -===//
//
// See DescriptorsApart.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/DescriptorsApart.h"

#include "analysis/PointerRoots.h"
#include "ir/Dialect.h"

using namespace mlir;
using namespace waveasm;

std::optional<int64_t> waveasm::getPrecoloredDescriptor(Value pointer) {
  auto preset = pointer ? pointer.getDefiningOp<PrecoloredSRegOp>() : nullptr;
  if (!preset || preset.getSize() != 4)
    return std::nullopt;
  return int64_t(preset.getIndex());
}

SmallVector<std::pair<int64_t, int64_t>>
waveasm::getDescriptorsApart(Operation *ifOp) {
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  auto list = ifOp->getAttrOfType<ArrayAttr>(kDescriptorsApartAttr);
  if (!list || list.size() % 2)
    return pairs;
  for (size_t i = 0; i < list.size(); i += 2) {
    auto x = dyn_cast<IntegerAttr>(list[i]);
    auto y = dyn_cast<IntegerAttr>(list[i + 1]);
    if (!x || !y)
      return {};
    pairs.push_back({x.getInt(), y.getInt()});
  }
  return pairs;
}

bool waveasm::inDescriptorsCheckedApart(Operation *a, Operation *b) {
  std::optional<int64_t> x = getPrecoloredDescriptor(getAddressPointer(a));
  std::optional<int64_t> y = getPrecoloredDescriptor(getAddressPointer(b));
  if (!x || !y || *x == *y)
    return false;
  // The nearest enclosing if of `a` whose then region also holds `b`, and
  // every one around it: any of them may carry the promise.
  for (Operation *parent = a->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<IfOp>(parent);
    if (!ifOp || !parent->hasAttr(kDescriptorsApartAttr))
      continue;
    Region &then = ifOp.getThenRegion();
    if (!then.isAncestor(a->getParentRegion()) ||
        !then.isAncestor(b->getParentRegion()))
      continue;
    for (auto [p, q] : getDescriptorsApart(parent))
      if ((p == *x && q == *y) || (p == *y && q == *x))
        return true;
  }
  return false;
}
