"""FTS5 query syntax."""

from __future__ import annotations

from collections.abc import Sequence


def match_expression(words: Sequence[str]) -> str | None:
    """An FTS5 MATCH expression ORing the words, each quoted (so that FTS5 reads no operator
    in them); None for no words."""
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
