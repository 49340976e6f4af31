"""`visualize`: a 2-D map of memories, coloured by the regions `regions` finds.

A scope larger than the map shows every region in turn, most central memories first, so a
small map still shows every subject; highlighted memories are always on it.
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from itertools import chain, zip_longest

import numpy as np

from loci import fields
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.memory.spatial.layout import mutual_neighbours, project
from loci.toolsets.memory.spatial.models import (
    MAP_FORMATS,
    MAX_MAP_MEMORIES,
    MapBounds,
    MapCluster,
    MapEdge,
    MapNode,
    VisualizeResult,
)
from loci.toolsets.memory.spatial.regions import RegionMap, RegionsService
from loci.toolsets.memory.spatial.render import LEGEND_WIDTH, MAP_HEIGHT, MAP_WIDTH, mermaid, svg

#: Region colours (Tableau 10 and two more); further regions get hues a golden angle apart.
PALETTE = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#8c564b", "#bcbd22",
)  # fmt: skip
#: Characters of a memory's text kept as its label.
LABEL_CHARS = 80


class VisualizeService:
    """Draws maps of the memory space."""

    def __init__(self, regions: RegionsService) -> None:
        self._regions = regions

    def visualize(
        self,
        format: str = "json",
        namespace: str | None = None,
        include_edges: bool = False,
        max_memories: int = 100,
        highlight_ids: Sequence[str] = (),
        parent: str | None = None,
    ) -> VisualizeResult:
        """A map of up to `max_memories` memories of the scope (or of the region `parent`
        within it, coloured by the regions within that one), as json, mermaid or svg."""
        if format not in MAP_FORMATS:
            raise InvalidInputError(
                f"format must be one of {', '.join(MAP_FORMATS)}", field="format"
            )
        max_memories = fields.bounded_int(max_memories, 1, MAX_MAP_MEMORIES, "max_memories")
        if len(highlight_ids) > MAX_MAP_MEMORIES:
            raise InvalidInputError(
                f"at most {MAX_MAP_MEMORIES} highlight_ids", field="highlight_ids"
            )
        wanted = [fields.memory_id(i, "highlight_ids") for i in highlight_ids]
        found = self._regions.region_map(namespace, parent=parent)
        rows = _chosen(found, max_memories, _rows_of(found, wanted))
        nodes, clusters, edges = _drawn(found, rows, set(wanted), include_edges)
        result = VisualizeResult(
            format=format, node_count=len(nodes), total_memories=len(found.space)
        )
        if format == "mermaid":
            return result.model_copy(update={"mermaid": mermaid(nodes, edges, clusters)})
        if format == "svg":
            drawing = svg(nodes, edges, clusters)
            return result.model_copy(
                update={"svg": drawing, "width": MAP_WIDTH + LEGEND_WIDTH, "height": MAP_HEIGHT}
            )
        bounds = _bounds(nodes)
        return result.model_copy(
            update={"nodes": nodes, "edges": edges, "clusters": clusters, "bounds": bounds}
        )


def _rows_of(found: RegionMap, ids: list[str]) -> list[int]:
    position = {memory_id: row for row, memory_id in enumerate(found.space.ids)}
    missing = [memory_id for memory_id in ids if memory_id not in position]
    if missing:
        raise NotFoundError(
            f"highlight_ids not among the memories mapped: {', '.join(missing[:5])}",
            memory_id=missing[0],
        )
    return list(dict.fromkeys(position[memory_id] for memory_id in ids))


def _chosen(found: RegionMap, limit: int, highlighted: list[int]) -> list[int]:
    """The highlighted rows, then each region's most central rows in turn, then outliers."""
    labels, centroids = found.clustering.labels, found.clustering.centroids
    vectors = found.space.vectors
    by_region = []
    for region in range(found.clustering.count):
        members = np.flatnonzero(labels == region)
        closeness = vectors[members] @ centroids[region]
        by_region.append([int(r) for r in members[np.argsort(-closeness, kind="stable")]])
    interleaved = (r for r in chain.from_iterable(zip_longest(*by_region)) if r is not None)
    outliers = (int(r) for r in np.flatnonzero(labels < 0))
    chosen = dict.fromkeys(highlighted)
    for row in chain(interleaved, outliers):
        if len(chosen) >= max(limit, len(highlighted)):
            break
        chosen.setdefault(row)
    return list(chosen)


def _drawn(
    found: RegionMap, rows: list[int], highlighted: set[str], include_edges: bool
) -> tuple[list[MapNode], list[MapCluster], list[MapEdge]]:
    space, labels = found.space, found.clustering.labels
    vectors = space.vectors[rows]
    points = project(vectors)
    nodes = [
        MapNode(
            id=space.ids[row],
            x=float(points[i, 0]),
            y=float(points[i, 1]),
            label=" ".join(space.contents[row].split())[:LABEL_CHARS],
            cluster=int(labels[row]) if labels[row] >= 0 else None,
            importance=space.importance[row],
            highlighted=space.ids[row] in highlighted,
        )
        for i, row in enumerate(rows)
    ]
    names = {r.cluster_id: r.label for r in found.result.clusters}
    clusters = []
    for region in sorted({n.cluster for n in nodes if n.cluster is not None}):
        at = points[[i for i, n in enumerate(nodes) if n.cluster == region]]
        center = [round(float(at[:, 0].mean()), 4), round(float(at[:, 1].mean()), 4)]
        color = region_color(region)
        clusters.append(MapCluster(id=region, label=names[region], color=color, center=center))
    edges = (
        [
            MapEdge(source=nodes[i].id, target=nodes[j].id, weight=weight)
            for i, j, weight in mutual_neighbours(vectors)
        ]
        if include_edges
        else []
    )
    return nodes, clusters, edges


def region_color(region: int) -> str:
    """The colour of a region on every map."""
    if region < len(PALETTE):
        return PALETTE[region]
    hue = (region * 137.508) % 360 / 360
    red, green, blue = colorsys.hls_to_rgb(hue, 0.45, 0.55)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def _bounds(nodes: list[MapNode]) -> MapBounds:
    if not nodes:
        return MapBounds(x_min=-1.0, x_max=1.0, y_min=-1.0, y_max=1.0)
    xs, ys = [n.x for n in nodes], [n.y for n in nodes]
    return MapBounds(x_min=min(xs), x_max=max(xs), y_min=min(ys), y_max=max(ys))
