"""`remember_conversation` through the in-memory client: stored and found, or refused whole."""

from __future__ import annotations

import pytest

from tests.app.test_conversations import CHAT
from tests.mcp.conftest import Connect
from tests.results import tool_error

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")


async def test_remember_conversation_then_recall_the_turns(connect: Connect) -> None:
    async with connect() as client:
        stored = await client.call_tool(
            "remember_conversation",
            {"messages": CHAT, "namespace": "chat", "conversation_id": "ab"},
        )
        assert not stored.is_error, stored.content
        assert stored.structured_content["stored"] == 6
        found = await client.call_tool(
            "recall",
            {"query": "what did the doctor say about Ben's knee?", "namespace": "chat", "limit": 3},
        )
        ids = [m["metadata"]["message_id"] for m in found.structured_content["memories"]]
        assert "m4" in ids


@pytest.mark.parametrize(
    "arguments",
    [
        {"messages": [], "namespace": "chat"},
        {"messages": [{"speaker": "a", "text": "x"}], "namespace": "chat"},
        {"messages": [{**CHAT[0], "timestamp": "whenever"}], "namespace": "chat"},
        {"messages": [{**CHAT[0], "extra": 1}], "namespace": "chat"},
        {"messages": CHAT, "namespace": "../up"},
        {"messages": CHAT, "namespace": "chat", "conversation_id": "a/b"},
    ],
)
async def test_bad_conversations_are_refused_and_store_nothing(
    connect: Connect, arguments: dict[str, object]
) -> None:
    async with connect() as client:
        result = await client.call_tool("remember_conversation", arguments)
        assert result.is_error
        assert tool_error(result)["type"] == "invalid_input"
        stats = await client.call_tool("stats", {})
        assert stats.structured_content["total_memories"] == 0
