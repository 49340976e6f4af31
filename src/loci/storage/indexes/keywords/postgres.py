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

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from loci.storage.databases.db import Connection
from loci.storage.databases.postgres.connection import PgConnection
from loci.storage.indexes.keywords.fts_terms import MAX_KNOWN_WORDS, TextTerms, Tokenizer
from loci.storage.indexes.keywords.postgres_ranking import (
    Corpus,
    Matches,
    Phrase,
    idf,
    phrase_documents,
    top_matches,
)

#: The text of a corpus's queued documents: (doc, text) for those that still exist.
TextsOf = Callable[[Connection, list[int]], list[tuple[int, str]]]


class KeywordPostings:
    """The postings of every corpus, and their search (one per process)."""

    def __init__(self, texts_of: dict[int, TextsOf] | None = None) -> None:
        """`texts_of` reads the current text of a corpus's documents (for the stale queue)."""
        self._texts_of = dict(texts_of or {})
        self._tokenizer = Tokenizer()
        self._known: dict[str, tuple[str, ...]] = {}

    def terms(self, texts: Sequence[tuple[int, str]]) -> dict[int, TextTerms]:
        """Each text's terms as FTS5 makes them (see the module's docstring)."""
        return self._tokenizer.positions(texts)

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
        _insert(
            conn,
            "keyword_docs",
            ("corpus", "doc", "tokens"),
            [(corpus, doc, terms.tokens) for doc, terms in found.items()],
        )
        _insert(
            conn,
            "keyword_postings",
            ("corpus", "term", "doc", "tf", "tokens", "positions"),
            [
                (corpus, term, doc, len(offsets), terms.tokens, offsets)
                for doc, terms in found.items()
                for term, offsets in terms.positions.items()
            ],
        )
        counts: dict[str, TermCount] = {}
        for terms in found.values():
            for term, offsets in terms.positions.items():
                counts[term] = counts.get(term, NO_COUNT).adding(len(offsets), terms.tokens)
        self._count(conn, corpus, counts, len(found), sum(t.tokens for t in found.values()))

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
        # The bounds stay as they were: still bounds, if looser (a rebuild tightens them).
        negated = {term: NO_COUNT._replace(docs=-count) for term, count in per_term.items()}
        self._count(conn, corpus, negated, -len(gone), -sum(int(row[0]) for row in gone))
        conn.execute(
            "DELETE FROM keyword_terms WHERE corpus = ? AND term = ANY(?) AND docs <= 0",
            (corpus, sorted(per_term)),
        )

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
        terms = [p for p in self._phrases(words) if p]  # a repeated word counts twice
        row = conn.execute(
            "SELECT docs, tokens FROM keyword_corpora WHERE corpus = ?", (corpus,)
        ).fetchone()
        if not terms or limit <= 0 or row is None or int(row[0]) == 0:
            return []
        whole = Corpus(corpus, int(row[0]), int(row[1]) / int(row[0]))
        phrases = self._weighed(conn, whole, terms)
        return top_matches(conn, whole, phrases, limit, restrict, params)

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

    def _weighed(
        self, conn: Connection, corpus: Corpus, phrases: list[tuple[str, ...]]
    ) -> list[Phrase]:
        """The phrases found in the corpus, with their idf and the bounds of their scores."""
        named = sorted({term for phrase in phrases for term in phrase})
        rows = conn.execute(
            "SELECT term, docs, max_tf, min_tokens FROM keyword_terms "
            "WHERE corpus = ? AND term = ANY(?)",
            (corpus.number, named),
        ).fetchall()
        stats = {str(term): (int(docs), int(tf), int(tokens)) for term, docs, tf, tokens in rows}
        weighed = []
        for phrase in phrases:
            if any(term not in stats for term in phrase):
                continue
            holding = stats[phrase[0]][0] if len(phrase) == 1 else _holding(conn, corpus, phrase)
            if holding:
                max_tf = min(stats[term][1] for term in phrase)
                min_tokens = max(stats[term][2] for term in phrase)
                weighed.append(
                    Phrase(phrase, holding, idf(corpus.documents, holding), max_tf, min_tokens)
                )
        return weighed

    def _count(
        self, conn: Connection, corpus: int, counts: dict[str, TermCount], docs: int, tokens: int
    ) -> None:
        """Add to the counts of documents per term and of the corpus (negative to subtract),
        and widen the terms' bounds."""
        conn.executemany(
            "INSERT INTO keyword_terms (corpus, term, docs, max_tf, min_tokens) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (corpus, term) DO UPDATE SET "
            "docs = keyword_terms.docs + excluded.docs, "
            "max_tf = greatest(keyword_terms.max_tf, excluded.max_tf), "
            "min_tokens = least(keyword_terms.min_tokens, excluded.min_tokens)",
            [(corpus, term, *count) for term, count in sorted(counts.items())],
        )
        conn.execute(
            "INSERT INTO keyword_corpora (corpus, docs, tokens) VALUES (?, ?, ?) "
            "ON CONFLICT (corpus) DO UPDATE SET docs = keyword_corpora.docs + excluded.docs, "
            "tokens = keyword_corpora.tokens + excluded.tokens",
            (corpus, docs, tokens),
        )


class TermCount(NamedTuple):
    """A term's documents, and the bounds of its postings that bm25's upper bound reads."""

    docs: int
    max_tf: int
    min_tokens: int

    def adding(self, tf: int, tokens: int) -> TermCount:
        """This count with one more document holding the term `tf` times in `tokens` tokens."""
        return TermCount(self.docs + 1, max(self.max_tf, tf), min(self.min_tokens, tokens))


#: Nothing counted yet (and, in a removal, bounds that widen nothing).
NO_COUNT = TermCount(0, 0, 2**31 - 1)


def _insert(
    conn: Connection, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]
) -> None:
    """Insert rows through COPY."""
    if not isinstance(conn, PgConnection):
        raise TypeError("keyword postings are kept in PostgreSQL")
    conn.copy_rows(table, columns, rows)


def _in_order(terms: TextTerms) -> tuple[str, ...]:
    """A word's terms in the order they occur in it (a phrase)."""
    at = {offset: term for term, offsets in terms.positions.items() for offset in offsets}
    return tuple(at[offset] for offset in sorted(at))


def _holding(conn: Connection, corpus: Corpus, phrase: tuple[str, ...]) -> int:
    """How many documents hold the terms of `phrase` in a row."""
    sql, params = phrase_documents(phrase)
    filled = [corpus.number if p is None else p for p in params]
    return int(conn.execute(f"SELECT count(*) FROM ({sql}) AS found", filled).fetchone()[0])
