"""The saved `tools/list` answer: read back only for the same code, packages and settings."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest
from mcp.types import Tool

from loci.faces.mcp.server import LociServer, build_server
from loci.faces.mcp.tool_listing import ToolListing, _source_stats
from loci.settings import Settings


def quiet_server(settings: Settings) -> LociServer:
    """A server that does not load the App and the model after listing its tools."""
    server = build_server(settings)
    server.provider.warm_up_in_background = lambda: None  # type: ignore[method-assign]
    return server


def built_tools(settings: Settings) -> list[Tool]:
    server = quiet_server(settings)
    server.build_toolsets()
    return anyio.run(server.list_tools)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home")


def test_saved_tools_read_back_equal(settings: Settings) -> None:
    tools = built_tools(settings)
    listing = ToolListing(settings)
    assert listing.load() is not None  # listing the tools saved them
    assert listing.load() == tools
    assert len(tools) > 20


def test_other_settings_do_not_read_the_listing(settings: Settings) -> None:
    built_tools(settings)
    smaller = settings.model_copy(update={"max_recall_limit": 7})
    assert ToolListing(smaller).load() is None
    fewer = settings.model_copy(update={"toolsets": ["memory"]})
    assert ToolListing(fewer).load() is None


@pytest.mark.parametrize(
    "damage",
    [b"\x00\xffnot json", b"[]", b'{"fingerprint": 3}', b'{"tools": []}', b"{}"],
)
def test_a_damaged_listing_is_ignored(settings: Settings, damage: bytes) -> None:
    listing = ToolListing(settings)
    listing.path.parent.mkdir(parents=True)
    listing.path.write_bytes(damage)
    assert listing.load() is None


def test_invalid_tools_under_the_right_fingerprint_are_ignored(settings: Settings) -> None:
    listing = ToolListing(settings)
    listing.path.parent.mkdir(parents=True)
    body = {"fingerprint": listing.fingerprint(), "tools": [{"name": 5}]}
    listing.path.write_text(json.dumps(body))
    assert listing.load() is None


def test_a_damaged_listing_is_replaced_when_tools_are_listed(settings: Settings) -> None:
    listing = ToolListing(settings)
    listing.path.parent.mkdir(parents=True)
    listing.path.write_bytes(b"garbage")
    server = quiet_server(settings)
    tools = anyio.run(server.list_tools)
    assert listing.load() == tools


def test_an_unwritable_data_folder_only_loses_the_listing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    settings = Settings(home=blocker)
    server = quiet_server(settings)
    assert len(anyio.run(server.list_tools)) > 20
    assert ToolListing(settings).load() is None


def test_a_saved_listing_answers_and_the_tools_are_built_after(settings: Settings) -> None:
    tools = built_tools(settings)
    listing = ToolListing(settings)
    planted = [tool.model_copy(update={"description": "planted"}) for tool in tools]
    listing.save(planted)
    server = quiet_server(settings)
    assert [tool.description for tool in anyio.run(server.list_tools)] == ["planted"] * len(tools)

    async def call_stats() -> object:
        return await server.call_tool("list_templates", {})

    result = anyio.run(call_stats)  # waits for the toolsets, then runs the real tool
    assert "mental_model" in json.dumps(result.structured_content)
    server.provider.close()


def test_editing_a_source_file_changes_the_stats(tmp_path: Path) -> None:
    module = tmp_path / "pkg" / "module.py"
    module.parent.mkdir()
    module.write_text("x = 1\n")
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "module.pyc").write_bytes(b"ignored")
    before = _source_stats(tmp_path)
    assert before == [f"pkg{os.sep}module.py:6:{module.stat().st_mtime_ns};"]
    module.write_text("x = 22\n")
    assert _source_stats(tmp_path) != before
