"""Pages of memories to browse, by when they happened (newest or oldest first), read by keyset:
the thousandth page costs what the first does. Rows and statements only."""

from __future__ import annotations

from dataclasses import dataclass

from loci.storage.databases.db import Connection
from loci.storage.memory_tables.memories import Row, columns

#: When a memory happened: its own time if it has one, else when it was stored (the
#: expression of the `memories_time` index, which the walk follows).
MOMENT = "coalesce(m.occurred_at, m.created_at)"


@dataclass(frozen=True)
class Shown:
    """Which memories a page shows: every condition given must hold."""

    namespaces: frozenset[str] | None = None  # None: every namespace
    tag: str | None = None
    min_importance: float = 0.0
    since: str | None = None  # ISO 8601, inclusive
    until: str | None = None  # ISO 8601, exclusive


@dataclass(frozen=True)
class Cursor:
    """Where a page ends: the moment and seq of its last memory."""

    moment: str
    seq: int


def page(
    conn: Connection, shown: Shown, after: Cursor | None, size: int, oldest_first: bool = False
) -> tuple[list[Row], Cursor | None]:
    """The `size` memories after `after` in the chosen order (`memories.columns` rows, with
    their moment last), and the cursor of the next page (None: this is the last)."""
    where, params = _conditions(shown)
    if after is not None:
        at_or_past, past = (">=", ">") if oldest_first else ("<=", "<")
        # The first condition lets the walk start at the cursor; the second breaks ties.
        where.append(f"{MOMENT} {at_or_past} ? AND ({MOMENT} {past} ? OR m.seq {past} ?)")
        params += [after.moment, after.moment, after.seq]
    join = ""
    if shown.tag is not None:
        join = "JOIN memory_tags t ON t.memory_seq = m.seq AND t.tag = ?"
        params.insert(0, shown.tag)
    order = "ASC" if oldest_first else "DESC"
    rows = conn.execute(
        f"SELECT {columns(conn)}, {MOMENT} FROM memories m {join} "
        f"WHERE {' AND '.join(where or ['TRUE'])} "
        f"ORDER BY {MOMENT} {order}, m.seq {order} LIMIT ?",
        [*params, size + 1],
    ).fetchall()
    if len(rows) <= size:
        return rows, None
    last = rows[size - 1]
    return rows[:size], Cursor(str(last[-1]), int(last[0]))


def _conditions(shown: Shown) -> tuple[list[str], list[object]]:
    where: list[str] = []
    params: list[object] = []
    if shown.namespaces is not None:
        names = sorted(shown.namespaces)
        where.append(f"m.namespace IN ({', '.join('?' * len(names))})" if names else "FALSE")
        params += names
    if shown.min_importance > 0.0:
        where.append("m.importance >= ?")
        params.append(shown.min_importance)
    if shown.since is not None:
        where.append(f"{MOMENT} >= ?")
        params.append(shown.since)
    if shown.until is not None:
        where.append(f"{MOMENT} < ?")
        params.append(shown.until)
    return where, params
