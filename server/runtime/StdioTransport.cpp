//===- StdioTransport.cpp - non-blocking stdin/stdout on libuv
//-------------===//

#include "server/runtime/StdioTransport.h"

#include "protocol/Logger.h"

#include <uv.h>

#include <cerrno>
#include <unistd.h>
#include <vector>

using namespace waveasm::server;
using waveasm::lsp::logError;
using waveasm::lsp::logVerbose;

namespace {

/// One queued write; its buffer lives until libuv is done with it.
struct WriteRequest {
  uv_write_t req;
  std::string bytes;
  StdioTransport::OnEnd done; // unused; keeps the struct simple to extend
};

constexpr size_t kReadChunk = 64 * 1024;

} // namespace

struct StdioTransport::Impl {
  uv_loop_t *loop;
  int inFd, outFd;

  // Input: a stream (pipe, tty, socket) or a file read with uv_fs_read.
  uv_stream_t *in = nullptr;
  bool inIsFile = false;
  uv_fs_t fileRead;
  std::vector<char> fileBuffer;
  bool fileReadInFlight = false;
  bool reading = false;

  // Output: a stream, or (regular file, or a stream libuv refused) blocking
  // write(2) on the loop thread.
  uv_stream_t *out = nullptr;
  size_t pendingWrites = 0;
  bool writeError = false;
  std::vector<std::function<void()>> flushWaiters;

  OnData onData;
  OnEnd onEnd;
  bool ended = false;
  bool closed = false;

  Impl(uv_loop_t *loop, int inFd, int outFd)
      : loop(loop), inFd(inFd), outFd(outFd) {}

  static uv_stream_t *openStream(uv_loop_t *loop, int fd, bool readable) {
    switch (uv_guess_handle(fd)) {
    case UV_TTY: {
      auto *tty = new uv_tty_t;
      if (uv_tty_init(loop, tty, fd, readable) == 0)
        return reinterpret_cast<uv_stream_t *>(tty);
      delete tty;
      return nullptr;
    }
    case UV_TCP: {
      auto *tcp = new uv_tcp_t;
      uv_tcp_init(loop, tcp);
      if (uv_tcp_open(tcp, fd) == 0)
        return reinterpret_cast<uv_stream_t *>(tcp);
      uv_close(reinterpret_cast<uv_handle_t *>(tcp),
               [](uv_handle_t *h) { delete reinterpret_cast<uv_tcp_t *>(h); });
      return nullptr;
    }
    case UV_NAMED_PIPE: {
      auto *pipe = new uv_pipe_t;
      uv_pipe_init(loop, pipe, 0);
      if (uv_pipe_open(pipe, fd) == 0)
        return reinterpret_cast<uv_stream_t *>(pipe);
      uv_close(reinterpret_cast<uv_handle_t *>(pipe),
               [](uv_handle_t *h) { delete reinterpret_cast<uv_pipe_t *>(h); });
      return nullptr;
    }
    default:
      return nullptr;
    }
  }

  void end() {
    if (ended)
      return;
    ended = true;
    if (onEnd)
      onEnd();
  }

  //===--- reading --------------------------------------------------------===//

  void startReading() {
    in = openStream(loop, inFd, /*readable=*/true);
    if (!in) {
      // A regular file (`waveasm-lsp < session.txt`): read it through the
      // libuv thread pool, chunk by chunk.
      inIsFile = true;
      fileBuffer.resize(kReadChunk);
      fileRead.data = this;
      readFileChunk();
      return;
    }
    in->data = this;
    reading = true;
    uv_read_start(
        in,
        [](uv_handle_t *handle, size_t suggested, uv_buf_t *buf) {
          auto *self = static_cast<Impl *>(handle->data);
          self->fileBuffer.resize(std::max(suggested, kReadChunk));
          *buf = uv_buf_init(self->fileBuffer.data(),
                             static_cast<unsigned>(self->fileBuffer.size()));
        },
        [](uv_stream_t *stream, ssize_t n, const uv_buf_t *buf) {
          auto *self = static_cast<Impl *>(stream->data);
          if (n > 0) {
            self->onData(llvm::StringRef(buf->base, n));
          } else if (n < 0) {
            if (n != UV_EOF)
              logError("reading stdin: {0}", uv_strerror(static_cast<int>(n)));
            self->stopReading();
            self->end();
          }
        });
  }

