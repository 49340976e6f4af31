"""Where memories sit in sequences (a conversation session, a story, a log): written with the
memories themselves, read back with each memory's row (`PLACE_JSON`).

A sequence is named within its namespace; each of its memories has a position in it and may
have an actor (who said or did it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from loci.errors import ConflictError
from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import json_object_function


def place_json(conn: Connection) -> str:
    """Each memory's place as JSON (NULL for none), for reading with the memory's row."""
    return (
        f"(SELECT {json_object_function(conn)}('name', s.name, 'kind', s.kind, "
        "'position', i.position, 'actor', i.actor) FROM sequence_items i "
        "JOIN sequences s ON s.id = i.sequence WHERE i.seq = m.seq)"
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


def place_all(conn: Connection, items: Sequence[tuple[str, int, Placement]]) -> None:
    """Put memories (namespace, seq, placement) into their sequences, a namespace at a time."""
    by_namespace: dict[str, list[tuple[int, Placement]]] = {}
    for namespace, seq, placement in items:
        by_namespace.setdefault(namespace, []).append((seq, placement))
    for namespace, placed in by_namespace.items():
        place(conn, namespace, placed)


def place(conn: Connection, namespace: str, items: Sequence[tuple[int, Placement]]) -> None:
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


def _sequence_id(conn: Connection, namespace: str, placement: Placement) -> int:
    conn.execute(
        "INSERT INTO sequences(namespace, name, kind) VALUES (?, ?, ?) "
        "ON CONFLICT (namespace, name) DO NOTHING",
        (namespace, placement.name, placement.kind),
    )
    row = conn.execute(
        "SELECT id FROM sequences WHERE namespace = ? AND name = ?", (namespace, placement.name)
    ).fetchone()
    return int(row[0])


def _taken(conn: Connection, sequence: int, position: float) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sequence_items WHERE sequence = ? AND position = ?", (sequence, position)
    ).fetchone()
    return row is not None


def _last_position(conn: Connection, sequence: int) -> float:
    row = conn.execute(
        "SELECT max(position) FROM sequence_items WHERE sequence = ?", (sequence,)
    ).fetchone()
    return -1.0 if row[0] is None else float(row[0])
