"""Sequences: ordered groups of memories (a conversation session, a story, a log).

A sequence is named within its namespace; each of its memories has a position in it and may
have an actor (who said or did it). Neighbours are by position, whatever the order of writing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from loci.errors import ConflictError

KINDS = ("conversation", "story", "log")

#: Each memory's place as JSON (NULL for none), for reading with the memory's row.
PLACE_JSON = (
    "(SELECT json_object('name', s.name, 'kind', s.kind, 'position', i.position, "
    "'actor', i.actor) FROM sequence_items i JOIN sequences s ON s.id = i.sequence "
    "WHERE i.seq = m.seq)"
)
_NEIGHBOURS = """
SELECT i.seq, i.sequence, i.actor,
    (SELECT p.seq FROM sequence_items p WHERE p.sequence = i.sequence
        AND p.position < i.position ORDER BY p.position DESC LIMIT 1),
    (SELECT n.seq FROM sequence_items n WHERE n.sequence = i.sequence
        AND n.position > i.position ORDER BY n.position LIMIT 1)
FROM json_each(?) j CROSS JOIN sequence_items i ON i.seq = j.value
"""
_MEMBERS = (
    "SELECT i.seq, i.sequence, i.actor, NULL, NULL FROM json_each(?) j "
    "CROSS JOIN sequence_items i ON i.seq = j.value"
)


@dataclass(frozen=True)
class Placement:
    """Where a memory goes: the sequence named `name` (made with `kind` if new), at
    `position` (None: after the sequence's last item), said or done by `actor`. A position
    another memory holds is refused, or with `append_if_taken` (an import) the memory goes
    after the last item instead."""

    name: str
    kind: str = "log"
    position: float | None = None
    actor: str | None = None
    append_if_taken: bool = False


class Place(NamedTuple):
    """A memory's place as stored: its sequence, its actor, and the items before and after it
    (None: none, or not looked up)."""

    seq: int
    sequence: int
    actor: str | None
    previous: int | None
    following: int | None


def place_all(conn: sqlite3.Connection, items: Sequence[tuple[str, int, Placement]]) -> None:
    """Put memories (namespace, seq, placement) into their sequences, a namespace at a time."""
    by_namespace: dict[str, list[tuple[int, Placement]]] = {}
    for namespace, seq, placement in items:
        by_namespace.setdefault(namespace, []).append((seq, placement))
    for namespace, placed in by_namespace.items():
        place(conn, namespace, placed)


def place(conn: sqlite3.Connection, namespace: str, items: Sequence[tuple[int, Placement]]) -> None:
    """Put memories (seq, placement) into their sequences, creating those that do not exist
    yet; items without a position follow the last item, in the order given."""
    ids: dict[str, int] = {}
    ends: dict[int, float] = {}
    for seq, placement in items:
        sequence = ids.get(placement.name)
        if sequence is None:
            sequence = ids[placement.name] = _sequence_id(conn, namespace, placement)
            ends[sequence] = _last_position(conn, sequence)
        position = placement.position
        if position is not None and placement.append_if_taken and _taken(conn, sequence, position):
            position = None
        if position is None:
            position = ends[sequence] + 1.0
        elif _taken(conn, sequence, position):
            raise ConflictError(
                f"position {position:g} of sequence {placement.name!r} holds a memory already; "
                "give another position, or none to add the memory after the last",
                field="sequence.position",
                sequence=placement.name,
                position=position,
            )
        ends[sequence] = max(ends[sequence], position)
        conn.execute(
            "INSERT INTO sequence_items(seq, sequence, position, actor) VALUES (?, ?, ?, ?)",
            (seq, sequence, position, placement.actor),
        )


def _sequence_id(conn: sqlite3.Connection, namespace: str, placement: Placement) -> int:
    conn.execute(
        "INSERT INTO sequences(namespace, name, kind) VALUES (?, ?, ?) "
        "ON CONFLICT (namespace, name) DO NOTHING",
        (namespace, placement.name, placement.kind),
    )
    row = conn.execute(
        "SELECT id FROM sequences WHERE namespace = ? AND name = ?", (namespace, placement.name)
    ).fetchone()
    return int(row[0])


def _taken(conn: sqlite3.Connection, sequence: int, position: float) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sequence_items WHERE sequence = ? AND position = ?", (sequence, position)
    ).fetchone()
    return row is not None


def _last_position(conn: sqlite3.Connection, sequence: int) -> float:
    row = conn.execute(
        "SELECT max(position) FROM sequence_items WHERE sequence = ?", (sequence,)
    ).fetchone()
    return -1.0 if row[0] is None else float(row[0])


def places(conn: sqlite3.Connection, seqs: Sequence[int], neighbours: bool = True) -> list[Place]:
    """The places of those of `seqs` that are in a sequence, with their neighbours unless
    `neighbours` is false."""
    statement = _NEIGHBOURS if neighbours else _MEMBERS
    rows = conn.execute(statement, (json.dumps(list(seqs)),)).fetchall()
    return [Place(*row) for row in rows]


def any_items(conn: sqlite3.Connection) -> bool:
    """Whether any memory is in a sequence."""
    return conn.execute("SELECT 1 FROM sequence_items LIMIT 1").fetchone() is not None


def actors(conn: sqlite3.Connection, namespaces: frozenset[str] | None) -> list[str]:
    """The distinct actors of the sequences of those namespaces (None: all)."""
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
