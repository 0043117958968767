//===- CloneInOrderTest.cpp - the one-pass clone against MLIR's -----------===//
//
// pipeline/CloneInOrder.h creates each op with its operands in one
// pre-order pass instead of MLIR's two (ops first, operands afterwards).
// Both must give the same copy: the same IR (generic form, locations), the
// same use-list order of every value (the users' order decides later
// passes' iteration order), and the same mapping from the source's ops,
// blocks and values to the copy's; on random programs, every example, the
// shared examples and the lit inputs. A forward reference (unverified IR)
// falls back to MLIR's clone and leaves the source's uses as they were.
//
//===----------------------------------------------------------------------===//

#include "MlirInputs.h"
#include "RandomPrograms.h"
#include "TestUtils.h"

#include "pipeline/CloneInOrder.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using waveasm::test::TestContext;

namespace {

/// Generic form with locations and, after each value, its users in use-list
/// order: equal texts mean equal IR and equal use lists.
std::string dump(Operation *op) {
  std::string out;
  llvm::raw_string_ostream os(out);
  op->print(os, OpPrintingFlags()
                    .printGenericOpForm()
                    .enableDebugInfo()
                    .printValueUsers()
                    .assumeVerified());
  return out;
}

/// Pre-order positions of a copy's ops, blocks and values, so that two
/// mappings into two copies can be compared.
struct Positions {
  llvm::DenseMap<Operation *, unsigned> ops;
  llvm::DenseMap<Block *, unsigned> blocks;
  llvm::DenseMap<Value, unsigned> values;
  explicit Positions(Operation *root) {
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      ops.try_emplace(op, ops.size());
      for (Value result : op->getResults())
        values.try_emplace(result, values.size());
      for (Region &region : op->getRegions())
        for (Block &block : region) {
          blocks.try_emplace(&block, blocks.size());
          for (Value arg : block.getArguments())
            values.try_emplace(arg, values.size());
        }
    });
  }
};

/// Every op, block and value of `source` maps to the same position in
/// `fast` as in `slow` (or to nothing in both).
void expectSameMapping(Operation *source, const IRMapping &fastMap,
                       Operation *fast, const IRMapping &slowMap,
                       Operation *slow, const std::string &what) {
  Positions f(fast), s(slow);
  auto position = [](auto &table, auto key) -> int64_t {
    auto it = table.find(key);
    return it == table.end() ? -1 : int64_t(it->second);
  };
  unsigned mismatches = 0;
  auto check = [&](auto fastTo, auto slowTo, auto &ft, auto &st) {
    int64_t a = fastTo ? position(ft, fastTo) : -2;
    int64_t b = slowTo ? position(st, slowTo) : -2;
    mismatches += a != b;
  };
  source->walk([&](Operation *op) {
    check(fastMap.lookupOrNull(op), slowMap.lookupOrNull(op), f.ops, s.ops);
    for (Value result : op->getResults())
      check(fastMap.lookupOrNull(result), slowMap.lookupOrNull(result),
            f.values, s.values);
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        check(fastMap.lookupOrNull(&block), slowMap.lookupOrNull(&block),
              f.blocks, s.blocks);
        for (Value arg : block.getArguments())
          check(fastMap.lookupOrNull(arg), slowMap.lookupOrNull(arg), f.values,
                s.values);
      }
  });
  EXPECT_EQ(mismatches, 0u) << what;
  EXPECT_EQ(fastMap.getOperationMap().size(), slowMap.getOperationMap().size())
      << what;
  EXPECT_EQ(fastMap.getValueMap().size(), slowMap.getValueMap().size()) << what;
  EXPECT_EQ(fastMap.getBlockMap().size(), slowMap.getBlockMap().size()) << what;
}

