"""The reference `VectorIndex`: every search scores every allowed row, nothing else.

It is what the contract test holds every index to, and the baseline an acceleration is
measured against (`EmbeddedIndex` adds shortlists and compiled kernels; a server engine would
add a network). Rows live in one float32 matrix; ties rank by key.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from loci.storage.indexes.vectors.protocol import Allowed, FloatMatrix, Hit, KeyArray


class PlainVectorIndex:
    """Exact cosine search over unit rows, by full scan."""

    def __init__(self, dimensions: int) -> None:
        self.dimensions = dimensions
        self._rows: dict[int, tuple[FloatMatrix, str]] = {}

    def upsert(self, keys: Sequence[int], vectors: FloatMatrix, namespaces: Sequence[str]) -> None:
        """Insert or replace vectors (rows of unit length) under their keys."""
        if vectors.shape != (len(keys), self.dimensions):
            raise ValueError(f"expected {len(keys)} vectors of {self.dimensions} dimensions")
        for key, vector, namespace in zip(keys, vectors, namespaces, strict=True):
            self._rows[int(key)] = (np.array(vector, dtype=np.float32), namespace)

    def delete(self, keys: Sequence[int]) -> None:
        """Remove keys; unknown keys are ignored."""
        for key in keys:
            self._rows.pop(int(key), None)

    def search(self, query: FloatMatrix, k: int, allowed: Allowed | None = None) -> list[Hit]:
        """The `k` allowed vectors most similar to `query`, best first (ties by key)."""
        if k <= 0:
            return []
        scored = [
            (float(vector @ query.reshape(-1)), key)
            for key, (vector, namespace) in self._rows.items()
            if _admits(allowed, key, namespace)
        ]
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [Hit(key, similarity) for similarity, key in scored[:k]]

    def get(self, key: int) -> FloatMatrix | None:
        """The stored vector of `key`, or None."""
        row = self._rows.get(key)
        return None if row is None else row[0].copy()

    def similarities(self, query: FloatMatrix, keys: KeyArray) -> npt.NDArray[np.float64]:
        """Cosine similarity of `query` to each key (NaN for keys not indexed)."""
        result = np.full(keys.shape[0], np.nan)
        for n, key in enumerate(keys.tolist()):
            row = self._rows.get(key)
            if row is not None:
                result[n] = float(row[0] @ query.reshape(-1))
        return result

    def count(self) -> int:
        """How many vectors are indexed."""
        return len(self._rows)

    def reserve(self, count: int) -> None:
        """Nothing to prepare."""
        del count

    def clear(self) -> None:
        """Drop everything."""
        self._rows.clear()

    def warm(self) -> None:
        """Nothing to build."""


def _admits(allowed: Allowed | None, key: int, namespace: str) -> bool:
    if allowed is None:
        return True
    if allowed.namespaces is not None and namespace not in allowed.namespaces:
        return False
    return allowed.keys is None or bool(np.isin(key, allowed.keys))
