"""The few SQL fragments that differ between the engines, chosen by the connection.

Most of loci's SQL runs on both engines as written. Where it cannot (a JSON function, a list
of ids bound as one parameter), statements ask for the fragment of the connection's engine
here; a PostgreSQL connection says so by its `dialect` attribute (SQLite's has none).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from loci.storage.db import Connection, Engine


def dialect_of(conn: Connection) -> Engine:
    """The engine whose connection `conn` is."""
    dialect: Engine = getattr(conn, "dialect", "sqlite")
    return dialect


def seq_list(conn: Connection, seqs: Sequence[int]) -> tuple[str, Any]:
    """A FROM item `j` with one column `value` listing `seqs`, and the parameter to bind."""
    if dialect_of(conn) == "postgresql":
        return "unnest(CAST(? AS BIGINT[])) AS j(value)", [int(seq) for seq in seqs]
    return "json_each(?) j", json.dumps([int(seq) for seq in seqs])


def json_object_function(conn: Connection) -> str:
    """The function that builds a JSON object from keys and values."""
    return "json_build_object" if dialect_of(conn) == "postgresql" else "json_object"
