//===- StepReadsFirstTest.cpp - a stage's LDS reads ahead of its loads ----===//
//
// pipeline/opt/StepReadsFirst.h moveReadsAheadOfLoads on one stage's
// stream shaped as a deepened rotation's: the load's voffset, the M0
// write, the direct-to-LDS load, the reads' address, two reads, another
// VALU op, the barrier. The reads and their address go ahead of the load
// group, the rest keeps its order; nothing moves when a read may not pass
// (the caller's LDS test), when its address is read by an op that stays,
// or when the reads come after the barrier.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"

#include "pipeline/opt/StepReadsFirst.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::test;

namespace {

const char *kStream = R"(
  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c16 = waveasm.constant 16 : !waveasm.imm<16>
  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %base = waveasm.precolored.sreg 12 : !waveasm.psreg<12>
  %other = waveasm.v_add_u32 %tid, %c0 : !waveasm.pvreg<0>, !waveasm.imm<0> -> !waveasm.vreg
  %voff = waveasm.v_add_u32 %tid, %c16 {tag = "voff"} : !waveasm.pvreg<0>, !waveasm.imm<16> -> !waveasm.vreg
  waveasm.s_mov_b32_m0 %base {tag = "m0"} : !waveasm.psreg<12>
  waveasm.buffer_load_dwordx4_lds %voff, %srd, %c0 {tag = "load"} : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.imm<0>
  %addr = waveasm.v_add_u32 %tid, %c16 {tag = "addr"} : !waveasm.pvreg<0>, !waveasm.imm<16> -> !waveasm.vreg
  %f0 = waveasm.ds_read_b128 %addr {tag = "read0"} : !waveasm.vreg -> !waveasm.vreg<4, 4>
  %f1 = waveasm.ds_read_b128 %addr {tag = "read1", offset = 1024 : i64} : !waveasm.vreg -> !waveasm.vreg<4, 4>
  %use = waveasm.v_add_u32 %tid, %STAYER {tag = "use"} : !waveasm.pvreg<0>, !waveasm.vreg -> !waveasm.vreg
  waveasm.s_barrier {tag = "barrier"}
  waveasm.s_endpgm
)";

struct Stream {
  TestContext t;
  OwningOpRef<ModuleOp> module;
  SmallVector<Operation *> ops;

  /// `stayer`: the value the "use" op reads (an op that stays).
  explicit Stream(StringRef stayer) {
    std::string text = kStream;
    text.replace(text.find("%STAYER"), 7, stayer.str());
    module = t.parseModule(program(text));
    EXPECT_TRUE(module) << t.diagnostics;
    if (module)
      module->walk([&](Operation *op) {
        if (op->hasAttr("tag"))
          ops.push_back(op);
      });
  }
  std::vector<std::string> tags() const {
    std::vector<std::string> out;
    for (Operation *op : ops)
      out.push_back(cast<StringAttr>(op->getAttr("tag")).str());
    return out;
  }
};

bool anything(Operation *, Operation *) { return true; }

} // namespace

TEST(StepReadsFirst, ReadsAndTheirAddressGoAheadOfTheLoadGroup) {
  Stream s("%other");
  ASSERT_EQ(s.ops.size(), 8u);
  EXPECT_TRUE(moveReadsAheadOfLoads(s.ops, anything));
  EXPECT_EQ(s.tags(),
            (std::vector<std::string>{"addr", "read0", "read1", "voff", "m0",
                                      "load", "use", "barrier"}));
}

TEST(StepReadsFirst, VoffsetReadElsewhereStaysBeforeTheReads) {
  // "use" reads the load's voffset too: it is no longer the group's alone,
  // so the reads go ahead of the M0 write only.
  Stream s("%voff");
  EXPECT_TRUE(moveReadsAheadOfLoads(s.ops, anything));
  EXPECT_EQ(s.tags(),
            (std::vector<std::string>{"voff", "addr", "read0", "read1", "m0",
                                      "load", "use", "barrier"}));
}

TEST(StepReadsFirst, ReadThatMayNotPassTheLoadStays) {
  Stream s("%other");
  std::vector<std::string> before = s.tags();
  // The caller finds the reads' bytes may be the load's.
  auto notPastLoads = [](Operation *hoisted, Operation *passed) {
    return passed->getName().getStringRef() !=
           "waveasm.buffer_load_dwordx4_lds";
  };
  EXPECT_FALSE(moveReadsAheadOfLoads(s.ops, notPastLoads));
  EXPECT_EQ(s.tags(), before);
}

TEST(StepReadsFirst, AddressReadByAnOpThatStaysKeepsTheReadsBehind) {
  // "use" reads the reads' address: it stays, so the address stays, and a
  // read moved alone would come before its address.
  Stream s("%addr");
  std::vector<std::string> before = s.tags();
  EXPECT_FALSE(moveReadsAheadOfLoads(s.ops, anything));
  EXPECT_EQ(s.tags(), before);
}

TEST(StepReadsFirst, ReadsAfterTheBarrierStay) {
  Stream s("%other");
  // The barrier before the reads: they belong after it.
  Operation *barrier = s.ops.back();
  s.ops.pop_back();
  s.ops.insert(s.ops.begin() + 3, barrier);
  std::vector<std::string> before = s.tags();
  EXPECT_FALSE(moveReadsAheadOfLoads(s.ops, anything));
  EXPECT_EQ(s.tags(), before);
}

TEST(StepReadsFirst, StreamWithoutDirectToLdsLoadsIsLeftAlone) {
  Stream s("%other");
  s.ops.erase(s.ops.begin() + 2);
  std::vector<std::string> before = s.tags();
  EXPECT_FALSE(moveReadsAheadOfLoads(s.ops, anything));
  EXPECT_EQ(s.tags(), before);
}
