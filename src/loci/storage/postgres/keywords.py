"""Keyword search in PostgreSQL that scores exactly as SQLite's FTS5 does.

SQLite ranks keyword matches with FTS5's bm25() over terms made by its Porter and unicode61
tokenizers. PostgreSQL's own text search stems with Snowball and ranks otherwise, so the same
store would answer differently on the two engines. Instead, texts are split into terms by
SQLite's own tokenizer (`fts_terms`, in a private in-memory database), their postings (term,
occurrences, offsets) are kept in tables, and bm25 is computed in SQL with FTS5's formula:
the same terms, the same idf, the same document lengths, the same scores.

Several corpora share the tables (memories, sequence documents, story passages), each under
its own number. Triggers queue a changed document in `keyword_stale`; :meth:`KeywordPostings.
refresh_stale` (a before-commit hook) indexes the queued documents inside the transaction that
changed them, so postings commit with their text.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from loci.storage.db import Connection
from loci.storage.fts_terms import MAX_KNOWN_WORDS, TextTerms, create_scratch, term_positions

#: bm25's parameters, as FTS5 sets them.
K1 = 1.2
B = 0.75
#: FTS5's floor for the idf of terms found in more than half the documents.
IDF_FLOOR = 1e-6

KEYWORD_TABLES = """
CREATE TABLE keyword_corpora (
    corpus INTEGER PRIMARY KEY,
    docs   BIGINT NOT NULL,
    tokens BIGINT NOT NULL
);
CREATE TABLE keyword_docs (
    corpus INTEGER NOT NULL,
    doc    BIGINT NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (corpus, doc)
);
CREATE TABLE keyword_terms (
    corpus INTEGER NOT NULL,
    term   TEXT NOT NULL,
    docs   BIGINT NOT NULL,
    PRIMARY KEY (corpus, term)
);
CREATE TABLE keyword_postings (
    corpus    INTEGER NOT NULL,
    term      TEXT NOT NULL,
    doc       BIGINT NOT NULL,
    tf        INTEGER NOT NULL,
    tokens    INTEGER NOT NULL,
    positions INTEGER[] NOT NULL,
    PRIMARY KEY (corpus, term, doc)
);
CREATE INDEX keyword_postings_doc ON keyword_postings (corpus, doc);
CREATE TABLE keyword_stale (
    corpus INTEGER NOT NULL,
    doc    BIGINT NOT NULL,
    PRIMARY KEY (corpus, doc)
);
"""

#: The text of a corpus's queued documents: (doc, text) for those that still exist.
TextsOf = Callable[[Connection, list[int]], list[tuple[int, str]]]
#: (doc, bm25) pairs, lowest (best) first; bm25 is negative for a match, as FTS5 gives it.
Matches = list[tuple[int, float]]


class KeywordPostings:
    """The postings of every corpus, and their search (one per process)."""

    def __init__(self, texts_of: dict[int, TextsOf] | None = None) -> None:
        """`texts_of` reads the current text of a corpus's documents (for the stale queue)."""
        self._texts_of = dict(texts_of or {})
        self._lock = threading.Lock()
        self._tokenizer: sqlite3.Connection | None = None
        self._known: dict[str, tuple[str, ...]] = {}

    def terms(self, texts: Sequence[tuple[int, str]]) -> dict[int, TextTerms]:
        """Each text's terms as FTS5 makes them (see the module's docstring)."""
        with self._lock:
            if self._tokenizer is None:
                self._tokenizer = sqlite3.connect(":memory:", check_same_thread=False)
                create_scratch(self._tokenizer)
            return term_positions(self._tokenizer, texts)

    def refresh_stale(self, conn: Connection) -> None:
        """Index the queued documents of every corpus (a before-commit hook)."""
        queued = conn.execute("DELETE FROM keyword_stale RETURNING corpus, doc").fetchall()
        by_corpus: dict[int, list[int]] = {}
        for corpus, doc in queued:
            by_corpus.setdefault(int(corpus), []).append(int(doc))
        for corpus, docs in sorted(by_corpus.items()):
            docs.sort()
            self.remove(conn, corpus, docs)
            self.add(conn, corpus, self._texts_of[corpus](conn, docs))

    def add(self, conn: Connection, corpus: int, texts: Sequence[tuple[int, str]]) -> None:
        """Index documents that are not indexed (inside a write transaction)."""
        if not texts:
            return
        found = self.terms(texts)
        conn.executemany(
            "INSERT INTO keyword_docs (corpus, doc, tokens) VALUES (?, ?, ?)",
            [(corpus, doc, terms.tokens) for doc, terms in found.items()],
        )
        conn.executemany(
            "INSERT INTO keyword_postings (corpus, term, doc, tf, tokens, positions) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (corpus, term, doc, len(offsets), terms.tokens, offsets)
                for doc, terms in found.items()
                for term, offsets in terms.positions.items()
            ],
        )
        per_term = Counter(term for terms in found.values() for term in terms.positions)
        self._count(conn, corpus, per_term, len(found), sum(t.tokens for t in found.values()))

    def remove(self, conn: Connection, corpus: int, docs: Sequence[int]) -> None:
        """Drop documents' postings (inside a write transaction); unknown ones are ignored."""
        if not docs:
            return
        gone = conn.execute(
            "DELETE FROM keyword_docs WHERE corpus = ? AND doc = ANY(?) RETURNING tokens",
            (corpus, list(docs)),
        ).fetchall()
        terms = conn.execute(
            "DELETE FROM keyword_postings WHERE corpus = ? AND doc = ANY(?) RETURNING term",
            (corpus, list(docs)),
        ).fetchall()
        per_term = Counter(str(row[0]) for row in terms)
        negated = Counter({term: -count for term, count in per_term.items()})
        self._count(conn, corpus, negated, -len(gone), -sum(int(row[0]) for row in gone))
        conn.execute("DELETE FROM keyword_terms WHERE corpus = ? AND docs <= 0", (corpus,))

    def clear(self, conn: Connection, corpus: int) -> None:
        """Drop every document of a corpus (before a rebuild)."""
        for table in ("keyword_docs", "keyword_postings", "keyword_terms", "keyword_corpora"):
            conn.execute(f"DELETE FROM {table} WHERE corpus = ?", (corpus,))

    def search(
        self,
        conn: Connection,
        corpus: int,
        words: Sequence[str],
        limit: int,
        restrict: str = "",
        params: Sequence[Any] = (),
    ) -> Matches:
        """The best `limit` documents matching any of `words` (each a phrase of its terms, as
        an FTS5 query ORing quoted words reads it), scored by FTS5's bm25, best first, ties by
        doc. `restrict` is SQL over the candidate `h.doc` (with `params`)."""
        phrases = [p for p in self._phrases(words) if p]
        row = conn.execute(
            "SELECT docs, tokens FROM keyword_corpora WHERE corpus = ?", (corpus,)
        ).fetchone()
        if not phrases or limit <= 0 or row is None or int(row[0]) == 0:
            return []
        total, tokens = int(row[0]), int(row[1])
        hits, hit_params = [], []
        for phrase in phrases:
            idf = _idf(total, self._documents_with(conn, corpus, phrase))
            sql, phrase_params = _phrase_hits(corpus, phrase, idf)
            hits.append(sql)
            hit_params.extend(phrase_params)
        statement = (
            f"WITH hits (doc, tf, tokens, idf) AS ({' UNION ALL '.join(hits)}) "
            "SELECT h.doc, -sum(h.idf * ((h.tf * ?) / (h.tf + ? * (? + ? * h.tokens / ?)))) "
            f"AS score FROM hits h {'WHERE ' + restrict if restrict else ''} "
            "GROUP BY h.doc ORDER BY score, h.doc LIMIT ?"
        )
        weights = [K1 + 1.0, K1, 1.0 - B, B, tokens / total]
        rows = conn.execute(statement, [*hit_params, *weights, *params, limit]).fetchall()
        return [(int(doc), float(score)) for doc, score in rows]

    def _phrases(self, words: Sequence[str]) -> list[tuple[str, ...]]:
        """Each word's terms in order, remembered (queries repeat their words)."""
        missing = [word for word in dict.fromkeys(words) if word not in self._known]
        if missing:
            if len(self._known) + len(missing) > MAX_KNOWN_WORDS:
                self._known.clear()
            found = self.terms(list(enumerate(missing)))
            for index, word in enumerate(missing):
                self._known[word] = _in_order(found[index])
        return [self._known[word] for word in words]

    def _documents_with(self, conn: Connection, corpus: int, phrase: tuple[str, ...]) -> int:
        if len(phrase) == 1:
            row = conn.execute(
                "SELECT docs FROM keyword_terms WHERE corpus = ? AND term = ?", (corpus, phrase[0])
            ).fetchone()
            return 0 if row is None else int(row[0])
        sql, params = _phrase_hits(corpus, phrase, 0.0)
        row = conn.execute(f"SELECT count(*) FROM ({sql}) AS found", params).fetchone()
        return int(row[0])

    def _count(
        self, conn: Connection, corpus: int, per_term: Counter[str], docs: int, tokens: int
    ) -> None:
        """Add to the counts of documents per term and of the corpus (negative to subtract)."""
        conn.executemany(
            "INSERT INTO keyword_terms (corpus, term, docs) VALUES (?, ?, ?) "
            "ON CONFLICT (corpus, term) DO UPDATE SET docs = keyword_terms.docs + excluded.docs",
            [(corpus, term, count) for term, count in sorted(per_term.items())],
        )
        conn.execute(
            "INSERT INTO keyword_corpora (corpus, docs, tokens) VALUES (?, ?, ?) "
            "ON CONFLICT (corpus) DO UPDATE SET docs = keyword_corpora.docs + excluded.docs, "
            "tokens = keyword_corpora.tokens + excluded.tokens",
            (corpus, docs, tokens),
        )


