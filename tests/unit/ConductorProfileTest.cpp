//===- ConductorProfileTest.cpp - profile CSV correlated to tags ----------===//

#include "ConductorTestUtils.h"
#include "TestPaths.h"

#include "conductor/Profile.h"
#include "pipeline/CompileAndMeasure.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace waveasm;
using namespace waveasm::conductor;
using waveasm::test::makeSession;
using waveasm::test::TestContext;

TEST(ConductorProfile, ParsesCSVWithHeaderAndComments) {
  auto rows = parseProfileCSV("key,hits,lat_min,lat_mean,lat_max\n"
                              "# rocprof export\n"
                              "I0, 1024, 88, 102.5, 145\n"
                              "17,1024,0,45,120\n");
  ASSERT_TRUE(!!rows) << llvm::toString(rows.takeError());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].key, "I0");
  EXPECT_EQ((*rows)[0].hits, 1024);
  EXPECT_EQ((*rows)[0].latMean, 102.5);
  EXPECT_EQ((*rows)[1].key, "17");
  EXPECT_EQ((*rows)[1].csvLine, 4u);

  auto bad = parseProfileCSV("I0,1,2,3\n", "p.csv");
  ASSERT_FALSE(!!bad);
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "p.csv:1: expected 5 columns (key,hits,lat_min,lat_mean,lat_max), "
            "got 4");
  auto notNumber = parseProfileCSV("I0,1,2,3,4\nI1,x,2,3,4\n", "p.csv");
  ASSERT_FALSE(!!notNumber);
  EXPECT_EQ(llvm::toString(notNumber.takeError()),
            "p.csv:2: hits 'x' is not an integer");
}

TEST(ConductorProfile, CorrelatesTagsAndAssemblyLines) {
  TestContext t;
  OwningOpRef<ModuleOp> module = t.parseModule(
      waveasm::test::readFile(std::string(waveasm::test::examplesDir()) +
                              "/gemm_f16_double_buffer.mlir"));
  ASSERT_TRUE(module) << t.diagnostics;
  auto session = makeSession(*module);
  ASSERT_TRUE(session);

  // Find, in the assembly of the session's schedule, the line of I14 (the
  // first MFMA) and a wait the pipeline inserted inside the loop.
  FailureOr<CompileResult> compiled =
      compileAndMeasure(session->bestModule(), CompileOptions());
  ASSERT_TRUE(succeeded(compiled));
  const CompiledProgram &program = compiled->programs[0];
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(program.assembly).split(lines, '\n');
  Operation *mfma = findTag(session->region(), "I14");
  unsigned mfmaLine = 0, waitLine = 0;
  for (unsigned i = 0; i < program.lineOps.size(); ++i) {
    if (program.lineOps[i] == mfma && !mfmaLine)
      mfmaLine = i + 1;
    if (!program.lineOps[i] && lines[i].trim().starts_with("s_waitcnt") &&
        i + 1 < program.lineOps.size() && program.lineOps[i + 1] &&
        program.lineOps[i + 1]->getBlock() == session->region().block &&
        !waitLine)
      waitLine = i + 1;
  }
  ASSERT_NE(mfmaLine, 0u);
  ASSERT_NE(waitLine, 0u);
  std::string next = getTag(program.lineOps[waitLine])->str();

  std::string csv = "I3,1024,90,105,148\n" + std::to_string(mfmaLine) +
                    ",1024,32,33,35\n" + std::to_string(waitLine) +
                    ",1024,0,45,120\nI99,1,1,1,1\n999999,1,1,1,1\n";
  auto rows = parseProfileCSV(csv);
  ASSERT_TRUE(!!rows);
  std::vector<std::string> unmatched;
  std::vector<TaggedProfile> tagged =
      correlateProfile(*session, *rows, &unmatched);
  ASSERT_EQ(tagged.size(), 3u);
  EXPECT_EQ(tagged[0].tag, "I3");
  EXPECT_EQ(tagged[0].mnemonic, "buffer_load_dwordx4");
  EXPECT_EQ(tagged[1].tag, "I14");
  EXPECT_EQ(tagged[1].mnemonic, "v_mfma_f32_16x16x16_f16");
  EXPECT_EQ(tagged[2].tag, "before " + next);
  EXPECT_EQ(tagged[2].mnemonic, "s_waitcnt");
  EXPECT_EQ(unmatched, (std::vector<std::string>{"I99", "999999"}));

  std::string section = formatProfileSection(tagged);
  EXPECT_TRUE(llvm::StringRef(section).starts_with(
      "--- Profiling (rocprof, previous run) ---\n"
      "I3   buffer_load_dwordx4    hits=1024   lat_min=90   lat_mean=105  "
      "lat_max=148\n"))
      << section;
  session->setProfilingSection(section);
  EXPECT_NE(session->prompt().find(section), std::string::npos);
}
