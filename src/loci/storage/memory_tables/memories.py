"""SQL for memories, namespaces and tags. Knows rows and statements, not ranking or rules."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import everything
from loci.storage.databases.vector_blob import VectorBlob
from loci.storage.memory_tables import passages, placements, validity
from loci.storage.memory_tables.placements import Placement, place_json


def columns(conn: Connection) -> str:
    """A memory's columns as `memory.rows` reads them, and its place in a sequence and its
    validity in time as JSON."""
    return (
        "m.seq, m.id, m.content, m.namespace, m.tags, m.importance, m.source, m.metadata, "
        "m.created_at, m.updated_at, m.last_accessed, m.access_count, m.occurred_at, "
        + place_json(conn)
        + ", "
        + validity.validity_json(conn)
    )


#: Where a column added after `columns` lands in a row.
VECTOR_COLUMN = 15
Row = Sequence[Any]


@dataclass(frozen=True)
class NewMemory:
    """A validated memory ready to insert (metadata already JSON text)."""

    id: str
    content: str
    content_hash: str
    namespace: str
    tags: list[str]
    importance: float
    source: str
    metadata_json: str
    created_at: str
    updated_at: str
    last_accessed: str
    access_count: int
    embedding: bytes
    occurred_at: str | None = None
    placement: Placement | None = None  # its place in a sequence, if any
    passages: Sequence[passages.NewPassage] = ()  # spans embedded on their own (long text)
    valid_from: str | None = None  # when it became true, if given
    valid_until: str | None = None  # when it stopped being true, if given


def ensure_namespaces(conn: Connection, names: set[str], now: str) -> None:
    """Create namespaces that do not exist yet."""
    conn.executemany(
        "INSERT INTO namespaces(name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        [(name, now) for name in sorted(names)],
    )


def insert_memories(conn: Connection, items: Sequence[NewMemory]) -> list[int]:
    """Insert memories, their tags, passages and places in sequences (call inside a write
    transaction); returns their seqs. Each table takes its rows in one `executemany` (one
    round trip to a database server, not one per memory)."""
    conn.executemany(
        "INSERT INTO memories(id, namespace, content, content_hash, tags, importance, source, "
        "metadata, created_at, updated_at, last_accessed, access_count, occurred_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                item.id,
                item.namespace,
                item.content,
                item.content_hash,
                json.dumps(item.tags, ensure_ascii=False),
                item.importance,
                item.source,
                item.metadata_json,
                item.created_at,
                item.updated_at,
                item.last_accessed,
                item.access_count,
                item.occurred_at,
            )
            for item in items
        ],
    )
    seq_of = dict(
        _rows_in(conn, "SELECT id, seq FROM memories WHERE id IN ({})", [i.id for i in items])
    )
    seqs = [int(seq_of[item.id]) for item in items]
    conn.executemany(
        "INSERT INTO memory_vectors(seq, embedding) VALUES (?, ?)",
        [(seq, VectorBlob(item.embedding)) for item, seq in zip(items, seqs, strict=True)],
    )
    passages.insert_all(conn, [(seq, item.passages) for item, seq in zip(items, seqs, strict=True)])
    conn.executemany(
        "INSERT INTO memory_tags(tag, memory_seq) VALUES (?, ?)",
        [(tag, seq) for item, seq in zip(items, seqs, strict=True) for tag in item.tags],
    )
    placed = [
        (item.namespace, seq, item.placement)
        for item, seq in zip(items, seqs, strict=True)
        if item.placement is not None
    ]
    placements.place_all(conn, placed)
    validity.record(
        conn,
        [(seq, item.valid_from, item.valid_until) for item, seq in zip(items, seqs, strict=True)],
    )
    return seqs


def seqs_of_ids(conn: Connection, ids: Sequence[str]) -> dict[str, int]:
    """The seq of each of `ids` that is stored."""
    rows = _rows_in(conn, "SELECT id, seq FROM memories WHERE id IN ({})", ids)
    return {str(row[0]): int(row[1]) for row in rows}


def namespaces_of_ids(conn: Connection, ids: Sequence[str]) -> dict[str, str]:
    """The namespace of each of `ids` that is stored."""
    rows = _rows_in(conn, "SELECT id, namespace FROM memories WHERE id IN ({})", ids)
    return {str(row[0]): str(row[1]) for row in rows}


def existing_hashes(conn: Connection, pairs: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Which (namespace, content_hash) pairs are stored."""
    found: set[tuple[str, str]] = set()
    for namespace, digest in pairs:
        row = conn.execute(
            "SELECT 1 FROM memories WHERE namespace = ? AND content_hash = ? LIMIT 1",
            (namespace, digest),
        ).fetchone()
        if row is not None:
            found.add((namespace, digest))
    return found


