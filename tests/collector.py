"""A LangSmith collector on loopback: records what the LangSmith client sends, answers like the API.

It serves ``GET /info`` and accepts ``POST /runs``, ``/runs/batch``, ``/runs/multipart`` and
``PATCH /runs/<id>``; ``runs()`` folds every create and update (JSON or multipart parts) into one
dict per run id, and ``bodies()`` returns the raw bytes, so a test can search everything sent.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Request:
    """One HTTP request the collector received."""

    method: str
    path: str
    content_type: str
    body: bytes


class Collector:
    """A real HTTP server on 127.0.0.1 (free port) that records LangSmith ingestion requests."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop serving and release the port."""
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _reply(self, payload: dict[str, Any]) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with collector._lock:
                    collector.requests.append(Request(self.command, self.path,
                                                      self.headers.get("Content-Type", ""), body))
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._reply({"version": "0.0-collector", "batch_ingest_config": {}} if self.path == "/info" else {})

            def do_POST(self) -> None:
                self._reply({})

            def do_PATCH(self) -> None:
                self._reply({})

        return Handler

    def ingestion(self) -> list[Request]:
        """The requests that carried runs."""
        with self._lock:
            return [r for r in self.requests if r.path.startswith("/runs")]

    def bodies(self) -> str:
        """Everything the client sent about runs, decoded, as one string."""
        return "\n".join(r.body.decode("utf-8", "replace") for r in self.ingestion())

    def runs(self) -> dict[str, dict[str, Any]]:
        """Every run sent, by id: creates and updates merged, multipart fields folded in."""
        runs: dict[str, dict[str, Any]] = {}
        for req in self.ingestion():
            for run_id, field, value in _items(req):
                run = runs.setdefault(run_id, {})
                if field:
                    run[field] = value
                else:
                    run.update({k: v for k, v in value.items() if v is not None})
        return runs


def _items(req: Request) -> list[tuple[str, str | None, Any]]:
    """(run id, field or None, JSON value) for each run payload in a request."""
    if req.content_type.startswith("multipart/"):
        head = f"Content-Type: {req.content_type}\r\n\r\n".encode()
        message = BytesParser().parsebytes(head + req.body)
        out: list[tuple[str, str | None, Any]] = []
        for part in message.walk():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            if not isinstance(name, str) or not isinstance(payload, bytes):
                continue
            _event, run_id, *field = name.split(".")
            out.append((run_id, field[0] if field else None, json.loads(payload)))
        return out
    data = json.loads(req.body or b"{}")
    if req.method == "PATCH":
        return [(req.path.rsplit("/", 1)[-1], None, data)]
    if req.path.endswith("/batch"):
        return [(r["id"], None, r) for key in ("post", "patch") for r in data.get(key) or []]
    return [(data["id"], None, data)]
