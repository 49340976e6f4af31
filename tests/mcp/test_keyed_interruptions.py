"""A keyed write interrupted between any two of its commits, then retried with its key on
another server: the write is stored exactly once, and a key is never left claimed for a write
that was not stored (issue 59: a keyed checkpoint save on PostgreSQL claimed its key in the
payload's transaction, so a kill before the checkpoint's own left the key "applied" and the
checkpoint lost).

The first server dies at its k-th commit of the call, for every k the call makes: that commit
and every later one fail, as they would in a process that was killed (so the claim of a key
that was committed is not let go either)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.mcp.server import LociServer, build_server
from loci.settings import load_settings
from loci.storage.databases.db import Connection
from mcp import Client
from tests.results import tool_error

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("no_os_keychain")]
ENGINES = ("sqlite", "postgresql")


class ProcessKilledError(Exception):
    """The server's process is gone."""


class Killer:
    """A before-commit hook that kills its server at the `at`-th commit while armed."""

    def __init__(self) -> None:
        self.at: int | None = None
        self.commits = 0

    def arm(self, at: int | None) -> None:
        self.at, self.commits = at, 0

    def __call__(self, conn: Connection) -> None:
        self.commits += 1
        if self.at is not None and self.commits >= self.at:
            raise ProcessKilledError(f"killed at commit {self.at}")


def server_with_killer(settings: Any, embedder: OnnxMiniLM) -> tuple[LociServer, Killer]:
    server = build_server(settings, embedder)
    killer = Killer()
    db: Any = server.provider.app().db
    db._before_commit = (*db._before_commit, killer)  # the engines' hooks, run at each commit
    return server, killer


Check = Callable[[Client, str], Awaitable[None]]


async def texts_of(client: Client) -> list[str]:
    exported = await client.call_tool("export_memories", {"namespace": "default"})
    return [m["content"] for m in exported.structured_content["export"]["memories"]]


async def remembered_once(client: Client, tag: str) -> None:
    assert (await texts_of(client)).count(f"note {tag}") == 1


async def batch_once(client: Client, tag: str) -> None:
    texts = await texts_of(client)
    assert texts.count(f"first {tag}") == 1 and texts.count(f"second {tag}") == 1


async def checkpoint_once(client: Client, tag: str) -> None:
    listed = await client.call_tool("workflow_checkpoint_list", {"sessionId": f"s-{tag}"})
    assert listed.structured_content["total"] == 2  # the older one and this one
    newest = await client.call_tool("workflow_checkpoint_load", {"sessionId": f"s-{tag}"})
    assert newest.structured_content["context"] == {"goal": tag, "step": 2}


async def story_once(client: Client, tag: str) -> None:
    stats = await client.call_tool("get_context_stats", {"session_id": f"tale-{tag}"})
    assert stats.structured_content["interactions"] == 1


async def context_once(client: Client, tag: str) -> None:
    listed = await client.call_tool("list_projects", {})
    (project,) = [
        p["project_id"] for p in listed.structured_content["projects"] if p["name"] == tag
    ]
    shown = await client.call_tool("get_context", {"project_id": project, "file_type": "bugs"})
    assert f"Bug {tag}" in shown.structured_content["content"]
    history = await client.call_tool(
        "context_history", {"project_id": project, "file_type": "bugs"}
    )
    assert len(history.structured_content["versions"]) == 1


async def older_checkpoint(client: Client, tag: str, folder: Path) -> dict[str, Any]:
    older = {"context": {"goal": tag, "step": 1}, "sessionId": f"s-{tag}"}
    assert not (await client.call_tool("workflow_checkpoint_save", older)).is_error
    return {"context": {"goal": tag, "step": 2}, "sessionId": f"s-{tag}"}


async def new_project(client: Client, tag: str, folder: Path) -> dict[str, Any]:
    (folder / tag).mkdir()
    made = await client.call_tool("init_project", {"path": str(folder / tag), "name": tag})
    return {
        "project_id": made.structured_content["project_id"],
        "file_type": "bugs",
        "content": f"# Bugs\n\n## Open\n\n- Bug {tag}\n",
        "force": True,
    }


Setup = Callable[[Client, str, Path], Awaitable[dict[str, Any]]]


def fixed(arguments: Callable[[str], dict[str, Any]]) -> Setup:
    async def setup(client: Client, tag: str, folder: Path) -> dict[str, Any]:
        return arguments(tag)

    return setup


KEYED: dict[str, tuple[Setup, Check]] = {
    "remember": (fixed(lambda tag: {"content": f"note {tag}"}), remembered_once),
    "remember_batch": (
        fixed(
            lambda tag: {"memories": [{"content": f"first {tag}"}, {"content": f"second {tag}"}]}
        ),
        batch_once,
    ),
    "workflow_checkpoint_save": (older_checkpoint, checkpoint_once),
    "continue_story": (
        fixed(
            lambda tag: {
                "session_id": f"tale-{tag}",
                "user_input": "Go on.",
                "assistant_response": f"It rained over {tag} all night.",
            }
        ),
        story_once,
    ),
    "update_context": (new_project, context_once),
}


@pytest.mark.parametrize("tool", sorted(KEYED))
async def test_a_keyed_write_killed_between_its_commits_is_stored_once_on_retry(
    tool: str, home: Path, tmp_path: Path, embedder: OnnxMiniLM, engine_settings: dict[str, Any]
) -> None:
    setup, stored_once = KEYED[tool]
    settings = load_settings(home=home, **engine_settings)
    first, killer = server_with_killer(settings, embedder)
    # How many commits the call makes when nothing goes wrong (its write and its receipt).
    async with Client(first) as client:
        arguments = await setup(client, "whole", tmp_path)
        killer.arm(None)
        done = await client.call_tool(tool, {**arguments, "idempotency_key": "whole"})
        assert not done.is_error, done
        commits = killer.commits
        await stored_once(client, "whole")
    assert commits >= 2
    for at in range(1, commits + 1):
        tag = f"k{at}"
        first, killer = server_with_killer(settings, embedder)
        async with Client(first) as client:
            arguments = {**await setup(client, tag, tmp_path), "idempotency_key": tag}
            killer.arm(at)
            lost = await client.call_tool(tool, arguments)
            killer.arm(None)
            assert lost.is_error, f"the call survived its kill at commit {at}"
        async with Client(build_server(settings, embedder)) as retrying:
            again = await retrying.call_tool(tool, arguments)
            if again.is_error:  # the write committed before the kill: said, not redone
                error = tool_error(again)
                assert error["type"] == "conflict" and error["details"]["applied"] is True, error
            await stored_once(retrying, tag)
