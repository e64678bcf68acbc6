"""What went wrong with a model request: a provider fault, told apart from a malformed reply.

Every client library raises its own exception types; dmem reads them by duck typing (status
code, headers, body, class name) so the retry policy is the same for every provider. The
message of a fault is one line a user can act on: it names the endpoint and the cause and never
carries the server's stack trace.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Literal

FaultKind = Literal["timeout", "connection", "rate_limit", "server", "rejected_format", "not_found",
                    "auth", "request"]

# Words naming a structured-output method in an error body, per method.
FORMAT_WORDS: dict[str, tuple[str, ...]] = {
    "function_calling": ("tool", "function"),
    "json_schema": ("json_schema", "response_format"),
    "json_mode": ("json_object", "response_format"),
}
_RETRYABLE_STATUS = {408, 409, 425, 429}
_STATUS_NAMES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
                 408: "Request Timeout", 409: "Conflict", 422: "Unprocessable Entity", 429: "Too Many Requests",
                 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
                 504: "Gateway Timeout"}


@dataclass(frozen=True)
class Fault:
    """A failed request, classified."""

    kind: FaultKind
    retryable: bool
    cause: str
    """One line: what happened (no stack trace)."""
    status: int | None = None
    retry_after: float | None = None
    """Seconds the server asked to wait (Retry-After), if it said."""


def status_of(exc: BaseException) -> int | None:
    """The HTTP status code an exception carries, if any."""
    for holder in (exc, getattr(exc, "response", None)):
        code = getattr(holder, "status_code", None) if holder is not None else None
        if isinstance(code, int):
            return code
    return None


def body_text(exc: BaseException) -> str:
    """The error body as text (lower-cased), for matching words like 'response_format'."""
    body = getattr(exc, "body", None)
    parts = [str(exc)]
    if body is not None:
        parts.append(body if isinstance(body, str) else json.dumps(body, default=str))
    return " ".join(parts).lower()


def retry_after(exc: BaseException) -> float | None:
    """Seconds from a Retry-After (seconds or HTTP date) or retry-after-ms header."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if not headers:
        return None
    try:
        millis = headers.get("retry-after-ms")
        if millis is not None:
            return max(0.0, float(millis) / 1000)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            from datetime import UTC, datetime

            when = parsedate_to_datetime(value)
            return max(0.0, (when - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError):
        return None


def server_message(exc: BaseException) -> str:
    """The server's own short message (its 'message' field, first line), never a traceback."""
    body = getattr(exc, "body", None)
    text = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = str(inner.get("message", "")) if isinstance(inner, dict) else str(inner)
    elif isinstance(body, str):
        text = body
    return _condense(text)


def _condense(text: str) -> str:
    """Up to 160 characters on one line, cut before any stack trace ('Traceback', 'File "...", line')."""
    text = re.split(r"Traceback \(most recent call last\)|\n\s*File \"", text, maxsplit=1)[0]
    line = " ".join(text.split())
    return line[:160] + ("..." if len(line) > 160 else "")


def names_format(exc: BaseException, method: str) -> bool:
    """Whether the error body names the structured-output method that was asked for."""
    text = body_text(exc)
    return any(word in text for word in FORMAT_WORDS.get(method, ()))


def classify(exc: BaseException, method: str | None = None) -> Fault:
    """Classify an exception raised by a chat model call (``method``: the structured-output method used)."""
    name = type(exc).__name__
    status = status_of(exc)
    if status is None:
        if isinstance(exc, TimeoutError) or "timeout" in name.lower():
            return Fault("timeout", True, "the request timed out")
        if isinstance(exc, ConnectionError) or "connect" in name.lower():
            return Fault("connection", True, f"cannot connect ({_short(exc) or name})")
        return Fault("request", False, f"{name}: {_short(exc)}")
    label = f"HTTP {status} {_STATUS_NAMES.get(status, '')}".strip()
    detail = server_message(exc)
    cause = f"{label}: {detail}" if detail else label
    if method is not None and status >= 400 and names_format(exc, method):
        return Fault("rejected_format", False, cause, status)
    if status == 429:
        return Fault("rate_limit", True, cause, status, retry_after(exc))
    if status >= 500 or status in _RETRYABLE_STATUS:
        return Fault("server", True, cause, status, retry_after(exc))
    if status == 404:
        return Fault("not_found", False, cause, status)
    if status in (401, 403):
        return Fault("auth", False, f"{cause} (check the API key)", status)
    return Fault("request", False, cause, status)


def not_found_hint(url: str | None) -> str:
    """What to try after a 404: most OpenAI-compatible servers serve the API under '/v1'."""
    if url and not re.search(r"/v\d+/?$", url):
        return f"; check base_url: OpenAI-compatible servers usually serve under /v1 (try {url.rstrip('/')}/v1)"
    return "; check base_url and the model name"


def _short(exc: BaseException) -> str:
    return _condense(str(exc))


def describe(fault: Fault, where: str, attempts: int, url: str | None = None) -> str:
    """The one-line message of a final provider failure."""
    tries = f" after {attempts} attempt{'s' if attempts != 1 else ''}" if attempts > 1 else ""
    hint = not_found_hint(url) if fault.kind == "not_found" else ""
    return f"{where}: {fault.cause}{tries}{hint}"

