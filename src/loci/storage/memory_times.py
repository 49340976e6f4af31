"""When each memory happened, mirrored in memory: for questions that name a period.

A question such as "what did Ana do in 2023?" needs the memories of that period and, for
ranking, the time of a few hundred candidates and their neighbouring turns. In SQL both work
out an expression row by row (`timeline.MEMORY_TIME`), after the query's embedding.
Here they are numpy arrays: a period is a comparison pass, a time a binary search.

Times are POSIX seconds, read with `parse_time`; a memory whose time does not parse (a
hand-written metadata timestamp) has none and falls in no period. The mirror is derived data,
kept in step by `IndexSync` from the same change log as the vector index.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.storage.derived import MemoryChanges, Progress
from loci.storage.name_codes import NameCodes
from loci.storage.seqsets import among
from loci.storage.timeline import MEMORY_TIME, seconds_of_all

Seqs = npt.NDArray[np.int64]
Seconds = npt.NDArray[np.float64]
#: A span of POSIX seconds, end exclusive.
SecondsSpan = tuple[float, float]
#: The years a date without one may fall in: those a query can name (`when`), so that a
#: memory stamped in year 1 or 9999 does not make "on May 4" a search of thousands of years.
FIRST_YEAR = 1900
LAST_YEAR = 2099

LOAD_CHUNK = 10_000
#: Every memory's time.
ALL_TIMES = f"SELECT seq, namespace, {MEMORY_TIME} FROM memories ORDER BY seq"
#: The times of some seqs (bind them as a JSON array).
TIMES_OF = (
    f"SELECT m.seq, m.namespace, {MEMORY_TIME} FROM json_each(?) j "
    "CROSS JOIN memories m ON m.seq = j.value ORDER BY m.seq"
)


class MemoryTimes:
    """seq -> when the memory happened (and its namespace), for every memory of the store.

    Seqs are kept sorted. New memories arrive with ever larger seqs, so an update appends; a
    deleted memory keeps its slot with no time (NaN) until the next full load."""

    def __init__(self) -> None:
        self._seqs: Seqs = np.zeros(0, np.int64)
        self._seconds: Seconds = np.zeros(0)
        self._groups = np.zeros(0, np.int32)
        self._namespaces = NameCodes()
        self._span: tuple[float, float] | None = None  # earliest and latest time, when known

    def clear(self) -> None:
        """Forget every memory's time (before a full load through `add`)."""
        self._span = None
        self._seqs = np.zeros(0, np.int64)
        self._seconds = np.zeros(0)
        self._groups = np.zeros(0, np.int32)

    def prepare(self, conn: sqlite3.Connection) -> None:
        """Nothing to make."""
        del conn

    def load(self, conn: sqlite3.Connection, progress: Progress | None = None) -> None:
        """Read every memory's time."""
        del progress
        self.clear()
        cursor = conn.execute(ALL_TIMES)
        while rows := cursor.fetchmany(LOAD_CHUNK):
            self.add(rows, time_column=2)

    def apply(self, conn: sqlite3.Connection, changes: MemoryChanges) -> None:
        """Read the changed memories' times anew."""
        self.update(conn, changes.touched)

    def add(self, rows: Sequence[Sequence[Any]], time_column: int) -> None:
        """Take rows (seq, namespace, ..., `MEMORY_TIME` at `time_column`): a full load
        comes in chunks (see `IndexSync`)."""
        self._span = None
        self._merge(rows, time_column)

    def update(self, conn: sqlite3.Connection, seqs: Sequence[int]) -> None:
        """Re-read these seqs: present memories are (re)stored, deleted ones lose their time."""
        if not seqs:
            return
        self._span = None
        known = self._positions(np.asarray(seqs, dtype=np.int64))
        self._seconds[known[known >= 0]] = math.nan
        self._merge(conn.execute(TIMES_OF, (json.dumps(list(seqs)),)).fetchall(), 2)

    def of(self, seqs: Iterable[int]) -> dict[int, float]:
        """The time (POSIX seconds) of each of `seqs` that has one."""
        wanted = np.fromiter(seqs, dtype=np.int64)
        positions = self._positions(wanted)
        found = positions >= 0
        seconds = self._seconds[positions[found]]
        timed = ~np.isnan(seconds)
        return dict(zip(wanted[found][timed].tolist(), seconds[timed].tolist(), strict=True))

    def years(self) -> list[int]:
        """Every year from the earliest memory's time to the latest's, within FIRST_YEAR to
        LAST_YEAR (empty when no memory has a time there)."""
        if self._span is None:
            timed = self._seconds[~np.isnan(self._seconds)]
            self._span = (float(timed.min()), float(timed.max())) if timed.size else (0.0, -1.0)
        earliest, latest = self._span
        if earliest > latest:
            return []
        first = max(_year_of(earliest), FIRST_YEAR)
        last = min(_year_of(latest), LAST_YEAR)
        return list(range(first, last + 1))

    def within(
        self,
        spans: Sequence[SecondsSpan],
        namespaces: frozenset[str] | None,
        limit: int,
        admitted: Seqs | None = None,
    ) -> Seqs:
        """Seqs of memories of `namespaces` (None: all) and, when given, of `admitted`, whose
        time falls in any span: the earliest `limit` of them, in time order."""
        seconds = self._seconds
        inside = np.zeros(seconds.shape[0], dtype=np.bool_)
        for start, end in spans:
            inside |= (seconds >= start) & (seconds < end)
        if namespaces is not None:
            inside &= np.isin(self._groups, self._namespaces.known(namespaces))
        if admitted is not None:
            inside &= among(self._seqs, admitted)
        positions = np.flatnonzero(inside)
        order = np.argsort(seconds[positions], kind="stable")[:limit]
        return self._seqs[positions[order]]

    def _positions(self, seqs: Seqs) -> npt.NDArray[np.intp]:
        """Each seq's slot, or -1."""
        if self._seqs.shape[0] == 0:
            return np.full(seqs.shape[0], -1, dtype=np.intp)
        slots = np.minimum(np.searchsorted(self._seqs, seqs), self._seqs.shape[0] - 1)
        return np.where(self._seqs[slots] == seqs, slots, -1)

    def _merge(self, rows: Sequence[Sequence[Any]], time_column: int) -> None:
        """Store rows (seq, namespace, ..., time) sorted by seq: in place where the slot
        exists, appended (or, rarely, merged in order) where it does not."""
        if not rows:
            return
        seqs = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        seconds = seconds_of_all([row[time_column] for row in rows])
        groups = self._namespaces.codes([row[1] for row in rows])
        positions = self._positions(seqs)
        old = positions >= 0
        self._seconds[positions[old]] = seconds[old]
        self._groups[positions[old]] = groups[old]
        new = ~old
        if not new.any():
            return
        self._seqs = np.concatenate([self._seqs, seqs[new]])
        self._seconds = np.concatenate([self._seconds, seconds[new]])
        self._groups = np.concatenate([self._groups, groups[new]])
        if np.any(self._seqs[1:] < self._seqs[:-1]):  # a seq below the newest came back
            order = np.argsort(self._seqs, kind="stable")
            self._seqs, self._seconds = self._seqs[order], self._seconds[order]
            self._groups = self._groups[order]


def _year_of(seconds: float) -> int:
    """The UTC year of a time (clamped to what `datetime` holds)."""
    try:
        return datetime.fromtimestamp(seconds, UTC).year
    except (OverflowError, ValueError, OSError):
        return LAST_YEAR + 1 if seconds > 0 else FIRST_YEAR - 1
