"""When a memory was true in the world, what replaced it, and which memories dispute each other.

A memory takes part here only once something is said of its time: a `valid_from` or
`valid_until` given when it was written, a successor (`supersede`), an end (`invalidate`), or
a flagged conflict. Every other memory is true from when it happened (`occurred_at`) or, if
that is not known, from when it was stored, and still true: it has no row here, and reads of
it cost one lookup of its seq.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import dialect_of, json_object_function, seq_list

#: When the memory `m` became true: as stored, else when it happened, else when it was stored.
STARTS = (
    "coalesce((SELECT v.valid_from FROM memory_validity v WHERE v.seq = m.seq), "
    "m.occurred_at, m.created_at)"
)
#: A conflict the writer has not settled yet, one it dismissed, one settled by a supersede.
OPEN, DISMISSED, RESOLVED = "open", "dismissed", "resolved"


@dataclass(frozen=True)
class Span:
    """A memory's validity as stored (None: derived, or still true)."""

    seq: int
    valid_from: str | None
    valid_until: str | None
    superseded_by: int | None


def validity_json(conn: Connection) -> str:
    """Each memory's validity as a JSON object (NULL when it has none stored): `from` and
    `until` as stored, `by` its successor's id, `supersedes` and `disputed` the ids of the
    memories it replaced and of those it is in open conflict with."""
    obj = json_object_function(conn)
    if dialect_of(conn) == "postgresql":
        agg, empty = "json_agg", "'[]'::json"
    else:
        agg, empty = "json_group_array", "'[]'"
    replaced = (
        f"(SELECT coalesce({agg}(o.id), {empty}) FROM memory_validity w "
        "JOIN memories o ON o.seq = w.seq WHERE w.superseded_by = m.seq)"
    )
    disputed = (
        f"(SELECT coalesce({agg}(o.id), {empty}) FROM memory_conflicts c JOIN memories o "
        "ON o.seq = CASE WHEN c.older = m.seq THEN c.newer ELSE c.older END "
        f"WHERE (c.older = m.seq OR c.newer = m.seq) AND c.state = '{OPEN}')"
    )
    if dialect_of(conn) != "postgresql":
        replaced, disputed = f"json({replaced})", f"json({disputed})"
    return (
        f"(SELECT {obj}('from', v.valid_from, 'until', v.valid_until, 'by', s.id, "
        f"'supersedes', {replaced}, 'disputed', {disputed}) "
        "FROM memory_validity v LEFT JOIN memories s ON s.seq = v.superseded_by "
        "WHERE v.seq = m.seq)"
    )


def spans(conn: Connection, seqs: Sequence[int]) -> dict[int, Span]:
    """The stored validity of those of `seqs` that have one."""
    if not seqs:
        return {}
    listed, param = seq_list(conn, seqs)
    rows = conn.execute(
        f"SELECT v.seq, v.valid_from, v.valid_until, v.superseded_by FROM {listed} "
        "memory_validity v ON v.seq = j.value",
        (param,),
    ).fetchall()
    return {
        int(r[0]): Span(int(r[0]), r[1], r[2], None if r[3] is None else int(r[3])) for r in rows
    }


def current_texts(conn: Connection, seqs: Sequence[int]) -> dict[int, tuple[str, str, str]]:
    """The id, text and start of those of `seqs` that are still true (not ended, not
    replaced)."""
    if not seqs:
        return {}
    listed, param = seq_list(conn, seqs)
    rows = conn.execute(
        f"SELECT m.seq, m.id, m.content, {STARTS} FROM {listed} memories m "
        "ON m.seq = j.value WHERE NOT EXISTS (SELECT 1 FROM memory_validity v "
        "WHERE v.seq = m.seq AND v.valid_until IS NOT NULL)",
        (param,),
    ).fetchall()
    return {int(row[0]): (str(row[1]), str(row[2]), str(row[3])) for row in rows}


def effective_from(conn: Connection, seq: int) -> str:
    """When the memory at `seq` became true: as stored, else when it happened or was stored."""
    row = conn.execute(
        f"SELECT {STARTS} FROM memories m WHERE m.seq = ?",
        (seq,),
    ).fetchone()
    return str(row[0])


def record(conn: Connection, items: Sequence[tuple[int, str | None, str | None]]) -> None:
    """Store (seq, valid_from, valid_until) for new memories that were given either."""
    conn.executemany(
        "INSERT INTO memory_validity(seq, valid_from, valid_until) VALUES (?, ?, ?)",
        [item for item in items if item[1] is not None or item[2] is not None],
    )


def close(conn: Connection, seq: int, until: str, successor: int | None) -> None:
    """End the memory at `seq` at `until`, replaced by `successor` (None: by nothing)."""
    _ensure(conn, [seq])
    conn.execute(
        "UPDATE memory_validity SET valid_until = ?, superseded_by = ? WHERE seq = ?",
        (until, successor, seq),
    )


