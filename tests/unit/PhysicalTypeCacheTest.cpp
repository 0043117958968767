//===- PhysicalTypeCacheTest.cpp - getPhysicalType's per-thread cache -----===//
//
// getPhysicalType (ir/RegisterTypes.cpp) remembers this thread's physical
// types of one context by (class, index, size). Every answer must be the
// type MLIR uniques for those parameters in the context asked: on a hit, for
// keys that differ in one field only, across contexts asked in turn, and for
// a new context at the address of a destroyed one (whose cached types are
// gone with it).
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "ir/RegisterTypes.h"

#include <gtest/gtest.h>

#include <optional>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

/// The type MLIR uniques for (cls, index, size), without the cache.
Type uniqued(MLIRContext *ctx, RegClass cls, int64_t index, int64_t size) {
  switch (cls) {
  case RegClass::VGPR:
    return PVRegType::get(ctx, index, size);
  case RegClass::SGPR:
    return PSRegType::get(ctx, index, size);
  case RegClass::AGPR:
    return PARegType::get(ctx, index, size);
  }
  return {};
}

constexpr RegClass kClasses[] = {RegClass::VGPR, RegClass::SGPR,
                                 RegClass::AGPR};

} // namespace

TEST(PhysicalTypeCache, EveryKeyGivesTheUniquedType) {
  TestContext t;
  // Keys that differ in one field only (the same index in every class and
  // size), asked twice: the second round hits.
  for (int round = 0; round < 2; ++round)
    for (RegClass cls : kClasses)
      for (int64_t index : {0, 1, 2, 255, 256, 511, 70000})
        for (int64_t size : {1, 2, 4, 8, 16}) {
          Type type = getPhysicalType(&t.ctx, cls, index, size);
          EXPECT_EQ(type, uniqued(&t.ctx, cls, index, size))
              << getRegClassName(cls).str() << " " << index << " " << size;
          RegTypeInfo info = getRegTypeInfo(type);
          EXPECT_EQ(info.cls, cls);
          EXPECT_EQ(info.physicalIndex, index);
          EXPECT_EQ(info.size, size);
        }
  // Outside the packed key's fields: built uncached, still right.
  int64_t wide = int64_t(1) << 33;
  EXPECT_EQ(getPhysicalType(&t.ctx, RegClass::SGPR, wide, 1),
            uniqued(&t.ctx, RegClass::SGPR, wide, 1));
  EXPECT_EQ(getPhysicalType(&t.ctx, RegClass::VGPR, 3, 70000),
            uniqued(&t.ctx, RegClass::VGPR, 3, 70000));
}

TEST(PhysicalTypeCache, ContextsAskedInTurnGetTheirOwnTypes) {
  TestContext a, b;
  for (int round = 0; round < 3; ++round)
    for (TestContext *t : {&a, &b, &a}) {
      Type type = getPhysicalType(&t->ctx, RegClass::VGPR, 4, 2);
      EXPECT_EQ(type.getContext(), &t->ctx);
      EXPECT_EQ(type, uniqued(&t->ctx, RegClass::VGPR, 4, 2));
    }
}

// A context destroyed and a new one built in the same storage: the same
// MLIRContext pointer, other types. The cache must not answer with the
// destroyed context's type.
TEST(PhysicalTypeCache, NewContextAtADestroyedOnesAddress) {
  std::optional<TestContext> slot;
  slot.emplace();
  MLIRContext *first = &slot->ctx;
  // Other types first, so the cached one's storage is not the first thing
  // the context allocates (the second context's fresh type below is).
  for (int64_t index = 0; index < 64; ++index)
    (void)uniqued(first, RegClass::SGPR, index, 1);
  Type old = getPhysicalType(first, RegClass::VGPR, 7, 1);
  ASSERT_EQ(old, getPhysicalType(first, RegClass::VGPR, 7, 1));
  slot.reset();

  slot.emplace();
  MLIRContext *second = &slot->ctx;
  ASSERT_EQ(first, second); // the case under test
  Type fresh = uniqued(second, RegClass::VGPR, 7, 1);
  Type got = getPhysicalType(second, RegClass::VGPR, 7, 1);
  EXPECT_EQ(got, fresh);
  EXPECT_EQ(got.getContext(), second);
  EXPECT_EQ(getRegTypeInfo(got).physicalIndex, 7);
}
