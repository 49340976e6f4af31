"""A write retried with its idempotency key answers with the first result and changes nothing,
on one server or another server of the same store; a key is never applied to another write."""

from __future__ import annotations

from typing import Any

import pytest

from loci.app import App
from loci.errors import ConflictError
from loci.storage.databases.receipts import Request
from loci.toolsets.memory.models import MemoryDraft, RememberResult
from tests.results import tool_error

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("no_os_keychain")]
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")


async def total_memories(client: Any) -> int:
    return int((await client.call_tool("stats", {})).structured_content["total_memories"])


async def test_a_retried_remember_answers_its_first_result_and_stores_once(connect) -> None:
    async with connect() as client:
        arguments = {"content": "The build runs on Fridays.", "idempotency_key": "k-1"}
        first = await client.call_tool("remember", arguments)
        again = await client.call_tool("remember", arguments)
        assert not first.is_error and again.structured_content == first.structured_content
        assert await total_memories(client) == 1
        # Without a key, each call is a write of its own.
        for _ in range(2):
            await client.call_tool("remember", {"content": "The build runs on Fridays."})
        assert await total_memories(client) == 3


async def test_each_write_tool_replays_its_first_result(connect, tmp_path) -> None:
    async with connect() as client:
        (tmp_path / "p").mkdir()
        project = await client.call_tool("init_project", {"path": str(tmp_path / "p")})
        project_id = project.structured_content["project_id"]
        calls: list[tuple[str, dict[str, Any]]] = [
            ("remember_batch", {"memories": [{"content": "a"}, {"content": "b"}]}),
            ("workflow_checkpoint_save", {"context": {"goal": "ship"}}),
            (
                "continue_story",
                {"session_id": "tale", "user_input": "Go on.", "assistant_response": "It rained."},
            ),
            (
                "update_context",
                {"project_id": project_id, "file_type": "bugs", "content": "# x", "force": True},
            ),
        ]
        for number, (tool, arguments) in enumerate(calls):
            keyed = {**arguments, "idempotency_key": f"key-{number}"}
            first = await client.call_tool(tool, keyed)
            assert not first.is_error, first
            again = await client.call_tool(tool, keyed)
            assert again.structured_content == first.structured_content, tool
        assert await total_memories(client) == 2
        sessions = await client.call_tool("list_sessions", {})
        assert sessions.structured_content["total"] == 1  # no second session for the retry
        stats = await client.call_tool("get_context_stats", {"session_id": "tale"})
        assert stats.structured_content["interactions"] == 1
        history = await client.call_tool(
            "context_history", {"project_id": project_id, "file_type": "bugs"}
        )
        assert len(history.structured_content["versions"]) == 1


async def test_a_key_used_again_for_another_write_is_a_conflict_and_writes_nothing(
    connect,
) -> None:
    async with connect() as client:
        await client.call_tool("remember", {"content": "first", "idempotency_key": "k"})
        for tool, arguments in [
            ("remember", {"content": "second"}),
            ("remember_batch", {"memories": [{"content": "first"}]}),
        ]:
            refused = await client.call_tool(tool, {**arguments, "idempotency_key": "k"})
            error = tool_error(refused)
            assert error["type"] == "conflict" and error["details"]["tool"] == "remember"
        assert await total_memories(client) == 1


async def test_servers_of_one_store_share_the_keys(connect) -> None:
    arguments = {"content": "Shared between machines.", "idempotency_key": "shared"}
    async with connect() as one, connect() as other:
        first = await one.call_tool("remember", arguments)
        retried = await other.call_tool("remember", arguments)
        assert retried.structured_content == first.structured_content
        assert await total_memories(other) == 1


async def test_a_failed_write_leaves_its_key_free(connect) -> None:
    async with connect() as client:
        placed = {"content": "one", "sequence": {"name": "log", "position": 1}}
        await client.call_tool("remember", placed)
        taken = {"content": "two", "sequence": {"name": "log", "position": 1}}
        for _ in range(2):  # the service's own conflict each time, not a replay of it
            refused = await client.call_tool("remember", {**taken, "idempotency_key": "t"})
            assert tool_error(refused)["type"] == "conflict"
            assert "position" in tool_error(refused)["message"]
        free = {"content": "two", "sequence": {"name": "log", "position": 2}}
        stored = await client.call_tool("remember", {**free, "idempotency_key": "t"})
        assert not stored.is_error and await total_memories(client) == 2


