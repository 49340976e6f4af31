"""The spatial tools through the MCP client."""

from __future__ import annotations

import pytest

from tests.app.test_journey import GRADIENT
from tests.app.test_regions import TOPICS
from tests.mcp.conftest import Connect
from tests.results import tool_error

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")


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


async def test_regions_and_wander_through_the_client(connect: Connect) -> None:
    async with connect() as client:
        for texts in TOPICS.values():
            for text in texts:
                await client.call_tool("remember", {"content": text})
        found = await client.call_tool("regions", {"min_cluster_size": 3})
        cut = await client.call_tool("regions", {"num_clusters": 2})
        walk = await client.call_tool(
            "wander", {"seed": "stars", "steps": 4, "random_seed": 3, "randomness": 0.5}
        )
        both = await client.call_tool(
            "wander", {"seed": "stars", "seed_id": "00000000-0000-4000-8000-000000000000"}
        )
        unknown = await client.call_tool("regions", {"namespace": "nowhere"})
        bad_size = await client.call_tool("regions", {"min_cluster_size": 1})
        inside = await client.call_tool("regions", {"parent": "0", "min_cluster_size": 2})
        no_region = await client.call_tool("regions", {"parent": "7"})
        bad_path = await client.call_tool("regions", {"parent": "../0"})
        one_map = await client.call_tool("visualize", {"format": "json", "parent": "0"})
    assert len(found.structured_content["clusters"]) == 3
    assert [c["path"] for c in found.structured_content["clusters"]] == ["0", "1", "2"]
    assert inside.structured_content["parent"] == "0"
    assert inside.structured_content["total_memories"] == 6
    assert one_map.structured_content["total_memories"] == 6
    assert tool_error(no_region)["type"] == "not_found"
    assert tool_error(bad_path)["type"] == "invalid_input"
    assert len(cut.structured_content["clusters"]) == 2
    steps = walk.structured_content["journey"]
    assert len(steps) == 5 and walk.structured_content["random_seed"] == 3
    assert tool_error(both)["type"] == "invalid_input"
    assert tool_error(unknown)["type"] == "not_found"
    assert tool_error(bad_size)["type"] == "invalid_input"


async def test_visualize_through_the_client(connect: Connect) -> None:
    async with connect() as client:
        ids = []
        for text in TOPICS["astronomy"]:
            stored = await client.call_tool("remember", {"content": text})
            ids.append(stored.structured_content["id"])
        drawn = await client.call_tool(
            "visualize", {"format": "json", "include_edges": True, "highlight_ids": ids[:1]}
        )
        pictured = await client.call_tool("visualize", {"format": "svg", "max_memories": 3})
        refused = await client.call_tool("visualize", {"format": "png"})
    nodes = drawn.structured_content["nodes"]
    assert len(nodes) == 6 and sum(n["highlighted"] for n in nodes) == 1
    assert all({"from", "to", "weight"} == set(e) for e in drawn.structured_content["edges"])
    assert pictured.structured_content["svg"].startswith("<svg")
    assert pictured.structured_content["node_count"] == 3
    assert tool_error(refused)["type"] == "invalid_input"