def rows_by_seq(conn: Connection, seqs: Sequence[int]) -> dict[int, Sequence[Any]]:
    """`columns` rows by seq (for callers that build their own models from them)."""
    rows = _rows_in(conn, f"SELECT {columns(conn)} FROM memories m WHERE m.seq IN ({{}})", seqs)
    return {int(row[0]): row for row in rows}


def in_scope(namespace: str | None) -> tuple[str, list[str]]:
    """A WHERE clause (on `memories m`) and its parameters for one namespace, or every one."""
    return ("m.namespace = ?", [namespace]) if namespace is not None else ("TRUE", [])


def count_in_scope(conn: Connection, namespace: str | None) -> int:
    """How many memories a namespace (or the store) holds."""
    where, params = in_scope(namespace)
    return int(conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", params).fetchone()[0])


def fetch_by_id(conn: Connection, memory_id: str) -> Row | None:
    """One memory's `columns` row by id, or by the id of a memory merged into it."""
    row: Row | None = conn.execute(
        f"SELECT {columns(conn)} FROM memories m WHERE m.id = ?", (memory_id,)
    ).fetchone()
    if row is None:
        row = conn.execute(
            f"SELECT {columns(conn)} FROM memory_aliases a JOIN memories m ON m.seq = a.seq "
            "WHERE a.id = ?",
            (memory_id,),
        ).fetchone()
    return row


def matching_seqs(conn: Connection, where: str, params: Sequence[Any]) -> npt.NDArray[np.int64]:
    """Seqs of the memories a compiled filter admits."""
    rows = conn.execute(f"SELECT m.seq FROM memories m WHERE {where}", params).fetchall()
    return np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))


def matching_ids(conn: Connection, where: str, params: Sequence[Any], limit: int) -> list[str]:
    """Ids of up to `limit` memories a compiled filter admits, oldest first."""
    rows = conn.execute(
        f"SELECT m.id FROM memories m WHERE {where} ORDER BY m.seq LIMIT ?", [*params, limit]
    ).fetchall()
    return [row[0] for row in rows]


def embeddings_by_hash(conn: Connection, where: str, params: Sequence[Any]) -> dict[str, bytes]:
    """content_hash -> stored embedding of the memories a compiled filter admits."""
    rows = conn.execute(
        "SELECT m.content_hash, v.embedding FROM memories m "
        f"JOIN memory_vectors v ON v.seq = m.seq WHERE {where}",
        params,
    ).fetchall()
    return {str(row[0]): bytes(row[1]) for row in rows}


def naming(conn: Connection, name: str, seqs: Sequence[int]) -> set[int]:
    """Those of `seqs` whose text holds `name` (as whole words, in the keyword index)."""
    if not seqs:
        return set()
    rows = conn.execute(
        "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? "
        "AND rowid IN (SELECT value FROM json_each(?))",
        ('"' + name.replace('"', '""') + '"', json.dumps(list(seqs))),
    )
    return {int(row[0]) for row in rows.fetchall()}


def keyword_search(
    conn: Connection, match: str, where: str, params: Sequence[Any], limit: int
) -> list[tuple[int, float]]:
    """(seq, bm25) of the best keyword matches among admitted memories; lower bm25 is better."""
    if where == "TRUE":
        # No filter: skip the join, which reads a memories row per match.
        sql = (
            "SELECT rowid, bm25(memories_fts) AS rank FROM memories_fts WHERE memories_fts MATCH ?"
        )
    else:
        sql = (
            "SELECT f.rowid, bm25(memories_fts) AS rank FROM memories_fts f "
            f"JOIN memories m ON m.seq = f.rowid WHERE memories_fts MATCH ? AND {where}"
        )
    rows = conn.execute(f"{sql} ORDER BY rank LIMIT ?", [match, *params, limit]).fetchall()
    return [(int(seq), float(rank)) for seq, rank in rows]


