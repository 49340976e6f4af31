"""The spatial and lifecycle tools of the `memory` toolset: paths through the memory space,
and keeping memories healthy."""

from typing import Annotated, Any

from pydantic import Field

from loci.lifecycle.models import ReinforceResult
from loci.mcp.memory_tools import ADDITIVE, READ_ONLY, MemoryId
from loci.mcp.provider import AppProvider
from loci.settings import Settings
from loci.spatial.models import MAX_STEPS, JourneyResult


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the spatial tools to `server`."""
    del settings

    def journey(
        start_id: MemoryId,
        end_id: MemoryId,
        steps: Annotated[
            int, Field(ge=1, le=MAX_STEPS, description="Points between the two memories.")
        ] = 5,
    ) -> JourneyResult:
        """A path of memories from one memory to another through the space of meanings
        (spherical interpolation between their vectors): what lies between two ideas. Each
        point gets the nearest memory not already on the path; a point with nothing close is
        reported as a gap."""
        return provider.call(lambda app: app.journeys.journey(start_id, end_id, steps))

    def reinforce(
        memory_id: MemoryId,
        boost: Annotated[float, Field(gt=0.0, le=1.0, description="Added to importance.")] = 0.1,
        max_importance: Annotated[
            float, Field(ge=0.0, le=1.0, description="Importance is not raised past this.")
        ] = 1.0,
    ) -> ReinforceResult:
        """Raise a memory's importance because it proved useful (never above max_importance;
        never lowers it). Recall never changes importance by itself."""
        return provider.call(
            lambda app: app.reinforcement.reinforce(memory_id, boost, max_importance)
        )

    server.add_tool(
        journey, title="Path between two memories", annotations=READ_ONLY, structured_output=True
    )
    server.add_tool(
        reinforce, title="Reinforce a memory", annotations=ADDITIVE, structured_output=True
    )
