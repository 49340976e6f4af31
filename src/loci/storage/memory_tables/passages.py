"""The passages table: spans of a long memory's text embedded on their own (see
`loci.storage.indexes.passages`), stored and deleted with their memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import seq_list
from loci.storage.databases.vector_blob import VectorBlob

#: Every passage, for a full load: (id, memory seq, namespace, vector).
ALL = (
    "SELECT p.id, p.seq, m.namespace, p.embedding FROM passages p "
    "JOIN memories m ON m.seq = p.seq ORDER BY p.id"
)
#: The passages of some memories (`{}`: the list of their seqs, `dialect.seq_list`).
OF_MEMORIES = (
    "SELECT p.id, p.seq, m.namespace, p.embedding FROM {} "
    "passages p ON p.seq = j.value JOIN memories m ON m.seq = p.seq"
)


class NewPassage(NamedTuple):
    """A span of a memory's text [start, end) and its vector (float32 bytes)."""

    start: int
    end: int
    embedding: bytes


def insert(conn: Connection, seq: int, passages: Sequence[NewPassage]) -> None:
    """Store a memory's passages (inside the transaction that stores the memory)."""
    insert_all(conn, [(seq, passages)])


def insert_all(conn: Connection, memories: Sequence[tuple[int, Sequence[NewPassage]]]) -> None:
    """Store the passages of several memories, given as (seq, passages) pairs."""
    conn.executemany(
        'INSERT INTO passages(seq, start, "end", embedding) VALUES (?, ?, ?, ?)',
        [(seq, p.start, p.end, VectorBlob(p.embedding)) for seq, cut in memories for p in cut],
    )


def replace(conn: Connection, seq: int, passages: Sequence[NewPassage]) -> None:
    """Swap a memory's passages for new ones (a reindex), logged for other processes."""
    conn.execute("DELETE FROM passages WHERE seq = ?", (seq,))
    insert(conn, seq, passages)
    conn.execute("INSERT INTO vector_log(memory_seq, op) VALUES (?, 'upsert')", (seq,))


def read_of(conn: Connection, seqs: Sequence[int]) -> list[Any]:
    """The passages of some memories, as `PassageIndex.add` takes them."""
    listed, bound = seq_list(conn, seqs)
    return conn.execute(OF_MEMORIES.format(listed), (bound,)).fetchall()


def by_content(conn: Connection, where: str, params: Sequence[Any]) -> dict[str, list[NewPassage]]:
    """content_hash -> the passages of the memories a compiled filter admits (text stored
    again keeps them)."""
    rows = conn.execute(
        'SELECT m.content_hash, p.start, p."end", p.embedding FROM memories m '
        f"JOIN passages p ON p.seq = m.seq WHERE {where} ORDER BY p.id",
        params,
    ).fetchall()
    found: dict[str, list[NewPassage]] = {}
    for digest, start, end, embedding in rows:
        found.setdefault(str(digest), []).append(NewPassage(start, end, bytes(embedding)))
    return found


def missing(conn: Connection) -> list[tuple[int, str]]:
    """(seq, content) of the memories without passages (for `loci reindex` to look at)."""
    return conn.execute(
        "SELECT m.seq, m.content FROM memories m "
        "WHERE NOT EXISTS (SELECT 1 FROM passages p WHERE p.seq = m.seq) ORDER BY m.seq"
    ).fetchall()
