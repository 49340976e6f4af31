"""The lifecycle tools through the MCP client."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import Connect
from tests.results import tool_error

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")


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


async def test_decay_through_the_client(connect: Connect) -> None:
    async with connect() as client:
        await client.call_tool("remember", {"content": "Ship on Fridays"})
        preview = await client.call_tool("decay", {"strategy": "time", "dry_run": True})
        refused = await client.call_tool("decay", {"strategy": "entropy"})
        unknown = await client.call_tool("decay", {"namespace": "nowhere"})
    assert preview.structured_content["dry_run"] is True
    assert preview.structured_content["unchanged"] == 1
    assert tool_error(refused)["type"] == "invalid_input"
    assert tool_error(unknown)["type"] == "not_found"


async def test_consolidate_through_the_client(connect: Connect) -> None:
    async with connect() as client:
        first = await client.call_tool("remember", {"content": "Ship on Fridays."})
        await client.call_tool("remember", {"content": "ship on fridays"})
        done = await client.call_tool("consolidate", {"strategy": "keep_oldest"})
        old = await client.call_tool("recall", {"query": "when do we ship?", "limit": 1})
        refused = await client.call_tool("consolidate", {"similarity_threshold": 0.2})
    assert done.structured_content["groups_found"] == 1
    kept = done.structured_content["consolidated"][0]["kept"]["id"]
    assert kept == first.structured_content["id"]
    assert old.structured_content["memories"][0]["id"] == kept
    assert tool_error(refused)["type"] == "invalid_input"


async def test_extract_through_the_client(connect: Connect) -> None:
    text = "Ana: We decided to ship the beta in June.\nBen: Did you tell the team?"
    async with connect() as client:
        found = await client.call_tool("extract", {"text": text, "namespace": "notes"})
        refused = await client.call_tool("extract", {"text": text, "types": ["gossip"]})
    assert [i["type"] for i in found.structured_content["extracted"]] == ["decision"]
    assert found.structured_content["skipped_items"][0]["reason"] == "a question"
    assert tool_error(refused)["type"] == "invalid_input"
