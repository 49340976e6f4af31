"""The shapes of the spatial tools' results (no numpy here: the MCP layer imports them)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from loci.memory.models import MemoryRef

#: Most interior points of a journey.
MAX_STEPS = 20


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
