"""The memory toolset through the in-memory client: resources, and bad input refused whole."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_stdio_server import UNKNOWN_ID, total
from tests.mcp.conftest import Connect
from tests.results import tool_error

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")


async def test_resources_are_json(connect: Connect) -> None:
    async with connect() as client:
        await client.call_tool("remember", {"content": "resource check", "namespace": "res"})
        stats = json.loads((await client.read_resource("memory://stats")).contents[0].text)
        assert stats["namespaces"] == {"res": 1}
        names = json.loads((await client.read_resource("memory://namespaces")).contents[0].text)
        assert [n["name"] for n in names["namespaces"]] == ["res"]


DEEP: dict[str, object] = {"a": {}}
for _ in range(40):  # metadata nested past the limit (32 levels)
    DEEP = {"a": [DEEP]}

BAD_CALLS = [
    ("remember", {"content": 42}),
    ("remember", {}),
    ("remember", {"content": ""}),
    ("remember", {"content": "   "}),
    ("remember", {"content": "x" * 70_000}),
    ("remember", {"content": "é" * 40_000}),
    ("remember", {"content": "ok", "importance": 1.5}),
    ("remember", {"content": "ok", "importance": "high"}),
    ("remember", {"content": "ok", "namespace": "../../etc"}),
    ("remember", {"content": "ok", "tags": "not-a-list"}),
    ("remember", {"content": "ok", "metadata": [1, 2]}),
    ("remember", {"content": "ok", "metadata": DEEP}),
    ("remember_batch", {"memories": []}),
    ("remember_batch", {"memories": [{"content": "x"}] * 101}),
    ("recall", {"query": "x", "limit": 101}),
    ("recall", {"query": "x", "limit": 0}),
    ("recall", {"query": "x", "filters": {"bogus": {"eq": 1}}}),
    ("recall", {"query": "x", "filters": {"importance": {"near": 1}}}),
    ("recall", {"query": "x", "filters": "importance > 1"}),
    ("recall", {"query": "x", "filters": {"metadata.n": 2**64}}),
    ("recall", {"query": "x", "filters": {"created_at": {"gt": "0001-01-01T00:00:00+01:00"}}}),
    ("recall", {"query": "x", "namespace": "never-created"}),
    ("recall", {"query": "x", "hybrid_alpha": 2}),
    ("nearby", {"memory_id": UNKNOWN_ID}),
    ("nearby", {"memory_id": "../../etc/passwd"}),
    ("nearby", {"memory_id": "\x00\x01\x02"}),
    ("nearby", {"memory_id": "a" * 5000}),
    ("forget", {}),
    ("forget", {"memory_id": UNKNOWN_ID}),
    ("forget", {"namespace": "never-created"}),
    ("forget_batch", {"memory_ids": ["not-a-uuid"]}),
    ("stats", {"namespace": "never-created"}),
    ("namespaces", {"action": "delete", "name": "never-created"}),
    ("namespaces", {"action": "explode"}),
    ("namespaces", {"action": "create"}),
    ("import_memories", {"data": {"memories": "nope"}}),
]


async def test_bad_input_gets_structured_errors_and_changes_nothing(connect: Connect) -> None:
    async with connect() as client:
        await client.call_tool("remember", {"content": "the one memory"})
        for tool, arguments in BAD_CALLS:
            result = await client.call_tool(tool, arguments)
            assert result.is_error, (tool, arguments)
            error = tool_error(result)
            assert error["type"] in {"invalid_input", "not_found"}, (tool, arguments, error)
            assert error["message"] and isinstance(error["details"], dict)
        assert await total(client) == 1
        names = await client.call_tool("namespaces", {})
        assert [n["name"] for n in names.structured_content["namespaces"]] == ["default"]


async def test_namespace_conditions_that_cannot_all_hold_find_nothing(connect: Connect) -> None:
    """On both engines alike (PostgreSQL once answered `internal`: `IN ()`)."""
    async with connect() as client:
        for space in ("work", "home", "bob"):
            await client.call_tool(
                "remember",
                {"content": f"A {space} note about the garden and its roses.", "namespace": space},
            )
        both = {
            "operator": "and",
            "filters": [
                {"field": "namespace", "operator": "eq", "value": "work"},
                {"field": "namespace", "operator": "eq", "value": "home"},
            ],
        }
        asked = [
            {"query": "garden roses", "filters": both},
            {"query": "garden roses", "namespace": "bob", "filters": {"namespace": "work"}},
        ]
        for arguments in asked:
            found = await client.call_tool("recall", arguments)
            assert not found.is_error, found.content
            assert found.structured_content["memories"] == []
        gone = await client.call_tool("forget", {"filters": both, "dry_run": True})
        assert not gone.is_error and gone.structured_content["deleted"] == 0
