"""Redaction of what leaves in traces: personal data by sentence, personal memories wherever they reappear.

``TraceRedactor`` is a LangSmith anonymizer (``Callable[[dict], dict]`` over a run's JSON inputs,
outputs, metadata or error). In ``pii`` mode it replaces every sentence or line holding detected
personal data with a marker, redacts the text of every fact or memory scoped USER_PII, and
remembers those texts so that later runs (prompts that quote them) are redacted too. It also
remembers every personal *value* it detects (a PIN's digits, an address, a password) and scrubs it
from every later string, so that a rewrite or a model reply that carries the value out of its
sentence ('"entity": "2580"') is redacted too. Each payload is scanned whole before any of it is
redacted: a value in a run's inputs is scrubbed from its outputs and metadata. In ``all``
mode LangSmith's own ``hide_inputs``/``hide_outputs`` drop the payloads and the redactor keeps
only structural metadata keys and the exception type of an error.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Literal

from dmem.privacy.detect import MIN_CHARS, Detection, detect, scan
from dmem.privacy.numbers import MARKER
from dmem.privacy.values import compile_values
from dmem.state.privacy_terms import NONE, Vocabulary

RedactionMode = Literal["off", "pii", "all"]
PERSONAL_MEMORY = "[redacted: personal memory]"
PERSONAL_VALUE = "[redacted: personal value]"
MIN_REMEMBERED = 8  # shorter texts ('yes', a name) are not worth a global replacement
_LINE_BY_LINE = 400  # strings longer than this are redacted (and cached) a line at a time
_SEGMENT_END = re.compile(r"\n|(?<=[.!?])\s+")
_ABBREVIATION = re.compile(r"\b(?:St|Dr|Ave|Rd|Blvd|Ln|Ct|Mr|Mrs|Ms|Jr|Sr|No|Apt|e\.g|i\.e|etc)\.$", re.IGNORECASE)
_STRUCTURAL = frozenset({"id", "memory_id", "namespace", "scope", "categories", "provenance", "language",
                         "source_turn_ids", "turn_ids", "conversation_id", "event_time", "created_at",
                         "updated_at", "seq", "index", "operation", "enrich", "enrichment_source", "speaker"})
_NEVER_TEXT = frozenset({"id", "memory_id", "scope", "categories", "provenance", "language", "event_time",
                         "created_at", "updated_at", "seq", "index", "operation", "enrich", "stage", "calls",
                         "input_tokens", "output_tokens", "total_tokens", "seconds", "estimated", "admitted", "admit",
                         "passed", "score", "scores", "lc"})
"""Fields our records and LangChain messages fill with ids, enums, times and numbers, never with text."""
_SAFE_METADATA = frozenset({"route", "gate_policy", "gate_passed", "status", "engine", "policy",
                            "checkpoint_ns", "thread_id", "run_attempt", "assistant_id", "graph_id", "run_id"})
_SAFE_PREFIXES = ("ls_", "langgraph_", "lc_", "revision")
_TEXTLIKE_KEY = re.compile(r"[\s\d@]")


def redact_text(text: str, extra: Vocabulary = NONE) -> str:
    """Each sentence or line that holds detected personal data replaced by '[redacted: <kinds>]'."""
    return _redact_found(text, detect(text, extra))


def _redact_found(text: str, found: list[Detection]) -> str:
    if not found:
        return text
    out: list[str] = []
    start = 0
    ends = [m for m in _SEGMENT_END.finditer(text) if not _ABBREVIATION.search(text[:m.start()])]
    for end_match in [*ends, None]:
        end = end_match.start() if end_match else len(text)
        gap_end = end_match.end() if end_match else len(text)
        hits = [d.kind for d in found if d.start < end and d.end > start]
        if hits:
            out.append(f"[redacted: {', '.join(dict.fromkeys(hits))}]")
        else:
            out.append(text[start:end])
        out.append(text[end:gap_end])
        start = gap_end
    return "".join(out)


class TraceRedactor:
    """A LangSmith anonymizer for one redaction mode; remembers personal memory texts it has seen."""

    def __init__(self, mode: RedactionMode = "pii", *, extra: Vocabulary = NONE, max_remembered: int = 2_000,
                 max_cached: int = 50_000) -> None:
        self.mode = mode
        self.extra = extra
        self.max_remembered = max_remembered
        self.max_cached = max_cached
        self._remembered: OrderedDict[str, None] = OrderedDict()
        self._secrets: tuple[str, ...] = ()  # the remembered texts, longest first
        self._values: OrderedDict[str, None] = OrderedDict()  # personal values seen in any payload
        self._value_re: tuple[int, re.Pattern[str] | None] = (0, None)  # (generation, pattern of the values)
        self._detected: dict[str, str] = {}  # line -> the line with detected personal data redacted
        self._generation = 0  # bumped by every new remembered text
        self._cache: dict[str, tuple[int, str]] = {}  # line -> (generation, redacted), oldest first
        self._keys: dict[str, str] = {}  # field name -> itself or its redacted stand-in
        self._lock = threading.Lock()

    def __call__(self, data: Any) -> Any:
        if self.mode == "off":
            return data
        if self.mode == "all":
            return _structural_only(data)
        self._collect(data)
        return self._walk(data, personal=False)

    def remember(self, text: str) -> None:
        """Redact this text wherever it appears from now on (a memory known to be personal)."""
        text = text.strip()
        if len(text) < MIN_REMEMBERED:
            return
        with self._lock:
            if text in self._remembered:
                self._remembered.move_to_end(text)
                return
            self._remembered[text] = None
            while len(self._remembered) > self.max_remembered:
                self._remembered.popitem(last=False)
            self._secrets = tuple(sorted(self._remembered, key=len, reverse=True))
            self._generation += 1

    def remember_value(self, value: str) -> None:
        """Scrub this personal value from every string from now on, however its digits are separated."""
        value = value.strip()
        if len(value) < MIN_CHARS:
            return
        with self._lock:
            if value in self._values:
                self._values.move_to_end(value)
                return
            self._values[value] = None
            while len(self._values) > self.max_remembered:
                self._values.popitem(last=False)
            self._generation += 1

    def _value_pattern(self, generation: int) -> re.Pattern[str] | None:
        built, pattern = self._value_re
        if built != generation:
            with self._lock:
                pattern = compile_values(list(self._values))
                self._value_re = (generation, pattern)
        return pattern

    def _detector_pass(self, line: str) -> str:
        """The line with detected personal data redacted; the values found are remembered."""
        done = self._detected.get(line)
        if done is not None:
            return done
        found, values = scan(line, self.extra)
        for value in values:
            self.remember_value(value)
        out = _redact_found(line, found)
        with self._lock:
            self._detected[line] = out
            while len(self._detected) > self.max_cached:
                del self._detected[next(iter(self._detected))]
        return out

    def redact(self, text: str) -> str:
        """Detected personal data, then remembered personal memories, redacted from one string.

        Long strings (prompts) are redacted line by line, so that the lines they share with other
        runs (memories, transcript lines) are looked at once.
        """
        if len(text) > _LINE_BY_LINE and "\n" in text:
            return "\n".join(self._redact_line(line) for line in text.split("\n"))
        return self._redact_line(text)

    def _redact_line(self, text: str) -> str:
        hit = self._cache.get(text)  # a dict read is atomic: no lock on the hot path
        secrets, generation = self._secrets, self._generation
        if hit is not None and hit[0] == generation:
            return hit[1]
        out = self._detector_pass(text)
        for secret in secrets:
            if secret in out:
                out = out.replace(secret, PERSONAL_MEMORY)
        if (values := self._value_pattern(generation)) is not None:
            out = _outside_markers(out, lambda part: values.sub(PERSONAL_VALUE, part))
        with self._lock:
            self._cache[text] = (generation, out)
            while len(self._cache) > self.max_cached:
                del self._cache[next(iter(self._cache))]
        return out

    def _collect(self, data: Any) -> None:
        """Remember the texts of every fact or memory scoped USER_PII in the payload, and every personal value."""
        if isinstance(data, str):
            if len(data) >= MIN_CHARS:
                for line in data.split("\n") if len(data) > _LINE_BY_LINE else [data]:
                    self._detector_pass(line)
        elif isinstance(data, dict):
            if data.get("scope") == "USER_PII":
                for key, value in data.items():
                    if key not in _STRUCTURAL and isinstance(value, str):
                        self.remember(value)
            for key, value in data.items():
                if key not in _NEVER_TEXT:
                    self._collect(value)
        elif isinstance(data, list):
            for item in data:
                self._collect(item)

    def _walk(self, data: Any, *, personal: bool) -> Any:
        if isinstance(data, str):
            if personal and data.strip():
                return PERSONAL_MEMORY
            return data if len(data) < MIN_CHARS else self.redact(data)
        if isinstance(data, dict):
            inside = personal or data.get("scope") == "USER_PII"
            return {self._key(k, i): v if k in _NEVER_TEXT else self._walk(v, personal=inside and k not in _STRUCTURAL)
                    for i, (k, v) in enumerate(data.items())}
        if isinstance(data, list):
            return [self._walk(item, personal=personal) for item in data]
        return data

    def _key(self, key: Any, index: int) -> Any:
        """Keys are field names; one that reads like text (spaces, digits, '@') is checked like a value."""
        if not isinstance(key, str):
            return key
        known = self._keys.get(key)
        if known is None:
            known = key if not _TEXTLIKE_KEY.search(key) or self.redact(key) == key else ""
            if len(self._keys) < self.max_cached:
                self._keys[key] = known
        return key if known else f"[redacted key {index}]"


def _outside_markers(text: str, change: Callable[[str], str]) -> str:
    """``change`` applied to the text between our redaction markers (a marker is never redacted again)."""
    out, at = [], 0
    for m in MARKER.finditer(text):
        out += [change(text[at:m.start()]), m.group(0)]
        at = m.end()
    return "".join([*out, change(text[at:])])


def _structural_only(data: Any) -> Any:
    """``all`` mode, for what LangSmith still sends (metadata, errors): no free text at all."""
    if not isinstance(data, dict):
        return {}
    if set(data) == {"error"}:
        error = str(data["error"] or "")
        return {"error": re.split(r"[(:\s]", error.strip(), maxsplit=1)[0] or "error"}
    return {k: v for k, v in data.items()
            if (k in _SAFE_METADATA or k.startswith(_SAFE_PREFIXES)) and isinstance(v, str | int | float | bool)}
