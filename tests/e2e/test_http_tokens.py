"""Named tokens on a real HTTP server: each sees and uses only its toolsets, a read-only one
writes nothing, a revoked one is refused at its next request, the data folder's token may do
everything."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import PromptReference

from tests.e2e.conftest import INITIALIZE, run_loci
from tests.e2e.http_server import http_client, http_server
from tests.results import tool_error

CHATS = Path(__file__).resolve().parent.parent / "fixtures" / "chats"
pytestmark = [pytest.mark.anyio, pytest.mark.e2e, pytest.mark.timeout(300)]


def made_token(home, name: str, *options: str, **env: str) -> str:
    made = run_loci(home, "token", "create", name, *options, "--json", **env)
    assert made.returncode == 0, made.stderr
    token: str = json.loads(made.stdout)["token"]
    return token


def rows(home, store_env: dict[str, str], statement: str) -> list[tuple]:
    """What `statement` reads in the test's store, on either engine."""
    url = store_env.get("LOCI_DATABASE_URL")
    if url is None:
        with sqlite3.connect(home / "loci.db") as conn:
            return conn.execute(statement).fetchall()
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(statement).fetchall()


async def test_named_tokens_use_only_what_they_are_granted(home, tmp_path, store_env):
    reader = made_token(home, "reader", "--toolsets", "memory", "--read-only", **store_env)
    writer = made_token(home, "writer", "--toolsets", "memory,context", **store_env)
    kept = " ".join(str(row) for row in rows(home, store_env, "SELECT * FROM access_tokens"))
    assert reader not in kept and writer not in kept  # digests only
    with http_server(home, **store_env) as served:
        async with http_client(served) as owner:
            await owner.call_tool("remember", {"content": "The owner's note."})
            everything = {tool.name for tool in (await owner.list_tools()).tools}
        async with http_client(served, reader) as client:
            tools = (await client.list_tools()).tools
            names = {tool.name for tool in tools}
            assert "recall" in names and "stats" in names
            assert not names & {"remember", "forget", "init_project", "list_sessions"}
            assert all(tool.annotations.read_only_hint for tool in tools)
            refused = await client.call_tool("remember", {"content": "not allowed"})
            assert tool_error(refused)["type"] == "forbidden"
            assert "it may only read" in tool_error(refused)["message"]
            other = await client.call_tool("list_sessions", {})
            assert (
                "the checkpoints toolset is not among its toolsets" in tool_error(other)["message"]
            )
            found = await client.call_tool("recall", {"query": "the owner's note"})
            assert found.structured_content["memories"]
            # A read-only token changes nothing, not even what a recall counts as an access.
            assert rows(home, store_env, "SELECT max(access_count) FROM memories") == [(0,)]
            # memory://stats and memory://namespaces show the context toolset's namespaces too.
            assert not (await client.list_resources()).resources
            templates = (await client.list_resource_templates()).resource_templates
            assert {t.uri_template.split(":")[0] for t in templates} == {"memory"}
            with pytest.raises(MCPError, match="the checkpoints toolset is not among its toolsets"):
                await client.read_resource("checkpoints://sessions/anything")
            prompts = {prompt.name for prompt in (await client.list_prompts()).prompts}
            assert prompts == {"remember_this_session", "recall_about"}
            recall_about = PromptReference(type="ref/prompt", name="recall_about")
            offered = await client.complete(recall_about, {"name": "namespace", "value": ""})
            assert offered.completion.values == ["default"]
            with pytest.raises(MCPError, match="the checkpoints toolset is not among its toolsets"):
                # The argument's values are the checkpoint sessions, whatever prompt asks.
                await client.complete(recall_about, {"name": "session_id", "value": ""})
        async with http_client(served, writer) as client:
            stored = await client.call_tool("remember", {"content": "The writer's note."})
            assert not stored.is_error
            (tmp_path / "project").mkdir()
            project = await client.call_tool("init_project", {"path": str(tmp_path / "project")})
            assert not project.is_error
            saved = await client.call_tool("workflow_checkpoint_save", {"context": {"a": 1}})
            assert tool_error(saved)["type"] == "forbidden"
        assert rows(home, store_env, "SELECT count(*) FROM memories")[0][0] == 2
        assert run_loci(home, "token", "revoke", "reader", **store_env).returncode == 0
        headers = {"Authorization": f"Bearer {reader}"}
        status, _, body = served.request("POST", body=INITIALIZE, headers=headers)
        assert status == 401 and b"the token 'reader' was revoked on" in body
        guess = {"Authorization": "Bearer loci_not-a-token"}
        assert (
            b"the bearer token is wrong"
            in served.request("POST", body=INITIALIZE, headers=guess)[2]
        )
        async with http_client(served) as owner:  # the data folder's token: everything
            assert {tool.name for tool in (await owner.list_tools()).tools} == everything


