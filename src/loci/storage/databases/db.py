"""What the services see of the system of record, whichever engine keeps it.

SQLite (`storage.databases.sqlite`, the embedded default) and PostgreSQL
(`storage.databases.postgres`, for teams) both hand out connections that run the same SQL:
`?` placeholders, `ON CONFLICT`, `RETURNING`, `count(*)` and the other statements both
engines understand. A store whose SQL
differs between them keeps one implementation per engine behind its own Protocol.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal, Protocol

#: The engines loci runs on.
Engine = Literal["sqlite", "postgresql"]


class Rows(Protocol):
    """The result of one statement (a DB-API cursor)."""

    @property
    def description(self) -> Any:
        """The result's columns (each a sequence whose first item is the name)."""
        ...

    @property
    def rowcount(self) -> int:
        """How many rows the statement changed (-1 where the engine does not say)."""
        ...

    def fetchone(self) -> Any:
        """The next row as a tuple, or None."""
        ...

    def fetchall(self) -> list[Any]:
        """The remaining rows as tuples."""
        ...

    def fetchmany(self, size: int = ...) -> list[Any]:
        """Up to `size` of the remaining rows."""
        ...

    def __iter__(self) -> Iterator[Any]:
        """The remaining rows as tuples, one by one."""
        ...


class Connection(Protocol):
    """A connection inside one of :class:`Database`'s blocks."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Rows:
        """Run one statement with `?` placeholders."""
        ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Rows:
        """Run one statement once per parameter row."""
        ...


#: A write that may run after its caller has returned (see :meth:`Database.write_behind`).
DeferredWrite = Callable[[Connection], None]
#: Work that runs inside every write transaction just before it commits.
BeforeCommit = Callable[[Connection], object]


class ConstraintError(Exception):
    """A statement broke a uniqueness, foreign-key or check constraint on PostgreSQL."""


#: What a statement that broke a constraint raises, on either engine.
CONSTRAINT_ERRORS = (sqlite3.IntegrityError, ConstraintError)


class Database(Protocol):
    """One process's way into the system of record.

    Writes are serialised across every process of the store (SQLite's write lock, an advisory
    lock on PostgreSQL), so a read-then-write inside :meth:`write` sees no other writer.
    """

    @property
    def engine(self) -> Engine:
        """Which engine keeps the store."""
        ...

    @property
    def location(self) -> str:
        """Where the store is, safe to show (a path, or a URL with its password masked)."""
        ...

    def locked(self) -> AbstractContextManager[Connection]:
        """Exclusive use of the connection for a few reads (each sees the latest commits)."""
        ...

    def write(self) -> AbstractContextManager[Connection]:
        """A write transaction: all of it commits, or none of it does."""
        ...

    def snapshot(self) -> AbstractContextManager[Connection]:
        """A read transaction: every query inside sees the same committed state."""
        ...

    def claim(self, name: str) -> AbstractContextManager[bool]:
        """Hold `name` against every other process of the store while the block runs: True
        if this one holds it, False if another does. A claim ends with the block, or with the
        process however it ends (killed too): a long job claims its work so that a second
        copy of it started by mistake is refused, not run beside it."""
        ...

    def write_behind(self, work: DeferredWrite) -> None:
        """Queue bookkeeping the caller need not wait for (access statistics): it runs in its
        own transaction, without the before-commit work, and must change nothing that an
        index or a cache follows (the store's change counter does not move)."""
        ...

    def flush_behind(self) -> None:
        """Run the queued writes now."""
        ...

    def data_version(self) -> int:
        """A number that changes when another process commits."""
        ...

    def schema_version(self) -> int:
        """The store's format number."""
        ...

    def schema_versions(self) -> dict[str, int]:
        """How many of its migrations each owner has run."""
        ...

    def size_bytes(self) -> int:
        """How much disk the store takes."""
        ...

    def close(self) -> None:
        """Run the queued writes and let the connection go (idempotent)."""
        ...
