"""Short quotes of longer text: what an admission reason or a framed fact cites of another line."""

from __future__ import annotations


def shorten(text: str, limit: int) -> str:
    """``text`` itself when it has at most ``limit`` characters; else its start, cut to ``limit`` with '...'.

    The cut drops the spaces it leaves at the end, so the quote reads 'the ferry...' not 'the ferry ...'.
    """
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."