/// Clones `module` both ways (the whole module, and each program on its
/// own as loop address promotion does) and compares. Returns false if the
/// text does not parse.
bool compareClones(llvm::StringRef text, const std::string &what) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(text);
  if (!module)
    return false;
  std::string before = dump(*module);
  SmallVector<Operation *> roots = {module->getOperation()};
  for (Operation &op : module->getBody()->getOperations())
    roots.push_back(&op);
  ClonedValues values;
  for (Operation *root : roots) {
    IRMapping fastMap, slowMap;
    bool fellBack = true;
    Operation *fast = cloneInOrder(root, fastMap, &fellBack);
    Operation *slow = root->clone(slowMap);
    EXPECT_FALSE(fellBack) << what;
    EXPECT_EQ(dump(fast), dump(slow)) << what;
    expectSameMapping(root, fastMap, fast, slowMap, slow, what);
    // Without op entries: the same copy, values and blocks mapped alike.
    IRMapping noOpsMap;
    CloneInOrderOptions noOps;
    noOps.mapOps = false;
    Operation *lean = cloneInOrder(root, noOpsMap, &fellBack, noOps);
    EXPECT_FALSE(fellBack) << what;
    EXPECT_EQ(dump(lean), dump(slow)) << what;
    EXPECT_TRUE(noOpsMap.getOperationMap().empty()) << what;
    IRMapping slowWithoutOps = slowMap;
    for (auto [from, to] : slowMap.getOperationMap())
      slowWithoutOps.erase(from);
    expectSameMapping(root, noOpsMap, lean, slowWithoutOps, slow,
                      what + " (no op entries)");
    // Values in a table of their own (one table for every root, as a
    // caller keeps it): the same copy, the mapper without value entries
    // but the root's results, and every value's copy in the table.
    IRMapping tableMap;
    CloneInOrderOptions ownTable;
    ownTable.values = &values;
    Operation *tabled = cloneInOrder(root, tableMap, &fellBack, ownTable);
    EXPECT_FALSE(fellBack) << what;
    EXPECT_EQ(dump(tabled), dump(slow)) << what;
    EXPECT_EQ(tableMap.getValueMap().size(), root->getNumResults()) << what;
    root->walk([&](Operation *op) {
      auto mapFromTable = [&](Value value) {
        if (const void *copy = values.lookup(value.getAsOpaquePointer()))
          tableMap.map(value, Value::getFromOpaquePointer(copy));
      };
      if (op != root)
        llvm::for_each(op->getResults(), mapFromTable);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          llvm::for_each(block.getArguments(), mapFromTable);
    });
    expectSameMapping(root, tableMap, tabled, slowMap, slow,
                      what + " (own value table)");
    tabled->destroy();
    lean->destroy();
    fast->destroy();
    slow->destroy();
  }
  // The clone adds no use to the source's values.
  EXPECT_EQ(dump(*module), before) << what;
  return true;
}

} // namespace

TEST(CloneInOrder, EqualsMLIRCloneOnRandomPrograms) {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::string text = waveasm::test::DeadCodeGenerator(seed).program();
    ASSERT_TRUE(compareClones(text, "seed " + std::to_string(seed))) << text;
  }
}

TEST(CloneInOrder, EqualsMLIRCloneOnExamplesAndLitInputs) {
  unsigned compared = 0;
  for (const std::string &path : waveasm::test::allMlirInputs()) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(static_cast<bool>(buffer)) << path;
    // Negative lit inputs do not parse; they have nothing to clone.
    compared += compareClones((*buffer)->getBuffer(), path);
  }
  EXPECT_GT(compared, 100u);
}

