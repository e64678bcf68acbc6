"""OpenAI-compatible chat servers on loopback for tests: scripted faults, recorded real replies, a recorder.

``ChatServer(responder)`` serves ``POST /v1/chat/completions`` (any path) on 127.0.0.1 with a
function that turns the request body into a response, so tests drive the real OpenAI client
through 429s, 500s, hangs and refused connections. ``Recording`` holds real replies keyed by the
request; ``replay(recording)`` answers from it and ``proxy(upstream, recording)`` records what a
real server answers (``benchmarks/record_replies.py``).

A request is keyed by what it asks (the structured-output schema, the method, the temperature)
and by the input it carries (every non-system message), not by the instructions' wording: a
reworded rule keeps the recordings valid. A request whose input changed since the recording (say,
retrieval now orders memories differently) gets the recorded reply to the most similar request of
the same kind, and is counted in ``Recording.near``: still a real reply, checked like any other.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Response = tuple[int, dict[str, str], dict[str, Any]]
Responder = Callable[[dict[str, Any]], Response]


def request_key(body: dict[str, Any]) -> str:
    """A stable key for a chat request: schema, method, temperature and the non-system messages."""
    return hashlib.sha256(json.dumps(describe_request(body), sort_keys=True).encode()).hexdigest()[:20]


def _kind(what: dict[str, Any]) -> tuple[Any, ...]:
    return what["schema"], what["tools"], what["format"], what["temperature"]


def input_text(what: dict[str, Any]) -> str:
    """The input of a described request as one text (for finding the nearest recorded one)."""
    return "\n".join(str(content) for _, content in what["messages"])


def describe_request(body: dict[str, Any]) -> dict[str, Any]:
    """What identifies a request (see the module docstring)."""
    messages = body.get("messages") or []
    system = " ".join(str(m.get("content", "")) for m in messages if m.get("role") == "system")
    schema = next((t.get("function", {}).get("name") for t in body.get("tools") or []), None)
    if schema is None and '<output_format name="' in system:
        schema = system.split('<output_format name="', 1)[1].split('"', 1)[0]
    fmt = body.get("response_format") or {}
    return {"schema": schema, "tools": bool(body.get("tools")), "format": fmt.get("type"),
            "temperature": body.get("temperature"),
            "messages": [[m.get("role"), m.get("content")] for m in messages if m.get("role") != "system"]}


def completion(content: str | None = None, *, tool: tuple[str, dict[str, Any]] | None = None,
               finish_reason: str = "stop", usage: tuple[int, int] = (10, 5)) -> dict[str, Any]:
    """An OpenAI chat completion body with text or one tool call."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool is not None:
        message["tool_calls"] = [{"id": "call_0", "type": "function",
                                  "function": {"name": tool[0], "arguments": json.dumps(tool[1])}}]
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": "test",
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)}}


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """An OpenAI-style error response."""
    return status, headers or {}, {"error": {"message": message, "type": "error", "code": status}}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.server.requests.append(body)
        status, headers, payload = self.server.responder(body)
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence the default logging
        return


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    responder: Responder
    requests: list[dict[str, Any]]


class ChatServer:
    """A loopback HTTP server answering chat requests with ``responder``; use as a context manager."""

    def __init__(self, responder: Responder) -> None:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.responder = responder
        self._server.requests = []
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The base URL to give a client (with /v1)."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every request body received, in arrival order."""
        return list(self._server.requests)

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


@dataclass
class Recording:
    """Real replies by request key, in the order they were recorded (one JSON object a line)."""

    entries: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    exact: int = 0
    """Requests answered with the reply recorded for the very same request."""
    near: int = 0
    """Requests answered with the reply of the most similar recorded request of the same kind."""
    _next: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def load(cls, path: str | Path) -> Recording:
        """Read a recording file."""
        rec = cls()
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                rec.entries.setdefault(item["key"], []).append(item)
        return rec

    def add(self, item: dict[str, Any], path: str | Path | None = None) -> None:
        """Keep one recorded exchange (and append it to ``path``)."""
        with self._lock:
            self.entries.setdefault(item["key"], []).append(item)
            if path is not None:
                with Path(path).open("a", encoding="utf-8") as out:
                    out.write(json.dumps(item, ensure_ascii=False) + "\n")

    def take(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The next recorded reply for a request, cycling when asked more often than recorded.

        Without one, the reply to the most similar recorded request of the same kind; else None.
        """
        what = describe_request(body)
        key = request_key(body)
        with self._lock:
            if key in self.entries:
                self.exact += 1
            else:
                key = self._nearest(what) or ""
                if not key:
                    return None
                self.near += 1
            items = self.entries[key]
            pos = self._next.get(key, 0)
            self._next[key] = pos + 1
            return items[pos % len(items)]

    def _nearest(self, what: dict[str, Any]) -> str | None:
        kind, text = _kind(what), input_text(what)
        same = [(k, items[0]) for k, items in self.entries.items() if tuple(items[0]["kind"]) == kind]
        if not same:
            return None
        return max(same, key=lambda kv: SequenceMatcher(None, kv[1]["input"], text).quick_ratio())[0]


def replay(recording: Recording) -> Responder:
    """A responder answering each request with its recorded reply (HTTP 400 naming the key if none)."""
    def respond(body: dict[str, Any]) -> Response:
        item = recording.take(body)
        if item is None:
            what = describe_request(body)
            return error(400, f"dmem replay: nothing recorded for a request like this ({what['schema']}); "
                              "record again with benchmarks/record_replies.py")
        return item["status"], {}, item["body"]
    return respond


@dataclass
class ServerCount:
    """What the upstream server reported: requests, and tokens from the usage of every reply it sent."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


def proxy(upstream: str, recording: Recording | None = None, path: str | Path | None = None,
          count: ServerCount | None = None, timeout: float = 3600.0, known: Recording | None = None) -> Responder:
    """A responder forwarding to ``upstream`` (a base URL with /v1), recording and counting each reply.

    The upstream request runs to the end even when the client has given up, so the count is what
    the server really did. A request recorded before (exactly, in ``known``) is answered from there
    and not sent again.
    """
    lock = threading.Lock()

    def respond(body: dict[str, Any]) -> Response:
        if known is not None and request_key(body) in known.entries:
            item = known.take(body)
            assert item is not None
            return item["status"], {}, item["body"]
        status, payload, seconds = _forward(upstream, body, timeout)
        if count is not None:
            usage = payload.get("usage") or {}
            with lock:
                count.requests += 1
                count.input_tokens += int(usage.get("prompt_tokens") or 0)
                count.output_tokens += int(usage.get("completion_tokens") or 0)
        if recording is not None:
            what = describe_request(body)
            recording.add({"key": request_key(body), "kind": list(_kind(what)), "schema": what["schema"],
                           "status": status, "seconds": round(seconds, 1), "input": input_text(what),
                           "body": payload}, path)
        return status, {}, payload
    return respond


def _forward(upstream: str, body: dict[str, Any], timeout: float) -> tuple[int, dict[str, Any], float]:
    """Send a chat request upstream: its status, JSON body and seconds."""
    req = urllib.request.Request(f"{upstream.rstrip('/')}/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - loopback test server
            return resp.status, json.loads(resp.read() or b"{}"), time.perf_counter() - started
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            payload = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            payload = {"error": {"message": raw.decode("utf-8", "replace")}}
        return exc.code, payload, time.perf_counter() - started