async def test_context_files_and_keys_follow_the_token(home, tmp_path, store_env):
    """A token without the context toolset does not reach the memories of context files;
    each token's idempotency keys are its own."""
    memory_only = made_token(home, "mo", "--toolsets", "memory", **store_env)
    other = made_token(home, "other", **store_env)
    (tmp_path / "project").mkdir()
    with http_server(home, **store_env) as served:
        async with http_client(served) as owner:
            made = await owner.call_tool("init_project", {"path": str(tmp_path / "project")})
            project = made.structured_content["project_id"]
            saved = await owner.call_tool(
                "update_context",
                {
                    "project_id": project,
                    "file_type": "bugs",
                    "content": "# Bugs\n\n## Open\n\n- The quokka importer drops umlauts\n",
                    "force": True,
                },
            )
            assert not saved.is_error
            await owner.call_tool("remember", {"content": "Quokkas live on Rottnest Island."})
        space = f"project:{project}"
        async with http_client(served, memory_only) as client:

            async def call(tool: str, arguments: dict) -> dict:
                answer = await client.call_tool(tool, arguments)
                if answer.is_error:
                    return {"error": tool_error(answer)["type"]}
                return answer.structured_content

            forbidden = {"error": "forbidden"}
            listed = await call("namespaces", {})
            assert [n["name"] for n in listed["namespaces"]] == ["default"]
            found = await call("recall", {"query": "quokka importer umlauts", "limit": 20})
            assert [m["namespace"] for m in found["memories"]] == ["default"]
            assert await call("recall", {"query": "quokka", "namespace": space}) == forbidden
            assert await call("remember", {"content": "x", "namespace": space}) == forbidden
            assert await call("stats", {}) == forbidden  # every namespace: name one
            assert (await call("stats", {"namespace": "default"}))["storage_size_mb"] is None
            gone = await call("forget", {"filters": {"tags": {"contains": "bugs"}}})
            assert gone["deleted"] == 0
            first = await call("remember", {"content": "mo's note", "idempotency_key": "k-1"})
            assert first["namespace"] == "default"
        async with http_client(served, other) as client:
            # The same key from another token is another write, which learns nothing of the first.
            again = await client.call_tool(
                "remember", {"content": "other's note", "idempotency_key": "k-1"}
            )
            assert not again.is_error and again.structured_content["id"] != first["id"]
        async with http_client(served) as owner:
            kept = await owner.call_tool("recall", {"query": "quokka importer", "namespace": space})
            assert kept.structured_content["memories"]


def texts(found: list[dict]) -> list[str]:
    return [str(item["content"]) for item in found]


