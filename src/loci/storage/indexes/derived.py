"""What every derived index implements: data kept in a process's memory beside SQLite (the
vectors, passages, times, filter fields, keyword postings), loaded from the store and then kept
in step with it by `IndexSync`, which follows the change log."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from loci.storage.databases.db import Connection

Progress = Callable[[int, int], None]


class MemoryChanges(NamedTuple):
    """A batch of the change log, read once for every index: the memories it names (sorted),
    the rows (seq, namespace, embedding, content) of those still stored, and those gone; the
    entries after `since` up to `through` (an index loaded lazily, at a position of its own,
    compares them with it)."""

    touched: list[int]
    stored: list[Sequence[Any]]
    gone: list[int]
    since: int = -1
    through: int = -1


class DerivedIndex(Protocol):
    """Data derived from the store that a process keeps in memory."""

    def prepare(self, conn: Connection) -> None:
        """Make what it needs on this connection (once, outside any transaction)."""
        ...

    def load(self, conn: Connection, progress: Progress | None = None) -> None:
        """Read everything it holds from the store (inside a read transaction)."""
        ...

    def apply(self, conn: Connection, changes: MemoryChanges) -> None:
        """Follow a batch of changes (inside a read transaction)."""
        ...

    def clear(self) -> None:
        """Drop everything it holds."""
        ...
