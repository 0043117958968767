#!/usr/bin/env python3
"""A scripted fake LLM server for tests and benchmarks (python3 stdlib only).

Serves both provider shapes on 127.0.0.1 with an ephemeral port and prints
the port as the first line of stdout:

  POST .../chat/completions   OpenAI-compatible chat completions
  POST .../v1/messages        Anthropic messages

Replies are scripted by a JSON file (--script FILE) or by --reply/--delay:

  {"replies": [REPLY, ...],   # one per request, in arrival order
   "default": REPLY}          # once the list is used up (default: last one)

  REPLY = {"status": 200,            # 500, 429, 401, 404 ... (error body JSON)
           "delay": 0.0,             # seconds before answering
           "hang": false,            # never answer (client timeout tests)
           "headers": {"Retry-After": "1"},
           "text": "move I1 after I2",
           "tool_calls": [{"name": "apply_moves",
                           "arguments": {"moves": ["swap I1 I2"]}}],
           "random_moves": 2,        # instead of text: N random swaps of
                                     # neighbouring tags of the last user
                                     # message
           "raw": "...",             # the exact body to send instead
           "usage": {"input": 11, "output": 7}}

Every request is recorded in the log (--log FILE, rewritten atomically after
each request starts and ends): path, headers (the values of Authorization
and x-api-key are never recorded; only whether they matched the key in the
env var named by --expect-key-env), the JSON body, start and end times, and
the number of requests in flight when it started. "max_in_flight" is the
largest number of requests served at the same time.
"""

import argparse
import json
import os
import random
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET_HEADERS = {"authorization", "x-api-key"}


class State:
    def __init__(self, script, log_path, expected_key):
        self.lock = threading.Lock()
        self.replies = script.get("replies", [])
        self.default = script.get("default")
        if self.default is None:
            self.default = self.replies[-1] if self.replies else {"text": "done"}
        self.log_path = log_path
        self.expected_key = expected_key
        self.requests = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.rng = random.Random(script.get("seed", 1))

    def next_reply(self):
        index = len(self.requests)
        if index < len(self.replies):
            return self.replies[index]
        return self.default

    def write_log(self):
        if not self.log_path:
            return
        data = {"requests": self.requests, "max_in_flight": self.max_in_flight}
        tmp = self.log_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, self.log_path)


def last_user_text(body):
    """The text of the last user message (either provider's shape)."""
    for msg in reversed(body.get("messages", [])):
        if msg.get("role") != "user":
            continue
        content = msg.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            parts = []
            for block in content:
                if block.get("type") == "text":
                    parts.append(block.get("text", ""))
                elif block.get("type") == "tool_result":
                    c = block.get("content")
                    parts.append(c if isinstance(c, str) else json.dumps(c))
            return "\n".join(parts)
    return ""


def random_moves(rng, body, count):
    tags = sorted(set(re.findall(r'loc\("(I\d+)"\)', last_user_text(body))),
                  key=lambda t: int(t[1:]))
    if len(tags) < 2:
        return "done"
    # Neighbouring ops mostly have no dependency between them, so most of
    # these moves are valid and the engine compiles and measures them.
    lines = []
    for _ in range(count):
        i = rng.randrange(len(tags) - 1)
        lines.append("swap %s %s" % (tags[i], tags[i + 1]))
    return "\n".join(lines)


def openai_body(reply, text, model):
    message = {"role": "assistant", "content": text}
    finish = "stop"
    calls = reply.get("tool_calls")
    if calls:
        message["content"] = text or None
        message["tool_calls"] = [{
            "id": c.get("id", "call_%d" % i),
            "type": "function",
            "function": {"name": c["name"],
                         "arguments": json.dumps(c.get("arguments", {}))}}
            for i, c in enumerate(calls)]
        finish = "tool_calls"
    usage = reply.get("usage", {"input": 10, "output": 5})
    return {"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "message": message,
                         "finish_reason": finish}],
            "usage": {"prompt_tokens": usage["input"],
                      "completion_tokens": usage["output"],
                      "total_tokens": usage["input"] + usage["output"]}}


