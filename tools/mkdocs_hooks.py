"""MkDocs hooks: generated settings table and graph diagrams (see ``tools/docs_gen.py``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.docs_gen import render  # noqa: E402


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Fill the page's ``<!-- dmem:... -->`` markers from the code."""
    return render(markdown)
