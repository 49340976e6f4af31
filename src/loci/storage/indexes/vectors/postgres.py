"""Vector search in PostgreSQL (pgvector): the `VectorIndex` of the PostgreSQL engine.

The vectors are the memories' own rows (`memory_vectors`, or the `passages` of long memories:
any table of vectors with the `seq` of their memory); a server keeps no copy of them.
A search is exact (a scan ordered by inner product; vectors are unit length, so that is cosine
similarity) while the store is small or the allowed memories are few, and goes through an HNSW
index above `hnsw_from` vectors. pgvector's iterative index scans keep a filtered HNSW search
returning `k` allowed vectors.

The HNSW index is built concurrently (writes go on meanwhile) on a connection of its own: by
:meth:`warm` when a server starts on a large store, or in the background once a store grows
past `hnsw_from` (checked at most once a minute, from the table's statistics). Several servers
may try at once; the first builds it.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.errors import StorageUnavailableError
from loci.storage.databases.db import Connection
from loci.storage.databases.postgres.connection import PgConnection
from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.databases.vector_blob import VectorBlob
from loci.storage.indexes.vectors.postgres_namespace_sizes import NamespaceSizes, Split
from loci.storage.indexes.vectors.postgres_small import SmallVectors
from loci.storage.indexes.vectors.protocol import Allowed, FloatMatrix, Hit, KeyArray

log = logging.getLogger("loci.store")

#: Stores at least this big are searched through the HNSW index.
HNSW_FROM = 20_000
#: Candidates an HNSW search keeps (pgvector's `hnsw.ef_search`): the fewest with which the
#: top 10 agree with an exact search on 0.95 of a store of a million distinct memories (what
#: `benchmarks/bench_memory.py --database` reports).
EF_SEARCH = 400
#: The HNSW graph's links per vector (pgvector's `m`, its default).
HNSW_LINKS = 16
#: Candidates kept while linking a vector into the graph (pgvector's `ef_construction`; its
#: default, 64, leaves a small topic far from the rest hard to reach: measured in
#: `benchmarks/bench_memory.py --database`).
HNSW_BUILD_CANDIDATES = 200
#: Allowed memories this few or fewer are ranked exactly, whatever the store's size.
EXACT_UP_TO = 5_000
#: How many times the hits wanted a filtered HNSW scan fetches, to rank them exactly: its
#: iterative scan returns them in a looser order.
FILTERED_FETCH = 2
#: How long a search trusts what it read of the HNSW index's state (seconds): an index
#: another server builds is used from at most this long after it is ready.
INDEX_CHECK_SECONDS = 30.0
#: The advisory lock an HNSW build holds ("hnsw" in ASCII).
BUILD_LOCK = 0x686E7377
#: How often a build waiting for another one asks again (seconds).
BUILD_POLL_SECONDS = 0.5
#: How often a server without the HNSW index looks at the store's size (seconds).
SIZE_CHECK_SECONDS = 60.0
#: Memory an index build may use, per vector (its values and graph links), and at most: a
#: build whose graph does not fit spills to disk and runs several times slower.
BUILD_BYTES_PER_VECTOR = 2_500
MAX_BUILD_MEMORY_MB = 2_048


class PgVectorIndex:
    """The vectors of a table (`memory_vectors` by default), searched by the database; hits
    are the memories' seqs."""

    def __init__(
        self,
        db: PostgresDatabase,
        dimensions: int,
        hnsw_from: int = HNSW_FROM,
        ef_search: int = EF_SEARCH,
        table: str = "memory_vectors",
    ) -> None:
        self._db = db
        self._table = table
        self._dimensions = dimensions
        self._hnsw_from = hnsw_from
        self._ef_search = ef_search
        # The index's expression, which queries must repeat for the planner to use it.
        self._typed = f"(v.embedding::vector({dimensions}))"
        self._index_name = f"{table}_hnsw_{dimensions}"
        self._size_checked = 0.0
        self._builder: threading.Thread | None = None
        self._lock = threading.Lock()
        self._sizes = NamespaceSizes()
        self._small = SmallVectors(table, dimensions)
        self._index_ready = (False, 0.0)  # (whether the HNSW index is ready, when read)
        # The ef_search each connection was given for unfiltered searches.
        self._session_settings: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()

    @property
    def held(self) -> SmallVectors:
        """The small namespaces' vectors, held in this process: a derived index for
        `IndexSync` to keep in step with the store."""
        return self._small

    def upsert(self, keys: Sequence[int], vectors: FloatMatrix, namespaces: Sequence[str]) -> None:
        """Nothing to do: the vectors are written with their memories."""
        del keys, vectors, namespaces

    def delete(self, keys: Sequence[int]) -> None:
        """Nothing to do: the vectors go with their memories."""
        del keys

    def reserve(self, count: int) -> None:
        """Nothing to reserve."""
        del count

    def clear(self) -> None:
        """Nothing held here."""

    def count(self) -> int:
        """How many vectors the store holds."""
        with self._db.locked() as conn:
            return int(conn.execute(f"SELECT count(*) FROM {self._table}").fetchone()[0])

    def warm(self) -> None:
        """Build the HNSW index now if the store is large enough for it to pay (waiting for a
        build another server or thread has under way)."""
        rows = self.count()
        if rows < self._hnsw_from:
            return
        memory_mb = min(MAX_BUILD_MEMORY_MB, max(64, rows * BUILD_BYTES_PER_VECTOR >> 20))
        with self._db.side_connection() as conn:
            # One build at a time across every server: two concurrent builds deadlock. The
            # lock is polled, not waited for: a statement waiting for it would hold a snapshot
            # that the build holding it waits for in turn.
            while not conn.execute("SELECT pg_try_advisory_lock(?)", (BUILD_LOCK,)).fetchone()[0]:
                time.sleep(BUILD_POLL_SECONDS)
            try:
                if self._invalid_index(conn):  # left by a build that failed: start again
                    conn.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {self._index_name}")
                conn.execute(f"SET maintenance_work_mem = '{int(memory_mb)}MB'")
                conn.execute(
                    f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {self._index_name} "
                    f"ON {self._table} USING hnsw "
                    f"((embedding::vector({self._dimensions})) vector_ip_ops) "
                    f"WITH (m = {HNSW_LINKS}, ef_construction = {HNSW_BUILD_CANDIDATES})"
                )
            finally:
                conn.execute("SELECT pg_advisory_unlock(?)", (BUILD_LOCK,))
        with self._lock:
            self._index_ready = (False, 0.0)  # read again at the next search

    def _invalid_index(self, conn: Connection) -> bool:
        found = conn.execute(
            "SELECT NOT indisvalid FROM pg_index WHERE indexrelid = "
            "to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))",
            (self._index_name,),
        ).fetchone()
        return found is not None and bool(found[0])

    def get(self, key: int) -> FloatMatrix | None:
        """The stored vector of `key`, or None."""
        with self._db.locked() as conn:
            row = conn.execute(
                f"SELECT embedding FROM {self._table} WHERE seq = ?", (key,)
            ).fetchone()
        return None if row is None else np.frombuffer(row[0], dtype=np.float32).copy()

    def similarities(self, query: FloatMatrix, keys: KeyArray) -> npt.NDArray[np.float64]:
        """Cosine similarity of `query` to each key (NaN for keys not stored; the best of a
        key's vectors in a table holding several per memory)."""
        found = np.full(keys.shape[0], np.nan)
        if keys.shape[0] == 0:
            return found
        with self._db.locked() as conn:
            rows = conn.execute(
                f"SELECT v.seq, max(-(v.embedding <#> ?)) FROM {self._table} v "
                "WHERE v.seq = ANY(?) GROUP BY v.seq",
                (_blob(query), keys.tolist()),
            ).fetchall()
        where = {int(seq): float(similarity) for seq, similarity in rows}
        for position, key in enumerate(keys.tolist()):
            found[position] = where.get(int(key), np.nan)
        return found

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` allowed vectors most similar to `query`, best first (ties by key)."""
        return self._search(query, k, allowed, approximate=True)

    def exact_search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """As :meth:`search`, always by an exact scan (what the HNSW index is measured by)."""
        return self._search(query, k, allowed, approximate=False)

    def _search(
        self, query: FloatMatrix, k: int, allowed: Allowed | None, approximate: bool
    ) -> list[Hit]:
        if k <= 0 or (allowed is not None and allowed.keys is not None and not allowed.keys.size):
            return []
        vector = _blob(query)
        with self._db.locked() as conn:
            approximate = approximate and self._approximate(conn, allowed)
            if not approximate:  # one statement: no transaction needed
                rows = self._exact(conn, vector, k, allowed)
            elif allowed is None:  # nothing to filter: the connection's own settings do
                rows = self._unfiltered_rows(conn, query, k)
        if approximate and allowed is not None:  # its settings hold for the transaction
            with self._db.snapshot() as conn:
                rows = self._approximate_rows(conn, query, k, allowed)
        # An HNSW scan in relaxed order may return its hits slightly out of order, and a
        # memory may be found by it and among the small namespaces' held vectors as well.
        best: dict[int, float] = {}
        for seq, distance in rows:
            best[int(seq)] = max(best.get(int(seq), -np.inf), -float(distance))
        return sorted(itertools.starmap(Hit, best.items()), key=_best_first)[:k]

    def _unfiltered_rows(self, conn: PgConnection, query: FloatMatrix, k: int) -> list[Any]:
        """The HNSW scan's rows over every vector, with the small namespaces' (see
        `postgres_small`): statements of their own, the search's settings made once per
        connection."""
        with self._lock:
            given = self._session_settings.get(conn.raw)
        if given != self._ef_search:
            conn.execute(
                "SELECT set_config('hnsw.ef_search', ?, false), "
                "set_config('hnsw.iterative_scan', 'relaxed_order', false)",
                (str(int(self._ef_search)),),
            )
            with self._lock:
                self._session_settings[conn.raw] = self._ef_search
        split = self._sizes.split(conn, None)
        vector = _blob(query)
        rows = self._through_hnsw(conn, vector, k, None)
        if len(rows) < k:  # fewer vectors than asked for
            rows = self._exact(conn, vector, k, None)
        if split is None:  # too many beside the large namespaces: the index's scan alone
            self._small.clear()
        else:
            rows = self._small.merged(conn, query, k, split.every_large, rows)
        return rows

    def _approximate_rows(
        self, conn: Connection, query: FloatMatrix, k: int, allowed: Allowed
    ) -> list[Any]:
        """The rows through the HNSW index, with the small namespaces' (see `postgres_small`)."""
        split = self._split(conn, allowed)
        rows: list[Any] = []
        if split is None or split.large:
            indexed = allowed if split is None else Allowed(split.large)
            rows += self._indexed_rows(conn, _blob(query), k, indexed)
        if split is not None and split.small:
            rows += self._small.nearest(conn, query, k, split.small, split.every_large)
        return rows

    def _indexed_rows(
        self, conn: Connection, vector: VectorBlob, k: int, allowed: Allowed | None
    ) -> list[Any]:
        """The HNSW scan's rows, or an exact scan's when a filter leaves it short of `k`."""
        # The size says HNSW; the planner's guess from stale statistics may not (no sequential
        # scan). The exact scan after a filter ran the HNSW scan dry ranks the few it admits:
        # starting parallel workers costs more than it.
        conn.execute(
            "SELECT set_config('max_parallel_workers_per_gather', '0', true), "
            "set_config('hnsw.ef_search', ?, true), "
            "set_config('hnsw.iterative_scan', 'relaxed_order', true), "
            "set_config('enable_seqscan', 'off', true)",
            (str(int(self._ef_search)),),
        )
        found = self._through_hnsw(conn, vector, k, allowed)
        if len(found) >= k:
            return found
        conn.execute("SELECT set_config('enable_seqscan', 'on', true)")
        return self._exact(conn, vector, k, allowed)

    def _split(self, conn: Connection, allowed: Allowed) -> Split | None:
        """The small and large namespaces the search wants, when it wants only namespaces."""
        if allowed.keys is not None or allowed.where is not None or allowed.namespaces is None:
            return None
        return self._sizes.split(conn, allowed.namespaces)

    def _exact(
        self, conn: Connection, vector: VectorBlob, k: int, allowed: Allowed | None
    ) -> list[Any]:
        select, params = self._select("v.embedding <#> ?", allowed)
        return conn.execute(f"{select} ORDER BY d, v.seq LIMIT ?", [vector, *params, k]).fetchall()

    def _through_hnsw(
        self, conn: Connection, vector: VectorBlob, k: int, allowed: Allowed | None
    ) -> list[Any]:
        """The HNSW scan's hits; a filtered scan fetches more than `k`, its order being looser."""
        fetched = k if allowed is None else FILTERED_FETCH * k
        # Ordered by the distance alone: a second key would bypass the index.
        select, params = self._select(f"{self._typed} <#> ?::vector({self._dimensions})", allowed)
        return conn.execute(f"{select} ORDER BY d LIMIT ?", [vector, *params, fetched]).fetchall()

    def _select(self, distance: str, allowed: Allowed | None) -> tuple[str, list[Any]]:
        """The SELECT of (seq, distance) of the allowed vectors, and its parameters after the
        query vector's (the memories' conditions as a join)."""
        on_vectors, on_memories = _conditions(allowed)
        source = f"{self._table} v"
        if on_memories:
            source += " JOIN memories m ON m.seq = v.seq"
            on_vectors += on_memories
        sql, params = _joined(on_vectors)
        return f"SELECT v.seq, {distance} AS d FROM {source} WHERE {sql}", params

    def _approximate(self, conn: Connection, allowed: Allowed | None) -> bool:
        """Whether to search through the HNSW index (it exists, and many may answer); starts
        building it when a store without one has grown large enough."""
        if not self._has_index(conn):
            self._build_when_large(conn)
            return False
        return allowed is None or allowed.keys is None or allowed.keys.size > EXACT_UP_TO

    def _build_when_large(self, conn: Connection) -> None:
        with self._lock:
            now = time.monotonic()
            if self._builder is not None and self._builder.is_alive():
                return
            if now - self._size_checked < SIZE_CHECK_SECONDS and self._size_checked:
                return
            self._size_checked = now
        estimate = conn.execute(
            "SELECT reltuples FROM pg_class WHERE oid = "
            "to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))",
            (self._table,),
        ).fetchone()
        if estimate is None or float(estimate[0]) < self._hnsw_from:
            return
        self._builder = threading.Thread(target=self._build, name="loci-hnsw", daemon=True)
        self._builder.start()

    def _build(self) -> None:
        try:
            self.warm()
        except StorageUnavailableError as exc:  # tried again at the next size check
            log.warning("could not build the vector index: %s", exc.message)

    def _has_index(self, conn: Connection) -> bool:
        """Whether the HNSW index exists and is ready (one being built is not); what was read
        is trusted for INDEX_CHECK_SECONDS."""
        with self._lock:
            ready, read_at = self._index_ready
            if read_at and time.monotonic() - read_at < INDEX_CHECK_SECONDS:
                return ready
        found = conn.execute(
            "SELECT coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = "
            "to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))), FALSE)",
            (self._index_name,),
        )
        ready = bool(found.fetchone()[0])
        with self._lock:
            self._index_ready = (ready, time.monotonic())
        return ready


#: SQL conditions, each with its parameters.
Conditions = list[tuple[str, list[Any]]]


def _conditions(allowed: Allowed | None) -> tuple[Conditions, Conditions]:
    """What `allowed` asks of the vectors (`v`), and of their memories (`m`)."""
    if allowed is None:
        return [], []
    on_vectors: Conditions = []
    on_memories: Conditions = []
    if allowed.keys is not None:
        on_vectors.append(("v.seq = ANY(?)", [allowed.keys.tolist()]))
    if allowed.namespaces is not None:
        on_memories.append(("m.namespace = ANY(?)", [sorted(allowed.namespaces)]))
    if allowed.where is not None:
        on_memories.append((f"({allowed.where})", list(allowed.params)))
    return on_vectors, on_memories


def _joined(conditions: Conditions) -> tuple[str, list[Any]]:
    """The conditions as one (TRUE for none), and their parameters in order."""
    sql = " AND ".join(["TRUE", *(condition for condition, _ in conditions)])
    return sql, [param for _, params in conditions for param in params]


def _blob(query: FloatMatrix) -> VectorBlob:
    return VectorBlob(np.ascontiguousarray(query, dtype="<f4").tobytes())


def _best_first(hit: Hit) -> tuple[float, int]:
    return (-hit.similarity, hit.key)
