"""HDBSCAN in numpy (Campello, Moulavi and Sander, 2013), excess-of-mass selection.

Density clustering that finds how many clusters there are and leaves sparse points out:
core distances, a minimum spanning tree of the mutual reachability distances (Prim's, in
O(n^2) time and O(n) memory), the single-linkage hierarchy it implies, that hierarchy condensed
to clusters of at least `min_cluster_size`, and the most stable of them chosen. Written here
rather than imported for the size of the install: scikit-learn with SciPy would add about
164 MB to it for two algorithms (this and `tsne`) of about 320 lines; tests check it against
scikit-learn's (a development dependency only) on the same points.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import numpy.typing as npt

Points = npt.NDArray[np.float64]
Labels = npt.NDArray[np.int64]

#: Rows of the distance matrix computed at once for the core distances.
CHUNK_ROWS = 1024
#: Distances below this count as this (so that 1 / distance stays finite for duplicates).
TINY_DISTANCE = 1e-10


def hdbscan(points: Points, min_cluster_size: int, min_samples: int) -> Labels:
    """A cluster number per point (0, 1, ...), -1 for noise; the root is never a cluster."""
    n = points.shape[0]
    if n < 2 or n < min_cluster_size:
        return np.full(n, -1, dtype=np.int64)
    core = _core_distances(points, min(min_samples, n))
    children, distances, sizes = _single_linkage(*_spanning_tree(points, core))
    parents, kids, lambdas, counts = _condensed(children, distances, sizes, n, min_cluster_size)
    chosen = _selected(parents, kids, lambdas, counts, n)
    return _labelled(parents, kids, chosen, n)


def _core_distances(points: Points, neighbours: int) -> npt.NDArray[np.float64]:
    """Distance to each point's `neighbours`-th nearest point, itself included."""
    squared = np.sum(points**2, axis=1)
    core = np.empty(points.shape[0])
    for start in range(0, points.shape[0], CHUNK_ROWS):
        block = slice(start, start + CHUNK_ROWS)
        apart = squared[block, None] + squared[None, :] - 2.0 * points[block] @ points.T
        kth = np.partition(apart, neighbours - 1, axis=1)[:, neighbours - 1]
        core[block] = np.sqrt(np.maximum(kth, 0.0))
    return core


