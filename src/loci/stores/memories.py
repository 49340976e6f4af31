"""SQL for memories, namespaces and tags. Knows rows and statements, not ranking or rules."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.memory.models import Memory, NamespaceInfo
from loci.stores.memory_rows import COLUMNS, row_to_memory


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


def ensure_namespaces(conn: sqlite3.Connection, names: set[str], now: str) -> None:
    """Create namespaces that do not exist yet."""
    conn.executemany(
        "INSERT OR IGNORE INTO namespaces(name, created_at) VALUES (?, ?)",
        [(name, now) for name in sorted(names)],
    )


def insert_memories(conn: sqlite3.Connection, items: Sequence[NewMemory]) -> None:
    """Insert memories and their tags (call inside a write transaction)."""
    for item in items:
        cursor = conn.execute(
            "INSERT INTO memories(id, namespace, content, content_hash, tags, importance, source, "
            "metadata, created_at, updated_at, last_accessed, access_count, embedding) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                item.embedding,
            ),
        )
        seq = cursor.lastrowid
        conn.executemany(
            "INSERT INTO memory_tags(tag, memory_seq) VALUES (?, ?)", [(t, seq) for t in item.tags]
        )


def existing_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
    """Which of `ids` are stored."""
    return {row[0] for row in _rows_in(conn, "SELECT id FROM memories WHERE id IN ({})", ids)}


def existing_hashes(conn: sqlite3.Connection, pairs: set[tuple[str, str]]) -> set[tuple[str, str]]:
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


def rows_by_seq(conn: sqlite3.Connection, seqs: Sequence[int]) -> dict[int, Sequence[Any]]:
    """`COLUMNS` rows by seq (for callers that build their own models from them)."""
    rows = _rows_in(conn, f"SELECT {COLUMNS} FROM memories m WHERE m.seq IN ({{}})", seqs)
    return {int(row[0]): row for row in rows}


def fetch_by_id(conn: sqlite3.Connection, memory_id: str) -> tuple[int, Memory] | None:
    """One memory by id, with its seq."""
    row = conn.execute(f"SELECT {COLUMNS} FROM memories m WHERE m.id = ?", (memory_id,)).fetchone()
    return None if row is None else row_to_memory(row)


def matching_seqs(
    conn: sqlite3.Connection, where: str, params: Sequence[Any]
) -> npt.NDArray[np.int64]:
    """Seqs of the memories a compiled filter admits."""
    rows = conn.execute(f"SELECT m.seq FROM memories m WHERE {where}", params).fetchall()
    return np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))


def matching_ids(
    conn: sqlite3.Connection, where: str, params: Sequence[Any], limit: int
) -> list[str]:
    """Ids of up to `limit` memories a compiled filter admits, oldest first."""
    rows = conn.execute(
        f"SELECT m.id FROM memories m WHERE {where} ORDER BY m.seq LIMIT ?", [*params, limit]
    ).fetchall()
    return [row[0] for row in rows]


def embeddings_by_hash(
    conn: sqlite3.Connection, where: str, params: Sequence[Any]
) -> dict[str, bytes]:
    """content_hash -> stored embedding of the memories a compiled filter admits."""
    rows = conn.execute(
        f"SELECT m.content_hash, m.embedding FROM memories m WHERE {where}", params
    ).fetchall()
    return {str(row[0]): bytes(row[1]) for row in rows}


def message_ids(
    conn: sqlite3.Connection, namespace: str, conversation: str | None = None
) -> list[str]:
    """The `metadata.message_id` values of a namespace's memories (conversation imports), of
    one conversation's when it is given."""
    sql = (
        "SELECT json_extract(metadata, '$.message_id') FROM memories "
        "WHERE namespace = ? AND json_extract(metadata, '$.message_id') IS NOT NULL"
    )
    if conversation is None:
        rows = conn.execute(sql, (namespace,)).fetchall()
    else:
        rows = conn.execute(
            f"{sql} AND json_extract(metadata, '$.conversation') = ?", (namespace, conversation)
        ).fetchall()
    return [str(row[0]) for row in rows]


def message_keys(
    conn: sqlite3.Connection, namespace: str, conversation: str | None = None
) -> list[tuple[str, str, str | None]]:
    """(content hash, timestamp, session id) of the conversation messages stored without a
    message id in a namespace (one conversation's, when given), to recognise them again."""
    sql = (
        "SELECT content_hash, json_extract(metadata, '$.timestamp'), "
        "json_extract(metadata, '$.session_id') FROM memories "
        "WHERE namespace = ? AND json_extract(metadata, '$.conversation') IS NOT NULL "
        "AND json_extract(metadata, '$.message_id') IS NULL"
    )
    if conversation is None:
        return conn.execute(sql, (namespace,)).fetchall()
    return conn.execute(
        f"{sql} AND json_extract(metadata, '$.conversation') = ?", (namespace, conversation)
    ).fetchall()


@dataclass(frozen=True)
class Threads:
    """Where conversation turns sit: each one's neighbours, thread (session) and speaker."""

    neighbours: dict[int, list[int]]
    thread_of: dict[int, int]  # seq -> conversation_threads.id
    speaker_of: dict[int, str]


