//===- ProfileHintsTest.cpp - profile CSV rows on the server's ops --------===//

#include "ServerTestUtils.h"

#include "server/runtime/ProfileFiles.h"
#include "server/runtime/SettingsJSON.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::server;
using waveasm::test::kLoadUse;
using waveasm::test::ServerDoc;
using waveasm::test::serverProgram;

namespace {

const char *kLoop = R"(  %c0 = waveasm.constant 0 : !waveasm.imm<0>
  %c1 = waveasm.constant 1 : !waveasm.imm<1>
  %c8 = waveasm.constant 8 : !waveasm.imm<8>
  %i0 = waveasm.s_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.sreg
  %v0 = waveasm.v_mov_b32 %c0 : !waveasm.imm<0> -> !waveasm.vreg
  %i_end, %v_end = waveasm.loop (%i = %i0, %acc = %v0)
      : (!waveasm.sreg, !waveasm.vreg) -> (!waveasm.sreg, !waveasm.vreg) {
    %v1 = waveasm.v_add_u32 %acc, %c1 : !waveasm.vreg, !waveasm.imm<1> -> !waveasm.vreg
    %i1:2 = waveasm.s_add_u32 %i, %c1 : !waveasm.sreg, !waveasm.imm<1> -> !waveasm.sreg, !waveasm.scc
    %more = waveasm.s_cmp_lt_u32 %i1#0, %c8 : !waveasm.sreg, !waveasm.imm<8> -> !waveasm.scc
    waveasm.condition %more : !waveasm.scc iter_args(%i1#0, %v1) : !waveasm.sreg, !waveasm.vreg
  }
  waveasm.s_endpgm
)";

std::vector<conductor::ProfileRow> parseRows(llvm::StringRef csv) {
  llvm::Expected<std::vector<conductor::ProfileRow>> rows =
      conductor::parseProfileCSV(csv, "prof.csv");
  EXPECT_TRUE(static_cast<bool>(rows)) << llvm::toString(rows.takeError());
  return rows ? *rows : std::vector<conductor::ProfileRow>{};
}

/// The line (0-based) of the op entry `entry` in the correlated rows.
std::vector<int> linesOf(const ServerDoc &d,
                         const std::vector<OpProfile> &matched) {
  std::vector<int> lines;
  for (const OpProfile &m : matched)
    lines.push_back(d.parsed->getOps()[m.opEntry].name.start.line);
  return lines;
}

/// The op entry whose name starts on `line`.
unsigned entryOnLine(const ServerDoc &d, int line) {
  auto [begin, end] = d.parsed->getOpsOnLines(line, line);
  EXPECT_EQ(end, begin + 1);
  return begin;
}

/// 1-based assembly lines of the first program's op on `line`.
llvm::SmallVector<unsigned, 2> asmLinesOf(const ServerDoc &d, int line) {
  const CompiledProgram &program = d.compiled->getPrograms()[0].result;
  Operation *op = d.parsed->getOps()[entryOnLine(d, line)].op;
  llvm::SmallVector<unsigned, 2> lines;
  for (unsigned l : program.opLines.lookup(op))
    lines.push_back(l + 1);
  return lines;
}

TEST(ProfileHints, TagKeysNameTheInnermostLoopBody) {
  ServerDoc d(serverProgram(kLoop));
  std::vector<conductor::ProfileRow> rows =
      parseRows("key,hits,lat_min,lat_mean,lat_max\n"
                "I2,64,3,4,5\n"
                "i0,64,1,2,3\n"
                "I99,1,1,1,1\n"
                "bogus,1,1,1,1\n");
  std::vector<std::string> unmatched;
  std::vector<OpProfile> matched =
      correlateDocumentProfile(*d.parsed, d.compiled.get(), rows, &unmatched);
  // Sorted by op: I0 (%v1) before I2 (%more), both in the loop body, not
  // the program body's I0 (%c0).
  EXPECT_EQ(linesOf(d, matched),
            (std::vector<int>{d.line("%v1 ="), d.line("%more =")}));
  EXPECT_EQ(matched[0].row->key, "i0");
  EXPECT_FALSE(matched[0].inserted);
  EXPECT_EQ(unmatched, (std::vector<std::string>{"I99", "bogus"}));
}

TEST(ProfileHints, TagKeysNameTheProgramBodyWithoutLoops) {
  ServerDoc d(serverProgram(kLoadUse));
  std::vector<OpProfile> matched = correlateDocumentProfile(
      *d.parsed, nullptr, parseRows("I4,10,1,2,3\nI6,10,1,2,3\n"));
  EXPECT_EQ(linesOf(d, matched),
            (std::vector<int>{d.line("%y ="), d.line("s_endpgm")}));
}

TEST(ProfileHints, LineKeysGoThroughTheAssemblyLineMap) {
  ServerDoc d(serverProgram(kLoadUse));
  ASSERT_TRUE(d.compiled->succeeded());
  llvm::SmallVector<unsigned, 2> add = asmLinesOf(d, d.line("%y ="));
  llvm::SmallVector<unsigned, 2> store =
      asmLinesOf(d, d.line("buffer_store_dword"));
  ASSERT_EQ(add.size(), 1u);
  ASSERT_EQ(store.size(), 1u);
  // The load's use waits in an s_waitcnt the pipeline put right before it.
  const CompiledProgram &program = d.compiled->getPrograms()[0].result;
  unsigned wait = add[0] - 1;
  ASSERT_GE(wait, 1u);
  ASSERT_EQ(program.lineOps[wait - 1], nullptr);

  std::string csv = std::to_string(store[0]) + ",7,10,20,30\n" +
                    std::to_string(add[0]) + ",5,1,2,3\n" +
                    std::to_string(wait) + ",5,90,95,99\n" + "0,1,1,1,1\n" +
                    std::to_string(program.lineOps.size() + 1) + ",1,1,1,1\n";
  std::vector<conductor::ProfileRow> rows = parseRows(csv);
  std::vector<std::string> unmatched;
  std::vector<OpProfile> matched =
      correlateDocumentProfile(*d.parsed, d.compiled.get(), rows, &unmatched);
  EXPECT_EQ(linesOf(d, matched),
            (std::vector<int>{d.line("%y ="), d.line("%y ="),
                              d.line("buffer_store_dword")}));
  EXPECT_EQ(unmatched.size(), 2u);
  // CSV order within an op: the add's own line, then the wait before it.
  EXPECT_FALSE(matched[0].inserted);
  EXPECT_NE(matched[0].asmLine.find("v_add_u32"), std::string::npos);
  EXPECT_TRUE(matched[1].inserted);
  EXPECT_EQ(llvm::StringRef(matched[1].asmLine).split(' ').first, "s_waitcnt");

  // Without a fresh compile, line keys match nothing (tags still do).
  std::vector<std::string> stale;
  EXPECT_TRUE(
      correlateDocumentProfile(*d.parsed, nullptr, rows, &stale).empty());
  EXPECT_EQ(stale.size(), rows.size());
}

TEST(ProfileHints, HintsShowTheRowAndFollowTheSetting) {
  ServerDoc d(serverProgram(kLoadUse));
  DocumentProfile profile;
  profile.path = "/tmp/k.mlir.profile.csv";
  profile.rows = parseRows("key,hits,lat_min,lat_mean,lat_max\n"
                           "I4,1024,88,102.4,145\n");
  int line = d.line("%y =");
  lsp::Range range{{line, 0}, {line, 0}};
  auto profileHints = [&](const ServerSettings &settings) {
    std::vector<lsp::InlayHint> out;
    for (lsp::InlayHint &hint : computeInlayHints(*d.parsed, d.compiled.get(),
                                                  range, settings, &profile))
      if (llvm::StringRef(hint.label).starts_with("\xE2\x8F\xB1"))
        out.push_back(hint);
    return out;
  };
  std::vector<lsp::InlayHint> hints = profileHints(d.settings);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].label, "\xE2\x8F\xB1 102 cyc (88\xE2\x80\x93"
                            "145) \xC3\x97"
                            "1024");
  EXPECT_FALSE(hints[0].kind.has_value());
  EXPECT_NE(hints[0].tooltip.find("/tmp/k.mlir.profile.csv:2"),
            std::string::npos);
  EXPECT_NE(hints[0].tooltip.find("1024 hits"), std::string::npos);
  // After the op, like the other hints.
  EXPECT_EQ(hints[0].position,
            d.parsed->getOps()[entryOnLine(d, line)].scope.end);
  // Other lines get none.
  EXPECT_TRUE(computeInlayHints(*d.parsed, d.compiled.get(),
                                {{line + 1, 0}, {line + 1, 0}}, d.settings,
                                &profile)
                  .size() == computeInlayHints(*d.parsed, d.compiled.get(),
                                               {{line + 1, 0}, {line + 1, 0}},
                                               d.settings)
                                 .size());

  ServerSettings off = d.settings;
  off.hintProfile = false;
  EXPECT_TRUE(profileHints(off).empty());
  // Nothing else changes.
  EXPECT_EQ(
      computeInlayHints(*d.parsed, d.compiled.get(), range, off, &profile)
          .size(),
      computeInlayHints(*d.parsed, d.compiled.get(), range, d.settings).size());
}

