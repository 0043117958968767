//===- FakeLLMServer.h - Start tests/fake_llm for a test --------*- C++ -*-===//
//
// Runs tests/fake_llm/fake_llm_server.py with a script, reads its port from
// the first stdout line, and stops it (by its pid) when the test ends. The
// request log it writes is read back with log().
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_FAKELLMSERVER_H
#define WAVEASM_TESTS_UNIT_FAKELLMSERVER_H

#include "TestPaths.h"
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace waveasm::testing {

class FakeLLMServer {
public:
  /// `script` is the JSON script (see fake_llm_server.py); extra args are
  /// passed through (e.g. --expect-key-env NAME).
  explicit FakeLLMServer(const nlohmann::json &script,
                         std::vector<std::string> extra = {}) {
    char dirTemplate[] = "/tmp/fake-llm-XXXXXX";
    dir_ = mkdtemp(dirTemplate);
    std::string scriptPath = dir_ + "/script.json";
    logPath_ = dir_ + "/log.json";
    std::ofstream(scriptPath) << script.dump();
    std::vector<std::string> args = {
        "python3",  waveasm::test::fakeLlmServerScript(),
        "--script", scriptPath,
        "--log",    logPath_};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char *> argv;
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    int fds[2];
    if (pipe(fds) != 0)
      return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    if (posix_spawnp(&pid_, "python3", &actions, nullptr, argv.data(),
                     environ) != 0)
      pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    std::string line;
    pollfd pfd{fds[0], POLLIN, 0};
    while (pid_ > 0 && line.find('\n') == std::string::npos &&
           poll(&pfd, 1, 20000) > 0) {
      char buf[64];
      ssize_t n = read(fds[0], buf, sizeof(buf));
      if (n <= 0)
        break;
      line.append(buf, n);
    }
    close(fds[0]);
    port_ = std::atoi(line.c_str());
  }

  ~FakeLLMServer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    std::remove((dir_ + "/script.json").c_str());
    std::remove(logPath_.c_str());
    rmdir(dir_.c_str());
  }

  bool ok() const { return port_ > 0; }
  int port() const { return port_; }
  std::string baseUrl(const std::string &suffix = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + suffix;
  }
  /// {"requests": [...], "max_in_flight": N}
  nlohmann::json log() const {
    std::ifstream in(logPath_);
    return nlohmann::json::parse(in, nullptr, false);
  }
  const std::string &logPath() const { return logPath_; }

private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string dir_, logPath_;
};

} // namespace waveasm::testing

#endif // WAVEASM_TESTS_UNIT_FAKELLMSERVER_H
