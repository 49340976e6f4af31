"""The few SQL fragments that differ between the engines, chosen by the connection.

Most of loci's SQL runs on both engines as written. Where it cannot (a JSON function, a list
of ids bound as one parameter), statements ask for the fragment of the connection's engine
here; a PostgreSQL connection says so by its `dialect` attribute (SQLite's has none).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from loci.storage.databases.db import Connection, Engine


def dialect_of(conn: Connection) -> Engine:
    """The engine whose connection `conn` is."""
    dialect: Engine = getattr(conn, "dialect", "sqlite")
    return dialect


def seq_list(conn: Connection, seqs: Sequence[int]) -> tuple[str, Any]:
    """A FROM item `j` with one column `value` listing `seqs` followed by the join that the
    table it drives follows (SQLite's CROSS JOIN keeps the list first), and the parameter to
    bind."""
    if dialect_of(conn) == "postgresql":
        return "unnest(CAST(? AS BIGINT[])) AS j(value) JOIN", [int(seq) for seq in seqs]
    return "json_each(?) j CROSS JOIN", json.dumps([int(seq) for seq in seqs])


def json_object_function(conn: Connection) -> str:
    """The function that builds a JSON object from keys and values."""
    return "json_build_object" if dialect_of(conn) == "postgresql" else "json_object"


def metadata_value(conn: Connection) -> str:
    """SQL of a metadata key's value and JSON type, as SQLite's ``json_extract`` and
    ``json_type`` give them (bind `metadata_key_path` twice; convert the value read with
    `sqlite_json_value`)."""
    if dialect_of(conn) == "postgresql":
        return (
            "metadata::jsonb #>> CAST(? AS TEXT[]), "
            "loci_sqlite_json_type(metadata::jsonb #> CAST(? AS TEXT[]))"
        )
    return "json_extract(metadata, ?), json_type(metadata, ?)"


def metadata_key_path(conn: Connection, field: str) -> Any:
    """The path of a ``metadata.<key>[.<key>...]`` field as `metadata_value` binds it (the
    keys hold only letters, digits, '_' and '-')."""
    keys = field.split(".")[1:]
    if dialect_of(conn) == "postgresql":
        return keys
    return "$" + "".join(f'."{key}"' for key in keys)


def sqlite_json_value(conn: Connection, value: Any, kind: str | None) -> Any:
    """A value `metadata_value` read, as SQLite's ``json_extract`` gives it (PostgreSQL gives
    every value as text)."""
    if dialect_of(conn) == "sqlite" or value is None:
        return value
    if kind == "integer":
        return int(value)
    if kind == "real":
        return float(value)
    if kind in ("true", "false"):
        return int(kind == "true")
    if kind == "null":
        return None
    return value


def json_member(conn: Connection, column: str, key: str) -> str:
    """SQL of a top-level member of the JSON object in `column` (`key` is loci's own, never
    input): a text, a number or NULL on SQLite, its text on PostgreSQL."""
    if dialect_of(conn) == "postgresql":
        return f"({column}::jsonb ->> '{key}')"
    return f"json_extract({column}, '$.{key}')"


def sqlite_json_values(conn: Connection, rows: list[Any], first: int) -> list[Any]:
    """`rows` with each (value, JSON type) pair from column `first` on (as `metadata_value`
    reads them) holding the value SQLite gives."""
    if dialect_of(conn) == "sqlite":
        return rows
    converted = []
    for row in rows:
        values = list(row)
        for column in range(first, len(values), 2):
            values[column] = sqlite_json_value(conn, values[column], values[column + 1])
        converted.append(tuple(values))
    return converted


def indexed_by(conn: Connection, index: str) -> str:
    """SQLite's hint to read a table through `index` (PostgreSQL's planner takes none)."""
    return "" if dialect_of(conn) == "postgresql" else f"INDEXED BY {index}"


def among(conn: Connection, column: str, values: Sequence[Any]) -> tuple[str, Any]:
    """A condition that `column` is one of `values` (bound as one parameter), and the
    parameter."""
    if dialect_of(conn) == "postgresql":
        return f"{column} = ANY(?)", list(values)
    return f"{column} IN (SELECT value FROM json_each(?))", json.dumps(list(values))


def everything(conn: Connection) -> str:
    """A LIMIT that takes every row (for an OFFSET without a limit)."""
    return "LIMIT ALL" if dialect_of(conn) == "postgresql" else "LIMIT -1"
