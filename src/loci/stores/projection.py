"""A PCA projection that lets large exact indexes search a narrow copy of their vectors first.

Over 100k 384-d vectors a full float32 scan reads 150 MB per query and costs 3-4 ms on a 2-core
machine. Projected onto their top 128 principal axes the same vectors are a third of that, and
the best 2 % of rows by projected score hold the true top 10 in 99.9 % of cases and the true
top 50 in 99.4 % (measured on 11k MiniLM embeddings of LoCoMo turns and novel sentences). Those
candidates are then rescored exactly, so the results carry exact similarities.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]

#: Axes kept by the projection.
PROJECTED_DIMENSIONS = 128
#: The projection is fitted on at most this many rows (a sample is plenty for a 384x384 covariance).
FIT_SAMPLE = 20_000
#: Rows centred and projected at a time (a 4 MB temporary rather than a copy of the matrix).
PROJECT_CHUNK = 8192


@dataclass(frozen=True)
class Projection:
    """Centre, then project onto principal axes; scores keep the order of dot products."""

    mean: FloatMatrix
    axes: FloatMatrix  # (dimensions, PROJECTED_DIMENSIONS)

    @classmethod
    def fit(cls, vectors: FloatMatrix, seed: int = 0) -> Projection:
        """Principal axes of `vectors` (a random sample of them when there are many)."""
        if vectors.shape[0] > FIT_SAMPLE:
            rows = np.random.default_rng(seed).choice(vectors.shape[0], FIT_SAMPLE, replace=False)
            vectors = vectors[np.sort(rows)]
        mean = vectors.mean(axis=0, dtype=np.float64).astype(np.float32)
        centred = vectors - mean
        covariance = (centred.T @ centred).astype(np.float64)
        _, eigenvectors = np.linalg.eigh(covariance)
        # eigh sorts eigenvalues ascending: the last columns are the widest axes.
        axes = eigenvectors[:, ::-1][:, :PROJECTED_DIMENSIONS]
        return cls(mean=mean, axes=np.ascontiguousarray(axes, dtype=np.float32))

    def project_rows(self, vectors: FloatMatrix, out: FloatMatrix | None = None) -> FloatMatrix:
        """Stored vectors in projected space, centred first; in chunks, to bound the memory."""
        if out is None:
            out = np.empty((vectors.shape[0], self.axes.shape[1]), dtype=np.float32)
        for start in range(0, vectors.shape[0], PROJECT_CHUNK):
            chunk = vectors[start : start + PROJECT_CHUNK]
            out[start : start + chunk.shape[0]] = (chunk - self.mean) @ self.axes
        return out

    def project_query(self, query: FloatMatrix) -> FloatMatrix:
        """A query in projected space.

        x.q = mean.q + (x - mean).q, and the first term is the same for every row, so ranking
        by projected (x - mean) against projected q keeps the order of the true dot products.
        """
        return np.ascontiguousarray(query.reshape(-1) @ self.axes, dtype=np.float32)
