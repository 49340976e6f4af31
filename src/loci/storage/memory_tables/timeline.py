"""When memories happened: the time given with a memory (a message's time), else when it was
stored.

The expression below is indexed (migration 11), so the memories of a period are found with an
index range scan. SQLite uses the index only for the same expression (compared as parsed, so
spacing may differ).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import indexed_by, seq_list
from loci.timeutil import format_time, parse_time

MEMORY_TIME = "coalesce(occurred_at, created_at)"
#: The years a date without one may fall in: those a query can name (`when`), so that a
#: memory stamped in year 1 or 9999 does not make "on May 4" a search of thousands of years.
FIRST_YEAR = 1900
LAST_YEAR = 2099

Span = tuple[datetime, datetime]


def within_clause(spans: Sequence[Span]) -> tuple[str, list[Any]]:
    """A WHERE clause over `m` admitting memories whose time falls in any span (end exclusive)."""
    clauses = " OR ".join(f"({MEMORY_TIME} >= ? AND {MEMORY_TIME} < ?)" for _ in spans)
    params = [format_time(moment) for span in spans for moment in span]
    return f"({clauses})", params


def years(conn: Connection) -> list[int]:
    """Every year from the earliest memory's time to the latest's, of the times from
    FIRST_YEAR to LAST_YEAR (empty when no memory has a time there)."""
    bounds = (f"{FIRST_YEAR}", f"{LAST_YEAR + 1}")
    ends = [
        conn.execute(
            f"SELECT {MEMORY_TIME} FROM memories {indexed_by(conn, 'memories_time')} "
            f"WHERE {MEMORY_TIME} >= ? AND {MEMORY_TIME} < ? ORDER BY {MEMORY_TIME} {order} "
            "LIMIT 1",
            bounds,
        ).fetchone()
        for order in ("ASC", "DESC")
    ]
    if ends[0] is None or ends[1] is None:
        return []
    return list(range(_year_of(ends[0][0]), _year_of(ends[1][0]) + 1))


def _year_of(stamp: str) -> int:
    """The year a stored time begins with (times are stored year first)."""
    return int(stamp[:4])


def seqs_within(
    conn: Connection, spans: Sequence[Span], where: str, params: Sequence[Any], limit: int
) -> npt.NDArray[np.int64]:
    """Seqs of up to `limit` admitted memories whose time falls in the spans: the earliest,
    in time order."""
    clause, span_params = within_clause(spans)
    # INDEXED BY: with a namespace in the filter the planner picks the namespace index and
    # works out every row's time instead of reading a range of the time index.
    rows = conn.execute(
        f"SELECT m.seq FROM memories m {indexed_by(conn, 'memories_time')} "
        f"WHERE {clause} AND ({where}) "
        f"ORDER BY {MEMORY_TIME}, m.seq LIMIT ?",
        [*span_params, *params, limit],
    ).fetchall()
    return np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))


def times_of(conn: Connection, seqs: Sequence[int]) -> dict[int, float]:
    """The time (POSIX seconds) of each memory in `seqs` that has one that parses."""
    if not seqs:
        return {}
    marks = ",".join("?" * len(seqs))
    rows = conn.execute(
        f"SELECT m.seq, {MEMORY_TIME} FROM memories m WHERE m.seq IN ({marks})", list(seqs)
    ).fetchall()
    seconds = {int(seq): seconds_of(moment) for seq, moment in rows}
    return {seq: value for seq, value in seconds.items() if not math.isnan(value)}


def undated(conn: Connection, seqs: Sequence[int]) -> set[int]:
    """Those of `seqs` given no time of their own (their time is when they were stored)."""
    listed, bound = seq_list(conn, seqs)
    rows = conn.execute(
        f"SELECT m.seq FROM {listed} memories m ON m.seq = j.value WHERE m.occurred_at IS NULL",
        (bound,),
    )
    return {int(row[0]) for row in rows.fetchall()}


def seconds_of(stamp: object) -> float:
    """POSIX seconds of a stored time; NaN if it is not one (a hand-written metadata
    timestamp that does not parse)."""
    if not isinstance(stamp, str):
        return math.nan
    try:
        return parse_time(stamp).timestamp()
    except ValueError:
        return math.nan
