"""The spatial tools of the `memory` toolset: paths, walks, regions and maps of memories."""

from typing import Annotated, Any, Literal

from mcp.types import ToolAnnotations
from pydantic import Field

from loci.faces.mcp.arguments import READ_ONLY
from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings
from loci.toolsets.memory.spatial.models import (
    MAX_CLUSTERS,
    MAX_MAP_MEMORIES,
    MAX_RANDOM_SEED,
    MAX_STEPS,
    MIN_CLUSTER_SIZE_RANGE,
    JourneyResult,
    RegionsResult,
    VisualizeResult,
    WanderResult,
)
from loci.toolsets.memory.tools import MemoryId, Namespace

#: Reads only, but two calls may answer differently (a walk without a seed is random).
EXPLORING = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False)

Scope = Annotated[Namespace | None, Field(description="Only this namespace (default: all).")]
RegionPath = Annotated[
    str,
    Field(
        pattern=r"^\d{1,3}(\.\d{1,3}){0,7}$",
        description="A region's `path` from `regions` (2, 2.0, ...): the regions within it.",
    ),
]


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the spatial tools to `server`."""
    del settings

    def journey(
        start_id: MemoryId,
        end_id: MemoryId,
        steps: Annotated[
            int, Field(ge=1, le=MAX_STEPS, description="Points between the two memories.")
        ] = 5,
        namespace: Namespace | None = None,
    ) -> JourneyResult:
        """A path of memories from one memory to another through the space of meanings
        (spherical interpolation between their vectors): what lies between two ideas. Each
        point gets the nearest memory not already on the path; a point with nothing close is
        reported as a gap. With `namespace`, only its memories (both ends must be in it)."""
        return provider.call(lambda app: app.journeys.journey(start_id, end_id, steps, namespace))

    def wander(
        seed: Annotated[
            str | None, Field(min_length=1, description="Start near this text (a query).")
        ] = None,
        seed_id: Annotated[MemoryId | None, Field(description="Start from this memory.")] = None,
        steps: Annotated[int, Field(ge=1, le=MAX_STEPS, description="Steps after the start.")] = 5,
        randomness: Annotated[
            float, Field(ge=0.0, le=1.0, description="Chance that a step jumps at random.")
        ] = 0.3,
        random_seed: Annotated[
            int | None,
            Field(
                ge=0, le=MAX_RANDOM_SEED, description="Repeat a walk (each result gives its seed)."
            ),
        ] = None,
        namespace: Scope = None,
    ) -> WanderResult:
        """A random walk through memories for discovery: each step goes to the nearest memory
        not yet visited, or, with probability `randomness`, jumps to a random one. Starts near
        `seed` text, at `seed_id`, or at a random memory; says which regions it crossed."""
        return provider.call(
            lambda app: app.wanderer.wander(
                seed, seed_id, steps, randomness, random_seed, namespace
            )
        )

    def regions(
        namespace: Scope = None,
        min_cluster_size: Annotated[
            int,
            Field(
                ge=MIN_CLUSTER_SIZE_RANGE[0],
                le=MIN_CLUSTER_SIZE_RANGE[1],
                description="Fewest memories in a region.",
            ),
        ] = 3,
        num_clusters: Annotated[
            int | None,
            Field(ge=1, le=MAX_CLUSTERS, description="Cut into exactly this many (k-means)."),
        ] = None,
        parent: RegionPath | None = None,
    ) -> RegionsResult:
        """The subjects memories fall into: density clustering finds the regions and how many
        there are; each gets a label from the words that set it apart, its most central memory,
        samples and a coherence score; memories in no region are outliers. A level with fewer
        than a handful of regions has its largest split into those within it. Pass a region's
        `path` as `parent` to see the regions within it. Cached until the memories change."""
        return provider.call(
            lambda app: app.regions.regions(namespace, min_cluster_size, num_clusters, parent)
        )

    def visualize(
        format: Annotated[
            Literal["json", "mermaid", "svg"],
            Field(description="json: coordinates; mermaid: a flowchart; svg: a drawn map."),
        ] = "json",
        namespace: Scope = None,
        include_edges: Annotated[
            bool, Field(description="Join memories that are each other's nearest neighbours.")
        ] = False,
        max_memories: Annotated[
            int, Field(ge=1, le=MAX_MAP_MEMORIES, description="Most memories on the map.")
        ] = 100,
        highlight_ids: Annotated[
            list[MemoryId],
            Field(max_length=MAX_MAP_MEMORIES, description="Memories to ring and name."),
        ] = [],  # noqa: B006 - never mutated; a list is what the schema shows
        parent: RegionPath | None = None,
    ) -> VisualizeResult:
        """A 2-D map of memories (t-SNE layout) coloured by the regions `regions` finds, as
        JSON coordinates, a Mermaid flowchart or an SVG picture with labels and a legend. A
        scope larger than max_memories shows every region's most central memories. With
        `parent`, the map of that region alone, coloured by the regions within it."""
        return provider.call(
            lambda app: app.maps.visualize(
                format, namespace, include_edges, max_memories, highlight_ids, parent
            )
        )

    server.add_tool(
        journey, title="Path between two memories", annotations=READ_ONLY, structured_output=True
    )
    server.add_tool(
        wander, title="Random walk through memories", annotations=EXPLORING, structured_output=True
    )
    server.add_tool(
        regions, title="Regions of the memory space", annotations=READ_ONLY, structured_output=True
    )
    server.add_tool(
        visualize, title="Map of memories", annotations=READ_ONLY, structured_output=True
    )