@pytest.mark.parametrize("key", ["", "x" * 201, "with space", "tab\there", "é"])
async def test_malformed_keys_are_refused_and_nothing_is_written(connect, key: str) -> None:
    async with connect() as client:
        refused = await client.call_tool("remember", {"content": "x", "idempotency_key": key})
        assert tool_error(refused)["type"] == "invalid_input"
        assert "idempotency_key" in tool_error(refused)["message"]
        assert await total_memories(client) == 0


@pytest.mark.sqlite_only
async def test_a_key_past_its_keeping_time_is_forgotten(connect, home) -> None:
    import sqlite3

    arguments = {"content": "Kept a day.", "idempotency_key": "old"}
    async with connect(idempotency_hours=1) as client:
        await client.call_tool("remember", arguments)
        with sqlite3.connect(home / "loci.db") as conn:
            conn.execute("UPDATE write_receipts SET created_at = '2000-01-01T00:00:00.000000Z'")
        await client.call_tool("remember", arguments)
        assert await total_memories(client) == 2


def test_a_write_whose_key_another_call_took_meanwhile_is_rolled_back(
    app: App, second_app: App
) -> None:
    """Two servers may look a key up at once and both find nothing: the write that commits
    second finds the key claimed inside its own transaction and is undone."""
    request = Request("raced", "remember", "f")
    with app.receipts.claiming(app.db, request):
        with second_app.receipts.claiming(second_app.db, request):
            second_app.memory.remember(MemoryDraft("the other server's write"))
        with pytest.raises(ConflictError, match="another call"):
            app.memory.remember(MemoryDraft("this server's write"))
    with app.db.locked() as conn:
        contents = [row[0] for row in conn.execute("SELECT content FROM memories")]
    assert contents == ["the other server's write"]


def test_a_write_applied_without_its_answer_is_not_applied_again(app: App) -> None:
    """A server that stopped between the write's commit and keeping its result leaves the
    key claimed without a result: a retry is told the write was applied."""
    from loci.faces.mcp.idempotency import replayed

    request = Request("lost", "remember", "f")
    with app.receipts.claiming(app.db, request):
        app.memory.remember(MemoryDraft("applied once"))
    found = app.receipts.find(app.db, request)
    assert found is not None and found.result is None
    with pytest.raises(ConflictError, match="was applied") as raised:
        replayed(found, request, RememberResult)
    assert raised.value.details["applied"] is True


def test_a_call_that_wrote_nothing_never_takes_another_calls_key(app: App, second_app: App) -> None:
    """A keyed call that committed nothing claims its key when it keeps its result: if
    another call took the key meanwhile, that call's result stays."""
    request = Request("shared", "remember", "f")
    with app.receipts.claiming(app.db, request):
        with second_app.receipts.claiming(second_app.db, request):
            second_app.receipts.complete(second_app.db, '{"first": true}')
        with pytest.raises(ConflictError, match="another call"):
            app.receipts.complete(app.db, '{"second": true}')
    found = app.receipts.find(app.db, request)
    assert found is not None and found.result == '{"first": true}'


async def test_a_keyed_call_that_saves_nothing_answers_the_same_again(connect, tmp_path) -> None:
    async with connect() as client:
        (tmp_path / "p").mkdir()
        project = await client.call_tool("init_project", {"path": str(tmp_path / "p")})
        arguments = {
            "project_id": project.structured_content["project_id"],
            "file_type": "bugs",
            "content": "not a bugs file",
            "idempotency_key": "draft-1",
        }
        first = await client.call_tool("update_context", arguments)
        assert first.structured_content["status"] == "correction_needed"
        again = await client.call_tool("update_context", arguments)
        assert again.structured_content == first.structured_content
