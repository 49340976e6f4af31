"""The toy toolset's MCP tools."""

from __future__ import annotations

from typing import Any

from loci.faces.mcp.arguments import ADDITIVE, READ_ONLY
from loci.faces.mcp.provider import AppProvider
from loci.settings import Settings
from tests.toy_toolset.wiring import board


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add `toy_pin` and `toy_pins`."""
    del settings

    def toy_pin(note: str) -> dict[str, int]:
        """Pin a note."""
        return {"pins": provider.call(lambda app: board(app).pin(note))}

    def toy_pins() -> dict[str, list[str]]:
        """The pinned notes."""
        return {"notes": provider.call(lambda app: board(app).pins())}

    server.add_tool(toy_pin, annotations=ADDITIVE)
    server.add_tool(toy_pins, annotations=READ_ONLY)
