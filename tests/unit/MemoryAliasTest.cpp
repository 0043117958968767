//===- MemoryAliasTest.cpp - per-lane bases and the wave's lanes ----------===//
//
// Disjoint offsets of one per-lane base are apart only when the lanes'
// bases are too close to reach the other access (the lanes of a wave run
// its memory ops in program order and exchange data through them).
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"
#include "MlirInputs.h"
#include "RandomPrograms.h"

#include "analysis/MemoryAlias.h"
#include "ir/Dialect.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace waveasm;
using namespace waveasm::test;

namespace {

/// A write at `off` and a read at `off + readOffset`, `off` = tid << shift.
std::string pair(unsigned shift, int64_t readOffset,
                 llvm::StringRef offDef = "") {
  std::string def =
      offDef.empty()
          ? "%off = waveasm.v_lshlrev_b32 %sh, %tid : !waveasm.imm<" +
                std::to_string(shift) +
                ">, !waveasm.pvreg<0> -> !waveasm.vreg\n"
          : offDef.str();
  return "%tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>\n"
         "%sh = waveasm.constant " +
         std::to_string(shift) + " : !waveasm.imm<" + std::to_string(shift) +
         ">\n" + def +
         "waveasm.ds_write_b32 %off, %off : !waveasm.vreg, !waveasm.vreg "
         "loc(\"W\")\n"
         "%r = waveasm.ds_read_b32 %off {offset = " +
         std::to_string(readOffset) +
         " : i64} : !waveasm.vreg -> !waveasm.vreg loc(\"R\")\n"
         "waveasm.s_endpgm";
}

AliasResult aliasOf(ParsedAnalysisProgram &p) {
  EXPECT_TRUE(p.program);
  return alias(p.op("W"), p.op("R"));
}

TEST(MemoryAlias, PerLaneBaseApartOnlyBeyondTheWavesSpan) {
  // 4 bytes a lane, 64 lanes: the wave's writes cover 256 bytes.
  ParsedAnalysisProgram neighbour(pair(2, 4));
  EXPECT_EQ(aliasOf(neighbour), AliasResult::MayAlias);
  ParsedAnalysisProgram inside(pair(2, 252));
  EXPECT_EQ(aliasOf(inside), AliasResult::MayAlias);
  ParsedAnalysisProgram beyond(pair(2, 256));
  EXPECT_EQ(aliasOf(beyond), AliasResult::NoAlias);
  ParsedAnalysisProgram same(pair(2, 0));
  EXPECT_EQ(aliasOf(same), AliasResult::MustAlias);
  // 16 bytes a lane: 1008 + 4 bytes.
  ParsedAnalysisProgram wide(pair(4, 1008));
  EXPECT_EQ(aliasOf(wide), AliasResult::MayAlias);
  ParsedAnalysisProgram wideBeyond(pair(4, 1012));
  EXPECT_EQ(aliasOf(wideBeyond), AliasResult::NoAlias);
}

TEST(MemoryAlias, UnknownLaneSpreadMayAlias) {
  // A base loaded from memory: any lane may point anywhere.
  ParsedAnalysisProgram loaded(
      pair(2, 4096,
           "%srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>\n"
           "%z = waveasm.constant 0 : !waveasm.imm<0>\n"
           "%off = waveasm.buffer_load_dword %srd, %tid, %z : "
           "!waveasm.psreg<4, 4>, !waveasm.pvreg<0>, !waveasm.imm<0> -> "
           "!waveasm.vreg\n"));
  EXPECT_EQ(aliasOf(loaded), AliasResult::MayAlias);
  // A two-dimensional workgroup packs y at bit 10 of the thread id.
  std::string text =
      "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> "
      "abi = #waveasm.abi<> attributes {workgroup_size = [16, 4, 1]} {\n" +
      pair(2, 4096) + "\n}\n";
  auto twoD = ParsedAnalysisProgram::fromFile(text);
  EXPECT_EQ(aliasOf(*twoD), AliasResult::MayAlias);
  // A one-dimensional workgroup smaller than a wave spans its own lanes.
  std::string small =
      "waveasm.program @k target = #waveasm.target<#waveasm.gfx942> "
      "abi = #waveasm.abi<> attributes {workgroup_size = [16, 1, 1]} {\n" +
      pair(2, 64) + "\n}\n";
  auto oneD = ParsedAnalysisProgram::fromFile(small);
  EXPECT_EQ(aliasOf(*oneD), AliasResult::NoAlias);
}

} // namespace

namespace {

/// The definition memReads/memWrites answer: the spaces every op nested in
/// `op` (itself included) reads or writes, asked of the interface.
unsigned spacesFromInterface(mlir::Operation *op, bool writes) {
  unsigned mask = 0;
  op->walk([&](mlir::Operation *nested) {
    if (auto info = llvm::dyn_cast<InstInfoOpInterface>(nested))
      mask |= writes ? info.getMemWrites() : info.getMemReads();
  });
  return mask;
}

struct SpaceCounts {
  unsigned ops = 0, withRegions = 0, regionsTouchingMemory = 0;
};

/// Compares both answers on every op of `text`; false if it does not parse.
bool compareSpaces(llvm::StringRef text, const std::string &what,
                   SpaceCounts &counts) {
  TestContext t;
  mlir::OwningOpRef<mlir::ModuleOp> module = t.parseModule(text);
  if (!module)
    return false;
  module->walk([&](mlir::Operation *op) {
    unsigned reads = spacesFromInterface(op, false);
    unsigned writes = spacesFromInterface(op, true);
    EXPECT_EQ(memReads(op), reads)
        << what << ": " << op->getName().getStringRef().str();
    EXPECT_EQ(memWrites(op), writes)
        << what << ": " << op->getName().getStringRef().str();
    EXPECT_EQ(readsMemory(op), reads != 0) << what;
    EXPECT_EQ(writesMemory(op), writes != 0) << what;
    ++counts.ops;
    if (op->getNumRegions()) {
      ++counts.withRegions;
      counts.regionsTouchingMemory += (reads | writes) != 0;
    }
  });
  return true;
}

} // namespace

// memReads/memWrites read the facts cached per op class (InstFacts.h)
// instead of casting every nested op to the interface: the same masks on
// every op (regions included) of random programs, the examples, the shared
// examples and the lit inputs.
TEST(MemoryAlias, MemorySpacesEqualTheInterfaceWalk) {
  SpaceCounts counts;
  for (unsigned seed = 1; seed <= 50; ++seed)
    ASSERT_TRUE(compareSpaces(DeadCodeGenerator(seed).program(),
                              "seed " + std::to_string(seed), counts));
  unsigned files = 0;
  for (const std::string &path : allMlirInputs()) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(static_cast<bool>(buffer)) << path;
    files += compareSpaces((*buffer)->getBuffer(), path, counts);
  }
  EXPECT_GT(files, 100u);
  EXPECT_GT(counts.ops, 10000u);
  // Loops and ifs whose bodies touch memory: the nested walk is exercised.
  EXPECT_GT(counts.regionsTouchingMemory, 50u);
}
