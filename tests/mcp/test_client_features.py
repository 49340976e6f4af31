"""What an MCP client expects besides tools: logging, completions, prompts."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import LoggingMessageNotificationParams, PromptReference, ResourceTemplateReference

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.mcp.server import build_server
from loci.settings import load_settings
from mcp import Client
from tests.mcp.conftest import Connect

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")


async def damaged_store(connect: Connect, home: Path) -> None:
    """A store with one memory whose vector is the wrong size: loading the index warns."""
    async with connect() as client:
        stored = await client.call_tool(
            "remember_batch", {"memories": [{"content": "kites fly"}, {"content": "tea"}]}
        )
        first = stored.structured_content["ids"][0]
    with sqlite3.connect(home / "loci.db") as conn:
        conn.execute(
            "UPDATE memory_vectors SET embedding = zeroblob(10) "
            "WHERE seq = (SELECT seq FROM memories WHERE id = ?)",
            (first,),
        )
    conn.close()


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.sqlite_only
async def test_warnings_reach_the_client_as_log_messages(
    connect: Connect, home: Path, embedder: OnnxMiniLM, mode: str
) -> None:
    await damaged_store(connect, home)
    received: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        received.append(params)

    server = build_server(load_settings(home=home), embedder)
    async with Client(server, mode=mode, logging_callback=on_log, log_level="warning") as client:
        if mode == "legacy":
            await client.set_logging_level("warning")
            assert client.server_capabilities.logging is not None
        result = await client.call_tool("recall", {"query": "kites"})
        assert not result.is_error
    assert [message.level for message in received] == ["warning"]
    assert "damaged vectors left out of the index" in str(received[0].data)
    assert received[0].logger == "loci.store"


@pytest.mark.sqlite_only
async def test_records_below_the_client_level_are_not_sent(
    connect: Connect, home: Path, embedder: OnnxMiniLM
) -> None:
    await damaged_store(connect, home)
    received: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        received.append(params)

    server = build_server(load_settings(home=home), embedder)
    async with Client(server, mode="legacy", logging_callback=on_log) as client:
        await client.set_logging_level("error")
        await client.call_tool("recall", {"query": "kites"})
        await client.call_tool("stats", {})
    assert received == []


async def filled_store(client: Client, project: Path) -> dict[str, str]:
    """Two namespaces, a project with a saved bug list, a checkpoint session."""
    await client.call_tool(
        "remember_batch",
        {
            "memories": [
                {"content": "The staging database is Postgres 16", "namespace": "work-infra"},
                {"content": "Ana prefers tea", "namespace": "people"},
            ]
        },
    )
    project.mkdir()
    info = await client.call_tool("init_project", {"path": str(project)})
    project_id = info.structured_content["project_id"]
    saved = await client.call_tool(
        "workflow_checkpoint_save", {"context": {"goal": "migrate the cache", "next": "tests"}}
    )
    return {"project_id": project_id, "session_id": saved.structured_content["sessionId"]}


async def test_completions_offer_stored_names(connect: Connect, tmp_path: Path) -> None:
    async with connect() as client:
        ids = await filled_store(client, tmp_path / "project")
        assert client.server_capabilities.completions is not None

        async def offered(ref: PromptReference | ResourceTemplateReference, name, value):
            answer = await client.complete(ref, {"name": name, "value": value})
            return answer.completion.values

        recall = PromptReference(type="ref/prompt", name="recall_about")
        assert await offered(recall, "namespace", "") == ["people", "work-infra"]
        assert await offered(recall, "namespace", "WO") == ["work-infra"]
        assert await offered(recall, "namespace", "zzz") == []
        review = PromptReference(type="ref/prompt", name="review_project_context")
        assert await offered(review, "project_id", ids["project_id"][:4]) == [ids["project_id"]]
        resume = PromptReference(type="ref/prompt", name="resume_workflow")
        assert await offered(resume, "session_id", "s-") == [ids["session_id"]]
        template = ResourceTemplateReference(
            type="ref/resource", uri="context://templates/{template}"
        )
        assert "session_summary" in await offered(template, "template", "se")
        assert await offered(recall, "topic", "any") == []


async def test_prompts_bring_stored_data_to_the_agent(connect: Connect, tmp_path: Path) -> None:
    async with connect() as client:
        ids = await filled_store(client, tmp_path / "project")
        listed = {prompt.name: prompt for prompt in (await client.list_prompts()).prompts}
        assert set(listed) == {
            "remember_this_session",
            "recall_about",
            "review_project_context",
            "resume_workflow",
        }
        assert all(prompt.title and prompt.description for prompt in listed.values())

        def text(result) -> str:
            return result.messages[0].content.text

        session = await client.get_prompt("remember_this_session", {"namespace": "work"})
        assert 'namespace "work"' in text(session) and "remember_batch" in text(session)
        recalled = await client.get_prompt("recall_about", {"topic": "staging database"})
        assert "Postgres 16" in text(recalled)
        review = await client.get_prompt(
            "review_project_context", {"project_id": ids["project_id"]}
        )
        assert "## bugs: not written yet" in text(review) and "update_context" in text(review)
        resume = await client.get_prompt("resume_workflow", {"session_id": ids["session_id"]})
        assert "migrate the cache" in text(resume)
        with pytest.raises(MCPError, match="no checkpoint session s-nope") as caught:
            await client.get_prompt("resume_workflow", {"session_id": "s-nope"})
        assert caught.value.error.data["type"] == "SESSION_NOT_FOUND"


async def test_resource_templates_read_stored_data(connect: Connect, tmp_path: Path) -> None:
    async with connect() as client:
        ids = await filled_store(client, tmp_path / "project")
        templates = {
            t.uri_template for t in (await client.list_resource_templates()).resource_templates
        }
        assert {
            "memory://namespaces/{namespace}",
            "context://templates/{template}",
            "context://projects/{project_id}/{file_type}",
            "checkpoints://sessions/{session_id}",
        } <= templates
        stats = await client.read_resource("memory://namespaces/people")
        assert json.loads(stats.contents[0].text)["total_memories"] == 1
        bugs = await client.read_resource(f"context://projects/{ids['project_id']}/bugs")
        assert bugs.contents[0].text.startswith("# ")
        newest = await client.read_resource(f"checkpoints://sessions/{ids['session_id']}")
        assert json.loads(newest.contents[0].text)["context"]["goal"] == "migrate the cache"
        with pytest.raises(MCPError, match="no checkpoint session"):
            await client.read_resource("checkpoints://sessions/s-nope")
