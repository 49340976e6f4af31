"""Regions within regions: the memory space as a tree that a person can walk down.

Density clustering answers the question "which subjects stand apart?" and, on a store of two
novels and a chat, answers it with two regions: true, and too coarse to find one's way. A level
is therefore worked out as the clustering of its memories and, while it holds fewer than a
handful of regions, its largest region replaced by the regions within it (found by clustering
that region's memories alone, on their own principal axes, where their finer structure shows).
A region's own sub-regions are the next level down, found the same way; a path such as `2.0`
names region 0 within region 2 of the top level.
"""

from __future__ import annotations

import numpy as np

from loci.errors import InvalidInputError
from loci.toolsets.memory.spatial.clustering import Clustering, FloatMatrix, cluster, numbered

#: A level with fewer regions than this has its largest region split into its own.
HANDFUL = 5
#: Regions with fewer memories than this are not split to fill a level.
SPLIT_FROM = 100
#: The deepest path accepted (each step at most 3 digits).
MAX_DEPTH = 8


def level(vectors: FloatMatrix, min_cluster_size: int, num_clusters: int | None) -> Clustering:
    """The regions of one level (see the module docstring); given a number of regions,
    k-means makes exactly that many."""
    found = cluster(vectors, min_cluster_size, num_clusters)
    if num_clusters is not None:
        return found
    whole: set[int] = set()  # regions found to have no regions within (by their first row)
    while found.count < HANDFUL:
        region = _largest_to_split(found, whole)
        if region is None:
            return found
        members = np.flatnonzero(found.labels == region)
        inner = cluster(vectors[members], min_cluster_size)
        if inner.count < 2:
            whole.add(int(members[0]))
            continue
        labels = found.labels.copy()
        labels[members] = np.where(inner.labels >= 0, inner.labels + found.count, -1)
        found = numbered(vectors, labels)
    return found


def _largest_to_split(found: Clustering, whole: set[int]) -> int | None:
    sizes = np.bincount(found.labels[found.labels >= 0], minlength=found.count)
    for region in np.argsort(-sizes, kind="stable"):
        first = int(np.argmax(found.labels == region))
        if sizes[region] >= SPLIT_FROM and first not in whole:
            return int(region)
    return None


def parse_path(text: str) -> list[int]:
    """`"2.0"` -> `[2, 0]`; anything else is refused."""
    steps = text.split(".") if isinstance(text, str) else []
    if not 1 <= len(steps) <= MAX_DEPTH or not all(s.isdigit() and len(s) <= 3 for s in steps):
        raise InvalidInputError(
            f"parent must be a region path such as 2 or 2.0 (at most {MAX_DEPTH} levels), "
            f"got {text!r:.40}",
            field="parent",
        )
    return [int(step) for step in steps]
