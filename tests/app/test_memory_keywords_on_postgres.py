"""The memories' keyword search on PostgreSQL answers as FTS5 does on SQLite for the same
memories, restricted alike, and follows their changes through the trigger-fed queue."""

from __future__ import annotations

import numpy as np
import pytest

from loci.storage.databases.sqlite import SqliteDatabase
from loci.storage.indexes.keywords.protocol import KeywordQuery, SqlKeywords
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables.schema import MEMORY_SCHEMA
from tests.app.test_keyword_mirror import QUERY_WORDS, sentences
from tests.keyword_scores import same

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.indexes.keywords.postgres import KeywordPostings
from loci.storage.indexes.keywords.postgres_memories import MEMORY_CORPORA, PgKeywords

NAMESPACES = ("a", "b")


def memories(texts: list[str]) -> list[sql.NewMemory]:
    vector = np.zeros(384, dtype="<f4")
    vector[0] = 1.0
    return [
        sql.NewMemory(
            f"m{i}",
            text,
            f"h{i}",
            NAMESPACES[i % 2],
            [],
            0.5,
            "agent",
            "{}",
            "t",
            "t",
            "t",
            0,
            vector.tobytes(),
        )
        for i, text in enumerate(texts)
    ]


@pytest.fixture
def stores(tmp_path, postgres_url):
    texts = sentences(300)
    postings = KeywordPostings(MEMORY_CORPORA)
    postgres = PostgresDatabase(
        postgres_url, schemas=(MEMORY_SCHEMA,), before_commit=(postings.refresh_stale,)
    )
    sqlite = SqliteDatabase(tmp_path / "loci.db", schemas=(MEMORY_SCHEMA,))
    for db in (sqlite, postgres):
        with db.write() as conn:
            sql.ensure_namespaces(conn, set(NAMESPACES), "t")
            sql.insert_memories(conn, memories(texts))
    yield sqlite, postgres, PgKeywords(postings)
    postgres.close()
    sqlite.close()


def both(stores, query):
    sqlite, postgres, keywords = stores
    with sqlite.snapshot() as conn:
        expected = SqlKeywords().search(
            conn, query._replace(where=_where(query), params=_params(query))
        )
    with postgres.snapshot() as conn:
        found = keywords.search(conn, query)
    return found, expected


def _where(query):
    parts = ["TRUE"]
    if query.namespaces is not None:
        parts.append(f"m.namespace IN ({','.join('?' * len(query.namespaces))})")
    if query.within is not None:
        parts.append(f"m.seq IN ({','.join('?' * len(query.within))})")
    return " AND ".join(parts)


def _params(query):
    return [
        *sorted(query.namespaces or ()),
        *(query.within.tolist() if query.within is not None else []),
    ]


@pytest.mark.parametrize("words", QUERY_WORDS)
def test_answers_as_fts5_restricted_or_not(stores, words):
    for namespaces in (None, frozenset({"a"})):
        for within in (None, np.arange(1, 300, 7, dtype=np.int64)):
            same(*both(stores, KeywordQuery(words, 20, namespaces, within)))


def test_changes_reach_the_keyword_index_before_their_commit(stores):
    sqlite, postgres, _ = stores
    for db in (sqlite, postgres):
        with db.write() as conn:
            conn.execute(
                "UPDATE memories SET content = ? WHERE seq = ?", ("a zebra and a unicorn", 5)
            )
            conn.execute("DELETE FROM memories WHERE seq IN (7, 8, 9)")
    for words in (["zebra", "unicorn"], ["Darcy"], ["letter", "Jane"]):
        same(*both(stores, KeywordQuery(words, 20)))
    with postgres.locked() as conn:
        assert conn.execute("SELECT count(*) FROM keyword_stale").fetchone()[0] == 0
        assert (
            conn.execute("SELECT count(*) FROM keyword_docs WHERE doc IN (7, 8, 9)").fetchone()[0]
            == 0
        )
