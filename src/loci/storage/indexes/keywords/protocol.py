"""What loci needs of a keyword index: a small Protocol, the query it takes, and two
implementations: FTS5 in SQL (the reference) and the in-memory mirror in front of it.

A query names the memories that may answer twice: as namespaces and admitted seqs (what a
mirror can test) and as a SQL condition over `memories m` (what FTS5 joins). Both must say the
same, unless `mirrorable` is false: then only SQL can answer.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from loci.storage.databases import health
from loci.storage.indexes.keywords.mirror import KeywordMirror
from loci.storage.indexes.vectors.protocol import KeyArray
from loci.storage.memory_tables import memories, sequence_documents

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
    namespaces: frozenset[str] | None = None  # None: all
    within: KeyArray | None = None  # None: every memory of the namespaces
    where: str = "TRUE"  # the same restriction, as SQL over `memories m`
    params: Sequence[Any] = ()
    mirrorable: bool = True  # False: `where` says more than namespaces and `within`


class KeywordIndex(Protocol):
    """What loci needs of a keyword index (each runs on its engine's own connection)."""

    def search(self, conn: Any, query: KeywordQuery) -> Matches:
        """The best `query.limit` matches of any of its words, best first, ties by seq."""
        ...

    def naming(self, conn: Any, name: str, seqs: Sequence[int]) -> set[int]:
        """Those of `seqs` whose text holds `name` (as whole words)."""
        ...

    def sequences(
        self, conn: Any, words: Sequence[str], limit: int, namespaces: frozenset[str] | None
    ) -> dict[int, float]:
        """The sequences whose keyword documents best match any of `words` (of `namespaces`,
        None for all): sequence id -> BM25 score, larger is better."""
        ...

    def rebuild(self, conn: Any) -> int:
        """Index every memory and sequence document anew (a repair, inside a write
        transaction); returns how many sequences there are."""
        ...


class SqlKeywords:
    """FTS5's own search: bm25() over every memory that holds a word."""

    def search(self, conn: sqlite3.Connection, query: KeywordQuery) -> Matches:
        """The best matches by FTS5, restricted by `query.where`."""
        match = match_expression(query.words)
        if match is None or query.limit <= 0:
            return []
        return memories.keyword_search(conn, match, query.where, query.params, query.limit)

    def naming(self, conn: sqlite3.Connection, name: str, seqs: Sequence[int]) -> set[int]:
        """FTS5's phrase match of `name` among `seqs`."""
        return memories.naming(conn, name, seqs)

    def sequences(
        self,
        conn: sqlite3.Connection,
        words: Sequence[str],
        limit: int,
        namespaces: frozenset[str] | None,
    ) -> dict[int, float]:
        """FTS5's ranking of the sequence documents."""
        match = match_expression(words)
        if match is None:
            return {}
        return sequence_documents.keyword_search(conn, match, limit, namespaces)

    def rebuild(self, conn: sqlite3.Connection) -> int:
        """FTS5's own rebuild of the memories' index, and every sequence document anew."""
        health.rebuild_keyword_index(conn)
        return sequence_documents.rebuild_documents(conn)


class MirroredKeywords:
    """The in-memory mirror, which answers as FTS5 does; SQL where it cannot (not loaded, a
    word FTS5 reads as a phrase, or a restriction it cannot test)."""

    def __init__(self, mirror: KeywordMirror, fallback: KeywordIndex | None = None) -> None:
        self.mirror = mirror
        self._fallback = fallback if fallback is not None else SqlKeywords()

    def search(self, conn: sqlite3.Connection, query: KeywordQuery) -> Matches:
        """The mirror's answer, or SQL's."""
        if query.mirrorable:
            found = self.mirror.search(
                conn, query.words, query.namespaces, query.limit, query.within
            )
            if found is not None:
                return found
        return self._fallback.search(conn, query)

    def naming(self, conn: sqlite3.Connection, name: str, seqs: Sequence[int]) -> set[int]:
        """SQL's answer (the mirror holds no word positions)."""
        return self._fallback.naming(conn, name, seqs)

    def sequences(
        self,
        conn: sqlite3.Connection,
        words: Sequence[str],
        limit: int,
        namespaces: frozenset[str] | None,
    ) -> dict[int, float]:
        """SQL's answer (the mirror holds the memories only)."""
        return self._fallback.sequences(conn, words, limit, namespaces)

    def rebuild(self, conn: sqlite3.Connection) -> int:
        """SQL's rebuild (the mirror follows it through the change log)."""
        return self._fallback.rebuild(conn)
