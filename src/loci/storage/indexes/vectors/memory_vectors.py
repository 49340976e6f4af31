"""The memories' vectors as a derived index: a `VectorIndex` loaded from `memory_vectors` and
kept in step with the change log."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from loci.storage.databases.db import Connection
from loci.storage.indexes.derived import MemoryChanges, Progress
from loci.storage.indexes.vectors.protocol import VectorIndex

log = logging.getLogger("loci.store")

LOAD_CHUNK = 10_000
#: Every memory's vector (NULL where its row is missing): (seq, namespace, embedding).
LOAD_ALL = (
    "SELECT m.seq, m.namespace, v.embedding FROM memories m "
    "LEFT JOIN memory_vectors v ON v.seq = m.seq ORDER BY m.seq"
)


class MemoryVectors:
    """Feeds `index` every memory's vector, leaving out damaged ones."""

    def __init__(self, index: VectorIndex, dimensions: int) -> None:
        self.index = index
        self._dimensions = dimensions

    def prepare(self, conn: Connection) -> None:
        """Nothing to make."""
        del conn

    def load(self, conn: Connection, progress: Progress | None = None) -> None:
        """Read every vector, a chunk at a time (reporting how many were read)."""
        self.index.clear()
        total = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
        self.index.reserve(total)
        done = 0
        cursor = conn.execute(LOAD_ALL)
        while rows := cursor.fetchmany(LOAD_CHUNK):
            self._upsert(rows)
            done += len(rows)
            if progress is not None:
                progress(done, total)

    def apply(self, conn: Connection, changes: MemoryChanges) -> None:
        """Store the changed vectors, drop the deleted ones."""
        del conn
        self._upsert(changes.stored)
        self.index.delete(changes.gone)

    def clear(self) -> None:
        """Drop every vector."""
        self.index.clear()

    def _upsert(self, rows: Sequence[Sequence[Any]]) -> None:
        """Rows start (seq, namespace, embedding); further columns are ignored."""
        if not rows:
            return
        try:
            joined = b"".join(row[2] for row in rows)
        except TypeError:  # a value that is not a BLOB at all
            joined = b""
        if len(joined) != len(rows) * self._dimensions * 4:
            rows = self._whole_vectors(rows)
            joined = b"".join(row[2] for row in rows)
        vectors = np.frombuffer(joined, dtype=np.float32)
        self.index.upsert(
            [int(row[0]) for row in rows],
            vectors.reshape(len(rows), self._dimensions),
            [row[1] for row in rows],
        )

    def _whole_vectors(self, rows: Sequence[Sequence[Any]]) -> list[Sequence[Any]]:
        """The rows whose vector has the model's size. The others can only come from a
        damaged file: they are left out of the index (so one of them does not fail every
        search) until `loci reindex` embeds them again; `loci doctor` counts them."""
        size = self._dimensions * 4

        def is_whole(row: Sequence[Any]) -> bool:
            return isinstance(row[2], bytes) and len(row[2]) == size

        broken = [int(row[0]) for row in rows if not is_whole(row)]
        log.warning("%d damaged vectors left out of the index; run `loci reindex`", len(broken))
        self.index.delete(broken)
        return [row for row in rows if is_whole(row)]
