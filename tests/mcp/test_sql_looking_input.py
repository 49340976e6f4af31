"""Text that looks like SQL is stored and read back as text on both engines: every statement
binds its values, none is built from them."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import Connect

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")

NASTY = [
    "'; DROP TABLE memories; --",
    '" OR 1=1 --',
    "Robert'); DELETE FROM namespaces WHERE ('1'='1",
    "100% of ? and %s and $1 and :name",
    "a backslash \\ and a quote ' inside",
]


async def test_sql_looking_text_is_kept_as_text(connect: Connect) -> None:
    async with connect() as client:
        ids = []
        for text in NASTY:
            stored = await client.call_tool(
                "remember",
                {"content": text, "tags": [text[:60]], "metadata": {text[:30]: text}},
            )
            assert not stored.is_error, stored
            ids.append(stored.structured_content["id"])
        exported = await client.call_tool("export_memories", {"limit": 100})
        memories = {m["id"]: m for m in exported.structured_content["export"]["memories"]}
        for memory_id, text in zip(ids, NASTY, strict=True):
            got = memories[memory_id]
            assert got["content"] == text and got["tags"] == [text[:60]]
            assert got["metadata"] == {text[:30]: text}
        found = await client.call_tool(
            "recall",
            {"query": NASTY[0], "limit": 10, "filters": {"tags": {"contains": NASTY[0][:60]}}},
        )
        assert [m["id"] for m in found.structured_content["memories"]] == [ids[0]]
        filtered = await client.call_tool(
            "recall",
            {"query": "anything", "filters": {"metadata.x": {"eq": NASTY[1]}}, "limit": 5},
        )
        assert not filtered.is_error and filtered.structured_content["memories"] == []
        saved = await client.call_tool("workflow_checkpoint_save", {"context": {"goal": NASTY[2]}})
        loaded = await client.call_tool(
            "workflow_checkpoint_load", {"checkpointId": saved.structured_content["checkpointId"]}
        )
        assert loaded.structured_content["context"] == {"goal": NASTY[2]}
        stats = await client.call_tool("stats", {})
        assert stats.structured_content["total_memories"] == len(NASTY)
