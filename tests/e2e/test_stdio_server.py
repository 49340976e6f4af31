"""End to end: a real `loci serve` process driven by the MCP SDK client over stdio."""

from __future__ import annotations

import json
import stat

import anyio
import pytest

from loci.toolsets.memory.transfer import IMPORT_BATCH
from tests.e2e.conftest import connected, exported_memories

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

TOOLS = {
    "remember": {
        "content",
        "namespace",
        "tags",
        "importance",
        "metadata",
        "occurred_at",
        "sequence",
        "valid_from",
        "valid_until",
        "on_conflict",
        "idempotency_key",
    },
    "remember_batch": {"memories", "namespace", "on_conflict", "idempotency_key"},
    "recall": {
        "query",
        "limit",
        "namespace",
        "filters",
        "min_similarity",
        "hybrid_alpha",
        "explain",
        "as_of",
        "include_history",
    },
    "nearby": {"memory_id", "limit", "exclude_self", "namespace"},
    "forget": {"memory_id", "filters", "namespace", "dry_run"},
    "forget_batch": {"memory_ids"},
    "stats": {"namespace"},
    "namespaces": {"action", "name", "new_name"},
    "export_memories": {"namespace", "include_vectors", "offset", "limit"},
    "import_memories": {"data", "namespace_override", "skip_duplicates", "recompute_vectors"},
    "remember_conversation": {"messages", "namespace", "conversation_id"},
    "import_chats": {"path", "content", "format", "namespace", "all_branches", "dry_run"},
    "journey": {"start_id", "end_id", "steps", "namespace"},
    "wander": {"seed", "seed_id", "steps", "randomness", "random_seed", "namespace"},
    "regions": {"namespace", "min_cluster_size", "num_clusters", "parent"},
    "visualize": {
        "format",
        "namespace",
        "include_edges",
        "max_memories",
        "highlight_ids",
        "parent",
    },
    "reinforce": {"memory_id", "boost", "max_importance"},
    "decay": {"strategy", "decay_rate", "min_importance", "namespace", "dry_run"},
    "consolidate": {"similarity_threshold", "namespace", "strategy", "dry_run"},
    "extract": {"text", "namespace", "min_importance", "types"},
    "supersede": {"old_id", "content", "new_id", "valid_from", "idempotency_key"},
    "invalidate": {"memory_id", "valid_until"},
    "dismiss_conflict": {"first_id", "second_id"},
    "memory_history": {"memory_id"},
    "init_project": {"path", "name"},
    "list_projects": set(),
    "get_context": {"project_id", "file_type", "version"},
    "update_context": {"project_id", "file_type", "content", "force", "idempotency_key"},
    "context_history": {"project_id", "file_type", "limit"},
    "list_templates": set(),
    "workflow_checkpoint_save": {"context", "sessionId", "metadata", "force", "idempotency_key"},
    "workflow_checkpoint_load": {"checkpointId", "sessionId"},
    "workflow_checkpoint_list": {"sessionId", "limit", "offset"},
    "list_sessions": {"limit", "offset"},
    "workflow_mark_critical": {"sessionId", "contextKey"},
    "continue_story": {
        "session_id",
        "user_input",
        "assistant_response",
        "settings",
        "idempotency_key",
    },
    "get_story_context": {"session_id", "current_input", "max_tokens"},
    "search_story_memory": {
        "session_id",
        "query",
        "entity_type",
        "max_results",
        "include_chunk",
    },
    "get_character_info": {"session_id", "character_name"},
    "correct_character": {"session_id", "action", "name", "other"},
    "suggest_cast_corrections": {"session_id", "limit"},
    "undo_cast_correction": {"session_id", "correction"},
    "get_plot_threads": {"session_id"},
    "update_plot_thread": {"session_id", "name", "action", "note", "entities"},
    "get_context_stats": {"session_id"},
    "list_story_sessions": set(),
}
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


async def total(client) -> int:
    result = await client.call_tool("stats", {})
    return result.structured_content["total_memories"]


async def test_tools_are_described_bounded_and_pinned(tmp_path):
    home = tmp_path / "data" / "loci"  # neither exists yet: the server creates both
    async with connected(home) as client:
        assert "remember" in (client.instructions or "") and "recall" in client.instructions
        listed = (await client.list_tools()).tools
        assert {tool.name: set(tool.input_schema["properties"]) for tool in listed} == TOOLS
        for tool in listed:
            assert tool.title and tool.description and tool.annotations is not None
            assert tool.output_schema is not None, tool.name
        by_name = {tool.name: tool for tool in listed}
        assert by_name["recall"].annotations.read_only_hint
        assert by_name["forget"].annotations.destructive_hint
        content = by_name["remember"].input_schema["properties"]["content"]
        assert content["maxLength"] == 65536
        limit = by_name["recall"].input_schema["properties"]["limit"]
        assert limit["maximum"] == 100
    # The first call of every client made the data folder: private, as is all inside it.
    listing = home / "cache" / "tool-listing.json"
    for made in (tmp_path / "data", home, listing.parent, listing, home / "loci.db"):
        assert stat.S_IMODE(made.stat().st_mode) == (0o600 if made.is_file() else 0o700), made


