"""What one access token may do (kept apart from the token store: the MCP server reads grants
without loading the store)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grant:
    """What one token may do: which toolsets (None: all), whether it may write, and which
    namespaces of memories it sees and writes (None: all)."""

    name: str
    toolsets: frozenset[str] | None = None
    read_only: bool = False
    namespaces: frozenset[str] | None = None

    @property
    def limited(self) -> bool:
        """Whether the token may do less than everything."""
        return self.toolsets is not None or self.read_only or self.namespaces is not None

    def allows(self, toolset: str, writes: bool) -> bool:
        """Whether a call of `toolset` (one that writes, or not) is allowed."""
        if writes and self.read_only:
            return False
        return self.toolsets is None or toolset in self.toolsets