async def test_a_namespace_token_reaches_its_namespaces_only_through_every_tool(home, store_env):
    ana = made_token(home, "ana", "--namespaces", "mine", **store_env)
    with http_server(home, **store_env) as served:
        async with http_client(served) as owner:
            ids: dict[str, list[str]] = {"mine": [], "theirs": []}
            for space in ids:
                for number in range(4):
                    content = f"{space} note {number} about the garden and its roses"
                    made = await owner.call_tool(
                        "remember", {"content": content, "namespace": space, "tags": ["g"]}
                    )
                    ids[space].append(made.structured_content["id"])
        mine, theirs = ids["mine"], ids["theirs"]
        async with http_client(served, ana) as client:

            async def call(tool: str, arguments: dict) -> dict:
                answer = await client.call_tool(tool, arguments)
                if answer.is_error:
                    return {"error": tool_error(answer)["type"]}
                return answer.structured_content

            forbidden, missing = {"error": "forbidden"}, {"error": "not_found"}
            # Writes go to its namespace, never to another.
            assert (await call("remember", {"content": "ana's own"}))["namespace"] == "mine"
            assert await call("remember", {"content": "x", "namespace": "theirs"}) == forbidden
            batch = {"memories": [{"content": "y", "namespace": "theirs"}]}
            assert await call("remember_batch", batch) == forbidden
            chat = {"messages": [{"speaker": "A", "text": "hi"}], "namespace": "theirs"}
            assert await call("remember_conversation", chat) == forbidden
            assert (
                await call("extract", {"text": "I like tea.", "namespace": "theirs"}) == forbidden
            )
            # Searches see its namespace only.
            found = await call("recall", {"query": "the garden and its roses", "limit": 20})
            assert texts(found["memories"]) and all(
                "theirs" not in t for t in texts(found["memories"])
            )
            assert await call("recall", {"query": "roses", "namespace": "theirs"}) == forbidden
            near = await call("nearby", {"memory_id": mine[0], "limit": 10})
            assert near["neighbors"] and all("theirs" not in t for t in texts(near["neighbors"]))
            assert await call("nearby", {"memory_id": theirs[0]}) == missing
            path = await call("journey", {"start_id": mine[0], "end_id": mine[1]})
            walked = [step["nearest_memory"] for step in path["path"] if step["nearest_memory"]]
            assert all(step["id"] not in theirs for step in walked)
            assert await call("journey", {"start_id": mine[0], "end_id": theirs[1]}) == missing
            walk = await call("wander", {"seed_id": mine[0], "steps": 6})
            assert all(step["memory"]["id"] not in theirs for step in walk["journey"])
            assert await call("wander", {"seed_id": theirs[0]}) == missing
            shown = await call("stats", {})
            assert shown["total_memories"] == 5 and shown["storage_size_mb"] is None
            assert await call("stats", {"namespace": "theirs"}) == forbidden
            listed = await call("namespaces", {})
            assert [space["name"] for space in listed["namespaces"]] == ["mine"]
            assert listed["message"] == "1 namespace"
            assert await call("namespaces", {"action": "delete", "name": "theirs"}) == forbidden
            exported = await call("export_memories", {})
            assert {m["namespace"] for m in exported["export"]["memories"]} == {"mine"}
            assert (await call("regions", {}))["total_memories"] == 5
            assert await call("regions", {"namespace": "theirs"}) == forbidden
            assert await call("visualize", {"namespace": "theirs"}) == forbidden
            # Their memories cannot be changed or deleted by id, nor in bulk.
            assert await call("reinforce", {"memory_id": theirs[0]}) == missing
            assert await call("forget", {"memory_id": theirs[0]}) == missing
            assert await call("forget_batch", {"memory_ids": [mine[3], theirs[1]]}) == missing
            assert await call("decay", {"namespace": "theirs", "dry_run": True}) == forbidden
            assert await call("consolidate", {"namespace": "theirs", "dry_run": True}) == forbidden
            gone = await call("forget", {"filters": {"tags": {"contains": "g"}}})
            assert gone["deleted"] == 4
            imported = await call("import_memories", {"data": exported})
            assert (imported["imported"], imported["skipped_duplicates"]) == (4, 1)
            # An id of theirs tells nothing: the memory is imported as a new one.
            probe = {**exported["export"]["memories"][0], "id": theirs[2], "content": "a copy"}
            copied = await call("import_memories", {"data": {"memories": [probe]}})
            assert (copied["imported"], copied["skipped_duplicates"]) == (1, 0)
            assert copied["ids"] != [theirs[2]]
            with pytest.raises(MCPError, match="every namespace"):
                await client.read_resource("memory://stats")
            with pytest.raises(MCPError, match="'theirs'"):
                await client.read_resource("memory://namespaces/theirs")
            recall_about = PromptReference(type="ref/prompt", name="recall_about")
            offered = await client.complete(recall_about, {"name": "namespace", "value": ""})
            assert offered.completion.values == ["mine"]
            with pytest.raises(MCPError, match="'theirs'"):
                await client.get_prompt("recall_about", {"topic": "roses", "namespace": "theirs"})
            # Chat exports: never read by path on the server's machine, never into theirs.
            claude = (CHATS / "claude" / "conversations.json").read_text()
            assert await call("import_chats", {"path": str(CHATS / "claude")}) == forbidden
            into_theirs = {"content": claude, "namespace": "theirs"}
            assert await call("import_chats", into_theirs) == forbidden
            chats = await call("import_chats", {"content": claude})
            assert (chats["namespaces"], chats["stored"]) == (["mine"], 6)
        async with http_client(served) as owner:
            kept = await owner.call_tool("export_memories", {"namespace": "theirs"})
            assert len(kept.structured_content["export"]["memories"]) == 4


def streamed(body: bytes) -> dict:
    """The JSON-RPC message of a one-event stream."""
    data = [line for line in body.decode().splitlines() if line.startswith("data:")]
    message: dict = json.loads(data[0].removeprefix("data:"))
    return message


def refused_as_invalid(message: dict) -> bool:
    """Whether a call was refused for its arguments (a tool error or a JSON-RPC one)."""
    if "error" in message:
        return bool(message["error"]["code"] == -32602)
    result = message["result"]
    error = json.loads(result["content"][0]["text"])["error"]
    return bool(result["isError"] and error["type"] == "invalid_input")


def test_malformed_calls_of_a_limited_token_are_refused_not_crashed(home):
    ana = made_token(home, "ana", "--namespaces", "mine")
    with http_server(home) as served:
        headers = {"Authorization": f"Bearer {ana}"}
        status, answered, _ = served.request("POST", body=INITIALIZE, headers=headers)
        assert status == 200
        headers["Mcp-Session-Id"] = answered["mcp-session-id"]
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        served.request("POST", body=initialized, headers=headers)
        for number, params in enumerate(
            [
                {"name": "recall", "arguments": ["not", "an", "object"]},
                {"name": "recall", "arguments": {"query": 5, "namespace": ["mine"]}},
                {"name": "forget_batch", "arguments": {"memory_ids": "abc"}},
                {"name": "remember_batch", "arguments": {"memories": 5}},
            ],
            start=2,
        ):
            call = {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params}
            status, _, body = served.request("POST", body=call, headers=headers)
            assert status == 200
            assert refused_as_invalid(streamed(body)), body
        complete = {
            "jsonrpc": "2.0",
            "id": 9,
            "method": "completion/complete",
            "params": {"ref": {"type": "ref/prompt", "name": "x"}, "argument": "namespace"},
        }
        status, _, body = served.request("POST", body=complete, headers=headers)
        assert status == 200 and streamed(body)["error"]["code"] == -32602, body
        assert "Traceback" not in served.stderr()
