//===- ServerMain.cpp - run the language server on stdio
//-------------------===//
//
// Wires the pieces: stdin bytes -> MessageReader (framing) -> Dispatcher
// (JSON-RPC, lifecycle) -> LspServer; every outgoing message -> one framed
// write on the StdioTransport's ordered queue.
//
//===----------------------------------------------------------------------===//

#include "server/runtime/ServerMain.h"

#include "protocol/Dispatcher.h"
#include "protocol/Framing.h"
#include "server/runtime/EventLoop.h"
#include "server/runtime/LspServer.h"
#include "server/runtime/StdioTransport.h"

#include "ir/Dialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <csignal>

using namespace waveasm;
using namespace waveasm::server;

int waveasm::server::runLanguageServer(int inFd, int outFd) {
  // A client that goes away must not kill us mid-write; the write error
  // is reported and the server exits through the normal path.
  std::signal(SIGPIPE, SIG_IGN);

  mlir::DialectRegistry registry;
  registry.insert<WaveASMDialect>();
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  EventLoop loop;
  StdioTransport transport(loop.get(), inFd, outFd);
  lsp::Dispatcher dispatcher([&](const llvm::json::Value &message) {
    transport.write(lsp::frameMessage(lsp::serialize(message)));
  });
  auto server = std::make_unique<LspServer>(loop, dispatcher, context);
  server->registerMethods();
  loop.setWakeHandler([&] { server->drainCompletions(); });

  int exitCode = 1;
  bool finished = false;
  auto finish = [&](int code) {
    if (finished)
      return;
    finished = true;
    exitCode = code;
    server->stopWorker();
    // Answers already queued (the shutdown reply) still reach the client.
    transport.flush([&] {
      transport.close();
      loop.stop();
    });
  };
  dispatcher.onExit([&](int code) {
    lsp::logInfo("exit (code {0})", code);
    finish(code);
  });

  lsp::MessageReader reader;
  std::vector<lsp::FramingEvent> events;
  transport.start(
      [&](llvm::StringRef bytes) {
        events.clear();
        reader.feed(bytes, events);
        for (lsp::FramingEvent &event : events) {
          if (finished)
            break;
          switch (event.kind) {
          case lsp::FramingEvent::Message:
            dispatcher.handleMessage(event.text);
            break;
          case lsp::FramingEvent::BadHeader:
            dispatcher.handleBadHeader(event.text);
            break;
          case lsp::FramingEvent::Skipped:
            lsp::logInfo("framing: {0}", event.text);
            break;
          }
        }
        if (transport.hasWriteError())
          finish(1);
      },
      [&] {
        // End of input without `exit`: the client is gone.
        lsp::logInfo("end of input");
        finish(dispatcher.state() == lsp::Dispatcher::State::ShuttingDown ? 0
                                                                          : 1);
      });

  loop.run();
  server.reset();
  return exitCode;
}
