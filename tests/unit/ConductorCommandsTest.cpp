//===- ConductorCommandsTest.cpp - the move command parser ----------------===//

#include "conductor/Commands.h"

#include <gtest/gtest.h>

using namespace waveasm::conductor;

TEST(ConductorCommands, ParsesTheFourCommands) {
  ParsedReply reply =
      parseReply("move I5 after I1\nmove I8 before I3\nswap I6 I9\ndone\n");
  ASSERT_EQ(reply.commands.size(), 3u);
  EXPECT_EQ(reply.commands[0], MoveCommand::moveAfter("I5", "I1"));
  EXPECT_EQ(reply.commands[1], MoveCommand::moveBefore("I8", "I3"));
  EXPECT_EQ(reply.commands[2], MoveCommand::swap("I6", "I9"));
  EXPECT_TRUE(reply.done);
  EXPECT_TRUE(reply.ignoredLines.empty());
  EXPECT_EQ(reply.commands[0].text(), "move I5 after I1");
  EXPECT_EQ(reply.commands[1].text(), "move I8 before I3");
  EXPECT_EQ(reply.commands[2].text(), "swap I6 I9");
  EXPECT_EQ(MoveCommand::done().text(), "done");
}

TEST(ConductorCommands, ToleratesProseFencesAndCase) {
  ParsedReply reply = parseReply(R"(Sure! To hide the LDS latency I suggest:

```text
MOVE i5 AFTER i1
- move I8 before I3
1. `swap I6 I9`
**move I2 after I7**
Move I4 before I0.
```
That should interleave the reads with the MFMAs.
Done.
)");
  ASSERT_EQ(reply.commands.size(), 5u);
  EXPECT_EQ(reply.commands[0], MoveCommand::moveAfter("I5", "I1"));
  EXPECT_EQ(reply.commands[1], MoveCommand::moveBefore("I8", "I3"));
  EXPECT_EQ(reply.commands[2], MoveCommand::swap("I6", "I9"));
  EXPECT_EQ(reply.commands[3], MoveCommand::moveAfter("I2", "I7"));
  EXPECT_EQ(reply.commands[4], MoveCommand::moveBefore("I4", "I0"));
  EXPECT_TRUE(reply.done);
  ASSERT_EQ(reply.ignoredLines.size(), 2u);
  EXPECT_EQ(reply.ignoredLines[0], "Sure! To hide the LDS latency I suggest:");
  EXPECT_EQ(reply.ignoredLines[1],
            "That should interleave the reads with the MFMAs.");
}

TEST(ConductorCommands, StrictGrammar) {
  for (const char *line :
       {"move I5 after I1 please", "move I5 to I1", "swap I5", "move 5 after 1",
        "move I5 after", "swap I5 I6 I7", "move I5 behind I1", "mv I5 after I1",
        "move I5after I1", "swap I5, I6", "move IX after I1", "done now"}) {
    ParsedReply reply = parseReply(line);
    EXPECT_TRUE(reply.commands.empty()) << line;
    EXPECT_FALSE(reply.done) << line;
    ASSERT_EQ(reply.ignoredLines.size(), 1u) << line;
    EXPECT_EQ(reply.ignoredLines[0], line);
  }
}

TEST(ConductorCommands, NothingAfterDoneCounts) {
  ParsedReply reply = parseReply("swap I1 I2\ndone\nmove I3 after I4\n");
  ASSERT_EQ(reply.commands.size(), 1u);
  EXPECT_TRUE(reply.done);
}

TEST(ConductorCommands, EmptyAndGarbageReplies) {
  EXPECT_TRUE(parseReply("").commands.empty());
  ParsedReply garbage = parseReply("\x01\x02 {}\n```\n```\n");
  EXPECT_TRUE(garbage.commands.empty());
  EXPECT_EQ(garbage.ignoredLines.size(), 1u);
}

TEST(ConductorCommands, StageCommand) {
  ParsedReply reply = parseReply("stage I5 1\n- `STAGE i12 0`\n**stage I3 2**\n"
                                 "stage I4 -1\nstage I4 x\nstage I4\n"
                                 "stage 4 1\nstage I4 1 2\nstage I4 1000\n");
  ASSERT_EQ(reply.commands.size(), 3u);
  EXPECT_EQ(reply.commands[0], MoveCommand::setStage("I5", 1));
  EXPECT_EQ(reply.commands[1], MoveCommand::setStage("I12", 0));
  EXPECT_EQ(reply.commands[2], MoveCommand::setStage("I3", 2));
  EXPECT_EQ(reply.commands[0].text(), "stage I5 1");
  EXPECT_FALSE(MoveCommand::setStage("I5", 1) ==
               MoveCommand::setStage("I5", 2));
  EXPECT_EQ(
      reply.ignoredLines,
      (std::vector<std::string>{"stage I4 -1", "stage I4 x", "stage I4",
                                "stage 4 1", "stage I4 1 2", "stage I4 1000"}));
  // Its text parses back to itself (the cache replays texts).
  EXPECT_EQ(parseCommand(reply.commands[1].text()), reply.commands[1]);
}