def _spanning_tree(
    points: Points, core: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Prim's minimum spanning tree of the mutual reachability graph: edges (a, b, weight)."""
    n = points.shape[0]
    squared = np.sum(points**2, axis=1)
    in_tree = np.zeros(n, dtype=bool)
    best = np.full(n, np.inf)
    best_from = np.zeros(n, dtype=np.int64)
    sources, targets, weights = [], [], []
    current = 0
    for _ in range(n - 1):
        in_tree[current] = True
        apart = np.sqrt(np.maximum(squared + squared[current] - 2.0 * points @ points[current], 0))
        reach = np.maximum(np.maximum(apart, core), core[current])
        closer = (reach < best) & ~in_tree
        best[closer] = reach[closer]
        best_from[closer] = current
        best[in_tree] = np.inf
        current = int(np.argmin(best))
        sources.append(int(best_from[current]))
        targets.append(current)
        weights.append(float(best[current]))
    return np.array(sources), np.array(targets), np.array(weights)


def _single_linkage(
    sources: npt.NDArray[np.int64], targets: npt.NDArray[np.int64], weights: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The merge tree: node n + i joins children[i] at distances[i]; sizes by node."""
    n = sources.size + 1
    order = np.argsort(weights, kind="stable")
    root_of = np.arange(2 * n - 1)
    sizes = np.ones(2 * n - 1, dtype=np.int64)
    children = np.empty((n - 1, 2), dtype=np.int64)

    def find(node: int) -> int:
        while root_of[node] != node:
            root_of[node] = root_of[root_of[node]]
            node = int(root_of[node])
        return node

    for step, edge in enumerate(order):
        a, b = find(int(sources[edge])), find(int(targets[edge]))
        merged = n + step
        children[step] = (a, b)
        root_of[a] = root_of[b] = merged
        sizes[merged] = sizes[a] + sizes[b]
    return children, np.maximum(weights[order], TINY_DISTANCE), sizes


def _condensed(
    children: npt.NDArray[np.int64],
    distances: npt.NDArray[np.float64],
    sizes: npt.NDArray[np.int64],
    n: int,
    min_size: int,
) -> tuple[list[int], list[int], list[float], list[int]]:
    """The condensed tree as rows (parent cluster, child, lambda, child size); clusters are
    numbered from n (the root), points keep their index."""
    root = 2 * n - 2
    label = {root: n}
    next_label = n + 1
    parents: list[int] = []
    kids: list[int] = []
    lambdas: list[float] = []
    counts: list[int] = []
    queue = deque([root])
    while queue:
        node = queue.popleft()
        if node < n:
            continue
        left, right = (int(c) for c in children[node - n])
        strength = 1.0 / float(distances[node - n])
        big = [c for c in (left, right) if sizes[c] >= min_size]
        if len(big) == 2:
            for child in (left, right):
                label[child] = next_label
                next_label += 1
                parents.append(label[node])
                kids.append(label[child])
                lambdas.append(strength)
                counts.append(int(sizes[child]))
                queue.append(child)
            continue
        for child in (left, right):
            if sizes[child] >= min_size:
                label[child] = label[node]  # the cluster goes on, minus what fell out
                queue.append(child)
                continue
            for point in _leaves(child, children, n):
                parents.append(label[node])
                kids.append(point)
                lambdas.append(strength)
                counts.append(1)
    return parents, kids, lambdas, counts


def _leaves(node: int, children: npt.NDArray[np.int64], n: int) -> list[int]:
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current < n:
            found.append(current)
        else:
            stack.extend(int(c) for c in children[current - n])
    return found


def _selected(
    parents: list[int], kids: list[int], lambdas: list[float], counts: list[int], n: int
) -> set[int]:
    """The clusters excess of mass chooses (never the root)."""
    birth = {n: 0.0}
    cluster_children: dict[int, list[int]] = {}
    for parent, kid, strength in zip(parents, kids, lambdas, strict=True):
        if kid >= n:
            birth[kid] = strength
            cluster_children.setdefault(parent, []).append(kid)
    stability = dict.fromkeys(birth, 0.0)
    for parent, strength, count in zip(parents, lambdas, counts, strict=True):
        stability[parent] += (strength - birth[parent]) * count
    chosen: set[int] = set()
    for cluster in sorted(birth, reverse=True):  # children are numbered after their parents
        below = cluster_children.get(cluster, [])
        below_stability = sum(stability[c] for c in below)
        if cluster == n or below_stability > stability[cluster]:
            stability[cluster] = below_stability
            continue
        chosen -= _descendants(cluster, cluster_children)
        chosen.add(cluster)
    return chosen


def _descendants(cluster: int, cluster_children: dict[int, list[int]]) -> set[int]:
    found: set[int] = set()
    stack = list(cluster_children.get(cluster, []))
    while stack:
        current = stack.pop()
        found.add(current)
        stack.extend(cluster_children.get(current, []))
    return found


def _labelled(parents: list[int], kids: list[int], chosen: set[int], n: int) -> Labels:
    """Each point's chosen ancestor cluster, numbered 0.. in order of cluster number."""
    cluster_parent = {kid: parent for parent, kid in zip(parents, kids, strict=True) if kid >= n}
    number = {cluster: i for i, cluster in enumerate(sorted(chosen))}
    labels = np.full(n, -1, dtype=np.int64)
    for parent, kid in zip(parents, kids, strict=True):
        if kid >= n:
            continue
        cluster: int | None = parent
        while cluster is not None and cluster not in chosen:
            cluster = cluster_parent.get(cluster)
        if cluster is not None:
            labels[kid] = number[cluster]
    return labels
