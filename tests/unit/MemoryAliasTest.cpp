//===- MemoryAliasTest.cpp - per-lane bases and the wave's lanes ----------===//
//
// Disjoint offsets of one per-lane base are apart only when the lanes'
// bases are too close to reach the other access (the lanes of a wave run
// its memory ops in program order and exchange data through them).
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtils.h"

#include "analysis/MemoryAlias.h"

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
