"""The PostgreSQL engine's :class:`~loci.storage.databases.db.Database`: a connection per thread at
work, writes serialised across every server of the database, reconnection after an outage.

A thread keeps the connection it took until its outermost `locked`, `write` or `snapshot`
ends (calls nested inside see the same transaction); then the connection goes back to the
idle ones for the next thread. The two halves of one recall (its keyword search and its
vector search) read side by side so; there are never more connections than threads at work.

Every write transaction first takes one transaction-level advisory lock, so writers on all
servers take turns as they do on SQLite: a service's read-then-write inside `write()` sees no
other writer, whatever the isolation level. Each write also bumps the store's change counter,
which other servers read (`data_version`) to know that something changed.

A connection lost to a restart or the network is dropped; the call in progress fails with a
`storage_unavailable` error (nothing half-written: its transaction did not commit) and the next
call connects again.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg

from loci.database_url import masked
from loci.errors import StorageUnavailableError
from loci.storage.databases.db import BeforeCommit, DeferredWrite, Engine
from loci.storage.databases.postgres import schema
from loci.storage.databases.postgres.connect import connect
from loci.storage.databases.postgres.connection import PgConnection
from loci.storage.databases.postgres.failures import translated
from loci.storage.databases.postgres.vector_type import register_vector_type
from loci.storage.databases.schema import OWNED_VERSIONS, Schema

#: The advisory lock every write transaction holds (any fixed number; "loci" in ASCII).
WRITE_LOCK = 0x6C6F6369

log = logging.getLogger("loci.store")


class PostgresDatabase:
    """One process's connection to a PostgreSQL database (see the module's docstring)."""

    def __init__(
        self,
        url: str,
        connect_timeout_seconds: float = 10.0,
        schemas: Sequence[Schema] = (),
        before_commit: Sequence[BeforeCommit] = (),
    ) -> None:
        """Connect to `url`, bringing the tables of `schemas` up to date; `before_commit` runs
        in every write transaction."""
        self._url = url
        self._location = masked(url)
        self._timeout = connect_timeout_seconds
        self.schemas = tuple(schemas)
        self._before_commit = tuple(before_commit)
        self._idle: list[PgConnection] = []
        self._idle_lock = threading.Lock()
        self._held = _Held()
        self._behind: list[DeferredWrite] = []
        self._behind_lock = threading.Lock()
        schema.refuse_unported(self.schemas)
        with self._checked_out():
            pass  # connect now: a wrong URL fails here, not at the first call
        self._migrate()

    @property
    def engine(self) -> Engine:
        """PostgreSQL."""
        return "postgresql"

    @property
    def location(self) -> str:
        """The database URL, its password masked."""
        return self._location

    @contextmanager
    def locked(self) -> Iterator[PgConnection]:
        """This thread's connection for a few reads (autocommit: each sees the latest)."""
        with self._checked_out() as conn:
            yield conn

    @contextmanager
    def write(self) -> Iterator[PgConnection]:
        """A write transaction, serialised with every other server's: all of it commits, or
        none of it does."""
        with self._checked_out() as conn:
            if _in_transaction(conn):  # nested: part of the transaction under way
                yield conn
                return
            conn.execute("BEGIN")
            try:
                conn.execute("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
                yield conn
                for work in self._before_commit:
                    work(conn)
                conn.execute(schema.BUMP_DATA_VERSION)
                conn.execute("COMMIT")
            except BaseException:
                _roll_back(conn)
                raise

    @contextmanager
    def claim(self, name: str) -> Iterator[bool]:
        """Hold `name` with a session advisory lock on a connection of its own, which the
        server lets go when that connection ends (the process killed too)."""
        key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)
        conn = connect(self._url, self._timeout)
        try:
            with translated(self.location):
                row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
            yield bool(row and row[0])
        finally:
            conn.close()

    @contextmanager
    def snapshot(self) -> Iterator[PgConnection]:
        """A read transaction: every query inside sees the same committed state."""
        with self._checked_out() as conn:
            if _in_transaction(conn):  # nested: part of the transaction under way
                yield conn
                return
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            try:
                yield conn
            finally:
                _roll_back(conn)

    def write_behind(self, work: DeferredWrite) -> None:
        """Queue a write the caller need not wait for (it runs in its own transaction)."""
        with self._behind_lock:
            self._behind.append(work)

    def flush_behind(self) -> None:
        """Run the queued writes now."""
        with self._checked_out():
            pass  # the outermost checkout runs them

    def data_version(self) -> int:
        """The store's change counter (every committed write adds one)."""
        with self.locked() as conn:
            return int(conn.execute(schema.READ_DATA_VERSION).fetchone()[0])

    def schema_version(self) -> int:
        """The store's format: owners number their own migrations."""
        return OWNED_VERSIONS

    def schema_versions(self) -> dict[str, int]:
        """How many of its PostgreSQL migrations each owner has run."""
        with self.locked() as conn:
            return schema.done(conn, self.schemas)

    def server_version(self) -> int:
        """The server's version number (150000 and up for PostgreSQL 15)."""
        with self.locked() as conn:
            return conn.raw.info.server_version

    @contextmanager
    def side_connection(self) -> Iterator[PgConnection]:
        """A connection of its own (autocommit), for long work such as an index build that
        must not hold this server's connection; closed afterwards."""
        raw = connect(self._url, self._timeout)
        try:
            with translated(self.location):
                register_vector_type(raw)
                yield PgConnection(raw)
        finally:
            raw.close()

    def size_bytes(self) -> int:
        """The database's size on the server."""
        with self.locked() as conn:
            return int(conn.execute("SELECT pg_database_size(current_database())").fetchone()[0])

    def close(self) -> None:
        """Run the queued writes, then close the idle connections (idempotent; call it once the
        other threads are done)."""
        if self._behind:
            self.flush_behind()
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.raw.close()

    @contextmanager
    def _checked_out(self) -> Iterator[PgConnection]:
        """This thread's connection: the one it holds (a nested call: the same transaction),
        else an idle one or a new one, given back when this outermost checkout ends; the
        outermost runs the queued writes first."""
        held = self._held
        if held.conn is not None:
            with self._failures():
                yield held.conn
            return
        with self._failures():
            held.conn = self._idle_or_new()
        try:
            self._run_behind()
            with self._failures():
                yield held.conn
        finally:
            conn, held.conn = held.conn, None
            if conn is not None and not conn.raw.closed:
                if _in_transaction(conn):  # never left so: a transaction must not carry over
                    conn.raw.close()
                else:
                    with self._idle_lock:
                        self._idle.append(conn)

    def _idle_or_new(self) -> PgConnection:
        with self._idle_lock:
            while self._idle:
                conn = self._idle.pop()
                if not conn.raw.closed:
                    return conn
        return self._connect()

    def _connect(self) -> PgConnection:
        raw = connect(self._url, self._timeout)
        with translated(self.location):
            register_vector_type(raw)
        return PgConnection(raw)

    @contextmanager
    def _failures(self) -> Iterator[None]:
        """Translate failures; drop a connection that broke, so the next call reconnects."""
        try:
            with translated(self.location):
                yield
        except StorageUnavailableError:
            self._drop_broken()
            raise

    def _drop_broken(self) -> None:
        """Close this thread's connection and the idle ones: an outage broke them all."""
        with self._idle_lock:
            broken, self._idle = self._idle, []
        if self._held.conn is not None:
            broken.append(self._held.conn)
            self._held.conn = None
        for conn in broken:
            try:
                conn.raw.close()
            except psycopg.Error as exc:
                log.debug("closing a broken connection: %s", exc)

    def _run_behind(self) -> None:
        """Run queued writes in one transaction (in the outermost checkout). As on SQLite,
        without the before-commit work and the change counter: they are bookkeeping (access
        statistics) that no index or cache follows."""
        conn = self._held.conn
        if not self._behind or conn is None or _in_transaction(conn):
            return
        with self._behind_lock:
            queued, self._behind = self._behind, []
        try:
            with self._failures():
                conn.execute("BEGIN")
                try:
                    conn.execute("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
                    for work in queued:
                        work(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    _roll_back(conn)
                    raise
        except (psycopg.Error, StorageUnavailableError) as exc:
            # Only bookkeeping is queued here: losing it must not fail the caller's request.
            log.warning("dropped %d deferred writes: %s", len(queued), exc)

    def _migrate(self) -> None:
        with self.locked() as conn:
            if schema.is_current(conn, self.schemas):
                return
        with self.write() as conn:
            # Checked again under the write lock: another server may have migrated meanwhile.
            schema.migrate(conn, self.schemas)
        with self.locked() as conn:  # the migrations may have made the vector type
            register_vector_type(conn.raw)


class _Held(threading.local):
    """The connection a thread holds, if any."""

    conn: PgConnection | None = None


def _in_transaction(conn: PgConnection) -> bool:
    return conn.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE


def _roll_back(conn: PgConnection) -> None:
    """End the open transaction, if any (a broken connection has none to end)."""
    raw: psycopg.Connection[Any] = conn.raw
    if raw.closed or raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
        return
    try:
        raw.execute(b"ROLLBACK")
    except psycopg.Error as exc:
        log.warning("could not roll back: %s", exc)
