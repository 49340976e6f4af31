"""Turning errors into MCP tool results whose text is `{"error": {"type", "message", "details"}}`."""

from __future__ import annotations

import json
import logging
from typing import Any

from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from loci.errors import InvalidInputError, LociError, NotFoundError

log = logging.getLogger("loci.mcp")
#: How much of a client's unknown tool name an error repeats.
MAX_NAME_SHOWN = 100
UNKNOWN_ARGUMENT = "not an argument of this tool (see its input schema)"


def error_result(error: dict[str, Any]) -> CallToolResult:
    """A tool result with `isError` set and the error as JSON text.

    No structured content: clients built on the TypeScript SDK check it against the tool's
    output schema even on errors, and an error object never matches a result's schema (the
    client threw -32602 instead of showing loci's message).
    """
    payload = {"error": error}
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(payload, ensure_ascii=False))],
        is_error=True,
    )


def from_loci_error(exc: LociError) -> CallToolResult:
    """A loci error as a tool result."""
    return error_result(exc.to_dict())


def from_validation_error(tool: str, exc: ValidationError) -> CallToolResult:
    """Arguments that failed the tool's input schema, naming each field and what was wrong."""
    return from_loci_error(invalid_arguments(tool, exc))


def invalid_arguments(subject: str, exc: ValidationError) -> InvalidInputError:
    """`invalid arguments for SUBJECT: field: problem; ...`, each problem also in `errors`."""
    problems = [
        {
            "field": ".".join(str(part) for part in err["loc"]) or "(arguments)",
            "message": UNKNOWN_ARGUMENT if err["type"] == "extra_forbidden" else err["msg"],
        }
        for err in exc.errors(include_url=False, include_input=False)
    ]
    summary = "; ".join(f"{p['field']}: {p['message']}" for p in problems)
    return InvalidInputError(f"invalid arguments for {subject}: {summary}", errors=problems)


def unknown_tool(name: str) -> NotFoundError:
    """A call to a tool this server does not offer (or whose toolset is disabled)."""
    shown = name if len(name) <= MAX_NAME_SHOWN else name[:MAX_NAME_SHOWN] + "..."
    return NotFoundError(
        f"no tool named {shown!r}: tools/list names the tools this server offers "
        "(LOCI_TOOLSETS chooses the toolsets)",
        tool=shown,
    )


def internal_error(tool: str) -> CallToolResult:
    """An unexpected failure: no internals leak to the agent, the log has the traceback."""
    return error_result(
        {
            "type": "internal",
            "message": f"{tool} failed unexpectedly; the server log has the details",
            "details": {},
        }
    )
