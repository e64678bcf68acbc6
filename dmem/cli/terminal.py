"""Text from a store, made safe to print: control characters shown, never obeyed by the terminal.

A turn may hold escape sequences (ESC [2J clears the screen, OSC sequences retitle the window or
plant links) or bidirectional overrides that reorder what is shown. Every C0/C1 control
character, DEL and bidi control is printed as a visible escape (backslash, x, two hex digits); rich markup
in stored text is printed as written, not interpreted.
"""

from __future__ import annotations

import re

from rich.text import Text

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(value: object) -> str:
    """The value as text with every control character (but tab and newline) shown as an escape."""
    return _CONTROL.sub(_escape, "" if value is None else str(value))


def cell(value: object) -> Text:
    """A table cell or line that rich prints as written: controls escaped, no markup."""
    return Text(safe(value))


def safe_json(text: str) -> str:
    """JSON text with the controls json.dumps leaves raw (C1, DEL, bidi) as u-escapes: still the same JSON."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
