"""What loci needs of a keyword index: a small Protocol, the query it takes, and FTS5's own
search in SQL. A query names the memories that may answer as a SQL condition over
`memories m`, which FTS5 joins."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from loci.storage import memories

#: (seq, bm25) pairs, lowest (best) first; bm25 is negative for a match, as FTS5 gives it.
Matches = list[tuple[int, float]]


def match_expression(words: Sequence[str]) -> str | None:
    """An FTS5 MATCH expression ORing the words, each quoted (so that FTS5 reads no operator
    in them); None for no words."""
    if not words:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)


class KeywordQuery(NamedTuple):
    """The words to match (any of them) and which memories may answer."""

    words: Sequence[str]
    limit: int
    where: str = "1"  # SQL over `memories m`
    params: Sequence[Any] = ()


class KeywordIndex(Protocol):
    """What loci needs of a keyword index."""

    def search(self, conn: sqlite3.Connection, query: KeywordQuery) -> Matches:
        """The best `query.limit` matches of any of its words, best first, ties by seq."""
        ...


class SqlKeywords:
    """FTS5's own search: bm25() over every memory that holds a word."""

    def search(self, conn: sqlite3.Connection, query: KeywordQuery) -> Matches:
        """The best matches by FTS5, restricted by `query.where`."""
        match = match_expression(query.words)
        if match is None or query.limit <= 0:
            return []
        return memories.keyword_search(conn, match, query.where, query.params, query.limit)
