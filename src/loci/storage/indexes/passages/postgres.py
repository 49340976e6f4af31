"""The passages of long memories, searched in PostgreSQL; while they are few, held in the
server (`vectors.postgres_small`): a search beside every recall then costs no scan of them all."""

from __future__ import annotations

import threading
import time

import numpy as np
import numpy.typing as npt

from loci.storage.databases.db import Connection
from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.indexes.vectors.postgres import HNSW_FROM, PgVectorIndex
from loci.storage.indexes.vectors.postgres_namespace_sizes import EXACT_BESIDE
from loci.storage.indexes.vectors.postgres_small import SmallVectors
from loci.storage.indexes.vectors.protocol import Allowed, FloatMatrix, Hit, KeyArray

#: How often the number of passages is counted again (seconds).
COUNT_EVERY_SECONDS = 60.0
NONE_LARGE: frozenset[str] = frozenset()


class PgPassageIndex:
    """The `passages` table's vectors, searched by the database (pgvector, exact or HNSW by
    size, as the memories' own vectors are) or, while at most `hold_up_to`, held in the
    server; hits are memories, each by its best passage."""

    def __init__(
        self,
        db: PostgresDatabase,
        dimensions: int,
        hnsw_from: int = HNSW_FROM,
        hold_up_to: int = EXACT_BESIDE,
    ) -> None:
        """`hold_up_to`: the most passages held in the server (0: none)."""
        self._db = db
        self._vectors = PgVectorIndex(db, dimensions, hnsw_from, table="passages")
        self._held = SmallVectors("passages", dimensions)
        self._hold_up_to = hold_up_to
        self._lock = threading.Lock()
        self._few = (False, 0.0)  # (whether the passages are few enough to hold, when counted)

    @property
    def held(self) -> SmallVectors:
        """The passages held in this process while few: a derived index for `IndexSync` to
        keep in step with the store."""
        return self._held

    def warm(self) -> None:
        """Build the passages' HNSW index now if there are enough of them for it to pay."""
        self._vectors.warm()

    def holds_any(self) -> bool:
        """Whether any memory has passages."""
        with self._db.snapshot() as conn:
            return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM passages)").fetchone()[0])

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` memories whose best passage is most similar to `query`, best first."""
        if k <= 0:
            return []
        # Only namespaces filter the held passages; any other filter is the database's.
        unfiltered = allowed is None or (allowed.keys is None and allowed.where is None)
        namespaces = None if allowed is None else allowed.namespaces
        with self._db.locked() as conn:
            held = unfiltered and self._holds(conn)
            rows = self._held.nearest(conn, query, 3 * k, namespaces, NONE_LARGE) if held else []
        if held:
            hits = [Hit(seq, -distance) for seq, distance in rows]
        else:
            hits = self._vectors.search(query, 3 * k, allowed)
        best: dict[int, float] = {}
        for hit in hits:
            best.setdefault(hit.key, hit.similarity)
        return [Hit(seq, similarity) for seq, similarity in list(best.items())[:k]]

    def best(self, query: FloatMatrix, seqs: KeyArray) -> npt.NDArray[np.float64]:
        """Each memory's best passage similarity to `query` (NaN for one without passages)."""
        with self._db.locked() as conn:
            if self._holds(conn):
                return self._held.best(conn, query, seqs, NONE_LARGE)
        return self._vectors.similarities(query, seqs)

    def _holds(self, conn: Connection) -> bool:
        """Whether the passages are few enough to hold (counted at most every
        COUNT_EVERY_SECONDS, never past `hold_up_to` of them)."""
        with self._lock:
            few, counted_at = self._few
            if counted_at and time.monotonic() - counted_at < COUNT_EVERY_SECONDS:
                return few
        count = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM passages LIMIT ?) AS p", (self._hold_up_to + 1,)
        ).fetchone()[0]
        few = 0 < int(count) <= self._hold_up_to
        with self._lock:
            self._few = (few, time.monotonic())
        if not few:  # grown past it (or emptied): the database searches them from now on
            self._held.clear()
        return few
