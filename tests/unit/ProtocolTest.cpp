//===- ProtocolTest.cpp - framing, JSON-RPC, dispatcher, LSP JSON ---------===//

#include "protocol/Dispatcher.h"
#include "protocol/Framing.h"
#include "protocol/JsonRpc.h"
#include "protocol/LspParamsJSON.h"
#include "protocol/Uri.h"

#include <gtest/gtest.h>

using namespace waveasm::lsp;
namespace json = llvm::json;

namespace {

std::string frame(llvm::StringRef body) { return frameMessage(body); }

/// Feeds `chunks` one after the other; returns the events.
std::vector<FramingEvent> feedAll(MessageReader &reader,
                                  std::initializer_list<std::string> chunks) {
  std::vector<FramingEvent> events;
  for (const std::string &chunk : chunks)
    reader.feed(chunk, events);
  return events;
}

std::vector<std::string> messages(const std::vector<FramingEvent> &events) {
  std::vector<std::string> out;
  for (const FramingEvent &e : events)
    if (e.kind == FramingEvent::Message)
      out.push_back(e.text);
  return out;
}

size_t count(const std::vector<FramingEvent> &events, FramingEvent::Kind kind) {
  return llvm::count_if(events,
                        [&](const FramingEvent &e) { return e.kind == kind; });
}

const std::string kA = R"({"jsonrpc":"2.0","id":1,"method":"a"})";
const std::string kB = R"({"jsonrpc":"2.0","method":"b","params":{"x":"é"}})";

} // namespace

//===--- framing
//----------------------------------------------------------------===//

TEST(Framing, OneMessage) {
  MessageReader reader;
  auto events = feedAll(reader, {frame(kA)});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, FramingEvent::Message);
  EXPECT_EQ(events[0].text, kA);
  EXPECT_FALSE(reader.hasPartialMessage());
}

TEST(Framing, SplitAtEveryByte) {
  std::string stream = frame(kA) + frame(kB);
  for (size_t cut = 1; cut < stream.size(); ++cut) {
    MessageReader reader;
    auto events = feedAll(reader, {stream.substr(0, cut), stream.substr(cut)});
    EXPECT_EQ(messages(events), (std::vector<std::string>{kA, kB}))
        << "cut at " << cut;
    EXPECT_EQ(events.size(), 2u) << "cut at " << cut;
  }
}

TEST(Framing, ByteByByte) {
  std::string stream = frame(kA) + frame(kB);
  MessageReader reader;
  std::vector<FramingEvent> events;
  for (char c : stream) {
    reader.feed(llvm::StringRef(&c, 1), events);
    if (events.empty())
      EXPECT_TRUE(reader.hasPartialMessage());
  }
  EXPECT_EQ(messages(events), (std::vector<std::string>{kA, kB}));
  EXPECT_FALSE(reader.hasPartialMessage());
}

TEST(Framing, TwoMessagesInOneRead) {
  MessageReader reader;
  auto events = feedAll(reader, {frame(kA) + frame(kB)});
  EXPECT_EQ(messages(events), (std::vector<std::string>{kA, kB}));
}

TEST(Framing, ContentTypeAndCaseAndLF) {
  MessageReader reader;
  std::string typeFirst = "Content-Type: application/vscode-jsonrpc; "
                          "charset=utf-8\r\nContent-Length: " +
                          std::to_string(kA.size()) + "\r\n\r\n" + kA;
  std::string typeAfter = "content-length: " + std::to_string(kB.size()) +
                          "\r\nContent-Type: application/json\r\n\r\n" + kB;
  std::string bareLF =
      "Content-Length:" + std::to_string(kA.size()) + "\n\n" + kA;
  auto events = feedAll(reader, {typeFirst, typeAfter, bareLF});
  EXPECT_EQ(messages(events), (std::vector<std::string>{kA, kB, kA}));
  EXPECT_EQ(events.size(), 3u);
}

