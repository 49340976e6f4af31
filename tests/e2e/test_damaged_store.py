"""A damaged database file, met by real `loci` processes: the CLI and the MCP server name it."""

from __future__ import annotations

from pathlib import Path

import pytest

from loci.app import build_app
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft
from tests.conftest import damage_table
from tests.e2e.conftest import connected
from tests.e2e.conftest import run_loci as loci
from tests.results import tool_error

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


@pytest.fixture
def damaged_home(tmp_path: Path, embedder) -> Path:
    home = tmp_path / "home"
    app = build_app(load_settings(home=home), embedder=embedder)
    app.memory.remember_batch(
        [MemoryDraft(f"memory {n} about kites and gardens") for n in range(40)]
    )
    app.close()
    damage_table(home / "loci.db", "memories")
    return home


async def test_the_cli_and_the_server_name_a_damaged_file(damaged_home: Path) -> None:
    recall = loci(damaged_home, "recall", "kites")
    assert recall.returncode == 6, recall.stderr
    assert "is damaged" in recall.stderr and "Traceback" not in recall.stderr
    doctor = loci(damaged_home, "doctor")
    assert doctor.returncode == 1 and "Traceback" not in doctor.stderr
    assert "PROBLEM: the database file is damaged" in doctor.stderr

    async with connected(damaged_home) as client:
        for tool, arguments in [("recall", {"query": "kites"}), ("stats", {})]:
            result = await client.call_tool(tool, arguments)
            assert result.is_error, tool
            error = tool_error(result)
            assert error["type"] == "storage_unavailable", error
            assert "is damaged" in error["message"] and error["details"]["reason"]
