"""The SQLite engine (the embedded default): pragmas, migrations, and transactions safe across
processes.

Several `loci serve` processes (one per client window) share one database file. WAL mode lets
readers run beside a writer; writes take the lock up front (`BEGIN IMMEDIATE`) and wait up to
the busy timeout for another process, so "database is locked" never reaches an agent unless a
lock is held for longer than that.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from loci.errors import StorageUnavailableError
from loci.storage.databases import schema
from loci.storage.databases.db import Engine
from loci.storage.databases.failures import translated
from loci.storage.databases.schema import Schema
from loci.storage.files import PRIVATE_FILE_MODE, private_folder

#: The oldest SQLite loci runs on: deletes report what they removed with RETURNING (3.35.0).
MIN_SQLITE = (3, 35, 0)

#: Waits between attempts to switch a file to WAL while another process switches it (seconds).
WAL_RETRY_FIRST_PAUSE = 0.001
WAL_RETRY_LAST_PAUSE = 0.05

log = logging.getLogger("loci.store")

#: A write that may run after its caller has returned (see :meth:`Database.write_behind`).
DeferredWrite = Callable[[sqlite3.Connection], None]
#: Work that runs inside every write transaction just before it commits.
BeforeCommit = Callable[[sqlite3.Connection], object]


class SqliteDatabase:
    """One connection to a SQLite file, used by one process (a :class:`~loci.storage.databases.db.Database`).

    Calls are serialised by a lock, so the connection may be used from worker threads (the
    keyword search of a recall runs in one while its query is being embedded). One connection
    rather than a second one for such reads: SQLite drops a connection's whole page cache when
    another connection commits, and every recall commits its access statistics, so a second
    connection would re-read its pages at every recall.

    Bookkeeping writes that a caller need not wait for (a recall's access statistics) can be
    queued with :meth:`write_behind`; they run at the next :meth:`flush_behind` or before the
    next use of the main connection, whichever comes first, so this process never reads around
    them.
    """

    def __init__(
        self,
        path: Path,
        busy_timeout_seconds: float = 15.0,
        schemas: Sequence[Schema] = (),
        before_commit: Sequence[BeforeCommit] = (),
    ) -> None:
        """Open `path`, bringing the tables of `schemas` up to date; `before_commit` runs in
        every write transaction (derived rows that must commit with what they follow)."""
        self.path = path
        self.schemas = tuple(schemas)
        self._busy_timeout = busy_timeout_seconds
        self._before_commit = tuple(before_commit)
        self._lock = threading.RLock()
        self._conn = _open(path, busy_timeout_seconds)
        self._behind: list[DeferredWrite] = []
        self._behind_lock = threading.Lock()
        self._migrate()

    @property
    def engine(self) -> Engine:
        """SQLite."""
        return "sqlite"

    @property
    def location(self) -> str:
        """The database file."""
        return str(self.path)

    @property
    def connection(self) -> sqlite3.Connection:
        """The raw connection; hold :meth:`locked` while using it outside a transaction."""
        return self._conn

    @contextmanager
    def locked(self) -> Iterator[sqlite3.Connection]:
        """Exclusive use of the connection for a few reads."""
        with self._lock:
            self._run_behind()
            with translated(self.path):
                yield self._conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: all of it commits, or none of it does."""
        with self._lock:
            self._run_behind()
            with translated(self.path):
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                    for work in self._before_commit:
                        work(self._conn)
                    self._conn.execute("COMMIT")
                except BaseException:
                    _roll_back(self._conn)
                    raise

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every query inside sees the same committed state."""
        with self._lock:
            self._run_behind()
            with translated(self.path):
                self._conn.execute("BEGIN")
                try:
                    yield self._conn
                finally:
                    _roll_back(self._conn)

    @contextmanager
    def claim(self, name: str) -> Iterator[bool]:
        """Hold `name` with a lock on a file beside the store's (`flock`, which the system lets
        go when the process ends, however it ends)."""
        digest = hashlib.sha256(name.encode()).hexdigest()[:16]
        path = self.path.with_name(f"{self.path.name}.claim-{digest}")
        with translated(self.path):
            handle = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
            else:
                yield True
        finally:
            os.close(handle)  # the lock goes with the last descriptor

    def write_behind(self, work: DeferredWrite) -> None:
        """Queue a write the caller need not wait for (it runs in its own transaction)."""
        with self._behind_lock:
            self._behind.append(work)

    def flush_behind(self) -> None:
        """Run the queued writes now, e.g. from a worker thread once a request has answered."""
        with self._lock:
            self._run_behind()

    def data_version(self) -> int:
        """Changes whenever another connection commits (not for this connection's own commits)."""
        with self._lock, translated(self.path):
            row = self._conn.execute("PRAGMA data_version").fetchone()
        return int(row[0])

    def schema_version(self) -> int:
        """The file's format (`PRAGMA user_version`; each owner's tables are numbered in
        :meth:`schema_versions`)."""
        with self._lock, translated(self.path):
            return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def schema_versions(self) -> dict[str, int]:
        """How many of its migrations each owner this database was opened with has run."""
        with self._lock, translated(self.path):
            return schema.done(self._conn, self.schemas)

    def size_bytes(self) -> int:
        """The database file and its write-ahead log."""
        siblings = [self.path.with_name(self.path.name + suffix) for suffix in ("", "-wal", "-shm")]
        return sum(p.stat().st_size for p in siblings if p.exists())

    def close(self) -> None:
        """Run the queued writes, then close the connection (idempotent)."""
        with self._lock:
            if self._behind:
                self._run_behind()
            self._conn.close()

    def _run_behind(self) -> None:
        """Run queued writes in one transaction (the caller holds the lock)."""
        if not self._behind or self._conn.in_transaction:
            return
        with self._behind_lock:
            queued, self._behind = self._behind, []
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for work in queued:
                    work(self._conn)
                self._conn.execute("COMMIT")
            except BaseException:
                _roll_back(self._conn)
                raise
        except sqlite3.Error as exc:
            # Only bookkeeping is queued here: losing it must not fail the caller's request.
            log.warning("dropped %d deferred writes: %s", len(queued), exc)

    def _migrate(self) -> None:
        if not self.schemas:
            return
        with self._lock, translated(self.path):
            if schema.is_current(self._conn, self.schemas):
                return
        with self.write() as conn:
            # Checked again inside the lock: another process may have migrated meanwhile.
            schema.migrate(conn, self.schemas)


def _open(path: Path, busy_timeout_seconds: float) -> sqlite3.Connection:
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise StorageUnavailableError(
            f"loci needs SQLite {'.'.join(map(str, MIN_SQLITE))} or newer, and this Python's "
            f"sqlite3 module uses {sqlite3.sqlite_version}; use a Python built with a newer "
            "SQLite (python.org's, Homebrew's and uv's are)",
            sqlite_version=sqlite3.sqlite_version,
        )
    try:
        private_folder(path.parent)
        # Created private before SQLite opens it (SQLite gives its WAL files the same mode).
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE))
        conn = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, timeout=busy_timeout_seconds
        )
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_seconds * 1000)}")
        _use_wal(conn, path, busy_timeout_seconds)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
    except (sqlite3.Error, OSError) as exc:
        raise StorageUnavailableError(
            f"cannot open the database {path}: {exc}", path=str(path)
        ) from exc
    return conn


def _use_wal(conn: sqlite3.Connection, path: Path, busy_timeout_seconds: float) -> None:
    """Switch the file to WAL, waiting while another process does the same.

    Two connections converting a new file at once can each hold the lock the other needs;
    SQLite then answers SQLITE_BUSY at once instead of calling the busy handler, so the waiting
    (up to the busy timeout) is done here.
    """
    deadline = time.monotonic() + busy_timeout_seconds
    pause = WAL_RETRY_FIRST_PAUSE
    while True:
        try:
            mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
            break
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, WAL_RETRY_LAST_PAUSE)
    if mode.lower() != "wal":
        # Some network file systems refuse WAL: loci still works, with writers blocking readers.
        log.warning("%s stays in journal mode %r: its file system refused WAL", path, mode)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused for a lock another connection holds (SQLITE_BUSY or _LOCKED)."""
    primary_code = exc.sqlite_errorcode & 0xFF
    return primary_code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _roll_back(conn: sqlite3.Connection) -> None:
    """End the open transaction, if SQLite has not already (it rolls back by itself after
    some failures, such as a full disk, and a second ROLLBACK would hide that failure)."""
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error as exc:  # closed meanwhile, or the rollback failed too
        log.warning("could not roll back: %s", exc)
