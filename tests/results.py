"""Reading tool results as an agent reads them."""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent


def tool_error(result: CallToolResult) -> dict[str, Any]:
    """The loci error of a failed tool call, read from its text (error results carry no
    structured content: it would not match the tool's output schema)."""
    assert result.is_error and result.structured_content is None, result
    first = result.content[0]
    assert isinstance(first, TextContent)
    error: dict[str, Any] = json.loads(first.text)["error"]
    return error
