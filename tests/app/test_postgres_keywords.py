"""Keyword search in PostgreSQL scores as SQLite's FTS5 does: the same terms, the same bm25,
phrases and repeated words included, restricted or not, and after documents change."""

from __future__ import annotations

import sqlite3

import pytest

from loci.storage.databases.schema import Schema
from loci.storage.indexes.keywords.fts_terms import TOKENIZE
from loci.storage.indexes.keywords.protocol import match_expression
from tests.app.test_keyword_mirror import EXTRA, QUERY_WORDS, sentences
from tests.keyword_scores import same

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.indexes.keywords import postgres_ranking as keyword_ranking
from loci.storage.indexes.keywords.postgres import KeywordPostings
from loci.storage.memory_tables.postgres_keyword_tables import KEYWORD_BOUNDS, KEYWORD_TABLES

CORPUS = 1
KEYWORDS = Schema("keywords", (), postgres=(KEYWORD_TABLES, KEYWORD_BOUNDS))
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


def indexed(postgres_url, texts):
    """FTS5 and PostgreSQL's postings holding `texts`; the database closed afterwards."""
    reference = Fts5()
    reference.put(texts)
    db = PostgresDatabase(postgres_url, schemas=(KEYWORDS,))
    postings = KeywordPostings({CORPUS: lambda conn, docs: [t for t in texts if t[0] in docs]})
    with db.write() as conn:
        postings.add(conn, CORPUS, texts)
    yield reference, db, postings
    db.close()


@pytest.fixture
def engines(postgres_url):
    yield from indexed(postgres_url, list(enumerate(EXTRA + sentences(400), start=1)))


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


COMMON_AND_RARE = [
    ["the", "Darcy"],  # FTS5 has no stop words: "the" is in most documents
    ["and", "of", "to", "letter"],
    ["she", "he", "was", "ball", "Netherfield"],
    ["Elizabeth", "Elizabeth", "the"],
]


@pytest.mark.parametrize(("seed", "whole_read"), [(1, 0), (7, 30), (2_000, 5_000), (7, 5_000)])
def test_pruned_search_is_exact_whatever_its_seed_and_limit(engines, monkeypatch, seed, whole_read):
    """The seed only sets where pruning starts, and which words are read whole only how each
    word's postings are read: any of them gives FTS5's answer, at any limit."""
    reference, db, postings = engines
    monkeypatch.setattr(keyword_ranking, "SEED_POSTINGS", seed)
    monkeypatch.setattr(keyword_ranking, "WHOLE_READ", whole_read)
    within = list(range(1, 400, 2))
    for words in QUERY_WORDS + MORE_WORDS + COMMON_AND_RARE:
        for limit in (1, 3, 10, 60):
            same(search(db, postings, words, limit), reference.search(words, limit))
            same(
                search(db, postings, words, limit, within),
                reference.search(words, limit, within),
            )


def test_a_word_too_weak_to_reach_the_top_is_not_scanned():
    """MaxScore: the words after the essential ones cannot reach the threshold together."""
    peaks = [8.0, 5.0, 1.0, 0.5]
    assert keyword_ranking.essential_count(peaks, threshold=1.4) == 3
    assert keyword_ranking.essential_count(peaks, threshold=2.0) == 2
    assert keyword_ranking.essential_count(peaks, threshold=0.0) == 4
    assert keyword_ranking.essential_count(peaks, threshold=20.0) == 0


def test_the_words_to_read_are_the_cheapest_set_the_others_cannot_reach_the_top_without():
    peaks = [11.7, 8.1, 7.9]  # a rare word, a common one, a fairly rare one
    documents = [188, 8_430, 1_263]
    # Either of the last two alone stays under 11.5: reading the rarer of them is enough.
    assert keyword_ranking.essential_words(peaks, documents, threshold=11.5) == [0, 2]
    assert keyword_ranking.essential_words(peaks, documents, threshold=0.0) == [0, 1, 2]
    assert keyword_ranking.essential_words(peaks, documents, threshold=30.0) == []
    many = [1.0] * 10  # past CHOSEN_UP_TO words: MaxScore's strongest first
    assert keyword_ranking.essential_words(many, [5] * 10, threshold=8.5) == [0, 1]


@pytest.mark.parametrize("floor", [0.3, 0.9, 1.4, 2.1])
def test_a_floor_keeps_exactly_the_postings_whose_saturation_reaches_it(floor):
    average = 17.5
    for tf in range(1, 9):
        longest = keyword_ranking._longest(tf, floor, average)
        for tokens in range(tf, 400):
            reaches = keyword_ranking.saturation(tf, tokens, average) >= floor
            assert reaches == (tokens <= longest), (tf, tokens)


