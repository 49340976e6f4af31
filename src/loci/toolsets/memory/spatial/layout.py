"""Where memories go on a 2-D map, and which of them to join.

The projection is t-SNE: about as faithful to neighbourhoods as UMAP (trustworthiness, see
`benchmarks/bench_spatial.py`) and quick from a cold process, where UMAP spends most of a
minute compiling itself. Edges join mutual nearest neighbours, so
a dense region does not draw a hairball and every edge means something to both ends.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from loci.toolsets.memory.spatial.tsne import tsne

FloatMatrix = npt.NDArray[np.float32]

#: Nearest neighbours each memory considers for an edge, and the least similarity of an edge.
EDGE_NEIGHBOURS = 3
EDGE_SIMILARITY = 0.3


def project(vectors: FloatMatrix) -> npt.NDArray[np.float64]:
    """2-D coordinates for `vectors` (unit rows), scaled into [-1, 1] on both axes."""
    n = vectors.shape[0]
    if n == 0:
        return np.zeros((0, 2))
    if n < 5:  # too few for a neighbourhood: spread them on a circle in their order
        angles = np.linspace(0.0, 2 * np.pi, n, endpoint=False) + np.pi / 2
        return _scaled(np.column_stack([np.cos(angles), np.sin(angles)]))
    return _scaled(upright(np.asarray(tsne(vectors), dtype=np.float64)))


def upright(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`points` turned to one orientation: centred, the wider spread along x, each axis
    skewed to the positive side. A projection keeps only the distances between points, so
    which turn or mirror of a layout a run lands on is chance; this makes the same store give
    the same picture each time."""
    centred = points - points.mean(axis=0)
    _, axes = np.linalg.eigh(centred.T @ centred)  # ascending spread: widest last
    turned = centred @ axes[:, ::-1]
    skew = np.sum(turned**3, axis=0)
    return np.asarray(turned * np.where(skew < 0, -1.0, 1.0), dtype=np.float64)


def mutual_neighbours(vectors: FloatMatrix) -> list[tuple[int, int, float]]:
    """Pairs (i < j) each among the other's EDGE_NEIGHBOURS nearest, with their cosine."""
    n = vectors.shape[0]
    if n < 2:
        return []
    scores = vectors @ vectors.T
    np.fill_diagonal(scores, -np.inf)
    count = min(EDGE_NEIGHBOURS, n - 1)
    nearest = np.argpartition(-scores, count - 1, axis=1)[:, :count]
    chosen = {(i, int(j)) for i in range(n) for j in nearest[i]}
    return [
        (i, j, round(float(scores[i, j]), 4))
        for i, j in sorted(chosen)
        if i < j and (j, i) in chosen and scores[i, j] >= EDGE_SIMILARITY
    ]


def _scaled(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    low, high = points.min(axis=0), points.max(axis=0)
    span = np.where(high - low > 0, high - low, 1.0)
    return np.asarray(np.round((points - low) / span * 2.0 - 1.0, 4), dtype=np.float64)
