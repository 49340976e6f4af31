"""The passages of long memories, searched in PostgreSQL: a server keeps none of them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from loci.storage.postgres.database import PostgresDatabase
from loci.storage.postgres.vectors import HNSW_FROM, PgVectorIndex
from loci.storage.vector_index import Allowed, FloatMatrix, Hit, KeyArray


class PgPassageIndex:
    """The `passages` table's vectors, searched by the database (pgvector, exact or HNSW by
    size, as the memories' own vectors are); hits are memories, each by its best passage."""

    def __init__(self, db: PostgresDatabase, dimensions: int, hnsw_from: int = HNSW_FROM) -> None:
        self._db = db
        self._vectors = PgVectorIndex(db, dimensions, hnsw_from, table="passages")

    def warm(self) -> None:
        """Build the passages' HNSW index now if there are enough of them for it to pay."""
        self._vectors.warm()

    def holds_any(self) -> bool:
        """Whether any memory has passages."""
        with self._db.snapshot() as conn:
            return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM passages)").fetchone()[0])

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` memories whose best passage is most similar to `query`, best first."""
        best: dict[int, float] = {}
        for hit in self._vectors.search(query, 3 * k, allowed):
            best.setdefault(hit.key, hit.similarity)
        return [Hit(seq, similarity) for seq, similarity in list(best.items())[:k]]

    def best(self, query: FloatMatrix, seqs: KeyArray) -> npt.NDArray[np.float64]:
        """Each memory's best passage similarity to `query` (NaN for one without passages)."""
        return self._vectors.similarities(query, seqs)