def test_a_store_made_before_the_bounds_gets_them_from_its_postings(postgres_url):
    """The migration that adds the terms' bounds reads them off the postings already there."""
    texts = list(enumerate(EXTRA + sentences(120), start=1))
    before = PostgresDatabase(
        postgres_url, schemas=(Schema("keywords", (), postgres=(KEYWORD_TABLES,)),)
    )
    old = KeywordPostings()
    with before.write() as conn:  # what the code before the bounds wrote
        found = old.terms(texts)
        conn.executemany(
            "INSERT INTO keyword_postings (corpus, term, doc, tf, tokens, positions) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (CORPUS, term, doc, len(offsets), terms.tokens, offsets)
                for doc, terms in found.items()
                for term, offsets in terms.positions.items()
            ],
        )
        conn.execute(
            "INSERT INTO keyword_terms (corpus, term, docs) SELECT corpus, term, count(*) "
            "FROM keyword_postings GROUP BY corpus, term"
        )
        conn.executemany(
            "INSERT INTO keyword_docs (corpus, doc, tokens) VALUES (?, ?, ?)",
            [(CORPUS, doc, terms.tokens) for doc, terms in found.items()],
        )
        conn.execute(
            "INSERT INTO keyword_corpora (corpus, docs, tokens) "
            "SELECT corpus, count(*), sum(tokens) FROM keyword_docs GROUP BY corpus"
        )
    before.close()
    db = PostgresDatabase(postgres_url, schemas=(KEYWORDS,))
    with db.snapshot() as conn:
        wrong = conn.execute(
            "SELECT count(*) FROM keyword_terms t JOIN (SELECT term, max(tf) AS tf, "
            "min(tokens) AS tokens FROM keyword_postings GROUP BY term) b USING (term) "
            "WHERE t.max_tf <> b.tf OR t.min_tokens <> b.tokens"
        ).fetchone()[0]
        assert conn.execute("SELECT count(*) FROM keyword_terms").fetchone()[0] > 20
    assert wrong == 0
    reference = Fts5()
    reference.put(texts)
    for words in COMMON_AND_RARE:
        same(search(db, old, words, 5), reference.search(words, 5))
    db.close()


class Counted:
    """A connection that counts the ranking statements run through it."""

    def __init__(self, conn) -> None:
        self.conn = conn
        self.rankings = 0

    def execute(self, sql, params=()):
        self.rankings += "ORDER BY score" in sql
        return self.conn.execute(sql, params)


def rankings(db, postings, words, limit):
    """The answer, and how many ranking statements it took."""
    with db.snapshot() as conn:
        counted = Counted(conn)
        return postings.search(counted, CORPUS, words, limit), counted.rankings


def made_texts() -> list[tuple[int, str]]:
    """200 documents whose words' document counts are known: "zebra" in 4, "apple" in 30,
    "pear" in 41, "plum" in 41, "the" in every one; lengths vary."""
    texts = []
    for doc in range(1, 201):
        words = ["the", "note", *(["filler"] * (doc % 7))]
        words += ["zebra"] if doc <= 4 else []
        words += ["apple"] if doc <= 30 else []
        words += ["pear"] if 20 <= doc <= 60 else []
        words += ["plum"] if 50 <= doc <= 90 else []
        texts.append((doc, " ".join(words)))
    return texts


@pytest.fixture
def made(postgres_url):
    yield from indexed(postgres_url, made_texts())


@pytest.mark.parametrize(
    ("words", "seed", "whole_read", "rounds"),
    [
        (["apple", "pear", "plum"], 7, 5_000, 1),  # every word in few documents: one sum
        (["zebra", "the"], 20, 30, 1),  # the seed read the rare word, the only one to read
        (["pear", "plum"], 7, 10, 2),  # the seed read part of a word: it may miss some
    ],
)
def test_a_second_round_runs_only_when_the_seed_may_have_missed_a_document(
    made, monkeypatch, words, seed, whole_read, rounds
):
    """One sum when every posting is read anyway; no pruned round when the seed's candidates
    already held every document that could reach the top."""
    reference, db, postings = made
    monkeypatch.setattr(keyword_ranking, "SEED_POSTINGS", seed)
    monkeypatch.setattr(keyword_ranking, "WHOLE_READ", whole_read)
    found, statements = rankings(db, postings, words, limit=3)
    same(found, reference.search(words, 3))
    assert statements == rounds