def delete_ids(conn: Connection, ids: Sequence[str]) -> list[str]:
    """Delete memories by id; returns the ids that existed."""
    rows = _rows_in(conn, "DELETE FROM memories WHERE id IN ({}) RETURNING id", ids)
    return [row[0] for row in rows]


def touch(conn: Connection, seqs: Sequence[int], now: str) -> None:
    """Record an access: bump access_count and set last_accessed (`seqs` distinct)."""
    for chunk in _chunks(list(seqs), 500):
        conn.execute(
            "UPDATE memories SET access_count = access_count + 1, last_accessed = ? "
            f"WHERE seq IN ({','.join('?' * len(chunk))})",
            [now, *chunk],
        )


def set_importance(conn: Connection, seq: int, importance: float) -> None:
    """Write one memory's importance (the change log tells the filter mirror)."""
    conn.execute("UPDATE memories SET importance = ? WHERE seq = ?", (importance, seq))


def namespace_exists(conn: Connection, name: str) -> bool:
    """Whether the namespace is known."""
    return conn.execute("SELECT 1 FROM namespaces WHERE name = ?", (name,)).fetchone() is not None


def list_namespaces(conn: Connection) -> list[Row]:
    """Every namespace with its memory count, by name."""
    rows = conn.execute(
        "SELECT n.name, n.created_at, (SELECT count(*) FROM memories m WHERE m.namespace = n.name) "
        "FROM namespaces n ORDER BY n.name"
    ).fetchall()
    return list(rows)


def count_in_namespace(conn: Connection, name: str) -> int:
    """How many memories a namespace holds."""
    return int(
        conn.execute("SELECT count(*) FROM memories WHERE namespace = ?", (name,)).fetchone()[0]
    )


def delete_namespace(conn: Connection, name: str) -> int:
    """Delete a namespace and its memories; returns how many memories went."""
    removed = conn.execute("DELETE FROM memories WHERE namespace = ?", (name,)).rowcount
    conn.execute("DELETE FROM namespaces WHERE name = ?", (name,))
    return int(removed)


def rename_namespace(conn: Connection, old: str, new: str) -> int:
    """Rename a namespace (its memories follow by ON UPDATE CASCADE); returns how many moved."""
    moved = count_in_namespace(conn, old)
    conn.execute("UPDATE namespaces SET name = ? WHERE name = ?", (new, old))
    return moved


def iter_memories(
    conn: Connection,
    where: str,
    params: Sequence[Any],
    with_vectors: bool,
    offset: int = 0,
    chunk: int = 1000,
) -> Iterator[tuple[Row, bytes | None]]:
    """Every admitted memory in insertion order from the `offset`-th on, optionally with its
    raw vector."""
    extra = ", (SELECT v.embedding FROM memory_vectors v WHERE v.seq = m.seq)"
    # SQLite skips the first rows before reading their columns, where Python would build and
    # drop each skipped memory.
    cursor = conn.execute(
        f"SELECT {columns(conn)}{extra if with_vectors else ''} FROM memories m WHERE {where} "
        f"ORDER BY m.seq {everything(conn)} OFFSET ?",
        [*params, offset],
    )
    while rows := cursor.fetchmany(chunk):
        for row in rows:
            yield row, (row[VECTOR_COLUMN] if with_vectors else None)


#: The meta key that marks a store as an unfinished copy (`loci migrate`), naming its source.
MIGRATING_FROM = "migrating_from"


def get_meta(conn: Connection, key: str) -> str | None:
    """A value of the meta table."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: Connection, key: str, value: str) -> None:
    """Set a value of the meta table."""
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def _rows_in(conn: Connection, statement: str, values: Sequence[Any]) -> list[Any]:
    """Run `statement` (one `{}` for the IN list) over `values` in chunks SQLite accepts."""
    rows: list[Any] = []
    for chunk in _chunks(list(values), 500):
        rows.extend(conn.execute(statement.format(",".join("?" * len(chunk))), chunk).fetchall())
    return rows


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
