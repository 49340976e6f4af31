"""The memories of a namespace (or all of them) as points: ids, texts and unit vectors read
from SQLite, and a fingerprint of the store that changes whenever they do."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from loci.storage.databases.db import Connection
from loci.storage.memory_tables.change_log import change_log_head
from loci.storage.memory_tables.memories import in_scope, iter_memories

FloatMatrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class MemorySpace:
    """Memories as rows: `vectors[i]` is the unit vector of `ids[i]`."""

    seqs: list[int]
    ids: list[str]
    contents: list[str]
    importance: list[float]
    vectors: FloatMatrix

    def __len__(self) -> int:
        return len(self.ids)

    def subset(self, rows: npt.NDArray[np.int64]) -> MemorySpace:
        """The memories of `rows`, in their order."""
        picked = rows.tolist()
        return MemorySpace(
            [self.seqs[r] for r in picked],
            [self.ids[r] for r in picked],
            [self.contents[r] for r in picked],
            [self.importance[r] for r in picked],
            self.vectors[rows],
        )

    @cached_property
    def row_of(self) -> dict[int, int]:
        """The row of each memory seq."""
        return {seq: row for row, seq in enumerate(self.seqs)}


def fingerprint(conn: Connection) -> int:
    """What changes whenever a memory is added, removed or edited: the last entry of the change
    log every such write appends to (its numbers never repeat)."""
    return change_log_head(conn)


def load_space(conn: Connection, namespace: str | None) -> MemorySpace:
    """Every memory of the scope, in insertion order, with its stored vector."""
    where, params = in_scope(namespace)
    seqs: list[int] = []
    ids: list[str] = []
    contents: list[str] = []
    importance: list[float] = []
    blobs: list[bytes] = []
    for row, blob in iter_memories(conn, where, params, with_vectors=True):
        seqs.append(int(row[0]))
        ids.append(str(row[1]))
        contents.append(str(row[2]))
        importance.append(float(row[5]))
        blobs.append(blob or b"")
    vectors = np.frombuffer(b"".join(blobs), dtype=np.float32)
    width = vectors.size // len(blobs) if blobs else 0
    return MemorySpace(seqs, ids, contents, importance, vectors.reshape(len(blobs), width))