TEST(ProfileHints, HoverOnAnOpShowsItsRows) {
  ServerDoc d(serverProgram(kLoadUse));
  DocumentProfile profile;
  profile.path = "p.csv";
  profile.rows = parseRows("I4,1024,88,102.4,145\nI3,7,1,2,3\n");
  lsp::Position add = d.pos("waveasm.v_add_u32", 3);
  std::optional<lsp::Hover> with =
      computeHover(*d.parsed, d.compiled.get(), add, &profile);
  ASSERT_TRUE(with);
  EXPECT_NE(with->contents.value.find("1024 hits"), std::string::npos);
  EXPECT_NE(with->contents.value.find("p.csv:1"), std::string::npos);
  // Only this op's rows.
  EXPECT_EQ(with->contents.value.find("7 hits"), std::string::npos);
  std::optional<lsp::Hover> without =
      computeHover(*d.parsed, d.compiled.get(), add);
  ASSERT_TRUE(without);
  EXPECT_EQ(without->contents.value.find("hits"), std::string::npos);
}

TEST(ProfileHints, RowsForAScheduleMeanTheSameOps) {
  ServerDoc d(serverProgram(kLoop), false);
  std::vector<conductor::ProfileRow> rows =
      parseRows("I1,1,1,1,1\n12,1,1,1,1\n");
  auto loop = d.parsed->getOps()[entryOnLine(d, d.line("waveasm.loop"))].op;
  Block *body = &loop->getRegion(0).front();
  std::vector<conductor::ProfileRow> inLoop =
      selectProfileRowsForBlock(*d.parsed, body, rows);
  EXPECT_EQ(inLoop.size(), 2u);
  // The program body is not the block tags refer to: lines only.
  Block *programBody = loop->getBlock();
  std::vector<conductor::ProfileRow> inProgram =
      selectProfileRowsForBlock(*d.parsed, programBody, rows);
  ASSERT_EQ(inProgram.size(), 1u);
  EXPECT_EQ(inProgram[0].key, "12");
}

