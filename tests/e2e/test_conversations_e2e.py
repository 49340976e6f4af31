"""End to end: a conversation through `remember_conversation` and `loci import-chat`."""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import connected
from tests.e2e.conftest import run_loci as loci
from tests.results import tool_error
from tests.unit.test_conversations import CHAT

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def test_remember_conversation_then_recall_the_turns(tmp_path):
    async with connected(tmp_path) as client:
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
async def test_bad_conversations_are_refused_and_store_nothing(tmp_path, arguments):
    async with connected(tmp_path) as client:
        result = await client.call_tool("remember_conversation", arguments)
        assert result.is_error
        assert tool_error(result)["type"] == "invalid_input"
        stats = await client.call_tool("stats", {})
        assert stats.structured_content["total_memories"] == 0


def test_import_chat_command(tmp_path):
    chat = tmp_path / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(m) for m in CHAT), encoding="utf-8")
    done = loci(tmp_path / "home", "import-chat", str(chat), "--namespace", "chat", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stored"] == 6
    again = loci(tmp_path / "home", "import-chat", str(chat), "--namespace", "chat")
    assert "stored 0 messages in chat (6 already there, 2 sessions)" in again.stdout
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps([CHAT[0], {"speaker": "x"}]), encoding="utf-8")
    failed = loci(tmp_path / "home", "import-chat", str(broken), "--namespace", "other")
    assert failed.returncode == 2 and "message 1: text is missing" in failed.stderr
    listed = loci(tmp_path / "home", "stats", "--json")
    assert json.loads(listed.stdout)["total_memories"] == 6
