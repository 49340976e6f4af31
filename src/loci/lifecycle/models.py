"""The shapes of the lifecycle tools' results (no numpy here: the MCP layer imports them)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ReinforceResult(BaseModel):
    """A memory's importance before and after `reinforce`."""

    id: str
    content: str
    importance_before: float
    importance_after: float
    access_count: int


#: Decay strategies: what starts a memory's idle clock, and whether use softens it.
DECAY_STRATEGIES = ("time", "access", "combined")
#: Memories listed in a decay result (all are counted).
DECAYS_LISTED = 100


class DecayedMemory(BaseModel):
    """One memory whose importance decay lowers."""

    id: str
    content: str
    importance_before: float
    importance_after: float
    reason: str


class DecayResult(BaseModel):
    """What `decay` changed, or would change with dry_run."""

    strategy: str
    affected: int = Field(description="Memories whose importance goes down.")
    unchanged: int = Field(description="At the floor already, or decayed too recently to move.")
    decay_applied: list[DecayedMemory] = Field(
        description=f"The {DECAYS_LISTED} largest drops, largest first."
    )
    dry_run: bool
