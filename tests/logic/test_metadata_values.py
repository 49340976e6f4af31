"""Metadata values judged in memory as SQLite judges `json_extract(...) op ?`."""

from __future__ import annotations

import itertools
import sqlite3
from typing import Any

import pytest

from loci.engine.search.filters import compile_filter
from loci.storage.memory_tables.metadata_values import NULL, ValueCodes, metadata_path

#: What json_extract can give: NULL, integers, reals, texts (JSON objects and arrays as text).
VALUES: list[Any] = [None, 0, 1, 1.0, 1.5, -2, 2**62, "", "1", "a", "B", "é", "日本", '{"a":1}']
OPERANDS: list[Any] = [0, 1, 1.0, 2, -3.5, 2**62, "", "1", "a", "b", "é", "z"]
SQL = {"eq": "=", "ne": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


@pytest.fixture
def sqlite() -> sqlite3.Connection:
    return sqlite3.connect(":memory:")


def sql_says(conn: sqlite3.Connection, value: Any, op: str, operand: Any) -> bool:
    if op in ("in", "nin"):
        marks = ",".join("?" * len(operand))
        negate = "NOT " if op == "nin" else ""
        query = f"SELECT json_extract(?, '$.v') {negate}IN ({marks})"
        row = conn.execute(query, [_document(conn, value), *operand]).fetchone()
    else:
        query = f"SELECT json_extract(?, '$.v') {SQL[op]} ?"
        row = conn.execute(query, [_document(conn, value), operand]).fetchone()
    return bool(row[0])  # NULL (None) is not true


def _document(conn: sqlite3.Connection, value: Any) -> str:
    """A JSON document whose `$.v` json_extract gives `value` back."""
    if isinstance(value, str) and value.startswith("{"):
        return f'{{"v": {value}}}'  # an object: json_extract gives its JSON text
    return str(conn.execute("SELECT json_object('v', ?)", (value,)).fetchone()[0])


def test_the_documents_give_the_values_back(sqlite: sqlite3.Connection) -> None:
    for value in VALUES:
        got = sqlite.execute(
            "SELECT json_extract(?, '$.v')", (_document(sqlite, value),)
        ).fetchone()[0]
        assert got == value and type(got) is type(value)


@pytest.mark.parametrize("op", [*SQL, "in", "nin"])
def test_every_value_against_every_operand_as_sql_says(sqlite: sqlite3.Connection, op: str) -> None:
    codes = ValueCodes()
    values = {codes.code(value): value for value in VALUES}
    operands: list[Any] = (
        [list(pair) for pair in itertools.combinations(OPERANDS, 2)]
        if op in ("in", "nin")
        else OPERANDS
    )
    agreed = 0
    for operand in operands:
        table = codes.table(op, operand)
        for code, value in values.items():
            assert bool(table[code]) == sql_says(sqlite, value, op, operand), (value, operand)
            agreed += 1
    assert agreed == len(values) * len(operands)


def test_null_meets_no_condition() -> None:
    codes = ValueCodes()
    codes.code("x")
    for op, operand in [("ne", "y"), ("nin", ["y"]), ("lt", "z"), ("gt", -1), ("eq", 0)]:
        assert not codes.table(op, operand)[NULL]


def test_equal_numbers_share_a_code_and_texts_do_not_join_them() -> None:
    codes = ValueCodes()
    assert codes.code(1) == codes.code(1.0) != codes.code("1")
    assert codes.code(None) == NULL
    assert len(codes) == 3


def test_metadata_paths_quote_each_key() -> None:
    assert metadata_path("metadata.kind") == '$."kind"'
    assert metadata_path("metadata.a.b-c") == '$."a"."b-c"'


#: JSON documents whose `$.v` is an array, a string (one that looks like an array too), an
#: object, a number, null, or missing.
CONTAINERS = [
    '{"v": [1, true, "x", null, 2.5, "ab", 12]}',
    '{"v": "abc 12"}',
    '{"v": "[\\"x\\"]"}',
    '{"v": {"a": "x"}}',
    '{"v": 12}',
    '{"v": null}',
    "{}",
    '{"v": []}',
    '{"v": ""}',
]
NEEDLES: list[Any] = ["x", "a", "", "12", 12, 1, True, 2.5, 0, '["x"]', "null"]


def test_contains_as_sql_says() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE memories (seq INTEGER PRIMARY KEY, metadata TEXT)")
    conn.executemany("INSERT INTO memories(metadata) VALUES (?)", [(d,) for d in CONTAINERS])
    codes = ValueCodes()
    code_of = {
        seq: codes.code(value, kind)
        for seq, value, kind in conn.execute(
            "SELECT seq, json_extract(metadata, '$.v'), json_type(metadata, '$.v') FROM memories"
        )
    }
    assert len(set(code_of.values())) == len(CONTAINERS) - 1  # null and missing: both NULL
    for needle in NEEDLES:
        compiled = compile_filter({"metadata.v": {"contains": needle}})
        expected = {
            seq
            for (seq,) in conn.execute(
                f"SELECT seq FROM memories m WHERE {compiled.sql}", compiled.params
            )
        }
        operand = int(needle) if isinstance(needle, bool) else needle
        table = codes.table("contains", operand)
        if isinstance(needle, float):
            assert table is None  # SQL finds a real in a text as SQLite prints it
            continue
        assert table is not None
        assert {seq for seq, code in code_of.items() if table[code]} == expected, needle


def test_contains_leaves_arrays_of_arrays_or_objects_to_sql() -> None:
    codes = ValueCodes()
    codes.code('[["x"], "y"]', "array")
    assert codes.table("contains", "y") is None
    codes = ValueCodes()
    codes.code('[{"a": 1}]', "array")
    assert codes.table("contains", "x") is None


def test_an_array_and_a_string_of_the_same_text_keep_their_own_codes() -> None:
    codes = ValueCodes()
    assert codes.code('["x"]', "array") != codes.code('["x"]', "text")
    table = codes.table("eq", '["x"]')
    assert table is not None and table.tolist() == [False, True, True]


def test_contains_finds_arrays_seen_after_its_first_use() -> None:
    codes = ValueCodes()
    first = codes.code('["x", 1]', "array")
    table = codes.table("contains", "x")
    assert table is not None and table.nonzero()[0].tolist() == [first]
    later = codes.code('["y", "x"]', "array")
    text = codes.code("a text with x", "text")
    table = codes.table("contains", "x")
    assert table is not None and table.nonzero()[0].tolist() == [first, later, text]
    table = codes.table("contains", True)  # true is 1 in SQL
    assert table is not None and table.nonzero()[0].tolist() == [first]
