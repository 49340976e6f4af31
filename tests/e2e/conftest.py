"""Start `loci serve` as a real process and talk to it with the MCP SDK's client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.abc import Process

from mcp import Client, StdioServerParameters


def server_params(home: Path, **env: str) -> StdioServerParameters:
    """How a client would start loci: `python -m loci serve` with LOCI_HOME set."""
    environment = {**os.environ, "LOCI_HOME": str(home), **env}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "loci", "serve"], env=environment
    )


@asynccontextmanager
async def connected(home: Path, **env: str) -> AsyncIterator[Client]:
    """A client session with a fresh `loci serve` process."""
    async with Client(server_params(home, **env), read_timeout_seconds=120) as client:
        yield client


def run_loci(
    home: Path, *args: str, answers: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """`python -m loci ARGS` as a person runs it, on the data folder `home`, typing `answers`
    when it asks (standard input is never the test runner's terminal)."""
    environment = {**os.environ, "LOCI_HOME": str(home), **env}
    return subprocess.run(
        [sys.executable, "-m", "loci", *args],
        input=answers,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}


def exported_memories(count: int) -> list[dict[str, object]]:
    """`count` memories as `export_memories` gives them (without vectors), to import."""
    return [
        {
            "id": f"6f1c5c1e-8f43-4a57-9c54-{i:012d}",
            "content": f"imported note number {i}",
            "namespace": "imported",
            "tags": [],
            "importance": 0.5,
            "source": "import",
            "metadata": {},
            "access_count": 0,
            "created_at": "2024-01-01T00:00:00Z",
            "updated_at": "2024-01-01T00:00:00Z",
            "last_accessed": "2024-01-01T00:00:00Z",
        }
        for i in range(count)
    ]


Answers = dict[int | str | None, dict[str, Any]]


async def answers(process: Process, wanted: set[int | str | None] | None) -> Answers:
    """The answers a server started by hand writes, by id: until every id of `wanted` has
    one (None: until its output closes)."""
    assert process.stdout is not None
    found: Answers = {}
    buffer = b""
    with anyio.fail_after(120):
        async for chunk in process.stdout:
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                message = json.loads(line)
                if "id" in message:
                    found[message["id"]] = message
            if wanted is not None and wanted <= set(found):
                return found
    if wanted is not None:
        raise AssertionError(f"server closed its output before answering {wanted - set(found)}")
    return found


@pytest.fixture(params=["sqlite", "postgresql"])
def store_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The environment that puts the servers' store on each engine."""
    if request.param == "sqlite":
        return {}
    return {"LOCI_DATABASE_URL": request.getfixturevalue("postgres_url")}
