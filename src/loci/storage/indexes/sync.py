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
from loci.storage.databases.db import Connection, Database
from loci.storage.indexes.derived import DerivedIndex, MemoryChanges, Progress
from loci.storage.memory_tables.change_log import change_log_head, fell_behind

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
        since, self._log_position = self._log_position, int(entries[-1][0])
        touched = sorted({int(memory_seq) for _, memory_seq in entries})
        stored: list[Sequence[Any]] = []
        for chunk in _chunks(touched, 500):
            marks = ",".join("?" * len(chunk))
            stored += conn.execute(CHANGED_ROWS.format(marks), chunk).fetchall()
        present = {int(row[0]) for row in stored}
        gone = [seq for seq in touched if seq not in present]
        changes = MemoryChanges(touched, stored, gone, since, self._log_position)
        for index in self._indexes:
            index.apply(conn, changes)


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
