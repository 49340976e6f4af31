"""The memories' keyword index on PostgreSQL: a `KeywordIndex` over the memories corpus of
`keywords.KeywordPostings`, and the texts its stale queue indexes."""

from __future__ import annotations

from typing import Any

from loci.storage.db import Connection
from loci.storage.keyword_index import KeywordQuery, Matches
from loci.storage.postgres.keywords import KeywordPostings, TextsOf
from loci.storage.postgres.memory_tables import MEMORIES_CORPUS


def memory_texts(conn: Connection, seqs: list[int]) -> list[tuple[int, str]]:
    """The text of those of `seqs` still stored."""
    rows = conn.execute(
        "SELECT seq, content FROM memories WHERE seq = ANY(?) ORDER BY seq", (seqs,)
    )
    return [(int(seq), str(text)) for seq, text in rows]


#: What the stale queue of each corpus of the memory tables indexes.
MEMORY_CORPORA: dict[int, TextsOf] = {MEMORIES_CORPUS: memory_texts}


class PgKeywords:
    """Keyword search of the memories, in the database, scored as FTS5 scores."""

    def __init__(self, postings: KeywordPostings) -> None:
        self._postings = postings

    def search(self, conn: Connection, query: KeywordQuery) -> Matches:
        """The best `query.limit` memories holding any of its words, best first."""
        parts: list[str] = []
        params: list[Any] = []
        if query.namespaces is not None:
            parts.append("h.doc IN (SELECT seq FROM memories WHERE namespace = ANY(?))")
            params.append(sorted(query.namespaces))
        if query.within is not None:
            parts.append("h.doc = ANY(?)")
            params.append(query.within.tolist())
        if not query.mirrorable:
            parts.append(f"h.doc IN (SELECT m.seq FROM memories m WHERE {query.where})")
            params.extend(query.params)
        return self._postings.search(
            conn, MEMORIES_CORPUS, query.words, query.limit, " AND ".join(parts), params
        )