TEST(ProfileFilesTest, ResolvesTheSetting) {
  EXPECT_EQ(resolveProfilePath(std::nullopt, "/w/k.mlir")->path,
            "/w/k.mlir.profile.csv");
  EXPECT_FALSE(resolveProfilePath(std::nullopt, "/w/k.mlir")->explicitPath);
  EXPECT_FALSE(resolveProfilePath(std::string(), "/w/k.mlir"));
  EXPECT_EQ(resolveProfilePath(std::string("p/x.csv"), "/w/k.mlir")->path,
            "/w/p/x.csv");
  EXPECT_TRUE(
      resolveProfilePath(std::string("p/x.csv"), "/w/k.mlir")->explicitPath);
  EXPECT_EQ(resolveProfilePath(std::string("/a/x.csv"), "/w/k.mlir")->path,
            "/a/x.csv");
}

TEST(ProfileFilesTest, LoadsCachesAndReportsErrors) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("waveasm-profile", dir));
  std::string path = (dir + "/k.mlir.profile.csv").str();
  auto write = [&](llvm::StringRef text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << text;
  };
  ProfileFiles files;
  // A missing default file is silent; a missing named one is an error.
  EXPECT_FALSE(files.load({path, false}).profile);
  EXPECT_TRUE(files.load({path, false}).error.empty());
  EXPECT_NE(files.load({path, true}).error.find(path), std::string::npos);

  write("I1,5,1,2,3\n");
  ProfileFiles::Result first = files.load({path, false});
  ASSERT_TRUE(first.profile);
  EXPECT_EQ(first.profile->rows.size(), 1u);
  EXPECT_EQ(first.profile->path, path);
  // Unchanged file: the same rows object.
  EXPECT_EQ(files.load({path, false}).profile, first.profile);

  // A different size is a different file.
  write("I1,5,1,2,3\nI2,oops,1,2,3\n");
  ProfileFiles::Result bad = files.load({path, false});
  EXPECT_FALSE(bad.profile);
  EXPECT_NE(bad.error.find(path + ":2:"), std::string::npos) << bad.error;
  llvm::sys::fs::remove(path);
  llvm::sys::fs::remove(dir);
}

TEST(ProfileFilesTest, Settings) {
  ServerSettings settings;
  RuntimeSettings runtime;
  EXPECT_TRUE(
      applySettingsJSON(
          llvm::json::Object{{"profile", "p.csv"},
                             {"hints", llvm::json::Object{{"profile", false}}}},
          settings, runtime)
          .empty());
  EXPECT_EQ(settings.profile, std::optional<std::string>("p.csv"));
  EXPECT_FALSE(settings.hintProfile);
  llvm::json::Value out = settingsToJSON(settings, runtime);
  EXPECT_EQ(*out.getAsObject()->getString("profile"), "p.csv");
  EXPECT_EQ(
      applySettingsJSON(llvm::json::Object{{"profile", 3}}, settings, runtime)
          .size(),
      1u);
  EXPECT_TRUE(applySettingsJSON(llvm::json::Object{{"profile", nullptr}},
                                settings, runtime)
                  .empty());
  EXPECT_FALSE(settings.profile.has_value());
}

} // namespace