TEST(Framing, MultiByteBodyCountsBytes) {
  // "é" is two bytes: a length counted in characters would cut the body.
  MessageReader reader;
  auto events = feedAll(reader, {frame(kB)});
  ASSERT_EQ(messages(events).size(), 1u);
  EXPECT_EQ(messages(events)[0], kB);
}

TEST(Framing, BadContentLengthResynchronizes) {
  for (std::string bad :
       {"abc", "-5", "", "12x", "99999999999999999999", "999999999999"}) {
    MessageReader reader;
    auto events = feedAll(
        reader, {"Content-Length: " + bad + "\r\n\r\n" + kA, frame(kB)});
    EXPECT_EQ(count(events, FramingEvent::BadHeader), 1u) << bad;
    EXPECT_EQ(messages(events), std::vector<std::string>{kB}) << bad;
    EXPECT_FALSE(reader.hasPartialMessage()) << bad;
  }
}

TEST(Framing, HugeLengthIsRefusedNotAwaited) {
  MessageReader reader(/*maxContentLength=*/1024);
  auto events = feedAll(reader, {"Content-Length: 4096\r\n\r\n{}", frame(kA)});
  EXPECT_EQ(count(events, FramingEvent::BadHeader), 1u);
  EXPECT_EQ(messages(events), std::vector<std::string>{kA});
}

TEST(Framing, MissingContentLength) {
  MessageReader reader;
  auto events = feedAll(reader, {"Content-Type: x\r\n\r\n" + kA, frame(kB)});
  EXPECT_EQ(messages(events), std::vector<std::string>{kB});
  EXPECT_GE(count(events, FramingEvent::Skipped), 1u);
}

TEST(Framing, GarbageBetweenMessages) {
  MessageReader reader;
  auto events =
      feedAll(reader, {frame(kA) + "garbage\r\n{not a header}" + frame(kB)});
  EXPECT_EQ(messages(events), (std::vector<std::string>{kA, kB}));
  EXPECT_EQ(count(events, FramingEvent::Skipped), 1u);
}

TEST(Framing, OverlongLengthStopsAtNextHeader) {
  // The declared length covers the next message too; the reader must not
  // swallow it (nor wait for bytes that never come).
  MessageReader reader;
  std::string wrong =
      "Content-Length: " + std::to_string(kA.size() + 100) + "\r\n\r\n" + kA;
  auto events = feedAll(reader, {wrong + frame(kB)});
  EXPECT_EQ(messages(events), (std::vector<std::string>{kA, kB}));
  EXPECT_FALSE(reader.hasPartialMessage());
}

TEST(Framing, ContentLengthInsideAStringIsData) {
  std::string body =
      R"({"jsonrpc":"2.0","method":"m","params":{"t":"Content-Length: 3 \" Content-Length"}})";
  MessageReader reader;
  auto events = feedAll(reader, {frame(body), frame(kA)});
  EXPECT_EQ(messages(events), (std::vector<std::string>{body, kA}));
  EXPECT_EQ(events.size(), 2u);
}

TEST(Framing, ShortLengthTruncatesThenRecovers) {
  MessageReader reader;
  std::string wrong = "Content-Length: 5\r\n\r\n" + kA;
  auto events = feedAll(reader, {wrong + frame(kB)});
  std::vector<std::string> bodies = messages(events);
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[0], kA.substr(0, 5));
  EXPECT_EQ(bodies[1], kB);
}

TEST(Framing, PartialHeaderWaits) {
  MessageReader reader;
  auto events = feedAll(reader, {"Content-Len"});
  EXPECT_TRUE(events.empty());
  EXPECT_TRUE(reader.hasPartialMessage());
  events =
      feedAll(reader, {"gth: " + std::to_string(kA.size()) + "\r\n\r\n" + kA});
  EXPECT_EQ(messages(events), std::vector<std::string>{kA});
}

