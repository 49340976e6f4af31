"""Passages of long memories: spans of a memory's text embedded on their own, so that the
vector search sees every word of a memory longer than the model reads.

SQLite keeps each passage's span and vector (`passages`, deleted with its memory); each process
mirrors them in a vector index of their own, kept in step from the same change log as the
memories' vectors. A search over passages answers by memory: its best passage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from loci.storage.databases.db import Connection
from loci.storage.indexes.derived import MemoryChanges, Progress
from loci.storage.indexes.vectors.embedded import EmbeddedIndex
from loci.storage.indexes.vectors.protocol import Allowed, FloatMatrix, Hit, KeyArray
from loci.storage.memory_tables.passages import ALL, read_of


class PassageSearch(Protocol):
    """What recall asks of the passages of long memories: the SQLite engine mirrors them
    (:class:`PassageIndex`), PostgreSQL searches its table."""

    def holds_any(self) -> bool:
        """Whether any memory has passages."""
        ...

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` memories whose best passage is most similar to `query`, best first."""
        ...

    def best(self, query: FloatMatrix, seqs: KeyArray) -> npt.NDArray[np.float64]:
        """Each memory's best passage similarity to `query` (NaN for one without passages)."""
        ...

    def warm(self) -> None:
        """Build now what its searches use."""
        ...


class PassageIndex:
    """The passages' vectors by passage id, searched and scored by memory."""

    def __init__(self, dimensions: int) -> None:
        self._dimensions = dimensions
        self._index = EmbeddedIndex(dimensions, fast_scan_from=None)
        self._memory_of: dict[int, int] = {}  # passage id -> memory seq
        self._of_memory: dict[int, list[int]] = {}  # memory seq -> passage ids
        self._arrays: tuple[KeyArray, KeyArray] | None = None  # (ids, seqs), built when asked

    def count(self) -> int:
        """How many passages are held."""
        return len(self._memory_of)

    def holds_any(self) -> bool:
        """Whether any memory has passages."""
        return bool(self._memory_of)

    def warm(self) -> None:
        """Nothing to build: the passages are read with the store's other mirrors."""

    def clear(self) -> None:
        """Drop every passage (before a full load)."""
        self._index.clear()
        self._memory_of.clear()
        self._of_memory.clear()
        self._arrays = None

    def add(self, rows: Iterable[Sequence[Any]]) -> None:
        """Take rows (id, memory seq, namespace, vector) as `ALL` reads them; damaged vectors
        (not of the model's size) are left out."""
        size = self._dimensions * 4
        kept = [row for row in rows if isinstance(row[3], bytes) and len(row[3]) == size]
        if not kept:
            return
        vectors = np.frombuffer(b"".join(row[3] for row in kept), dtype=np.float32)
        self._index.upsert(
            [int(row[0]) for row in kept],
            vectors.reshape(len(kept), self._dimensions),
            [row[2] for row in kept],
        )
        for row in kept:
            self._memory_of[int(row[0])] = int(row[1])
            self._of_memory.setdefault(int(row[1]), []).append(int(row[0]))
        self._arrays = None

    def prepare(self, conn: Connection) -> None:
        """Nothing to make."""
        del conn

    def load(self, conn: Connection, progress: Progress | None = None) -> None:
        """Read every passage."""
        del progress
        self.clear()
        self.add(conn.execute(ALL).fetchall())

    def apply(self, conn: Connection, changes: MemoryChanges) -> None:
        """Read the passages of the changed memories anew."""
        self.drop_memories(changes.touched)
        present = sorted(int(row[0]) for row in changes.stored)
        self.add(read_of(conn, present))

    def drop_memories(self, seqs: Iterable[int]) -> None:
        """Forget the passages of these memories."""
        gone = [pid for seq in seqs for pid in self._of_memory.pop(seq, ())]
        if gone:
            self._index.delete(gone)
            for pid in gone:
                del self._memory_of[pid]
            self._arrays = None

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` memories whose best passage is most similar to `query`, best first."""
        if not self._memory_of:
            return []
        hits = self._index.search(query, 3 * k, self._passages_of(allowed))
        best: dict[int, float] = {}
        for hit in hits:
            seq = self._memory_of[hit.key]
            best.setdefault(seq, hit.similarity)
        return [Hit(seq, similarity) for seq, similarity in list(best.items())[:k]]

    def best(self, query: FloatMatrix, seqs: KeyArray) -> npt.NDArray[np.float64]:
        """Each memory's best passage similarity to `query` (NaN for one without passages)."""
        result = np.full(seqs.shape[0], np.nan)
        if not self._memory_of:
            return result
        for n, seq in enumerate(seqs.tolist()):
            ids = self._of_memory.get(seq)
            if ids:
                result[n] = float(np.nanmax(self._index.similarities(query, np.array(ids))))
        return result

    def _passages_of(self, allowed: Allowed | None) -> Allowed | None:
        """The filter for passages: their memories' namespaces, and the passages of the
        admitted memories."""
        if allowed is None or allowed.keys is None:
            return allowed
        if self._arrays is None:
            ids = np.fromiter(self._memory_of.keys(), np.int64, len(self._memory_of))
            seqs = np.fromiter(self._memory_of.values(), np.int64, len(self._memory_of))
            self._arrays = (ids, seqs)
        ids, seqs = self._arrays
        return Allowed(namespaces=allowed.namespaces, keys=ids[np.isin(seqs, allowed.keys)])
