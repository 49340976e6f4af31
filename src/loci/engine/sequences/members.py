"""Sequences: ordered groups of memories (a conversation session, a story, a log).

A sequence is named within its namespace; each of its memories has a position in it and may
have an actor (who said or did it). Neighbours are by position, whatever the order of writing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import seq_list

KINDS = ("conversation", "story", "log")

_NEIGHBOURS = """
SELECT i.seq, i.sequence, i.actor,
    (SELECT p.seq FROM sequence_items p WHERE p.sequence = i.sequence
        AND p.position < i.position ORDER BY p.position DESC LIMIT 1),
    (SELECT n.seq FROM sequence_items n WHERE n.sequence = i.sequence
        AND n.position > i.position ORDER BY n.position LIMIT 1)
FROM {} sequence_items i ON i.seq = j.value
"""
_MEMBERS = (
    "SELECT i.seq, i.sequence, i.actor, NULL, NULL FROM {} sequence_items i ON i.seq = j.value"
)


class Place(NamedTuple):
    """A memory's place as stored: its sequence, its actor, and the items before and after it
    (None: none, or not looked up)."""

    seq: int
    sequence: int
    actor: str | None
    previous: int | None
    following: int | None


def places(conn: Connection, seqs: Sequence[int], neighbours: bool = True) -> list[Place]:
    """The places of those of `seqs` that are in a sequence, with their neighbours unless
    `neighbours` is false."""
    statement = _NEIGHBOURS if neighbours else _MEMBERS
    listed, bound = seq_list(conn, seqs)
    rows = conn.execute(statement.format(listed), (bound,)).fetchall()
    return [Place(*row) for row in rows]


def any_items(conn: Connection) -> bool:
    """Whether any memory is in a sequence."""
    return conn.execute("SELECT 1 FROM sequence_items LIMIT 1").fetchone() is not None


def actors(conn: Connection, namespaces: frozenset[str] | None) -> list[str]:
    """The distinct actors of the sequences of those namespaces (None: all)."""
    if namespaces is not None and not namespaces:
        return []  # no namespace can hold them (PostgreSQL refuses an empty `IN ()`)
    if namespaces is None:
        rows = conn.execute("SELECT DISTINCT actor FROM sequence_items WHERE actor IS NOT NULL")
    else:
        marks = ",".join("?" * len(namespaces))
        rows = conn.execute(
            "SELECT DISTINCT i.actor FROM sequences s JOIN sequence_items i ON i.sequence = s.id "
            f"WHERE s.namespace IN ({marks}) AND i.actor IS NOT NULL",
            sorted(namespaces),
        )
    return sorted(str(row[0]) for row in rows)