async def test_remember_recall_forget_round_trip(tmp_path):
    async with connected(tmp_path) as client:
        stored = await client.call_tool(
            "remember",
            {"content": "The user's cat is called Miso", "tags": ["pets"], "importance": 0.7},
        )
        assert not stored.is_error
        memory_id = stored.structured_content["id"]
        batch = await client.call_tool(
            "remember_batch",
            {
                "memories": [
                    {"content": "Tea, never coffee"},
                    {"content": "Lives in Lyon", "namespace": "places"},
                ]
            },
        )
        assert batch.structured_content["stored"] == 2
        found = await client.call_tool("recall", {"query": "what is the name of the pet?"})
        assert found.structured_content["memories"][0]["id"] == memory_id
        assert json.loads(found.content[0].text)["memories"][0]["id"] == memory_id
        near = await client.call_tool("nearby", {"memory_id": memory_id, "limit": 2})
        assert len(near.structured_content["neighbors"]) == 2
        gone = await client.call_tool("forget", {"memory_id": memory_id})
        assert gone.structured_content["deleted"] == 1
        assert await total(client) == 2


async def test_export_then_import_into_an_empty_store(tmp_path):
    async with connected(tmp_path / "a") as source:
        await source.call_tool(
            "remember_batch",
            {
                "memories": [
                    {"content": f"fact number {i}", "tags": [f"t{i}"], "metadata": {"i": i}}
                    for i in range(5)
                ]
            },
        )
        exported = (
            await source.call_tool("export_memories", {"include_vectors": True})
        ).structured_content
    async with connected(tmp_path / "b") as target:
        progress: list[float] = []
        finished = anyio.Event()

        async def on_progress(done, total_items, message):
            progress.append(done)
            if done == 5:
                finished.set()

        imported = await target.call_tool(
            "import_memories",
            {"data": exported, "recompute_vectors": False},
            progress_callback=on_progress,
        )
        assert imported.structured_content["imported"] == 5
        # The client runs progress callbacks in tasks of their own: the last may follow the
        # result by a moment.
        with anyio.fail_after(10):
            await finished.wait()
        assert progress[-1] == 5
        again = (
            await target.call_tool("export_memories", {"include_vectors": True})
        ).structured_content
        assert again["export"]["memories"] == exported["export"]["memories"]


async def test_a_cancelled_import_stops_between_batches_and_the_server_goes_on(tmp_path):
    items = exported_memories(3000)
    async with connected(tmp_path) as client:
        first_batch = anyio.Event()

        async def on_progress(done, total_items, message):
            first_batch.set()

        async def run_import(scope: anyio.CancelScope) -> None:
            with scope:
                await client.call_tool(
                    "import_memories", {"data": {"memories": items}}, progress_callback=on_progress
                )

        scope = anyio.CancelScope()
        async with anyio.create_task_group() as group:
            group.start_soon(run_import, scope)
            with anyio.fail_after(60):
                await first_batch.wait()
            scope.cancel()  # the client sends notifications/cancelled
        stored = await total(client)
        # Whole batches (IMPORT_BATCH) were committed before the cancellation was seen; none after.
        assert 0 < stored < len(items) and stored % IMPORT_BATCH == 0, stored
        assert await total(client) == stored  # nothing goes on in the background
        found = await client.call_tool("recall", {"query": "imported note number 7"})
        assert not found.is_error


async def test_two_servers_on_one_folder_lose_no_write(tmp_path):
    async with connected(tmp_path) as first, connected(tmp_path) as second:

        async def write(client, prefix):
            for i in range(15):
                result = await client.call_tool(
                    "remember", {"content": f"{prefix} note {i} about gardens"}
                )
                assert not result.is_error, result.structured_content

        async with anyio.create_task_group() as group:
            group.start_soon(write, first, "first")
            group.start_soon(write, second, "second")
        assert await total(first) == await total(second) == 30
        found = await first.call_tool(
            "recall", {"query": "second note 3", "limit": 1, "hybrid_alpha": 0}
        )
        assert found.structured_content["memories"][0]["content"].startswith("second note 3")


async def test_a_restart_lists_tools_from_the_saved_listing_and_still_serves(tmp_path):
    async with connected(tmp_path) as client:
        first = (await client.list_tools()).tools
    listing = tmp_path / "cache" / "tool-listing.json"
    saved = json.loads(listing.read_text())
    assert [tool["name"] for tool in saved["tools"]] == [tool.name for tool in first]
    # Mark the saved descriptions: a restart that answers from the file shows the mark.
    for tool in saved["tools"]:
        tool["description"] = "saved: " + tool["description"]
    listing.write_text(json.dumps(saved))
    async with connected(tmp_path) as client:
        again = (await client.list_tools()).tools
        assert [tool.description for tool in again] == [
            "saved: " + tool.description for tool in first
        ]
        assert [tool.input_schema for tool in again] == [tool.input_schema for tool in first]
        stored = await client.call_tool("remember", {"content": "Saved listings still serve"})
        assert not stored.is_error
        assert await total(client) == 1
        rejected = await client.call_tool("remember", {"content": ""})
        assert rejected.is_error
        uris = {str(resource.uri) for resource in (await client.list_resources()).resources}
        assert {"memory://stats", "memory://namespaces"} <= uris
        stats = await client.read_resource("memory://stats")
        assert json.loads(stats.contents[0].text)["total_memories"] == 1
