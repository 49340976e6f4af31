"""The shapes of the spatial tools' results (no numpy here: the MCP layer imports them)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from loci.toolsets.memory.models import MemoryRef

#: Most interior points of a journey, and most steps of a walk.
MAX_STEPS = 20
#: Largest random seed of a walk (what a JSON number holds exactly everywhere).
MAX_RANDOM_SEED = 2**53 - 1


class PathMemory(MemoryRef):
    """A memory on the path, and its similarity to the ideal point."""

    similarity: float


class JourneyStep(BaseModel):
    """One interior point of the path."""

    step: int = Field(description="1 for the first point after the start.")
    nearest_memory: PathMemory | None = Field(description="None: a gap, nothing near.")
    distance_to_ideal: float | None = Field(description="1 - similarity (None for a gap).")
    gap: bool


class JourneyResult(BaseModel):
    """A path from one memory to another."""

    start: MemoryRef
    end: MemoryRef
    path: list[JourneyStep]
    total_distance: float = Field(description="Sum of 1 - cosine along the memories walked.")
    path_density: float = Field(description="Share of points with a memory close to them.")


#: Most regions a namespace is cut into when the number is given.
MAX_CLUSTERS = 200
#: Smallest and largest min_cluster_size.
MIN_CLUSTER_SIZE_RANGE = (2, 10_000)
#: Outliers listed by `regions` (all are counted).
OUTLIERS_LISTED = 20
#: Sample texts per region.
REGION_SAMPLES = 3


class Region(BaseModel):
    """A region of the memory space: memories about one subject."""

    cluster_id: int = Field(description="0 for the largest region (of its level).")
    path: str = Field(
        default="",
        description="Where the region is in the tree: `2` for region 2, `2.0` for region 0 "
        "within it (pass it as `parent` to see the regions within this one).",
    )
    label: str = Field(description="The words that set this region apart from the others.")
    keywords: list[str]
    size: int
    centroid_memory: MemoryRef = Field(description="The memory nearest the region's centre.")
    sample_contents: list[str] = Field(description="Memories near the centre, most central first.")
    coherence: float = Field(description="Mean cosine of the members to the centre (0-1).")


class Outliers(BaseModel):
    """Memories in no region."""

    count: int
    memories: list[MemoryRef] = Field(description=f"The first {OUTLIERS_LISTED} of them.")


class RegionsResult(BaseModel):
    """The regions of the memory space."""

    clusters: list[Region]
    outliers: Outliers
    total_memories: int
    clustering_quality: float | None = Field(
        description="Silhouette of the regions (-1 to 1, higher is better separated); None "
        "with fewer than two regions."
    )
    cached: bool = Field(description="True when answered from the last clustering.")
    parent: str | None = Field(
        default=None, description="The region these are within (None: the whole scope)."
    )


class WanderStep(BaseModel):
    """One memory of a walk."""

    step: int = Field(description="0 for the starting memory.")
    memory: MemoryRef
    jump_type: str = Field(description="start, neighbor (nearest unvisited) or random (a jump).")
    similarity_to_previous: float | None = Field(description="Cosine to the previous memory.")
    cluster: int | None = Field(description="Its region (as `regions` numbers them), or None.")


class WanderResult(BaseModel):
    """A walk through the memory space."""

    journey: list[WanderStep]
    unique_clusters_visited: int = Field(description="Distinct regions among the memories walked.")
    total_distance_traveled: float = Field(description="Sum of 1 - cosine between steps.")
    random_seed: int = Field(description="Pass it back as random_seed to repeat this walk.")


#: Most memories on a map.
MAX_MAP_MEMORIES = 500
#: Formats a map is drawn in.
MAP_FORMATS = ("json", "mermaid", "svg")


class MapNode(BaseModel):
    """A memory on the map."""

    id: str
    x: float = Field(description="-1 to 1.")
    y: float = Field(description="-1 to 1.")
    label: str = Field(description="The start of the memory's text.")
    cluster: int | None = Field(description="Its region (as `regions` numbers them), or None.")
    importance: float
    highlighted: bool


class MapEdge(BaseModel):
    """Two memories that are each among the other's nearest neighbours."""

    model_config = ConfigDict(validate_by_name=True, serialize_by_alias=True)

    source: str = Field(alias="from", description="A memory id.")
    target: str = Field(alias="to", description="A memory id.")
    weight: float = Field(description="Their cosine similarity.")


class MapCluster(BaseModel):
    """A region as drawn."""

    id: int
    label: str
    color: str
    center: list[float] = Field(description="[x, y]: the mean position of its memories shown.")


class MapBounds(BaseModel):
    """The extent of the coordinates."""

    x_min: float
    x_max: float
    y_min: float
    y_max: float


class VisualizeResult(BaseModel):
    """A 2-D map of memories; which fields are set depends on the format."""

    format: str
    node_count: int
    total_memories: int = Field(description="Memories in the scope (the map shows node_count).")
    nodes: list[MapNode] | None = None
    edges: list[MapEdge] | None = None
    clusters: list[MapCluster] | None = None
    bounds: MapBounds | None = None
    mermaid: str | None = None
    svg: str | None = None
    width: int | None = None
    height: int | None = None