TEST(Framing, FrameMessage) {
  EXPECT_EQ(frameMessage("{}"), "Content-Length: 2\r\n\r\n{}");
  EXPECT_EQ(frameMessage("\"é\""), "Content-Length: 4\r\n\r\n\"é\"");
}

//===--- JSON-RPC
//---------------------------------------------------------------===//

TEST(JsonRpc, Classifies) {
  IncomingMessage m = parseMessage(kA);
  EXPECT_EQ(m.kind, IncomingMessage::Request);
  EXPECT_EQ(m.method, "a");
  EXPECT_EQ(m.id, json::Value(1));

  m = parseMessage(kB);
  EXPECT_EQ(m.kind, IncomingMessage::Notification);
  EXPECT_EQ(m.method, "b");

  m = parseMessage(R"({"jsonrpc":"2.0","id":"x","result":null})");
  EXPECT_EQ(m.kind, IncomingMessage::Response);
  EXPECT_EQ(m.id, json::Value("x"));

  m = parseMessage(
      R"({"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m"}})");
  EXPECT_EQ(m.kind, IncomingMessage::Response);
  EXPECT_TRUE(m.error.has_value());
}

TEST(JsonRpc, Malformed) {
  struct Case {
    const char *body;
    ErrorCode code;
    json::Value id;
  } cases[] = {
      {"{not json", ErrorCode::ParseError, nullptr},
      {"", ErrorCode::ParseError, nullptr},
      {"[1,2]", ErrorCode::InvalidRequest, nullptr},
      {"42", ErrorCode::InvalidRequest, nullptr},
      {R"({"id":7,"method":"m"})", ErrorCode::InvalidRequest, 7},
      {R"({"jsonrpc":"1.0","id":7,"method":"m"})", ErrorCode::InvalidRequest,
       7},
      {R"({"jsonrpc":"2.0","id":{"a":1},"method":"m"})",
       ErrorCode::InvalidRequest, nullptr},
      {R"({"jsonrpc":"2.0","id":8,"method":5})", ErrorCode::InvalidRequest, 8},
      {R"({"jsonrpc":"2.0","id":9})", ErrorCode::InvalidRequest, 9},
      {R"({"jsonrpc":"2.0","id":9,"method":"m","params":3})",
       ErrorCode::InvalidRequest, 9},
  };
  for (const Case &c : cases) {
    IncomingMessage m = parseMessage(c.body);
    EXPECT_EQ(m.kind, IncomingMessage::Invalid) << c.body;
    EXPECT_EQ(m.errorCode, c.code) << c.body;
    EXPECT_EQ(m.id, c.id) << c.body;
    EXPECT_FALSE(m.errorMessage.empty());
  }
}

TEST(JsonRpc, Builders) {
  EXPECT_EQ(
      serialize(makeRequest(3, "workspace/inlayHint/refresh", nullptr)),
      R"({"id":3,"jsonrpc":"2.0","method":"workspace/inlayHint/refresh"})");
  EXPECT_EQ(serialize(makeNotification("m", json::Object{{"a", 1}})),
            R"({"jsonrpc":"2.0","method":"m","params":{"a":1}})");
  EXPECT_EQ(
      serialize(makeErrorResponse(nullptr, ErrorCode::ParseError, "x")),
      R"({"error":{"code":-32700,"message":"x"},"id":null,"jsonrpc":"2.0"})");
  EXPECT_EQ(serialize(makeResponse("a", nullptr)),
            R"({"id":"a","jsonrpc":"2.0","result":null})");
}

//===--- dispatcher
//-------------------------------------------------------------===//

namespace {

struct Harness {
  std::vector<json::Value> out;
  Dispatcher dispatcher{[this](const json::Value &m) { out.push_back(m); }};
  std::optional<int> exitCode;
  std::vector<Reply<json::Value>> parked;
  std::vector<std::string> notes;