  void readFileChunk() {
    uv_buf_t buf = uv_buf_init(fileBuffer.data(),
                               static_cast<unsigned>(fileBuffer.size()));
    fileReadInFlight = true;
    uv_fs_read(loop, &fileRead, inFd, &buf, 1, -1, [](uv_fs_t *req) {
      auto *self = static_cast<Impl *>(req->data);
      self->fileReadInFlight = false;
      ssize_t n = req->result;
      uv_fs_req_cleanup(req);
      if (self->closed)
        return;
      if (n > 0) {
        self->onData(llvm::StringRef(self->fileBuffer.data(), n));
        if (!self->closed && !self->ended)
          self->readFileChunk();
        return;
      }
      if (n < 0)
        logError("reading stdin: {0}", uv_strerror(static_cast<int>(n)));
      self->end();
    });
  }

  void stopReading() {
    if (in && reading) {
      uv_read_stop(in);
      reading = false;
    }
  }

  //===--- writing --------------------------------------------------------===//

  void write(std::string bytes) {
    if (writeError || closed)
      return;
    if (!out) {
      writeBlocking(bytes);
      return;
    }
    auto *request = new WriteRequest{{}, std::move(bytes), nullptr};
    request->req.data = this;
    uv_buf_t buf = uv_buf_init(request->bytes.data(),
                               static_cast<unsigned>(request->bytes.size()));
    ++pendingWrites;
    int rc =
        uv_write(&request->req, out, &buf, 1, [](uv_write_t *req, int status) {
          auto *self = static_cast<Impl *>(req->data);
          delete reinterpret_cast<WriteRequest *>(req);
          self->writeDone(status);
        });
    if (rc != 0) {
      delete request;
      writeDone(rc);
    }
  }

  void writeBlocking(const std::string &bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(outFd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0) {
        logError("writing stdout: {0}", strerror(errno));
        writeError = true;
        return;
      }
      done += static_cast<size_t>(n);
    }
  }

  void writeDone(int status) {
    --pendingWrites;
    if (status < 0 && !writeError) {
      logError("writing stdout: {0}", uv_strerror(status));
      writeError = true;
    }
    if (pendingWrites == 0) {
      std::vector<std::function<void()>> waiters;
      waiters.swap(flushWaiters);
      for (auto &waiter : waiters)
        waiter();
    }
  }

  void flush(std::function<void()> done) {
    if (pendingWrites == 0)
      return done();
    flushWaiters.push_back(std::move(done));
  }

  //===--- closing --------------------------------------------------------===//

  static void closeStream(uv_stream_t *&stream) {
    if (!stream)
      return;
    uv_handle_t *handle = reinterpret_cast<uv_handle_t *>(stream);
    if (!uv_is_closing(handle))
      uv_close(handle, [](uv_handle_t *h) {
        switch (h->type) {
        case UV_TTY:
          delete reinterpret_cast<uv_tty_t *>(h);
          break;
        case UV_TCP:
          delete reinterpret_cast<uv_tcp_t *>(h);
          break;
        default:
          delete reinterpret_cast<uv_pipe_t *>(h);
          break;
        }
      });
    stream = nullptr;
  }

  void close() {
    if (closed)
      return;
    closed = true;
    stopReading();
    if (inIsFile && !ended)
      uv_cancel(reinterpret_cast<uv_req_t *>(&fileRead));
    closeStream(in);
    closeStream(out);
  }
};

StdioTransport::StdioTransport(uv_loop_s *loop, int inFd, int outFd)
    : impl(std::make_unique<Impl>(loop, inFd, outFd)) {
  impl->out = Impl::openStream(loop, outFd, /*readable=*/false);
  if (!impl->out)
    logVerbose("stdout is not a stream; writing it synchronously");
}

StdioTransport::~StdioTransport() {
  impl->close();
  // A thread-pool read still in flight will call back into Impl; leak it
  // rather than free memory libuv is about to touch (process exit is next).
  if (impl->fileReadInFlight)
    (void)impl.release();
}

void StdioTransport::start(OnData onData, OnEnd onEnd) {
  impl->onData = std::move(onData);
  impl->onEnd = std::move(onEnd);
  impl->startReading();
}

void StdioTransport::write(std::string bytes) { impl->write(std::move(bytes)); }

void StdioTransport::flush(std::function<void()> done) {
  impl->flush(std::move(done));
}

void StdioTransport::close() { impl->close(); }

bool StdioTransport::hasWriteError() const { return impl->writeError; }