def _in_order(terms: TextTerms) -> tuple[str, ...]:
    """A word's terms in the order they occur in it (a phrase)."""
    at = {offset: term for term, offsets in terms.positions.items() for offset in offsets}
    return tuple(at[offset] for offset in sorted(at))


def _phrase_hits(corpus: int, phrase: tuple[str, ...], idf: float) -> tuple[str, list[Any]]:
    """SQL listing (doc, occurrences, tokens, idf) of the documents holding a phrase, and its
    parameters in order."""
    if len(phrase) == 1:
        sql = (
            "SELECT doc, tf, tokens, CAST(? AS DOUBLE PRECISION) FROM keyword_postings "
            "WHERE corpus = ? AND term = ?"
        )
        return sql, [idf, corpus, phrase[0]]
    joins = " ".join(
        f"JOIN keyword_postings p{n} ON p{n}.corpus = p0.corpus AND p{n}.doc = p0.doc "
        f"AND p{n}.term = ? AND s.pos + {n} = ANY(p{n}.positions)"
        for n in range(1, len(phrase))
    )
    sql = (
        "SELECT p0.doc, count(*), min(p0.tokens), CAST(? AS DOUBLE PRECISION) "
        "FROM keyword_postings p0 "
        f"CROSS JOIN LATERAL unnest(p0.positions) AS s(pos) {joins} "
        "WHERE p0.corpus = ? AND p0.term = ? GROUP BY p0.doc"
    )
    return sql, [idf, *phrase[1:], corpus, phrase[0]]


def _idf(total: int, hits: int) -> float:
    """FTS5's inverse document frequency, floored for terms in over half the documents."""
    idf = math.log((total - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else IDF_FLOOR