  Harness() {
    dispatcher.onRequest<NoParams, json::Value>(
        "initialize", [](const NoParams &, Reply<json::Value> reply) {
          reply(json::Object{{"capabilities", json::Object{}}});
        });
    dispatcher.onRequest<NoParams, json::Value>(
        "shutdown",
        [](const NoParams &, Reply<json::Value> reply) { reply(nullptr); });
    dispatcher.onRequest<TextDocumentPositionParams, json::Value>(
        "echo", [](const TextDocumentPositionParams &p,
                   Reply<json::Value> reply) { reply(p.position.line); });
    dispatcher.onRequest<NoParams, json::Value>(
        "park", [this](const NoParams &, Reply<json::Value> reply) {
          parked.push_back(std::move(reply));
        });
    dispatcher.onRequest<NoParams, json::Value>(
        "drop", [](const NoParams &, Reply<json::Value>) {});
    dispatcher.onNotification<DocumentParams>(
        "note", [this](const DocumentParams &p) {
          notes.push_back(p.textDocument.uri);
        });
    dispatcher.onExit([this](int code) { exitCode = code; });
  }

  void request(json::Value id, llvm::StringRef method,
               json::Value params = json::Object{}) {
    dispatcher.handleMessage(
        serialize(makeRequest(std::move(id), method, std::move(params))));
  }
  void notify(llvm::StringRef method, json::Value params = json::Object{}) {
    dispatcher.handleMessage(
        serialize(makeNotification(method, std::move(params))));
  }
  void initialize() {
    request(0, "initialize");
    out.clear();
  }

  /// The error code of the last message, or 0 if it was not an error.
  int64_t lastErrorCode() {
    if (out.empty())
      return 0;
    const json::Object *error = out.back().getAsObject()->getObject("error");
    return error ? *error->getInteger("code") : 0;
  }
  json::Value lastId() { return *out.back().getAsObject()->get("id"); }
};

} // namespace

TEST(Dispatcher, ServerNotInitialized) {
  Harness h;
  h.request(1, "echo");
  EXPECT_EQ(h.lastErrorCode(), -32002);
  EXPECT_EQ(h.lastId(), json::Value(1));
  h.out.clear();
  h.notify("note", json::Object{{"textDocument", json::Object{{"uri", "u"}}}});
  EXPECT_TRUE(h.notes.empty()); // dropped before initialize
  EXPECT_TRUE(h.out.empty());
}

TEST(Dispatcher, InitializeOnce) {
  Harness h;
  h.request(1, "initialize");
  ASSERT_EQ(h.out.size(), 1u);
  EXPECT_EQ(h.lastErrorCode(), 0);
  EXPECT_EQ(h.dispatcher.state(), Dispatcher::State::Running);
  h.request(2, "initialize");
  EXPECT_EQ(h.lastErrorCode(), -32600);
}

TEST(Dispatcher, Errors) {
  Harness h;
  h.initialize();
  h.request(1, "no/such/method");
  EXPECT_EQ(h.lastErrorCode(), -32601);
  h.request("s", "$/custom");
  EXPECT_EQ(h.lastErrorCode(), -32601);
  EXPECT_EQ(h.lastId(), json::Value("s"));
  h.request(2, "echo", json::Object{{"position", 3}});
  EXPECT_EQ(h.lastErrorCode(), -32602);
  h.dispatcher.handleMessage("{garbage");
  EXPECT_EQ(h.lastErrorCode(), -32700);
  EXPECT_EQ(h.lastId(), json::Value(nullptr));
  h.dispatcher.handleMessage(R"({"jsonrpc":"2.0","id":5})");
  EXPECT_EQ(h.lastErrorCode(), -32600);
  EXPECT_EQ(h.lastId(), json::Value(5));
  h.dispatcher.handleBadHeader("invalid Content-Length 'x'");
  EXPECT_EQ(h.lastErrorCode(), -32700);

  // Unknown and $/ notifications: no answer at all.
  h.out.clear();
  h.notify("no/such/notification");
  h.notify("$/setTrace", json::Object{{"value", "off"}});
  EXPECT_TRUE(h.out.empty());

  // And the server still answers.
  h.request(3, "echo",
            json::Object{{"textDocument", json::Object{{"uri", "u"}}},
                         {"position", Position{4, 2}}});
  ASSERT_EQ(h.out.size(), 1u);
  EXPECT_EQ(*h.out.back().getAsObject()->get("result"), json::Value(4));
}

