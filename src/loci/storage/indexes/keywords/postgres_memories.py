"""The memories' keyword index on PostgreSQL: a `KeywordIndex` over the memories corpus and the
sequence documents of `keywords.KeywordPostings`, and what keeps both up to date."""

from __future__ import annotations

from collections.abc import Sequence

from loci.storage.databases.db import Connection
from loci.storage.indexes.keywords.postgres import KeywordPostings, TextsOf
from loci.storage.indexes.keywords.protocol import KeywordQuery, Matches
from loci.storage.memory_tables.postgres import MEMORIES_CORPUS, SEQUENCES_CORPUS
from loci.storage.memory_tables.sequence_documents import MAX_DOCUMENT_ITEMS, out_of_step


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
        # The candidates are few: each is looked up, not the admitted memories listed.
        conditions, params = [], []
        if query.namespaces is not None:
            conditions.append("m.namespace = ANY(?)")
            params.append(sorted(query.namespaces))
        if query.where != "TRUE":
            conditions.append(f"({query.where})")
            params.extend(query.params)
        parts = []
        if conditions:
            admitted = " AND ".join(conditions)
            parts.append(f"EXISTS (SELECT 1 FROM memories m WHERE m.seq = h.doc AND {admitted})")
        if query.within is not None:
            parts.append("h.doc = ANY(?)")
            params.append(query.within.tolist())
        return self._postings.search(
            conn, MEMORIES_CORPUS, query.words, query.limit, " AND ".join(parts), params
        )

    def naming(self, conn: Connection, name: str, seqs: Sequence[int]) -> set[int]:
        """Those of `seqs` whose text holds `name` (as a phrase of its terms)."""
        if not seqs:
            return set()
        found = self._postings.search(
            conn, MEMORIES_CORPUS, [name], len(seqs), "h.doc = ANY(?)", [list(seqs)]
        )
        return {doc for doc, _ in found}

    def sequences(
        self,
        conn: Connection,
        words: Sequence[str],
        limit: int,
        namespaces: frozenset[str] | None,
    ) -> dict[int, float]:
        """The best-matching sequence documents: id -> BM25 score, larger is better."""
        restrict, params = "", []
        if namespaces is not None:
            restrict = "h.doc IN (SELECT id FROM sequences WHERE namespace = ANY(?))"
            params = [sorted(namespaces)]
        found = self._postings.search(conn, SEQUENCES_CORPUS, words, limit, restrict, params)
        return {doc: -score for doc, score in found}

    def rebuild(self, conn: Connection) -> int:
        """Index every memory and every sequence document anew; returns how many sequences
        there are."""
        for corpus in (MEMORIES_CORPUS, SEQUENCES_CORPUS):
            self._postings.clear(conn, corpus)
        conn.execute(
            "INSERT INTO keyword_stale (corpus, doc) SELECT ?, seq FROM memories "
            "ON CONFLICT DO NOTHING",
            (MEMORIES_CORPUS,),
        )
        conn.execute("UPDATE sequences SET stale = 1")
        self.refresh_sequences(conn)
        self._postings.refresh_stale(conn)
        return int(conn.execute("SELECT count(*) FROM sequences").fetchone()[0])

    def refresh_sequences(self, conn: Connection) -> int:
        """Rebuild the documents of the sequences marked stale (a sequence left without items
        is dropped), as `sequence_documents.refresh_stale` does on SQLite; a before-commit
        hook. Returns how many."""
        stale = [int(row[0]) for row in conn.execute("SELECT id FROM sequences WHERE stale = 1")]
        if not stale:
            return 0
        self._postings.remove(conn, SEQUENCES_CORPUS, stale)
        bodies: list[tuple[int, str]] = []
        for sequence in stale:
            texts = conn.execute(
                "SELECT m.content FROM sequence_items i JOIN memories m ON m.seq = i.seq "
                "WHERE i.sequence = ? ORDER BY i.position DESC, i.seq DESC LIMIT ?",
                (sequence, MAX_DOCUMENT_ITEMS),
            ).fetchall()
            if texts:
                bodies.append((sequence, "\n".join(str(row[0]) for row in reversed(texts))))
        kept = [sequence for sequence, _ in bodies]
        self._postings.add(conn, SEQUENCES_CORPUS, bodies)
        conn.execute("UPDATE sequences SET stale = 0 WHERE id = ANY(?)", (kept,))
        conn.execute("DELETE FROM sequences WHERE stale = 1 AND id = ANY(?)", (stale,))
        return len(stale)


def keyword_index_matches(conn: Connection) -> bool:
    """Whether every memory, and nothing else, has its keyword document."""
    memories, indexed, queued = conn.execute(
        "SELECT (SELECT count(*) FROM memories), "
        "(SELECT count(*) FROM keyword_docs WHERE corpus = ?), "
        "(SELECT count(*) FROM keyword_stale)",
        (MEMORIES_CORPUS,),
    ).fetchone()
    return int(memories) == int(indexed) and int(queued) == 0


def sequence_health(conn: Connection) -> tuple[int, list[str]]:
    """How many sequences there are, and what is out of step with their documents."""
    count, stale, documents = conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE stale = 1), "
        "(SELECT count(*) FROM keyword_docs WHERE corpus = ?) FROM sequences",
        (SEQUENCES_CORPUS,),
    ).fetchone()
    return int(count), out_of_step(int(count), int(stale), int(documents))
