"""A fifth toolset plugs in with its folder and one line of the registry: its service is
built with the others, its tables are migrated, its tools listed and owned (so a token limited
to it reaches them and nothing else), its command and its page served, its orphan check
asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from loci import toolsets
from loci.app import build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.cli import main
from loci.faces.mcp.provider import AppProvider
from loci.faces.web.app import build_view
from loci.settings import load_settings
from tests import toy_toolset
from tests.mcp.conftest import Connect

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one line a new toolset adds to `loci/toolsets/__init__.py`."""
    monkeypatch.setattr(toolsets, "TOOLSETS", (*toolsets.TOOLSETS, toy_toolset.TOOLSET))


async def test_its_tools_are_listed_and_work(connect: Connect) -> None:
    async with connect() as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert {"toy_pin", "toy_pins", "remember"} <= set(listed)
        assert listed["toy_pins"].annotations and listed["toy_pins"].annotations.read_only_hint
        await client.call_tool("toy_pin", {"note": "milk"})
        pinned = await client.call_tool("toy_pins", {})
        assert pinned.structured_content == {"notes": ["milk"]}


async def test_it_is_enabled_like_any_other(connect: Connect) -> None:
    async with connect(toolsets=["memory"]) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert "remember" in names and "toy_pin" not in names
    async with connect(toolsets=["toy"]) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"toy_pin", "toy_pins"}


def test_its_owner_is_recorded_as_tools_are_added(home: Path, embedder: OnnxMiniLM) -> None:
    from loci.faces.mcp.server import build_server

    server = build_server(load_settings(home=home), embedder)
    server.build_toolsets()
    assert server.owners.tools["toy_pin"] == "toy" and server.owners.tools["recall"] == "memory"
    assert "toy_pins" in server.owners.readers and "toy_pin" not in server.owners.readers


def test_its_tables_command_page_and_orphan_check(
    home: Path, embedder: OnnxMiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(home=home)
    app = build_app(settings, embedder)
    try:
        assert app.db.schema_versions()["toy"] == 1
        (home / "toy.pin").write_text("lost")
        assert "toy.pin" in json.dumps(app.catalog.stats().model_dump())
        from tests.toy_toolset.board import Board

        assert isinstance(app.parts["toy"], Board)  # built by its `build`, kept by the app
        app.part("toy", Board).pin("bread")
        secret, _ = app.access.create("pinner", toolsets=["toy"])
        grant = app.access.grant_of(secret)
        assert grant is not None and grant.allows("toy", writes=True)
        assert not grant.allows("memory", writes=False)
    finally:
        app.close()
    monkeypatch.setattr(main.cli, "commands", dict(main.cli.commands))
    out = CliRunner().invoke(main.commands(), ["--home", str(home), "toy"], obj=None)
    assert out.exit_code == 0 and out.output.strip() == "bread"
    provider = AppProvider(settings, embedder)
    try:
        secured, _ = build_view(provider, None, None, ["testserver"])
        page = TestClient(secured).get("/ui/toy")
        assert page.status_code == 200 and page.text == "bread"
    finally:
        provider.close()