TEST(Dispatcher, CancelPendingRequest) {
  Harness h;
  h.initialize();
  h.request(7, "park");
  ASSERT_EQ(h.parked.size(), 1u);
  EXPECT_EQ(h.dispatcher.pendingRequestCount(), 1u);
  CancellationToken token = h.parked[0].token();
  EXPECT_FALSE(token.isCancelled());
  h.notify("$/cancelRequest", json::Object{{"id", 7}});
  ASSERT_EQ(h.out.size(), 1u);
  EXPECT_EQ(h.lastErrorCode(), -32800);
  EXPECT_EQ(h.lastId(), json::Value(7));
  EXPECT_TRUE(token.isCancelled());
  EXPECT_EQ(h.dispatcher.pendingRequestCount(), 0u);
  // The late answer goes nowhere.
  h.parked[0](json::Value(1));
  EXPECT_EQ(h.out.size(), 1u);
  // Cancelling something already answered is harmless.
  h.notify("$/cancelRequest", json::Object{{"id", 7}});
  h.notify("$/cancelRequest", json::Object{{"id", "nope"}});
  EXPECT_EQ(h.out.size(), 1u);
}

TEST(Dispatcher, DroppedReplyIsAnInternalError) {
  Harness h;
  h.initialize();
  h.request(8, "drop");
  ASSERT_EQ(h.out.size(), 1u);
  EXPECT_EQ(h.lastErrorCode(), -32603);
}

TEST(Dispatcher, ShutdownThenExit) {
  Harness h;
  h.initialize();
  h.request(1, "shutdown");
  EXPECT_EQ(h.lastErrorCode(), 0);
  EXPECT_EQ(h.dispatcher.state(), Dispatcher::State::ShuttingDown);
  h.request(2, "echo");
  EXPECT_EQ(h.lastErrorCode(), -32600);
  h.notify("exit");
  EXPECT_EQ(h.exitCode, 0);
  size_t before = h.out.size();
  h.request(3, "echo");
  EXPECT_EQ(h.out.size(), before); // nothing after exit
}

TEST(Dispatcher, ExitWithoutShutdown) {
  Harness h;
  h.initialize();
  h.notify("exit");
  EXPECT_EQ(h.exitCode, 1);
  Harness early;
  early.notify("exit");
  EXPECT_EQ(early.exitCode, 1);
}

TEST(Dispatcher, OutgoingRequests) {
  Harness h;
  h.initialize();
  std::optional<std::string> got;
  h.dispatcher.call("window/workDoneProgress/create",
                    json::Object{{"token", "t"}},
                    [&](llvm::Expected<json::Value> r) {
                      got = r ? "ok" : llvm::toString(r.takeError());
                    });
  ASSERT_EQ(h.out.size(), 1u);
  json::Value id = h.lastId();
  EXPECT_EQ(*h.out.back().getAsObject()->getString("method"),
            "window/workDoneProgress/create");
  h.dispatcher.handleMessage(serialize(makeResponse(id, nullptr)));
  EXPECT_EQ(got, "ok");
  // A stray response is ignored.
  h.dispatcher.handleMessage(serialize(makeResponse("zzz", nullptr)));
  EXPECT_EQ(h.out.size(), 1u);
}

//===--- LSP JSON round trips
//---------------------------------------------------===//

