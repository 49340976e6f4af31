"""`journey` and `reinforce` through the MCP client."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import Connect
from tests.results import tool_error
from tests.unit.test_journey import GRADIENT

pytestmark = pytest.mark.anyio


async def test_journey_through_the_client(connect: Connect) -> None:
    async with connect() as client:
        ids = []
        for text in GRADIENT:
            stored = await client.call_tool("remember", {"content": text})
            ids.append(stored.structured_content["id"])
        found = await client.call_tool(
            "journey", {"start_id": ids[0], "end_id": ids[-1], "steps": 3}
        )
        missing = await client.call_tool(
            "journey", {"start_id": ids[0], "end_id": "00000000-0000-4000-8000-000000000000"}
        )
        too_long = await client.call_tool(
            "journey", {"start_id": ids[0], "end_id": ids[1], "steps": 21}
        )
    assert not found.is_error
    path = found.structured_content["path"]
    assert [step["step"] for step in path] == [1, 2, 3]
    assert found.structured_content["start"]["id"] == ids[0]
    assert tool_error(missing)["type"] == "not_found"
    assert tool_error(too_long)["type"] == "invalid_input"


async def test_reinforce_through_the_client(connect: Connect) -> None:
    async with connect() as client:
        stored = await client.call_tool("remember", {"content": "Ship on Fridays"})
        memory_id = stored.structured_content["id"]
        raised = await client.call_tool("reinforce", {"memory_id": memory_id, "boost": 0.25})
        refused = await client.call_tool("reinforce", {"memory_id": memory_id, "boost": 0})
        missing = await client.call_tool(
            "reinforce", {"memory_id": "00000000-0000-4000-8000-000000000000"}
        )
    assert raised.structured_content["importance_after"] == 0.75
    assert tool_error(refused)["type"] == "invalid_input"
    assert tool_error(missing)["type"] == "not_found"