def anthropic_body(reply, text, model):
    content = []
    if text:
        content.append({"type": "text", "text": text})
    calls = reply.get("tool_calls")
    for i, c in enumerate(calls or []):
        content.append({"type": "tool_use", "id": c.get("id", "toolu_%d" % i),
                        "name": c["name"], "input": c.get("arguments", {})})
    usage = reply.get("usage", {"input": 10, "output": 5})
    return {"id": "msg_fake", "type": "message", "role": "assistant",
            "model": model, "content": content,
            "stop_reason": "tool_use" if calls else "end_turn",
            "usage": {"input_tokens": usage["input"],
                      "output_tokens": usage["output"]}}


def error_body(status, anthropic):
    messages = {401: "invalid x-api-key" if anthropic else "Incorrect API key",
                404: "model not found", 429: "rate limited",
                500: "internal server error", 503: "overloaded"}
    msg = messages.get(status, "error %d" % status)
    if anthropic:
        return {"type": "error", "error": {"type": "api_error", "message": msg}}
    return {"error": {"message": msg, "type": "fake_error", "code": status}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set by main

    def log_message(self, fmt, *args):  # quiet
        pass

    def do_POST(self):
        st = self.state
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = {"unparsed": raw.decode("utf-8", "replace")}
        headers = {}
        auth_ok = None
        for k, v in self.headers.items():
            if k.lower() in SECRET_HEADERS:
                headers[k] = "<present>"
                if st.expected_key is not None:
                    value = v[7:] if v.startswith("Bearer ") else v
                    auth_ok = value == st.expected_key
            else:
                headers[k] = v
        with st.lock:
            reply = st.next_reply()
            st.in_flight += 1
            st.max_in_flight = max(st.max_in_flight, st.in_flight)
            entry = {"index": len(st.requests), "path": self.path,
                     "headers": headers, "auth_ok": auth_ok, "body": body,
                     "start": time.time(), "end": None,
                     "in_flight_at_start": st.in_flight}
            st.requests.append(entry)
            st.write_log()
            text = reply.get("text", "")
            if "random_moves" in reply:
                text = random_moves(st.rng, body, int(reply["random_moves"]))
        try:
            self.answer(reply, text, body)
        finally:
            with st.lock:
                st.in_flight -= 1
                entry["end"] = time.time()
                st.write_log()

    def answer(self, reply, text, body):
        if reply.get("hang"):
            time.sleep(3600)
            return
        time.sleep(float(reply.get("delay", 0)))
        anthropic = self.path.rstrip("/").endswith("/messages")
        status = int(reply.get("status", 200))
        if "raw" in reply:
            payload = reply["raw"].encode()
        elif status != 200:
            payload = json.dumps(error_body(status, anthropic)).encode()
        elif anthropic:
            payload = json.dumps(anthropic_body(reply, text, body.get("model"))).encode()
        else:
            payload = json.dumps(openai_body(reply, text, body.get("model"))).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for k, v in reply.get("headers", {}).items():
                self.send_header(k, str(v))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the listen backlog: many agents at once


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--script", help="JSON file with the replies")
    ap.add_argument("--reply", help="reply text for every request")
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--random-moves", type=int, default=0,
                    help="answer N random moves among the prompt's tags")
    ap.add_argument("--log", help="request log (JSON)")
    ap.add_argument("--expect-key-env",
                    help="env var holding the key requests must carry")
    args = ap.parse_args()
    if args.script:
        with open(args.script) as f:
            script = json.load(f)
    else:
        reply = {"delay": args.delay}
        if args.random_moves:
            reply["random_moves"] = args.random_moves
        else:
            reply["text"] = args.reply if args.reply is not None else "done"
        script = {"default": reply}
    expected = os.environ.get(args.expect_key_env) if args.expect_key_env else None
    Handler.state = State(script, args.log, expected)
    server = Server(("127.0.0.1", 0), Handler)
    Handler.state.write_log()
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
