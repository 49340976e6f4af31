"""When memories happened: the time given with a memory (a message's time), else when it was
stored.

The expression below is indexed (migration 11), so the memories of a period are found with an
index range scan. SQLite uses the index only for the same expression (compared as parsed, so
spacing may differ).
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.timeutil import format_time, parse_time

MEMORY_TIME = "coalesce(occurred_at, created_at)"

Span = tuple[datetime, datetime]


def within_clause(spans: Sequence[Span]) -> tuple[str, list[Any]]:
    """A WHERE clause over `m` admitting memories whose time falls in any span (end exclusive)."""
    clauses = " OR ".join(f"({MEMORY_TIME} >= ? AND {MEMORY_TIME} < ?)" for _ in spans)
    params = [format_time(moment) for span in spans for moment in span]
    return f"({clauses})", params


def seqs_within(
    conn: sqlite3.Connection, spans: Sequence[Span], where: str, params: Sequence[Any], limit: int
) -> npt.NDArray[np.int64]:
    """Seqs of up to `limit` admitted memories whose time falls in the spans."""
    clause, span_params = within_clause(spans)
    # INDEXED BY: with a namespace in the filter the planner picks the namespace index and
    # works out every row's time instead of reading a range of the time index.
    rows = conn.execute(
        f"SELECT m.seq FROM memories m INDEXED BY memories_time WHERE {clause} AND ({where}) "
        "LIMIT ?",
        [*span_params, *params, limit],
    ).fetchall()
    return np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))


def times_of(conn: sqlite3.Connection, seqs: Sequence[int]) -> dict[int, float]:
    """The time (POSIX seconds) of each memory in `seqs` that has one that parses."""
    if not seqs:
        return {}
    marks = ",".join("?" * len(seqs))
    rows = conn.execute(
        f"SELECT m.seq, {MEMORY_TIME} FROM memories m WHERE m.seq IN ({marks})", list(seqs)
    ).fetchall()
    seconds = {int(seq): seconds_of(moment) for seq, moment in rows}
    return {seq: value for seq, value in seconds.items() if not math.isnan(value)}


def undated(conn: sqlite3.Connection, seqs: Sequence[int]) -> set[int]:
    """Those of `seqs` given no time of their own (their time is when they were stored)."""
    rows = conn.execute(
        "SELECT m.seq FROM json_each(?) j CROSS JOIN memories m ON m.seq = j.value "
        "WHERE m.occurred_at IS NULL",
        (json.dumps(list(seqs)),),
    )
    return {int(row[0]) for row in rows.fetchall()}


#: loci's stored time form (`format_time`): UTC, to the microsecond, with a "Z".
STORED_FORM = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")


def seconds_of_all(stamps: Sequence[object]) -> npt.NDArray[np.float64]:
    """`seconds_of` for each of `stamps`. Those in loci's stored form are read in one numpy
    pass; others, and all of them if numpy
    refuses one (a day or hour out of range), one by one."""
    texts = list(map(_numpy_text, stamps))
    try:
        moments = np.array(texts, dtype="datetime64[us]")
    except ValueError:
        return np.fromiter(map(seconds_of, stamps), np.float64, len(stamps))
    seconds = moments.astype(np.int64) / 1e6
    for position in np.flatnonzero(np.isnat(moments)).tolist():
        seconds[position] = seconds_of(stamps[position])
    return seconds


def _numpy_text(stamp: object) -> str:
    """A stamp in the stored form without its "Z", for numpy; "NaT" for any other. numpy
    reads year 0, which `datetime` (and so `seconds_of`) refuses: it is left out too."""
    if isinstance(stamp, str) and STORED_FORM.fullmatch(stamp) and stamp[:4] != "0000":
        return stamp[:-1]
    return "NaT"


def seconds_of(stamp: object) -> float:
    """POSIX seconds of a stored time; NaN if it is not one (a hand-written metadata
    timestamp that does not parse)."""
    if not isinstance(stamp, str):
        return math.nan
    try:
        return parse_time(stamp).timestamp()
    except ValueError:
        return math.nan