namespace {

/// toJSON(fromJSON(toJSON(v))) == toJSON(v).
template <typename T> void expectRoundTrip(const T &value) {
  json::Value first = toJSON(value);
  // Through text, as on the wire.
  llvm::Expected<json::Value> reparsed = json::parse(serialize(first));
  ASSERT_TRUE(bool(reparsed));
  T decoded;
  json::Path::Root root;
  ASSERT_TRUE(fromJSON(*reparsed, decoded, root))
      << llvm::toString(root.getError()) << "\n"
      << serialize(first);
  EXPECT_EQ(toJSON(decoded), first) << serialize(first);
}

Range rng(int l0, int c0, int l1, int c1) { return Range{{l0, c0}, {l1, c1}}; }

} // namespace

TEST(LspJSON, RoundTrips) {
  expectRoundTrip(Position{3, 7});
  expectRoundTrip(rng(1, 2, 3, 4));
  expectRoundTrip(Location{"file:///a.mlir", rng(0, 0, 0, 5)});

  Diagnostic d;
  d.range = rng(4, 2, 4, 9);
  d.severity = DiagnosticSeverity::Warning;
  d.code = "stall";
  d.message = "waits 120 cycles";
  d.related.push_back({Location{"file:///a.mlir", rng(1, 0, 1, 3)}, "load"});
  expectRoundTrip(d);
  Diagnostic plain;
  plain.message = "m";
  expectRoundTrip(plain);

  expectRoundTrip(MarkupContent{MarkupKind::PlainText, "x"});
  expectRoundTrip(
      Hover{MarkupContent{MarkupKind::Markdown, "**v_add**"}, rng(0, 1, 0, 2)});
  expectRoundTrip(
      Hover{MarkupContent{MarkupKind::Markdown, "x"}, std::nullopt});

  InlayHint hint;
  hint.position = {5, 80};
  hint.label = "4c";
  hint.kind = InlayHintKind::Type;
  hint.tooltip = "latency";
  hint.paddingLeft = true;
  expectRoundTrip(hint);
  expectRoundTrip(InlayHint{});

  WorkspaceEdit edit;
  edit.changes["file:///a.mlir"] = {TextEdit{rng(0, 0, 0, 1), "%x"},
                                    TextEdit{rng(2, 0, 2, 1), "%x"}};
  expectRoundTrip(edit);
  // Versioned edits (documentChanges) alone, and a null version.
  WorkspaceEdit versioned;
  versioned.documentChanges.push_back(
      {"file:///a.mlir", 7, {TextEdit{rng(1, 0, 3, 0), "b\na\n"}}});
  versioned.documentChanges.push_back({"file:///b.mlir", std::nullopt, {}});
  versioned.documentChanges.back().edits.push_back(
      TextEdit{rng(0, 0, 0, 0), "x", "waveasm.schedule"});
  versioned.changeAnnotations["waveasm.schedule"] = {"Schedule: 3 -> 2", true,
                                                     "move I1 after I2"};
  expectRoundTrip(versioned);
  json::Value versionedJSON = toJSON(versioned);
  EXPECT_FALSE(versionedJSON.getAsObject()->get("changes"));
  EXPECT_EQ(serialize(*versionedJSON.getAsObject()
                           ->getArray("documentChanges")
                           ->front()
                           .getAsObject()
                           ->get("textDocument")),
            R"({"uri":"file:///a.mlir","version":7})");
  CodeActionParams actionParams;
  actionParams.textDocument.uri = "file:///a.mlir";
  actionParams.range = rng(3, 4, 3, 4);
  actionParams.only = {"refactor"};
  expectRoundTrip(actionParams);
  ExecuteCommandParams execute;
  execute.command = "waveasm.scheduleLoop";
  execute.arguments.push_back(
      json::Object{{"uri", "file:///a.mlir"}, {"strategy", "llm"}});
  expectRoundTrip(execute);
  expectRoundTrip(ApplyWorkspaceEditParams{"Schedule: x -> y", versioned});
  expectRoundTrip(ApplyWorkspaceEditResult{false, "no"});
  expectRoundTrip(WorkDoneProgressCancelParams{"waveasm/schedule/3"});
  expectRoundTrip(
      DocumentHighlight{rng(0, 0, 0, 2), DocumentHighlightKind::Write});

  DocumentSymbol program;
  program.name = "@k";
  program.detail = "gfx942";
  program.kind = SymbolKind::Module;
  program.range = rng(0, 0, 10, 1);
  program.selectionRange = rng(0, 16, 0, 18);
  DocumentSymbol loop;
  loop.name = "loop";
  loop.kind = SymbolKind::Namespace;
  program.children.push_back(loop);
  expectRoundTrip(program);

  expectRoundTrip(FoldingRange{1, 9, "region"});
  expectRoundTrip(FoldingRange{1, 9, ""});

  Command command{"Show assembly",
                  "waveasm.showAssembly",
                  {"\"file:///a.mlir\"", "3", "{\"a\":[1,2]}"}};
  expectRoundTrip(command);
  expectRoundTrip(CodeLens{rng(0, 0, 0, 0), command});
  expectRoundTrip(CodeLens{rng(0, 0, 0, 0), std::nullopt});

  CodeAction action;
  action.title = "Insert s_nop";
  action.kind = "quickfix";
  action.edit = edit;
  action.isPreferred = true;
  expectRoundTrip(action);
}

TEST(LspJSON, Shapes) {
  Diagnostic d;
  d.message = "m";
  json::Value v = toJSON(d);
  EXPECT_EQ(*v.getAsObject()->getInteger("severity"), 1);
  EXPECT_EQ(v.getAsObject()->get("code"), nullptr); // empty: omitted
  EXPECT_EQ(v.getAsObject()->get("relatedInformation"), nullptr);

  InlayHint hint;
  hint.tooltip = "t";
  v = toJSON(hint);
  EXPECT_EQ(*v.getAsObject()->getObject("tooltip")->getString("kind"),
            "markdown");

  // An integer diagnostic code and a string tooltip are accepted.
  Diagnostic fromClient;
  json::Path::Root root;
  ASSERT_TRUE(fromJSON(
      json::Object{{"range", rng(0, 0, 0, 1)}, {"message", "m"}, {"code", 42}},
      fromClient, root));
  EXPECT_EQ(fromClient.code, "42");
  InlayHint fromString;
  ASSERT_TRUE(fromJSON(json::Object{{"position", Position{}},
                                    {"label", "x"},
                                    {"tooltip", "plain"}},
                       fromString, root));
  EXPECT_EQ(fromString.tooltip, "plain");

  // Bad enum values are rejected, not cast.
  DiagnosticSeverity severity;
  EXPECT_FALSE(fromJSON(json::Value(9), severity, root));
}

TEST(LspJSON, SemanticTokensDeltaEncoding) {
  std::vector<SemanticToken> tokens = {
      {0, 2, 3, 1, 0}, {0, 8, 4, 2, 1}, {2, 4, 1, 0, 0}, {2, 10, 2, 3, 2}};
  json::Array data = encodeSemanticTokens(tokens);
  json::Array expected{0, 2, 3, 1, 0, 0, 6, 4, 2, 1,
                       2, 4, 1, 0, 0, 0, 6, 2, 3, 2};
  EXPECT_EQ(json::Value(json::Array(data)), json::Value(std::move(expected)));
  std::vector<SemanticToken> decoded;
  json::Path::Root root;
  ASSERT_TRUE(
      decodeSemanticTokens(json::Value(std::move(data)), decoded, root));
  ASSERT_EQ(decoded.size(), tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    EXPECT_EQ(decoded[i].line, tokens[i].line);
    EXPECT_EQ(decoded[i].startChar, tokens[i].startChar);
    EXPECT_EQ(decoded[i].length, tokens[i].length);
    EXPECT_EQ(decoded[i].type, tokens[i].type);
    EXPECT_EQ(decoded[i].modifiers, tokens[i].modifiers);
  }
  expectRoundTrip(SemanticTokens{tokens});
  EXPECT_FALSE(decodeSemanticTokens(json::Array{1, 2, 3}, decoded, root));
}

TEST(LspJSON, ParamsRoundTrips) {
  expectRoundTrip(DidOpenTextDocumentParams{
      TextDocumentItem{"file:///a.mlir", "mlir", 3, "text\n"}});
  DidChangeTextDocumentParams change;
  change.textDocument = {"file:///a.mlir", 4};
  change.contentChanges.push_back({rng(0, 1, 0, 2), "x"});
  change.contentChanges.push_back({std::nullopt, "full"});
  expectRoundTrip(change);
  expectRoundTrip(ReferenceParams{{"u"}, {1, 2}, false});
  expectRoundTrip(RenameParams{{"u"}, {1, 2}, "%y"});
  expectRoundTrip(DocumentRangeParams{{"u"}, rng(0, 0, 100, 0)});
  expectRoundTrip(PrepareRenameResult{rng(0, 0, 0, 2), "%x"});
  PublishDiagnosticsParams publish;
  publish.uri = "u";
  publish.version = 7;
  publish.diagnostics.push_back(Diagnostic{});
  expectRoundTrip(publish);

  ClientCapabilities caps;
  caps.workDoneProgress = caps.inlayHintRefresh = caps.codeLensRefresh = true;
  caps.hoverMarkdown = false;
  expectRoundTrip(caps);
  InitializeParams init;
  init.processId = 12;
  init.rootUri = "file:///w";
  init.capabilities = caps;
  init.initializationOptions = json::Object{{"debounceMs", 0}};
  expectRoundTrip(init);
  InitializeResult result;
  result.capabilities.semanticTokenTypes = {"keyword", "variable"};
  result.capabilities.semanticTokenModifiers = {"readonly"};
  result.serverName = "waveasm-lsp";
  result.serverVersion = "0.1";
  expectRoundTrip(result);
  json::Value capsJSON = toJSON(result.capabilities);
  EXPECT_EQ(*capsJSON.getAsObject()
                 ->getObject("textDocumentSync")
                 ->getInteger("change"),
            2);

  expectRoundTrip(ProgressParams{
      "t", {WorkDoneProgress::Begin, "compiling", "", std::nullopt}});
  expectRoundTrip(
      ProgressParams{"t", {WorkDoneProgress::Report, "", "emit", 50}});
  expectRoundTrip(ProgressParams{"t", {WorkDoneProgress::End, "", "", {}}});
  expectRoundTrip(ProgressParams{
      "t", {WorkDoneProgress::Begin, "LLM", "", std::nullopt, true}});

  AssemblyResult assembly;
  assembly.version = 2;
  assembly.text = "s_endpgm\n";
  assembly.map.push_back({0, rng(3, 2, 3, 20)});
  expectRoundTrip(assembly);
  MetricsResult metrics;
  metrics.version = 2;
  metrics.programs = json::Array{json::Object{{"name", "k"}}};
  expectRoundTrip(metrics);
}

//===--- URIs
//-------------------------------------------------------------------===//

TEST(Uri, FileUris) {
  EXPECT_EQ(uriToPath("file:///tmp/a%20b.mlir"), "/tmp/a b.mlir");
  EXPECT_EQ(uriToPath("file://localhost/x"), "/x");
  EXPECT_EQ(uriToPath("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(uriToPath("file:///bad%2"), std::nullopt);
  EXPECT_EQ(pathToUri("/tmp/a b/é.mlir"), "file:///tmp/a%20b/%C3%A9.mlir");
  EXPECT_EQ(uriToPath(pathToUri("/tmp/a b/é.mlir")), "/tmp/a b/é.mlir");
}
