"""A filter admits the same memories on both engines: SQLite's rules for metadata values
(numbers before texts, true as 1, code-point order, NULL matching nothing) hold in the SQL
that PostgreSQL runs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from loci.engine.search.filters import compile_filter
from loci.storage.databases.sqlite import SqliteDatabase
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables.schema import MEMORY_SCHEMA

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.indexes.keywords.postgres import KeywordPostings
from loci.storage.indexes.keywords.postgres_memories import MEMORY_CORPORA

VALUES = [
    5,
    2.5,
    -1,
    0,
    10**12,
    "b",
    "B",
    "abc",
    "é",
    "",
    True,
    False,
    None,
    [1, "b", True],
    ["x"],
    [],
    {"k": 1},
    "5",
]
FILTERS = [
    {"metadata.v": {op: operand}}
    for op in ("eq", "ne", "gt", "gte", "lt", "lte")
    for operand in (5, 2.5, 1, "b", "B", "", True)
] + [
    {"metadata.v": {"in": [5, "b", True]}},
    {"metadata.v": {"nin": [5, "b"]}},
    {"metadata.v": {"contains": "b"}},
    {"metadata.v": {"contains": 1}},
    {"metadata.v": {"contains": "x"}},
    {"metadata.nested.k": {"eq": 1}},
    {"metadata.v": {"eq": 5}, "importance": {"gte": 0.5}},
    {"or": [{"metadata.v": {"lt": 0}}, {"tags": {"contains": "t3"}}]},
    {"source": {"contains": "ag"}},
]


def memories() -> list[sql.NewMemory]:
    vector = np.zeros(384, dtype="<f4")
    vector[0] = 1.0
    made = []
    for i, value in enumerate([*VALUES, "missing"]):
        metadata = {} if value == "missing" else {"v": value}
        if i % 4 == 0:
            metadata["nested"] = {"k": i % 8 // 4}
        made.append(
            sql.NewMemory(
                f"m{i}",
                f"text {i}",
                f"h{i}",
                "default",
                [f"t{i}"],
                (i % 10) / 10,
                "agent" if i % 2 else "user",
                json.dumps(metadata),
                "t",
                "t",
                "t",
                0,
                vector.tobytes(),
            )
        )
    return made


@pytest.fixture
def stores(tmp_path, postgres_url):
    postings = KeywordPostings(MEMORY_CORPORA)
    postgres = PostgresDatabase(
        postgres_url, schemas=(MEMORY_SCHEMA,), before_commit=(postings.refresh_stale,)
    )
    sqlite = SqliteDatabase(tmp_path / "loci.db", schemas=(MEMORY_SCHEMA,))
    for db in (sqlite, postgres):
        with db.write() as conn:
            sql.ensure_namespaces(conn, {"default"}, "t")
            sql.insert_memories(conn, memories())
    yield sqlite, postgres
    postgres.close()
    sqlite.close()


def admitted(db, spec) -> list[int]:
    compiled = compile_filter(spec, None, db.engine)
    with db.snapshot() as conn:
        return sql.matching_seqs(conn, compiled.sql, compiled.params).tolist()


@pytest.mark.parametrize("spec", FILTERS, ids=json.dumps)
def test_a_filter_admits_the_same_memories_on_both_engines(stores, spec):
    sqlite, postgres = stores
    assert sorted(admitted(postgres, spec)) == sorted(admitted(sqlite, spec))
