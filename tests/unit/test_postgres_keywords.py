"""Keyword search in PostgreSQL scores as SQLite's FTS5 does: the same terms, the same bm25,
phrases and repeated words included, restricted or not, and after documents change."""

from __future__ import annotations

import sqlite3

import pytest

from loci.storage.fts_terms import TOKENIZE
from loci.storage.keyword_index import match_expression
from loci.storage.schema import Schema
from tests.keyword_scores import same
from tests.unit.test_keyword_mirror import EXTRA, QUERY_WORDS, sentences

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

from loci.storage.postgres.database import PostgresDatabase
from loci.storage.postgres.keywords import KEYWORD_TABLES, KeywordPostings

CORPUS = 1
KEYWORDS = Schema("keywords", (), postgres=(KEYWORD_TABLES,))
MORE_WORDS = [
    ["e-mail", "snake_case"],  # words FTS5 reads as phrases of two terms
    ["Darcy", "Darcy", "ball"],  # a repeated word counts twice, as in FTS5
    ["Mr. Darcy", "Miss Bennet"],
    ["don't", "couldn't", "Elizabeth's"],
    ["!!!"],  # no terms at all
]


class Fts5:
    """The reference: an FTS5 table with loci's tokenizer."""

    def __init__(self) -> None:
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(content, tokenize='{TOKENIZE}')")

    def put(self, texts: list[tuple[int, str]]) -> None:
        self.conn.executemany("INSERT INTO t(rowid, content) VALUES (?, ?)", texts)

    def drop(self, docs: list[int]) -> None:
        self.conn.executemany("DELETE FROM t WHERE rowid = ?", [(d,) for d in docs])

    def search(self, words, limit=20, within=None):
        match = match_expression(words)
        if match is None:
            return []
        extra = f"AND rowid IN ({','.join(map(str, within))})" if within else ""
        rows = self.conn.execute(
            f"SELECT rowid, bm25(t) AS rank FROM t WHERE t MATCH ? {extra} "
            "ORDER BY rank, rowid LIMIT ?",
            (match, limit),
        )
        return [(int(doc), float(rank)) for doc, rank in rows]


@pytest.fixture
def engines(postgres_url):
    texts = list(enumerate(EXTRA + sentences(400), start=1))
    reference = Fts5()
    reference.put(texts)
    db = PostgresDatabase(postgres_url, schemas=(KEYWORDS,))
    postings = KeywordPostings({CORPUS: lambda conn, docs: [t for t in texts if t[0] in docs]})
    with db.write() as conn:
        postings.add(conn, CORPUS, texts)
    yield reference, db, postings
    db.close()


def search(db, postings, words, limit=20, within=None):
    restrict, params = ("h.doc = ANY(?)", [within]) if within else ("", [])
    with db.snapshot() as conn:
        return postings.search(conn, CORPUS, words, limit, restrict, params)


@pytest.mark.parametrize("words", QUERY_WORDS + MORE_WORDS)
def test_scores_are_fts5s(engines, words):
    reference, db, postings = engines
    same(search(db, postings, words), reference.search(words))
    within = list(range(1, 400, 3))
    same(search(db, postings, words, within=within), reference.search(words, within=within))


def test_changed_and_removed_documents_score_as_fts5_after(engines):
    reference, db, postings = engines
    rewritten = [(doc, f"Darcy wrote a letter to Jane, number {doc}") for doc in range(10, 60)]
    with db.write() as conn:
        postings.remove(conn, CORPUS, [doc for doc, _ in rewritten] + list(range(100, 150)))
        postings.add(conn, CORPUS, rewritten)
    reference.drop([doc for doc, _ in rewritten] + list(range(100, 150)))
    reference.put(rewritten)
    for words in (["Darcy", "letter"], ["Jane"], ["number", "wrote"], ["Bingley"]):
        same(search(db, postings, words), reference.search(words))


def test_queued_documents_are_indexed_before_the_commit(engines):
    reference, db, postings = engines
    with db.write() as conn:
        conn.execute("INSERT INTO keyword_stale (corpus, doc) VALUES (?, ?)", (CORPUS, 5))
        postings.refresh_stale(conn)  # as the before-commit hook runs it
        assert conn.execute("SELECT count(*) FROM keyword_stale").fetchone()[0] == 0
    for words in (["Darcy"], ["e-mail"]):
        same(search(db, postings, words), reference.search(words))


def test_an_empty_corpus_and_a_zero_limit_find_nothing(postgres_url):
    db = PostgresDatabase(postgres_url, schemas=(KEYWORDS,))
    postings = KeywordPostings()
    assert search(db, postings, ["Darcy"]) == []
    with db.write() as conn:
        postings.add(conn, CORPUS, [(1, "Darcy")])
    assert search(db, postings, ["Darcy"], limit=0) == []
    assert search(db, postings, ["Darcy"])[0][0] == 1
    db.close()
