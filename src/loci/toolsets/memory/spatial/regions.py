"""`regions`: the subjects the memories fall into, computed once per state of the store.

The clustering of a scope is kept until a memory is added, removed or edited (the fingerprint
of `space`), and shared: `wander` counts the regions it visits and `visualize`
colours its map with them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from loci import fields
from loci.engine.search.engine import require_namespace
from loci.errors import NotFoundError
from loci.storage.databases.db import Database
from loci.toolsets.memory.models import MemoryRef
from loci.toolsets.memory.spatial.clustering import Clustering, coherence, silhouette
from loci.toolsets.memory.spatial.labels import region_labels
from loci.toolsets.memory.spatial.levels import level, parse_path
from loci.toolsets.memory.spatial.models import (
    MAX_CLUSTERS,
    MIN_CLUSTER_SIZE_RANGE,
    OUTLIERS_LISTED,
    REGION_SAMPLES,
    Outliers,
    Region,
    RegionsResult,
)
from loci.toolsets.memory.spatial.space import MemorySpace, fingerprint, load_space

#: Clusterings kept (one per scope, parameters and parent region).
CACHED_MAPS = 16
#: Characters of a sample text.
SAMPLE_CHARS = 200


@dataclass(frozen=True)
class RegionMap:
    """One scope's memories, their regions, and the answer `regions` gives about them."""

    space: MemorySpace
    clustering: Clustering
    result: RegionsResult


_Key = tuple[str | None, int, int | None, tuple[int, ...]]


class RegionsService:
    """Clusters memories into regions, and keeps the last clusterings."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._maps: dict[_Key, tuple[int, RegionMap]] = {}
        self._lock = threading.Lock()

    def regions(
        self,
        namespace: str | None = None,
        min_cluster_size: int = 3,
        num_clusters: int | None = None,
        parent: str | None = None,
    ) -> RegionsResult:
        """The regions of `namespace` (every namespace when None), or those within the region
        `parent` (a path such as `2.0`, see `levels`)."""
        return self.region_map(namespace, min_cluster_size, num_clusters, parent).result

    def region_map(
        self,
        namespace: str | None = None,
        min_cluster_size: int = 3,
        num_clusters: int | None = None,
        parent: str | None = None,
    ) -> RegionMap:
        """The memories and regions of the scope (or of the region `parent` within it), from
        the cache while the scope is unchanged."""
        key = self._key(namespace, min_cluster_size, num_clusters, parent)
        path = ".".join(str(step) for step in key[3]) or None  # `parent`, as checked
        with self._db.locked() as conn:
            if key[0] is not None:
                require_namespace(conn, key[0])
            current = fingerprint(conn)
            with self._lock:
                kept = self._maps.get(key)
            if kept is not None and kept[0] == current:
                return RegionMap(kept[1].space, kept[1].clustering, _as_cached(kept[1].result))
            space = load_space(conn, key[0]) if path is None else None
        if path is not None:  # a region's memories, from the level above (cached in turn)
            above = path.rpartition(".")[0] or None
            outer = self.region_map(namespace, min_cluster_size, num_clusters, above)
            space = _inside(outer, key[3][-1], path)
        assert space is not None  # read above, or the region's
        found = _map_of(space, key[1], key[2], path)
        with self._lock:
            self._maps.pop(key, None)
            self._maps[key] = (current, found)
            while len(self._maps) > CACHED_MAPS:
                del self._maps[next(iter(self._maps))]
        return found

    @staticmethod
    def _key(
        namespace: str | None, min_cluster_size: int, num_clusters: int | None, parent: str | None
    ) -> _Key:
        scope = fields.namespace(namespace) if namespace is not None else None
        low, high = MIN_CLUSTER_SIZE_RANGE
        size = fields.bounded_int(min_cluster_size, low, high, "min_cluster_size")
        count = (
            fields.bounded_int(num_clusters, 1, MAX_CLUSTERS, "num_clusters")
            if num_clusters is not None
            else None
        )
        return scope, size, count, tuple(parse_path(parent)) if parent is not None else ()


def _inside(outer: RegionMap, region: int, path: str) -> MemorySpace:
    """The memories of region `region` of `outer`."""
    if region >= outer.clustering.count:
        raise NotFoundError(
            f"no region {path}: its level has {outer.clustering.count} regions",
            parent=path,
        )
    return outer.space.subset(np.flatnonzero(outer.clustering.labels == region))


def _as_cached(result: RegionsResult) -> RegionsResult:
    return result.model_copy(update={"cached": True})


def _map_of(
    space: MemorySpace, min_cluster_size: int, num_clusters: int | None, parent: str | None
) -> RegionMap:
    clustering = level(space.vectors, min_cluster_size, num_clusters)
    keywords = region_labels(space.contents, clustering.labels, clustering.count)
    tightness = coherence(space.vectors, clustering)
    regions = [
        _region(space, clustering, number, keywords[number], tightness[number]).model_copy(
            update={"path": f"{parent}.{number}" if parent else str(number)}
        )
        for number in range(clustering.count)
    ]
    outliers = np.flatnonzero(clustering.labels < 0)
    result = RegionsResult(
        clusters=regions,
        outliers=Outliers(
            count=int(outliers.size),
            memories=[_ref(space, int(i)) for i in outliers[:OUTLIERS_LISTED]],
        ),
        total_memories=len(space),
        clustering_quality=_rounded(silhouette(space.vectors, clustering)),
        cached=False,
        parent=parent,
    )
    return RegionMap(space, clustering, result)


def _region(
    space: MemorySpace, clustering: Clustering, number: int, keywords: list[str], tight: float
) -> Region:
    members = np.flatnonzero(clustering.labels == number)
    closeness = space.vectors[members] @ clustering.centroids[number]
    central = members[np.argsort(-closeness, kind="stable")]
    return Region(
        cluster_id=number,
        label=", ".join(keywords) if keywords else f"region {number}",
        keywords=keywords,
        size=int(members.size),
        centroid_memory=_ref(space, int(central[0])),
        sample_contents=[space.contents[int(i)][:SAMPLE_CHARS] for i in central[:REGION_SAMPLES]],
        coherence=round(tight, 4),
    )


def _ref(space: MemorySpace, row: int) -> MemoryRef:
    return MemoryRef(id=space.ids[row], content=space.contents[row])


def _rounded(value: float | None) -> float | None:
    return round(value, 4) if value is not None else None
