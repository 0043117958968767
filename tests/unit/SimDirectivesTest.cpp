//===- SimDirectivesTest.cpp - the one reader of `// waveasm-sim:` lines --===//
//
// readSimDirectives gives the options over a base, or the bad word with its
// line and column (what waveasm-sim prints as FILE:LINE:COL); the move code
// actions, one of its three users, say "not checked" when a line is bad
// and check by execution when it is not.
//
//===----------------------------------------------------------------------===//

#include "ServerTestUtils.h"
#include "TestUtils.h"

#include "sim/Directives.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace waveasm;
using namespace waveasm::sim;

namespace {

TEST(SimDirectives, OptionsOverTheBaseOrTheBadWordsLineAndColumn) {
  SimOptions base;
  base.seed = 9;
  base.kernargDwords[0] = 1;
  SimDirectives read = readSimDirectives(
      "// kernel\n  // waveasm-sim: --kernarg-dword=8:3 --byte-range=2:1-4\n",
      base);
  ASSERT_TRUE(read.ok()) << read.error->str();
  EXPECT_EQ(read.options.seed, 9u);
  EXPECT_EQ(read.options.kernargDwords.at(0), 1u);
  EXPECT_EQ(read.options.kernargDwords.at(8), 3u);
  EXPECT_EQ(read.options.initial.byteRanges.at(2),
            std::make_pair(uint8_t(1), uint8_t(4)));

  // Line 3, the second word: column 41 (1-based, the indentation counted).
  read = readSimDirectives("\n\n   //   waveasm-sim: --byte-range=1:0-9 "
                           "--kernarg-dword=6:1\n");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error->line, 3u);
  EXPECT_EQ(read.error->column, 41u);
  EXPECT_EQ(read.error->str("k.mlir"),
            "k.mlir:3:41: waveasm-sim directive: '--kernarg-dword=6:1': "
            "expected --kernarg-dword=OFFSET:VALUE with OFFSET a multiple of "
            "4 below 256");
  // Without a file: the line, as the Conductor's warning says it.
  EXPECT_EQ(read.error->str().rfind("line 3: waveasm-sim directive: ", 0), 0u)
      << read.error->str();
  // applySimDirectives is the same reader.
  SimOptions options;
  llvm::Error error = applySimDirectives(
      "// waveasm-sim: --byte-range=1:0-9 --waves=2\n", options);
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "line 1: waveasm-sim directive: unknown option '--waves=2' "
            "(known: --byte-range=K:LO-HI, --kernarg-dword=OFFSET:VALUE, "
            "--descriptor=K:J[+OFFSET])");
}

TEST(SimDirectives, ADescriptorIntoAnotherBufferOverlapsIt) {
  // Descriptor 2 into buffer 1's bytes from 4 KiB on: the buffers overlap
  // (what a loop versioned on its descriptors apart must survive).
  SimDirectives read =
      readSimDirectives("// waveasm-sim: --descriptor=2:1+4096 "
                        "--descriptor=0:3\n");
  ASSERT_TRUE(read.ok()) << read.error->str();
  ASSERT_EQ(read.options.descriptorAt.size(), 2u);
  EXPECT_EQ(read.options.descriptorAt[2], std::make_pair(1u, uint64_t(4096)));
  EXPECT_EQ(read.options.descriptorAt[0], std::make_pair(3u, uint64_t(0)));
  // A buffer past the environment's, or no buffer at all, is the word's
  // error.
  for (const char *bad : {"--descriptor=2:9", "--descriptor=2",
                          "--descriptor=x:1", "--descriptor=2:1+y"}) {
    read = readSimDirectives(std::string("// waveasm-sim: ") + bad + "\n");
    ASSERT_FALSE(read.ok()) << bad;
    EXPECT_NE(read.error->message.find("expected --descriptor=K:J[+OFFSET]"),
              std::string::npos)
        << read.error->message;
  }
}

TEST(SimDirectives, AMalformedLineLeavesTheMoveActionsUnchecked) {
  // A kernel the simulator runs (the load placed by its kernarg dword):
  // its moves are checked on the file's inputs; with the directive
  // malformed, every move offered says it was not checked.
  auto buffer = llvm::MemoryBuffer::getFile(
      std::string(waveasm::test::examplesDir()) +
      "/../tests/lit/sim/Inputs/aliasing-kernarg-gap.mlir");
  ASSERT_TRUE(bool(buffer));
  std::string good = (*buffer)->getBuffer().str();
  std::string bad = good;
  size_t at = bad.find("--kernarg-dword=48:0");
  ASSERT_NE(at, std::string::npos);
  bad.replace(at, 20, "--kernarg-dword=47:0");
  server::ServerSettings settings;
  settings.checkByExecution = true;
  test::ServerDoc checked(good, false, settings),
      unchecked(bad, false, settings);
  ASSERT_TRUE(checked.parsed->isVerified() && unchecked.parsed->isVerified());
  llvm::StringRef suffix = " (not checked by execution)";
  unsigned offeredGood = 0, offeredBad = 0, notCheckedGood = 0;
  for (int line = 0; line < int(checked.parsed->getLines().getNumLines());
       ++line) {
    llvm::StringRef lineText = checked.parsed->getLines().getLine(line);
    if (!lineText.ltrim().starts_with("%"))
      continue;
    lsp::Position pos{line, int(lineText.size() - lineText.ltrim().size())};
    for (const lsp::CodeAction &action :
         computeSingleMoveActions(*checked.parsed, pos, settings)) {
      ++offeredGood;
      notCheckedGood += llvm::StringRef(action.title).ends_with(suffix);
    }
    for (const lsp::CodeAction &action :
         computeSingleMoveActions(*unchecked.parsed, pos, settings)) {
      ++offeredBad;
      EXPECT_TRUE(llvm::StringRef(action.title).ends_with(suffix))
          << action.title;
    }
  }
  EXPECT_GT(offeredGood, 0u);
  EXPECT_GT(offeredBad, 0u);
  EXPECT_EQ(notCheckedGood, 0u);
}

} // namespace
