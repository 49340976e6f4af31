"""Regions of the memory space: density clustering, refined and scored.

HDBSCAN finds how many dense regions there are and where, on vectors reduced by PCA first
(density estimates degrade and slow down badly in 384 dimensions). Its seeds are then refined
by a few rounds of spherical k-means over every memory, so that memories between dense cores
join the region they are nearest to; a memory near no region's centre stays an outlier. Given a
number of clusters, k-means alone answers, with no outliers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from loci.toolsets.memory.spatial.hdbscan import hdbscan

FloatMatrix = npt.NDArray[np.float32]
Labels = npt.NDArray[np.int64]

#: PCA components kept before density clustering, and memories per component below that (a
#: density needs many more points than dimensions).
REDUCED_DIMENSIONS = 20
POINTS_PER_DIMENSION = 8
#: Neighbours that make a point dense (HDBSCAN's min_samples), at least min_cluster_size: fewer
#: split every topic into many tiny regions. Stores under 20 memories per neighbour use fewer.
DENSITY_NEIGHBOURS = 5
POINTS_PER_NEIGHBOUR = 20
#: Most rounds of spherical k-means that refine the seeds (they stop once nothing moves).
REFINE_ROUNDS = 30
#: A memory less similar than this to its nearest region's centre is an outlier.
OUTLIER_SIMILARITY = 0.25
#: Memories scored for the silhouette (it is quadratic in the number of points).
SILHOUETTE_SAMPLE = 2000
#: Above this many memories, density seeds come from a random sample of this size (HDBSCAN
#: grows faster than linearly); refinement still assigns every memory.
SEED_SAMPLE = 5_000


@dataclass(frozen=True)
class Clustering:
    """Region per memory (-1: outlier), numbered by size, largest first; unit centroids."""

    labels: Labels
    centroids: FloatMatrix

    @property
    def count(self) -> int:
        """How many regions."""
        return int(self.centroids.shape[0])


def cluster(
    vectors: FloatMatrix, min_cluster_size: int, num_clusters: int | None = None
) -> Clustering:
    """The regions of `vectors` (unit rows)."""
    n = vectors.shape[0]
    if n < max(min_cluster_size, 2):
        return _empty(n, vectors.shape[1] if vectors.ndim == 2 else 0)
    sample = _sample(n)
    if num_clusters is not None:
        seeds = _kmeans_seeds(vectors[sample], min(num_clusters, n))
    else:
        seeds = _density_seeds(vectors[sample], min_cluster_size)
    if seeds.max(initial=-1) < 0:
        return _empty(n, vectors.shape[1])
    labels, similarity = _refine(vectors, _centroids(vectors[sample], seeds, int(seeds.max()) + 1))
    if num_clusters is None:
        labels[similarity < OUTLIER_SIMILARITY] = -1
        labels = _drop_small(labels, min_cluster_size)
    return numbered(vectors, labels)


def silhouette(vectors: FloatMatrix, clustering: Clustering) -> float | None:
    """Mean silhouette (cosine distance) of the clustered memories, over a sample of at most
    SILHOUETTE_SAMPLE of them; None with fewer than two regions."""
    inside = np.flatnonzero(clustering.labels >= 0)
    if clustering.count < 2 or inside.size <= clustering.count:
        return None
    if inside.size > SILHOUETTE_SAMPLE:
        inside = np.sort(np.random.default_rng(0).choice(inside, SILHOUETTE_SAMPLE, replace=False))
    labels = clustering.labels[inside]
    distances = 1.0 - vectors[inside] @ vectors[inside].T
    regions = np.unique(labels)
    # Mean distance of each memory to the members of each region (itself excluded from its own).
    sums = np.stack([distances[:, labels == r].sum(axis=1) for r in regions], axis=1)
    sizes = np.array([np.sum(labels == r) for r in regions], dtype=np.float64)
    own = np.searchsorted(regions, labels)
    rows = np.arange(labels.size)
    alone = sizes[own] <= 1
    within = sums[rows, own] / np.maximum(sizes[own] - 1, 1)
    means = sums / sizes
    means[rows, own] = np.inf
    nearest_other = means.min(axis=1)
    scores = (nearest_other - within) / np.maximum(np.maximum(within, nearest_other), 1e-12)
    return float(np.mean(np.where(alone, 0.0, scores)))


def coherence(vectors: FloatMatrix, clustering: Clustering) -> list[float]:
    """Per region, the mean cosine of its memories to its centre."""
    scores = []
    for region in range(clustering.count):
        members = vectors[clustering.labels == region]
        scores.append(float(np.mean(members @ clustering.centroids[region])))
    return scores


def _density_seeds(vectors: FloatMatrix, min_cluster_size: int) -> Labels:
    n, width = vectors.shape
    components = min(REDUCED_DIMENSIONS, max(2, n // POINTS_PER_DIMENSION), n - 1, width)
    dense = min(DENSITY_NEIGHBOURS, n // POINTS_PER_NEIGHBOUR)
    neighbours = min(max(min_cluster_size, dense), n - 1)
    return hdbscan(principal_components(vectors, components), min_cluster_size, neighbours)


def principal_components(vectors: FloatMatrix, count: int) -> npt.NDArray[np.float64]:
    """`vectors` centred and projected on their `count` principal axes."""
    centred = np.asarray(vectors, dtype=np.float64) - vectors.mean(axis=0)
    _, axes = np.linalg.eigh(centred.T @ centred)  # ascending eigenvalues
    return np.asarray(centred @ axes[:, ::-1][:, :count], dtype=np.float64)


def _kmeans_seeds(vectors: FloatMatrix, count: int) -> Labels:
    """k-means++ seeding (deterministic): each next centre drawn in proportion to its distance
    from the centres so far; refinement does the rest."""
    rng = np.random.default_rng(0)
    chosen = [int(rng.integers(vectors.shape[0]))]
    distance = 1.0 - vectors @ vectors[chosen[0]]
    for _ in range(count - 1):
        weights = np.maximum(distance, 0.0)
        total = float(weights.sum())
        if total <= 0:
            break
        chosen.append(int(rng.choice(vectors.shape[0], p=weights / total)))
        distance = np.minimum(distance, 1.0 - vectors @ vectors[chosen[-1]])
    return np.asarray((vectors @ vectors[chosen].T).argmax(axis=1), dtype=np.int64)


def _sample(n: int) -> npt.NDArray[np.int64]:
    if n <= SEED_SAMPLE:
        return np.arange(n, dtype=np.int64)
    chosen = np.random.default_rng(0).choice(n, SEED_SAMPLE, replace=False)
    return np.sort(chosen).astype(np.int64)


def _refine(vectors: FloatMatrix, centroids: FloatMatrix) -> tuple[Labels, npt.NDArray[np.float32]]:
    """Spherical k-means from the seed centres: (region, similarity to its centre) per memory."""
    labels = np.full(vectors.shape[0], -1, dtype=np.int64)
    for _ in range(REFINE_ROUNDS):
        scores = vectors @ centroids.T
        moved = np.asarray(scores.argmax(axis=1), dtype=np.int64)
        if np.array_equal(moved, labels):
            break
        labels = moved
        centroids = _centroids(vectors, labels, centroids.shape[0], fallback=centroids)
    scores = vectors @ centroids.T
    labels = np.asarray(scores.argmax(axis=1), dtype=np.int64)
    return labels, scores[np.arange(labels.size), labels]


def _centroids(
    vectors: FloatMatrix, labels: Labels, count: int, fallback: FloatMatrix | None = None
) -> FloatMatrix:
    rows = []
    for region in range(count):
        members = vectors[labels == region]
        if members.shape[0] == 0:
            rows.append(fallback[region] if fallback is not None else np.zeros(vectors.shape[1]))
            continue
        mean = members.mean(axis=0)
        norm = float(np.linalg.norm(mean))
        rows.append(mean / norm if norm > 0 else mean)
    return np.asarray(rows, dtype=np.float32).reshape(count, vectors.shape[1])


def _drop_small(labels: Labels, min_size: int) -> Labels:
    sizes = np.bincount(labels[labels >= 0], minlength=1)
    small = np.flatnonzero(sizes < min_size)
    labels = labels.copy()
    labels[np.isin(labels, small)] = -1
    return labels


def numbered(vectors: FloatMatrix, labels: Labels) -> Clustering:
    """Regions renumbered 0.. by size (largest first, then by first member), empty ones gone."""
    present = [int(r) for r in np.unique(labels) if r >= 0]
    order = sorted(present, key=lambda r: (-int(np.sum(labels == r)), int(np.argmax(labels == r))))
    mapping = np.full(int(labels.max(initial=-1)) + 2, -1, dtype=np.int64)
    for new, old in enumerate(order):
        mapping[old] = new
    renumbered = np.where(labels >= 0, mapping[labels], -1).astype(np.int64)
    return Clustering(renumbered, _centroids(vectors, renumbered, len(order)))


def _empty(n: int, width: int) -> Clustering:
    return Clustering(np.full(n, -1, dtype=np.int64), np.zeros((0, width), dtype=np.float32))
