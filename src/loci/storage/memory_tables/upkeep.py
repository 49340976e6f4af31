"""Statements of the memories' upkeep: merging near-duplicates, lowering idle importance,
embedding again, and the counts `stats` gives. Rows and statements only; the rules are the
callers' (`lifecycle`, `memory`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loci.storage.databases.db import Connection
from loci.storage.databases.vector_blob import VectorBlob
from loci.storage.memory_tables.memories import Row, in_scope


@dataclass(frozen=True)
class MergedText:
    """What a merge keeps in the surviving memory."""

    content: str
    content_hash: str
    tags: list[str]
    metadata: dict[str, Any]
    importance: float


def unsequenced(conn: Connection, scope: str | None) -> list[tuple[int, str]]:
    """(seq, namespace) of the memories of `scope` (None: all) that are in no sequence."""
    where, params = in_scope(scope)
    rows = conn.execute(
        f"SELECT m.seq, m.namespace FROM memories m WHERE {where} "
        "AND NOT EXISTS (SELECT 1 FROM sequence_items s WHERE s.seq = m.seq)",
        params,
    ).fetchall()
    return [(int(seq), str(name)) for seq, name in rows]


def merge(
    conn: Connection,
    keep_seq: int,
    folded: Sequence[tuple[int, str]],
    merged: MergedText,
    stamp: str,
    embedding: bytes | None,
) -> None:
    """Fold the memories `folded` (seq, id) into `keep_seq`: it takes `merged`, their uses
    and their ids (which then name it), and they are deleted."""
    seqs = [seq for seq, _ in folded]
    marks = ", ".join("?" * len(seqs))
    uses, last_used = conn.execute(
        f"SELECT sum(access_count), max(last_accessed) FROM memories WHERE seq IN (?, {marks})",
        (keep_seq, *seqs),
    ).fetchone()
    conn.execute(
        "UPDATE memories SET content = ?, content_hash = ?, tags = ?, metadata = ?, "
        "importance = ?, access_count = ?, last_accessed = ?, updated_at = ? WHERE seq = ?",
        (
            merged.content,
            merged.content_hash,
            json.dumps(merged.tags, ensure_ascii=False),
            json.dumps(merged.metadata, ensure_ascii=False),
            merged.importance,
            uses,
            last_used,
            stamp,
            keep_seq,
        ),
    )
    if embedding is not None:
        set_embeddings(conn, [(keep_seq, embedding)])
    conn.execute("DELETE FROM memory_tags WHERE memory_seq = ?", (keep_seq,))
    conn.executemany(
        "INSERT INTO memory_tags(tag, memory_seq) VALUES (?, ?)",
        [(tag, keep_seq) for tag in merged.tags],
    )
    conn.execute(f"UPDATE memory_aliases SET seq = ? WHERE seq IN ({marks})", (keep_seq, *seqs))
    conn.executemany(
        "INSERT INTO memory_aliases(id, seq) VALUES (?, ?) "
        "ON CONFLICT (id) DO UPDATE SET seq = excluded.seq",
        [(memory_id, keep_seq) for _, memory_id in folded],
    )
    conn.execute(f"DELETE FROM memories WHERE seq IN ({marks})", seqs)


def important_above(conn: Connection, scope: str | None, floor: float) -> list[Row]:
    """The memories of `scope` whose importance is above `floor`: (seq, id, content,
    importance, created_at, last_accessed, access_count, decayed_at)."""
    where, params = in_scope(scope)
    return conn.execute(
        "SELECT seq, id, content, importance, created_at, last_accessed, access_count, "
        f"decayed_at FROM memories m WHERE {where} AND importance > ?",
        [*params, floor],
    ).fetchall()


def set_decayed(conn: Connection, changes: Sequence[tuple[int, float]], stamp: str) -> None:
    """Give each memory (seq, importance) its lowered importance, decayed at `stamp`."""
    conn.executemany(
        "UPDATE memories SET importance = ?, decayed_at = ? WHERE seq = ?",
        [(importance, stamp, seq) for seq, importance in changes],
    )


def contents(conn: Connection) -> list[tuple[int, str]]:
    """Every memory's (seq, content), in order."""
    rows = conn.execute("SELECT seq, content FROM memories ORDER BY seq").fetchall()
    return [(int(seq), str(text)) for seq, text in rows]


def set_embeddings(conn: Connection, vectors: Sequence[tuple[int, bytes]]) -> None:
    """Store a new vector for each memory (seq, float32 bytes)."""
    conn.executemany(
        "INSERT INTO memory_vectors(seq, embedding) VALUES (?, ?) "
        "ON CONFLICT (seq) DO UPDATE SET embedding = excluded.embedding",
        [(seq, VectorBlob(blob)) for seq, blob in vectors],
    )


def summary(conn: Connection, namespace: str | None) -> tuple[int, Any, Any, Any]:
    """(count, oldest created_at, newest, average importance) of a namespace (None: all)."""
    where, params = ("m.namespace = ?", [namespace]) if namespace else ("TRUE", [])
    total, oldest, newest, average = conn.execute(
        "SELECT count(*), min(created_at), max(created_at), avg(importance) "
        f"FROM memories m WHERE {where}",
        params,
    ).fetchone()
    return int(total), oldest, newest, average


def top_tags(conn: Connection, namespace: str | None, limit: int) -> dict[str, int]:
    """The `limit` commonest tags with their counts, most common first."""
    if namespace is None:  # no join: it would look up each tag's memory
        query = "SELECT tag, count(*) AS n FROM memory_tags GROUP BY tag"
        params: list[Any] = []
    else:
        query = (
            "SELECT t.tag, count(*) AS n FROM memories m JOIN memory_tags t "
            "ON t.memory_seq = m.seq WHERE m.namespace = ? GROUP BY t.tag"
        )
        params = [namespace]
    rows = conn.execute(f"{query} ORDER BY n DESC, tag LIMIT ?", [*params, limit])
    return {str(tag): int(count) for tag, count in rows.fetchall()}


@dataclass(frozen=True)
class EditedText:
    """What an edit gives a memory: its text (and the text's hash), tags and importance."""

    content: str
    content_hash: str
    tags: list[str]
    importance: float


def rewrite(conn: Connection, seq: int, edited: EditedText, stamp: str) -> None:
    """Give the memory `seq` its edited text, tags and importance, updated at `stamp` (the
    change log and the derived indexes follow through the table's triggers)."""
    conn.execute(
        "UPDATE memories SET content = ?, content_hash = ?, tags = ?, importance = ?, "
        "updated_at = ? WHERE seq = ?",
        (
            edited.content,
            edited.content_hash,
            json.dumps(edited.tags, ensure_ascii=False),
            edited.importance,
            stamp,
            seq,
        ),
    )
    conn.execute("DELETE FROM memory_tags WHERE memory_seq = ?", (seq,))
    conn.executemany(
        "INSERT INTO memory_tags(tag, memory_seq) VALUES (?, ?)",
        [(tag, seq) for tag in edited.tags],
    )