def conversation_threads(
    conn: sqlite3.Connection, seqs: Sequence[int], where: str, params: Sequence[Any]
) -> Threads:
    """Neighbours (memories stored just before / after, in the same conversation) of `seqs`
    and of those neighbours, all admitted by the filter, and the thread each belongs to.

    Conversation imports store a session's messages in order, so neighbours are seq +- 1 in
    the same thread (namespace, `metadata.conversation` and `metadata.session_id`).
    """
    if not seqs:
        return Threads({}, {}, {})
    wanted = sorted({seq + step for seq in seqs for step in (-2, -1, 0, 1, 2)})
    marks = ",".join("?" * len(wanted))
    if where == "1":  # no filter: the turns table alone answers
        sql = f"SELECT seq, thread, speaker FROM conversation_turns WHERE seq IN ({marks})"
    else:
        # CROSS JOIN keeps the turns first: left to itself, the planner scans the whole
        # namespace through its index to meet a namespace filter (0.17 against 0.10 ms at 2.7k).
        sql = (
            "SELECT t.seq, t.thread, t.speaker FROM conversation_turns t "
            f"CROSS JOIN memories m ON m.seq = t.seq WHERE t.seq IN ({marks}) AND ({where})"
        )
    rows = conn.execute(sql, [*wanted, *params]).fetchall()
    thread = {int(row[0]): int(row[1]) for row in rows}
    speaker = {int(row[0]): row[2] for row in rows if isinstance(row[2], str)}
    return Threads(neighbours_in_threads(seqs, thread), thread, speaker)


def neighbours_in_threads(seqs: Iterable[int], thread: Mapping[int, int]) -> dict[int, list[int]]:
    """For each turn within one step of `seqs`: the turns next to it in the same thread."""
    near = {seq + step for seq in seqs for step in (-1, 0, 1)} & thread.keys()
    return {
        seq: [seq + step for step in (-1, 1) if thread.get(seq + step) == thread[seq]]
        for seq in near
    }


def keyword_search(
    conn: sqlite3.Connection, match: str, where: str, params: Sequence[Any], limit: int
) -> list[tuple[int, float]]:
    """(seq, bm25) of the best keyword matches among admitted memories; lower bm25 is better."""
    if where == "1":
        # No filter: skip the join, which reads a memories row per match (3x slower at 100k).
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


def delete_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> list[str]:
    """Delete memories by id; returns the ids that existed."""
    rows = _rows_in(conn, "DELETE FROM memories WHERE id IN ({}) RETURNING id", ids)
    return [row[0] for row in rows]


def touch(conn: sqlite3.Connection, seqs: Sequence[int], now: str) -> None:
    """Record an access: bump access_count and set last_accessed."""
    conn.executemany(
        "UPDATE memories SET access_count = access_count + 1, last_accessed = ? WHERE seq = ?",
        [(now, seq) for seq in seqs],
    )


def namespace_exists(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the namespace is known."""
    return conn.execute("SELECT 1 FROM namespaces WHERE name = ?", (name,)).fetchone() is not None


def list_namespaces(conn: sqlite3.Connection) -> list[NamespaceInfo]:
    """Every namespace with its memory count, by name."""
    rows = conn.execute(
        "SELECT n.name, n.created_at, (SELECT count(*) FROM memories m WHERE m.namespace = n.name) "
        "FROM namespaces n ORDER BY n.name"
    ).fetchall()
    return [NamespaceInfo(name=r[0], created=r[1], count=r[2]) for r in rows]


def count_in_namespace(conn: sqlite3.Connection, name: str) -> int:
    """How many memories a namespace holds."""
    return int(
        conn.execute("SELECT count(*) FROM memories WHERE namespace = ?", (name,)).fetchone()[0]
    )


def delete_namespace(conn: sqlite3.Connection, name: str) -> int:
    """Delete a namespace and its memories; returns how many memories went."""
    removed = conn.execute("DELETE FROM memories WHERE namespace = ?", (name,)).rowcount
    conn.execute("DELETE FROM namespaces WHERE name = ?", (name,))
    return int(removed)


def rename_namespace(conn: sqlite3.Connection, old: str, new: str) -> int:
    """Rename a namespace (its memories follow by ON UPDATE CASCADE); returns how many moved."""
    moved = count_in_namespace(conn, old)
    conn.execute("UPDATE namespaces SET name = ? WHERE name = ?", (new, old))
    return moved


def iter_memories(
    conn: sqlite3.Connection,
    where: str,
    params: Sequence[Any],
    with_vectors: bool,
    offset: int = 0,
    chunk: int = 1000,
) -> Iterator[tuple[Memory, bytes | None]]:
    """Every admitted memory in insertion order from the `offset`-th on, optionally with its
    raw vector."""
    extra = ", m.embedding" if with_vectors else ""
    # SQLite skips the first rows before reading their columns: paging an export 90,000 rows
    # in took 1.2 s when Python built and dropped each skipped memory.
    cursor = conn.execute(
        f"SELECT {COLUMNS}{extra} FROM memories m WHERE {where} ORDER BY m.seq LIMIT -1 OFFSET ?",
        [*params, offset],
    )
    while rows := cursor.fetchmany(chunk):
        for row in rows:
            yield row_to_memory(row)[1], (row[12] if with_vectors else None)


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    """A value of the meta table."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Set a value of the meta table."""
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def _rows_in(conn: sqlite3.Connection, statement: str, values: Sequence[Any]) -> list[Any]:
    """Run `statement` (one `{}` for the IN list) over `values` in chunks SQLite accepts."""
    rows: list[Any] = []
    for chunk in _chunks(list(values), 500):
        rows.extend(conn.execute(statement.format(",".join("?" * len(chunk))), chunk).fetchall())
    return rows


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
