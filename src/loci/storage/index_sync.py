"""Keeps one process's derived indexes in step with the database.

Triggers append an entry to the change log (`vector_log`) for every change of a memory, in the
writing transaction. Before each search, :meth:`IndexSync.refresh` reads the entries this
process has not seen, once, and hands them to every derived index (`derived.DerivedIndex`). It
costs one `PRAGMA data_version` when nothing changed. A process that fell behind a pruned log
loads every index anew from the database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from loci.heap import release_free_memory
from loci.storage.db import Connection, Database
from loci.storage.derived import DerivedIndex, MemoryChanges, Progress

#: How many log entries to keep; older ones are pruned by writers.
LOG_KEEP = 50_000
#: The changed memories' rows, as `MemoryChanges.stored` holds them.
CHANGED_ROWS = (
    "SELECT m.seq, m.namespace, v.embedding, m.content FROM memories m "
    "LEFT JOIN memory_vectors v ON v.seq = m.seq WHERE m.seq IN ({})"
)
#: Work run with the indexes just brought up to date, under their lock, in a read transaction.
Then = Callable[[Connection], None]


class IndexSync:
    """Follows the change log for the derived indexes of one process (built in `build_app`)."""

    def __init__(self, db: Database, indexes: Sequence[DerivedIndex]) -> None:
        self._db = db
        self._indexes = tuple(indexes)
        self._connection_ready = False
        self._log_position = -1  # -1: never loaded
        self._data_version = -1
        self._own_writes = True
        self._lock = threading.Lock()

    @property
    def position(self) -> int:
        """The change-log entry the indexes have reached (-1 before the first refresh)."""
        return self._log_position

    def note_own_write(self) -> None:
        """Call after this process commits changes (data_version misses our own)."""
        self._own_writes = True

    def refresh(self, then: Then | None = None) -> None:
        """Apply the changes committed since the last refresh, by any process; then run
        `then` (e.g. a lazy index reading more) before another refresh can start."""
        with self._lock:
            self._refresh()
            if then is not None:
                with self._db.snapshot() as conn:
                    then(conn)

    def rebuild(self, progress: Progress | None = None) -> None:
        """Load every index anew from the database."""
        with self._lock:
            self._prepare_connection()
            with self._db.snapshot() as conn:
                self._load_all(conn, progress)
            self._data_version = self._db.data_version()
            self._own_writes = False

    def _refresh(self) -> None:
        version = self._db.data_version()
        if version == self._data_version and not self._own_writes:
            return
        self._prepare_connection()
        with self._db.snapshot() as conn:
            if self._log_position < 0 or fell_behind(conn, self._log_position):
                self._load_all(conn)
            else:
                self._apply_log(conn)
        self._data_version = version
        self._own_writes = False

    def _prepare_connection(self) -> None:
        """What the indexes need on the connection, made once, outside any transaction."""
        if not self._connection_ready:
            with self._db.locked() as conn:
                for index in self._indexes:
                    index.prepare(conn)
            self._connection_ready = True

    def _load_all(self, conn: Connection, progress: Progress | None = None) -> None:
        self._log_position = change_log_head(conn)
        for index in self._indexes:
            index.load(conn, progress)
        release_free_memory()  # the rows read on the way

    def _apply_log(self, conn: Connection) -> None:
        entries = conn.execute(
            "SELECT seq, memory_seq FROM vector_log WHERE seq > ? ORDER BY seq",
            (self._log_position,),
        ).fetchall()
        if not entries:
            return
        self._log_position = int(entries[-1][0])
        touched = sorted({int(memory_seq) for _, memory_seq in entries})
        stored: list[Sequence[Any]] = []
        for chunk in _chunks(touched, 500):
            marks = ",".join("?" * len(chunk))
            stored += conn.execute(CHANGED_ROWS.format(marks), chunk).fetchall()
        present = {int(row[0]) for row in stored}
        changes = MemoryChanges(touched, stored, [seq for seq in touched if seq not in present])
        for index in self._indexes:
            index.apply(conn, changes)


def prune_log(conn: Connection) -> None:
    """Drop log entries older than the last `LOG_KEEP` (call inside a write transaction)."""
    head = change_log_head(conn)
    if head > LOG_KEEP:
        conn.execute("DELETE FROM vector_log WHERE seq <= ?", (head - LOG_KEEP,))


def reload_everywhere(conn: Connection) -> None:
    """Make every process rebuild its derived data at its next refresh (call inside a write
    transaction, after changes the log does not describe, such as a rebuilt keyword index).

    A process reloads when the log no longer holds the entry after its position. The log's
    seq never repeats (AUTOINCREMENT), so two entries for no memory are logged and all but the
    second dropped: even a process that had read everything misses the first.
    """
    for _ in range(2):
        conn.execute("INSERT INTO vector_log(memory_seq, op) VALUES (0, 'delete')")
    conn.execute("DELETE FROM vector_log WHERE seq < (SELECT max(seq) FROM vector_log)")


def fell_behind(conn: Connection, position: int) -> bool:
    """Whether entries after `position` were pruned from the log (or it was reset by
    `reload_everywhere`): what follows the log from there must load everything anew."""
    oldest = conn.execute("SELECT min(seq) FROM vector_log").fetchone()[0]
    return oldest is not None and oldest > position + 1


def change_log_head(conn: Connection) -> int:
    """The last entry of the change log (0 for none): it moves at every change of a memory."""
    value = conn.execute("SELECT max(seq) FROM vector_log").fetchone()[0]
    return int(value) if value is not None else 0


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
