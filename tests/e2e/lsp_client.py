"""A small LSP client for tests and benchmarks.

Spawns a language server, speaks Content-Length framing on its stdin/stdout,
and records every message the server sends with its arrival time, so that
tests can wait for notifications (with timeouts: nothing here blocks
forever) and benchmarks can measure latencies from the client's side.

Requests the server sends to the client (window/workDoneProgress/create,
workspace/*/refresh) are answered automatically and recorded like
notifications.
"""

import json
import os
import subprocess
import threading
import time

DEFAULT_TIMEOUT = 10.0


class LspError(Exception):
    pass


def utf16_len(text):
    """Length of `text` in UTF-16 code units (LSP's character unit)."""
    return len(text.encode("utf-16-le")) // 2


def position_of(text, needle, occurrence=0, offset=0):
    """LSP position (0-based line, UTF-16 character) of the start of the
    `occurrence`-th `needle` in `text`, plus `offset` characters."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    line_start = text.rfind("\n", 0, index) + 1
    return {"line": line, "character": utf16_len(text[line_start:index])}


def offset_of(text, pos):
    """The string index of an LSP position in ASCII `text`."""
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:pos["line"]]) + pos["character"]


def apply_edits(text, edits):
    """Applies LSP text edits (ASCII text) back to front."""
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                          e["range"]["start"]["character"]), reverse=True):
        start, end = offset_of(text, e["range"]["start"]), offset_of(text, e["range"]["end"])
        text = text[:start] + e["newText"] + text[end:]
    return text


class LspClient:
    def __init__(self, command, stderr=None, env=None, cwd=None):
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr if stderr is not None else subprocess.DEVNULL,
            env=env,
            cwd=cwd,
        )
        self._lock = threading.Condition()
        self._next_id = 1
        self.responses = {}  # id -> (message, arrival time)
        # Notifications and server->client requests, in arrival order:
        # (message, arrival time).
        self.events = []
        self.server_requests = []
        self.eof = False
        self.unparsable = []  # bodies that were not JSON (should stay empty)
        # The answer to workspace/applyEdit requests from the server.
        self.apply_edit_result = {"applied": True}
        self._write_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    # --- wire -------------------------------------------------------------

    def send_raw(self, data):
        """Writes raw bytes (framing included) to the server's stdin."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def send_chunks(self, chunks, pause=0.05):
        """Writes `chunks` with pauses in between, as one uninterrupted
        sequence (automatic answers to server requests wait), so the server
        sees a message arrive in pieces."""
        with self._write_lock:
            for index, chunk in enumerate(chunks):
                if index:
                    time.sleep(pause)
                self.proc.stdin.write(chunk)
                self.proc.stdin.flush()

    @staticmethod
    def frame(message):
        body = message if isinstance(message, (bytes, str)) else json.dumps(message)
        if isinstance(body, str):
            body = body.encode("utf-8")
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, message):
        self.send_raw(self.frame(message))

    def _read_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.proc.stdout.read(n - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def _read_loop(self):
        stdout = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = stdout.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        if length is not None:
                            break
                        continue
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                body = self._read_exact(length)
                if body is None:
                    return
                now = time.perf_counter()
                try:
                    message = json.loads(body)
                except ValueError:
                    with self._lock:
                        self.unparsable.append(body)
                    continue
                self._dispatch(message, now)
        finally:
            with self._lock:
                self.eof = True
                self._lock.notify_all()

    def _dispatch(self, message, now):
        if "method" in message and "id" in message:
            self._answer_server_request(message)
            with self._lock:
                self.server_requests.append((message, now))
                self.events.append((message, now))
                self._lock.notify_all()
        elif "method" in message:
            with self._lock:
                self.events.append((message, now))
                self._lock.notify_all()
        else:
            with self._lock:
                self.responses.setdefault(json.dumps(message.get("id")), []).append(
                    (message, now)
                )
                self._lock.notify_all()

    def _answer_server_request(self, message):
        method = message["method"]
        if method in (
            "window/workDoneProgress/create",
            "workspace/inlayHint/refresh",
            "workspace/codeLens/refresh",
            "workspace/semanticTokens/refresh",
        ):
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": None}
        elif method == "workspace/applyEdit":
            # Tests set apply_edit_result ({"applied": False, ...} to refuse).
            reply = {"jsonrpc": "2.0", "id": message["id"],
                     "result": self.apply_edit_result}
        elif method == "workspace/configuration":
            items = message.get("params", {}).get("items", [])
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": [None] * len(items)}
        else:
            reply = {
                "jsonrpc": "2.0",
                "id": message["id"],
                "error": {"code": -32601, "message": "not supported by the test client"},
            }
        try:
            self.send(reply)
        except (BrokenPipeError, ValueError):
            pass

    # --- requests and notifications ---------------------------------------

    def next_id(self):
        with self._lock:
            request_id = self._next_id
            self._next_id += 1
        return request_id

    def request_async(self, method, params=None, request_id=None):
        """Sends a request; returns its id (wait with wait_response)."""
        if request_id is None:
            request_id = self.next_id()
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def wait_response(self, request_id, timeout=DEFAULT_TIMEOUT, with_time=False):
        key = json.dumps(request_id)
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self.responses.get(key):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.eof:
                    raise LspError(
                        "no response to request %r within %.1f s" % (request_id, timeout)
                    )
                self._lock.wait(remaining)
            message, arrival = self.responses[key].pop(0)
        return (message, arrival) if with_time else message

    def request(self, method, params=None, timeout=DEFAULT_TIMEOUT):
        """Sends a request and returns the whole response message."""
        return self.wait_response(self.request_async(method, params), timeout)

    def result(self, method, params=None, timeout=DEFAULT_TIMEOUT):
        """Sends a request and returns its result; raises on an error."""
        response = self.request(method, params, timeout)
        if "error" in response:
            raise LspError("%s failed: %r" % (method, response["error"]))
        return response.get("result")

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def mark(self):
        """A cursor into the received events: wait for events after it."""
        with self._lock:
            return len(self.events)

    def wait_event(self, method, predicate=None, since=0, timeout=DEFAULT_TIMEOUT,
                   with_time=False):
        """The first notification or server request `method` received at or
        after cursor `since` that satisfies `predicate(params)`."""
        deadline = time.monotonic() + timeout
        with self._lock:
            index = since
            while True:
                while index < len(self.events):
                    message, arrival = self.events[index]
                    index += 1
                    if message.get("method") != method:
                        continue
                    if predicate and not predicate(message.get("params")):
                        continue
                    return (message.get("params"), arrival) if with_time else message.get("params")
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.eof:
                    raise LspError("no %s within %.1f s" % (method, timeout))
                self._lock.wait(remaining)

    def events_of(self, method, since=0):
        with self._lock:
            return [m.get("params") for m, _ in self.events[since:] if m.get("method") == method]

    def wait_diagnostics(self, uri, version=None, since=0, timeout=DEFAULT_TIMEOUT,
                         with_time=False):
        def match(params):
            return params["uri"] == uri and (version is None or params.get("version") == version)

        return self.wait_event("textDocument/publishDiagnostics", match, since, timeout,
                               with_time)

    # --- conveniences -----------------------------------------------------

    def initialize(self, capabilities=None, options=None, timeout=DEFAULT_TIMEOUT):
        params = {
            "processId": os.getpid(),
            "rootUri": None,
            "capabilities": capabilities if capabilities is not None else {},
        }
        if options is not None:
            params["initializationOptions"] = options
        result = self.result("initialize", params, timeout)
        self.notify("initialized", {})
        return result

    def open(self, uri, text, version=1, language="mlir"):
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language, "version": version,
                              "text": text}},
        )

    def change(self, uri, version, changes):
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )

    def shutdown_and_exit(self, timeout=DEFAULT_TIMEOUT):
        """shutdown + exit; returns the exit code."""
        self.result("shutdown", None, timeout)
        self.notify("exit")
        return self.wait_exit(timeout)

    def wait_exit(self, timeout=DEFAULT_TIMEOUT):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise LspError("server did not exit within %.1f s" % timeout)

    def rss_kib(self):
        """Resident memory of the server (VmRSS), in KiB."""
        with open("/proc/%d/status" % self.proc.pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None

    def close(self):
        """Ends the process whatever its state (for tearDown)."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                try:
                    stream.close()
                except OSError:
                    pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
