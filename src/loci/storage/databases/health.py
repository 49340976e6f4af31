"""Checks of the database's own health, for `loci doctor` and `loci reindex`.

SQLite's integrity check reads the file's structure, not what loci keeps in it: a flipped byte
inside a memory's vector or JSON metadata passes it. These checks read those too.
"""

from __future__ import annotations

import sqlite3

import numpy as np

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import dialect_of

#: Problems SQLite's integrity check lists at most (the first ones say enough).
INTEGRITY_LINES = 5
#: How far from 1 a stored vector's length may be: they are stored as float32 unit vectors.
UNIT_TOLERANCE = 1e-3
VECTOR_CHUNK = 10_000


def structure_problems(conn: sqlite3.Connection) -> list[str]:
    """What SQLite's integrity check finds wrong with the file; empty when it is sound."""
    try:
        rows = conn.execute(f"PRAGMA integrity_check({INTEGRITY_LINES})").fetchall()
    except sqlite3.DatabaseError as exc:  # damage the check itself cannot read past
        return [str(exc)]
    found = [line for row in rows for line in str(row[0]).splitlines()]
    if found == ["ok"]:
        return []
    # SQLite heads its findings with the name of the schema ("*** in database main ***").
    return [line for line in found if not line.startswith("***")][:INTEGRITY_LINES]


def damaged_json(conn: sqlite3.Connection) -> list[str]:
    """Ids of the memories whose tags or metadata are not JSON."""
    rows = conn.execute(
        "SELECT id FROM memories WHERE NOT json_valid(tags) OR NOT json_valid(metadata) "
        "ORDER BY seq"
    ).fetchall()
    return [str(row[0]) for row in rows]


def keyword_index_matches(conn: sqlite3.Connection) -> bool:
    """Whether the keyword index holds exactly the memories' words (FTS5's own check of an
    index against its content table; call inside a write transaction)."""
    try:
        conn.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_CORRUPT:
            return False
        raise
    return True


def rebuild_keyword_index(conn: sqlite3.Connection) -> None:
    """Build the keyword index again from the memories (call inside a write transaction)."""
    conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")


def damaged_vectors(conn: Connection, dimensions: int) -> list[int]:
    """Seqs of the memories whose stored vector is not a finite unit vector of `dimensions`."""
    size = dimensions * 4
    postgres = dialect_of(conn) == "postgresql"
    # A vector on PostgreSQL is typed: only its number of dimensions can be wrong.
    wrong = (
        "vector_dims(v.embedding) != ?"
        if postgres
        else ("typeof(v.embedding) != 'blob' OR length(v.embedding) != ?")
    )
    right = (
        "vector_dims(v.embedding) = ?"
        if postgres
        else ("typeof(v.embedding) = 'blob' AND length(v.embedding) = ?")
    )
    expected = dimensions if postgres else size
    damaged = [
        int(row[0])
        for row in conn.execute(
            "SELECT m.seq FROM memories m LEFT JOIN memory_vectors v ON v.seq = m.seq "
            f"WHERE v.seq IS NULL OR {wrong}",
            (expected,),
        )
    ]
    cursor = conn.execute(
        f"SELECT v.seq, v.embedding FROM memory_vectors v WHERE {right} ORDER BY v.seq",
        (expected,),
    )
    while rows := cursor.fetchmany(VECTOR_CHUNK):
        vectors = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32)
        with np.errstate(all="ignore"):
            lengths = np.linalg.norm(
                vectors.reshape(len(rows), dimensions).astype(np.float64), axis=1
            )
        # NaN lengths fail the comparison, so they count as damaged too.
        bad = np.flatnonzero(~(np.abs(lengths - 1.0) <= UNIT_TOLERANCE))
        damaged += [int(rows[position][0]) for position in bad.tolist()]
    return sorted(damaged)
