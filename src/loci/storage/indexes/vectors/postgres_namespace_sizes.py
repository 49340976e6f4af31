"""Which namespaces are small, from PostgreSQL's own statistics: an HNSW graph built over a
large namespace can leave a small one far from it unreachable (its nodes link among
themselves), so a search ranks the small namespaces exactly beside the index."""

from __future__ import annotations

import threading
import time
from typing import NamedTuple

from loci.storage.databases.db import Connection

#: The most memories the namespaces ranked exactly beside an HNSW search may hold together.
EXACT_BESIDE = 10_000
#: How long the statistics read are used (seconds); ANALYZE renews them far less often.
READ_EVERY_SECONDS = 60.0


class Split(NamedTuple):
    """The namespaces a search wants, split by size."""

    small: frozenset[str] | None  # ranked exactly (None: every namespace not large)
    large: frozenset[str]  # searched through the HNSW index
    every_large: frozenset[str]  # the large namespaces, wanted or not


class NamespaceSizes:
    """The split of namespaces into small and large, as the planner's statistics estimate
    their sizes (most common values and their frequencies of `memories.namespace`)."""

    def __init__(self, exact_beside: int = EXACT_BESIDE) -> None:
        self._exact_beside = exact_beside
        self._lock = threading.Lock()
        self._read_at = 0.0
        self._large: frozenset[str] | None = None  # None: no statistics, or too much beside

    def split(self, conn: Connection, wanted: frozenset[str] | None) -> Split | None:
        """The small and the large among `wanted` (None: every namespace); None when there is
        nothing to split (no statistics yet, or the small namespaces hold too many memories)."""
        large = self._large_namespaces(conn)
        if large is None:
            return None
        if wanted is None:
            return Split(None, large, large)
        return Split(wanted - large, wanted & large, large)

    def _large_namespaces(self, conn: Connection) -> frozenset[str] | None:
        with self._lock:
            if time.monotonic() - self._read_at < READ_EVERY_SECONDS and self._read_at:
                return self._large
        row = conn.execute(
            "SELECT s.most_common_vals::text::text[], s.most_common_freqs, c.reltuples "
            "FROM pg_stats s JOIN pg_class c ON c.relname = s.tablename "
            "AND c.relnamespace = to_regnamespace(s.schemaname) "
            "WHERE s.schemaname = current_schema() AND s.tablename = 'memories' "
            "AND s.attname = 'namespace'"
        ).fetchone()
        large = None if row is None else self._large_of(row[0] or [], row[1] or [], row[2])
        with self._lock:
            self._large, self._read_at = large, time.monotonic()
        return large

    def _large_of(
        self, values: list[str], frequencies: list[float], rows: float
    ) -> frozenset[str] | None:
        """The namespaces too large to rank exactly; None when the others together are."""
        large = {
            value
            for value, share in zip(values, frequencies, strict=True)
            if share * rows > self._exact_beside
        }
        shares = dict(zip(values, frequencies, strict=True))
        beside = rows * (1.0 - sum(shares[value] for value in large))
        return frozenset(large) if beside <= self._exact_beside else None
