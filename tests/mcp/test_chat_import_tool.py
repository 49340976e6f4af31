"""`import_chats` through the in-memory client: an export sent as text or named by path, on
both engines; what the tool refuses stores nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.conftest import Connect
from tests.results import tool_error

pytestmark = pytest.mark.anyio
ENGINES = ("sqlite", "postgresql")
CHATS = Path(__file__).resolve().parent.parent / "fixtures" / "chats"
CODEX = next((CHATS / "codex" / "sessions" / "2025" / "09").rglob("*.jsonl"))


async def test_an_export_sent_as_content_is_stored_once(connect: Connect) -> None:
    claude = (CHATS / "claude" / "conversations.json").read_text()
    async with connect() as client:
        first = await client.call_tool("import_chats", {"content": claude})
        assert not first.is_error, first.content
        report = first.structured_content
        assert (report["formats"], report["stored"], report["namespaces"]) == (
            {"claude": 1},
            6,
            ["claude"],
        )
        again = await client.call_tool("import_chats", {"content": claude})
        assert (again.structured_content["stored"], again.structured_content["already_stored"]) == (
            0,
            6,
        )
        lines = await client.call_tool(
            "import_chats", {"content": CODEX.read_text(), "namespace": "work"}
        )
        assert lines.structured_content["formats"] == {"codex": 1}
        found = await client.call_tool(
            "recall", {"query": "where did the RSS feed move?", "namespace": "work", "limit": 2}
        )
        top = found.structured_content["memories"][0]
        assert "/feed.xml" in top["content"] and top["metadata"]["app"] == "codex"


async def test_the_owner_imports_by_path_and_a_dry_run_stores_nothing(connect: Connect) -> None:
    async with connect() as client:
        dry = await client.call_tool(
            "import_chats", {"path": str(CHATS / "gemini"), "dry_run": True}
        )
        assert dry.structured_content["stored"] == 4 and dry.structured_content["dry_run"]
        stats = await client.call_tool("stats", {})
        assert stats.structured_content["total_memories"] == 0
        done = await client.call_tool("import_chats", {"path": str(CHATS / "gemini")})
        assert done.structured_content["stored"] == 4


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        ({}, "invalid_input"),
        ({"path": "/x", "content": "[]"}, "invalid_input"),
        ({"content": '{"title": "not a chat"}'}, "invalid_input"),
        ({"content": "[]", "format": "slack"}, "invalid_input"),
        ({"content": "[]", "namespace": "../up"}, "invalid_input"),
        ({"path": "/nowhere/export.zip"}, "invalid_input"),
    ],
)
async def test_what_cannot_be_imported_is_refused(
    connect: Connect, arguments: dict[str, object], kind: str
) -> None:
    async with connect() as client:
        result = await client.call_tool("import_chats", arguments)
        assert result.is_error and tool_error(result)["type"] == kind
        stats = await client.call_tool("stats", {})
        assert stats.structured_content["total_memories"] == 0
