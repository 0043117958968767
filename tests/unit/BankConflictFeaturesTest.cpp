//===- BankConflictFeaturesTest.cpp - LDS bank conflicts in the server ----===//
//
// The hover section and the lint text of a ds op, on the compiled document
// as the server has it.
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"

#include "server/features/BankConflicts.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::test;

namespace {

const char *kStrides = R"(  %tid = waveasm.precolored.vreg 0 : !waveasm.pvreg<0>
  %srd = waveasm.precolored.sreg 4, 4 : !waveasm.psreg<4, 4>
  %c2 = waveasm.constant 2 : !waveasm.imm<2>
  %c7 = waveasm.constant 7 : !waveasm.imm<7>
  %s4 = waveasm.v_lshlrev_b32 %c2, %tid : !waveasm.imm<2>, !waveasm.pvreg<0> -> !waveasm.vreg
  %a = waveasm.ds_read_b32 %s4 : !waveasm.vreg -> !waveasm.vreg
  %s128 = waveasm.v_lshlrev_b32 %c7, %tid : !waveasm.imm<7>, !waveasm.pvreg<0> -> !waveasm.vreg
  %b = waveasm.ds_read_b32 %s128 : !waveasm.vreg -> !waveasm.vreg
  %x = waveasm.ds_read_b32 %a : !waveasm.vreg -> !waveasm.vreg
  %y = waveasm.v_add_u32 %b, %x : !waveasm.vreg, !waveasm.vreg -> !waveasm.vreg
  waveasm.buffer_store_dword %y, %srd, %s4 : !waveasm.vreg, !waveasm.psreg<4, 4>, !waveasm.vreg
  waveasm.s_endpgm
)";

std::string hoverAt(ServerDoc &d, llvm::StringRef needle) {
  std::optional<lsp::Hover> hover =
      computeHover(*d.parsed, d.compiled.get(), d.pos(needle, 10));
  return hover ? hover->contents.value : "";
}

TEST(BankConflictHover, ShowsPatternDegreeAndExtraSlots) {
  ServerDoc d(serverProgram(kStrides, " attributes {workgroup_size = [64, 1, "
                                      "1]}"));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  std::string clean = hoverAt(d, "%a = waveasm.ds_read_b32");
  EXPECT_NE(clean.find("**LDS banks** (64 × 4 B): lane address lane × 4 B; "
                       "no bank conflict (1 phase of 4 B per lane): 2 LDS "
                       "clocks"),
            std::string::npos)
      << clean;
  std::string conflict = hoverAt(d, "%b = waveasm.ds_read_b32");
  EXPECT_NE(conflict.find("lane × 128 B; 32-way bank conflict (1 phase of 4 "
                          "B per lane): 32 LDS clocks instead of 2, **+8 "
                          "issue slots**"),
            std::string::npos)
      << conflict;
  // Its latency includes the 8 slots.
  EXPECT_NE(conflict.find("**lat 28** slots"), std::string::npos) << conflict;
  std::string unknown = hoverAt(d, "%x = waveasm.ds_read_b32");
  EXPECT_NE(unknown.find("unknown: the address comes from ds_read_b32"),
            std::string::npos)
      << unknown;
  // Not a ds op: no section.
  EXPECT_EQ(hoverAt(d, "%y = waveasm.v_add_u32").find("LDS banks"),
            std::string::npos);
}

TEST(BankConflictLint, SaysWhatToDo) {
  ServerDoc d(serverProgram(kStrides, " attributes {workgroup_size = [64, 1, "
                                      "1]}"));
  ASSERT_TRUE(d.compiled && d.compiled->succeeded());
  const ProgramAnnotations &ann = *d.compiled->getPrograms()[0].annotations;
  LdsBankConflicts banks(ann.getIndex(), ann.getTarget());
  std::vector<std::string> messages;
  for (unsigned i = 0, e = d.parsed->getOps().size(); i < e; ++i)
    if (const CompiledOpInfo *info = d.compiled->lookup(i))
      if (std::optional<std::string> message = formatBankConflictLint(
              *d.parsed, *d.compiled, banks, info->compiled))
        messages.push_back(*message);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0],
            "`ds_read_b32` has a 32-way LDS bank conflict (lane address lane "
            "× 128 B, 64 banks of 4 B): 32 LDS clocks instead of 2, +8 issue "
            "slots each time; pad the row stride from 128 to 132 bytes "
            "(`v_lshlrev_b32` on line " +
                std::to_string(d.line("%s128 =") + 1) +
                ") to make it conflict-free; every access to that LDS region "
                "must use the same layout, and the LDS use grows");
}

} // namespace
