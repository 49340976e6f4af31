"""Vector search in PostgreSQL (pgvector): the `VectorIndex` of the PostgreSQL engine.

The vectors are the memories' own rows (`memory_vectors`); a server keeps no copy of them.
A search is exact (a scan ordered by inner product; vectors are unit length, so that is cosine
similarity) while the store is small or the allowed memories are few, and goes through an HNSW
index above `hnsw_from` vectors. pgvector's iterative index scans keep a filtered HNSW search
returning `k` allowed vectors. The HNSW index is made by :meth:`warm` once the store is large
enough (every server may call it; the first one builds it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from loci.storage.db import Connection, Database
from loci.storage.vector_blob import VectorBlob
from loci.storage.vector_index import Allowed, FloatMatrix, Hit, KeyArray

#: Stores at least this big are searched through the HNSW index.
HNSW_FROM = 20_000
#: Candidates an HNSW search keeps (pgvector's `hnsw.ef_search`): agreement with exact search
#: at top 10 is what `benchmarks/bench_memory.py --database` reports.
EF_SEARCH = 200
#: Allowed memories this few or fewer are ranked exactly, whatever the store's size.
EXACT_UP_TO = 5_000


class PgVectorIndex:
    """The vectors of `memory_vectors`, searched by the database."""

    def __init__(
        self,
        db: Database,
        dimensions: int,
        hnsw_from: int = HNSW_FROM,
        ef_search: int = EF_SEARCH,
    ) -> None:
        self._db = db
        self._dimensions = dimensions
        self._hnsw_from = hnsw_from
        self._ef_search = ef_search
        # The index's expression, which queries must repeat for the planner to use it.
        self._typed = f"(v.embedding::vector({dimensions}))"
        self._index_name = f"memory_vectors_hnsw_{dimensions}"

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
            return int(conn.execute("SELECT count(*) FROM memory_vectors").fetchone()[0])

    def warm(self) -> None:
        """Make the HNSW index once the store is large enough for it to pay."""
        if self.count() < self._hnsw_from:
            return
        with self._db.write() as conn:
            conn.execute(
                f"CREATE INDEX IF NOT EXISTS {self._index_name} ON memory_vectors "
                f"USING hnsw ((embedding::vector({self._dimensions})) vector_ip_ops)"
            )

    def get(self, key: int) -> FloatMatrix | None:
        """The stored vector of `key`, or None."""
        with self._db.locked() as conn:
            row = conn.execute(
                "SELECT embedding FROM memory_vectors WHERE seq = ?", (key,)
            ).fetchone()
        return None if row is None else np.frombuffer(row[0], dtype=np.float32).copy()

    def similarities(self, query: FloatMatrix, keys: KeyArray) -> npt.NDArray[np.float64]:
        """Cosine similarity of `query` to each key (NaN for keys not stored)."""
        found = np.full(keys.shape[0], np.nan)
        if keys.shape[0] == 0:
            return found
        with self._db.locked() as conn:
            rows = conn.execute(
                "SELECT v.seq, -(v.embedding <#> ?) FROM memory_vectors v WHERE v.seq = ANY(?)",
                (_blob(query), keys.tolist()),
            ).fetchall()
        where = {int(seq): float(similarity) for seq, similarity in rows}
        for position, key in enumerate(keys.tolist()):
            found[position] = where.get(int(key), np.nan)
        return found

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` allowed vectors most similar to `query`, best first (ties by key)."""
        if k <= 0 or (allowed is not None and allowed.keys is not None and not allowed.keys.size):
            return []
        conditions, params = _conditions(allowed)
        joined = "JOIN memories m ON m.seq = v.seq" if "m." in conditions else ""
        with self._db.snapshot() as conn:
            if self._approximate(conn, allowed):
                conn.execute(f"SET LOCAL hnsw.ef_search = {int(self._ef_search)}")
                conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                # The size says HNSW; the planner's guess from stale statistics may not.
                conn.execute("SET LOCAL enable_seqscan = off")
                # Ordered by the distance alone: a second key would bypass the index.
                distance = f"{self._typed} <#> ?::vector({self._dimensions})"
                order = "d"
            else:
                distance, order = "v.embedding <#> ?", "d, v.seq"
            rows = conn.execute(
                f"SELECT v.seq, {distance} AS d FROM memory_vectors v {joined} "
                f"WHERE {conditions} ORDER BY {order} LIMIT ?",
                [_blob(query), *params, k],
            ).fetchall()
        # An HNSW scan in relaxed order may return its last hits slightly out of order.
        hits = sorted((Hit(int(seq), -float(d)) for seq, d in rows), key=_best_first)
        return hits[:k]

    def _approximate(self, conn: Connection, allowed: Allowed | None) -> bool:
        """Whether to search through the HNSW index (it exists, and many may answer)."""
        if allowed is not None and allowed.keys is not None and allowed.keys.size <= EXACT_UP_TO:
            return False
        made = conn.execute("SELECT to_regclass(?) IS NOT NULL", (self._index_name,))
        return bool(made.fetchone()[0])


def _conditions(allowed: Allowed | None) -> tuple[str, list[Any]]:
    parts, params = ["TRUE"], []
    if allowed is not None and allowed.namespaces is not None:
        parts.append("m.namespace = ANY(?)")
        params.append(sorted(allowed.namespaces))
    if allowed is not None and allowed.keys is not None:
        parts.append("v.seq = ANY(?)")
        params.append(allowed.keys.tolist())
    return " AND ".join(parts), params


def _blob(query: FloatMatrix) -> VectorBlob:
    return VectorBlob(np.ascontiguousarray(query, dtype="<f4").tobytes())


def _best_first(hit: Hit) -> tuple[float, int]:
    return (-hit.similarity, hit.key)
