"""A database emptied beside the files it described (truncated to 0 bytes, or replaced by a
fresh one) opens as an empty store: the server warns, and `stats` says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.types import LoggingMessageNotificationParams

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.mcp.server import build_server
from loci.settings import load_settings
from mcp import Client
from tests.mcp.conftest import Connect

pytestmark = pytest.mark.anyio
#: Every test here runs on both engines.
ENGINES = ("sqlite", "postgresql")


async def fill_then_empty(connect: Connect, home: Path, project: Path) -> None:
    async with connect() as client:
        await client.call_tool("workflow_checkpoint_save", {"context": {"goal": "ship"}})
        await client.call_tool("init_project", {"path": str(project)})
    (home / "loci.db").write_bytes(b"")  # closed: no WAL file holds anything more


@pytest.mark.sqlite_only
async def test_the_server_warns_and_stats_reports_it(
    connect: Connect, home: Path, embedder: OnnxMiniLM, tmp_path: Path
) -> None:
    await fill_then_empty(connect, home, tmp_path)
    received: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        received.append(params)

    server = build_server(load_settings(home=home), embedder)
    async with Client(server, logging_callback=on_log, log_level="warning") as client:
        stats = (await client.call_tool("stats", {})).structured_content
    warnings = stats["warnings"]
    assert len(warnings) == 2
    projects, checkpoints = warnings  # in the registry's order: context, then checkpoints
    assert "no checkpoints" in checkpoints and "1 checkpoint file" in checkpoints
    assert "no context projects" in projects and "1 project folder" in projects
    assert all("emptied or replaced" in warning for warning in warnings)
    assert [str(message.data) for message in received] == warnings


async def test_a_healthy_store_has_no_warnings(connect: Connect, tmp_path: Path) -> None:
    async with connect() as client:
        await client.call_tool("workflow_checkpoint_save", {"context": {"goal": "ship"}})
        await client.call_tool("init_project", {"path": str(tmp_path)})
        stats = (await client.call_tool("stats", {})).structured_content
    assert stats["warnings"] == []
