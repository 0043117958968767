//===- JsonDepthTest.cpp - nesting bounds on every JSON the project reads -===//

#include "analysis/Metrics.h"
#include "protocol/JsonRpc.h"
#include "support/BoundedJson.h"

#include <gtest/gtest.h>

using namespace waveasm;

namespace {

std::string nested(unsigned depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonDepth, CountsArraysAndObjectsOutsideStrings) {
  EXPECT_FALSE(checkJsonDepth(nested(kMaxJsonDepth)));
  std::optional<std::string> tooDeep =
      checkJsonDepth(nested(kMaxJsonDepth + 1));
  ASSERT_TRUE(tooDeep);
  EXPECT_EQ(*tooDeep, "JSON nested deeper than 256 levels (at byte 256)");
  EXPECT_TRUE(checkJsonDepth(R"({"a": {"b": [1]}})", 2));
  EXPECT_FALSE(checkJsonDepth(R"({"a": {"b": 1}, "c": [2]})", 2));
  // Brackets in strings, escaped quotes included, are data.
  EXPECT_FALSE(checkJsonDepth(R"(["[[[[", "\"[[[[", "\\"])", 1));
  EXPECT_TRUE(checkJsonDepth(R"(["\\", [[]]])", 2));
  // Unbalanced closers do not buy depth back.
  EXPECT_TRUE(checkJsonDepth("]]]][[[", 2));
}

TEST(JsonDepth, HundredThousandLevelsAreRefusedWithoutRecursion) {
  std::string deep = nested(100000);
  llvm::Expected<llvm::json::Value> parsed = parseJsonBounded(deep);
  ASSERT_FALSE(bool(parsed));
  EXPECT_NE(llvm::toString(parsed.takeError()).find("nested deeper than"),
            std::string::npos);
  llvm::Expected<llvm::json::Value> fine = parseJsonBounded(nested(100));
  ASSERT_TRUE(bool(fine)) << llvm::toString(fine.takeError());
}

TEST(JsonDepth, JsonRpcAnswersParseError) {
  lsp::IncomingMessage m =
      lsp::parseMessage(R"({"jsonrpc":"2.0","id":1,"method":"m","params":)" +
                        nested(100000, '{', '}') + "}");
  EXPECT_EQ(m.kind, lsp::IncomingMessage::Invalid);
  EXPECT_EQ(m.errorCode, lsp::ErrorCode::ParseError);
  EXPECT_NE(m.errorMessage.find("nested deeper than"), std::string::npos);
}

TEST(JsonDepth, MetricsJSONIsBounded) {
  auto metrics = parseMetricsJSON("{\"programs\": " + nested(100000) + "}");
  ASSERT_FALSE(bool(metrics));
  EXPECT_NE(llvm::toString(metrics.takeError()).find("nested deeper than"),
            std::string::npos);
}

} // namespace
