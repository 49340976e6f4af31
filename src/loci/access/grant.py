"""What one access token may do (kept apart from the token store: the MCP server reads grants
without loading the store)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grant:
    """What one token may do: which toolsets (None: all) and whether it may write."""

    name: str
    toolsets: frozenset[str] | None = None
    read_only: bool = False

    def allows(self, toolset: str, writes: bool) -> bool:
        """Whether a call of `toolset` (one that writes, or not) is allowed."""
        if writes and self.read_only:
            return False
        return self.toolsets is None or toolset in self.toolsets