TEST(CloneInOrder, AForwardReferenceFallsBackToMLIRClone) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(waveasm::test::program(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %r:2 = waveasm.loop (%i = %s0, %x = %tid) : (!waveasm.sreg, !waveasm.pvreg<0>) -> (!waveasm.sreg, !waveasm.vreg) {
      %a = waveasm.v_add_u32 %x, %x : !waveasm.pvreg<0>, !waveasm.pvreg<0> -> !waveasm.vreg
      %b = waveasm.v_xor_b32 %a, %a : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
      %n:2 = waveasm.s_add_u32 %i, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
      waveasm.condition %n#1 : !waveasm.scc iter_args(%n#0, %b) : !waveasm.sreg, !waveasm.vreg
    }
    waveasm.s_endpgm)"));
  ASSERT_TRUE(module) << t.diagnostics;
  // %a reads %b, defined after it: unverified IR, as an editor may hold.
  Operation *add = nullptr, *xorOp = nullptr;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "waveasm.v_add_u32")
      add = op;
    if (op->getName().getStringRef() == "waveasm.v_xor_b32")
      xorOp = op;
  });
  ASSERT_TRUE(add && xorOp);
  add->setOperand(1, xorOp->getResult(0));
  std::string before = dump(*module);
  for (Operation *root :
       {module->getOperation(), &module->getBody()->front()}) {
    IRMapping fastMap, slowMap;
    bool fellBack = false;
    Operation *fast = cloneInOrder(root, fastMap, &fellBack);
    Operation *slow = root->clone(slowMap);
    EXPECT_TRUE(fellBack);
    EXPECT_EQ(dump(fast), dump(slow));
    expectSameMapping(root, fastMap, fast, slowMap, slow, "forward reference");
    fast->destroy();
    slow->destroy();
    // The partial copy's use of %b is gone with it.
    EXPECT_EQ(dump(*module), before);
  }
}

TEST(CloneInOrder, CallerSubstitutionsApplyWithAValueTable) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(waveasm::test::program(R"(
    %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
    %c0 = waveasm.constant 0 : !waveasm.imm<0>
    %c1 = waveasm.constant 1 : !waveasm.imm<1>
    %s0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
    %r:2 = waveasm.loop (%i = %s0, %x = %tid) : (!waveasm.sreg, !waveasm.pvreg<0>) -> (!waveasm.sreg, !waveasm.vreg) {
      %a = waveasm.v_add_u32 %x, %c0 : !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
      %n:2 = waveasm.s_add_u32 %i, %c0 : !waveasm.sreg, !waveasm.imm<0> -> !waveasm.sreg, !waveasm.scc
      waveasm.condition %n#1 : !waveasm.scc iter_args(%n#0, %a) : !waveasm.sreg, !waveasm.vreg
    }
    waveasm.s_endpgm)"));
  ASSERT_TRUE(module) << t.diagnostics;
  Operation *loop = nullptr, *c0 = nullptr, *c1 = nullptr;
  module->walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name == "waveasm.loop")
      loop = op;
    if (name == "waveasm.constant")
      (c0 ? c1 : c0) = op;
  });
  ASSERT_TRUE(loop && c0 && c1);
  // The loop alone, %c0 (from outside it) and the body's %x (a block
  // argument) substituted by %c1, as a caller of Operation::clone may.
  Value x = loop->getRegion(0).getArgument(1);
  auto seed = [&](IRMapping &mapper) {
    mapper.map(c0->getResult(0), c1->getResult(0));
    mapper.map(x, c1->getResult(0));
  };
  IRMapping slowMap, tableMap;
  seed(slowMap);
  seed(tableMap);
  ClonedValues values;
  CloneInOrderOptions ownTable;
  ownTable.values = &values;
  bool fellBack = true;
  Operation *slow = loop->clone(slowMap);
  Operation *tabled = cloneInOrder(loop, tableMap, &fellBack, ownTable);
  EXPECT_FALSE(fellBack);
  EXPECT_EQ(dump(tabled), dump(slow));
  // The copy's v_add_u32 reads %c1 twice (for %x and %c0).
  Operation &add = tabled->getRegion(0).front().front();
  EXPECT_EQ(add.getOperand(0), c1->getResult(0));
  EXPECT_EQ(add.getOperand(1), c1->getResult(0));
  EXPECT_EQ(values.lookup(x.getAsOpaquePointer()), nullptr);
  tabled->destroy();
  slow->destroy();
}
