"""Keyword search of a story's passages: FTS5 on SQLite, the keyword postings of
`storage.indexes.keywords.postgres` on PostgreSQL (scored alike)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from loci.engine.search.query_words import fts_match, keyword_terms
from loci.storage.databases.db import Connection

if TYPE_CHECKING:
    from loci.storage.indexes.keywords.postgres import KeywordPostings

#: The passages' corpus among the keyword postings (memories and sequences are 1 and 2).
STORY_CORPUS = 3


def for_store(postings: KeywordPostings | None) -> PassageKeywords:
    """The passages' keyword index of a store: FTS5 on SQLite (`postings` None), the store's
    keyword postings on PostgreSQL."""
    return FtsPassageKeywords() if postings is None else PostgresPassageKeywords(postings)


class PassageKeywords(Protocol):
    """What the story engine needs of its passages' keyword index."""

    def add(self, conn: Connection, passage_id: int, text: str) -> None:
        """Index a new passage's text (inside the write that stores the passage)."""
        ...

    def texts(self, conn: Connection, passage_ids: Sequence[int]) -> dict[int, str]:
        """The text of each passage, as indexed."""
        ...

    def matches(self, conn: Connection, session_id: int, query: str, limit: int) -> list[int]:
        """Ids of the session's passages best matching the query's words, best first."""
        ...


class FtsPassageKeywords:
    """SQLite's FTS5 table of passage texts."""

    def add(self, conn: Connection, passage_id: int, text: str) -> None:
        """Index a new passage's text."""
        conn.execute(
            "INSERT INTO story_passages_fts (rowid, text) VALUES (?, ?)", (passage_id, text)
        )

    def texts(self, conn: Connection, passage_ids: Sequence[int]) -> dict[int, str]:
        """The text of each passage, from the FTS5 table."""
        rows = conn.execute(
            "SELECT rowid, text FROM story_passages_fts WHERE rowid IN "
            "(SELECT value FROM json_each(?))",
            (json.dumps(list(passage_ids)),),
        )
        return {int(passage_id): str(text) for passage_id, text in rows}

    def matches(self, conn: Connection, session_id: int, query: str, limit: int) -> list[int]:
        """FTS5's bm25 ranking of the session's passages."""
        match = fts_match(query)
        if match is None:
            return []
        rows = conn.execute(
            "SELECT f.rowid FROM story_passages_fts f JOIN story_passages p ON p.id = f.rowid "
            "WHERE story_passages_fts MATCH ? AND p.session = ? "
            "ORDER BY bm25(story_passages_fts) LIMIT ?",
            (match, session_id, limit),
        )
        return [int(passage_id) for (passage_id,) in rows]


class PostgresPassageKeywords:
    """Passage texts in `story_passage_texts`, their postings in the store's keyword tables."""

    def __init__(self, postings: KeywordPostings) -> None:
        self._postings = postings

    def add(self, conn: Connection, passage_id: int, text: str) -> None:
        """Keep and index a new passage's text."""
        conn.execute("INSERT INTO story_passage_texts (id, text) VALUES (?, ?)", (passage_id, text))
        self._postings.add(conn, STORY_CORPUS, [(passage_id, text)])

    def texts(self, conn: Connection, passage_ids: Sequence[int]) -> dict[int, str]:
        """The text of each passage."""
        rows = conn.execute(
            "SELECT id, text FROM story_passage_texts WHERE id = ANY(?)", (list(passage_ids),)
        )
        return {int(passage_id): str(text) for passage_id, text in rows}

    def matches(self, conn: Connection, session_id: int, query: str, limit: int) -> list[int]:
        """bm25 ranking of the session's passages, as FTS5 scores them."""
        found = self._postings.search(
            conn,
            STORY_CORPUS,
            keyword_terms(query),
            limit,
            "h.doc IN (SELECT id FROM story_passages WHERE session = ?)",
            [session_id],
        )
        return [passage_id for passage_id, _ in found]
