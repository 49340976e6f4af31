"""Tool logic through the MCP SDK's in-memory client: the real server, App, SQLite and model."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.mcp.server import build_server
from loci.settings import load_settings
from mcp import Client

Connect = Callable[..., AbstractAsyncContextManager[Client]]


@pytest.fixture
def connect(home: Path, embedder: OnnxMiniLM, engine_settings: dict[str, Any]) -> Connect:
    """Opens a client on a server for the test's data folder (settings may be overridden)."""

    @asynccontextmanager
    async def opened(**overrides: Any) -> AsyncIterator[Client]:
        settings = load_settings(home=home, **{**engine_settings, **overrides})
        server = build_server(settings, embedder)
        async with Client(server) as client:
            yield client

    return opened
