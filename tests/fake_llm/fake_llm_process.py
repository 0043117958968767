"""The fake LLM server (fake_llm_server.py) as a child process of a test.

Shared by the end-to-end tests: writes the script, starts the server on
127.0.0.1 with an ephemeral port, and reads back what it received. The key
the server expects is passed through the environment only.
"""

import itertools
import json
import os
import subprocess
import sys
import tempfile

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "fake_llm_server.py")
_serial = itertools.count()


class FakeLLMProcess:
    def __init__(self, script, key_env, key, directory=None):
        self._tmp = None
        if directory is None:
            self._tmp = tempfile.TemporaryDirectory()
            directory = self._tmp.name
        n = next(_serial)
        self.log_path = os.path.join(directory, "fake_log_%d.json" % n)
        script_path = os.path.join(directory, "fake_script_%d.json" % n)
        with open(script_path, "w") as f:
            json.dump(script, f)
        self.proc = subprocess.Popen(
            [sys.executable, SERVER, "--script", script_path, "--log",
             self.log_path, "--expect-key-env", key_env],
            stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, **{key_env: key}))
        self.port = int(self.proc.stdout.readline())

    def url(self, provider="openai"):
        base = "http://127.0.0.1:%d" % self.port
        return base + "/v1" if provider == "openai" else base

    def log(self):
        with open(self.log_path) as f:
            return json.load(f)

    def requests(self):
        return self.log()["requests"]

    def raw_log(self):
        with open(self.log_path) as f:
            return f.read()

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.proc.stdout.close()
        if self._tmp is not None:
            self._tmp.cleanup()