def start(conn: Connection, seq: int, valid_from: str) -> None:
    """Say the memory at `seq` became true at `valid_from`."""
    _ensure(conn, [seq])
    conn.execute("UPDATE memory_validity SET valid_from = ? WHERE seq = ?", (valid_from, seq))


def _ensure(conn: Connection, seqs: Sequence[int]) -> None:
    conn.executemany(
        "INSERT INTO memory_validity(seq) VALUES (?) ON CONFLICT (seq) DO NOTHING",
        [(seq,) for seq in seqs],
    )


def successors(conn: Connection, seq: int) -> list[int]:
    """The memories that follow the one at `seq`, nearest first (a chain has no cycle)."""
    found: list[int] = []
    current: int | None = seq
    while current is not None:
        row = conn.execute(
            "SELECT superseded_by FROM memory_validity WHERE seq = ?", (current,)
        ).fetchone()
        current = None if row is None or row[0] is None else int(row[0])
        if current is not None:
            found.append(current)
    return found


def predecessors(conn: Connection, seq: int) -> list[int]:
    """The memories the one at `seq` replaced, and theirs, nearest first."""
    found: list[int] = []
    frontier = [seq]
    while frontier:
        listed, param = seq_list(conn, frontier)
        rows = conn.execute(
            f"SELECT v.seq FROM {listed} memory_validity v ON v.superseded_by = j.value "
            "ORDER BY v.seq",
            (param,),
        ).fetchall()
        frontier = [int(row[0]) for row in rows if int(row[0]) not in found]
        found += frontier
    return found


def any_stored(conn: Connection) -> bool:
    """Whether any memory has a validity of its own or a conflict (else recall skips this)."""
    return conn.execute("SELECT 1 FROM memory_validity LIMIT 1").fetchone() is not None


def valid_at_clause() -> str:
    """A condition on `m` that the memory was true at the time bound twice after it."""
    return (
        f"({STARTS} <= ? AND NOT EXISTS (SELECT 1 FROM memory_validity v "
        "WHERE v.seq = m.seq AND v.valid_until IS NOT NULL AND v.valid_until <= ?))"
    )


def note_conflict(conn: Connection, older: int, newer: int, reason: str, at: str) -> None:
    """Flag the memory true since later (`newer`) as contradicting `older`; a pair flagged
    before (and perhaps dismissed or resolved) keeps its state: it is never raised again."""
    _ensure(conn, [older, newer])
    conn.execute(
        "INSERT INTO memory_conflicts(older, newer, reason, state, noted_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (older, newer) DO NOTHING",
        (older, newer, reason, OPEN, at),
    )


def resolve_all(conn: Connection, seq: int, at: str) -> None:
    """Settle every open conflict of a memory that is no longer true: nothing left to
    dispute."""
    conn.execute(
        "UPDATE memory_conflicts SET state = ?, noted_at = ? WHERE (older = ? OR newer = ?) "
        "AND state = ?",
        (RESOLVED, at, seq, seq, OPEN),
    )


def settle(conn: Connection, a: int, b: int, state: str, at: str) -> bool:
    """Mark the conflict between `a` and `b` (either order) `state`, recording the pair if it
    was never flagged; whether it had been."""
    flagged = conn.execute(
        "UPDATE memory_conflicts SET state = ? WHERE (older = ? AND newer = ?) OR "
        "(older = ? AND newer = ?)",
        (state, a, b, b, a),
    ).rowcount
    if not flagged:
        _ensure(conn, [a, b])
        conn.execute(
            "INSERT INTO memory_conflicts(older, newer, reason, state, noted_at) "
            "VALUES (?, ?, '', ?, ?)",
            (a, b, state, at),
        )
    return bool(flagged)


def open_conflicts(
    conn: Connection, namespace: str | None, limit: int
) -> list[tuple[str, str, str, str, str, str]]:
    """Open conflicts, newest first: (older id, older content, newer id, newer content,
    reason, noted_at), in `namespace` or all."""
    where, params = ("", []) if namespace is None else (" AND n.namespace = ?", [namespace])
    rows = conn.execute(
        "SELECT o.id, o.content, n.id, n.content, c.reason, c.noted_at FROM memory_conflicts c "
        "JOIN memories o ON o.seq = c.older JOIN memories n ON n.seq = c.newer "
        f"WHERE c.state = ?{where} ORDER BY c.noted_at DESC, c.newer DESC LIMIT ?",
        (OPEN, *params, limit),
    ).fetchall()
    return [tuple(str(v) for v in row) for row in rows]  # type: ignore[misc]
