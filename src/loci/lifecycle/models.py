"""The shapes of the lifecycle tools' results (no numpy here: the MCP layer imports them)."""

from __future__ import annotations

from pydantic import BaseModel


class ReinforceResult(BaseModel):
    """A memory's importance before and after `reinforce`."""

    id: str
    content: str
    importance_before: float
    importance_after: float
    access_count: int
