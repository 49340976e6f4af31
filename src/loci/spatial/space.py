"""The memories of a namespace (or all of them) as points: ids, texts and unit vectors read
from SQLite, and a fingerprint that changes whenever they do."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from loci.storage.memories import iter_memories

FloatMatrix = npt.NDArray[np.float32]
Fingerprint = tuple[int, int, int, str]


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


def fingerprint(conn: sqlite3.Connection, namespace: str | None) -> Fingerprint:
    """What changes when a memory of the scope is added, removed or edited: its count, the
    largest and the sum of its seqs, and the latest edit."""
    where, params = _scope(namespace)
    row = conn.execute(
        "SELECT count(*), coalesce(max(seq), 0), coalesce(sum(seq), 0), "
        f"coalesce(max(updated_at), '') FROM memories m WHERE {where}",
        params,
    ).fetchone()
    return int(row[0]), int(row[1]), int(row[2]), str(row[3])


def load_space(conn: sqlite3.Connection, namespace: str | None) -> MemorySpace:
    """Every memory of the scope, in insertion order, with its stored vector."""
    where, params = _scope(namespace)
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


def _scope(namespace: str | None) -> tuple[str, list[str]]:
    return ("m.namespace = ?", [namespace]) if namespace is not None else ("1", [])
